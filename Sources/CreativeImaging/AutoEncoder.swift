import CPNGWrite
import CreativeCore

/// `--format auto`: the smallest encoding of a render that looks the same as the lossless render
/// (``PerceptualScore``: luma SSIM at least ``lumaTarget`` and chroma SSIM at least
/// ``chromaTarget``, over the artwork's area, as shown), within the render's weight budget.
///
/// The candidates, each tried only where it can win:
/// - lossless PNG (``PNGWriter``) up to 256 colours: the answer, nothing lossy tried (art of few
///   colours is where ringing shows, and its exact palette is small);
/// - lossy WebP at the lowest quality of ``qualities`` that qualifies, walked from `start` (the
///   quality the last render of the same creative took) or ``firstQuality(flat:)``;
/// - where no WebP qualifies: lossless PNG for flat art (``PNGWriter/unfilteredRepeatShare``), a
///   palette PNG quantised by libimagequant, near-lossless WebP for a single render of at most
///   ``nearLosslessMaxPixels``;
/// - JPEG, for opaque renders where WebP is not allowed or does not qualify, 4:2:0 and then 4:4:4
///   one step lower, the smaller that qualifies.
/// When nothing lossy qualifies, the lossless PNG is the answer. When the answer is over the
/// weight budget, the best that fits is (``WeightBudgetSearch``): the highest quality of the
/// lossy format that fits, else a smaller palette, each above the quality floor
/// (``QualityFloor``); nothing fitting above it throws
/// ``ImagingError/overWeightBudget(format:smallest:budget:shortfall:)``.
struct AutoEncoder {
    /// Luma SSIM against the lossless render. Calibrated in docs/performance.md ("What auto
    /// writes"): SSIM counts a photograph's sensor grain, which WebP smooths, as lost structure
    /// (the bench photo: 0.973 at WebP quality 88, 0.986 at 94), while a gradient's WebP keeps
    /// 0.99 and more from quality 40. 0.975 keeps the grain's look at 3x without paying for
    /// every speck of it.
    static let lumaTarget = 0.975
    /// Chroma SSIM at half resolution: looser, the eye resolves colour far less finely than
    /// brightness, but small coloured text loses its colour under 4:2:0 (text-heavy art: 0.946 at
    /// WebP quality 82, 0.966 at 94), which this keeps.
    static let chromaTarget = 0.96
    /// Qualities tried for WebP and JPEG. Below 40, WebP smears the edges of small text more
    /// than SSIM weighs.
    static let qualities = [40, 50, 60, 70, 76, 82, 88, 91, 94, 97]
    /// From this quality JPEG and AVIF keep full-resolution chroma (libjpeg's and libvips'
    /// automatic subsampling), below it 4:2:0.
    static let fullChromaQuality = 90
    /// A lossy WebP trial at ``fullChromaQuality`` or above that keeps luma but is short of the
    /// chroma target by more than this ends WebP's search: its chroma is 4:2:0 at every quality,
    /// and with the trials' plain RGB to YUV conversion the qualities left gain less (text-heavy
    /// art: chroma 0.920, 0.923 and 0.929 at 91, 94 and 97, each trial an encode, a decode and a
    /// score). The candidates that keep full colour are tried next.
    static let webpChromaOutOfReach = 0.02
    /// Near-lossless preprocessing levels tried (libvips `Q` with `near_lossless`: lower is smaller).
    static let nearLosslessLevels = [40, 60, 80]
    /// Near-lossless WebP is tried only up to this many pixels: libwebp's lossless encoder is
    /// slow and large (a 2360x180 render: 0.58 s and 44 MB more peak memory), and only for a
    /// single render (`render`, the service), not for each of `process`'s.
    static let nearLosslessMaxPixels = 1_000_000
    /// AVIF is tried only up to this many pixels, by `render` and `process` alike: every banner
    /// and companion canvas, an interstitial's smaller screens. Its encoder holds 22 bytes a pixel
    /// and 40 with an alpha band (``JobCost/avifBytes(pixels:alpha:)``): on a 2048x2732 screen
    /// it would leave no room in the job's budget for anything else, and the plan would fall
    /// back to lossless PNG for every render.
    static let avifMaxPixels = 1_000_000

