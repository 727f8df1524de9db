import CreativeCore

/// A render written in one format.
public struct EncodedRender: Sendable {
    /// The file's bytes.
    public let bytes: [UInt8]
    /// The format they are in.
    public let format: OutputFormat
    /// How it was written, for people: `PNG, palette of 14 colours`, `WebP quality 80`.
    public var detail: String
    /// For a lossy `auto` choice, its SSIM against the lossless render (``Similarity``); nil for
    /// a lossless file or a fixed format.
    public let ssim: Double?
    /// For `auto`, what was decided, to write other renders of the same creative alike.
    public var recipe: AutoRecipe? = nil
}

/// The one encoding policy that `render`, `process` and the service share. Every file is 8-bit
/// sRGB without metadata (EXIF, ICC, XMP).
///
/// - `png`: lossless, through ``PNGWriter``: the smallest exact colour type, and the row filter
///   and zlib level that suit the content.
/// - `jpeg`, `webp`: lossy at `quality` (default ``defaultQuality``).
/// - `auto`: the smallest of several encodings that keeps ``AutoEncoder/ssimTarget``.
public enum Encoder {
    /// The quality of JPEG and WebP when none is given.
    public static let defaultQuality = 85

    /// Encodes a render (8-bit sRGB, 3 or 4 bands).
    /// - Parameters:
    ///   - content: where the artwork sits in the canvas; `auto` measures quality there (bars
    ///     are the same in every encoding). Nil for the whole canvas.
    ///   - memoryBudget: what the job's budget leaves for the output (``JobCost``): a PNG
    ///     render that needs more is written by libvips' streaming PNG saver (lossless) instead
    ///     of being held in memory, and `auto` tries only what fits (``AutoPlan``).
    ///   - recipe: for `auto`, write the render this way instead of searching (what the search
    ///     decided for another render of the same creative).
    ///   - forOneOfMany: `auto` decides for many renders (`process`): near-lossless WebP, slow
    ///     and memory-hungry, is left out.
    ///   - autoKinds: for `auto` on a smaller render of a large canvas, the encoders the large
    ///     canvas can afford (``AutoPlan/kinds``): the search chooses among those only.
    ///   - autoFormats: the formats `auto` may choose among (nil for all, ``AutoPlan``); without
    ///     PNG, what would be lossless PNG is the allowed lossy format. JPEG needs an opaque render.
    public static func encode(_ image: VImage, format: FormatChoice, quality: Int? = nil, content: PixelRect? = nil,
                              memoryBudget: Int = JobLimits.defaultMemoryBudget, recipe: AutoRecipe? = nil,
                              forOneOfMany: Bool = false, autoFormats: Set<OutputFormat>? = nil,
                              autoKinds: Set<JobCost.EncoderKind>? = nil,
                              webp: WebPChoice = WebPChoice()) throws(ImagingError) -> EncodedRender {
        if let fixed = format.fixed, fixed != .png {
            let chosen = quality ?? defaultQuality
            let effort = webp.effort ?? defaultWebPEffort
            if fixed == .webp, webp.lossless {
                let bytes = try VipsOperation("webpsave_buffer").with("in", .image(image)).with("strip", .bool(true))
                    .with("lossless", .bool(true)).with("effort", .int(effort)).bytes()
                return EncodedRender(bytes: bytes, format: fixed, detail: "WebP lossless, effort \(effort)", ssim: nil)
            }
            let effortNote = fixed == .webp && webp.effort != nil ? ", effort \(effort)" : ""
            return EncodedRender(bytes: try lossy(image, fixed, quality: chosen, webpEffort: effort), format: fixed,
                                 detail: "\(fixed.displayName) quality \(chosen)\(effortNote)", ssim: nil)
        }
        // A decided lossy recipe needs no look at the pixels: the saver reads the render directly.
        if format == .auto, let recipe, recipe != .lossless {
            return try AutoEncoder.apply(recipe, to: image)
        }
        // Renders are 8-bit RGB or RGBA; anything else streams.
        guard image.isEightBit, image.bands == 3 || image.bands == 4 else { return try streamingPNG(image) }
        let area = image.size.pixelCount ?? Int.max
        if format == .auto, recipe == nil {
            // The caller searches a canvas over the sample size on a smaller render (Renderer).
            let plan = AutoPlan(canvas: image.size, memoryBudget: memoryBudget, oneOfMany: forOneOfMany,
                                allowed: autoFormats)
            guard !plan.losslessOnly, area <= AutoEncoder.searchMaxPixels else {
                if let autoFormats, !autoFormats.contains(.png) {
                    return try AutoEncoder.unsearched(image, allowed: autoFormats)
                }
                var png = try encode(image, format: .png, memoryBudget: memoryBudget)
                png.detail += " (auto: only lossless PNG fits the memory budget)"
                png.recipe = .lossless
                return png
            }
            let pixels = try PixelBuffer(image)
            return try AutoEncoder(pixels: pixels, analysis: pixels.analysis(), content: content,
                                   kinds: plan.kinds.intersection(autoKinds ?? plan.kinds)).smallest()
        }
        // `png`, or `auto` decided lossless for another render: held when it fits, else streamed.
        guard JobCost.heldPNG(area, memoryBudget) == .png else { return try streamingPNG(image) }
        let pixels = try PixelBuffer(image)
        let png = try PNGWriter.write(pixels, analysis: pixels.analysis())
        let decided = format == .auto ? AutoRecipe.lossless : nil
        return EncodedRender(bytes: png.bytes, format: .png,
                             detail: "PNG, \(png.layout)" + (decided == nil ? "" : AutoEncoder.decidedNote), ssim: nil,
                             recipe: decided)
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

    /// JPEG or WebP at `quality`; `webpEffort` is libwebp's effort (0-6, libvips' default 4).
    static func lossy(_ image: VImage, _ format: OutputFormat, quality: Int, webpEffort: Int = defaultWebPEffort) throws(ImagingError) -> [UInt8] {
        switch format {
        case .jpeg:
            return try VipsOperation("jpegsave_buffer").with("in", .image(image)).with("strip", .bool(true))
                .with("Q", .int(quality)).with("optimize_coding", .bool(true)).bytes()
        case .webp:
            return try VipsOperation("webpsave_buffer").with("in", .image(image)).with("strip", .bool(true))
                .with("Q", .int(quality)).with("effort", .int(webpEffort)).bytes()
        case .png:
            return try streamingPNG(image).bytes
        }
    }

    /// libvips' PNG saver, pulling the render through strip by strip: for renders too large to
    /// hold. One row filter, Paeth, for every row: libpng's adaptive choice tries all five on
    /// every row, and a 4096x4096 canvas took 1.35 s of CPU with it. RGBA kept as it is.
    static func streamingPNG(_ image: VImage) throws(ImagingError) -> EncodedRender {
        let bytes = try VipsOperation("pngsave_buffer").with("in", .image(image)).with("strip", .bool(true))
            .with("compression", .int(Int(PNGWriter.zlibLevel))).with("filter", .flags("paeth")).bytes()
        return EncodedRender(bytes: bytes, format: .png, detail: "PNG, \(image.hasAlpha ? "RGBA" : "RGB") (streamed)", ssim: nil)
    }
}
