import CreativeCore
import CreativeImaging

/// `POST /v1/validate` and `POST /v1/render`: image jobs, run in a job slot (``JobGate``).
enum ImageHandlers {
    /// The body is the upload; `?filename=` names it in the report and for the extension check.
    /// Answers 200 with the report whether the creative is valid or not.
    static func validate(_ request: Request, _ context: ServiceContext) throws(ServiceError) -> Response {
        try request.query.check(allowed: ["filename"])
        let name = try fileName(request.query.value("filename"))
        let report = try context.gate.run { () throws(ServiceError) -> ValidationReport in
            Validator.validate(request.body, fileName: name)
        }
        var response = Response.json(report.json)
        response.rejectionCodes = report.errors.map(\.code.rawValue)
        return response
    }

    /// Largest render the service makes (width x height in pixels): 4096 x 4096. The CLI has no
    /// such cap; a service must not let one request take gigabytes.
    static let maxCanvasPixels = 16_777_216

    /// Query parameters of a render, as the CLI's flags: `slot=WxH` (points, required), `scale`,
    /// `background`, `format`, `enlarge=false` (the CLI's `--no-enlarge`).
    static func renderSettings(_ query: Query) throws(ServiceError) -> RenderSettings {
        try query.check(allowed: ["slot", "scale", "background", "format", "enlarge"])
        guard let points = try query.size("slot") else { throw .badRequest("slot=WxH is required (for example 390x61)") }
        let scale = try query.double("scale") ?? 1
        let format = try query.choice("format", OutputFormat.self) ?? .png
        let enlarge = try query.bool("enlarge") ?? true
        let settings: RenderSettings
        do {
            settings = try RenderSettings(slot: points, scale: scale, format: format,
                                          background: query.value("background"), enlarge: enlarge)
        } catch {
            throw .badRequest(TextFormat.clipped(error.description, 120))
        }
        guard settings.canvas.area <= maxCanvasPixels else {
            throw .badRequest("slot x scale is \(settings.canvas) pixels, over the service's cap of \(maxCanvasPixels) pixels")
        }
        return settings
    }

    /// The body is the creative (empty: the built-in test artwork picked for the slot, as the CLI
    /// does with no file); answers the image. A creative that cannot be opened or decoded -> 422
    /// with its validation report.
    static func render(_ request: Request, _ context: ServiceContext) throws(ServiceError) -> Response {
        let settings = try renderSettings(request.query)
        let bytes = try context.gate.run { () throws(ServiceError) -> [UInt8] in
            let source = try openSource(request.body, canvas: settings.canvas)
            do throws(ImagingError) {
                return try Renderer.render(source, settings: settings)
            } catch {
                throw rejection(error, body: request.body)
            }
        }
        return Response(contentType: settings.format.mediaType, body: bytes)
    }

    /// The uploaded creative, or the test artwork that the adaptive rule picks for the canvas.
    private static func openSource(_ body: [UInt8], canvas: PixelSize) throws(ServiceError) -> ImageSource {
        if body.isEmpty {
            do { return try TestArtwork.source(for: canvas) } catch { throw .internalError(error.description) }
        }
        do {
            return try Validator.renderSource(body, fileName: "upload")
        } catch {
            throw rejection(error, body: body)
        }
    }

    /// A creative the imaging layer refused: 422 with the validation report, which names every problem.
    /// A failure on a creative that validates cleanly is the service's own fault: 500.
    static func rejection(_ error: ImagingError, body: [UInt8]) -> ServiceError {
        let report = Validator.validate(body, fileName: "upload", limits: ValidationLimits(maxBytes: max(body.count, 1)))
        if report.valid, case .operationFailed = error {
            return .internalError(error.message)
        }
        return .unprocessable(code: error.code, message: error.message, report: report.json)
    }

    /// The name a report carries: the caller's (at most 255 characters; control characters
    /// dropped), or `upload`. It is only a label: no file is ever opened by that name.
    static func fileName(_ given: String?) throws(ServiceError) -> String {
        guard let given, !given.isEmpty else { return "upload" }
        guard given.count <= 255 else { throw .badRequest("filename is over 255 characters") }
        return String(String.UnicodeScalarView(given.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
    }
}
