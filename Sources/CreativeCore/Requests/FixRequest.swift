/// An upload made ready as callers ask for it (`creative-tool fix`, `POST /v1/fix`): its options,
/// declared once, and their rules. The CLI and the service read it from their own ``OptionSource``;
/// the work is `Fixer`'s (CreativeImaging).
public struct FixRequest: Sendable {
    /// `--size WxH`: the accepted size to fix to, instead of the nearest.
    public static let size = OptionDeclaration(
        "size", .size, placeholder: "WxH",
        help: "the accepted size to write, in pixels (default: the accepted size nearest the file's, "
            + "when its aspect ratio is within 1%)",
        mistakenNames: ["slot", "dimensions"])
    /// `--frame N`: the frame of an animated GIF or WebP kept as the still image, 1-based.
    public static let frame = IntegerOption(
        "frame", 1...Int(Int32.max), placeholder: "N",
        help: "for an animated GIF or WebP, the frame kept as the still image, counted from 1 (default: the first, the one render shows)")
    /// `--format F`: the format written (default: the input's).
    public static let format = OptionDeclaration(
        "format", .choice(ImageFormat.allCases.map(\.rawValue)), placeholder: "F",
        help: "png, jpeg, gif or webp (default: the output name's extension; without one, the input's format "
            + "where it fits the weight, else JPEG, or WebP for transparent pixels); converting is a change said "
            + "on its own line",
        mistakenValues: ["jpg": "jpeg", "jpe": "jpeg"])
    /// Every option, in help order.
    public static let options = OptionList([ValidateRequest.options[CommonOptions.product.name],
                                            CommonOptions.profile.with(help: "the platforms whose rules the file must pass, "
                                                + "comma-separated: their sizes and the strictest weight for the size "
                                                + "(docs/profiles.md)"),
                                            size, frame, format])

    /// Most an accepted size's aspect ratio may differ from the file's for `fix` to resize to it: 1%.
    public static let maxAspectDifference = 0.01

    /// Whose sizes are accepted.
    public let product: Product
    /// The platform profiles the file must pass (`--profile`); empty for the product's own rules.
    public let profiles: [PlatformProfile]
    /// The size asked for, nil for the nearest accepted size.
    public let size: PixelSize?
    /// The frame asked for, 1-based; nil for the first.
    public let frame: Int?
    /// The format asked for (`--format`), nil for the output name's or the input's.
    public let format: ImageFormat?
    /// The format an output name's extension names (`.png`, `.jpg`, `.gif`, `.webp`), nil for none.
    public let namedFormat: ImageFormat?

    /// A fix as code asks for it (no output name to agree with); `size` must be one the product accepts.
    public init(product: Product = .defaultProduct, profiles: [PlatformProfile] = [], size: PixelSize? = nil,
                frame: Int? = nil, format: ImageFormat? = nil) {
        self.product = product
        self.profiles = profiles
        self.size = size
        self.frame = frame
        self.format = format
        namedFormat = nil
    }

    /// Reads and checks a fix.
    /// - Parameter outputName: the file written (the command line's `--output`): its extension, when it names
    ///   a format, is the format written, and must agree with `format` when both are given.
    /// - Throws: ``CoreError`` for a wrong value, a size the product does not accept, or a format the
    ///   output name disagrees with.
    public init(_ source: some OptionSource, outputName: String? = nil) throws(CoreError) {
        product = try CommonOptions.product(source)
        profiles = try CommonOptions.profiles(source) ?? []
        size = try source.size(Self.size)
        if let size, !ProfileChecks.accepts(size, product: product, profiles: profiles) {
            let whose = profiles.isEmpty ? (product.isDefault ? "" : " \(product)") : " \(profiles.names)"
            let other = profiles.isEmpty ? ValidationRules.otherProduct(size, product) : ""
            throw .invalidRequest("\(source.spelling(Self.size)) \(size) is not an accepted\(whose) size\(other); give one of: "
                                  + Self.acceptedSizes(product, profiles).map(\.description).joined(separator: ", "))
        }
        frame = try source.int(Self.frame)
        format = try source.choice(Self.format, ImageFormat.self)
        namedFormat = outputName.flatMap(Self.format(named:))
        if let outputName, namedFormat == nil, let ending = Self.ending(of: outputName) {
            // The validator would call the file's name a mismatch: refused before any work.
            throw .invalidRequest("the output name '\(TextFormat.clipped(outputName))' ends in .\(TextFormat.clipped(ending)), "
                                  + "which names no format fix writes; end it .png, .jpg, .gif or .webp")
        }
        if let format, let namedFormat, format != namedFormat, let outputName {
            throw .invalidRequest("\(source.spelling(Self.format)) \(format.rawValue) disagrees with the output name "
                                  + "'\(TextFormat.clipped(outputName))'; drop \(source.spelling(Self.format)) or rename the output")
        }
    }

