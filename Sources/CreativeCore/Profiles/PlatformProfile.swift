/// One ad platform's upload rules, read from its data file (`Profiles/<name>.json`, embedded in
/// the binary): the sizes, formats, weights, colour space, border and animation limits a
/// platform publishes, each with the page it comes from and when that page was read.
/// `validate --profile`, `guidance --profile`, `profiles` and the service read profiles from
/// here (``PlatformProfiles``); the render side asks ``weightBudget(for:)``.
///
/// How a profile's sizes combine with the product's (docs/profiles.md, "Sizes"): a profile
/// with its own list (``sizeList``, Google Ads, Amazon) accepts exactly that list, whatever the
/// product's catalog says; a profile without one accepts the product's sizes, within its
/// bounds (``minimumSize``, ``maximumSize``).
public struct PlatformProfile: Sendable, Equatable {
    /// The name callers give (`--profile google-ads`), the file's name without `.json`.
    public let name: String
    /// A title for people: `Google Ads: uploaded image ads`.
    public let title: String
    /// Every rule, in the file's order.
    public let rules: [ProfileRule]

    public init(name: String, title: String, rules: [ProfileRule]) {
        self.name = name
        self.title = title
        self.rules = rules
    }

    /// The profile callers get when they name none: the network's own rules.
    public static let defaultName = "network"

    /// Whether this is the network's own profile (the default).
    public var isDefault: Bool { name == Self.defaultName }

    // MARK: Rules by kind

    /// The platform's own size list; nil when the product's sizes apply.
    public var sizeList: [PixelSize]? {
        for rule in rules { if case .sizes(let list?, _, _) = rule.kind { return list } }
        return nil
    }

    /// The smallest width and height accepted, when the platform sets one (Microsoft: 703x368).
    public var minimumSize: PixelSize? {
        for rule in rules { if case .sizes(_, let minimum?, _) = rule.kind { return minimum } }
        return nil
    }

    /// The largest width and height accepted, when the platform sets one (DV360: 4000x4000).
    public var maximumSize: PixelSize? {
        for rule in rules { if case .sizes(_, _, let maximum?) = rule.kind { return maximum } }
        return nil
    }

    /// The formats accepted; nil when the platform names none (every format the tool accepts).
    public var formats: [ImageFormat]? {
        for rule in rules { if case .formats(let list) = rule.kind { return list } }
        return nil
    }

    /// The weight limit of any upload in bytes; nil when the platform sets none.
    public var maxBytes: Int? {
        for rule in rules { if case .maxBytes(let bytes?) = rule.kind { return bytes } }
        return nil
    }

    /// Weight limits by size (IAB LEAN), in the file's order; empty when there are none.
    public var sizeWeights: [SizeWeight] {
        for rule in rules { if case .sizeBytes(let weights) = rule.kind { return weights } }
        return []
    }

    /// The weight over which a `heavy_file` warning is given (the network's 150 KB guideline).
    public var weightGuideline: Int? {
        for rule in rules { if case .weightGuideline(let bytes) = rule.kind { return bytes } }
        return nil
    }

    /// The colour spaces refused (`cmyk` for Google Ad Manager); empty when none is.
    public var refusedColourSpaces: [ColourSpace] {
        for rule in rules { if case .colourSpace(let refused) = rule.kind { return refused } }
        return []
    }

    /// Whether artwork with a white or black edge needs a contrasting border (an error, not the
    /// pre-flight warning).
    public var requiresBorder: Bool {
        rules.contains { if case .border(true) = $0.kind { true } else { false } }
    }

    /// The animation limits; nil when the platform states none.
    public var animation: AnimationLimits? {
        for rule in rules { if case .animation(let limits) = rule.kind { return limits } }
        return nil
    }

    /// The first rule of a kind (by ``ProfileRule/Kind/name``), for its source and note.
    public func rule(_ kindName: String) -> ProfileRule? { rules.first { $0.kind.name == kindName } }

    // MARK: Decisions

    /// The sizes this profile accepts for a product: its own list, or the product's sizes within
    /// its bounds, in that list's order.
    public func acceptedSizes(for product: Product) -> [PixelSize] {
        (sizeList ?? product.sizes).filter { withinBounds($0) }
    }

    /// Whether an upload of this size is accepted.
    public func accepts(_ size: PixelSize, product: Product) -> Bool {
        acceptedSizes(for: product).contains(size)
    }

    /// Whether a size is within ``minimumSize`` and ``maximumSize``.
    public func withinBounds(_ size: PixelSize) -> Bool {
        if let minimum = minimumSize, size.width < minimum.width || size.height < minimum.height { return false }
        if let maximum = maximumSize, size.width > maximum.width || size.height > maximum.height { return false }
        return true
    }

