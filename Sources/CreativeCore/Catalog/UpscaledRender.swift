/// `upscaled_render`: a device slot where the artwork served is enlarged more than
/// ``limit`` times (docs/json.md, "Render warnings"). The rule: such a render is still made and
/// written (the ad server serves the artwork there all the same), and it says so, with its factor,
/// in the manifest (each render's `warnings`), on the preview page and sheet, and in guidance's
/// slot tables. A standard size uploaded alone (a 320x50) is served in every anchored slot it is
/// eligible for, up to 4.02x (iPhone 15 Plus, portrait).
public struct UpscaledRender: Sendable, Equatable {
    /// The code, in each render's `warnings`.
    public static let code = "upscaled_render"
    /// Above this enlargement a render carries the warning: a 2x export shown on a 3x screen
    /// (1.5x) stays sharp; the iPad Pro's 3.6x of a 320x50 is visibly blurred.
    public static let limit = 2.0

    /// The artwork served in the slot.
    public let artwork: PixelSize
    /// The artwork's size in the slot, in pixels (`content_pixels`).
    public let shown: PixelSize
    /// The enlargement: the width shown over the artwork's width (1152 / 320 = 3.6).
    public let exactFactor: Double

    /// The warning for a slot, or nil when its artwork is enlarged at most ``limit`` times.
    public init?(_ assignment: SlotAssignment) {
        self.init(artwork: assignment.artwork, shown: assignment.placement.content)
    }

    /// The warning for `artwork` shown at `shown` (a render's `content_pixels`), or nil when
    /// that enlarges it at most ``limit`` times.
    public init?(artwork: PixelSize, shown: PixelSize) {
        let factor = Self.factor(artwork: artwork, shown: shown)
        guard factor > Self.limit else { return nil }
        self.artwork = artwork
        self.shown = shown
        exactFactor = factor
    }

    /// How much a slot enlarges its artwork: the width shown over the artwork's width
    /// (below 1 when it is shrunk).
    public static func factor(_ assignment: SlotAssignment) -> Double {
        factor(artwork: assignment.artwork, shown: assignment.placement.content)
    }

    /// The width shown over the artwork's width.
    public static func factor(artwork: PixelSize, shown: PixelSize) -> Double {
        Double(shown.width) / Double(max(1, artwork.width))
    }

    /// The factor as every output writes it: rounded to two decimals (3.65625 -> 3.66).
    public var factor: Double { (exactFactor * 100).rounded() / 100 }

    /// `3.66x`, `3.6x`, `3x`.
    public var factorText: String {
        var text = TextFormat.decimal(factor, decimals: 2)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + "x"
    }

    /// One sentence that says what it is and what to do.
    public var message: String {
        "the \(artwork) artwork is enlarged \(factorText) to \(shown) in this slot (more than "
            + "\(TextFormat.scale(Self.limit))x looks blurred): upload a larger size of the same shape for it"
    }

    /// `{"code": "upscaled_render", "message": ..., "factor": 3.6}`.
    public var json: JSONValue {
        .object([("code", .string(Self.code)), ("message", .string(message)), ("factor", .double(factor))])
    }

    /// A render's `warnings`: this one when its slot enlarges the artwork more than ``limit``, else empty.
    public static func warningsJSON(_ assignment: SlotAssignment) -> JSONValue {
        .array(UpscaledRender(assignment).map { [$0.json] } ?? [])
    }

    /// `upscaled_render: the 320x50 artwork is enlarged 3.6x ...`: a render's note.
    public var note: String { "\(Self.code): \(message)" }

    /// One line for a summary of many slots (the preview sheet): `upscaled_render: enlarged more
    /// than 2x in 20 of 28 slots (up to 3.66x, iPhone 15 Pro Max portrait); ...`; nil when none is.
    public static func summary(_ served: [(name: String, assignment: SlotAssignment)]) -> String? {
        let enlarged = served.compactMap { entry in UpscaledRender(entry.assignment).map { (entry.name, $0) } }
        guard let most = enlarged.max(by: { $0.1.exactFactor < $1.1.exactFactor }) else { return nil }
        return "\(code): enlarged more than \(TextFormat.scale(limit))x in \(enlarged.count) of \(served.count) slots "
            + "(up to \(most.1.factorText), \(most.0)), which looks blurred: upload a larger size of the same shape"
    }
}

extension UpscaledRender {
    /// Where a guidance table shows the artwork: `1152x180`, and when the slot enlarges it more
    /// than ``limit``, `1152x180 (enlarged 3.6x: upscaled_render)`.
    public static func shownText(_ assignment: SlotAssignment) -> String {
        assignment.placement.content.description
            + (UpscaledRender(assignment).map { " (enlarged \($0.factorText): \(code))" } ?? "")
    }
}
