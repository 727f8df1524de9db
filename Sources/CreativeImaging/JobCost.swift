import CreativeBundle
import CreativeCore

/// What a job will hold at its peak and how much it will decode, decided from the header before
/// any pixel is decoded: the figure every job is charged (``JobLimits/charge(_:)``, and the
/// service's process-wide ``MemoryBudget``). The model, its constants and how they were measured
/// are in `docs/cost-model.md`; a property test checks it against the measured peak RSS.
///
/// Three parts:
/// - `decode`: what the decoder and resampler hold, and the copies of the file the loaders
///   keep. What cannot stream is held whole (``ImageSource/decodeMemory(content:)``); what
///   streams holds libvips' resampling window, which grows with the source's width and bands
///   (``streamingWindow(width:height:bands:wide:)``).
/// - `output`: the rendered canvas and the encoder's own buffers, per format
///   (``encoderBytes(_:pixels:)``); for `auto`, its search on at most
///   ``AutoEncoder/searchMaxPixels`` and the final encoding (``AutoPlan``).
/// - `decodedSamples`: the bytes of samples the decoder produces, the measure of its time
///   (inflating and unfiltering a PNG costs about 7 ns a byte on the slow libvips), with a
///   progressive or multi-scan JPEG's scans (``ImageSource/scanDecodeCharge``), capped by
///   ``JobLimits/maxDecodedBytes``.
public struct JobCost: Sendable, Equatable, CustomStringConvertible {
    /// Bytes held by the decode and resampling at once.
    public var decode: Int
    /// Bytes held by the canvases and the encoders.
    public var output: Int
    /// Sample bytes the decoder produces.
    public var decodedSamples: Int

    public init(decode: Int = 0, output: Int = 0, decodedSamples: Int = 0) {
        self.decode = decode
        self.output = output
        self.decodedSamples = decodedSamples
    }

    /// The peak memory charged: decode and output are held at the same time, with the job's
    /// fixed overhead (``jobOverhead``).
    public var memory: Int { Self.adding(decode, output, Self.jobOverhead) }

    public var description: String {
        "\(ImagingError.mebibytes(memory)) (decode \(ImagingError.mebibytes(decode)), output "
            + "\(ImagingError.mebibytes(output))), \(ImagingError.mebibytes(decodedSamples)) of samples decoded"
    }

    /// Sums without overflow (a hostile header can claim sizes whose products overflow).
    static func adding(_ values: Int...) -> Int {
        values.reduce(0) { total, value in
            let sum = total.addingReportingOverflow(max(0, value))
            return sum.overflow ? Int.max : sum.partialValue
        }
    }

    static func multiplying(_ values: Int...) -> Int {
        values.reduce(1) { total, value in
            let product = total.multipliedReportingOverflow(by: max(0, value))
            return product.overflow ? Int.max : product.partialValue
        }
    }

    // MARK: The model's constants (measured: docs/cost-model.md)

    /// What every job holds besides its pixels: libvips' worker threads, their buffers and the
    /// sink's double buffering. Measured: 1-4 MB over the idle process for an 8x8 render, up to
    /// 6 MB more for the smallest real ones.
    static let jobOverhead = 8 << 20

    /// The resampling window of a streamed decode of `width` x `height` with `bands` (at least 3:
    /// grey is resampled as sRGB). libvips' `thumbnail` holds rows of the source in the loader's
    /// line cache and in the shrink's input, two threads at once: measured on 8.14 at up to about
    /// twice the height for short images, and saturating at 1,300-3,200 rows of the stored width
    /// for tall ones, whatever the height above that.
    /// - Parameter wide: alpha or 16-bit: the pipeline works in float (4 bytes a sample); 8-bit
    ///   without alpha stays in bytes, with two copies (2 bytes a sample). At most ``windowRows``.
    static func streamingWindow(width: Int, height: Int, bands: Int, wide: Bool) -> Int {
        let rows = min(adding(height, height, 64), windowRows)
        return multiplying(width, bands, wide ? 4 : 2, rows, max(1, threadsPerJob / 2))
    }

    /// Copies of the file a job holds: the bytes read, and the buffer each libvips loader keeps
    /// (the header's, the render's, a strict decode's). A 6 MB JPEG's render held 27 MB.
    static let inputCopies = 4

