/// How a product's slot on a device is sized.
public enum SlotRule: String, Sendable {
    /// Banners: an anchored strip (height from the width, docs/reference.md, "render", "slot" and "select") or an inline view.
    case anchoredOrInlineStrip = "anchored_or_inline_strip"
    /// Interstitials: the whole screen minus its safe-area insets, in each orientation.
    case fullScreenSafeArea = "full_screen_safe_area"
    /// Companions: one fixed slot per device class (``Product/standardSlotPoints``) at the
    /// device's scale, the same in both orientations.
    case fixedStandardSlot = "fixed_standard_slot"
}

/// How the ad server picks among a product's approved sizes for a slot.
public enum SelectionRule: String, Sendable {
    /// Banners: closest aspect ratio for anchored slots (strips only), biggest shown for inline
    /// ones; ties to the larger pixel width, then catalog order.
    case aspectRatio = "aspect_ratio"
    /// Interstitials: artwork of the screen's orientation first, then the closest aspect ratio to
    /// the safe area; ties in catalog order.
    case orientationThenAspectRatio = "orientation_then_aspect_ratio"
    /// Companions: closest aspect ratio `|ln(r / r')|`; among equally close, the sharpest artwork
    /// that needs no upscaling (the smallest whose aspect-fit scale is at most 1), else the
    /// largest (the least upscaled); then catalog order.
    case aspectRatioThenSharpest = "aspect_ratio_then_sharpest"
}

/// A creative kind the network sells: its accepted sizes, its slot rule, its selection rule and
/// its job numbers. This is the one place a product is declared; validation, selection,
/// guidance, prompts, `process`, the job limits and the service read everything
/// product-specific from here. Format, weight, pixel cap and strictness rules are the same for
/// every product (``Catalog``).
///
/// To add a product of an existing slot rule (a strip product as banners, a full-screen one, a
/// fixed slot): declare it below as a `static let` and list it in ``allCases``; the contract
/// lists its name too (`schemas/defs.schema.json`, `openapi.yaml`, docs). A product
/// whose slots or selection work differently adds a case to ``SlotRule`` or ``SelectionRule``;
/// the compiler then names every switch to extend (`DevicePlan.slots(for:product:)`,
/// `DevicePlan.plan(with:product:)`, `SelectionMode.modes(for:)`, `Selection.select`).
public struct Product: Sendable, Hashable, RawRepresentable, CaseIterable, CustomStringConvertible {
    /// The name callers give (`--product`, `product=`).
    public let rawValue: String
    /// A title for people: `Banner`, `Interstitial`.
    public let title: String
    /// Accepted sizes in catalog order (the last tie-break of selection).
    public let entries: [CatalogEntry]
    /// How the slot on a device is sized.
    public let slotRule: SlotRule
    /// How the ad server picks among approved sizes.
    public let selectionRule: SelectionRule
    /// The sizes guidance recommends uploading; together they serve every device slot.
    public let recommendedUploads: [PixelSize]
    /// For ``SlotRule/fixedStandardSlot``: the slot in points per device class; empty otherwise.
    public let standardSlotPoints: [DeviceClass: PixelSize]
    /// What a job of the product gets when its caller gives no limits, and the largest preview
    /// sheet `process` is charged for.
    public let jobDefaults: JobDefaults

    /// A product of its own declaration (the products the tool sells are the static ones below).
    public init(rawValue: String, title: String, entries: [CatalogEntry], slotRule: SlotRule,
                selectionRule: SelectionRule, recommendedUploads: [PixelSize],
                standardSlotPoints: [DeviceClass: PixelSize] = [:], jobDefaults: JobDefaults) {
        self.rawValue = rawValue
        self.title = title
        self.entries = entries
        self.slotRule = slotRule
        self.selectionRule = selectionRule
        self.recommendedUploads = recommendedUploads
        self.standardSlotPoints = standardSlotPoints
        self.jobDefaults = jobDefaults
    }

    /// The product of a name, or nil.
    public init?(rawValue: String) {
        guard let product = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = product
    }

    /// Every product, in the order help and errors list them.
    public static let allCases: [Product] = [.banner, .interstitial, .companion]

    /// The names of every product, for usage texts: `banner|interstitial|companion`.
    public static var names: String { allCases.map(\.rawValue).joined(separator: "|") }

    /// The product when a caller names none.
    public static let defaultProduct = Product.banner

    public var description: String { rawValue }

    // MARK: The products

