import XCTest
@testable import CreativeCore

/// `WxH` arguments, `--background` values and render settings.
final class ParsingTests: XCTestCase {
    // MARK: PixelSize(parsing:)

    func testParsesWxH() throws {
        XCTAssertEqual(try PixelSize(parsing: "390x61"), PixelSize(width: 390, height: 61))
        XCTAssertEqual(try PixelSize(parsing: "390X61"), PixelSize(width: 390, height: 61))
        XCTAssertEqual(try PixelSize(parsing: "1x1"), PixelSize(width: 1, height: 1))
        XCTAssertEqual(try PixelSize(parsing: "16384x16384"), PixelSize(width: 16_384, height: 16_384))
    }

    func testRejectsMalformedSizes() {
        let bad = ["390", "0x61", "390x0", "390x61x2", "-3x4", "3x-4", "99999x99999", "16385x1", "1x16385",
                   "", "x", "390x", "x61", "1.5x2", "390 x 61", " 390x61", "390x61 ", "abcxdef",
                   "390*61", "99999999999999999999999x1"]
        for text in bad {
            XCTAssertThrowsError(try PixelSize(parsing: text), "'\(text)'") { error in
                guard case CoreError.invalidSize(let message) = error else {
                    return XCTFail("'\(text)': expected invalidSize, got \(error)")
                }
                XCTAssertFalse(message.isEmpty)
            }
        }
    }

    func testDescriptionRoundTrips() throws {
        for entry in Product.banner.entries {
            XCTAssertEqual(try PixelSize(parsing: entry.size.description), entry.size)
        }
        XCTAssertEqual(PixelSize(width: 390, height: 61).description, "390x61")
    }

    func testShapeAndRatio() {
        XCTAssertEqual(PixelSize(width: 320, height: 50).shape, .strip)
        XCTAssertEqual(PixelSize(width: 320, height: 100).shape, .strip)    // 3.2
        XCTAssertEqual(PixelSize(width: 200, height: 100).shape, .strip)    // exactly 2
        XCTAssertEqual(PixelSize(width: 199, height: 100).shape, .rectangle)
        XCTAssertEqual(PixelSize(width: 300, height: 250).shape, .rectangle)
        XCTAssertEqual(PixelSize(width: 960, height: 150).aspectRatio, 6.4, accuracy: 1e-12)
        XCTAssertEqual(PixelSize(width: 960, height: 150).area, 144_000)
    }

    func testOrdering() {
        XCTAssertLessThan(PixelSize(width: 320, height: 50), PixelSize(width: 320, height: 100))
        XCTAssertLessThan(PixelSize(width: 320, height: 100), PixelSize(width: 468, height: 60))
    }

    // MARK: Background(parsing:)

    func testParsesBackgrounds() throws {
        XCTAssertEqual(try Background(parsing: "#ff0000"), .color(red: 255, green: 0, blue: 0))
        XCTAssertEqual(try Background(parsing: "#FF0000"), .color(red: 255, green: 0, blue: 0))
        XCTAssertEqual(try Background(parsing: "#f00"), .color(red: 255, green: 0, blue: 0))
        XCTAssertEqual(try Background(parsing: "#123456"), .color(red: 0x12, green: 0x34, blue: 0x56))
        XCTAssertEqual(try Background(parsing: "#abc"), .color(red: 0xAA, green: 0xBB, blue: 0xCC))
        XCTAssertEqual(try Background(parsing: "#ffffff"), .white)
        XCTAssertEqual(try Background(parsing: "transparent"), .transparent)
        XCTAssertEqual(try Background(parsing: "TRANSPARENT"), .transparent)
        // The CSS colour names, in any case.
        XCTAssertEqual(try Background(parsing: "red"), .color(red: 255, green: 0, blue: 0))
        XCTAssertEqual(try Background(parsing: "Navy"), .color(red: 0, green: 0, blue: 128))
        XCTAssertEqual(try Background(parsing: "rebeccapurple"), .color(red: 0x66, green: 0x33, blue: 0x99))
        XCTAssertEqual(try Background(parsing: "gray"), .color(red: 128, green: 128, blue: 128))
    }

    func testRejectsBadBackgrounds() {
        for text in ["", "#", "reddish", "ff0000", "#ff00", "#ff00000", "#gggggg", "#12345g", "#-12345",
                     "#+12345", "# ff000", "#ff 000", "rgb(255,0,0)", "#ｆｆ0000"] {
            XCTAssertThrowsError(try Background(parsing: text), "'\(text)'") { error in
                guard case CoreError.invalidValue = error else {
                    return XCTFail("'\(text)': expected invalidValue, got \(error)")
                }
            }
        }
    }

    func testBackgroundDescription() throws {
        XCTAssertEqual(Background.color(red: 255, green: 0, blue: 10).description, "#ff000a")
        XCTAssertEqual(Background.white.description, "#ffffff")
        XCTAssertEqual(Background.transparent.description, "transparent")
        XCTAssertEqual(try Background(parsing: "#0a0").description, "#00aa00")
    }

