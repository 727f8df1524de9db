import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import XCTest

/// The pre-flight warnings as callers rely on them: warnings only (the creative stays valid),
/// their messages, the switch that turns them off, and the preview sheet's bar marks.
final class PreflightTests: XCTestCase {
    private func preflightCodes(_ report: ValidationReport) -> [ValidationCode] {
        report.warnings.map(\.code).filter(PreflightCorpus.warnings.contains)
    }

    func testPreflightCodesAreWarnings() {
        for code in PreflightCorpus.warnings { XCTAssertTrue(code.isWarning, code.rawValue) }
    }

    func testACreativeWithEveryKindOfPreflightWarningIsValid() throws {
        let barsOnWhite = try PreflightCorpus.bars(PreflightCorpus.photo(PixelSize(width: 960, height: 100), seed: 3),
                                                   in: PixelSize(width: 960, height: 150), [255, 255, 255])
        let report = Validator.validate(try Fixtures.png(barsOnWhite), fileName: "bars.png")
        XCTAssertTrue(report.valid, "\(report.errors)")
        XCTAssertEqual(report.errors, [])
        XCTAssertEqual(preflightCodes(report), [.bakedInBars, .edgeWithoutBorder])
        let bars = try XCTUnwrap(report.warnings.first { $0.code == .bakedInBars })
        XCTAssertTrue(bars.message.contains("the content is only 960x100"), bars.message)
        XCTAssertTrue(bars.message.contains("Re-export the content at 960x150 without bars"), bars.message)
        let edges = try XCTUnwrap(report.warnings.first { $0.code == .edgeWithoutBorder })
        XCTAssertTrue(edges.message.hasPrefix("the top and bottom edges are near-white"), edges.message)
        // Where they are, for a page to draw them: the two 25 px bars, the two 2 px edges.
        XCTAssertEqual(bars.regions, [PixelRect(x: 0, y: 0, width: 960, height: 25), PixelRect(x: 0, y: 125, width: 960, height: 25)])
        XCTAssertEqual(edges.regions, [PixelRect(x: 0, y: 0, width: 960, height: 2), PixelRect(x: 0, y: 148, width: 960, height: 2)])
        let json = report.json.serialized()
        XCTAssertTrue(json.contains("\"regions_pixels\":[{\"x\":0,\"y\":0,\"width\":960,\"height\":25},"), json)

        let empty = Validator.validate(try Fixtures.png(Fixtures.solid(728, 90, [0, 0, 0], alpha: 0)), fileName: "e.png")
        XCTAssertTrue(empty.valid)
        XCTAssertEqual(preflightCodes(empty), [.mostlyEmpty])
        XCTAssertEqual(empty.warnings.first { $0.code == .mostlyEmpty }?.message,
                       "the artwork is fully transparent; nothing would show in the slot")
    }

    func testUpscaledMessageEstimatesTheOriginalSize() throws {
        let enlarged = try PreflightCorpus.enlarge(PreflightCorpus.photo(PixelSize(width: 320, height: 50), seed: 5),
                                                   to: PixelSize(width: 960, height: 150), kernel: "nearest")
        let report = Validator.validate(try Fixtures.png(enlarged), fileName: "big.png")
        XCTAssertTrue(report.valid)
        let issue = try XCTUnwrap(report.warnings.first { $0.code == .upscaledArtwork })
        XCTAssertTrue(issue.message.contains("looks enlarged from about 319x50") || issue.message.contains("about 320x50"),
                      issue.message)
    }

    func testTurnedOffThereAreNoPreflightWarnings() throws {
        var limits = ValidationLimits()
        limits.preflight = false
        let png = try Fixtures.png(Fixtures.solid(320, 50, [255, 255, 255]))
        XCTAssertEqual(preflightCodes(Validator.validate(png, fileName: "white.png", limits: limits)), [])
        XCTAssertEqual(preflightCodes(Validator.validate(png, fileName: "white.png")), [.mostlyEmpty])
    }

    func testChecksRunOnlyOnDecodedCreatives() throws {
        // A size the catalog does not accept is never decoded, so it gets no pre-flight warning.
        let report = Validator.validate(try Fixtures.png(Fixtures.solid(321, 50, [255, 255, 255])), fileName: "w.png")
        XCTAssertFalse(report.decoded)
        XCTAssertEqual(preflightCodes(report), [])
    }

