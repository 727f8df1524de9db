import CreativeCore

/// A render written in one format.
public struct EncodedRender: Sendable {
    /// The file's bytes.
    public let bytes: [UInt8]
    /// The format they are in.
    public let format: OutputFormat
    /// How it was written, for people: `PNG, palette of 14 colours`, `WebP quality 80`.
    public var detail: String
    /// For a lossy `auto` choice, its SSIM against the lossless render (``Similarity``); for a
    /// render its weight budget lowered, its luma SSIM (``QualityFloor``); nil for a lossless file
    /// or a fixed format written as asked.
    public let ssim: Double?
    /// For `auto`, what was decided, to write other renders of the same creative alike.
    public var recipe: AutoRecipe? = nil
    /// For a measured `auto` candidate, its luma and chroma score.
    var score: PerceptualScore? = nil
    /// For a lossy WebP `auto` chose on a smaller render: the plain RGB to YUV conversion kept the
    /// target there too, so the larger canvas is written without the sharp one (which takes 5
    /// times the rest of the encode on a 2048x2732 screen).
    var plainYUVKeepsTarget = false
}

/// The one encoding policy that `render`, `process` and the service share. Every file is 8-bit
/// sRGB without metadata (EXIF, ICC, XMP).
///
/// - `png`: lossless, through ``PNGWriter``: the smallest exact colour type, and the row filter
///   and zlib level that suit the content.
/// - `jpeg`, `webp`: lossy at `quality` (default ``defaultQuality``).
/// - `auto`: the smallest of several encodings that keeps ``AutoEncoder/lumaTarget`` and
///   ``AutoEncoder/chromaTarget`` (``PerceptualScore``).
/// Every one within the render's weight budget when it has one (``WeightBudgetSearch``).
public enum Encoder {
    /// The quality of JPEG, WebP and AVIF when none is given.
    public static let defaultQuality = 85

