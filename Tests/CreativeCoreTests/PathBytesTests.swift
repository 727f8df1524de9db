import XCTest
@testable import CreativeCore

/// Names that are not UTF-8 survive the trip through a `String`, and every output shows them,
/// and control characters, escaped.
final class PathBytesTests: XCTestCase {
    func testEveryByteSequenceRoundTrips() {
        let samples: [[UInt8]] = [
            Array("banner.png".utf8), Array("ünïcode ✓ 🎉.png".utf8), [0x6C, 0x61, 0x74, 0xE9, 0x2E, 0x70, 0x6E, 0x67],
            [0xFF, 0xFE, 0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82],
            Array(String(Unicode.Scalar(0x10FF80)!).utf8), Array(String(Unicode.Scalar(0x10FFFF)!).utf8),
        ]
        for bytes in samples {
            XCTAssertEqual(PathBytes.bytes(PathBytes.string(bytes)), bytes, "\(bytes)")
        }
        XCTAssertEqual(PathBytes.string(Array("ünïcode ✓.png".utf8)), "ünïcode ✓.png", "UTF-8 is plain text")
        for byte in UInt8(0)...UInt8(255) {
            XCTAssertEqual(PathBytes.bytes(PathBytes.string([byte])), [byte])
        }
    }

    func testTerminalTextEscapesWhatCouldForgeALine() {
        let latin1 = PathBytes.string([0x6C, 0x61, 0x74, 0xE9, 0x2E, 0x70, 0x6E, 0x67])
        XCTAssertEqual(TextFormat.escaped(latin1), #"lat\xe9.png"#)
        XCTAssertEqual(TextFormat.escaped("a\nb\rc\td\u{1b}[31m\u{7f}\u{85}"), #"a\nb\rc\td\x1b[31m\x7f\x85"#)
        XCTAssertEqual(TextFormat.escaped("back\\slash"), #"back\\slash"#)
        XCTAssertEqual(TextFormat.escaped("x\u{202e}gnp.exe\u{2028}"), #"x\u{202e}gnp.exe\u{2028}"#)
        XCTAssertEqual(TextFormat.escaped("ünïcode ✓ 🎉.png"), "ünïcode ✓ 🎉.png", "printable text stays")
    }

    func testJSONShowsBytesThatAreNotUTF8AsText() {
        let latin1 = PathBytes.string([0x6C, 0x61, 0x74, 0xE9])
        XCTAssertEqual(JSONValue.string(latin1).serialized(), #""lat\\xe9""#)
        XCTAssertEqual(JSONValue.string("a\u{1b}b").serialized(), #""a\u001bb""#)
    }
}
