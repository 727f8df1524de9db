/// A slot computation as callers ask for it (`creative-tool slot`, `GET /v1/slot`): its options,
/// declared once, and its rules. Banners: the anchored strip or inline sizing for a width (or a
/// device's screen); interstitials: a device's full screen minus its insets; companions: a
/// device's fixed standard slot.
public struct SlotRequest: Sendable {
    public static let width = IntegerOption(
        "width", 1...PixelSize.maximumSide, placeholder: "W",
        help: "container width in points (banners; or give a device)")
    public static let screenHeight = IntegerOption(
        "screen_height", 1...PixelSize.maximumSide, placeholder: "H",
        help: "screen height in points (anchored: caps the banner at 15% of it)")
    public static let rule = OptionDeclaration(
        "rule", .choice(AnchoredRule.allCases.map(\.rawValue)), placeholder: "R",
        help: "qartvelo (the SDK's own rule) or google (an estimate of Google's anchored adaptive size)",
        defaultValue: AnchoredRule.qartvelo.rawValue)
    public static let inline = OptionDeclaration(
        "inline", .toggle, help: "inline sizing: the biggest size fitting width x max height", defaultValue: "false")
    public static let maxHeight = IntegerOption(
        "max_height", 1...PixelSize.maximumSide, placeholder: "H",
        help: "inline max height in points; a smaller one than 32 is raised to 32 (a note says so)", defaultValue: "\(SlotMath.defaultInlineMaxHeight)")
    public static let scale = RenderRequest.scale.with(help: "pixels per point, 1 to 4 (banners; a device gives its own)")

    /// Every option of a slot computation, in help order.
    public static let options = OptionList([width, screenHeight, rule, inline, maxHeight, scale,
                                            CommonOptions.product, CommonOptions.device, CommonOptions.orientation])

    /// The banner-only options, refused for a device's fixed or full-screen slot.
    private static let bannerOnly: [any DeclaresOption] = [width, screenHeight, rule, inline, maxHeight, scale]

    /// What was asked, computed.
    public enum Answer: Sendable {
        case anchored(width: Int, screenHeight: Int?, rule: AnchoredRule, scale: Double)
        case inline(width: Int, maxHeight: Int, scale: Double)
        case fullScreen(DeviceSlot)
        case standard(DeviceSlot)
    }

    public let product: Product
    public let answer: Answer
    /// The device the banner slot was computed for, nil for a width given.
    public let device: DeviceSlot?

    /// Reads and checks a slot computation.
    /// - Throws: ``CoreError`` for every wrong value and every pair of options that do not go together.
    public init(_ source: some OptionSource) throws(CoreError) {
        product = try CommonOptions.product(source)
        switch product.slotRule {
        case .anchoredOrInlineStrip:
            device = try CommonOptions.deviceSlot(source, product: product)
            answer = try Self.banner(source, device: device)
        case .fullScreenSafeArea, .fixedStandardSlot:
            if let given = source.firstGiven(Self.bannerOnly) {
                throw .invalidRequest("\(source.spelling(given)) is for banner slots; \(product.withArticle) slot comes from "
                                      + "\(source.spelling(CommonOptions.device)) NAME")
            }
            guard let slot = try CommonOptions.deviceSlot(source, product: product) else {
                throw .invalidRequest("\(source.spelling(CommonOptions.device)) NAME is required for \(product) slots")
            }
            device = nil
            answer = product.isFullScreen ? .fullScreen(slot) : .standard(slot)
        }
    }

    /// A banner slot: for the width given, or across a device's screen at its scale.
    private static func banner(_ source: some OptionSource, device: DeviceSlot?) throws(CoreError) -> Answer {
        var width = try source.int(Self.width)
        var screenHeight = try source.int(Self.screenHeight)
        var scale = try source.number(Self.scale) ?? 1
        if let device {
            if let given = source.firstGiven([Self.width, Self.screenHeight, Self.scale]) {
                throw .invalidRequest("give either \(source.spelling(given)) or \(source.spelling(CommonOptions.device)), "
                                      + "not both: the device gives its screen and scale")
            }
            let screen = device.device.screen(device.orientation)
            (width, screenHeight, scale) = (screen.width, screen.height, device.device.scale)
        }
        guard let width else {
            throw .invalidRequest("\(source.spelling(Self.width)) W is required (points), or \(source.spelling(CommonOptions.device)) NAME")
        }
        if try source.toggle(Self.inline) {
            if source.has(Self.rule) || (device == nil && source.has(Self.screenHeight)) {
                throw .invalidRequest("\(source.spelling(Self.rule)) and \(source.spelling(Self.screenHeight)) are for "
                                      + "anchored slots, not \(source.spelling(Self.inline))")
            }
            let maxHeight = SlotMath.inlineMaxHeight(try source.int(Self.maxHeight))
            return .inline(width: width, maxHeight: maxHeight, scale: scale)
        }
        if source.has(Self.maxHeight) {
            throw .invalidRequest("\(source.spelling(Self.maxHeight)) needs \(source.spelling(Self.inline))")
        }
        let rule = try source.choice(Self.rule, AnchoredRule.self) ?? .qartvelo
        return .anchored(width: width, screenHeight: screenHeight, rule: rule, scale: scale)
    }

    /// The answer as `slot --json` and `GET /v1/slot` give it.
    public var json: JSONValue {
        switch answer {
        case .anchored(let width, let screenHeight, let rule, let scale):
            SizingJSON.anchored(width: width, screenHeight: screenHeight, rule: rule, scale: scale)
        case .inline(let width, let maxHeight, let scale):
            SizingJSON.inline(width: width, maxHeight: maxHeight, scale: scale, product: product)
        case .fullScreen(let slot): SizingJSON.fullScreen(slot)
        case .standard(let slot): SizingJSON.standard(slot)
        }
    }
}
