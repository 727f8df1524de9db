import XCTest
@testable import CreativeCore

/// Reports print fields in the documented order as compact, valid JSON on one line.
final class JSONValueTests: XCTestCase {
    func testScalars() {
        XCTAssertEqual(JSONValue.null.serialized(), "null")
        XCTAssertEqual(JSONValue.bool(true).serialized(), "true")
        XCTAssertEqual(JSONValue.bool(false).serialized(), "false")
        XCTAssertEqual(JSONValue.int(0).serialized(), "0")
        XCTAssertEqual(JSONValue.int(18_231).serialized(), "18231")
        XCTAssertEqual(JSONValue.int(-42).serialized(), "-42")
        XCTAssertEqual(JSONValue.string("banner.png").serialized(), #""banner.png""#)
        XCTAssertEqual(JSONValue.optional(nil).serialized(), "null")
        XCTAssertEqual(JSONValue.optional("960x150").serialized(), #""960x150""#)
    }

    func testObjectKeepsKeyOrder() {
        let report = JSONValue.object([
            ("file", .string("banner.png")), ("valid", .bool(false)), ("format", .string("png")),
            ("width", .int(961)), ("height", .int(150)), ("bytes", .int(18_231)), ("size", .null),
            ("size_class", .null), ("shape", .string("strip")),
            ("errors", .array([.object([("code", .string("dimensions_not_allowed")), ("message", .string("..."))])])),
            ("warnings", .array([])),
        ])
        XCTAssertEqual(report.serialized(),
                       #"{"file":"banner.png","valid":false,"format":"png","width":961,"height":150,"#
                       + #""bytes":18231,"size":null,"size_class":null,"shape":"strip","#
                       + #""errors":[{"code":"dimensions_not_allowed","message":"..."}],"warnings":[]}"#)
        // Reversed keys are a different serialization.
        XCTAssertEqual(JSONValue.object([("b", .int(1)), ("a", .int(2))]).serialized(), #"{"b":1,"a":2}"#)
        XCTAssertEqual(JSONValue.object([]).serialized(), "{}")
    }

    func testNestedArrays() {
        XCTAssertEqual(JSONValue.array([.int(1), .array([.null, .bool(true)]), .string("x")]).serialized(),
                       #"[1,[null,true],"x"]"#)
        XCTAssertEqual(JSONValue.array([]).serialized(), "[]")
    }

    func testStringEscaping() {
        XCTAssertEqual(JSONValue.string(#"say "hi""#).serialized(), #""say \"hi\"""#)
        XCTAssertEqual(JSONValue.string(#"C:\path"#).serialized(), #""C:\\path""#)
        XCTAssertEqual(JSONValue.string("a\nb").serialized(), #""a\nb""#)
        XCTAssertEqual(JSONValue.string("a\rb\tc").serialized(), #""a\rb\tc""#)
        XCTAssertEqual(JSONValue.string("\u{0}\u{1}\u{8}\u{c}\u{1f}").serialized(),
                       #""\u0000\u0001\u0008\u000c\u001f""#)
        XCTAssertEqual(JSONValue.string("\u{2028}\u{2029}").serialized(), #""\u2028\u2029""#)
        // Slash, non-ASCII and emoji pass through unchanged.
        XCTAssertEqual(JSONValue.string("a/b é ✓ 🎉").serialized(), "\"a/b é ✓ 🎉\"")
        // Keys are escaped the same way.
        XCTAssertEqual(JSONValue.object([("a\"b", .int(1))]).serialized(), #"{"a\"b":1}"#)
    }

    func testEscapedStringsRoundTripThroughFoundationParser() throws {
        let nasty = "quote\" backslash\\ newline\n tab\t nul\u{0} bell\u{7} line-sep\u{2028} é 🎉"
        let text = JSONValue.object([("k", .string(nasty))]).serialized()
        XCTAssertFalse(text.contains("\n"), "one line")
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String]
        XCTAssertEqual(parsed?["k"], nasty)
    }

    func testDoublesRoundedToFourDecimals() {
        XCTAssertEqual(JSONValue.double(6.4).serialized(), "6.4")
        XCTAssertEqual(JSONValue.double(0.123456).serialized(), "0.1235")
        XCTAssertEqual(JSONValue.double(0.00004).serialized(), "0.0")
        XCTAssertEqual(JSONValue.double(0.00005).serialized(), "0.0001")
        XCTAssertEqual(JSONValue.double(8.088888).serialized(), "8.0889")
        XCTAssertEqual(JSONValue.double(-1.23456).serialized(), "-1.2346")
        XCTAssertEqual(JSONValue.double(1.0 / 3).serialized(), "0.3333")
    }

    /// A number field keeps one JSON type: a whole double still has its decimal point, so
    /// `fill_share` is `1.0` beside `0.7121`, never `1`.
    func testWholeDoublesKeepTheirDecimalPoint() {
        XCTAssertEqual(JSONValue.double(1).serialized(), "1.0")
        XCTAssertEqual(JSONValue.double(90).serialized(), "90.0")
        XCTAssertEqual(JSONValue.double(2.99999).serialized(), "3.0")
        XCTAssertEqual(JSONValue.double(-0.0).serialized(), "0.0")
        XCTAssertEqual(JSONValue.double(-2).serialized(), "-2.0")
        XCTAssertEqual(JSONValue.int(3).serialized(), "3", "integers stay integers")
    }

    func testDocumentsLeadWithTheVersionFields() {
        let versions = #"{"schema_version":\#(JSONContract.schemaVersion),"tool_version":"\#(BuildInfo.version)","#
        XCTAssertEqual(JSONContract.document(.object([("a", .int(1))])).serialized(), versions + #""a":1}"#)
        let manifest = JSONValue.object([("written_by", .string("w"))] + JSONContract.versionFields + [("a", .int(1))])
        XCTAssertEqual(JSONContract.document(manifest), manifest, "a document that has them is left as it is")
        XCTAssertEqual(JSONContract.document(.array([.int(1)])), .array([.int(1)]))
        XCTAssertEqual(PixelSize(width: 3, height: 2).json.serialized(), #"{"width":3,"height":2}"#)
        XCTAssertEqual(JSONContract.position(x: 1, y: 0).serialized(), #"{"x":1,"y":0}"#)
    }

    func testNonFiniteDoublesAreNull() {
        XCTAssertEqual(JSONValue.double(.nan).serialized(), "null")
        XCTAssertEqual(JSONValue.double(.infinity).serialized(), "null")
        XCTAssertEqual(JSONValue.double(-.infinity).serialized(), "null")
    }

    func testLargeDoublesStayValidJSON() throws {
        for value in [1e15, 1e20, 123_456_789.123_456] {
            let text = JSONValue.array([.double(value)]).serialized()
            let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Double]
            XCTAssertEqual(parsed?.first ?? .nan, value, accuracy: value * 1e-9, text)
        }
    }

    func testEqualityComparesSerializations() {
        XCTAssertEqual(JSONValue.object([("a", .int(1))]), JSONValue.object([("a", .int(1))]))
        XCTAssertNotEqual(JSONValue.object([("a", .int(1)), ("b", .int(2))]),
                          JSONValue.object([("b", .int(2)), ("a", .int(1))]))
        XCTAssertNotEqual(JSONValue.string("1"), JSONValue.int(1))
    }
}
