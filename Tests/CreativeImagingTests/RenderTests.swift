import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import XCTest

/// Aspect fit, letterboxing, bars, and formats: pixel positions checked against docs/reference.md, "render", "slot" and "select".
final class RenderTests: XCTestCase {
    private let red: [Double] = [255, 0, 0]
    private let blue: [Double] = [0, 0, 255]

    private func render(_ bytes: [UInt8], _ canvas: PixelSize, format: FormatChoice = .fixed(.png),
                        background: Background? = nil, enlarge: Bool = true) throws -> PixelReader {
        let settings = try RenderSettings(canvas: canvas, format: format, background: background, enlarge: enlarge)
        let encoded = try Renderer.render(try ImageSource(bytes: bytes), settings: settings).bytes
        let decoded = try PixelReader(encoded: encoded)
        XCTAssertEqual(decoded.width, canvas.width)
        XCTAssertEqual(decoded.height, canvas.height)
        return decoded
    }

    /// Checks the content rectangle matches Placement exactly and bars are transparent.
    private func assertPlacement(source: PixelSize, canvas: PixelSize, enlarge: Bool = true,
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        let bytes = try Fixtures.png(try Fixtures.solid(source.width, source.height, red))
        let pixels = try render(bytes, canvas, enlarge: enlarge)
        let expected = Placement(source: source, canvas: canvas, enlarge: enlarge)
        let box = try XCTUnwrap(pixels.opaqueBox(), file: file, line: line)
        XCTAssertEqual(box.x, expected.x, "left", file: file, line: line)
        XCTAssertEqual(box.y, expected.y, "top", file: file, line: line)
        XCTAssertEqual(box.width, expected.content.width, "width", file: file, line: line)
        XCTAssertEqual(box.height, expected.content.height, "height", file: file, line: line)
        XCTAssertEqual(pixels.bands, 4, file: file, line: line)
        XCTAssertTrue(pixels.isClose(expected.x + expected.content.width / 2, expected.y + expected.content.height / 2,
                                     to: [255, 0, 0, 255], tolerance: 2), file: file, line: line)
    }

    func testStripIntoWiderSlotIsPillarboxedAndCentred() throws {
        // 960x150 into 1170x183 (390x61 @3x): 1171x183 rounds to width 1170 or height-limited.
        try assertPlacement(source: PixelSize(width: 960, height: 150), canvas: PixelSize(width: 1170, height: 183))
        try assertPlacement(source: PixelSize(width: 2184, height: 270), canvas: PixelSize(width: 1170, height: 183))
        try assertPlacement(source: PixelSize(width: 320, height: 50), canvas: PixelSize(width: 1200, height: 150))
    }

    func testRectangleIntoStripSlot() throws {
        try assertPlacement(source: PixelSize(width: 300, height: 250), canvas: PixelSize(width: 390, height: 61))
    }

    func testUpscalingFillsTheLimitingSide() throws {
        try assertPlacement(source: PixelSize(width: 32, height: 32), canvas: PixelSize(width: 200, height: 100))
        let pixels = try render(try Fixtures.png(try Fixtures.solid(32, 32, red)), PixelSize(width: 200, height: 100))
        let box = try XCTUnwrap(pixels.opaqueBox())
        XCTAssertEqual([box.x, box.y, box.width, box.height], [50, 0, 100, 100])
    }

    func testNoEnlargeKeepsTheSourceSizeCentred() throws {
        try assertPlacement(source: PixelSize(width: 32, height: 32), canvas: PixelSize(width: 200, height: 101),
                            enlarge: false)
        let pixels = try render(try Fixtures.png(try Fixtures.solid(32, 32, red)), PixelSize(width: 200, height: 101),
                                enlarge: false)
        let box = try XCTUnwrap(pixels.opaqueBox())
        XCTAssertEqual([box.x, box.y, box.width, box.height], [84, 34, 32, 32])
    }

    func testTransparentBarsInPNGAndWebP() throws {
        let bytes = try Fixtures.png(try Fixtures.solid(100, 50, blue))
        let png = try render(bytes, PixelSize(width: 100, height: 100))
        XCTAssertEqual(png[50, 5], [0, 0, 0, 0])
        XCTAssertTrue(png.isClose(50, 50, to: [0, 0, 255, 255], tolerance: 1))
        let webp = try render(bytes, PixelSize(width: 100, height: 100), format: .fixed(.webp))
        XCTAssertEqual(webp[50, 5][3], 0)
    }

    func testJPEGBarsAreWhiteByDefault() throws {
        let bytes = try Fixtures.png(try Fixtures.solid(100, 50, blue))
        let jpeg = try render(bytes, PixelSize(width: 100, height: 100), format: .fixed(.jpeg))
        XCTAssertEqual(jpeg.bands, 3)
        XCTAssertTrue(jpeg.isClose(50, 5, to: [255, 255, 255]))
        XCTAssertTrue(jpeg.isClose(50, 50, to: [0, 0, 255], tolerance: 12))
        XCTAssertThrowsError(try RenderSettings(canvas: PixelSize(width: 1, height: 1), format: .fixed(.jpeg),
                                                background: .transparent))
    }

    func testGivenBackgroundColourFillsBarsAndFlattensAlpha() throws {
        let halfTransparent = try Fixtures.png(try Fixtures.solid(100, 50, red, alpha: 0))
        let pixels = try render(halfTransparent, PixelSize(width: 100, height: 100),
                                background: .color(red: 0, green: 255, blue: 0))
        // Opaque: shown with alpha 255 everywhere (the file itself needs no alpha band).
        XCTAssertEqual(pixels[50, 5], [0, 255, 0, 255])
        XCTAssertEqual(pixels[50, 50], [0, 255, 0, 255], "transparent content shows the background")
    }

    func testAlphaIsResampledPremultiplied() throws {
        // Half opaque red, half fully transparent *green*: premultiplied resampling
        // must not bleed green into the edge of the red half.
        let redHalf = try Fixtures.solid(50, 50, red, alpha: 255)
        let greenClear = try Fixtures.solid(50, 50, [0, 255, 0], alpha: 0)
        let joined = try VipsOperation("insert").with("main", .image(redHalf)).with("sub", .image(greenClear))
            .with("x", .int(50)).with("y", .int(0)).with("expand", .bool(true)).image()
        let pixels = try render(try Fixtures.png(joined), PixelSize(width: 37, height: 37))
        for x in 0..<37 {
            let pixel = pixels[x, 18]
            if pixel[3] > 16 { XCTAssertLessThan(pixel[1], 24, "green bled into x=\(x): \(pixel)") }
        }
    }
}
