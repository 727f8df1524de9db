import CreativeCore
@testable import CreativeImaging
import CreativeTestSupport
import XCTest

/// ``SheetCanvas``: the preview sheet's pieces painted a band at a time into a PNG written as it
/// goes (``PNGStream``); what crosses a band's edge is painted whole, in the order laid.
final class SheetCanvasTests: XCTestCase {
    private let red: [UInt8] = [220, 20, 30], blue: [UInt8] = [20, 40, 210], green: [UInt8] = [10, 180, 60]

    func testPiecesAcrossBandEdgesArePaintedWholeInTheOrderLaid() throws {
        let rows = SheetCanvas.bandRows
        // Three bands and a short fourth, so the last band is cut too.
        let canvas = SheetCanvas(PixelSize(width: 300, height: 3 * rows + 17))
        let piece = try Fixtures.solid(50, 2 * rows, red.map(Double.init)).materialized()
        // Starts above its first band's edge and ends in the third band.
        canvas.draw(piece, x: 10, y: rows - 5)
        canvas.rect(PixelRect(x: 100, y: rows - 1, width: 40, height: rows + 2), ink: blue.map(Double.init))
        // Laid after the red piece, over part of it.
        canvas.rect(PixelRect(x: 30, y: 2 * rows - 2, width: 100, height: 4), ink: green.map(Double.init))
        canvas.rect(PixelRect(x: 200, y: 3 * rows - 3, width: 60, height: 20), ink: blue.map(Double.init), fill: false)
        let png = try XCTUnwrap(try canvas.png(within: Int.max))
        let image = try PixelReader(encoded: png)
        XCTAssertEqual(image.width, 300)
        XCTAssertEqual(image.height, 3 * rows + 17)
        let white: [UInt8] = [255, 255, 255]
        XCTAssertTrue(image.isClose(10, rows - 6, to: white, tolerance: 0), "above the piece")
        for y in [rows - 5, rows - 1, rows, 2 * rows - 3, 3 * rows - 6] {
            XCTAssertTrue(image.isClose(10, y, to: red, tolerance: 0), "red at row \(y)")
            XCTAssertTrue(image.isClose(59, y, to: red, tolerance: 0), "red at row \(y)")
        }
        XCTAssertTrue(image.isClose(10, 3 * rows - 5, to: white, tolerance: 0), "below the piece")
        XCTAssertTrue(image.isClose(60, rows, to: white, tolerance: 0), "right of the piece")
        XCTAssertTrue(image.isClose(100, rows - 1, to: blue, tolerance: 0))
        XCTAssertTrue(image.isClose(139, 2 * rows, to: blue, tolerance: 0))
        XCTAssertTrue(image.isClose(100, 2 * rows + 2, to: white, tolerance: 0), "below the blue and green rectangles")
        // The green bar over the red piece, on both sides of the band edge.
        XCTAssertTrue(image.isClose(40, 2 * rows - 1, to: green, tolerance: 0))
        XCTAssertTrue(image.isClose(40, 2 * rows, to: green, tolerance: 0))
        XCTAssertTrue(image.isClose(40, 2 * rows + 2, to: red, tolerance: 0))
        // An outline crossing into the last, short band: its edges, not its inside.
        XCTAssertTrue(image.isClose(200, 3 * rows - 3, to: blue, tolerance: 0))
        XCTAssertTrue(image.isClose(230, 3 * rows + 16, to: blue, tolerance: 0))
        XCTAssertTrue(image.isClose(230, 3 * rows + 5, to: white, tolerance: 0))
    }

    func testTheStreamRefusesRowsItDoesNotHaveAndAnEndBeforeTheLastRow() throws {
        let size = PixelSize(width: 4, height: 3)
        var room = [UInt8](repeating: 0, count: 4096)
        try room.withUnsafeMutableBufferPointer { buffer in
            let stream = try PNGStream(size, zlibLevel: 1, into: buffer)
            try stream.write([UInt8](repeating: 200, count: 4 * 3 * 2), rows: 2)
            XCTAssertThrowsError(try stream.finish()) { error in
                XCTAssertEqual(error as? ImagingError, .operationFailed("ending the PNG failed: the PNG ended before its last row"))
            }
            XCTAssertThrowsError(try stream.write([UInt8](repeating: 200, count: 4 * 3 * 2), rows: 2)) { error in
                XCTAssertEqual(error as? ImagingError, .operationFailed("writing the PNG failed: more rows than the PNG has"))
            }
            try stream.write([UInt8](repeating: 200, count: 4 * 3), rows: 1)
            let count = try XCTUnwrap(try stream.finish())
            let image = try PixelReader(encoded: Array(buffer[0..<count]))
            XCTAssertEqual(image.width, 4)
            XCTAssertEqual(image.height, 3)
            XCTAssertEqual(image[3, 2], [200, 200, 200, 255])
        }
    }
}
