import CreativeCore
import CreativeImaging
import CreativeOperations

/// `POST /v1/fix`: `creative-tool fix` over HTTP, with the same options (``FixRequest``) and the same
/// operation (``FixOperation``), run in a job slot with its cost taken from the process-wide budget
/// and the job's deadline.
enum FixHandlers {
    /// The body is the upload; the query is `fix`'s options (`size`, `product`, `frame`, `format`: without
    /// it, the upload's format where it fits the weight, else JPEG, or WebP for transparent pixels).
    /// Answers 200 with the fixed file in its media type, each change in an `X-Creative-Change` header
    /// (`code: message`, one header a change, in order), the encoding in `X-Creative-Encoding`, and each
    /// warning of the artwork itself that remains in an `X-Creative-Warning` (`code: message`); with
    /// `Accept: application/json`, one JSON document (schemas/fix.schema.json) whose `base64` is the file.
    /// A frame the animation lacks -> 400; a refused fix or a creative that cannot be read -> 422 with
    /// its code and the upload's validation report (an empty body too: `empty_file`, as `/v1/process`).
    static func fix(_ request: Request, _ context: ServiceContext) throws(ServiceError) -> Response {
        let fixRequest = try ServiceError.reading { () throws(CoreError) in try FixRequest(request.query) }
        let upload = Upload(request.body, fileName: "upload")
        let operation = FixOperation(fixRequest)
        let fixed = try context.runJob(request, product: fixRequest.product, memory: {
            operation.memory(upload, memoryBudget: context.config.jobBudget(for: fixRequest.product))
        }) { job throws(ServiceError) -> FixedUpload in
            do throws(OperationError) { return try operation.run(upload, limits: job.limits) } catch {
                throw ImageHandlers.failure(error)
            }
        }
        if wantsJSON(request.accept) {
            return .json(fixed.json(input: nil, file: nil, base64: Base64.encode(fixed.bytes)))
        }
        var response = Response(contentType: fixed.mediaType, body: fixed.bytes)
        response.headers.append(("X-Creative-Encoding", fixed.encoding))
        for change in fixed.changes { response.headers.append(("X-Creative-Change", "\(change.kind.rawValue): \(change.message)")) }
        for warning in fixed.remaining {
            response.headers.append(("X-Creative-Warning", "\(warning.code.rawValue): \(warning.message)"))
        }
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
