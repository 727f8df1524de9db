import CreativeCore

/// A render's weight budget: the largest file it may be (`--weight-budget`, `weight_budget=`, a
/// job's `weight_budget`), and the search for the best encoding in a format that fits it.
///
/// - JPEG, WebP and AVIF: the highest quality from the one asked (or ``Encoder/defaultQuality``) down
///   to ``lowestQuality`` whose file fits (a binary search: the file shrinks with the quality).
/// - PNG: lossless when it fits, else a palette through libimagequant: 256 colours first, then
///   fewer (``paletteSteps``), the first that fits.
/// When nothing fits, ``ImagingError/overWeightBudget(format:smallest:budget:)`` says the
/// smallest file the format reaches. `fix` and the encoder call the same search.
public enum WeightBudgetSearch {
    /// The default budget of every render: 150K, 153,600 bytes, the guideline given to advertisers
    /// (Google Ads' 150 KB is the same figure).
    public static let defaultBudget = RenderSettings.defaultWeightBudget
    /// JPEG, WebP and AVIF are not written below this quality to meet a budget: under it, text and
    /// edges break up into blocks.
    public static let lowestQuality = 30
    /// Palette sizes tried for a PNG over its budget: bit depth and libimagequant's quality.
    static let paletteSteps: [(bits: Int, quality: Int)] = [(8, 100), (8, 80), (8, 60), (4, 60), (2, 50), (1, 50)]
    /// Whether PNG can be written under a budget with a palette (``EncoderFeatures/palettePNG``).
    public static var canQuantise: Bool { EncoderFeatures.palettePNG }

    /// The best encoding of `image` in `format` whose file is at most `budget` bytes.
    /// - Parameters:
    ///   - quality: for JPEG, WebP and AVIF, the highest quality tried (nil: ``Encoder/defaultQuality``).
    ///   - lossless: for PNG, the lossless file when the caller has it already.
    ///   - sharpYUV: WebP with the sharp RGB to YUV conversion (``JobCost/webpSharpYUV(pixels:alpha:memoryBudget:)``).
    /// - Throws: ``ImagingError/overWeightBudget(format:smallest:budget:)`` when even the smallest fails.
    public static func fit(_ image: VImage, format: OutputFormat, budget: Int, quality: Int? = nil,
                           sharpYUV: Bool = true) throws(ImagingError) -> EncodedRender {
        switch format {
        case .png:
            return try palette(image, budget: budget, lossless: nil)
        case .jpeg, .webp, .avif:
            return try lossy(image, format, budget: budget, highest: quality ?? Encoder.defaultQuality, sharpYUV: sharpYUV)
        }
    }

    /// The highest quality at most `highest` whose file fits `budget`.
    static func lossy(_ image: VImage, _ format: OutputFormat, budget: Int, highest: Int,
                      fullChroma: Bool = false, sharpYUV: Bool = true) throws(ImagingError) -> EncodedRender {
        func recipe(_ quality: Int) -> AutoRecipe { fullChroma ? .jpegFullChroma(quality) : .lossy(format, quality) }
        let note = format == .webp && !sharpYUV && EncoderFeatures.webpSharpYUV ? Encoder.plainYUVNote : ""
        // The fixed format's own encoder (WebP at libwebp's default effort), as `--format` writes it.
        let opaque = format == .jpeg ? try Encoder.withoutAlpha(image) : image
        func encoded(_ quality: Int) throws(ImagingError) -> [UInt8] {
            try Encoder.lossy(opaque, format, quality: quality, fullChroma: fullChroma, sharpYUV: sharpYUV)
        }
        let top = try encoded(highest)
        if top.count <= budget { return fitted(recipe(highest), top, budget, note: note) }
        // The highest quality that fits between one that does and one that does not.
        func bisect(fits: (quality: Int, bytes: [UInt8]), over: Int) throws(ImagingError) -> EncodedRender {
            var fits = fits, over = over
            while over - fits.quality > 1 {
                let middle = (over + fits.quality) / 2
                let bytes = try encoded(middle)
                if bytes.count <= budget { fits = (middle, bytes) } else { over = middle }
            }
            return fitted(recipe(fits.quality), fits.bytes, budget, note: note)
        }
        let lowest = min(highest, lowestQuality)
        // A file just over the budget (a render decided on a smaller one, a little heavier at
        // full size) fits a few qualities lower: that tried first, the search takes 3-4 encodes
        // where the whole range takes 7-8 (AVIF's are the slow ones). Else the lowest first,
        // which tells at once when nothing fits.
        if top.count - budget <= budget / nearMissShare, highest - nearMissStep > lowest {
            let near = try encoded(highest - nearMissStep)
            if near.count <= budget { return try bisect(fits: (highest - nearMissStep, near), over: highest) }
        }
        let bottom = try encoded(lowest)
        guard bottom.count <= budget else {
            throw .overWeightBudget(format: format, smallest: bottom.count, budget: budget)
        }
        return try bisect(fits: (lowest, bottom), over: highest)
    }

    /// A file at most a this-th over its budget is a near miss (``lossy(_:_:budget:highest:fullChroma:sharpYUV:)``).
    static let nearMissShare = 8
    /// How many qualities below the highest a near miss tries first.
    static let nearMissStep = 4

    /// Lossless PNG when it fits, else the first palette of ``paletteSteps`` that does.
    static func palette(_ image: VImage, budget: Int, lossless: [UInt8]?) throws(ImagingError) -> EncodedRender {
        let exact: [UInt8]
        if let lossless { exact = lossless } else { exact = try AutoRecipe.lossless.encode(image) }
        if exact.count <= budget { return fitted(.lossless, exact, budget) }
        guard canQuantise else { throw .overWeightBudget(format: .png, smallest: exact.count, budget: budget) }
        var smallest = exact.count
        for step in paletteSteps {
            let recipe = AutoRecipe.palette(bitDepth: step.bits, quality: step.quality)
            let bytes = try recipe.encode(image)
            if bytes.count <= budget { return fitted(recipe, bytes, budget) }
            smallest = min(smallest, bytes.count)
        }
        throw .overWeightBudget(format: .png, smallest: smallest, budget: budget)
    }

    private static func fitted(_ recipe: AutoRecipe, _ bytes: [UInt8], _ budget: Int, note: String = "") -> EncodedRender {
        EncodedRender(bytes: bytes, format: recipe.format,
                      detail: "\(recipe.detail) (the best that fits the weight budget of \(budget) bytes)\(note)",
                      ssim: nil, recipe: recipe)
    }
}