    /// Coefficients a JPEG's scans cover that cost the time of one sample byte (a PNG's, about
    /// 7 ns): 16. Measured on a 5600x5600 grey progressive JPEG of 499 scans (15.6 billion
    /// coefficients covered): 5.8 s of CPU, 0.37 ns a coefficient. At the 96 MiB default, a job
    /// may cover 1.6 billion: 40 scans of a 40 MP image; a camera's progressive JPEG has 10-12.
    public static let scanCoefficientsPerByte = 16

    /// Copies of the colour profile a render holds: libvips' blob and Little CMS' parsed tags and
    /// transform (what stays of a profile ``ICCProfileProbe`` bounds: at most 4 MiB each).
    static let profileCopies = 3

    /// Rows of the source charged at most.
    static let windowRows = 2304
    /// Rows of the loader's line cache charged for a decode held whole.
    static let wholeDecodeRows = 256

    /// libvips' threads per job (``VipsRuntime``): the window is per pair of threads.
    static let threadsPerJob = VipsRuntime.threadsPerJob

    /// Bytes each encoder holds for a canvas of `pixels`, beyond the pipeline that renders it:
    /// the pixels held for it and its own buffers, a fixed part and a part per pixel. Measured
    /// peaks over 2048x2048, 2048x2732 and 4096x4096 canvases on the slow libvips (per pixel):
    /// - PNG held (``PNGWriter``): 4.1-5.0 bytes (the render in 8-bit RGBA, the file); charged 8.
    /// - JPEG: 3.2-4.4 bytes (libjpeg's coefficient buffer for optimised Huffman tables); charged 9.
    /// - WebP lossy (``lossyWebPBytes(pixels:alpha:memoryBudget:)``): 8.0 bytes for an opaque
    ///   2048x2732 render with libwebp's plain RGB to YUV conversion (the render held, libvips'
    ///   frame, libwebp's ARGB picture and YUV planes), charged 9 and 2 MiB; with an alpha band
    ///   libwebp compresses it with its lossless encoder, charged by what the band holds
    ///   (``AlphaBand``). This kind is charged with transparent bars (18 and 2 MiB), for `auto`'s
    ///   candidates on its search's pixels; a render's WebP with its own band and the sharp
    ///   conversion apart (``lossyWebPBytes(pixels:alpha:memoryBudget:)``).
    /// - WebP near-lossless: libwebp's lossless encoder holds transforms, hash chains and
    ///   backward references besides, with large fixed tables; charged 48 and 16 MiB.
    /// - Palette PNG (libimagequant): the image held, its histogram and the remapped rows;
    ///   charged 16 and 4 MiB.
    public static func encoderBytes(_ kind: EncoderKind, pixels: Int) -> Int {
        let (fixed, perPixel): (Int, Int)
        switch kind {
        case .png: (fixed, perPixel) = (0, 8)
        case .streamedPNG: (fixed, perPixel) = (0, 0)
        case .palette: (fixed, perPixel) = (4 << 20, 16)
        case .jpeg: (fixed, perPixel) = (0, 9)
        case .webp: (fixed, perPixel) = (2 << 20, webpOpaquePerPixel + AlphaBand.bars.webpBytesPerPixel)
        case .webpLossless: (fixed, perPixel) = (16 << 20, 48)
        case .avif: return avifBytes(pixels: pixels, alpha: .none)
        }
        return adding(fixed, multiplying(pixels, perPixel))
    }

    /// AVIF (libheif and libaom at ``Encoder/avifEffort``): the frame, its YUV planes and the
    /// encoder's lookahead and reconstruction buffers; an alpha band is a second AV1 image.
    /// Measured over the image held, quality 70, libvips 8.18 (8.14 with Debian's libaom held
    /// less): opaque 8.1 MiB for 1170x183, 120.4 for 2048x2732, 341.6 for 4096x4096, charged
    /// 10 MiB and 22 bytes a pixel; with transparent bars 181.2 MiB, an alpha of noise 217.7 and
    /// 623.5, charged 16 MiB and 40 bytes a pixel.
    static func avifBytes(pixels: Int, alpha: AlphaBand) -> Int {
        alpha == .none ? adding(10 << 20, multiplying(pixels, 22)) : adding(16 << 20, multiplying(pixels, 40))
    }