    /// Whether `auto` may try AVIF on a canvas of `pixels` (named among its formats): this libvips
    /// writes it and the canvas is at most ``avifMaxPixels``. ``AutoPlan`` and ``ProcessPlan`` read it.
    static func triesAVIF(pixels: Int) -> Bool { OutputFormat.avif.isWritable && pixels <= avifMaxPixels }
    /// The search runs on at most this many pixels (``AutoPlan``): on a larger canvas it runs on
    /// a smaller render of the same placement, and the canvas is written with what it found.
    /// 250,000 is 1170x213, a 390x61 slot at 3x and more.
    public static let searchMaxPixels = 250_000

    let pixels: PixelBuffer
    let analysis: cpngw_analysis
    let content: PixelRect?
    let reference: VImage
    /// The encoders the search may choose among (``AutoPlan/kinds``): what fits the memory budget.
    let kinds: Set<JobCost.EncoderKind>
    /// The largest file written, nil for none.
    let weightBudget: Int?
    /// Where the quality search starts: the quality an earlier render of the creative took.
    let start: Int?
    /// The format of that render: its quality starts the searches of formats on the same scale
    /// (``searchStart(_:flat:)``); nil: a JPEG or WebP.
    let startFormat: OutputFormat?
    /// The render is a smaller render of a larger canvas (``RenderSettings/searchSample()``): every
    /// WebP trial is measured with the plain RGB to YUV conversion first, so that a lossy WebP
    /// chosen says whether the canvas can be written with it (``EncodedRender/plainYUVKeepsTarget``).
    let decidesForLarger: Bool

    init(pixels: PixelBuffer, analysis: cpngw_analysis, content: PixelRect?, kinds: Set<JobCost.EncoderKind>,
         weightBudget: Int? = nil, start: Int? = nil, startFormat: OutputFormat? = nil,
         decidesForLarger: Bool = false) throws(ImagingError) {
        self.startFormat = startFormat
        self.kinds = kinds
        self.decidesForLarger = decidesForLarger
        self.pixels = pixels
        self.analysis = analysis
        self.content = content
        self.weightBudget = weightBudget
        self.start = start
        reference = try pixels.image()
    }