    /// Banners (docs/reference.md, "Accepted artwork"): strips for anchored slots, rectangles for inline views only.
    public static let banner = Product(
        rawValue: "banner", title: "Banner",
        entries: [
            CatalogEntry(size: PixelSize(width: 960, height: 150), sizeClass: .adaptive,
                         purpose: "Retina artwork, 3x of 320x50", retinaOf: PixelSize(width: 320, height: 50)),
            CatalogEntry(size: PixelSize(width: 1320, height: 204), sizeClass: .adaptive,
                         purpose: "Retina artwork, 3x of 440x68", retinaOf: PixelSize(width: 440, height: 68)),
            CatalogEntry(size: PixelSize(width: 2184, height: 270), sizeClass: .adaptive,
                         purpose: "Retina artwork, 3x of 728x90", retinaOf: PixelSize(width: 728, height: 90)),
            CatalogEntry(size: PixelSize(width: 320, height: 50), sizeClass: .standard, purpose: "mobile banner"),
            CatalogEntry(size: PixelSize(width: 320, height: 100), sizeClass: .standard, purpose: "large mobile banner"),
            CatalogEntry(size: PixelSize(width: 300, height: 250), sizeClass: .standard,
                         purpose: "medium rectangle (inline only)"),
            CatalogEntry(size: PixelSize(width: 468, height: 60), sizeClass: .standard, purpose: "full banner"),
            CatalogEntry(size: PixelSize(width: 728, height: 90), sizeClass: .standard, purpose: "leaderboard"),
        ],
        slotRule: .anchoredOrInlineStrip, selectionRule: .aspectRatio,
        recommendedUploads: [PixelSize(width: 960, height: 150), PixelSize(width: 1320, height: 204),
                             PixelSize(width: 2184, height: 270)],
        // The slots served drawn at 2x points with every warning written out at length: 861x17506
        // for 300x250 alone, served in all 28 inline slots, laid out wider to stay within the
        // sheet's longest side.
        jobDefaults: .slotSized(sheetPixels: 18_500_000))

    /// Interstitials (`002`): full-screen artwork shown between screens. The IAB and Google
    /// standard interstitial sizes in both orientations, plus full-HD artwork for dense phones.
    public static let interstitial = Product(
        rawValue: "interstitial", title: "Interstitial",
        entries: [
            CatalogEntry(size: PixelSize(width: 320, height: 480), sizeClass: .standard,
                         purpose: "phone interstitial, portrait"),
            CatalogEntry(size: PixelSize(width: 768, height: 1024), sizeClass: .standard,
                         purpose: "tablet interstitial, portrait"),
            CatalogEntry(size: PixelSize(width: 480, height: 320), sizeClass: .standard,
                         purpose: "phone interstitial, landscape"),
            CatalogEntry(size: PixelSize(width: 1024, height: 768), sizeClass: .standard,
                         purpose: "tablet interstitial, landscape"),
            CatalogEntry(size: PixelSize(width: 1080, height: 1920), sizeClass: .fullHD,
                         purpose: "full-HD phone artwork, portrait"),
            CatalogEntry(size: PixelSize(width: 1920, height: 1080), sizeClass: .fullHD,
                         purpose: "full-HD phone artwork, landscape"),
        ],
        slotRule: .fullScreenSafeArea, selectionRule: .orientationThenAspectRatio,
        recommendedUploads: [PixelSize(width: 320, height: 480), PixelSize(width: 768, height: 1024),
                             PixelSize(width: 480, height: 320), PixelSize(width: 1024, height: 768),
                             PixelSize(width: 1080, height: 1920), PixelSize(width: 1920, height: 1080)],
        // 2318x13955 measured at 1x (320x480 alone, served on every screen), with a tenth more; a
        // full-screen sheet is not charged by the pixel (`ProcessPlan.sheetBytes`).
        jobDefaults: .fullScreen(sheetPixels: 35_600_000))

    /// Companions (`003`): the standard slot beside a video ad, 320x50 pt on phones and 728x90 pt
    /// on iPads (the SDK's `standardSlotSize`), with @2x and @3x Retina artwork of each. Uploading
    /// the two @3x sizes serves every slot of the device table without upscaling.
    public static let companion = Product(
        rawValue: "companion", title: "Companion",
        entries: [
            CatalogEntry(size: PixelSize(width: 320, height: 50), sizeClass: .standard, purpose: "phone companion slot"),
            CatalogEntry(size: PixelSize(width: 640, height: 100), sizeClass: .retina,
                         purpose: "Retina artwork, 2x of 320x50", retinaOf: PixelSize(width: 320, height: 50)),
            CatalogEntry(size: PixelSize(width: 960, height: 150), sizeClass: .retina,
                         purpose: "Retina artwork, 3x of 320x50", retinaOf: PixelSize(width: 320, height: 50)),
            CatalogEntry(size: PixelSize(width: 728, height: 90), sizeClass: .standard, purpose: "iPad companion slot"),
            CatalogEntry(size: PixelSize(width: 1456, height: 180), sizeClass: .retina,
                         purpose: "Retina artwork, 2x of 728x90", retinaOf: PixelSize(width: 728, height: 90)),
            CatalogEntry(size: PixelSize(width: 2184, height: 270), sizeClass: .retina,
                         purpose: "Retina artwork, 3x of 728x90", retinaOf: PixelSize(width: 728, height: 90)),
        ],
        slotRule: .fixedStandardSlot, selectionRule: .aspectRatioThenSharpest,
        recommendedUploads: [PixelSize(width: 960, height: 150), PixelSize(width: 2184, height: 270)],
        standardSlotPoints: [.phone: PixelSize(width: 320, height: 50), .tablet: PixelSize(width: 728, height: 90)],
        // The slots served drawn at 2x points with every warning: 1504x4461 at most.
        jobDefaults: .slotSized(sheetPixels: 7_000_000))

