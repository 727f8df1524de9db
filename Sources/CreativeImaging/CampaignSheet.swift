import CreativeCore

/// `campaign.png` (or `campaign.jpg`, ``SheetFile``): the contact sheet of a campaign, drawn by the preview sheet's code: every
/// device slot of the campaign (``DevicePlan/campaignPlan(_:product:)``) with the creative
/// served in it, its size and fill in the caption.
public enum CampaignSheet {
    /// The largest size the sheet draws a creative of `artwork` at, among the campaign's sizes:
    /// its content in the largest slot it is served in, at the largest of
    /// ``PreviewSheet/servedPointScales`` whose layout fits the sheet's pixels (the one the sheet
    /// starts from), never more than the artwork itself.
    public static func drawnSize(_ artwork: PixelSize, campaign: [PixelSize], product: Product) -> PixelSize {
        let plan = DevicePlan.campaignPlan(campaign, product: product)
        let scale = layoutScale(plan, campaign: campaign, product: product)
        let rows = PreviewSheet.groups(plan, creative: nil, scale: scale).flatMap(\.rows).filter { $0.assignment.artwork == artwork }
        guard let largest = rows.map(\.placement.content).max(by: { ($0.pixelCount ?? 0) < ($1.pixelCount ?? 0) }),
              largest.width < artwork.width, largest.height < artwork.height, largest.width > 0, largest.height > 0 else {
            return artwork
        }
        return largest
    }

    /// The scale the sheet of `plan` is laid out at first: the largest of
    /// ``PreviewSheet/servedPointScales`` whose layout, every slot drawn, fits
    /// ``ProcessPlan/sheetPixels(_:)`` (the largest when none can be laid out).
    static func layoutScale(_ plan: [SlotAssignment], campaign: [PixelSize], product: Product) -> Double {
        let scales = PreviewSheet.servedPointScales
        guard let lettering = try? lettering(plan, campaign: campaign, product: product, served: plan.count) else {
            return scales.first ?? 1
        }
        for (index, scale) in scales.enumerated() {
            let groups = PreviewSheet.groups(plan, creative: nil, scale: scale)
            guard let layout = try? PreviewSheet.Layout.fitting(groups, lettering: lettering, scaleIndex: index) else { continue }
            if (layout.size.pixelCount ?? Int.max) <= ProcessPlan.sheetPixels(product) { return scale }
        }
        return scales.last ?? 1
    }

    /// The sheet's title and summary: `served` of the plan's slots drawn with their creative.
    static func lettering(_ plan: [SlotAssignment], campaign: [PixelSize], product: Product,
                          served: Int) throws(ImagingError) -> PreviewSheet.Layout.Lettering {
        let names = campaign.map(\.description).joined(separator: ", ")
        return try PreviewSheet.Layout.Lettering(
            PreviewSheet.groups(plan, creative: nil, scale: 1),
            title: "Campaign of \(names) (\(product.title.lowercased())) in every device slot", creative: nil,
            summary: ["\(plan.count) device slots; \(served) drawn with the creative served there"
                      + (served < plan.count ? ", the others (sizes given with --with) left grey." : ".")])
    }

    /// The bytes a creative's copy for the sheet (``copy(_:campaign:product:)``) holds at most:
    /// four bands of its ``drawnSize(_:campaign:product:)``. With `campaign` the creative's size
    /// alone, a bound for any campaign it is part of: among more sizes it is served in fewer slots.
    public static func copyBytes(_ artwork: PixelSize, campaign: [PixelSize], product: Product) -> Int {
        JobCost.multiplying(drawnSize(artwork, campaign: campaign, product: product).pixelCount ?? Int.max, 4)
    }

    /// The copy of a creative's decode (upright, 8-bit sRGB, its displayed size) the sheet draws
    /// it from: scaled to ``drawnSize(_:campaign:product:)``, in memory. Made by the creative's
    /// own job from the decode its renders scale from, so the sheet decodes nothing again.
    public static func copy(_ decoded: VImage, campaign: [PixelSize], product: Product) throws(ImagingError) -> VImage {
        let size = drawnSize(decoded.size, campaign: campaign, product: product)
        return try ScaleStep.thumbnail(decoded, to: size).materialized()
    }

    /// Draws the sheet from each rendered creative's copy (its size, ``copy(_:campaign:product:)``),
    /// and writes it through `sink` when given. Sizes of `campaign` without a copy (given with
    /// `with`) keep their slots grey. The job is charged the copies held and the sheet before it
    /// starts; nothing is decoded.
    /// - Throws: ``ImagingError`` over the budget or past the deadline.
    public static func draw(_ creatives: [(PixelSize, VImage)], campaign: [PixelSize], product: Product,
                            limits: ValidationLimits, writingTo sink: JobFileSink? = nil) throws(ImagingError) -> JobFile {
        // The job's deadline bound while the sheet is drawn: its bands stop at it.
        try limits.job.asJob { (job) throws(ImagingError) in
            try drawing(creatives, campaign: campaign, product: product, job: job, writingTo: sink)
        }
    }

    /// ``draw(_:campaign:product:limits:writingTo:)`` with the job's limits started (`job`) and its deadline bound.
    private static func drawing(_ creatives: [(PixelSize, VImage)], campaign: [PixelSize], product: Product,
                                job: JobLimits, writingTo sink: JobFileSink?) throws(ImagingError) -> JobFile {
        var held = 0
        var images: [PixelSize: VImage] = [:]
        for (size, image) in creatives {
            held = JobCost.adding(held, JobCost.multiplying(image.size.pixelCount ?? Int.max, image.bands))
            images[size] = image
        }
        try job.charge(JobCost(decode: held, output: ProcessPlan.sheetBytes(product)))
        let plan = DevicePlan.campaignPlan(campaign, product: product)
        let served = PreviewSheet.groups(plan, creative: nil, scale: 1).flatMap(\.rows)
            .filter { images[$0.assignment.artwork] != nil }.count
        let lettering = try lettering(plan, campaign: campaign, product: product, served: served)
        let sheet = try PreviewSheet.drawRows(lettering: lettering, product: product, images: images) { scale in
            PreviewSheet.groups(plan, creative: nil, scale: scale)
        }
        return try JobFile(name: PreviewSheet.fileName(CampaignJob.sheetStem, sheet), bytes: sheet.bytes,
                           sha256: Checksum.sha256(sheet.bytes), format: sheet.format, encoding: sheet.encoding, writingTo: sink)
    }
}