    /// What an encoder is, for its memory: the output formats and `auto`'s other recipes.
    public enum EncoderKind: Sendable {
        /// ``PNGWriter``: the render held in memory.
        case png
        /// libvips' PNG saver pulling the render strip by strip (too large to hold).
        case streamedPNG
        /// libimagequant's palette through libvips' saver.
        case palette
        case jpeg
        case webp
        /// Near-lossless (and lossless) WebP.
        case webpLossless
        /// AVIF (``avifBytes(pixels:alpha:)``).
        case avif
    }

    /// Bytes of the rendering pipeline itself (flatten, colour, embed), strip by strip over the
    /// canvas width: a few rows of float RGBA per thread.
    static func pipeline(canvas: PixelSize) -> Int {
        multiplying(canvas.width, 4, 4, 64, max(1, threadsPerJob))
    }

    /// Bytes `auto` holds while it searches (``AutoEncoder``) on `pixels`, besides near-lossless
    /// WebP: the render held (4 bytes a pixel) and its copy as a libvips image (4), the luma and
    /// half-resolution chroma statistics of the reference in float (18, ``Similarity/Perceptual``),
    /// and one candidate at a time: its encoder (WebP 14), its decoded file (4) and its planes and
    /// SSIM terms (about 30), with libimagequant's histogram. Measured at 11-16 MB over the
    /// fixed-format render for 1170x183 searches (214,110 pixels: 51-75 bytes a pixel) where
    /// the mean SSIM over R, G and B held 12-49 MB; charged 16 MiB and 80 bytes a pixel.
    public static func autoSearchBytes(pixels: Int) -> Int {
        adding(16 << 20, multiplying(pixels, 80))
    }
}

extension JobCost {
    /// The charge as JSON, with the limits it is charged against and whether they cover it:
    /// `memory_bytes`, `decode_bytes`, `output_bytes`, `decoded_sample_bytes`, `memory_budget_bytes`,
    /// `max_decoded_bytes`, `accepted`, and `code` (the refusal's, or null).
    public func json(limits: JobLimits) -> JSONValue {
        var refusal: ImagingError?
        do { try limits.charge(self) } catch { refusal = error }
        return .object([
            ("memory_bytes", .int(memory)), ("decode_bytes", .int(decode)), ("output_bytes", .int(output)),
            ("decoded_sample_bytes", .int(decodedSamples)), ("memory_budget_bytes", .int(limits.memoryBudget)),
            ("max_decoded_bytes", .int(limits.maxDecodedBytes)), ("accepted", .bool(refusal == nil)),
            ("code", refusal.map { .string($0.code) } ?? .null),
        ])
    }

    /// The cost of rendering `source` with `settings`: the decode at the content size the
    /// placement gives (shrink-on-load for JPEG and WebP) and the canvas in its format. A JPEG is
    /// decoded strictly (``strictDecode(_:)``) when the limits allow: first, held while the render
    /// scales from it, when that fits with the whole render and its file
    /// (``renderPlan(_:settings:memoryBudget:)``); else after the render, whose peak is
    /// then the larger of the two.
    /// - Parameter memoryBudget: the job's budget, which decides whether a PNG render is held
    ///   (``PNGWriter``) or streamed, as ``Encoder`` decides.
    public static func render(_ source: ImageSource, settings: RenderSettings,
                              memoryBudget: Int = JobLimits.defaultMemoryBudget) -> JobCost {
        renderPlan(source, settings: settings, memoryBudget: memoryBudget).cost
    }

    /// ``render(_:settings:memoryBudget:)``'s cost and whether the render decodes strictly first,
    /// decided once for ``Renderer``. It does (and scales from those pixels, so that the source is
    /// decoded once) for a JPEG, when the strict decode, held, fits `memoryBudget` and the decode
    /// limit beside the whole render and its file. libjpeg does not always fail a shrink-on-load
    /// decode of damaged data; the strict decode does.
    static func renderPlan(_ source: ImageSource, settings: RenderSettings,
                           memoryBudget: Int) -> (cost: JobCost, strictFirst: Bool) {
        if let first = strictFirstRender(source, settings: settings, memoryBudget: memoryBudget) { return (first, true) }
        let placement = settings.placement(of: source.displayedSize)
        var cost = decode(source, content: placement.content)
        cost.output = output(canvas: settings.canvas, format: settings.format,
                             memoryBudget: encoderBudget(memoryBudget, decode: cost.decode, canvas: settings.canvas),
                             autoFormats: settings.autoFormats, alpha: settings.alphaBand(of: source))
        // `auto` on a canvas over the search's size decides on a smaller render first: two decodes.
        if settings.format == .auto, (settings.canvas.pixelCount ?? Int.max) > AutoEncoder.searchMaxPixels {
            cost.decodedSamples = adding(cost.decodedSamples, cost.decodedSamples)
        }
        if source.format == .jpeg {
            let strict = strictDecode(source)
            if strict.memory <= memoryBudget && strict.decodedSamples <= JobLimits.defaultMaxDecodedBytes {
                cost.decode = max(cost.decode, strict.decode - cost.output)
            }
        }
        return (cost, false)
    }