    func testABudgetTooSmallForTheChecksSkipsThemWithoutRejecting() throws {
        let png = try Fixtures.png(Fixtures.solid(960, 150, [255, 255, 255]))
        // Enough for the decode (960x150x3), not for the checks (960x150x12).
        let limits = ValidationLimits(job: JobLimits(memoryBudget: 960 * 150 * 6))
        let report = Validator.validate(png, fileName: "w.png", limits: limits)
        XCTAssertTrue(report.valid, "\(report.errors)")
        XCTAssertTrue(report.decoded)
        XCTAssertEqual(preflightCodes(report), [])
    }

    /// A photograph's sheet is a JPEG (``SheetFile``): the outline is counted within JPEG's error
    /// of its colour, beyond the photograph's own pixels that come near it.
    func testPreviewSheetOutlinesBakedBars() throws {
        func markPixels(_ image: VImage) throws -> Int {
            let sheet = try Fixtures.decode(PreviewSheet.draw(image, creative: image.size, product: .banner).bytes)
            let pixels = try PixelReader(sheet)
            let mark = PreviewSheet.barMark.map { Int($0) }
            var count = 0
            for y in 0..<pixels.height {
                for x in 0..<pixels.width {
                    let pixel = pixels[x, y]
                    if zip(pixel.prefix(3), mark).allSatisfy({ abs(Int($0) - $1) <= 40 }) { count += 1 }
                }
            }
            return count
        }
        let size = PixelSize(width: 960, height: 150)
        let letterboxed = try PreflightCorpus.bars(PreflightCorpus.photo(PixelSize(width: 960, height: 110), seed: 8),
                                                   in: size, [0, 0, 0]).materialized()
        XCTAssertEqual(Preflight.bars(letterboxed), BarInsets(top: 20, bottom: 20, left: 0, right: 0))
        let marked = try markPixels(letterboxed), unmarked = try markPixels(PreflightCorpus.photo(size, seed: 8).materialized())
        XCTAssertGreaterThan(marked - unmarked, 28 * 2 * 600, "two bars outlined in each of the 28 slots")
    }

    func testPixelsKeptByTheStrictPNGDecodeAreLibvipsPixels() throws {
        var cases: [(String, [UInt8])] = TestArtwork.sizes.compactMap { size in TestArtwork.embedded(size).map { ("\(size)", $0) } }
        let photo = try PreflightCorpus.photo(PixelSize(width: 320, height: 50), seed: 4)
        cases.append(("rgb", try Fixtures.png(photo)))
        cases.append(("rgba", try Fixtures.png(PreflightCorpus.bars(photo, in: PixelSize(width: 320, height: 50), nil))))
        cases.append(("palette with alpha", try Fixtures.png(Fixtures.solid(320, 50, [10, 200, 30], alpha: 128),
                                                             [("palette", .bool(true))])))
        // Palette rows below 8 bits are unpacked after libpng's passes: odd widths, interlaced.
        let odd = try PreflightCorpus.photo(PixelSize(width: 37, height: 11), seed: 5)
        for depth in [1, 2, 4, 8] {
            for interlace in [false, true] {
                cases.append(("palette \(depth)-bit\(interlace ? " interlaced" : "")", try Fixtures.png(odd,
                    [("palette", .bool(true)), ("bitdepth", .int(depth)), ("interlace", .bool(interlace))])))
            }
        }
        // A palette repeating an entry: its pixels get the first index of their colour.
        let fourBit = try XCTUnwrap(cases.last?.1)
        let palette = Fixtures.pngChunk(fourBit, "PLTE")
        var repeated = Array(fourBit[palette.dataStart..<palette.crcStart])
        repeated.replaceSubrange(3..<6, with: repeated[0..<3])
        let repeating = Array(fourBit[..<palette.start]) + Fixtures.pngChunk("PLTE", repeated) + Array(fourBit[palette.end...])
        cases.append(("palette repeating an entry", repeating))
        let size = PixelSize(width: 37, height: 11)
        XCTAssertTrue(try XCTUnwrap(PNGStructure.check(fourBit, maxPixels: 1 << 30, keeping: size).pixels).samples.contains(1))
        let indices = try XCTUnwrap(PNGStructure.check(repeating, maxPixels: 1 << 30, keeping: size).pixels)
        XCTAssertFalse(indices.samples.contains(1))
        for (name, png) in cases {
            let check = PNGStructure.check(png, maxPixels: 1 << 30, keeping: PixelSize(width: 0, height: 0))
            XCTAssertNil(check.pixels, "\(name): a buffer of another size keeps nothing")
            let image = try Fixtures.decode(png)
            let kept = try XCTUnwrap(PNGStructure.check(png, maxPixels: 1 << 30, keeping: image.size).pixels, name)
            XCTAssertEqual(kept.expanded().bands, image.bands, name)
            XCTAssertEqual(kept.expanded().samples, try image.pixelBytes(), name)
        }
    }
}
