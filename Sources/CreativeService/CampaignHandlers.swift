import CreativeCore
import CreativeImaging
import CreativeOperations

/// `POST /v1/campaign`: several creatives as one campaign (`process FILE FILE...`), answered with
/// its `campaign.json`.
enum CampaignHandlers {
    /// Largest number of creatives in one request.
    static let maxCreatives = 16

    /// The body is `multipart/form-data`, one part with a `filename` per creative (parts without
    /// one are ignored); `?product=`, `?format=`, `?with=`, `?weight_budget=` and `?profile=` as for `/v1/process`. Each valid
    /// creative is processed among the campaign's sizes, one after the other within one job
    /// reservation (the largest creative's, ``CampaignOperation/memory(_:product:sheet:)``) and each within the job's deadline; the renders are
    /// counted, weighed and dropped. 200 with `campaign.json` (no contact sheet: `"sheet": null`),
    /// whether or not every creative is valid; 400 for a body that is not such a form.
    static func campaign(_ request: Request, _ context: ServiceContext) throws(ServiceError) -> Response {
        let asked = try ServiceError.reading { () throws(CoreError) in try ProcessRequest(request.query) }
        guard let boundary = MultipartForm.boundary(request.contentType) else {
            throw .badRequest("the body must be multipart/form-data: one part per creative, each with a filename")
        }
        let form = try MultipartForm(request.body, boundary: boundary)
        var uploads: [Upload] = []
        for part in form.parts {
            guard let fileName = part.fileName else { continue }
            uploads.append(Upload(part.bytes, fileName: try ImageHandlers.fileName(fileName)))
        }
        guard !uploads.isEmpty else { throw .badRequest("the form holds no file: give each creative as a part with a filename") }
        guard uploads.count <= maxCreatives else {
            throw .badRequest("\(uploads.count) creatives; a campaign request takes at most \(maxCreatives)")
        }
        let product = asked.product
        // Charged for what the campaign holds at once: one creative's job, the largest's (the
        // approvals keep no pixels; the parts' bytes are the body's, charged as it was read; no
        // sheet is drawn, so no creative keeps a copy for it).
        let campaign = try context.runJob(request, product: product, memory: {
            CampaignOperation.memory(uploads, product: product, sheet: false)
        }) { job throws(ServiceError) -> JSONValue in
            let operation = CampaignOperation(asked, limits: ValidationLimits(job: job.limits, product: product))
            // Each part read, validated and decoded once: its render uses the approval.
            let approval = operation.approve(uploads)
            // Weighed, not kept: the answer is campaign.json.
            let outcome = operation.run(approval, sheet: false, sink: { _, _ in { _, _ in } }, keep: { _, _ in })
            if let (index, error) = outcome.stopped { throw ImageHandlers.rejection(error, upload: uploads[index], job: job) }
            return operation.json(outcome, sheet: nil)
        }
        return .json(campaign)
    }
}
