import CreativeCore

/// How `process` runs within its budget, decided before the decode (``JobCost``): charged for the
/// preview sheet and the renders side by side (``ParallelWork/width``) when the budget holds both,
/// else for one at a time; and, when even one at a time does not fit with its renders held, each
/// PNG render streamed and `auto` lossless without a search. Within the charge, the job's pieces
/// run side by side as far as their own parts of it fit (``PieceGate``: ``sheetPieceBytes``,
/// ``renderBytes``, ``appliedBytes``).
public struct ProcessPlan: Sendable, Equatable {
    /// What the job is charged.
    public let cost: JobCost
    /// Pieces the charge holds side by side whatever they are: 2 or 1.
    public let width: Int
    /// What each render's encoder may hold (``Encoder``'s `memoryBudget`).
    public let renderBudget: Int
    /// `auto` writes every render lossless, without a search: nothing lossy fits.
    public let autoLossless: Bool
    /// The most bytes an interstitial sheet's file may take: ``PreviewSheet/fullScreenFileRoom``
    /// and what the charge holds beyond the sheet (drawn alone, it may use what the largest render
    /// is charged; beside a render, what is left beside both), so a photograph's 2x sheet fits
    /// without charging the job more.
    public let sheetFileRoom: Int
    /// What one render that searches (or, in a fixed format, any render) holds at most: its
    /// content, its pipeline and its encoder (a piece of ``PieceGate``).
    let renderBytes: Int
    /// What one `auto` render written with another render's decision holds at most: its content,
    /// its pipeline, the canvas held for its weight budget and a lossy encoder, no search.
    let appliedBytes: Int
    /// What drawing the preview sheet holds: the sheet's charge, and for an interstitial drawn
    /// alone, the room its file took from the renders.
    let sheetPieceBytes: Int

    /// The largest preview sheet of a product's catalog, in pixels, as the product declares it
    /// (``JobDefaults/sheetPixels``): `process` renders only valid creatives, so only catalog
    /// sizes. Strip and fixed-slot products: the slots served are drawn at 2x points
    /// (``PreviewSheet/servedPointScales``; a smaller scale only for a sheet over this, and at 1x
    /// a summary too long is cut short), and this holds every catalog size's sheet at 2x with
    /// every warning written out at length (laid out wider to stay within
    /// ``PreviewSheet/maximumSide``). Full-screen products: measured at 1x; not charged by the
    /// pixel (``sheetBytes(_:)``).
    public static func sheetPixels(_ product: Product) -> Int {
        product.jobDefaults.sheetPixels
    }

    /// What drawing a product's largest sheet is charged (``sheetPixels(_:)``): a part that does
    /// not grow with the sheet (the fonts' first use, the lettering, libvips' buffers) and bytes a
    /// sheet pixel (its pieces, one band and its file; noise, the heaviest file, is up to 3 bytes
    /// a drawn content pixel). Drawn alone at 2x with uniform noise as the creative and every
    /// warning, every banner sheet held 25-50 MB (50.0 for 300x250: 861x17506, a 25.8 MB file),
    /// every companion sheet 17-28 MB over the process before it. An interstitial sheet computes
    /// its screens a band at a time and writes its file into a fixed room
    /// (``PreviewSheet/fullScreenFileRoom``, then two thirds of the points), so it is charged
    /// that room and ``fullScreenBandBytes`` beside the fixed part, whatever its pixels.
    public static func sheetBytes(_ product: Product) -> Int {
        if product.isFullScreen {
            return JobCost.adding(sheetFixedBytes, JobCost.adding(PreviewSheet.fullScreenFileRoom, fullScreenBandBytes))
        }
        return JobCost.adding(sheetFixedBytes, JobCost.multiplying(sheetPixels(product), sheetQuarterBytesPerPixel) / 4)
    }

    /// The part of a sheet's charge that does not grow with it.
    static let sheetFixedBytes = 14 << 20
    /// Quarters of a byte a sheet pixel is charged beyond ``sheetFixedBytes``: 2.25 bytes.
    static let sheetQuarterBytesPerPixel = 9
    /// What an interstitial sheet holds besides its file: a band (``SheetCanvas/bandRows`` rows and
    /// its copy for the file) and each screen's content, scaled once per content size and held
    /// (at its points: 8 to 20 MB for the whole sheet; docs/cost-model.md).
    static let fullScreenBandBytes = 10 << 20

    /// The alpha band of `source`'s renders: they keep transparent bars where the format does
    /// (PNG, WebP), so an upload's own alpha channel is theirs too (``JobCost/AlphaBand``).
    static func alphaBand(_ source: ImageSource) -> JobCost.AlphaBand {
        JobCost.AlphaBand(source, background: .transparent)
    }

    /// Rows of the content a placement alone holds while it is scaled from the decode and pulled
    /// through its encoder, a thread: the resampler's tiles and the embed's strips. A 1920x1080
    /// creative's 2048x2732 screen in JPEG peaked 73.4 MB over the idle process, charged 71.3 MiB
    /// without these rows.
    static let streamedScaleRows = 256