    /// Encodes a render (8-bit sRGB, 3 or 4 bands) as `request` asks (``EncodeRequest``: the
    /// format, its quality and options, the memory and weight budgets, and what `auto` may do).
    /// - Throws: ``ImagingError/overWeightBudget(format:smallest:budget:shortfall:)`` when nothing fits the budget.
    public static func encode(_ image: VImage, _ request: EncodeRequest) throws(ImagingError) -> EncodedRender {
        let format = request.format, quality = request.quality, content = request.content
        let memoryBudget = request.memoryBudget, weightBudget = request.weightBudget, webp = request.webp
        let recipe = request.auto.recipe, autoFormats = request.auto.formats
        // WebP's sharp RGB to YUV conversion where the encoder's budget holds it (as JobCost charged).
        let area = image.size.pixelCount ?? Int.max
        let alpha = image.hasAlpha ? request.alpha ?? .bars : .none
        let sharpYUV = JobCost.webpSharpYUV(pixels: area, alpha: alpha, memoryBudget: memoryBudget)
        if let fixed = format.fixed, fixed != .png {
            let chosen = quality ?? defaultQuality
            let effort = webp.effort ?? defaultWebPEffort
            // A budget may take several encodes: the render is computed once, into memory (a
            // streamed source cannot be read twice).
            let held = weightBudget == nil ? image : try image.materialized()
            if fixed == .webp, webp.lossless {
                let bytes = WebPContainer.strippingMetadata(try VipsOperation("webpsave_buffer").with("in", .image(held))
                    .with("strip", .bool(true)).with("lossless", .bool(true)).with("effort", .int(effort)).bytes())
                if let weightBudget, bytes.count > weightBudget {
                    throw .overWeightBudget(format: fixed, smallest: bytes.count, budget: weightBudget)
                }
                return EncodedRender(bytes: bytes, format: fixed, detail: "WebP lossless, effort \(effort)", ssim: nil)
            }
            let bytes = try lossy(fixed.entry.keepsAlpha ? held : try withoutAlpha(held), fixed, quality: chosen, webpEffort: effort,
                                  sharpYUV: sharpYUV)
            if let weightBudget, bytes.count > weightBudget {
                return try WeightBudgetSearch.fit(held, format: fixed, budget: weightBudget, quality: chosen, sharpYUV: sharpYUV,
                                                  area: content, others: measurable(held, memoryBudget, alpha, allowed: nil))
            }
            let effortNote = fixed == .webp && webp.effort != nil ? ", effort \(effort)" : ""
            let yuvNote = fixed == .webp && !sharpYUV && EncoderFeatures.webpSharpYUV ? plainYUVNote : ""
            return EncodedRender(bytes: bytes, format: fixed,
                                 detail: "\(fixed.displayName) quality \(chosen)\(effortNote)\(yuvNote)", ssim: nil)
        }
        // A decided recipe needs no look at the pixels: the saver reads the render directly.
        if format == .auto, let recipe, recipe != .lossless {
            return try AutoEncoder.apply(recipe, to: weightBudget == nil ? image : try image.materialized(),
                                         weightBudget: weightBudget, png: autoFormats?.contains(.png) ?? true,
                                         sharpYUV: sharpYUV, plainYUVKept: request.auto.plainYUVKept, area: content,
                                         others: measurable(image, memoryBudget, alpha, allowed: autoFormats ?? OutputFormat.autoDefault))
        }
        // Renders are 8-bit RGB or RGBA; anything else streams.
        guard image.isEightBit, image.bands == 3 || image.bands == 4 else {
            return try streamed(image, weightBudget)
        }
        if format == .auto, recipe == nil {
            // The caller searches a canvas over the sample size on a smaller render (Renderer).
            let plan = AutoPlan(canvas: image.size, memoryBudget: memoryBudget, oneOfMany: request.auto.forOneOfMany,
                                allowed: autoFormats, alpha: alpha)
            guard !plan.losslessOnly, area <= AutoEncoder.searchMaxPixels else {
                if let autoFormats, !autoFormats.contains(.png) {
                    return try AutoEncoder.unsearched(weightBudget == nil ? image : try image.materialized(),
                                                      allowed: autoFormats, weightBudget: weightBudget, sharpYUV: sharpYUV,
                                                      area: content)
                }
                var png = try encode(image, EncodeRequest(format: .fixed(.png), content: content, memoryBudget: memoryBudget,
                                                          weightBudget: weightBudget, alpha: request.alpha))
                if png.recipe == nil {
                    png.detail += " (auto: only lossless PNG fits the memory budget)"
                    png.recipe = .lossless
                }
                return png
            }
            let pixels = try PixelBuffer(image)
            return try AutoEncoder(pixels: pixels, analysis: pixels.analysis(), content: content,
                                   kinds: plan.kinds.intersection(request.auto.kinds ?? plan.kinds), weightBudget: weightBudget,
                                   start: request.auto.startQuality, startFormat: request.auto.startFormat,
                                   decidesForLarger: request.auto.decidesForLarger).smallest()
        }
        // `png`, or `auto` decided lossless for another render: held when it fits, else streamed.
        guard JobCost.heldPNG(area, memoryBudget) == .png else { return try streamed(image, weightBudget) }
        let pixels = try PixelBuffer(image)
        let analysis = pixels.analysis()
        let png = try PNGWriter.write(pixels, analysis: analysis)
        let decided = format == .auto ? AutoRecipe.lossless : nil
        var render = EncodedRender(bytes: png.bytes, format: .png,
                                   detail: "PNG, \(png.layout)" + (decided == nil ? "" : AutoEncoder.decidedNote),
                                   ssim: nil, recipe: decided)
        guard let weightBudget, render.bytes.count > weightBudget else { return render }
        // An unfiltered layout over the budget: the Paeth filter on every row before anything lossy.
        // The layout is chosen from the pixels' statistics, and a gradient with many repeated
        // pixels (a checkered 1080x1920 on a 2048x2732 screen) was 587 KB unfiltered, 128 KB
        // filtered. (Content with fewer repeats is filtered already. The held PNG is charged 8 bytes
        // a pixel, its pixels 4: half of them repeat, so each file stays far under 2.)
        if analysis.repeats >= PNGWriter.unfilteredRepeatShare,
           case let filtered = try streamingPNG(try pixels.image()), filtered.bytes.count < render.bytes.count {
            render = EncodedRender(bytes: filtered.bytes, format: .png,
                                   detail: "PNG, \(image.hasAlpha ? "RGBA" : "RGB"), Paeth-filtered for the weight budget"
                                       + (decided == nil ? "" : AutoEncoder.decidedNote),
                                   ssim: nil, recipe: decided)
            if render.bytes.count <= weightBudget { return render }
        }
        // `auto` decided lossless on a smaller render, over the budget here: WebP where allowed;
        // else a palette. Each only where its memory was charged (JobCost.budgetFallback).
        if format == .auto, autoFormats?.contains(.webp) ?? true,
           JobCost.budgetFallback(.webp, pixels: area, memoryBudget, alpha: alpha) != nil {
            let held = JobCost.adding(JobCost.encoderBytes(.png, pixels: area), JobCost.multiplying(area, 4))
            return try WeightBudgetSearch.lossy(try pixels.image(), .webp, budget: weightBudget,
                                                highest: AutoEncoder.qualities.last ?? defaultQuality,
                                                sharpYUV: JobCost.webpSharpYUV(pixels: area, alpha: alpha,
                                                                               memoryBudget: max(0, memoryBudget - held)),
                                                area: content)
        }
        guard JobCost.budgetFallback(.palette, pixels: area, memoryBudget, alpha: alpha) != nil else {
            throw .overWeightBudget(format: .png, smallest: render.bytes.count, budget: weightBudget)
        }
        let held = try pixels.image()
        return try WeightBudgetSearch.offeringOthers(held, format == .auto ? [] : measurable(held, memoryBudget, alpha, allowed: nil),
                                                     budget: weightBudget, area: content, sharpYUV: sharpYUV) { () throws(ImagingError) in
            try WeightBudgetSearch.palette(held, budget: weightBudget, lossless: render.bytes, area: content)
        }
    }

