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

    /// A sheet's file (PNG or JPEG), read by libvips alone (a banner sheet at 2x may be over the
    /// test decoder's 16384-pixel side).
    private func sheetImage(_ file: SheetFile) throws -> VImage {
        try VipsOperation(file.format == .png ? "pngload_buffer" : "jpegload_buffer").with("buffer", .bytes(file.bytes)).image()
    }

    /// Pixels of `image` that are exactly `rgb`.
    private func count(_ rgb: [Double], in image: VImage) throws -> Int {
        let equal = try VipsOperation("relational_const").with("in", .image(image))
            .with("relational", .enumeration("equal")).with("c", .doubles(rgb)).image()
        let all = try VipsOperation("bandbool").with("in", .image(equal)).with("boolean", .enumeration("and")).image()
        let share = try VipsOperation("avg").with("in", .image(all)).number() / 255
        return Int((share * Double(image.width * image.height)).rounded())
    }

    func testInterstitialSheetOutlinesTheCloseZoneAndTheButtons() throws {
        let creative = PixelSize(width: 1080, height: 1920)
        let decoded = try Fixtures.solid(creative.width, creative.height, [0, 0, 255]).materialized()
        let whole = try sheetImage(try PreviewSheet.draw(decoded, creative: creative, product: .interstitial))
        // The artwork and its close zone are at the top.
        let sheet = try PixelReader(try VipsOperation("extract_area").with("input", .image(whole)).with("left", .int(0))
            .with("top", .int(0)).with("width", .int(whole.width)).with("height", .int(1600)).image())
        let red = redPixels(sheet)
        XCTAssertFalse(red.isEmpty)
        // The first outline from the top is the close zone on the artwork: its right edge is the
        // artwork's right edge (the zone reaches the top-right corner), its top the artwork's top.
        let shown = Placement(source: creative,
                              canvas: PixelSize(width: PreviewSheet.rowWidth / 2, height: PreviewSheet.artworkHeight / 2)).content
        let top = try XCTUnwrap(red.map(\.y).min())
        let firstRow = red.filter { $0.y == top }.map(\.x)
        XCTAssertEqual(firstRow.max(), PreviewSheet.margin + shown.width - 1)
        let zone = try XCTUnwrap(CloseButton.zone(for: creative, product: .interstitial))
        let zoneLeft = PreviewSheet.margin + Int((Double(zone.x) * Double(shown.width) / Double(creative.width)).rounded(.down))
        XCTAssertEqual(firstRow.min(), zoneLeft)

        // Every screen's close button is outlined (two pixels wide): 28 squares further down, each
        // at least 44 points a side.
        XCTAssertGreaterThan(try count(PreviewSheet.closeRed, in: whole), 28 * 2 * 4 * 42)

        // A banner sheet has no close button.
        let banner = try Fixtures.solid(960, 150, [0, 0, 255]).materialized()
        let bannerSheet = try PixelReader(encoded: try PreviewSheet.draw(banner, creative: PixelSize(width: 960, height: 150), product: .banner).bytes)
        XCTAssertTrue(redPixels(bannerSheet).isEmpty)
    }

    /// `process` is charged for the largest sheet of its product (``ProcessPlan/sheetPixels(_:)``):
    /// every catalog size's sheet, with every warning written out at length, fits the charge, and
    /// the charge stays within a quarter of the largest (it is measured, not guessed). Banner and
    /// companion sheets are drawn at 2x points for every catalog size: the sheet is exactly the
    /// 2x layout's size.
    func testEveryCatalogSizesSheetFitsTheChargedPixelsAtTwiceThePoints() throws {
        // Every warning at once, each 260 characters (the checks' longest message, baked_in_bars
        // with a 4-digit size, is about 220).
        let warnings = ValidationCode.allCases.filter(\.isWarning).map {
            ValidationIssue($0, String(String(repeating: "a message as long as the longest the checks write ", count: 6).prefix(260)))
        }
        XCTAssertEqual(PreviewSheet.servedPointScales[0], 2)
        for product in Product.allCases {
            var largest = (pixels: 0, size: "")
            for size in product.sizes {
                let decoded = try Fixtures.solid(size.width, size.height, [30, 90, 160]).materialized()
                // The 300x250 banner's sheet is taller than the decoder's 16384-pixel side: read its header.
                let file = try PreviewSheet.draw(decoded, creative: size, product: product, warnings: warnings)
                XCTAssertEqual(file.format, .png, "\(product) \(size): flat art's sheet is a PNG")
                let sheet = try XCTUnwrap(Fixtures.pngSize(file.bytes))
                XCTAssertLessThanOrEqual(max(sheet.width, sheet.height), PreviewSheet.maximumSide, "\(product) \(size)")
                let pixels = sheet.width * sheet.height
                XCTAssertLessThanOrEqual(pixels, ProcessPlan.sheetPixels(product), "\(product) \(size): \(sheet)")
                if pixels > largest.pixels { largest = (pixels, "\(size): \(sheet)") }
                if product.isFullScreen {
                    // Noise falls back to two thirds of the points: whatever its pixels, that file fits the room.
                    let fallback = try PreviewSheet.fullScreenSheet(decoded, creative: size, product: product, campaign: [],
                                                                    warnings: warnings, scale: PreviewSheet.screenPointScales[1])
                    XCTAssertLessThan(fallback.fileBound, PreviewSheet.fullScreenFileRoom, "\(size): \(fallback.size)")
                    let once = try PreviewSheet.fullScreenSheet(decoded, creative: size, product: product, campaign: [],
                                                                warnings: warnings, scale: 1)
                    XCTAssertEqual(sheet, once.size, "\(product) \(size): not drawn at its points")
                    continue
                }
                let plain = PreviewSheet.groups(size, product: product, campaign: [], scale: 1)
                let lettering = try PreviewSheet.Layout.Lettering(
                    plain, creative: size, product: product,
                    summary: PreviewSheet.summary(size, groups: plain, warnings: warnings, bars: false))
                let twice = try PreviewSheet.Layout.fitting(PreviewSheet.groups(size, product: product, campaign: [], scale: 2),
                                                            lettering: lettering, scaleIndex: 0)
                // At 2x unless the 2x layout, widened to stay within the longest side, is over
                // the charge (300x250 alone: 1936x10896); then at a smaller scale.
                if (twice.size.pixelCount ?? 0) <= ProcessPlan.sheetPixels(product) {
                    XCTAssertEqual(sheet, twice.size, "\(product) \(size): not drawn at 2x")
                } else {
                    XCTAssertLessThan(sheet.width * sheet.height, twice.size.pixelCount ?? 0, "\(product) \(size)")
                }
            }
            XCTAssertLessThan(ProcessPlan.sheetPixels(product), largest.pixels * 5 / 4, "\(product): largest \(largest.size)")
        }
    }

    /// A banner sheet draws the slots it is served in at 2x points and the others dimmed at 1x,
    /// grouped, under a summary: in a campaign of the three Retina sizes, 960x150 is served in
    /// the three narrowest phone slots.
    func testBannerSheetIsRetinaWhereServedAndDimmedElsewhere() throws {
        let creative = PixelSize(width: 960, height: 150)
        let retina = [PixelSize(width: 1320, height: 204), PixelSize(width: 2184, height: 270)]
        let groups = PreviewSheet.groups(creative, product: .banner, campaign: retina, scale: 2)
        XCTAssertEqual(groups.map(\.title), ["Phones, portrait: served in 3 of 9", "Phones, landscape: served in 0 of 9",
                                             "Tablets, portrait: served in 0 of 5", "Tablets, landscape: served in 0 of 5"])
        for row in groups.flatMap(\.rows) {
            let points = row.assignment.deviceSlot.slot.points
            XCTAssertEqual(row.canvas, row.served ? PixelSize(width: points.width * 2, height: points.height * 2)
                                                  : PixelSize(width: (points.width + 1) / 2, height: (points.height + 1) / 2))
            XCTAssertEqual(PreviewSheet.caption(row, creative: creative).hasSuffix(" · served here"), row.served)
        }
        let warning = ValidationIssue(.edgeWithoutBorder, "the top and bottom edges are near-white with no border")
        let summary = PreviewSheet.summary(creative, groups: groups, warnings: [warning], bars: false)
        XCTAssertTrue(summary[0].hasPrefix("Served in 3 of 28 device slots. Worst fill "), summary[0])
        XCTAssertEqual(summary.last, "edge_without_border: the top and bottom edges are near-white with no border")
        // Drawn: a served phone row's pixels are twice its points, and the dimmed rows are light.
        let decoded = try Fixtures.solid(960, 150, [0, 0, 160]).materialized()
        let sheet = try PixelReader(encoded: try PreviewSheet.draw(decoded, creative: creative, product: .banner, campaign: retina, warnings: [warning]).bytes)
        var navy = 0, dimmedNavy = 0
        let dim = UInt8((160 * PreviewSheet.dimmedShare + 255 * (1 - PreviewSheet.dimmedShare)).rounded())
        for y in 0..<sheet.height {
            for x in 0..<sheet.width {
                let pixel = sheet[x, y]
                if pixel[0] < 8 && pixel[1] < 8 && pixel[2] > 150 { navy += 1 }
                if pixel[2] == dim || pixel[2] == dim - 1 || pixel[2] == dim + 1, pixel[0] > 150 && pixel[0] < 175 { dimmedNavy += 1 }
            }
        }
        let served = groups[0].rows.filter(\.served).map { $0.placement.content.pixelCount ?? 0 }.reduce(0, +)
        XCTAssertEqual(Double(navy), Double(served), accuracy: Double(served) * 0.02, "the served rows at 2x")
        XCTAssertGreaterThan(dimmedNavy, 20 * 160 * 25, "the 25 other rows, dimmed")
    }

    /// An interstitial sheet draws every screen at its size in points (the renders, laid out by
    /// `preview.html`, are the view at the screen's density): a creative alone is served on all
    /// 28, and each shows the artwork at its content size, pixel for pixel.
    func testInterstitialSheetDrawsEveryScreenAtItsPoints() throws {
        let creative = PixelSize(width: 1080, height: 1920)
        let blue: [Double] = [0, 0, 255]
        let decoded = try Fixtures.solid(creative.width, creative.height, blue).materialized()
        let file = try PreviewSheet.draw(decoded, creative: creative, product: .interstitial)
        XCTAssertEqual(file.format, .png)
        let sheet = try sheetImage(file)
        let plan = DevicePlan.plan(with: creative, campaign: [], product: .interstitial)
        XCTAssertEqual(plan.count, 28)
        let screens = plan.map { assignment in
            let slot = assignment.deviceSlot
            return Placement(source: creative, canvas: slot.screen(atScale: 1), area: slot.safeArea(atScale: 1)).content
        }
        // The iPad Pro 12.9's portrait screen shows the artwork as tall as its safe area, 1322 points.
        XCTAssertEqual(screens.map(\.height).max(), 1322)
        XCTAssertGreaterThanOrEqual(sheet.width, 1366 + 2 * PreviewSheet.margin)
        XCTAssertLessThanOrEqual(max(sheet.width, sheet.height), PreviewSheet.maximumSide)
        let shown = Placement(source: creative,
                              canvas: PixelSize(width: PreviewSheet.rowWidth / 2, height: PreviewSheet.artworkHeight / 2)).content
        XCTAssertEqual(shown, PixelSize(width: 304, height: 540))
        // Blue, less each close button's outline where it crosses the artwork.
        let expected = screens.map { $0.width * $0.height }.reduce(shown.width * shown.height, +)
        XCTAssertEqual(Double(try count(blue, in: sheet)), Double(expected), accuracy: Double(expected) * 0.02)
    }

    /// A sheet is a file a person opens: a photograph's interstitial sheet, whose PNG would be
    /// over 8 MB, is a JPEG at its points under 8 MB; a photograph's banner sheet at 2x a JPEG
    /// under 2 MB. Noise's JPEG, over the room at its points, is drawn at two thirds, within it.
    func testPhotographSheetsAreJPEGsAPersonOpens() throws {
        let creative = PixelSize(width: 1080, height: 1920)
        let photo = try Fixtures.photograph(creative.width, creative.height, grain: 2).materialized()
        let photoSheet = try PreviewSheet.draw(photo, creative: creative, product: .interstitial)
        XCTAssertEqual(photoSheet.format, .jpeg)
        XCTAssertLessThanOrEqual(photoSheet.bytes.count, PreviewSheet.fileLimit(.interstitial))
        let once = try PreviewSheet.fullScreenSheet(photo, creative: creative, product: .interstitial, campaign: [],
                                                    warnings: [], scale: 1)
        XCTAssertNil(try once.png(within: PreviewSheet.fileLimit(.interstitial)), "its PNG is over the limit")
        let shown = try sheetImage(photoSheet)
        XCTAssertEqual(PixelSize(width: shown.width, height: shown.height), once.size)
        XCTAssertLessThanOrEqual(max(shown.width, shown.height), PreviewSheet.maximumSide)

        let banner = PixelSize(width: 2184, height: 270)
        let bannerPhoto = try Fixtures.photograph(banner.width, banner.height, grain: 2).materialized()
        let bannerSheet = try PreviewSheet.draw(bannerPhoto, creative: banner, product: .banner)
        XCTAssertEqual(bannerSheet.format, .jpeg)
        XCTAssertLessThanOrEqual(bannerSheet.bytes.count, PreviewSheet.fileLimit(.banner))
        XCTAssertEqual(PreviewSheet.fileName("preview", bannerSheet), "preview.jpg")
        let bannerShown = try sheetImage(bannerSheet)
        XCTAssertLessThanOrEqual(max(bannerShown.width, bannerShown.height), PreviewSheet.maximumSide)

        // Busier art, whose JPEG at 2x is over the limit, is drawn at a smaller scale that fits.
        let grainy = try Fixtures.photograph(banner.width, banner.height, grain: 14).materialized()
        let grainySheet = try PreviewSheet.draw(grainy, creative: banner, product: .banner)
        XCTAssertEqual(grainySheet.format, .jpeg)
        XCTAssertLessThanOrEqual(grainySheet.bytes.count, PreviewSheet.fileLimit(.banner))
        XCTAssertLessThan(try sheetImage(grainySheet).width, bannerShown.width, "drawn below 2x")

        let noise = try VipsOperation("cast").with("in", .image(try Fixtures.colourNoise(creative.width, creative.height,
                                                                                        mean: 128, sigma: 80, seed: 3)))
            .with("format", .enumeration("uchar")).image()
        let decoded = try VipsOperation("copy").with("in", .image(noise)).with("interpretation", .enumeration("srgb"))
            .image().materialized()
        let noiseSheet = try PreviewSheet.draw(decoded, creative: creative, product: .interstitial)
        XCTAssertLessThanOrEqual(noiseSheet.bytes.count, PreviewSheet.fullScreenFileRoom)
        let noiseShown = try sheetImage(noiseSheet)
        XCTAssertLessThanOrEqual(noiseShown.width * noiseShown.height, once.size.pixelCount ?? 0)
    }
}