    /// The cost of a render from the strictly decoded image, when it fits; nil otherwise.
    private static func strictFirstRender(_ source: ImageSource, settings: RenderSettings, memoryBudget: Int) -> JobCost? {
        guard source.format == .jpeg else { return nil }
        var cost = strictDecode(source)
        let pixels = settings.canvas.pixelCount ?? Int.max
        let encoder = encoderBudget(memoryBudget, decode: cost.decode, canvas: settings.canvas)
        let alpha = settings.alphaBand(of: source)
        cost.output = output(canvas: settings.canvas, format: settings.format, memoryBudget: encoder,
                             autoFormats: settings.autoFormats, alpha: alpha)
        // A streamed PNG's file grows in memory beside the held image: as large as its samples.
        // `auto` writes one when nothing lossy fits.
        let png = settings.format == .fixed(.png) || (settings.format == .auto
            && AutoPlan(canvas: settings.canvas, memoryBudget: encoder, oneOfMany: false, allowed: settings.autoFormats,
                        alpha: alpha).losslessOnly)
        if png, heldPNG(pixels, encoder) == .streamedPNG {
            cost.output = adding(cost.output, multiplying(pixels, 4))
        }
        guard cost.memory <= memoryBudget, cost.decodedSamples <= JobLimits.defaultMaxDecodedBytes else { return nil }
        return cost
    }

    /// What checking an HTML5 bundle holds at most: its images are checked one at a time
    /// within this budget (``BundleImageLimits/memoryBudget``).
    public static var bundleCheck: Int { BundleImageLimits.memoryBudget }

    /// The cost of validating `source` at a size the product accepts: the strict decode and
    /// the pre-flight checks on its pixels.
    public static func validate(_ source: ImageSource) -> JobCost {
        var cost = strictDecode(source)
        cost.output = Preflight.memory(for: source.storedSize)
        return cost
    }

    /// The cost of ``ImageSource/strictDecode(deadline:keepingPNGPixels:)``: libpng row by row
    /// for PNG, the whole image for the rest.
    public static func strictDecode(_ source: ImageSource) -> JobCost {
        let stored = source.storedSize
        // The loader's buffer of the whole image, and libjpeg's or libwebp's own (up to as much again).
        let held = adding(source.format == .png ? 0 : multiplying(source.strictDecodeMemory, 2),
                          multiplying(source.bytes.count, inputCopies))
        return JobCost(decode: held, output: 0,
                       decodedSamples: adding(multiplying(stored.width, stored.height, source.header.bands,
                                                          source.header.isSixteenBit ? 2 : 1), source.scanDecodeCharge))
    }

    /// The cost of decoding `source` for a render at `content` (nil: decoded whole, upright,
    /// in memory, as `process` and the validator's strict decode of a non-PNG do).
    public static func decode(_ source: ImageSource, content: PixelSize?) -> JobCost {
        let stored = source.storedSize
        let bands = source.header.bands, sample = source.header.isSixteenBit ? 2 : 1
        let whole = source.decodeMemory(content: content)
        // What the decoder produces: every sample of the stored image, except where a JPEG
        // shrinks while loading (libjpeg's DCT scaling, 1/2 to 1/8 a side).
        var loaded = stored
        if let content, source.format == .jpeg {
            let shrink = jpegShrinkOnLoad(stored: source.displayedSize, content: content)
            loaded = PixelSize(width: (stored.width + shrink - 1) / shrink, height: (stored.height + shrink - 1) / shrink)
        }
        // A JPEG decoded scan by scan passes over every block of its scans first, at full size.
        let samples = adding(multiplying(loaded.width, loaded.height, bands, sample), source.scanDecodeCharge)
        let wide = source.header.hasAlpha || sample == 2
        // A render resamples through the window; a decode held whole (`process`) is copied from
        // the loader's line cache, a few strips of rows.
        let window = content == nil
            ? multiplying(loaded.width, max(bands, 3), sample, wholeDecodeRows)
            : streamingWindow(width: loaded.width, height: loaded.height, bands: max(bands, 3), wide: wide)
        return JobCost(decode: adding(whole, window, multiplying(source.bytes.count, inputCopies),
                                      multiplying(source.profileBytes, profileCopies)),
                       output: 0, decodedSamples: samples)
    }

