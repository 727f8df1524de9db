import CreativeCore

/// A render's weight budget: the largest file it may be (`--weight-budget`, `weight_budget=`, a
/// job's `weight_budget`), and the search for the best encoding in a format that fits it.
///
/// - JPEG, WebP and AVIF: the highest quality from the one asked (or ``Encoder/defaultQuality``) down
///   to ``lowestQuality`` whose file fits (the file shrinks with the quality: a bracket, then a
///   binary search). The bracket starts where the job's other renders ended (``BudgetFitGuesses``),
///   else a few qualities down from the highest when its file is at most twice the budget, else
///   at the lowest.
/// - PNG: lossless when it fits, else a palette: libimagequant's 256 colours (``paletteSteps``),
///   then fewer (``PaletteLadder/counts``, 192 down to 2), the most that fit.
/// A file the search lowered is written only when it keeps the quality floor (``QualityFloor``,
/// measured once, on the file chosen: a lower quality or fewer colours score lower still).
/// When nothing fits, or what fits is under the floor,
/// ``ImagingError/overWeightBudget(format:smallest:budget:shortfall:)`` says what was tried, the
/// smallest file or the one under the floor, and, where the caller allows the encoders
/// (`others`), the first other format that fits above the floor, measured.
public enum WeightBudgetSearch {
    /// The default budget of every render: 150K, 153,600 bytes, the guideline given to advertisers
    /// (Google Ads' 150 KB is the same figure).
    public static let defaultBudget = RenderSettings.defaultWeightBudget
    /// The lowest quality of JPEG, WebP and AVIF the search reaches. The quality floor decides
    /// what is written: a photograph breaks up into blocks near quality 30 and is refused there,
    /// while a gradient's WebP keeps luma SSIM 0.977 at quality 10.
    public static let lowestQuality = 1
    /// Palettes libimagequant quantises for a PNG over its budget (256 colours, at its quality:
    /// it uses fewer where they reach it); the last is the one ``PaletteLadder`` merges down.
    static let paletteSteps: [(bits: Int, quality: Int)] = [(8, 100), (8, 80), (8, 60)]
    /// libimagequant's palettes at PNG's smaller bit depths, tried where even the ladder's fewest
    /// colours are over the budget.
    static let lowBitSteps: [(bits: Int, quality: Int)] = [(4, 60), (2, 50), (1, 50)]
    /// Whether PNG can be written under a budget with a palette (``EncoderFeatures/palettePNG``).
    public static var canQuantise: Bool { EncoderFeatures.palettePNG }

    /// The best encoding of `image` in `format` whose file is at most `budget` bytes.
    /// - Parameters:
    ///   - quality: for JPEG, WebP and AVIF, the highest quality tried (nil: ``Encoder/defaultQuality``).
    ///   - sharpYUV: WebP with the sharp RGB to YUV conversion (``JobCost/webpSharpYUV(pixels:alpha:memoryBudget:)``).
    ///   - area: where the artwork is (the quality floor is measured there); nil: the whole render.
    ///   - others: formats measured when the render is refused, to say which fits (the caller
    ///     checked that their encoders fit its memory budget).
    /// - Throws: ``ImagingError/overWeightBudget(format:smallest:budget:shortfall:)`` when nothing
    ///   fits above the floor.
    public static func fit(_ image: VImage, format: OutputFormat, budget: Int, quality: Int? = nil,
                           sharpYUV: Bool = true, area: PixelRect? = nil,
                           others: [OutputFormat] = []) throws(ImagingError) -> EncodedRender {
        try offeringOthers(image, others, budget: budget, area: area, sharpYUV: sharpYUV) { () throws(ImagingError) in
            if format.entry.lossless {
                try palette(image, budget: budget, lossless: nil, area: area)
            } else {
                try lossy(image, format, budget: budget, highest: quality ?? Encoder.defaultQuality, sharpYUV: sharpYUV,
                          area: area)
            }
        }
    }

    /// `search`'s render; its refusal with the first of `others` that fits above the floor.
    static func offeringOthers(_ image: VImage, _ others: [OutputFormat], budget: Int, area: PixelRect?, sharpYUV: Bool,
                               _ search: () throws(ImagingError) -> EncodedRender) throws(ImagingError) -> EncodedRender {
        do throws(ImagingError) {
            return try search()
        } catch .overWeightBudget(let format, let smallest, let limit, var shortfall?) where !others.isEmpty {
            shortfall.searchedOthers = true
            for other in others where other != format {
                do throws(ImagingError) {
                    let found = other == .png ? try palette(image, budget: budget, lossless: nil, area: area)
                        : try lossy(image, other, budget: budget, highest: Encoder.defaultQuality, sharpYUV: sharpYUV, area: area)
                    var luma = 1.0
                    if let measured = found.ssim {
                        luma = measured
                    } else if found.recipe != .lossless {
                        luma = try QualityFloor.score(found.bytes, other, against: image, area: area)
                    }
                    shortfall.fits = .init(detail: found.recipe?.detail ?? other.displayName, format: other,
                                           bytes: found.bytes.count, luma: luma)
                    break
                } catch .overWeightBudget {
                    continue
                }
            }
            throw .overWeightBudget(format: format, smallest: smallest, budget: limit, shortfall: shortfall)
        }
    }

