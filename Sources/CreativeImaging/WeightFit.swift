import CreativeCore

/// The encoding of an upload under a weight: the one seam `fix` (``Fixer``) asks "the best file of this
/// format in at most N bytes". It searches with the encoders of the renders (``Encoder``, libvips'
/// savers); a budgeted quality search shared with the renders can take its place here alone.
///
/// Per format, best first:
/// - PNG: lossless (``PNGWriter``, exact); over the weight, a palette PNG quantised by libimagequant at
///   the highest of ``paletteQualities`` that fits (dithered: a photograph keeps its gradients).
/// - JPEG, WebP: the highest quality of ``lossyQualities`` that fits (binary search: bytes grow with quality).
/// - GIF: libvips' GIF saver (one frame, a palette of up to 256 colours), then fewer bits a pixel.
public enum WeightFit {
    /// JPEG and WebP qualities tried, highest first: 92 keeps a re-encoded photograph close to its
    /// source; below 50 small text smears (``AutoEncoder/qualities``).
    public static let lossyQualities = [92, 88, 85, 82, 78, 74, 70, 65, 60, 55, 50]
    /// libimagequant qualities tried for a palette PNG over the weight, highest first.
    public static let paletteQualities = [90, 80, 70, 60]
    /// Bits a pixel tried for a GIF, most first.
    public static let gifBitDepths = [8, 7, 6]

    /// One encoding: its bytes and how it was written, for people (`JPEG quality 78`).
    public struct Encoding: Sendable {
        public let bytes: [UInt8]
        public let detail: String
        /// True when the pixels are kept exactly (lossless PNG).
        public let lossless: Bool
    }

    /// The best encoding of `image` (8-bit sRGB, upright) in `format` with at most `maxBytes` bytes.
    /// `highestQuality` caps a lossy format's qualities: a JPEG's own (``JPEGQuality``), so a
    /// JPEG fixed as JPEG is written at the quality it came at when that fits, not above it.
    /// - Returns: the encoding, or nil with the smallest size the search reached when none fits.
    /// - Throws: ``ImagingError`` when an encoder fails.
    public static func best(_ image: VImage, format: ImageFormat, maxBytes: Int, highestQuality: Int? = nil,
                            memoryBudget: Int = JobLimits.defaultMemoryBudget) throws(ImagingError)
        -> Result<Encoding, Overweight> {
        var smallest = Int.max
        let ladder = qualities(highest: highestQuality)
        for candidate in candidates(format, highestQuality: ladder[0]) {
            let encoding = try encode(image, candidate, memoryBudget: memoryBudget)
            if encoding.bytes.count <= maxBytes {
                // Lossy candidates come highest quality first; a search narrows to the highest that fits.
                return .success(encoding)
            }
            smallest = min(smallest, encoding.bytes.count)
            if case .lossy(let lossyFormat, _) = candidate {
                return try searchLossy(image, lossyFormat, qualities: ladder, maxBytes: maxBytes, smallestSoFar: smallest)
            }
        }
        return .failure(Overweight(smallest: smallest, maxBytes: maxBytes, format: format))
    }

    /// No encoding of the format fits the weight.
    public struct Overweight: Error, Sendable, Equatable {
        /// The smallest file the search wrote.
        public let smallest: Int
        public let maxBytes: Int
        public let format: ImageFormat
    }

    /// A way to write the file.
    enum Candidate {
        case losslessPNG
        case palettePNG(quality: Int)
        case lossy(OutputFormat, quality: Int)
        case gif(bitDepth: Int)
    }

    /// The lossy qualities tried, highest first: ``lossyQualities``, or with `highest` below 92
    /// that quality, then those of ``lossyQualities`` under it (a JPEG of quality 80: 80, 78, 74, ...).
    static func qualities(highest: Int?) -> [Int] {
        guard let highest, highest < lossyQualities[0] else { return lossyQualities }
        let top = max(1, highest)
        return [top] + lossyQualities.filter { $0 < top }
    }

    /// The candidates of a format, best first (a lossy format: its highest quality; the search goes on from there).
    static func candidates(_ format: ImageFormat, highestQuality: Int = lossyQualities[0]) -> [Candidate] {
        switch format {
        case .png: [.losslessPNG] + paletteQualities.map { .palettePNG(quality: $0) }
        case .jpeg: [.lossy(.jpeg, quality: highestQuality)]
        case .webp: [.lossy(.webp, quality: highestQuality)]
        case .gif: gifBitDepths.map { .gif(bitDepth: $0) }
        }
    }

    /// The highest of `qualities` under `maxBytes` (the first, tried already, was over).
    private static func searchLossy(_ image: VImage, _ format: OutputFormat, qualities: [Int], maxBytes: Int,
                                    smallestSoFar: Int) throws(ImagingError) -> Result<Encoding, Overweight> {
        var low = 1, high = qualities.count - 1
        var found: Encoding?
        var smallest = smallestSoFar
        while low <= high {
            let middle = (low + high) / 2
            let encoding = try encode(image, .lossy(format, quality: qualities[middle]))
            if encoding.bytes.count <= maxBytes {
                found = encoding
                high = middle - 1
            } else {
                smallest = min(smallest, encoding.bytes.count)
                low = middle + 1
            }
        }
        if let found { return .success(found) }
        return .failure(Overweight(smallest: smallest, maxBytes: maxBytes, format: ImageFormat(rawValue: format.rawValue) ?? .jpeg))
    }

    static func encode(_ image: VImage, _ candidate: Candidate,
                       memoryBudget: Int = JobLimits.defaultMemoryBudget) throws(ImagingError) -> Encoding {
        switch candidate {
        case .losslessPNG:
            let png = try Encoder.encode(image, EncodeRequest(format: .fixed(.png), memoryBudget: memoryBudget))
            return Encoding(bytes: png.bytes, detail: png.detail + ", lossless", lossless: true)
        case .palettePNG(let quality):
            let bytes = try VipsOperation("pngsave_buffer").with("in", .image(image)).with("strip", .bool(true))
                .with("palette", .bool(true)).with("Q", .int(quality)).with("dither", .double(1))
                .with("compression", .int(Int(PNGWriter.zlibLevel))).bytes()
            return Encoding(bytes: bytes, detail: "PNG, palette of up to 256 colours (libimagequant quality \(quality))",
                            lossless: false)
        case .lossy(let format, let quality):
            let opaque = format == .jpeg && image.hasAlpha
                ? try VipsOperation("extract_band").with("in", .image(image)).with("band", .int(0)).with("n", .int(3)).image()
                : image
            return Encoding(bytes: try Encoder.lossy(opaque, format, quality: quality),
                            detail: "\(format.displayName) quality \(quality)", lossless: false)
        case .gif(let bitDepth):
            let bytes = try VipsOperation("gifsave_buffer").with("in", .image(image)).with("strip", .bool(true))
                .with("bitdepth", .int(bitDepth)).bytes()
            return Encoding(bytes: bytes, detail: "GIF, \(bitDepth) bits a pixel", lossless: false)
        }
    }
}
