import XCTest
@testable import CreativeCore

/// docs/reference.md, "render": aspect fit, letterboxed, exactly the slot's pixel size.
final class PlacementTests: XCTestCase {
    private func size(_ width: Int, _ height: Int) -> PixelSize { PixelSize(width: width, height: height) }

    private func assertPlacement(_ source: PixelSize, in canvas: PixelSize, enlarge: Bool = true,
                                 content: PixelSize, x: Int, y: Int,
                                 file: StaticString = #filePath, line: UInt = #line) {
        let placement = Placement(source: source, canvas: canvas, enlarge: enlarge)
        XCTAssertEqual(placement.canvas, canvas, "output is exactly the slot", file: file, line: line)
        XCTAssertEqual(placement.content, content, "content", file: file, line: line)
        XCTAssertEqual(placement.x, x, "x", file: file, line: line)
        XCTAssertEqual(placement.y, y, "y", file: file, line: line)
    }

    func testExactMatchFillsCanvas() {
        assertPlacement(size(960, 150), in: size(960, 150), content: size(960, 150), x: 0, y: 0)
        XCTAssertEqual(Placement(source: size(960, 150), canvas: size(960, 150)).fillShare, 1)
    }

    func testStripIntoSlightlyTallerSlot() {
        // 390x61 @3x: s = min(1170/960, 183/150) = 1.21875 -> 1170 x 182.81 -> 183: fills it.
        assertPlacement(size(960, 150), in: size(1170, 183), content: size(1170, 183), x: 0, y: 0)
        // 390x60 @3x (qartvelo): height-bound, s = 1.2 -> 1152x180, bars of 9 px each side.
        assertPlacement(size(960, 150), in: size(1170, 180), content: size(1152, 180), x: 9, y: 0)
    }

    func testStripIntoWiderSlotIsCentredWithFloor() {
        // 2184x270 canvas from a 6.4 strip: s = 1.8 -> 1728x270, x = 456 / 2 = 228.
        assertPlacement(size(960, 150), in: size(2184, 270), content: size(1728, 270), x: 228, y: 0)
        // Odd leftover: 1182 - 1171 = 11 -> x = floor(5.5) = 5.
        assertPlacement(size(960, 150), in: size(1182, 183), content: size(1171, 183), x: 5, y: 0)
    }

    func testWideStripIntoNarrowerRatioSlotLetterboxesVertically() {
        // 8.09 artwork in a 6.39 slot: width-bound, s = 1170/2184 -> 1170 x 144.64 -> 145.
        // y = floor((183 - 145) / 2) = 19.
        assertPlacement(size(2184, 270), in: size(1170, 183), content: size(1170, 145), x: 0, y: 19)
        // Odd leftover: 184 - 145 = 39 -> y = 19.
        assertPlacement(size(2184, 270), in: size(1170, 184), content: size(1170, 145), x: 0, y: 19)
    }

    func testRectangleIntoAnchoredAndInlineSlots() {
        // 300x250 in 1170x183: s = 0.732 -> 219.6 -> 220 x 183; x = floor(950 / 2) = 475.
        assertPlacement(size(300, 250), in: size(1170, 183), content: size(220, 183), x: 475, y: 0)
        // Inline 390x250 @3x: s = 3 -> 900x750, x = 135.
        assertPlacement(size(300, 250), in: size(1170, 750), content: size(900, 750), x: 135, y: 0)
    }

    func testUpscalesByDefault() {
        // 320x50 into 1170x183: s = min(3.656, 3.66) -> 1170 x 182.8 -> 183.
        assertPlacement(size(320, 50), in: size(1170, 183), content: size(1170, 183), x: 0, y: 0)
        assertPlacement(size(32, 5), in: size(640, 100), content: size(640, 100), x: 0, y: 0)
    }

    func testNoEnlargeKeepsSourceSizeCentred() {
        // x = floor(850 / 2) = 425, y = floor(133 / 2) = 66.
        assertPlacement(size(320, 50), in: size(1170, 183), enlarge: false, content: size(320, 50), x: 425, y: 66)
        // Still scales down when the source is bigger than the slot.
        assertPlacement(size(2184, 270), in: size(1170, 183), enlarge: false,
                        content: size(1170, 145), x: 0, y: 19)
    }

    func testContentRoundsToNearestPixel() {
        // 3x2 into 10x5: s = 2.5 -> 7.5 x 5 -> 8 x 5 (rounded, not truncated); x = 1.
        assertPlacement(size(3, 2), in: size(10, 5), content: size(8, 5), x: 1, y: 0)
        // 7x3 into 10x10: s = 10/7 -> 10 x 4.29 -> 4; y = 3.
        assertPlacement(size(7, 3), in: size(10, 10), content: size(10, 4), x: 0, y: 3)
        // 3x5 into 10x10: s = 2 -> 6x10, x = 2.
        assertPlacement(size(3, 5), in: size(10, 10), content: size(6, 10), x: 2, y: 0)
    }

    func testExtremeRatiosKeepAtLeastOnePixel() {
        assertPlacement(size(16_384, 1), in: size(100, 100), content: size(100, 1), x: 0, y: 49)
        assertPlacement(size(1, 16_384), in: size(100, 100), content: size(1, 100), x: 49, y: 0)
        assertPlacement(size(16_384, 16_384), in: size(1, 1), content: size(1, 1), x: 0, y: 0)
    }

    func testContentNeverLeavesCanvas() {
        let canvases = [size(1170, 183), size(1082, 168), size(750, 100), size(1170, 750), size(1, 1)]
        for source in Product.banner.entries.map(\.size) + [size(1, 1), size(5000, 3)] {
            for canvas in canvases {
                for enlarge in [true, false] {
                    let p = Placement(source: source, canvas: canvas, enlarge: enlarge)
                    XCTAssertGreaterThanOrEqual(p.x, 0)
                    XCTAssertGreaterThanOrEqual(p.y, 0)
                    XCTAssertLessThanOrEqual(p.x + p.content.width, canvas.width, "\(source) in \(canvas)")
                    XCTAssertLessThanOrEqual(p.y + p.content.height, canvas.height, "\(source) in \(canvas)")
                    XCTAssertGreaterThanOrEqual(p.content.width, 1)
                    XCTAssertGreaterThanOrEqual(p.content.height, 1)
                    // Centred: the two bars differ by at most one pixel, the extra one on the right/bottom.
                    let right = canvas.width - p.content.width - p.x
                    let bottom = canvas.height - p.content.height - p.y
                    XCTAssertTrue(right == p.x || right == p.x + 1, "\(source) in \(canvas)")
                    XCTAssertTrue(bottom == p.y || bottom == p.y + 1, "\(source) in \(canvas)")
                }
            }
        }
    }

    func testFillShare() {
        XCTAssertEqual(Placement(source: size(960, 150), canvas: size(1170, 180)).fillShare,
                       1152.0 * 180 / (1170 * 180), accuracy: 1e-12)
        XCTAssertEqual(Placement(source: size(300, 250), canvas: size(1170, 183)).fillShare,
                       220.0 * 183 / (1170 * 183), accuracy: 1e-12)
        XCTAssertEqual(Placement(source: size(2184, 270), canvas: size(1170, 183)).fillShare,
                       145.0 / 183, accuracy: 1e-12)
    }
}
