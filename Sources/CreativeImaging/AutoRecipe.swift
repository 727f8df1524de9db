import CreativeCore

/// One way `auto` (or a weight budget) writes a render: what a search decided, to write other
/// renders alike and to start the next search near it.
public enum AutoRecipe: Sendable, Equatable {
    /// Lossless PNG (``PNGWriter``).
    case lossless
    /// A palette PNG quantised by libimagequant: at most 2^`bitDepth` colours, at its `quality`
    /// (0-100: libimagequant may use fewer colours when they reach it).
    case palette(bitDepth: Int, quality: Int)
    /// A palette PNG of at most `colours` colours, fewer than 256: libimagequant's quantisation
    /// merged down (``PaletteLadder``), for a weight budget.
    case reducedPalette(colours: Int)
    /// JPEG, WebP or AVIF at a quality (JPEG and AVIF with 4:2:0 chroma below quality 90).
    case lossy(OutputFormat, Int)
    /// JPEG at a quality with full-resolution chroma (4:4:4).
    case jpegFullChroma(Int)
    /// Near-lossless WebP at a preprocessing level.
    case nearLossless(Int)

    /// The palette `auto` tries for flat art: 256 colours at libimagequant's quality 90.
    public static let flatPalette = AutoRecipe.palette(bitDepth: 8, quality: 90)

    /// The format written.
    public var format: OutputFormat {
        switch self {
        case .lossless, .palette, .reducedPalette: .png
        case .lossy(let format, _): format
        case .jpegFullChroma: .jpeg
        case .nearLossless: .webp
        }
    }

    /// The quality of a JPEG, WebP or AVIF recipe, nil for the others.
    public var quality: Int? {
        switch self {
        case .lossy(_, let quality), .jpegFullChroma(let quality): quality
        default: nil
        }
    }

    /// For people: `WebP quality 80`, `PNG, palette of at most 64 colours`.
    public var detail: String {
        switch self {
        case .lossless: "PNG, lossless"
        case .palette(let bits, _): "PNG, palette of at most \(1 << bits) colours"
        case .reducedPalette(let colours): "PNG, palette of at most \(colours) colours"
        case .lossy(let format, let quality): "\(format.displayName) quality \(quality)"
        case .jpegFullChroma(let quality): "JPEG quality \(quality), 4:4:4"
        case .nearLossless(let level): "WebP near-lossless \(level)"
        }
    }

    /// libwebp's effort for lossy WebP. WebP is most of `process`'s time; on 2360x180 renders
    /// effort 2 took 19 and 36 ms where the default 4 took 30 and 55 ms (flat art at quality 50,
    /// the bench photo at 97), for 8.6% and 3.4% more bytes.
    static let webpEffort = 2

    /// libimagequant's effort (libvips `effort`, 1-10, default 7): 3 took 88 ms on a 1170x183
    /// gradient where 7 took 533-741 ms, for 4% fewer bytes at 7.
    static let paletteEffort = 3

    /// The bytes of this recipe from `image` (8-bit sRGB, RGB or RGBA).
    /// - Parameter draft: a search's trial: WebP without the sharp RGB to YUV conversion, which
    ///   takes 2-10 times as long as the rest of the encode (the written file has it).
    func encode(_ image: VImage, draft: Bool = false) throws(ImagingError) -> [UInt8] {
        switch self {
        case .lossless:
            return try Encoder.streamingPNG(image).bytes
        case .palette(let bits, let quality):
            return try VipsOperation("pngsave_buffer").with("in", .image(image)).with("strip", .bool(true))
                .with("palette", .bool(true)).with("Q", .int(quality)).with("bitdepth", .int(bits))
                .with("dither", .double(0)).with("compression", .int(Int(PNGWriter.zlibLevel)))
                .with("effort", .int(Self.paletteEffort)).bytes()
        case .reducedPalette(let colours):
            let base = WeightBudgetSearch.paletteSteps.last ?? (bits: 8, quality: 60)
            let quantised = try AutoRecipe.palette(bitDepth: base.bits, quality: base.quality).encode(image)
            guard let ladder = try PaletteLadder(quantised: quantised), let step = ladder.steps.first(where: { $0 <= colours })
            else { return quantised }
            return try ladder.encode(colours: step)
        case .lossy(let format, let quality):
            return try Encoder.lossy(format.entry.keepsAlpha ? image : try Encoder.withoutAlpha(image), format,
                                     quality: quality, webpEffort: Self.webpEffort, sharpYUV: !draft)
        case .jpegFullChroma(let quality):
            return try Encoder.lossy(try Encoder.withoutAlpha(image), .jpeg, quality: quality, fullChroma: true)
        case .nearLossless(let level):
            return WebPContainer.strippingMetadata(try VipsOperation("webpsave_buffer").with("in", .image(image))
                .with("strip", .bool(true)).with("lossless", .bool(true)).with("near_lossless", .bool(true))
                .with("Q", .int(level)).bytes())
        }
    }
}

/// What the libvips loaded can do, checked once: the savers gained these options from release
/// to release, and the tool uses each where it is present (and says nothing where it is not: the
/// files are then as the older saver writes them).
enum EncoderFeatures {
    /// WebP's sharp RGB to YUV conversion (`smart_subsample`, libvips 8.8 and later).
    static let webpSharpYUV = VipsOperation.accepts("webpsave_buffer", "smart_subsample")
    /// JPEG's `subsample_mode` (8.11 and later; earlier, `no_subsample`).
    static let jpegSubsampleMode = VipsOperation.accepts("jpegsave_buffer", "subsample_mode")
    /// A palette PNG is quantised (libvips built with libimagequant or quantizr): a 64-colour
    /// image saved with `palette` comes out as colour type 3. Without a quantiser libvips writes
    /// RGB, which `auto` would only pay for.
    static let palettePNG: Bool = {
        guard VipsOperation.accepts("pngsave_buffer", "palette"),
              let ramp = try? VipsOperation("xyz").with("width", .int(8)).with("height", .int(8)).image(),
              let three = try? VipsOperation("bandjoin_const").with("in", .image(ramp)).with("c", .doubles([0])).image(),
              let scaled = try? VipsOperation("linear").with("in", .image(three)).with("a", .doubles([30]))
                  .with("b", .doubles([0])).with("uchar", .bool(true)).image(),
              let srgb = try? VipsOperation("copy").with("in", .image(scaled)).with("interpretation", .enumeration("srgb")).image(),
              let bytes = try? VipsOperation("pngsave_buffer").with("in", .image(srgb)).with("palette", .bool(true)).bytes(),
              bytes.count > 25 else { return false }
        return bytes[25] == 3
    }()
}
