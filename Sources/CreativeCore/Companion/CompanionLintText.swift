/// What a companion's text fields may hold: printable text, shown as it is by the player SDK.
///
/// A line break, an escape sequence or any other control character (C0, DEL, C1, and the
/// Unicode line and paragraph separators) breaks a one-line title or reaches a log or terminal
/// as a command; a bidirectional control (U+061C, U+200E, U+200F, U+202A-U+202E,
/// U+2066-U+2069) reorders how the text shows, which can spoof it ("Free" shown for what reads
/// otherwise). Either rejects the creative: `control_character`, `bidi_control`.
extension CompanionLint {
    /// The custom CTA's text keys (shown in the banner).
    public static let customCTATextKeys = ["bannerTitle", "bannerDescription", "ctaText"]
    /// The carousel's text keys (shown in the carousel).
    public static let carouselTextKeys = ["carousel_title", "carousel_description", "carousel_cta_text"]
    /// The text keys of both formats (reporting).
    public static let sharedTextKeys = ["campaign", "campaign name"]

    /// The text keys a format reads: its own and the shared ones; every text key when the
    /// parameters have neither format's shape (`format` nil).
    static func textKeys(format: String?) -> [String] {
        switch format {
        case "custom_cta": customCTATextKeys + sharedTextKeys
        case "carousel": carouselTextKeys + sharedTextKeys
        default: customCTATextKeys + carouselTextKeys + sharedTextKeys
        }
    }

    /// `control_character` and `bidi_control`, at most one of each per key, for the first such
    /// character in the value of each of `keys` given (first occurrences). One pass over each value.
    static func textCharacters(_ check: inout ParameterChecker, keys: [String]) {
        for key in keys {
            guard let entry = check.parameters.entry(key) else { continue }
            var control: (Unicode.Scalar, Int)?, bidi: (Unicode.Scalar, Int)?
            for (offset, scalar) in entry.value.unicodeScalars.enumerated() {
                if control == nil, isControl(scalar) { control = (scalar, offset + 1) }
                if bidi == nil, scalar.properties.isBidiControl { bidi = (scalar, offset + 1) }
                if control != nil && bidi != nil { break }
            }
            if let (scalar, position) = control {
                check.report.add(LintIssue(.controlCharacter, key: key, segment: entry.segment,
                                           "\(key) has a control character (\(describe(scalar))) at character \(position); "
                                           + "text fields hold printable text on one line: remove it"))
            }
            if let (scalar, position) = bidi {
                check.report.add(LintIssue(.bidiControl, key: key, segment: entry.segment,
                                           "\(key) has a bidirectional control (\(describe(scalar))) at character "
                                           + "\(position), which reorders how the text shows and can disguise it: remove it"))
            }
        }
    }

    /// C0 (U+0000-U+001F), DEL, C1 (U+0080-U+009F), and the line and paragraph separators.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    /// `U+000A, a line feed`, `U+202E RIGHT-TO-LEFT OVERRIDE`: the code point and what it is.
    static func describe(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        let names: [UInt32: String] = [0x09: "a tab", 0x0A: "a line feed", 0x0D: "a carriage return", 0x1B: "an escape",
                                       0x7F: "a delete", 0x2028: "a line separator", 0x2029: "a paragraph separator"]
        if let name = names[scalar.value] { return "\(code), \(name)" }
        return scalar.properties.name.map { "\(code) \($0)" } ?? code
    }
}