    /// The most bytes an ad of this pixel size may weigh under this profile, nil when the profile
    /// sets no limit for it. The size's own weight (``sizeWeights``) wins; Retina artwork of a
    /// listed size (2x, 3x or 4x of it: 960x150 for 320x50) weighs as that size; else the
    /// profile's limit for any size (``maxBytes``).
    ///
    /// The render side reads this for `--weight-budget` (`render`, `process --profile`): pass the
    /// slot's size in pixels; nil means the caller's own default budget applies.
    public func weightBudget(for size: PixelSize) -> Int? {
        if let own = sizeWeights.first(where: { $0.size == size }) { return own.bytes }
        for factor in 2...4 {
            guard size.width % factor == 0, size.height % factor == 0 else { continue }
            let base = PixelSize(width: size.width / factor, height: size.height / factor)
            if let own = sizeWeights.first(where: { $0.size == base }) { return own.bytes }
        }
        return maxBytes
    }
}

extension Array where Element == PlatformProfile {
    /// The strictest weight any of these profiles allows for a size (``PlatformProfile/weightBudget(for:)``),
    /// nil when none sets one.
    public func weightBudget(for size: PixelSize) -> Int? {
        compactMap { $0.weightBudget(for: size) }.min()
    }

    /// The names, comma-separated: `google-ads,iab-lean`.
    public var names: String { map(\.name).joined(separator: ",") }
}

/// A weight limit for one size (IAB LEAN's initial load).
public struct SizeWeight: Sendable, Equatable {
    public let size: PixelSize
    /// Most bytes.
    public let bytes: Int

    public init(size: PixelSize, bytes: Int) {
        self.size = size
        self.bytes = bytes
    }
}

/// A colour space a platform may refuse.
public enum ColourSpace: String, Sendable, CaseIterable {
    case cmyk
}

/// A platform's animation limits, kept for when animated uploads are accepted (today every
/// animated upload is refused as `animated`, whatever the profile).
public struct AnimationLimits: Sendable, Equatable {
    /// Whether the platform takes animated images at all.
    public let allowed: Bool
    /// Longest animation in seconds, loops included.
    public let maxSeconds: Double?
    /// Most frames a second.
    public let maxFramesPerSecond: Double?
    /// Most loops.
    public let maxLoops: Int?

    public init(allowed: Bool, maxSeconds: Double? = nil, maxFramesPerSecond: Double? = nil, maxLoops: Int? = nil) {
        self.allowed = allowed
        self.maxSeconds = maxSeconds
        self.maxFramesPerSecond = maxFramesPerSecond
        self.maxLoops = maxLoops
    }
}

/// One rule of a profile, with where it comes from.
public struct ProfileRule: Sendable, Equatable {
    /// What the rule says.
    public enum Kind: Sendable, Equatable {
        /// `sizes`: the platform's own list (nil: the product's sizes), and bounds on width and height.
        case sizes(list: [PixelSize]?, minimum: PixelSize?, maximum: PixelSize?)
        /// `formats`: the formats accepted.
        case formats([ImageFormat])
        /// `max_bytes`: the weight limit of any upload; nil where the platform states none (said in the note).
        case maxBytes(Int?)
        /// `size_bytes`: weight limits by size.
        case sizeBytes([SizeWeight])
        /// `weight_guideline`: a weight over which a warning is given.
        case weightGuideline(Int)
        /// `colour_space`: colour spaces refused.
        case colourSpace(refused: [ColourSpace])
        /// `border`: whether a white or black edge needs a contrasting border.
        case border(required: Bool)
        /// `animation`: the animation limits.
        case animation(AnimationLimits)

        /// The `rule` field of the file: `sizes`, `max_bytes`, ...
        public var name: String {
            switch self {
            case .sizes: "sizes"
            case .formats: "formats"
            case .maxBytes: "max_bytes"
            case .sizeBytes: "size_bytes"
            case .weightGuideline: "weight_guideline"
            case .colourSpace: "colour_space"
            case .border: "border"
            case .animation: "animation"
            }
        }
    }

    public let kind: Kind
    /// Where the rule comes from: the platform's public page (`https://...`), or for the network's
    /// own rules the document of this project that states them (`docs/validation.md`).
    public let source: String
    /// When the source was read: `YYYY-MM` or `YYYY-MM-DD`.
    public let read: String
    /// What the source says beyond the figure (which text, which reading), nil when nothing.
    public let note: String?

    public init(_ kind: Kind, source: String, read: String, note: String? = nil) {
        self.kind = kind
        self.source = source
        self.read = read
        self.note = note
    }
}
