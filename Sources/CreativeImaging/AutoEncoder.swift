import CPNGWrite
import CreativeCore

/// `--format auto`: the smallest encoding of a render whose SSIM against the lossless render
/// (``Similarity``, over the artwork's area) is at least ``ssimTarget``.
///
/// The candidates, each tried only where it can win:
/// - lossless PNG (``PNGWriter``) for flat art (``PNGWriter/unfilteredRepeatShare``) or up to
///   256 colours: exact, so it always qualifies;
/// - a palette PNG quantised by libimagequant (through libvips' saver), for flat art with more
///   colours (resampled edges make the test artwork's render 1,123 colours);
/// - lossy WebP, at the lowest quality of ``qualities`` that qualifies (binary search);
/// - near-lossless WebP (libwebp's pixel preprocessing, then lossless), when no lossy WebP
///   qualifies (grain and fine colour detail that WebP's 4:2:0 chroma cannot keep), for a single
///   render of at most ``nearLosslessMaxPixels``;
/// - JPEG, for renders with no transparency only (JPEG has none), at the lowest qualifying quality.
/// When nothing lossy qualifies, the lossless PNG is the answer; when the choice is narrowed to
/// formats without PNG (``AutoPlan``'s `allowed`), the allowed lossy format at the highest
/// quality tried is.
struct AutoEncoder {
    /// The quality target: SSIM 0.98 against the lossless render, measured over the artwork
    /// (not the bars, which every encoding keeps), so the whole render measures at least as high.
    static let ssimTarget = 0.98
    /// Qualities tried for WebP and JPEG, searched for the lowest that keeps the target.
    /// Below 50, WebP smears the edges of small text more than SSIM weighs.
    static let qualities = [50, 60, 70, 80, 88, 94, 97]
    /// Near-lossless preprocessing levels tried (libvips `Q` with `near_lossless`: lower is smaller).
    static let nearLosslessLevels = [40, 60, 80]
    /// Near-lossless WebP is tried only up to this many pixels: libwebp's lossless encoder is
    /// slow and large (a 2360x180 render: 0.58 s and 44 MB more peak memory at the default
    /// effort, growing with the pixel count), and only for a single render (`render`, the
    /// service), not for each of `process`'s.
    static let nearLosslessMaxPixels = 1_000_000
    /// The search runs on at most this many pixels (``AutoPlan``): on a larger canvas it runs on
    /// a smaller render of the same placement, and the canvas is written with what it found.
    /// The search holds up to about 160 bytes a pixel (``JobCost/autoSearchBytes(pixels:)``): a
    /// 4096x4096 `auto` render searched whole held 455 MB and took 3.9 s of CPU. 250,000 is
    /// 1170x213, a 390x61 slot at 3x and more.
    public static let searchMaxPixels = 250_000
    /// libwebp's effort for lossy WebP. WebP is most of `process`'s time; on 2360x180 renders
    /// effort 2 took 19 and 36 ms where the default 4 took 30 and 55 ms (flat art at quality 50,
    /// the bench photo at 97), for 8.6% and 3.4% more bytes.
    static let webpEffort = 2
    /// libimagequant's quality for the palette candidate, dithering off (flat art: dithering
    /// only adds noise to the file).
    static let paletteQuality = 90

    let pixels: PixelBuffer
    let analysis: cpngw_analysis
    let content: PixelRect?
    let reference: VImage

    /// The encoders the search may choose among (``AutoPlan/kinds``): what fits the budget.
    let kinds: Set<JobCost.EncoderKind>

    init(pixels: PixelBuffer, analysis: cpngw_analysis, content: PixelRect?,
         kinds: Set<JobCost.EncoderKind>) throws(ImagingError) {
        self.kinds = kinds
        self.pixels = pixels
        self.analysis = analysis
        self.content = content
        reference = try pixels.image()
    }