    /// The highest quality at most `highest` whose file fits `budget`, when it keeps the floor.
    static func lossy(_ image: VImage, _ format: OutputFormat, budget: Int, highest: Int, fullChroma: Bool = false,
                      sharpYUV: Bool = true, area: PixelRect? = nil) throws(ImagingError) -> EncodedRender {
        func recipe(_ quality: Int) -> AutoRecipe { fullChroma ? .jpegFullChroma(quality) : .lossy(format, quality) }
        let note = format == .webp && !sharpYUV && EncoderFeatures.webpSharpYUV ? Encoder.plainYUVNote : ""
        // The fixed format's own encoder (WebP at libwebp's default effort), as `--format` writes it.
        let opaque = format == .jpeg ? try Encoder.withoutAlpha(image) : image
        func encoded(_ quality: Int) throws(ImagingError) -> [UInt8] {
            try Encoder.lossy(opaque, format, quality: quality, fullChroma: fullChroma, sharpYUV: sharpYUV)
        }
        let lowest = min(highest, lowestQuality)
        let tried = "\(format.displayName) qualities \(highest) down to \(lowest)"
        let guesses = BudgetFitGuesses.current.get()
        // The highest quality that fits between one that does and one that does not, if it keeps the floor.
        func bisect(fits: (quality: Int, bytes: [UInt8]), over: Int) throws(ImagingError) -> EncodedRender {
            var fits = fits, over = over
            while over - fits.quality > 1 {
                let middle = (over + fits.quality) / 2
                let bytes = try encoded(middle)
                if bytes.count <= budget { fits = (middle, bytes) } else { over = middle }
            }
            let chosen = try floored(recipe(fits.quality), fits.bytes, image, budget: budget, area: area, tried: tried, note: note)
            guesses?.record(format, fullChroma: fullChroma, canvas: image.size, quality: fits.quality)
            return chosen
        }
        // From a quality over the budget, down 1, 2, 4... times `step` qualities until one fits
        // (or the lowest does not), then between the two.
        func stepDown(from over: Int, step: Int) throws(ImagingError) -> EncodedRender {
            var over = over, step = step
            while true {
                let next = max(lowest, over - step)
                let bytes = try encoded(next)
                if bytes.count <= budget { return try bisect(fits: (next, bytes), over: over) }
                guard next > lowest else {
                    throw .overWeightBudget(format: format, smallest: bytes.count, budget: budget,
                                            shortfall: BudgetShortfall(tried: tried))
                }
                over = next
                step *= 2
            }
        }
        // Another render of the job was fitted: the search starts at its quality and steps away
        // from it, 1, 2, 4... qualities, until it has one that fits and one that does not.
        if let guess = guesses?.guess(format, fullChroma: fullChroma, canvas: image.size), guess > lowest, guess < highest {
            let first = try encoded(guess)
            if first.count <= budget {
                var fits = (quality: guess, bytes: first), step = 1
                while fits.quality < highest {
                    let next = min(highest, fits.quality + step)
                    let bytes = try encoded(next)
                    guard bytes.count <= budget else { return try bisect(fits: fits, over: next) }
                    fits = (next, bytes)
                    step *= 2
                }
                return fitted(recipe(highest), fits.bytes, budget, luma: nil, note: note)
            }
            return try stepDown(from: guess, step: 1)
        }
        let top = try encoded(highest)
        if top.count <= budget { return fitted(recipe(highest), top, budget, luma: nil, note: note) }
        // A file just over the budget (a render decided on a smaller one, a little heavier at
        // full size) fits a few qualities lower: that tried first, the search takes 3-4 encodes
        // where the whole range takes 7-8 (AVIF's are the slow ones). Else the lowest first,
        // which tells at once when nothing fits.
        if top.count - budget <= budget / nearMissShare, highest - nearMissStep > lowest {
            let near = try encoded(highest - nearMissStep)
            if near.count <= budget { return try bisect(fits: (highest - nearMissStep, near), over: highest) }
        }
        // Up to twice the budget (a photograph's full screen at WebP 94: 1.6 times 150K, which
        // fits at 88-91) the answer is a few qualities down: 3-5 encodes from the highest, where
        // the lowest first takes 8-9.
        if top.count <= 2 * budget, highest - 2 > lowest { return try stepDown(from: highest, step: 2) }
        let bottom = try encoded(lowest)
        guard bottom.count <= budget else {
            throw .overWeightBudget(format: format, smallest: bottom.count, budget: budget,
                                    shortfall: BudgetShortfall(tried: tried))
        }
        return try bisect(fits: (lowest, bottom), over: highest)
    }

