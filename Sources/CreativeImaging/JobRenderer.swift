import CreativeCore

/// What `auto` decided on one render of a job, for the renders after it (``JobRenderer``).
struct JobDecision: Sendable {
    /// How the render was written.
    let recipe: AutoRecipe
    /// Its score against the lossless render (of the render itself, or of the smaller render it
    /// was decided on); nil when not measured (lossless).
    let score: PerceptualScore?
    /// A lossy WebP written with the plain RGB to YUV conversion (``EncodedRender/plainYUVKeepsTarget``).
    let plainYUV: Bool
    /// The canvas of the render that decided it (measured there, or on a smaller render of it).
    let measuredOn: PixelSize

    /// How far above both targets a decision must be to be written into other renders of the job
    /// unmeasured: renders of one creative at other scales scored within 0.006 of each other at
    /// the same quality (the test artwork's 28 renders at WebP 40: luma 0.994-0.997, chroma
    /// 0.966-0.984).
    static let wideMargin = 0.01

    /// Whether the decision holds for every render of the job unmeasured (where AVIF is not
    /// named: the smaller of WebP and AVIF changes with the scale): measured above both
    /// targets by ``wideMargin``, at the lowest quality of the search (nothing smaller to find
    /// at another scale) or a palette. A higher quality is checked at each scale: an
    /// interstitial's landscape screens (the content smallest, the most detail a pixel) took
    /// WebP 97 where its portrait screens keep the target at 94, 30% lighter.
    var isWide: Bool {
        guard let score, recipe.quality == nil || recipe.quality == AutoEncoder.qualities.first else { return false }
        return score.luma - AutoEncoder.lumaTarget >= Self.wideMargin
            && score.chroma - AutoEncoder.chromaTarget >= Self.wideMargin
    }

    /// What a render decided this way (searched or applied) is written with, as a recipe another
    /// render can apply (a lossy quality, a palette): nil for lossless and near-lossless WebP,
    /// which each render decides on its own (lossless is exact only up to 256 colours).
    init?(_ render: EncodedRender, measuredOn canvas: PixelSize, score: PerceptualScore? = nil) {
        guard let recipe = render.recipe, render.format == recipe.format else { return nil }
        switch recipe {
        case .lossy, .jpegFullChroma, .palette, .reducedPalette: break
        case .lossless, .nearLossless: return nil
        }
        self.recipe = recipe
        self.score = score ?? render.score
        plainYUV = render.plainYUVKeepsTarget
        measuredOn = canvas
    }

    /// The encoding line of a render written with this decision: the recipe, where it was measured.
    func detail(for render: EncodedRender) -> String {
        let measured = score.map { ", \($0.description)" } ?? ""
        return render.detail.replacingSuffix(AutoEncoder.decidedNote, with: "")
            + " (auto: as decided on the \(measuredOn) render\(measured))"
    }
}

/// How `process` writes each of its renders: the format, the limits each encoder works within,
/// the weight budget; `auto` searched on a render, then written into others as it decided.
struct JobRenderer: Sendable {
    /// The job's settings: the format, `auto`'s formats, and each render's weight budget, from its
    /// canvas (``RenderWeightBudget/applied(to:)``).
    let settings: ProcessSettings
    let limits: JobLimits
    /// The renders' alpha band, as the job was charged for it (``ProcessPlan/alphaBand(_:)``).
    let alpha: JobCost.AlphaBand

    private var format: FormatChoice { settings.format }
    private var autoFormats: Set<OutputFormat>? { settings.autoFormats }
    private var weightBudget: RenderWeightBudget { settings.weightBudget }

    /// The render settings of `placement`.
    private func renderSettings(_ placement: Placement) throws(ImagingError) -> RenderSettings {
        guard var settings = try? RenderSettings(canvas: placement.canvas, format: format,
                                                 background: format.defaultBackground(among: autoFormats)) else {
            throw .operationFailed("no render settings for \(placement.canvas)")
        }
        settings.autoFormats = autoFormats
        settings.area = placement.contentRect
        return settings
    }

