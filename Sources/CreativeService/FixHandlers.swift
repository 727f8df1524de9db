import CreativeCore
import CreativeImaging

/// `POST /v1/fix`: `creative-tool fix` over HTTP, with the same options (``FixRequest``), run in a job
/// slot with its cost taken from the process-wide budget and the job's deadline.
enum FixHandlers {
    /// The body is the upload; the query is `fix`'s options (`size`, `product`, `frame`, `format`).
    /// Answers 200 with the fixed file in its media type, each change in an `X-Creative-Change` header
    /// (`code: message`, one header a change, in order) and the encoding in `X-Creative-Encoding`; with
    /// `Accept: application/json`, one JSON document (schemas/fix.schema.json) whose `base64` is the file.
    /// A frame the animation lacks -> 400; a refused fix or a creative that cannot be read -> 422 with
    /// its code and the upload's validation report.
    static func fix(_ request: Request, _ context: ServiceContext) throws(ServiceError) -> Response {
        let fixRequest = try ServiceError.reading { () throws(CoreError) in try FixRequest(request.query) }
        guard !request.body.isEmpty else { throw .badRequest("the upload to fix is the body") }
        let upload = Upload(request.body, fileName: "upload")
        var opened: Result<ImageSource, ImagingError>?
        let fixed = try context.runJob(request, memory: {
            let result = Result { () throws(ImagingError) in try Fixer.open(request.body) }
            opened = result
            guard case .success(let source) = result else { return 0 }
            return Fixer.plannedCost(source, request: fixRequest, memoryBudget: context.config.jobMemoryBudget)?.memory ?? 0
        }) { job throws(ServiceError) -> FixedUpload in
            guard let opened else { throw .internalError("the upload was not opened") }
            let source: ImageSource
            let format: ImageFormat
            do throws(ImagingError) {
                source = try opened.get()
            } catch {
                throw ImageHandlers.rejection(error, upload: upload, job: job)
            }
            format = try ServiceError.reading { () throws(CoreError) in try fixRequest.outputFormat(for: source.format) }
            do throws(ImagingError) {
                return try Fixer.fix(source, request: fixRequest, format: format,
                                     outputName: "fixed.\(format.extensions[0])", limits: job.limits)
            } catch .unfixable(let refusal) where refusal.isUsage {
                throw .badRequest(refusal.message)
            } catch {
                throw ImageHandlers.rejection(error, upload: upload, job: job)
            }
        }
        if wantsJSON(request.accept) {
            return .json(fixed.json(input: nil, file: nil, base64: Base64.encode(fixed.bytes)))
        }
        var response = Response(contentType: fixed.mediaType, body: fixed.bytes)
        response.headers.append(("X-Creative-Encoding", fixed.encoding))
        for change in fixed.changes { response.headers.append(("X-Creative-Change", "\(change.kind.rawValue): \(change.message)")) }
        return response
    }

    /// Whether an `Accept` header asks for JSON before the file: `application/json` named, with a
    /// quality above zero (`application/json;q=0` refuses it).
    static func wantsJSON(_ accept: String?) -> Bool {
        guard let accept else { return false }
        return accept.split(separator: ",").contains { range in
            let parts = range.split(separator: ";").map { String($0.filter { $0 != " " && $0 != "\t" }).lowercased() }
            return parts.first == "application/json" && !parts.dropFirst().contains { $0 == "q=0" || $0 == "q=0.0" }
        }
    }
}