    /// The smallest qualifying encoding within the budget.
    func smallest() throws(ImagingError) -> EncodedRender {
        var best: EncodedRender?
        var losslessPNG: EncodedRender?
        func lossless() throws(ImagingError) -> EncodedRender {
            if let losslessPNG { return losslessPNG }
            let png = try PNGWriter.write(pixels, analysis: analysis)
            let made = EncodedRender(bytes: png.bytes, format: .png, detail: "PNG, \(png.layout) (auto: lossless)",
                                     ssim: nil, recipe: .lossless)
            losslessPNG = made
            return made
        }
        // The lossless render's statistics, computed once for every candidate.
        let similarity = try Similarity.Perceptual(reference, area: content)
        func offer(_ candidate: EncodedRender?) {
            guard let candidate else { return }
            if best == nil || candidate.bytes.count < best?.bytes.count ?? .max { best = candidate }
        }
        let flat = analysis.repeats >= PNGWriter.unfilteredRepeatShare
        if analysis.colours <= 256, kinds.contains(.png) {
            let exact = try lossless()
            if weightBudget.map({ exact.bytes.count <= $0 }) ?? true { return exact }
        }
        // WebP first: where it keeps the target it is the smallest (flat art's palette PNG weighs
        // 1.3-4 times its WebP), so PNG's candidates are tried only where it does not.
        // AVIF where the caller allowed it, measured only where it is smaller than the WebP found;
        // after an earlier render of the creative (`process`), only where that render chose AVIF,
        // and then first, WebP measured only where it is smaller.
        let avifFirst = kinds.contains(.avif) && startFormat == .avif
        var webp: EncodedRender?, avif: EncodedRender?
        if avifFirst {
            avif = try search(.avif, under: nil, similarity)
            webp = kinds.contains(.webp) ? try search(.webp, under: avif?.bytes.count, similarity) : nil
        } else {
            webp = kinds.contains(.webp) ? try search(.webp, under: nil, similarity) : nil
            if kinds.contains(.avif), startFormat == nil { avif = try search(.avif, under: webp?.bytes.count, similarity) }
        }
        offer(webp)
        offer(avif)
        // The rest only where WebP does not keep the target (nor AVIF searched first, below the
        // qualities where it keeps full-resolution chroma: kept only there, on colour edges, a
        // palette can be smaller), each measured only where it is smaller than the best so far
        // (text-heavy art: near-lossless WebP 84 KB, AVIF quality 91 111 KB; at 1170x180 in
        // `process`, a 256-colour palette 84 KB, AVIF quality 91 110 KB).
        let kept = avifFirst && (avif?.recipe?.quality ?? .max) < Self.fullChromaQuality ? webp ?? avif : webp
        if kept == nil, flat, kinds.contains(.png) { offer(try lossless()) }
        if kept == nil, kinds.contains(.webpLossless) {
            for level in Self.nearLosslessLevels {
                guard let candidate = try qualified(.nearLossless(level), under: best?.bytes.count, similarity) else { continue }
                offer(candidate)
                break
            }
        }
        // Art WebP cannot keep (small coloured text, flat art's hard edges): a palette may; so
        // where WebP kept colour only with the sharp conversion, a palette is measured under it
        // (text-heavy art at 1790x174: WebP quality 94, sharp, 150 KB; a 256-colour palette 103 KB).
        let sharpOnly = webp.map { !$0.plainYUVKeepsTarget } ?? false
        if kept == nil || sharpOnly, analysis.colours > 256, kinds.contains(.palette), EncoderFeatures.palettePNG {
            offer(try qualified(AutoRecipe.flatPalette, under: best?.bytes.count, similarity))
        }
        if analysis.opaque == 1, kinds.contains(.jpeg), kept == nil {
            let jpeg = try search(.jpeg, under: best?.bytes.count, similarity)
            offer(jpeg)
            // Full-resolution chroma one step lower: smaller where colour edges drove the quality up.
            if let quality = jpeg?.recipe?.quality, let index = Self.qualities.firstIndex(of: quality), index > 0 {
                offer(try qualified(.jpegFullChroma(Self.qualities[index - 1]), under: best?.bytes.count, similarity))
            }
        }
        if best == nil, kinds.contains(.png) { best = try lossless() }
        if let best, weightBudget.map({ best.bytes.count <= $0 }) ?? true { return best }
        return try budgeted(best, lossless: kinds.contains(.png) ? try lossless() : nil, similarity)
    }

