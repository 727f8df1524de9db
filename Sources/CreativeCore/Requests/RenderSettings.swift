/// What fills the letterbox bars (and sits behind transparent content).
public enum Background: Sendable, Equatable, CustomStringConvertible {
    /// Bars stay transparent; the output keeps an alpha band.
    case transparent
    /// An opaque sRGB colour.
    case color(red: UInt8, green: UInt8, blue: UInt8)

    /// White, the bars of a JPEG when no colour is given.
    public static let white = Background.color(red: 255, green: 255, blue: 255)

    /// Parses `transparent`, `#rrggbb`, `#rgb` or a CSS colour name (`red`, `navy`).
    /// - Throws: ``CoreError/invalidValue(_:)`` for anything else (with the nearest name, if any).
    public init(parsing text: String) throws(CoreError) {
        let lowered = text.lowercased()
        if lowered == "transparent" || lowered == "none" {
            self = .transparent
            return
        }
        if let named = CSSColours.value(named: lowered) {
            self = .color(red: UInt8(named >> 16 & 0xFF), green: UInt8(named >> 8 & 0xFF), blue: UInt8(named & 0xFF))
            return
        }
        var hex = Substring(lowered)
        guard hex.first == "#" else {
            let isHex = (hex.count == 3 || hex.count == 6) && hex.allSatisfy(\.isHexDigit)
            let near = isHex ? "; did you mean '#\(hex)'?"
                : KeySuggestion.nearest(to: lowered, in: CSSColours.names).map { "; did you mean '\($0)'?" } ?? ""
            throw .invalidValue("background '\(TextFormat.clipped(text))' is not '#rrggbb', a CSS colour name "
                                 + "or 'transparent'\(near)")
        }
        hex = hex.dropFirst()
        if hex.count == 3 { hex = Substring(hex.map { "\($0)\($0)" }.joined()) }
        guard hex.count == 6, hex.allSatisfy(\.isHexDigit), let value = UInt32(hex, radix: 16) else {
            throw .invalidValue("background '\(TextFormat.clipped(text))' is not '#rrggbb', a CSS colour name or 'transparent'")
        }
        self = .color(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    }

    public var description: String {
        switch self {
        case .transparent: return "transparent"
        case .color(let r, let g, let b):
            return "#" + [r, g, b].map { value in
                let hex = String(value, radix: 16)
                return hex.count == 1 ? "0" + hex : hex
            }.joined()
        }
    }
}

/// Everything a render needs besides the source: the slot in pixels and how to fill and encode it.
public struct RenderSettings: Sendable, Equatable {
    /// Output size in pixels (the slot's points x scale).
    public var canvas: PixelSize
    public var format: FormatChoice
    /// Quality of a lossy format (1...100); nil for the encoder's default.
    public var quality: Int? = nil
    /// WebP only: lossless instead of lossy.
    public var webpLossless = false
    /// WebP only: libwebp's effort (0...6); nil for the encoder's default.
    public var webpEffort: Int? = nil
    /// For `auto`, the formats it may choose among; nil for ``OutputFormat/autoDefault``. A render written under a name
    /// the caller gave (`--output banner.png`) may only be that name's format.
    public var autoFormats: Set<OutputFormat>? = nil
    public var background: Background
    /// When false the content is never scaled above its own size.
    public var enlarge: Bool
    /// The part of the canvas the content is fitted and centred in (an interstitial's safe
    /// area); nil for the whole canvas.
    public var area: PixelRect? = nil
    /// The largest file the render may be, in bytes; nil for no limit. A plain value: the
    /// command line and the service set it from `weight_budget`, a platform's rules may set it
    /// per slot size.
    public var weightBudget: Int? = RenderSettings.defaultWeightBudget

    /// The weight budget of a render when none is given: the weight guideline
    /// (``Catalog/weightGuidelineBytes``, 150K, 153,600 bytes), the one figure `heavy_file` and
    /// `fix` use too.
    public static let defaultWeightBudget = Catalog.weightGuidelineBytes
    /// The budgets accepted: 1K (a 1x1 GIF is 43 bytes, but no real render fits under a
    /// kilobyte's headers and palette) to 1G.
    public static let weightBudgetRange = 1024...(1 << 30)

    /// Where a source of this size lands on the canvas.
    public func placement(of source: PixelSize) -> Placement {
        Placement(source: source, canvas: canvas, area: area ?? PixelRect(canvas), enlarge: enlarge)
    }

    /// - Throws: ``CoreError/invalidRequest(_:)`` for transparent bars in JPEG.
    public init(canvas: PixelSize, format: FormatChoice = .fixed(.png), background: Background? = nil,
                enlarge: Bool = true) throws(CoreError) {
        let chosen = background ?? format.defaultBackground
        if chosen == .transparent && !format.supportsAlpha {
            throw .invalidRequest("\(format.fixed?.displayName ?? format.rawValue) cannot be transparent; give a background "
                                  + "colour '#rrggbb' or use \(TextFormat.listed(OutputFormat.transparentDefaults.map(\.rawValue)))")
        }
        self.canvas = canvas
        self.format = format
        self.background = chosen
        self.enlarge = enlarge
    }

    /// The settings for a slot as callers name it (the CLI's flags, the service's query): size in
    /// points, scale, format, background as text (`#rrggbb` or `transparent`, nil for the
    /// format's default), enlarge.
    /// - Throws: ``CoreError`` for a scale outside 1...4, a slot over ``PixelSize/maximumSide``
    ///   pixels a side, a background that is not a colour, or transparent JPEG.
    public init(slot points: PixelSize, scale: Double, format: FormatChoice = .fixed(.png),
                background: String? = nil, enlarge: Bool = true) throws(CoreError) {
        try SlotMath.checkScale(scale)
        let pixels = Slot(points: points, scale: scale).pixels
        guard pixels.width <= PixelSize.maximumSide, pixels.height <= PixelSize.maximumSide else {
            throw .invalidSize("slot x scale is \(pixels) pixels, over \(PixelSize.maximumSide) per side")
        }
        let parsed: Background? = try background.map { text throws(CoreError) in try Background(parsing: text) }
        try self.init(canvas: pixels, format: format, background: parsed, enlarge: enlarge)
    }

    /// The settings for a full-screen slot: the whole screen in pixels is the canvas, the
    /// content is fitted in its safe area.
    /// - Throws: ``CoreError`` for a background that is not a colour, or transparent JPEG.
    public init(fullScreen deviceSlot: DeviceSlot, format: FormatChoice = .fixed(.png), background: String? = nil,
                enlarge: Bool = true) throws(CoreError) {
        let parsed: Background? = try background.map { text throws(CoreError) in try Background(parsing: text) }
        try self.init(canvas: deviceSlot.screenPixels, format: format, background: parsed, enlarge: enlarge)
        area = deviceSlot.safeAreaPixels
    }
}