    /// The smallest qualifying encoding.
    func smallest() throws(ImagingError) -> EncodedRender {
        var best: EncodedRender?
        // The lossless render's local statistics, computed once for every candidate.
        let similarity = try Similarity.Reference(reference, area: content)
        func offer(_ candidate: EncodedRender?) {
            guard let candidate else { return }
            if best == nil || candidate.bytes.count < best?.bytes.count ?? .max { best = candidate }
        }
        let flat = analysis.repeats >= PNGWriter.unfilteredRepeatShare
        if flat || analysis.colours <= 256, kinds.contains(.png) { offer(try lossless()) }
        if flat && analysis.colours > 256, kinds.contains(.palette) {
            offer(try qualified(.palette, under: best?.bytes.count, similarity))
        }
        let webp = kinds.contains(.webp) ? try search(.webp, under: best?.bytes.count, similarity) : nil
        offer(webp)
        if webp == nil, kinds.contains(.webpLossless) {
            for level in Self.nearLosslessLevels {
                guard let candidate = try qualified(.nearLossless(level), under: best?.bytes.count, similarity) else { continue }
                offer(candidate)
                break
            }
        }
        if analysis.opaque == 1, kinds.contains(.jpeg) { offer(try search(.jpeg, under: best?.bytes.count, similarity)) }
        if let best { return best }
        // The plan tries lossless PNG whenever PNG is allowed.
        if kinds.contains(.png) { return try lossless() }
        // Narrowed to lossy formats, none of which keeps the target: the closest, said as such.
        let recipe = AutoRecipe.lossy(kinds.contains(.jpeg) && !kinds.contains(.webp) ? .jpeg : .webp,
                                      Self.qualities.last ?? Encoder.defaultQuality)
        let bytes = try Self.encode(recipe, reference)
        let decoded = try VipsOperation("\(recipe.format.rawValue)load_buffer").with("buffer", .bytes(bytes)).image()
        let score = try similarity.ssim(decoded)
        return EncodedRender(bytes: bytes, format: recipe.format,
                             detail: "\(recipe.detail) (auto: SSIM \(TextFormat.decimal(score, decimals: 3)), under the "
                                 + "\(Self.ssimTarget) target: the closest \(recipe.format.displayName))",
                             ssim: score, recipe: recipe)
    }

    /// A render narrowed to lossy formats (no PNG) with nothing searched (the plan fits no search,
    /// or the render is over ``searchMaxPixels`` with no recipe): the allowed lossy format at the
    /// default quality, unmeasured.
    static func unsearched(_ image: VImage, allowed: Set<OutputFormat>) throws(ImagingError) -> EncodedRender {
        let recipe = AutoRecipe.lossy(allowed.contains(.webp) ? .webp : .jpeg, Encoder.defaultQuality)
        return EncodedRender(bytes: try encode(recipe, image), format: recipe.format,
                             detail: recipe.detail + " (auto: no search fits)", ssim: nil, recipe: recipe)
    }

    /// A lossy recipe applied to a render without holding its pixels (`process`'s other renders).
    static func apply(_ recipe: AutoRecipe, to image: VImage) throws(ImagingError) -> EncodedRender {
        EncodedRender(bytes: try encode(recipe, image), format: recipe.format,
                      detail: recipe.detail + decidedNote, ssim: nil, recipe: recipe)
    }

    /// What the detail of a render written by another render's decision ends with.
    static let decidedNote = " (auto, as decided on the smallest render)"

    /// The lossless PNG, as the answer of the search.
    private func lossless() throws(ImagingError) -> EncodedRender {
        let png = try PNGWriter.write(pixels, analysis: analysis)
        return EncodedRender(bytes: png.bytes, format: .png, detail: "PNG, \(png.layout) (auto: lossless)", ssim: nil,
                             recipe: .lossless)
    }

