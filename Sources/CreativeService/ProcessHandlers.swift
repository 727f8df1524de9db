import CreativeCore
import CreativeImaging
import CreativeOperations

/// `POST /v1/process`: the upload pipeline's job (`creative-tool process`) as one JSON answer.
enum ProcessHandlers {
    /// With `Accept: application/zip`, a valid creative's answer is a zip of the folder `process`
    /// writes (the renders, `preview.png` or `preview.jpg`, `preview.html`, `manifest.json`), streamed from the job's files
    /// (``ZipAnswer``), with no size cap beyond the job's own memory budget.
    /// The body is the creative, `?filename=` its name. Valid: 200 with
    /// `{"manifest": {...}, "files": [{"name", "sha256", "bytes", "base64"}]}` (the renders and the
    /// preview sheet, base64 in JSON: one self-describing document, no multipart parser needed),
    /// as long as the files total at most ``ServiceConfig/maxInlineFileBytes``; over it 422
    /// `answer_too_large` (an interstitial's renders reach 6 to 14 MB; a sheet is at most 2 MB for a
    /// banner, 8 MB for an interstitial, ``SheetFile``). Bounded answers:
    /// - `inline=false`: the same document without `base64`: the manifest and each file's name,
    ///   SHA-256 and size;
    /// - `file=NAME`: that one file's bytes, in its own media type, with `X-Creative-SHA256`.
    ///   The service keeps nothing between requests: the client posts the same body and
    ///   parameters again, and the job (deterministic) makes the same files.
    /// Rejected: 422 with the validation report, like render; 422 `timeout` past the job's deadline.
    /// `?product=` as for validate; `?format=` as `process --format` (`auto` by default).
    static func process(_ request: Request, _ context: ServiceContext) throws(ServiceError) -> Response {
        let name = try ImageHandlers.fileName(request.query.value(ValidateRequest.fileName.name))
        let asked = try ServiceError.reading { () throws(CoreError) in try ProcessRequest(request.query) }
        let (product, inline, wanted) = (asked.product, asked.inline, asked.file)
        let upload = Upload(request.body, fileName: name)
        let zipped = wanted == nil && ZipAnswer.wanted(request.accept)
        let (output, zip) = try context.runJob(request, product: product, memory: {
            ProcessOperation.memory(upload, product: product)
        }) { job throws(ServiceError) -> (ProcessOperation.Output, BodyStream?) in
            let output: ProcessOperation.Output
            do throws(OperationError) {
                output = try ProcessOperation(asked, limits: ValidationLimits(job: job.limits, product: product)).run(upload)
            } catch {
                throw ImageHandlers.failure(error)
            }
            try ImageHandlers.checkTimeout(output.result.report)
            // The zip answer holds the job's files until its last byte is sent (a slow reader
            // takes minutes): charged from the job's own reservation before the job gives it back.
            guard zipped, output.result.report.valid else { return (output, nil) }
            return (output, BodyStream(parts: ZipAnswer.parts(output.files), hold: job.reservation.answerHold))
        }
        let result = output.result
        guard result.report.valid else {
            let first = result.report.errors.first
            throw .unprocessable(code: first?.code.rawValue ?? "creative_rejected",
                                 message: first?.message ?? "the creative was rejected", report: result.report.json)
        }
        if let wanted { return try fileAnswer(result, named: wanted) }
        if let zip { return zipAnswer(output, body: zip) }
        let total = result.files.reduce(0) { $0 + $1.byteCount }
        if inline && total > context.config.maxInlineFileBytes {
            throw .answerTooLarge(bytes: total, limit: context.config.maxInlineFileBytes)
        }
        return .json(.object([
            ("manifest", result.manifest),
            ("files", .array(result.files.map { file -> JSONValue in
                .object([("file", .string(file.name)), ("sha256", .string(file.sha256)), ("file_bytes", .int(file.byteCount))]
                        + (inline ? [("base64", .string(Base64.encode(file.bytes)))] : []))
            })),
        ]))
    }

    /// The zip answer: the job's files and its manifest, as the folder of `process` holds them
    /// (`body`: ``ZipAnswer/parts(_:)`` of them, charged until libmicrohttpd frees the answer).
    static func zipAnswer(_ output: ProcessOperation.Output, body: BodyStream) -> Response {
        var response = Response(contentType: ZipAnswer.mediaType, body: [])
        response.stream = body
        response.headers = [("Content-Disposition", "attachment; filename=\"process.zip\""),
                            ("X-Creative-Renders", String(output.result.slots.count))]
        return response
    }

    /// `file=NAME`: one file of the job, as itself.
    private static func fileAnswer(_ result: JobResult, named wanted: String) throws(ServiceError) -> Response {
        guard let file = result.files.first(where: { $0.name == wanted }) else {
            let names = result.files.map(\.name)
            throw .badRequest("file '\(TextFormat.clipped(wanted))' is not one of this job's \(names.count) files ("
                              + TextFormat.clipped(names.joined(separator: ", "), 300) + "); list them with inline=false")
        }
        var response = Response(contentType: file.mediaType, body: file.bytes)
        response.headers = [("X-Creative-SHA256", file.sha256), ("X-Creative-Encoding", file.encoding)]
        return response
    }
}