    /// The plan for `source` (a valid creative) into every slot of `product` it is served in
    /// among the settings' `campaign` (the campaign's other sizes), in its `format` (for `auto`,
    /// among its `autoFormats`; nil: ``OutputFormat/autoDefault``).
    public init(_ source: ImageSource, product: Product, settings: ProcessSettings, memoryBudget: Int) {
        let (format, autoFormats, campaign) = (settings.format, settings.autoFormats, settings.campaign)
        let decode = JobCost.decode(source, content: nil).decode
        let sheet = Self.sheetBytes(product)
        let placements = Array(Set(DevicePlan.assignments(for: source.displayedSize, campaign: campaign, product: product)
            .map(\.placement)))
        // A content size several placements share is scaled once and held (8-bit RGBA at most: the
        // decode is held as 8-bit sRGB); a placement alone streams from the decode.
        let sample = source.header.isSixteenBit ? 2 : 1
        var sharing: [PixelSize: Int] = [:]
        for placement in placements { sharing[placement.content, default: 0] += 1 }
        let samples = JobCost.decode(source, content: nil).decodedSamples
        let alpha = Self.alphaBand(source)
        // What a render holds besides its encoder: its scaled content and its pipeline. PNG and
        // `auto` are still charged the content held, at the source's sample size: on libvips 8.14 a
        // 16-bit 1080x1920's PNG job peaked 3 MiB over the streamed charge.
        func held(_ placement: Placement) -> Int {
            let streamed = (sharing[placement.content] ?? 0) == 1 && format.fixed?.writer.streamsRender == true
            let content = streamed
                ? JobCost.multiplying(placement.content.width, 4, Self.streamedScaleRows, max(1, JobCost.threadsPerJob))
                : JobCost.multiplying(placement.content.pixelCount ?? Int.max, 4, sample)
            return JobCost.adding(content, JobCost.pipeline(canvas: placement.canvas))
        }
        // The largest render: its scaled content held, its pipeline and its encoder.
        func render(_ budget: Int, lossless: Bool) -> Int {
            placements.map { placement in
                let pixels = placement.canvas.pixelCount ?? Int.max
                let encoder: Int
                if format == .auto && !lossless {
                    // Each render searches (on at most the search's pixels), then is encoded.
                    let search = JobCost.autoSearchBytes(pixels: min(pixels, AutoEncoder.searchMaxPixels))
                    let avif = autoFormats?.contains(.avif) == true && AutoEncoder.triesAVIF(pixels: pixels)
                        ? JobCost.avifBytes(pixels: pixels, alpha: alpha) : 0
                    encoder = ([JobCost.EncoderKind.palette, .jpeg].map { JobCost.encoderBytes($0, pixels: pixels) }
                        + [JobCost.lossyWebPBytes(pixels: pixels, alpha: alpha, memoryBudget: budget), search, avif]).max() ?? 0
                } else {
                    encoder = JobCost.output(canvas: placement.canvas, format: format == .auto ? .fixed(.png) : format,
                                             memoryBudget: budget, alpha: format.supportsAlpha ? alpha : .none)
                        - JobCost.pipeline(canvas: placement.canvas)
                }
                return JobCost.adding(held(placement), encoder)
            }.max() ?? 0
        }
        // `auto` searches its smallest render alone first.
        let smallest = placements.min { $0.canvas.area < $1.canvas.area }?.canvas ?? PixelSize(width: 1, height: 1)
        let search = format == .auto
            ? AutoPlan(canvas: smallest, memoryBudget: max(0, memoryBudget - decode - JobCost.jobOverhead), oneOfMany: true,
                       allowed: autoFormats, alpha: alpha).memory
            : 0
        let left = max(0, memoryBudget - decode - JobCost.jobOverhead)
        // One at a time, the encoders may still choose what only fits beside nothing else (WebP's
        // sharp RGB to YUV conversion on a 2048x2732 screen): given only what the largest render's
        // content and pipeline leave, they choose what fits beside them, before `auto` is left
        // lossless PNG alone (an 806 KB 1080x1920 JPEG interstitial at 144 MiB was, every render
        // then over 150K and none written).
        let beside = max(0, left - (placements.map(held).max() ?? 0))
        var chosen: (width: Int, budget: Int, lossless: Bool, output: Int, sheetBeside: Int)?
        for (width, lossless, budget) in [(2, false, left), (1, false, left), (1, false, beside), (1, true, 0)] {
            let piece = render(budget, lossless: lossless)
            let sheetBeside = width == 2 ? JobCost.adding(sheet, piece) : sheet
            let output = max(search, width == 2 ? max(sheetBeside, JobCost.adding(piece, piece)) : max(sheet, piece))
            chosen = (width, budget, lossless, output, sheetBeside)
            if output <= left { break }
        }
        let plan = chosen ?? (1, 0, true, 0, sheet)
        renderBytes = render(plan.budget, lossless: plan.lossless)
        // A decided recipe: the render held for its weight budget, and the largest encoder auto
        // may apply it with (JPEG, WebP, a palette, AVIF where named and tried on the canvas).
        appliedBytes = placements.map { placement in
            let pixels = placement.canvas.pixelCount ?? Int.max
            let avif = autoFormats?.contains(.avif) == true && AutoEncoder.triesAVIF(pixels: pixels)
                ? JobCost.avifBytes(pixels: pixels, alpha: alpha) : 0
            let encoder = [JobCost.encoderBytes(.jpeg, pixels: pixels), JobCost.encoderBytes(.palette, pixels: pixels),
                           JobCost.lossyWebPBytes(pixels: pixels, alpha: alpha, memoryBudget: plan.budget), avif].max() ?? 0
            return JobCost.adding(held(placement), JobCost.adding(JobCost.multiplying(pixels, 4), encoder))
        }.max() ?? 0
        width = plan.width
        renderBudget = plan.budget
        autoLossless = format == .auto && plan.lossless
        sheetFileRoom = PreviewSheet.fullScreenFileRoom + max(0, plan.output - plan.sheetBeside)
        sheetPieceBytes = product.isFullScreen ? JobCost.adding(sheet, sheetFileRoom - PreviewSheet.fullScreenFileRoom) : sheet
        cost = JobCost(decode: decode, output: plan.output, decodedSamples: samples)
    }

    /// What a render's encoding line ends with when the plan left `auto` only lossless PNG.
    static let losslessNote = " (auto: only lossless PNG fits the memory budget)"
}