    /// The formats a refused render is measured in to say which would fit (``WeightBudgetSearch``):
    /// WebP, JPEG for an opaque render, then a palette PNG, each where its encoder fits what the
    /// job's budget left (``JobCost/budgetFallback(_:pixels:_:alpha:)``) and `allowed` names it.
    static func measurable(_ image: VImage, _ memoryBudget: Int, _ alpha: JobCost.AlphaBand,
                           allowed: Set<OutputFormat>?) -> [OutputFormat] {
        let pixels = image.size.pixelCount ?? Int.max
        var formats: [OutputFormat] = []
        if JobCost.budgetFallback(.webp, pixels: pixels, memoryBudget, alpha: alpha) != nil { formats.append(.webp) }
        if !image.hasAlpha, JobCost.budgetFallback(.jpeg, pixels: pixels, memoryBudget, alpha: alpha) != nil {
            formats.append(.jpeg)
        }
        if WeightBudgetSearch.canQuantise, JobCost.budgetFallback(.palette, pixels: pixels, memoryBudget, alpha: alpha) != nil {
            formats.append(.png)
        }
        return formats.filter { allowed?.contains($0) ?? true }
    }

    /// A PNG too large to hold, streamed: lossless, read once, so it cannot be searched under a
    /// budget (nothing held to quantise): over it, refused with its lossless size.
    private static func streamed(_ image: VImage, _ weightBudget: Int?) throws(ImagingError) -> EncodedRender {
        let png = try streamingPNG(image)
        if let weightBudget, png.bytes.count > weightBudget {
            throw .overWeightBudget(format: .png, smallest: png.bytes.count, budget: weightBudget)
        }
        return png
    }

    /// What a lossy WebP's encoding line ends with when the job's memory budget left out the sharp
    /// RGB to YUV conversion (``JobCost/webpSharpYUV(pixels:alpha:memoryBudget:)``).
    public static let plainYUVNote = " (plain RGB to YUV: the sharp conversion is over the memory budget)"

    /// ``plainYUVNote`` for `recipe` when it is a lossy WebP written without the sharp conversion.
    static func plainYUVNote(_ recipe: AutoRecipe, _ sharpYUV: Bool) -> String {
        if case .lossy(.webp, _) = recipe, !sharpYUV, EncoderFeatures.webpSharpYUV { return plainYUVNote }
        return ""
    }

    /// libwebp's effort when none is given (libvips' default).
    public static let defaultWebPEffort = 4

    /// How a fixed `webp` render is saved: lossless or lossy, and libwebp's effort (nil for
    /// ``defaultWebPEffort``); the render's `--lossless` and `--effort`.
    public struct WebPChoice: Sendable {
        public var lossless: Bool
        public var effort: Int?
        public init(lossless: Bool = false, effort: Int? = nil) {
            self.lossless = lossless
            self.effort = effort
        }
    }

    /// JPEG, WebP or AVIF at `quality`; `webpEffort` is libwebp's effort (0-6, libvips' default 4).
    /// WebP converts RGB to YUV with libwebp's sharp conversion where the libvips loaded has it
    /// (``EncoderFeatures/webpSharpYUV``): colour edges keep their colour under 4:2:0. JPEG is
    /// 4:2:0 below quality 90 (libjpeg's default) unless `fullChroma`.
    static func lossy(_ image: VImage, _ format: OutputFormat, quality: Int, webpEffort: Int = defaultWebPEffort,
                      fullChroma: Bool = false, sharpYUV: Bool = true) throws(ImagingError) -> [UInt8] {
        let writer = format.writer
        guard writer.writable() else { throw .unwritableFormat(writer.unwritable) }
        return try writer.save(image, OutputFormat.SaveOptions(quality: quality, webpEffort: webpEffort, fullChroma: fullChroma,
                                                               sharpYUV: sharpYUV))
    }

    /// The AV1 encoder's effort (libvips 0-9, libaom's speed 9 minus it; libvips' default 4): 1,
    /// the fastest that keeps text's bytes (docs/performance.md, "Encoder settings, measured").
    static let avifEffort = 1

    /// JPEG has no alpha: an opaque render's alpha band (all 255) is dropped.
    static func withoutAlpha(_ image: VImage) throws(ImagingError) -> VImage {
        guard image.hasAlpha else { return image }
        return try VipsOperation("extract_band").with("in", .image(image)).with("band", .int(0))
            .with("n", .int(3)).image()
    }

    /// libvips' PNG saver, pulling the render through strip by strip: for renders too large to
    /// hold. One row filter, Paeth, for every row: libpng's adaptive choice tries all five on
    /// every row (docs/performance.md, "Encoder settings, measured"). RGBA kept as it is.
    static func streamingPNG(_ image: VImage) throws(ImagingError) -> EncodedRender {
        let bytes = try VipsOperation("pngsave_buffer").with("in", .image(image)).with("strip", .bool(true))
            .with("compression", .int(Int(PNGWriter.zlibLevel))).with("filter", .flags("paeth")).bytes()
        return EncodedRender(bytes: bytes, format: .png, detail: "PNG, \(image.hasAlpha ? "RGBA" : "RGB") (streamed)", ssim: nil)
    }
}