    /// Nothing that keeps the target fits the budget (or, narrowed to lossy formats, nothing keeps
    /// it): the best that fits, measured. The highest quality of WebP and of AVIF where allowed
    /// (smaller than JPEG at a quality), else of JPEG, else the largest palette PNG that fits.
    private func budgeted(_ best: EncodedRender?, lossless: EncodedRender?,
                          _ similarity: Similarity.Perceptual) throws(ImagingError) -> EncodedRender {
        let budget = weightBudget ?? Int.max
        let modern = [JobCost.EncoderKind.webp, .avif].filter(kinds.contains).map(\.format)
        let lossy: [OutputFormat] = !modern.isEmpty ? modern : kinds.contains(.jpeg) && analysis.opaque == 1 ? [.jpeg] : []
        var fitting: [(EncodedRender, PerceptualScore)] = []
        var smallest: (format: OutputFormat, bytes: Int)?
        // What each search tried, and the best file that fitted only under the quality floor.
        var tried: [String] = []
        var underFloor: BudgetShortfall.Measured?
        func attempt(_ search: () throws(ImagingError) -> EncodedRender) throws(ImagingError) {
            do throws(ImagingError) {
                let fitted = try search()
                guard let recipe = fitted.recipe else { return }
                fitting.append((fitted, try similarity.score(try recipe.format.readBack(fitted.bytes))))
            } catch .overWeightBudget(let format, let least, _, let shortfall) {
                if let shortfall { tried.append(shortfall.tried) }
                if let under = shortfall?.underFloor {
                    if under.luma > underFloor?.luma ?? -1 { underFloor = under }
                } else if least < smallest?.bytes ?? .max {
                    smallest = (format, least)
                }
            }
        }
        let highest = best?.recipe?.quality ?? Self.qualities.last ?? Encoder.defaultQuality
        for format in lossy {
            try attempt { () throws(ImagingError) in
                try WeightBudgetSearch.lossy(reference, format, budget: budget, highest: highest, area: content)
            }
        }
        // WebP's lowest quality over the budget (noise, grain: a 960x150 of noise is 72 KB at
        // quality 30), or under the floor: JPEG may still fit an opaque render (50 KB at quality 42).
        if fitting.isEmpty, !modern.isEmpty, kinds.contains(.jpeg), analysis.opaque == 1 {
            try attempt { () throws(ImagingError) in
                try WeightBudgetSearch.lossy(reference, .jpeg, budget: budget, highest: highest, area: content)
            }
        }
        // A palette only where no lossy format may be written, or none fits (and the plan charged
        // one): libimagequant on a large render takes seconds a step, a lossy search milliseconds.
        if let lossless, lossy.isEmpty || (fitting.isEmpty && kinds.contains(.palette)) {
            try attempt { () throws(ImagingError) in
                try WeightBudgetSearch.palette(reference, budget: budget, lossless: lossless.bytes, area: content)
            }
        }
        func margin(_ score: PerceptualScore) -> Double {
            min(score.luma - Self.lumaTarget, score.chroma - Self.chromaTarget)
        }
        guard let (fitted, score) = fitting.max(by: { margin($0.1) < margin($1.1) }), let recipe = fitted.recipe else {
            // Every format auto may write was tried: the refusal names them, and the best file
            // under the floor, else the smallest reached.
            let format = underFloor?.format ?? smallest?.format ?? best?.format ?? .png
            let least = underFloor?.bytes ?? smallest?.bytes ?? best?.bytes.count ?? 0
            let shortfall = tried.isEmpty ? nil : BudgetShortfall(tried: "auto: " + tried.joined(separator: "; "),
                                                                   underFloor: underFloor, searchedOthers: true)
            throw .overWeightBudget(format: format, smallest: least, budget: budget, shortfall: shortfall)
        }
        let why = weightBudget == nil || best == nil ? "under the target: the closest \(recipe.format.displayName)"
            : "the best that fits the weight budget of \(budget) bytes"
        return EncodedRender(bytes: fitted.bytes, format: recipe.format,
                             detail: "\(recipe.detail) (auto: \(score.description), \(why))", ssim: score.luma,
                             recipe: recipe)
    }

    /// A render narrowed to lossy formats (no PNG) with nothing searched (the plan fits no search,
    /// or the render is over ``searchMaxPixels`` with no recipe): the allowed lossy format at the
    /// default quality, unmeasured (within the budget).
    static func unsearched(_ image: VImage, allowed: Set<OutputFormat>, weightBudget: Int?,
                           sharpYUV: Bool = true, area: PixelRect? = nil) throws(ImagingError) -> EncodedRender {
        let format: OutputFormat = allowed.contains(.webp) ? .webp : allowed.contains(.avif) ? .avif : .jpeg
        let recipe = AutoRecipe.lossy(format, Encoder.defaultQuality)
        let bytes = try recipe.encode(image, draft: !sharpYUV)
        if let weightBudget, bytes.count > weightBudget {
            return try WeightBudgetSearch.lossy(image, recipe.format, budget: weightBudget, highest: Encoder.defaultQuality,
                                                sharpYUV: sharpYUV, area: area)
        }
        return EncodedRender(bytes: bytes, format: recipe.format,
                             detail: recipe.detail + " (auto: no search fits)" + Encoder.plainYUVNote(recipe, sharpYUV),
                             ssim: nil, recipe: recipe)
    }