    // MARK: OutputFormat and RenderSettings

    func testOutputFormatDefaults() {
        XCTAssertEqual(FormatChoice.fixed(.png).defaultBackground, .transparent)
        XCTAssertEqual(FormatChoice.fixed(.webp).defaultBackground, .transparent)
        XCTAssertEqual(FormatChoice.auto.defaultBackground, .transparent)
        XCTAssertEqual(FormatChoice.fixed(.jpeg).defaultBackground, .white)
        XCTAssertEqual(FormatChoice.auto.fixed, nil)
        XCTAssertEqual(FormatChoice.fixed(.jpeg).fixed, .jpeg)
        XCTAssertTrue(FormatChoice.fixed(.webp).takesQuality)
        XCTAssertFalse(FormatChoice.fixed(.png).takesQuality)
        XCTAssertFalse(FormatChoice.auto.takesQuality)
        XCTAssertEqual(OutputFormat.jpeg.fileExtension, "jpg")
        XCTAssertEqual(OutputFormat.png.fileExtension, "png")
        XCTAssertEqual(OutputFormat.webp.fileExtension, "webp")
        XCTAssertEqual(OutputFormat.jpeg.mediaType, "image/jpeg")
        XCTAssertEqual(OutputFormat.png.mediaType, "image/png")
    }

    func testRenderSettingsDefaultBackgrounds() throws {
        let canvas = PixelSize(width: 1170, height: 183)
        let png = try RenderSettings(canvas: canvas)
        XCTAssertEqual(png.format, .fixed(.png))
        XCTAssertEqual(png.background, .transparent)
        XCTAssertTrue(png.enlarge)
        XCTAssertEqual(try RenderSettings(canvas: canvas, format: .fixed(.webp)).background, .transparent)
        XCTAssertEqual(try RenderSettings(canvas: canvas, format: .fixed(.jpeg)).background, .white)
        let red = Background.color(red: 255, green: 0, blue: 0)
        XCTAssertEqual(try RenderSettings(canvas: canvas, format: .fixed(.jpeg), background: red).background, red)
        XCTAssertFalse(try RenderSettings(canvas: canvas, enlarge: false).enlarge)
    }

    func testJPEGCannotBeTransparent() {
        XCTAssertThrowsError(try RenderSettings(canvas: PixelSize(width: 10, height: 10), format: .fixed(.jpeg),
                                                background: .transparent)) { error in
            guard case CoreError.invalidRequest = error else { return XCTFail("got \(error)") }
        }
        XCTAssertNoThrow(try RenderSettings(canvas: PixelSize(width: 10, height: 10), format: .fixed(.png),
                                            background: .transparent))
    }

    // MARK: CoreError

    func testSizeNotAllowedNamesAcceptedSizes() {
        let text = CoreError.sizeNotAllowed(PixelSize(width: 961, height: 150), product: .banner).description
        XCTAssertTrue(text.hasPrefix("961x150 is not an accepted size"), text)
        XCTAssertTrue(text.contains("960x150, 1320x204, 2184x270, 320x50, 320x100, 300x250, 468x60, 728x90"), text)
    }

    // MARK: TypedValue (CLI options and query parameters)

    func testTypedValuesReadWhatTheyShouldAndNameTheValueOtherwise() throws {
        XCTAssertEqual(try TypedValue.int("8080", name: "--port", in: 0...65535), 8080)
        XCTAssertEqual(try TypedValue.double("2.625", name: "scale"), 2.625)
        XCTAssertEqual(try TypedValue.bool("No", name: "enlarge"), false)
        XCTAssertEqual(try TypedValue.choice("WEBP", name: "format", OutputFormat.self), .webp)
        let failures: [(() throws(CoreError) -> Void, String)] = [
            ({ () throws(CoreError) in _ = try TypedValue.int("65536", name: "--port", in: 0...65535) },
             "--port must be a whole number from 0 to 65535, not '65536'"),
            ({ () throws(CoreError) in _ = try TypedValue.double("inf", name: "scale") }, "scale must be a number, not 'inf'"),
            ({ () throws(CoreError) in _ = try TypedValue.bool("maybe", name: "enlarge") },
             "enlarge must be true or false, not 'maybe'"),
            ({ () throws(CoreError) in _ = try TypedValue.choice("gif", name: "format", OutputFormat.self) },
             "format must be one of png, jpeg, webp, avif, not 'gif'"),
            ({ () throws(CoreError) in _ = try TypedValue.double(String(repeating: "9z", count: 50), name: "scale", quoteLimit: 4) },
             "scale must be a number, not '9z9z...'"),
        ]
        for (read, message) in failures {
            XCTAssertThrowsError(try read()) { XCTAssertEqual(($0 as? CoreError)?.description, message) }
        }
    }
}
