import CreativeCore
import CreativeImaging
import CreativeOperations

/// `POST /v1/campaign`: several creatives as one campaign (`process FILE FILE...`), answered with
/// its `campaign.json`, or with `Accept: application/zip` the folder `process` writes, zipped.
enum CampaignHandlers {
    /// Largest number of creatives in one request.
    static let maxCreatives = 16

    /// The body is `multipart/form-data`, one part with a `filename` per creative (parts without
    /// one are ignored); `?product=`, `?format=`, `?with=`, `?weight_budget=` and `?profile=` as for `/v1/process`. Each valid
    /// creative is processed among the campaign's sizes, one after the other within one job
    /// reservation (the largest creative's, ``CampaignOperation/memory(_:product:sheet:)``) and each within the job's deadline; the renders are
    /// counted, weighed and dropped. 200 with `campaign.json` (no contact sheet: `"sheet": null`),
    /// whether or not every creative is valid; 400 for a body that is not such a form.
    /// With `Accept: application/zip`, 200 with `campaign.zip`: each creative's folder (its files
    /// and manifest, or its manifest alone when rejected), the contact sheet (`campaign.png` or
    /// `campaign.jpg`) and `campaign.json` naming it; the files kept are charged as they are
    /// kept and until the answer's last byte is sent (``CampaignZip``).
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
        let zipped = ZipAnswer.wanted(request.accept)
        // Charged for what the campaign holds at once: one creative's job, the largest's (the
        // approvals keep no pixels; the parts' bytes are the body's, charged as it was read; a
        // zip answer's sheet is drawn from a small copy each creative's job keeps, charged too).
        let (campaign, zip) = try context.runJob(request, product: product, memory: {
            CampaignOperation.memory(uploads, product: product, sheet: zipped)
        }) { job throws(ServiceError) -> (JSONValue, BodyStream?) in
            let operation = CampaignOperation(asked, limits: ValidationLimits(job: job.limits, product: product))
            // Each part read, validated and decoded once: its render uses the approval.
            let approval = operation.approve(uploads)
            guard zipped else {
                // Weighed, not kept: the answer is campaign.json.
                let outcome = operation.run(approval, sheet: false, sink: { _, _ in { _, _ in } }, keep: { _, _ in })
                if let (index, error) = outcome.stopped { throw ImageHandlers.rejection(error, upload: uploads[index], product: product, job: job) }
                return (operation.json(outcome, sheet: nil), nil)
            }
            let kept = CampaignZip(budget: job.reservation.budget)
            let outcome = operation.run(approval, sheet: true, sink: { _, _ in nil }, keep: { index, output in
                kept.keep(output, folder: approval.names[index])
            })
            if let (index, error) = outcome.stopped { throw ImageHandlers.rejection(error, upload: uploads[index], product: product, job: job) }
            let sheet: JobFile?
            do throws(ImagingError) { sheet = try operation.sheet(outcome) } catch {
                throw ImageHandlers.rejection(error, upload: uploads[0], product: product, job: job)
            }
            let json = operation.json(outcome, sheet: sheet)
            kept.add((sheet.map { [($0.name, $0.bytes)] } ?? [])
                     + [(CampaignJob.campaignName, Array((json.serialized() + "\n").utf8))])
            return (json, BodyStream(parts: ZipAnswer.parts(kept.files), hold: kept.hold))
        }
        guard let zip else { return .json(campaign) }
        var response = Response(contentType: ZipAnswer.mediaType, body: [])
        response.stream = zip
        response.headers = [("Content-Disposition", "attachment; filename=\"campaign.zip\"")]
        return response
    }
}