    /// One render of `image` (the decoded creative, or already scaled to the placement's content)
    /// at `placement`, with the content where the placement puts it (centred in the canvas, or in
    /// a safe area) and transparent bars where the format keeps them. `auto` searches, from
    /// `start` (an earlier render's recipe, where the quality search starts); on a canvas over
    /// ``AutoEncoder/searchMaxPixels`` it searches a smaller render of the placement, then writes
    /// the canvas with what it found. Returns the render and, for `auto`, what it decided.
    /// - Throws: ``ImagingError/overWeightBudget(format:smallest:budget:shortfall:)`` when nothing fits.
    /// `searchesAVIF`: AVIF is searched beside WebP even where `start` is not AVIF (which of the
    /// two is smaller changes with the scale: the test artwork's smallest render is lighter as
    /// WebP, its others as AVIF).
    func render(_ image: VImage, at placement: Placement, start: AutoRecipe?,
                searchesAVIF: Bool = false) throws(ImagingError) -> (render: EncodedRender, decision: JobDecision?) {
        let startFormat = searchesAVIF && start?.format != .avif ? nil : start?.format
        // Scaled to the content size first: fitted again into the content's rectangle, the whole
        // creative can round a pixel short (2184x270 into 640x79 is 639 wide: min(640/2184, 79/270)).
        let image = image.size == placement.content ? image : try ScaleStep.thumbnail(image, to: placement.content)
        let settings = try renderSettings(placement)
        let weightBudget = weightBudget.applied(to: placement.canvas).bytes
        // A canvas over the search's size: searched on a smaller render, among what the whole
        // canvas can afford (AVIF only up to AutoEncoder.avifMaxPixels), as `render` does.
        let whole = AutoPlan(canvas: placement.canvas, memoryBudget: limits.memoryBudget, oneOfMany: true,
                             allowed: autoFormats, alpha: alpha)
        // What every encode of the job's renders shares: the format, the budget, the band, `auto`'s formats.
        let shared = EncodeRequest(format: format, memoryBudget: limits.memoryBudget, alpha: alpha,
                                   auto: .init(forOneOfMany: true, formats: autoFormats))
        if format == .auto, !whole.losslessOnly, let sample = settings.searchSample() {
            var search = shared
            search.content = sample.area
            search.auto.kinds = whole.kinds
            search.auto.startQuality = start?.quality
            search.auto.startFormat = startFormat
            search.auto.decidesForLarger = true
            let searched = try Encoder.encode(try Renderer.renderImage(decoded: image, settings: sample), search)
            if let recipe = searched.recipe {
                let decision = SampledDecision(recipe: recipe, sample: sample.canvas, ssim: searched.ssim,
                                               plainYUVKept: searched.plainYUVKeepsTarget)
                var written = shared
                written.weightBudget = weightBudget
                written.auto.recipe = recipe
                written.auto.plainYUVKept = decision.plainYUVKept
                var whole = try Encoder.encode(try Renderer.renderImage(decoded: image, settings: settings), written)
                guard whole.recipe == recipe else { return (whole, nil) }
                whole.detail = decision.detail(for: whole)
                return (whole, JobDecision(searched, measuredOn: placement.canvas))
            }
        }
        var request = shared
        request.content = placement.contentRect
        request.weightBudget = weightBudget
        request.auto.startQuality = start?.quality
        request.auto.startFormat = startFormat
        let encoded = try Encoder.encode(try Renderer.renderImage(decoded: image, settings: settings), request)
        return (encoded, format == .auto ? JobDecision(encoded, measuredOn: placement.canvas) : nil)
    }

    /// `placement` written with `decision`, unmeasured: one encode, what writing the render once
    /// costs. Over the weight budget, the lossless PNG where it fits, else the best that fits in
    /// the decision's format (``AutoEncoder/apply(_:to:weightBudget:png:sharpYUV:plainYUVKept:)``).
    /// A JPEG decision (made on an opaque render: one whose content fills its canvas) is not
    /// written into a render with transparent bars, which JPEG would lose: that render searches
    /// on its own.
    func apply(_ decision: JobDecision, to image: VImage, at placement: Placement) throws(ImagingError) -> EncodedRender {
        let image = image.size == placement.content ? image : try ScaleStep.thumbnail(image, to: placement.content)
        let rendered = try Renderer.renderImage(decoded: image, settings: try renderSettings(placement))
        if decision.recipe.format == .jpeg, rendered.hasAlpha, placement.content != placement.canvas {
            return try render(image, at: placement, start: decision.recipe).render
        }
        let request = EncodeRequest(format: .auto, memoryBudget: limits.memoryBudget,
                                    weightBudget: weightBudget.applied(to: placement.canvas).bytes, alpha: alpha,
                                    auto: .init(recipe: decision.recipe, forOneOfMany: true, formats: autoFormats,
                                                plainYUVKept: decision.plainYUV))
        var written = try Encoder.encode(rendered, request)
        if written.recipe == decision.recipe { written.detail = decision.detail(for: written) }
        return written
    }
}
