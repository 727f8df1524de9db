/// A selection as callers ask for it (`creative-tool select`, `POST /v1/select`): which of the
/// candidates the ad server serves for a request. Its options, declared once, and its rules (the
/// mode's default, the height it needs, points with a scale).
public struct SelectRequest: Sendable {
    public static let width = IntegerOption(
        "width", 1...100_000, placeholder: "PX",
        help: "screen (slot) width in pixels; in points when a scale is given")
    public static let height = IntegerOption(
        "height", 1...100_000, placeholder: "PX",
        help: "banner height (anchored) or max height (inline) in pixels, in points when a scale is given; "
            + "interstitials: the safe area's height")
    public static let mode = OptionDeclaration(
        "mode", .choice(SelectionMode.allCases.map(\.rawValue)), placeholder: "M",
        help: "banners: anchored (default with a height), inline, or legacy (default without); "
            + "interstitials: full_screen; companions: standard_slot",
        mistakenValues: ["adaptive": "anchored", "standard": "standard_slot", "fullscreen": "full_screen"])
    public static let scale = RenderRequest.scale.with(
        help: "pixels per point, 1 to 4: width and height are then in points, as slot gives them", defaultValue: .some(nil))

    /// Every option of a selection, in help order (the candidates are operands, or the body's list).
    public static let options = OptionList([width, height, mode, scale, CommonOptions.product])

    /// Largest number of candidates in one selection.
    public static let maxCandidates = 100

    public let product: Product
    public let mode: SelectionMode
    /// The request in pixels.
    public let width: Int
    public let height: Int?
    /// The scale given (width and height were points), nil for pixels.
    public let scale: Double?

    /// Reads and checks a selection.
    /// - Throws: ``CoreError`` for a wrong value, a mode the product does not use, or a mode
    ///   that needs a height without one.
    public init(_ source: some OptionSource) throws(CoreError) {
        product = try CommonOptions.product(source)
        scale = try source.number(Self.scale)
        let toPixels = { [scale] (value: Int) in scale.map { Int((Double(value) * $0).rounded()) } ?? value }
        guard let width = try source.int(Self.width).map(toPixels) else {
            throw .invalidRequest("\(source.spelling(Self.width)) PX is required")
        }
        let height = try source.int(Self.height).map(toPixels)
        let modes = SelectionMode.modes(for: product)
        let mode = try source.choice(Self.mode, SelectionMode.self)
            ?? (modes.contains(.anchored) ? (height == nil ? .legacy : .anchored) : modes[0])
        guard modes.contains(mode) else {
            throw .invalidRequest("\(source.spelling(Self.mode)) for \(product) must be one of "
                                  + modes.map(\.rawValue).joined(separator: ", "))
        }
        if mode != .legacy && height == nil {
            throw .invalidRequest("\(source.spelling(Self.mode)) \(mode.rawValue) needs \(source.spelling(Self.height)) PX")
        }
        (self.width, self.height, self.mode) = (width, height, mode)
    }

    /// The selection among candidate sizes.
    /// - Throws: ``CoreError/noEligibleCandidate(_:)`` when the mode can pick none.
    public func select(_ sizes: [PixelSize]) throws(CoreError) -> SelectionResult {
        guard !sizes.isEmpty else { throw .invalidRequest("give at least one candidate (a file or WxH)") }
        return try Selection.select(sizes, mode: mode, width: width, height: height, product: product)
    }

    /// A hint when every candidate is wider than a width given in pixels: it was likely points.
    public func hint(for sizes: [PixelSize], widthSpelling: String, scaleSpelling: String) -> String? {
        guard scale == nil, !sizes.isEmpty, sizes.allSatisfy({ $0.width > width }) else { return nil }
        return "every candidate is wider than \(width) px: \(widthSpelling) is in pixels; for points give "
            + "\(scaleSpelling) N (for example \(scaleSpelling) 3)"
    }
}
