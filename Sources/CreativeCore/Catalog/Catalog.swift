/// Whether an accepted size is Retina artwork for adaptive slots, a classic IAB size, or
/// full-HD full-screen artwork.
public enum SizeClass: String, Sendable {
    /// 3x artwork (960x150, 1320x204, 2184x270) chosen by slot proportions.
    case adaptive
    /// Classic sizes (320x50, 300x250, 320x480, ...).
    case standard
    /// Full-HD interstitial artwork (1080x1920, 1920x1080) for high-density phones.
    case fullHD = "full_hd"
    /// @2x or @3x artwork of a standard size, for fixed slots (companions: 640x100, 960x150, ...).
    case retina
}

/// One accepted upload size.
public struct CatalogEntry: Sendable, Hashable {
    /// Pixel size of the artwork.
    public let size: PixelSize
    /// Adaptive (Retina), standard or full HD.
    public let sizeClass: SizeClass
    /// What the size is, in a few words.
    public let purpose: String
    /// For Retina artwork: the 1x slot it is 3x of.
    public let retinaOf: PixelSize?

    public init(size: PixelSize, sizeClass: SizeClass, purpose: String, retinaOf: PixelSize? = nil) {
        self.size = size
        self.sizeClass = sizeClass
        self.purpose = purpose
        self.retinaOf = retinaOf
    }

    /// Strip or rectangle.
    public var shape: Shape { size.shape }

    /// The fields every guidance JSON lists a size with: `size`, `width`, `height`, `class`.
    public var jsonFields: [(String, JSONValue)] {
        [("size_pixels", size.json), ("size_class", .string(sizeClass.rawValue))]
    }
}

/// The rules every product shares: weight, file and pixel caps. Each product's own sizes are
/// declared with the product (``Product``).
public enum Catalog {
    /// The weight guideline, one number for every output: 150 KB as Google defines it (150 KiB,
    /// 153,600 bytes). `heavy_file` is given above it, `fix` makes files fit it, and it is every
    /// render's default weight budget (``RenderSettings/defaultWeightBudget``).
    public static let weightGuidelineBytes = 150 * 1024
    /// The guideline as every sentence writes it: `150 KB (153,600 bytes)`.
    public static let weightGuidelineText = "\(weightGuidelineBytes / 1024) KB (\(TextFormat.grouped(weightGuidelineBytes)) bytes)"
    /// Default hard limit for an upload's size on disk.
    public static let defaultMaxBytes = 2 * 1024 * 1024
    /// Default cap on width x height, decided from the header before decoding.
    public static let defaultMaxPixels = 50_000_000

    /// The longest side an image may have to be decoded (`side_too_long` above it), decided from
    /// the header. The longest side the catalogs accept is 2184 px (2184x270), the longest device
    /// slot 2732 px (an iPad Pro 12.9 at 2x): this is 6 times that. A decode streams row by row, and
    /// what libvips' resampling window holds grows with the width, so the side is capped as
    /// well as the area.
    public static let maxDecodedSide = 16_384
    /// The most elongated shape that is decoded, long side over short side
    /// (`extreme_aspect_ratio` above it). The catalogs' most elongated size is 8.09:1 (728x90
    /// and its 3x, 2184x270): this is 4 times that. A strip of 1x2,000,000 is within the pixel
    /// cap but costs libvips seconds per million rows.
    public static let maxAspectRatio = 32
}
