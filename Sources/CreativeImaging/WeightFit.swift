import CreativeCore

/// The encoding of an upload under a weight: the one seam `fix` (``Fixer``) asks "the best file of this
/// format in at most N bytes". PNG, JPEG and WebP are the renders' own search (``WeightBudgetSearch``:
/// its qualities, palettes and quality floor); what is `fix`'s alone is the GIF, which no render writes.
///
/// Per format, best first:
/// - PNG: lossless (``PNGWriter``, exact); over the weight, a palette, then fewer colours, kept only
///   above the quality floor (``WeightBudgetSearch``).
/// - JPEG, WebP: the highest quality from ``highestQuality`` (or a JPEG's own) down that fits and
///   keeps the quality floor.
/// - GIF: libvips' GIF saver (one frame, a palette of up to 256 colours), then fewer bits a pixel.
public enum WeightFit {
    /// The highest JPEG and WebP quality `fix` writes: 92 keeps a re-encoded photograph close to its source.
    public static let highestQuality = 92
    /// Bits a pixel tried for a GIF, most first.
    public static let gifBitDepths = [8, 7, 6]

    /// One encoding: its bytes and how it was written, for people (`JPEG quality 78`).
    public struct Encoding: Sendable {
        public let bytes: [UInt8]
        public let detail: String
    }

    /// The best encoding of `image` (8-bit sRGB, upright) in `format` with at most `maxBytes` bytes.
    /// `highestQuality` caps a lossy format's qualities: a JPEG's own (``JPEGQuality``), so a
    /// JPEG fixed as JPEG is written at the quality it came at when that fits, not above it.
    /// - Throws: ``ImagingError/unfixable(_:)`` with ``FixRefusal/weightUnreachable(_:)`` when nothing
    ///   fits above the quality floor; ``ImagingError`` when an encoder fails.
    public static func best(_ image: VImage, format: ImageFormat, maxBytes: Int, highestQuality: Int? = nil,
                            memoryBudget: Int = JobLimits.defaultMemoryBudget) throws(ImagingError) -> Encoding {
        let rendered: EncodedRender
        do throws(ImagingError) {
            switch format {
            case .gif:
                return try gif(image, maxBytes: maxBytes)
            case .png:
                let exact = try Encoder.encode(image, EncodeRequest(format: .fixed(.png), memoryBudget: memoryBudget))
                if exact.bytes.count <= maxBytes { return Encoding(bytes: exact.bytes, detail: exact.detail + ", lossless") }
                rendered = try WeightBudgetSearch.palette(image, budget: maxBytes, lossless: exact.bytes)
            case .jpeg, .webp:
                let lossy: OutputFormat = format == .jpeg ? .jpeg : .webp
                let alpha: JobCost.AlphaBand = image.hasAlpha ? .artwork : .none
                let sharpYUV = JobCost.webpSharpYUV(pixels: image.size.pixelCount ?? Int.max, alpha: alpha,
                                                    memoryBudget: memoryBudget)
                rendered = try WeightBudgetSearch.lossy(image, lossy, budget: maxBytes,
                                                        highest: min(highestQuality ?? Self.highestQuality, Self.highestQuality),
                                                        sharpYUV: sharpYUV)
            }
        } catch .overWeightBudget(_, let smallest, _, let shortfall) {
            throw .unfixable(.weightUnreachable(FixRefusal.WeightMiss(format: format, smallest: smallest, maxBytes: maxBytes,
                                                                      shortfall: shortfall)))
        }
        return Encoding(bytes: rendered.bytes, detail: rendered.recipe?.detail ?? rendered.format.displayName)
    }

    /// A one-frame GIF at the most bits a pixel of ``gifBitDepths`` that fit.
    private static func gif(_ image: VImage, maxBytes: Int) throws(ImagingError) -> Encoding {
        var smallest = Int.max
        for bitDepth in gifBitDepths {
            let bytes = try VipsOperation("gifsave_buffer").with("in", .image(image)).with("strip", .bool(true))
                .with("bitdepth", .int(bitDepth)).bytes()
            if bytes.count <= maxBytes { return Encoding(bytes: bytes, detail: "GIF, \(bitDepth) bits a pixel") }
            smallest = min(smallest, bytes.count)
        }
        let tried = "GIF at \(gifBitDepths.map(String.init).joined(separator: ", ")) bits a pixel"
        throw .unfixable(.weightUnreachable(FixRefusal.WeightMiss(format: .gif, smallest: smallest, maxBytes: maxBytes,
                                                                  shortfall: BudgetShortfall(tried: tried))))
    }
}