    /// The bytes of a lossy recipe, from `image` (8-bit sRGB).
    private static func encode(_ recipe: AutoRecipe, _ image: VImage) throws(ImagingError) -> [UInt8] {
        switch recipe {
        case .lossless:
            return try Encoder.streamingPNG(image).bytes
        case .palette:
            return try VipsOperation("pngsave_buffer").with("in", .image(image)).with("strip", .bool(true))
                .with("palette", .bool(true)).with("Q", .int(paletteQuality)).with("dither", .double(0))
                .with("compression", .int(Int(PNGWriter.zlibLevel))).bytes()
        case .lossy(let format, let quality):
            return try Encoder.lossy(format == .jpeg ? try withoutAlpha(image) : image, format, quality: quality,
                                     webpEffort: webpEffort)
        case .nearLossless(let level):
            return try VipsOperation("webpsave_buffer").with("in", .image(image)).with("strip", .bool(true))
                .with("lossless", .bool(true)).with("near_lossless", .bool(true)).with("Q", .int(level)).bytes()
        }
    }

    /// The recipe's encoding when it keeps the target and is smaller than `limit`; else nil.
    private func qualified(_ recipe: AutoRecipe, under limit: Int?,
                           _ similarity: Similarity.Reference) throws(ImagingError) -> EncodedRender? {
        try measured(recipe, bytes: try Self.encode(recipe, reference), under: limit, similarity)
    }

    private func measured(_ recipe: AutoRecipe, bytes: [UInt8], under limit: Int?,
                          _ similarity: Similarity.Reference) throws(ImagingError) -> EncodedRender? {
        if let limit, bytes.count >= limit { return nil }
        let decoded = try VipsOperation("\(recipe.format.rawValue)load_buffer").with("buffer", .bytes(bytes)).image()
        let score = try similarity.ssim(decoded)
        guard score >= Self.ssimTarget else { return nil }
        return EncodedRender(bytes: bytes, format: recipe.format,
                             detail: "\(recipe.detail) (auto: SSIM \(TextFormat.decimal(score, decimals: 3)))",
                             ssim: score, recipe: recipe)
    }

    /// The lowest quality of ``qualities`` that qualifies (SSIM grows with quality). A quality
    /// whose file is already no smaller than the best so far is not measured.
    private func search(_ format: OutputFormat, under limit: Int?,
                        _ similarity: Similarity.Reference) throws(ImagingError) -> EncodedRender? {
        var low = 0, high = Self.qualities.count - 1
        var found: EncodedRender?
        while low <= high {
            let middle = (low + high) / 2
            let recipe = AutoRecipe.lossy(format, Self.qualities[middle])
            let bytes = try Self.encode(recipe, reference)
            if let limit = found?.bytes.count ?? limit, bytes.count >= limit {
                high = middle - 1
            } else if let candidate = try measured(recipe, bytes: bytes, under: nil, similarity) {
                found = candidate
                high = middle - 1
            } else {
                low = middle + 1
            }
        }
        return found
    }

    /// JPEG has no alpha: an opaque render's alpha band (all 255) is dropped.
    private static func withoutAlpha(_ image: VImage) throws(ImagingError) -> VImage {
        guard image.hasAlpha else { return image }
        return try VipsOperation("extract_band").with("in", .image(image)).with("band", .int(0))
            .with("n", .int(3)).image()
    }
}

/// One way `auto` writes a render: what the search decided, to write other renders alike.
public enum AutoRecipe: Sendable, Equatable {
    /// Lossless PNG (``PNGWriter``).
    case lossless
    /// A palette PNG quantised by libimagequant.
    case palette
    /// JPEG or WebP at a quality.
    case lossy(OutputFormat, Int)
    /// Near-lossless WebP at a preprocessing level.
    case nearLossless(Int)

    /// The format written.
    var format: OutputFormat {
        switch self {
        case .lossless, .palette: .png
        case .lossy(let format, _): format
        case .nearLossless: .webp
        }
    }

    /// For people: `WebP quality 80`.
    var detail: String {
        switch self {
        case .lossless: "PNG, lossless"
        case .palette: "PNG, palette quantised"
        case .lossy(let format, let quality): "\(format.displayName) quality \(quality)"
        case .nearLossless(let level): "WebP near-lossless \(level)"
        }
    }
}

extension JobCost.EncoderKind {
    /// The format the encoder writes.
    var format: OutputFormat {
        switch self {
        case .png, .streamedPNG, .palette: .png
        case .jpeg: .jpeg
        case .webp, .webpLossless: .webp
        }
    }
}