    /// The output's cost: the pipeline and the encoder over the canvas, for `format`, within
    /// `memoryBudget` (what the job's budget leaves the encoder, ``encoderBudget(_:decode:canvas:)``:
    /// it decides, as ``Encoder`` does, whether a PNG is held or streamed and what `auto` may try).
    /// - Parameter autoFormats: what `auto` may write (``RenderSettings/autoFormats``).
    /// - Parameter alpha: the render's alpha band (``AlphaBand``: none on an opaque background).
    public static func output(canvas: PixelSize, format: FormatChoice, memoryBudget: Int,
                              autoFormats: Set<OutputFormat>? = nil, alpha: AlphaBand) -> Int {
        let pixels = canvas.pixelCount ?? Int.max
        let pipeline = pipeline(canvas: canvas)
        switch format {
        case .fixed(let fixed): return adding(pipeline, fixed.writer.encoderBytes(pixels, alpha, memoryBudget))
        case .auto:
            let plan = AutoPlan(canvas: canvas, memoryBudget: memoryBudget, oneOfMany: false, allowed: autoFormats,
                                alpha: alpha)
            return adding(pipeline, plan.memory)
        }
    }

    /// What a job's budget leaves its encoder once the decode, the job's overhead and the canvas
    /// pipeline are held: the `memoryBudget` ``Encoder`` and ``output(canvas:format:memoryBudget:autoFormats:)`` take.
    public static func encoderBudget(_ budget: Int, decode: Int, canvas: PixelSize) -> Int {
        max(0, budget - adding(decode, jobOverhead, pipeline(canvas: canvas)))
    }

    /// What a held PNG render over its weight budget holds while it is searched again in `kind`
    /// (``WeightBudgetSearch``: a palette, or for `auto` WebP): the render held and its lossless
    /// file (``encoderBytes(_:pixels:)`` of `.png`), a copy for libvips (4 bytes a pixel) and the
    /// encoder. Nil when that does not fit `memoryBudget`: the render is then refused over its
    /// budget instead (``Encoder``), never searched past its charge.
    /// - Parameter alpha: the render's alpha band, which a lossy WebP compresses.
    static func budgetFallback(_ kind: EncoderKind, pixels: Int, _ memoryBudget: Int, alpha: AlphaBand) -> Int? {
        let held = adding(encoderBytes(.png, pixels: pixels), multiplying(pixels, 4))
        let bytes = adding(held, kind == .webp ? lossyWebPBytes(pixels: pixels, alpha: alpha, memoryBudget: max(0, memoryBudget - held))
                                               : encoderBytes(kind, pixels: pixels))
        return bytes <= memoryBudget ? bytes : nil
    }

    /// Whether ``Encoder`` holds a PNG render in memory (``PNGWriter``) or streams it: held when
    /// the render and its file fit the budget.
    static func heldPNG(_ pixels: Int, _ memoryBudget: Int) -> EncoderKind {
        encoderBytes(.png, pixels: pixels) <= memoryBudget ? .png : .streamedPNG
    }

    /// libvips' JPEG shrink-on-load factor for a render at `content` (1, 2, 4 or 8), as
    /// `thumbnail` picks it: the largest that leaves the image at least the content size.
    static func jpegShrinkOnLoad(stored: PixelSize, content: PixelSize) -> Int {
        let factor = min(stored.width / max(1, content.width), stored.height / max(1, content.height))
        var shrink = 1
        while shrink < 8 && shrink * 2 <= factor { shrink *= 2 }
        return shrink
    }
}