    /// A file at most a this-th over its budget is a near miss (``lossy(_:_:budget:highest:fullChroma:sharpYUV:area:)``).
    static let nearMissShare = 8
    /// How many qualities below the highest a near miss tries first.
    static let nearMissStep = 4

    /// Lossless PNG when it fits, else the first palette of ``paletteSteps`` that does, else the
    /// most colours of ``PaletteLadder`` that fit (a binary search: fewer colours, fewer bytes);
    /// a palette when it keeps the floor.
    static func palette(_ image: VImage, budget: Int, lossless: [UInt8]?, area: PixelRect? = nil) throws(ImagingError)
        -> EncodedRender {
        let exact: [UInt8]
        if let lossless { exact = lossless } else { exact = try AutoRecipe.lossless.encode(image) }
        if exact.count <= budget { return fitted(.lossless, exact, budget, luma: nil) }
        guard canQuantise else {
            throw .overWeightBudget(format: .png, smallest: exact.count, budget: budget,
                                    shortfall: BudgetShortfall(tried: "PNG lossless (this libvips has no palette quantiser)"))
        }
        var smallest = exact.count
        var quantised: [UInt8] = []
        for step in paletteSteps {
            let recipe = AutoRecipe.palette(bitDepth: step.bits, quality: step.quality)
            quantised = try recipe.encode(image)
            if quantised.count <= budget {
                return try floored(recipe, quantised, image, budget: budget, area: area, tried: "PNG lossless and a palette")
            }
            smallest = min(smallest, quantised.count)
        }
        guard let ladder = try PaletteLadder(quantised: quantised), let fewest = ladder.steps.last else {
            throw .overWeightBudget(format: .png, smallest: smallest, budget: budget,
                                    shortfall: BudgetShortfall(tried: "PNG lossless and a palette of 256 colours"))
        }
        let steps = ladder.steps
        let tried = "PNG lossless and palettes of 256 down to \(fewest) colours"
        var fits = (index: steps.count - 1, bytes: try ladder.encode(colours: fewest))
        guard fits.bytes.count <= budget else {
            // Below the ladder's fewest, libimagequant's own 16, 4 and 2 colours at PNG's bit
            // depths (packed: flat art's 2 colours can be lighter so than merged).
            smallest = min(smallest, fits.bytes.count)
            for step in lowBitSteps {
                let recipe = AutoRecipe.palette(bitDepth: step.bits, quality: step.quality)
                let bytes = try recipe.encode(image)
                if bytes.count <= budget { return try floored(recipe, bytes, image, budget: budget, area: area, tried: tried) }
                smallest = min(smallest, bytes.count)
            }
            throw .overWeightBudget(format: .png, smallest: smallest, budget: budget, shortfall: BudgetShortfall(tried: tried))
        }
        var over = -1
        while fits.index - over > 1 {
            let middle = (fits.index + over) / 2
            let bytes = try ladder.encode(colours: steps[middle])
            if bytes.count <= budget { fits = (middle, bytes) } else { over = middle }
        }
        return try floored(.reducedPalette(colours: steps[fits.index]), fits.bytes, image, budget: budget, area: area,
                           tried: tried)
    }

    /// `bytes` when they keep the quality floor against `image`; else the refusal.
    private static func floored(_ recipe: AutoRecipe, _ bytes: [UInt8], _ image: VImage, budget: Int, area: PixelRect?,
                                tried: String, note: String = "") throws(ImagingError) -> EncodedRender {
        let luma = try QualityFloor.score(bytes, recipe.format, against: image, area: area)
        guard QualityFloor.keeps(luma) else {
            let under = BudgetShortfall.Measured(detail: recipe.detail, format: recipe.format, bytes: bytes.count, luma: luma)
            throw .overWeightBudget(format: recipe.format, smallest: bytes.count, budget: budget,
                                    shortfall: BudgetShortfall(tried: tried, underFloor: under))
        }
        return fitted(recipe, bytes, budget, luma: luma, note: note)
    }

    private static func fitted(_ recipe: AutoRecipe, _ bytes: [UInt8], _ budget: Int, luma: Double?,
                               note: String = "") -> EncodedRender {
        let measured = luma.map { " (luma SSIM \(TextFormat.decimal($0, decimals: 3)), the quality floor \(QualityFloor.text))" }
        return EncodedRender(bytes: bytes, format: recipe.format,
                             detail: "\(recipe.detail) (the best that fits the weight budget of \(budget) bytes)"
                                 + (measured ?? "") + note,
                             ssim: luma, recipe: recipe)
    }
}
