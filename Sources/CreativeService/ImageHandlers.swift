import CreativeCore
import CreativeImaging
import CreativeOperations

/// `POST /v1/validate` and `POST /v1/render`: image jobs, run in a job slot with their decode
/// memory taken from the process-wide budget and a deadline (``ServiceContext/runJob(_:product:memory:_:)``).
enum ImageHandlers {
    /// The body is the upload; `?filename=` names it in the report and for the extension check,
    /// `?product=` says whose sizes are accepted (default banner), `?profile=` the platform
    /// profiles checked.
    /// Answers 200 with the report whether the creative is valid or not; 422 `timeout` (with the
    /// report) when its decode ran past the job's deadline.
    static func validate(_ request: Request, _ context: ServiceContext) throws(ServiceError) -> Response {
        let name = try fileName(request.query.value(ValidateRequest.fileName.name))
        let asked = try ServiceError.reading { () throws(CoreError) in try ValidateRequest(request.query) }
        let upload = Upload(request.body, fileName: name)
        let report = try context.runJob(request, product: asked.product, memory: {
            ValidateOperation.memory(upload, product: asked.product, profiles: asked.profiles)
        }) { job throws(ServiceError) in
            let report = ValidateOperation.report(upload, limits: ValidateOperation.limits(asked, job: job.limits))
            try checkTimeout(report)
            return report
        }
        var response = Response.json(report.json)
        response.rejectionCodes = report.errors.map(\.code.rawValue)
        return response
    }

    /// Largest render the service makes (width x height in pixels): 4096 x 4096. The CLI has no
    /// such cap; a service must not let one request take gigabytes.
    static let maxCanvasPixels = 16_777_216

    /// A render's query (``RenderRequest``: the CLI's flags by their query names): `slot=WxH` or
    /// `WxH@Nx` (points), `scale`, `background`, `format`, `quality`, `enlarge=false`; or
    /// `device=NAME&orientation=O` for the product's slot on a device.
    static func renderRequest(_ query: Query) throws(ServiceError) -> RenderRequest {
        return try ServiceError.reading { () throws(CoreError) in
            try RenderRequest(query, maxCanvasPixels: maxCanvasPixels)
        }
    }

    /// The body is the creative (empty: the built-in test artwork picked for the slot, as the CLI
    /// does with no file); answers the image (``RenderOperation``). A creative that cannot be
    /// opened or decoded -> 422 with its validation report.
    static func render(_ request: Request, _ context: ServiceContext) throws(ServiceError) -> Response {
        let renderRequest = try renderRequest(request.query)
        let operation: RenderOperation
        do throws(OperationError) {
            operation = try RenderOperation(renderRequest, input: .upload(Upload(request.body, fileName: "upload")))
        } catch {
            throw failure(error)
        }
        // The job is charged the operation's cost, from the header of the one source it then renders.
        var opened: Result<RenderOperation.Artwork, ImagingError>?
        let rendered = try context.runJob(request, product: renderRequest.product, memory: {
            let result = operation.open()
            opened = result
            guard case .success(let artwork) = result else { return 0 }
            return operation.cost(artwork, memoryBudget: context.config.jobBudget(for: renderRequest.product)).memory
        }) { job throws(ServiceError) -> RenderOperation.Rendered in
            do throws(OperationError) {
                return try operation.run(opened ?? operation.open(), limits: job.limits).get()
            } catch {
                throw failure(error)
            }
        }
        let encoded = rendered.encoded
        var response = Response(contentType: encoded.format.mediaType, body: encoded.bytes)
        response.headers.append(("X-Creative-Encoding", encoded.detail))
        // The budget the render met, and the profile whose weight for the size it is.
        response.headers.append(("X-Creative-Weight-Budget", String(renderRequest.weightBudget.bytes)))
        if let profile = renderRequest.weightBudget.profile {
            response.headers.append(("X-Creative-Weight-Budget-Profile", profile))
        }
        if !rendered.notes.isEmpty { response.headers.append(("X-Creative-Note", rendered.notes.joined(separator: "; "))) }
        return response
    }

    /// A report whose decode ran past the deadline: 422 `timeout`, with the report.
    static func checkTimeout(_ report: ValidationReport) throws(ServiceError) {
        guard let timeout = report.errors.first(where: { $0.code == .timeout }) else { return }
        throw .unprocessable(code: timeout.code.rawValue, message: timeout.message, report: report.json)
    }

    /// A creative the imaging layer refused, as ``OperationError/rejection(_:upload:product:profiles:limits:)``
    /// tells it, within what is left of the job's deadline (``failure(_:)``).
    static func rejection(_ error: ImagingError, upload: Upload, product: Product, job: ImageJob) -> ServiceError {
        failure(.rejection(error, upload: upload, product: product, limits: job.rest))
    }

    /// An operation's failure as the service answers it: a render without the artwork it needs,
    /// or a request the upload cannot meet -> 400; a rejected creative -> 422 with its validation report, which names every problem;
    /// a job past its deadline or cancelled -> 422 `timeout` (or `cancelled`) without a report; the
    /// tool's own failure (on a creative that validates cleanly, or on its test artwork) -> 500.
    static func failure(_ error: OperationError) -> ServiceError {
        switch error {
        case .needsArtwork(let product): .badRequest("an \(product) render needs the artwork as the body")
        case .invalidRequest(let message): .badRequest(message)
        case .rejected(let error, let report):
            // One sentence a code in one answer: the report's, when it names the same code.
            .unprocessable(code: error.code, message: report?.errors.first { $0.code.rawValue == error.code }?.message ?? error.message,
                           report: report?.json)
        case .stopped(let error): .unprocessable(code: error.code, message: error.message, report: nil)
        case .fault(_, let message): .internalError(message)
        }
    }

    /// The name a report carries: the caller's (at most 255 characters; control characters
    /// dropped), or `upload`. It is only a label: no file is ever opened by that name.
    static func fileName(_ given: String?) throws(ServiceError) -> String {
        guard let given, !given.isEmpty else { return "upload" }
        guard given.count <= 255 else { throw .badRequest("filename is over 255 characters") }
        return String(String.UnicodeScalarView(given.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
    }
}