    /// A recipe applied to a render without holding its pixels (a canvas decided on a smaller
    /// render); over the budget, the lossless PNG when `png` allows it and it fits (a larger
    /// canvas of flat art or of a pattern compresses better losslessly: an interstitial's
    /// 2048x2732 screen of a checkered 1080x1920 was 128 KB as PNG, over 150K as WebP at every
    /// quality), else the best that fits in the recipe's format. `sharpYUV`: a lossy WebP
    /// converted the sharp way (``JobCost/webpSharpYUV(pixels:alpha:memoryBudget:)``), unless
    /// `plainYUVKept`: the plain conversion kept the target on the smaller render
    /// (``EncodedRender/plainYUVKeepsTarget``). `area` and `others` as
    /// ``WeightBudgetSearch/fit(_:format:budget:quality:sharpYUV:area:others:)`` takes them.
    static func apply(_ recipe: AutoRecipe, to image: VImage, weightBudget: Int?, png: Bool = true,
                      sharpYUV: Bool = true, plainYUVKept: Bool = false, area: PixelRect? = nil,
                      others: [OutputFormat] = []) throws(ImagingError) -> EncodedRender {
        let sharpYUV = sharpYUV && !plainYUVKept
        let guesses = BudgetFitGuesses.current.get()
        let triesPNG = png && recipe.format != .png
        // Where the job's smaller renders found both over this budget, the search starts at once.
        if let weightBudget, let guesses, guesses.wasOver(recipe, sharpYUV: sharpYUV, canvas: image.size, budget: weightBudget),
           !triesPNG || guesses.wasOver(.lossless, sharpYUV: false, canvas: image.size, budget: weightBudget) {
            return try WeightBudgetSearch.fit(image, format: recipe.format, budget: weightBudget, quality: recipe.quality,
                                              sharpYUV: sharpYUV, area: area, others: others)
        }
        let bytes = try recipe.encode(image, draft: !sharpYUV)
        if let weightBudget, bytes.count > weightBudget {
            guesses?.recordOver(recipe, sharpYUV: sharpYUV, canvas: image.size, budget: weightBudget, bytes: bytes.count)
            if triesPNG {
                var lossless = try Encoder.streamingPNG(image)
                if lossless.bytes.count <= weightBudget {
                    lossless.detail += " (auto: \(recipe.detail), as decided on the smallest render, weighs \(bytes.count) "
                        + "bytes, over the weight budget of \(weightBudget); lossless fits)"
                    lossless.recipe = .lossless
                    return lossless
                }
                guesses?.recordOver(.lossless, sharpYUV: false, canvas: image.size, budget: weightBudget,
                                    bytes: lossless.bytes.count)
            }
            return try WeightBudgetSearch.fit(image, format: recipe.format, budget: weightBudget, quality: recipe.quality,
                                              sharpYUV: sharpYUV, area: area, others: others)
        }
        let yuv = plainYUVKept ? "" : Encoder.plainYUVNote(recipe, sharpYUV)
        return EncodedRender(bytes: bytes, format: recipe.format, detail: recipe.detail + decidedNote + yuv, ssim: nil,
                             recipe: recipe, plainYUVKeepsTarget: plainYUVKept)
    }

    /// What the detail of a render written by another render's decision ends with.
    static let decidedNote = " (auto, as decided on the smallest render)"

    /// The recipe's encoding when it keeps the target and is smaller than `limit`; else nil.
    private func qualified(_ recipe: AutoRecipe, under limit: Int?,
                           _ similarity: Similarity.Perceptual) throws(ImagingError) -> EncodedRender? {
        try measured(recipe, bytes: try recipe.encode(reference), under: limit, similarity)
    }

    private func measured(_ recipe: AutoRecipe, bytes: [UInt8], under limit: Int?,
                          _ similarity: Similarity.Perceptual) throws(ImagingError) -> EncodedRender? {
        if let limit, bytes.count >= limit { return nil }
        return try scored(recipe, bytes: bytes, similarity).kept
    }

    /// The encoding measured: kept when it keeps the target, and its score either way.
    func scored(_ recipe: AutoRecipe, bytes: [UInt8],
                        _ similarity: Similarity.Perceptual) throws(ImagingError) -> (kept: EncodedRender?, score: PerceptualScore) {
        let score = try similarity.score(try recipe.format.readBack(bytes))
        guard score.keeps(luma: Self.lumaTarget, chroma: Self.chromaTarget) else { return (nil, score) }
        return (EncodedRender(bytes: bytes, format: recipe.format, detail: "\(recipe.detail) (auto: \(score.description))",
                              ssim: score.luma, recipe: recipe, score: score), score)
    }
}

extension JobCost.EncoderKind {
    /// The format the encoder writes.
    var format: OutputFormat {
        switch self {
        case .png, .streamedPNG, .palette: .png
        case .jpeg: .jpeg
        case .webp, .webpLossless: .webp
        case .avif: .avif
        }
    }
}