    /// The formats written for an input of `input`, in order: the one asked for (`format`, else the output
    /// name's), alone; without either, the input's, then JPEG and WebP (``Fixer`` takes the first that fits
    /// the weight, passing JPEG over for transparent pixels).
    public func outputFormats(for input: ImageFormat) -> [ImageFormat] {
        if let chosen = format ?? namedFormat { return [chosen] }
        return [input] + [ImageFormat.jpeg, .webp].filter { $0 != input }
    }

    /// Why the first of ``outputFormats(for:)`` differs from the input's format, for the `format_changed`
    /// line; nil when it is the input's.
    public func formatReason(for input: ImageFormat) -> String? {
        guard let chosen = format ?? namedFormat, chosen != input else { return nil }
        return format != nil ? "the format asked for" : "the output name asks for it"
    }

    /// The format a name's extension names (any case), nil for another ending or none.
    public static func format(named path: String) -> ImageFormat? {
        guard let ending = ending(of: path)?.lowercased() else { return nil }
        return ImageFormat.allCases.first { $0.extensions.contains(ending) }
    }

    /// A file name's extension (after the last `.` of its last component, not a leading one), nil for none.
    static func ending(of path: String) -> String? {
        let base = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex, base.index(after: dot) != base.endIndex else {
            return nil
        }
        return String(base[base.index(after: dot)...])
    }

    /// The sizes the file may have: the product's, or those every profile accepts (in the first's order).
    public var acceptedSizes: [PixelSize] { Self.acceptedSizes(product, profiles) }

    private static func acceptedSizes(_ product: Product, _ profiles: [PlatformProfile]) -> [PixelSize] {
        guard let first = profiles.first else { return product.sizes }
        return first.acceptedSizes(for: product).filter { ProfileChecks.accepts($0, product: product, profiles: profiles) }
    }

    /// The most bytes the fixed file may weigh at `size` with no error or warning: the guideline (153,600 bytes),
    /// or with profiles the strictest of their limits for the size and their weight guidelines.
    public func weightLimit(for size: PixelSize) -> Int {
        guard !profiles.isEmpty else { return Catalog.weightGuidelineBytes }
        let limits = [profiles.weightBudget(for: size)].compactMap { $0 } + profiles.compactMap(\.weightGuideline)
        return limits.min() ?? Catalog.weightGuidelineBytes
    }

    /// The size a file of `size` is fixed to: the one asked for, the size itself when accepted, else the
    /// accepted size nearest it when its aspect ratio is within ``maxAspectDifference``.
    /// - Returns: the size, or the nearest accepted sizes (the product's nearest-size rule) when none is near enough.
    public func target(for size: PixelSize) -> Result<PixelSize, SizeRefusal> {
        if let chosen = self.size {
            let difference = Self.aspectDifference(size, chosen)
            guard difference < Self.maxAspectDifference else {
                return .failure(SizeRefusal(size: size, nearest: [chosen], difference: difference))
            }
            return .success(chosen)
        }
        let accepted = acceptedSizes
        if accepted.contains(size) { return .success(size) }
        let nearest = Product.nearest(to: size, among: accepted)
        if let first = nearest.first, Self.aspectDifference(size, first) < Self.maxAspectDifference { return .success(first) }
        return .failure(SizeRefusal(size: size, nearest: nearest,
                                    difference: nearest.first.map { Self.aspectDifference(size, $0) } ?? 1))
    }

    /// How far apart two shapes are: the relative difference of their aspect ratios (0.001 is 0.1%).
    public static func aspectDifference(_ a: PixelSize, _ b: PixelSize) -> Double {
        let ratioA = Double(a.width) / Double(max(1, a.height)), ratioB = Double(b.width) / Double(max(1, b.height))
        return abs(ratioA - ratioB) / ratioB
    }

    /// A size no accepted size is near enough to: resizing would distort the artwork.
    public struct SizeRefusal: Error, Sendable, Equatable {
        /// The file's size as displayed.
        public let size: PixelSize
        /// The accepted sizes nearest it (or the one asked for).
        public let nearest: [PixelSize]
        /// The aspect-ratio difference to the nearest.
        public let difference: Double

        /// For people: what is wrong and what to export instead.
        public var message: String {
            let names = nearest.map(\.description).joined(separator: " or ")
            return "\(size) is too far from \(names) to resize safely (aspect ratio \(TextFormat.percent(difference)) off, "
                + "fix resizes within \(TextFormat.percent(FixRequest.maxAspectDifference))); export it at \(names)"
        }
    }
}
