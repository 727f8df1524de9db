import XCTest
@testable import CreativeCore

/// Control characters and bidirectional controls in companion text fields are errors, in every
/// text field of both formats; printable text of any script is not.
final class CompanionTextLintTests: XCTestCase {
    private let cta = "icon=https://cdn.example.com/icon.png,bannerTitle=Summer sale,ctaUrl=https://shop.example.com/buy"
    private let carousel = "ad_type=carousel,carousel_banner=https://cdn.example.com/banner.png,"
        + "brand_icon=https://cdn.example.com/brand.png,carousel_title=New season,carousel_description=Fresh looks,"
        + "carousel_images=https://cdn.example.com/1.png"

    private func errors(_ text: String) -> [LintCode] {
        CompanionLint.lint(Array(text.utf8)).errors.map(\.code)
    }

    func testEveryControlCharacterIsAnError() {
        var controls: [Unicode.Scalar] = (0x01...0x1F).compactMap(Unicode.Scalar.init)  // NUL refuses the whole input
        controls += [0x7F, 0x80, 0x85, 0x9B, 0x9F, 0x2028, 0x2029].compactMap(Unicode.Scalar.init)
        for scalar in controls {
            let title = "Summer" + String(Character(scalar)) + "sale"
            // Not the last byte of the input: one final line break is dropped from the text.
            XCTAssertEqual(errors(cta.replacingOccurrences(of: "Summer sale", with: title)), [.controlCharacter],
                           "U+\(String(scalar.value, radix: 16))")
        }
        let escape = cta.replacingOccurrences(of: "Summer sale", with: "\u{1B}[2J\u{1B}]0;owned\u{07}Sale")
        let report = CompanionLint.lint(Array(escape.utf8))
        XCTAssertEqual(report.errors.map(\.code), [.controlCharacter], "one issue per key")
        XCTAssertEqual(report.errors.first?.key, "bannerTitle")
        XCTAssertEqual(report.errors.first?.segment, 2)
        XCTAssertEqual(report.errors.first?.message,
                       "bannerTitle has a control character (U+001B, an escape) at character 1; text fields hold "
                       + "printable text on one line: remove it")
    }

    func testEveryBidiControlIsAnError() {
        let bidi: [UInt32] = [0x061C, 0x200E, 0x200F] + Array(0x202A...0x202E) + Array(0x2066...0x2069)
        for value in bidi {
            guard let scalar = Unicode.Scalar(value) else { return XCTFail("U+\(value)") }
            let title = "Free \(Character(scalar))gift"
            XCTAssertEqual(errors(cta.replacingOccurrences(of: "Summer sale", with: title)), [.bidiControl],
                           "U+\(String(value, radix: 16))")
        }
        let report = CompanionLint.lint(Array(cta.replacingOccurrences(of: "Summer sale", with: "a\u{202E}b\n").utf8)
                                        + Array(",ctaText=Go".utf8))
        XCTAssertEqual(report.errors.map(\.code), [.controlCharacter, .bidiControl])
        XCTAssertEqual(report.errors.last?.message,
                       "bannerTitle has a bidirectional control (U+202E RIGHT-TO-LEFT OVERRIDE) at character 2, which "
                       + "reorders how the text shows and can disguise it: remove it")
    }

    func testEveryTextFieldOfBothFormatsIsChecked() {
        let bad = "x\u{2066}y\u{0A}z"
        let ctaFields = ["bannerTitle": "Summer sale"]
        for (key, value) in ctaFields {
            XCTAssertEqual(errors(cta.replacingOccurrences(of: "\(key)=\(value)", with: "\(key)=\(bad)")),
                           [.controlCharacter, .bidiControl], key)
        }
        for key in ["bannerDescription", "ctaText", "campaign", "campaign name"] {
            XCTAssertEqual(errors(cta + ",\(key)=\(bad)"), [.controlCharacter, .bidiControl], key)
        }
        for key in ["carousel_title", "carousel_description"] {
            let text = carousel.replacingOccurrences(of: key + "=", with: key + "=" + bad)
            XCTAssertEqual(errors(text), [.controlCharacter, .bidiControl], key)
        }
        XCTAssertEqual(errors(carousel + ",carousel_cta_text=\(bad),carousel_cta_url=https://shop.example.com"),
                       [.controlCharacter, .bidiControl])
        XCTAssertEqual(errors(carousel + ",campaign name=\(bad)"), [.controlCharacter, .bidiControl])
        // A key the format does not read is ignored by the SDK, controls and all (a warning says so).
        let unused = CompanionLint.lint(Array((cta + ",carousel_title=\(bad)").utf8))
        XCTAssertEqual(unused.errors.map(\.code), [])
        XCTAssertEqual(unused.warnings.map(\.code), [.keyNotUsed])
    }

    func testPrintableTextOfAnyScriptIsFine() {
        for title in ["Soldes d'été -50%", "Распродажа", "セール開催中", "תחילת מבצע", "عرض خاص", "🎉 Party", "a\u{00A0}b",
                      "Zero\u{200B}width", "caf\u{0065}\u{0301}"] {
            XCTAssertEqual(errors(cta.replacingOccurrences(of: "Summer sale", with: title)), [], title)
        }
    }
}
