import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import XCTest

/// The interstitial preview sheet draws the close zone and every screen's close button.
final class PreviewSheetTests: XCTestCase {
    private func redPixels(_ sheet: PixelReader) -> [(x: Int, y: Int)] {
        let red = PreviewSheet.closeRed.map { UInt8($0) }
        var found: [(Int, Int)] = []
        sheet.bytes.withUnsafeBufferPointer { bytes in
            var index = 0
            for pixel in 0..<(sheet.width * sheet.height) {
                if bytes[index] == red[0] && bytes[index + 1] == red[1] && bytes[index + 2] == red[2] {
                    found.append((pixel % sheet.width, pixel / sheet.width))
                }
                index += sheet.bands
            }
        }
        return found
    }

    func testInterstitialSheetOutlinesTheCloseZoneAndTheButtons() throws {
        let creative = PixelSize(width: 1080, height: 1920)
        let decoded = try Fixtures.solid(creative.width, creative.height, [0, 0, 255]).materialized()
        let sheet = try PixelReader(encoded: try PreviewSheet.draw(decoded, creative: creative, product: .interstitial))
        let red = redPixels(sheet)
        XCTAssertFalse(red.isEmpty)
        // The first outline from the top is the close zone on the artwork: its right edge is the
        // artwork's right edge (the zone reaches the top-right corner), its top the artwork's top.
        let shown = Placement(source: creative,
                              canvas: PixelSize(width: PreviewSheet.rowWidth, height: PreviewSheet.artworkHeight)).content
        let top = try XCTUnwrap(red.map(\.y).min())
        let firstRow = red.filter { $0.y == top }.map(\.x)
        XCTAssertEqual(firstRow.max(), PreviewSheet.margin + shown.width - 1)
        let zone = try XCTUnwrap(CloseButton.zone(for: creative))
        let zoneLeft = PreviewSheet.margin + Int((Double(zone.x) * Double(shown.width) / Double(creative.width)).rounded(.down))
        XCTAssertEqual(firstRow.min(), zoneLeft)

        // A banner sheet has no close button.
        let banner = try Fixtures.solid(960, 150, [0, 0, 255]).materialized()
        let bannerSheet = try PixelReader(encoded: try PreviewSheet.draw(banner, creative: PixelSize(width: 960, height: 150)))
        XCTAssertTrue(redPixels(bannerSheet).isEmpty)
    }
}
