import CreativeCore

/// `campaign.png` (or `campaign.jpg`, ``SheetFile``): the contact sheet of a campaign, drawn by the preview sheet's code: every
/// device slot of the campaign (``DevicePlan/campaignPlan(_:product:)``) with the creative
/// served in it, its size and fill in the caption.
public enum CampaignSheet {
    /// Draws the sheet from each rendered creative's bytes (its size, the file), and writes it
    /// through `sink` when given. Sizes of `campaign` without bytes (given with `with`) keep
    /// their slots grey. The job is charged each decode held and the sheet before it starts.
    /// - Throws: ``ImagingError`` when a creative cannot be decoded again, or over the budget.
    public static func draw(_ creatives: [(PixelSize, [UInt8])], campaign: [PixelSize], product: Product,
                            limits: ValidationLimits, writingTo sink: JobFileSink? = nil) throws(ImagingError) -> JobFile {
        let job = limits.job.started()
        // The job's deadline bound while the sheet is drawn: its decodes and bands stop at it.
        return try JobDeadline.binding(job.startDeadline()) { () throws(ImagingError) in
            try drawing(creatives, campaign: campaign, product: product, limits: limits, job: job, writingTo: sink)
        }
    }

    /// ``draw(_:campaign:product:limits:writingTo:)`` with the job's limits started (`job`) and its deadline bound.
    private static func drawing(_ creatives: [(PixelSize, [UInt8])], campaign: [PixelSize], product: Product,
                                limits: ValidationLimits, job: JobLimits,
                                writingTo sink: JobFileSink?) throws(ImagingError) -> JobFile {
        var sources: [(PixelSize, ImageSource)] = []
        var decodes = 0, samples = 0
        for (size, bytes) in creatives {
            let source = try Validator.renderSource(bytes, fileName: CampaignJob.sheetStem, maxPixels: limits.maxPixels)
            let cost = JobCost.decode(source, content: nil)
            decodes = JobCost.adding(decodes, cost.decode, JobCost.multiplying(size.pixelCount ?? Int.max, 4))
            samples = JobCost.adding(samples, cost.decodedSamples)
            sources.append((size, source))
        }
        let sheetBytes = ProcessPlan.sheetBytes(product)
        try job.charge(JobCost(decode: decodes, output: sheetBytes, decodedSamples: samples))
        var images: [PixelSize: VImage] = [:]
        for (size, source) in sources {
            images[size] = try ColourStep.srgb8(try ScaleStep.thumbnail(source, to: source.displayedSize, checked: true))
                .materialized()
        }
        let plan = DevicePlan.campaignPlan(campaign, product: product)
        let plain = PreviewSheet.groups(plan, creative: nil, scale: 1)
        let served = plain.flatMap(\.rows).filter { images[$0.assignment.artwork] != nil }.count
        let names = campaign.map(\.description).joined(separator: ", ")
        let lettering = try PreviewSheet.Layout.Lettering(
            plain, title: "Campaign of \(names) (\(product.title.lowercased())) in every device slot", creative: nil,
            summary: ["\(plan.count) device slots; \(served) drawn with the creative served there"
                      + (served < plan.count ? ", the others (sizes given with --with) left grey." : ".")])
        let sheet = try PreviewSheet.drawRows(lettering: lettering, product: product, images: images) { scale in
            PreviewSheet.groups(plan, creative: nil, scale: scale)
        }
        return try JobFile(name: PreviewSheet.fileName(CampaignJob.sheetStem, sheet), bytes: sheet.bytes,
                           sha256: Checksum.sha256(sheet.bytes), format: sheet.format, encoding: sheet.encoding, writingTo: sink)
    }
}