    /// Whether this is the product callers get when they name none (messages leave its name out).
    public var isDefault: Bool { self == Self.defaultProduct }

    /// Whether the product's slot on a device differs by orientation (a companion's does not).
    public var slotHasOrientation: Bool {
        switch slotRule {
        case .anchoredOrInlineStrip, .fullScreenSafeArea: true
        case .fixedStandardSlot: false
        }
    }

    /// Whether the product's slots are anchored strips, or inline views in scrolling content
    /// (banners): its guidance is the strip guidance, its Retina strips compete for anchored slots.
    public var hasAnchoredSlots: Bool {
        switch slotRule {
        case .anchoredOrInlineStrip: true
        case .fullScreenSafeArea, .fixedStandardSlot: false
        }
    }

    /// Whether the slot is a whole screen with a close button over the artwork (interstitials).
    public var isFullScreen: Bool {
        switch slotRule {
        case .fullScreenSafeArea: true
        case .anchoredOrInlineStrip, .fixedStandardSlot: false
        }
    }

    /// Whether the slot is one fixed size per device class (companions).
    public var hasStandardSlot: Bool {
        switch slotRule {
        case .fixedStandardSlot: true
        case .anchoredOrInlineStrip, .fullScreenSafeArea: false
        }
    }

    /// The slot this product gets on a device: a banner's anchored strip across the screen's
    /// width (the SDK's rule, capped by the screen's height), an interstitial's whole screen
    /// minus its safe-area insets, a companion's fixed standard slot (the same in both
    /// orientations); nil when the product has none for the device's class.
    public func slot(on device: Device, _ orientation: Orientation) -> DeviceSlot? {
        switch slotRule {
        case .anchoredOrInlineStrip: DeviceSlot.anchored(device, orientation)
        case .fullScreenSafeArea: DeviceSlot.fullScreen(device, orientation)
        case .fixedStandardSlot: DeviceSlot.standard(device, product: self)
        }
    }

    // MARK: Catalog look-ups

    /// The accepted sizes, in catalog order.
    public var sizes: [PixelSize] { entries.map(\.size) }

    /// The entry for an exact size, or nil when this product does not accept the size.
    public func entry(for size: PixelSize) -> CatalogEntry? {
        entries.first { $0.size == size }
    }

    /// The position of a size in this product's catalog order, or nil.
    public func order(of size: PixelSize) -> Int? {
        entries.firstIndex { $0.size == size }
    }

    /// Accepted sizes nearest to a size, nearest first: those of its shape (strip or rectangle)
    /// before the others, then by log-distance of width and height (ties in catalog order). A
    /// square is pointed to the rectangle, not to a strip of a similar width.
    public func nearest(to size: PixelSize, count: Int = 2) -> [PixelSize] {
        Self.nearest(to: size, among: sizes, count: count)
    }

    /// The sizes of a list nearest to a size (by log-distance of width and height), nearest first;
    /// ties in the list's order.
    public static func nearest(to size: PixelSize, among sizes: [PixelSize], count: Int = 2) -> [PixelSize] {
        func distance(_ other: PixelSize) -> Double {
            abs(logarithm(Double(other.width) / Double(size.width)))
                + abs(logarithm(Double(other.height) / Double(size.height)))
        }
        func key(_ other: PixelSize) -> (Int, Double) { (other.shape == size.shape ? 0 : 1, distance(other)) }
        return sizes.enumerated().sorted { key($0.element) < key($1.element) || (key($0.element) == key($1.element)
            && $0.offset < $1.offset) }.prefix(count).map(\.element)
    }

    /// The name after its article, for sentences: `a banner`, `an interstitial`.
    public var withArticle: String { ("aeiou".contains(rawValue.first ?? "b") ? "an " : "a ") + rawValue }

    /// The other products that accept exactly this size (`320x480` for a banner: interstitial).
    public func others(accepting size: PixelSize) -> [Product] {
        Self.allCases.filter { $0 != self && $0.entry(for: size) != nil }
    }
}
