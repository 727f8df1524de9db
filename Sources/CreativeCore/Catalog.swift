/// Whether an accepted size is Retina artwork for adaptive slots or a classic IAB size.
public enum SizeClass: String, Sendable {
    /// 3x artwork (960x150, 1320x204, 2184x270) chosen by slot proportions.
    case adaptive
    /// Classic sizes (320x50, 300x250, ...).
    case standard
}

/// One accepted upload size.
public struct CatalogEntry: Sendable, Hashable {
    /// Pixel size of the artwork.
    public let size: PixelSize
    /// Adaptive (Retina) or standard.
    public let sizeClass: SizeClass
    /// What the size is, in a few words.
    public let purpose: String
    /// For Retina artwork: the 1x slot it is 3x of.
    public let retinaOf: PixelSize?

    /// Strip or rectangle.
    public var shape: Shape { size.shape }
}

/// The one list of accepted sizes; guidance, prompts, validation and selection all read it.
public enum Catalog {
    /// Accepted sizes in catalog order (the last tie-break of selection).
    public static let entries: [CatalogEntry] = [
        CatalogEntry(size: PixelSize(width: 960, height: 150), sizeClass: .adaptive,
                     purpose: "Retina artwork, 3x of 320x50", retinaOf: PixelSize(width: 320, height: 50)),
        CatalogEntry(size: PixelSize(width: 1320, height: 204), sizeClass: .adaptive,
                     purpose: "Retina artwork, 3x of 440x68", retinaOf: PixelSize(width: 440, height: 68)),
        CatalogEntry(size: PixelSize(width: 2184, height: 270), sizeClass: .adaptive,
                     purpose: "Retina artwork, 3x of 728x90", retinaOf: PixelSize(width: 728, height: 90)),
        CatalogEntry(size: PixelSize(width: 320, height: 50), sizeClass: .standard,
                     purpose: "mobile banner", retinaOf: nil),
        CatalogEntry(size: PixelSize(width: 320, height: 100), sizeClass: .standard,
                     purpose: "large mobile banner", retinaOf: nil),
        CatalogEntry(size: PixelSize(width: 300, height: 250), sizeClass: .standard,
                     purpose: "medium rectangle (inline only)", retinaOf: nil),
        CatalogEntry(size: PixelSize(width: 468, height: 60), sizeClass: .standard,
                     purpose: "full banner", retinaOf: nil),
        CatalogEntry(size: PixelSize(width: 728, height: 90), sizeClass: .standard,
                     purpose: "leaderboard", retinaOf: nil),
    ]

    /// The Retina artwork sizes, which are also the public test artwork sizes.
    public static var adaptiveSizes: [PixelSize] {
        entries.filter { $0.sizeClass == .adaptive }.map(\.size)
    }

    /// The entry for an exact size, or nil when the size is not accepted.
    public static func entry(for size: PixelSize) -> CatalogEntry? {
        entries.first { $0.size == size }
    }

    /// The position of a size in catalog order, or nil.
    public static func order(of size: PixelSize) -> Int? {
        entries.firstIndex { $0.size == size }
    }

    /// Accepted sizes nearest to a size (by log-distance of width and height), nearest first.
    public static func nearest(to size: PixelSize, count: Int = 2) -> [PixelSize] {
        func distance(_ other: PixelSize) -> Double {
            abs(logarithm(Double(other.width) / Double(size.width)))
                + abs(logarithm(Double(other.height) / Double(size.height)))
        }
        return entries.map(\.size).sorted { distance($0) < distance($1) }.prefix(count).map { $0 }
    }

    /// Upload weight above which a `heavy_file` warning is given (IAB and Google guideline).
    public static let weightGuidelineBytes = 150 * 1000
    /// Default hard limit for an upload's size on disk.
    public static let defaultMaxBytes = 2 * 1024 * 1024
    /// Default cap on width x height, decided from the header before decoding.
    public static let defaultMaxPixels = 50_000_000
}
