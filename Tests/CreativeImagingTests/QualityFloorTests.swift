import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import XCTest

/// A weight budget never buys a render under the quality floor (``QualityFloor``): such a render
/// is refused `over_weight_budget`, naming what was tried and the format that fits, measured.
final class QualityFloorTests: XCTestCase {
    /// A photograph of `source` pixels (enlarged into the canvas: smooth, as a camera's after
    /// resizing; at 1:1 this fixture's 1-pixel grain is stronger than a camera's) in `canvas`.
    private func photo(_ source: PixelSize, in canvas: PixelSize) throws -> (VImage, PixelRect) {
        let art = try ImageSource(bytes: try Fixtures.png(try PreflightCorpus.photo(source, seed: 7)))
        let settings = try RenderSettings(canvas: canvas, background: Background.white)
        return (try Renderer.renderImage(art, settings: settings).materialized(),
                settings.placement(of: art.displayedSize).contentRect)
    }

    private func refusal(_ body: () throws -> EncodedRender) throws -> (OutputFormat, Int, BudgetShortfall, String) {
        do {
            let written = try body()
            XCTFail("written: \(written.bytes.count) bytes, \(written.detail)")
        } catch let error as ImagingError {
            guard case .overWeightBudget(let format, let smallest, _, let shortfall?) = error else {
                throw error
            }
            XCTAssertEqual(error.code, "over_weight_budget")
            return (format, smallest, shortfall, error.message)
        }
        throw XCTSkip("unreachable")
    }

    private func luma(_ bytes: [UInt8], _ image: VImage, _ area: PixelRect) throws -> Double {
        try Similarity.Perceptual(image, area: area).score(try ImageSource(bytes: bytes).header).luma
    }

    /// Issue 52, point 1: an interstitial's photo screen as PNG at the default 150K was a 4-colour
    /// palette. Now refused, naming the WebP that fits, measured.
    func testAPhotoScreenIsNotPosterisedToFitTheBudget() throws {
        let (image, content) = try photo(PixelSize(width: 270, height: 480), in: PixelSize(width: 1179, height: 2556))
        let budget = RenderSettings.defaultWeightBudget
        let (format, _, shortfall, message) = try refusal {
            try Encoder.encode(image, EncodeRequest(format: .fixed(.png), content: content, memoryBudget: JobDefaults.fullScreenMemoryBudget, weightBudget: budget))
        }
        XCTAssertEqual(format, .png, message)
        XCTAssertTrue(shortfall.tried.contains("palettes of 256 down to 2 colours"), message)
        if let under = shortfall.underFloor {
            XCTAssertLessThanOrEqual(under.bytes, budget)
            XCTAssertLessThan(under.luma, QualityFloor.luma, message)
            XCTAssertLessThan(try luma(try AutoRecipe.palette(bitDepth: 2, quality: 50).encode(image), image, content),
                              QualityFloor.luma, "4 colours are under the floor")
        }
        let fits = try XCTUnwrap(shortfall.fits, message)
        XCTAssertEqual(fits.format, .webp, message)
        XCTAssertLessThanOrEqual(fits.bytes, budget)
        XCTAssertGreaterThanOrEqual(fits.luma, QualityFloor.luma)
        XCTAssertTrue(message.contains("WebP fits at \(TextFormat.kilobytes(fits.bytes)) (\(fits.bytes) bytes: \(fits.detail)"),
                      message)
        // Measured, not guessed: asked for, that WebP is written, that size, scoring so.
        let webp = try Encoder.encode(image, EncodeRequest(format: .fixed(.webp), content: content, memoryBudget: JobDefaults.fullScreenMemoryBudget, weightBudget: budget))
        XCTAssertEqual(webp.bytes.count, fits.bytes, webp.detail)
        XCTAssertTrue(webp.detail.hasPrefix(fits.detail), webp.detail)
        XCTAssertEqual(try luma(webp.bytes, image, content), fits.luma, accuracy: 0.001)
    }

    /// A fixed lossy format whose best fit is under the floor is refused, and the other format
    /// that fits above it is named (this fixture's grain: WebP quality 47 scores 0.889).
    func testALossyRenderUnderTheFloorIsRefusedNamingWhatFits() throws {
        let art = try ImageSource(bytes: try Fixtures.png(try PreflightCorpus.photo(PixelSize(width: 2184, height: 270), seed: 11)))
        let settings = try RenderSettings(canvas: PixelSize(width: 960, height: 150), background: Background.white)
        let image = try Renderer.renderImage(art, settings: settings).materialized()
        let content = settings.placement(of: art.displayedSize).contentRect
        let (format, _, shortfall, message) = try refusal {
            try Encoder.encode(image, EncodeRequest(format: .fixed(.webp), quality: 100, content: content, weightBudget: 20 * 1024))
        }
        XCTAssertEqual(format, .webp)
        let under = try XCTUnwrap(shortfall.underFloor, message)
        XCTAssertLessThan(under.luma, QualityFloor.luma)
        XCTAssertTrue(message.contains("under the quality floor of 0.900"), message)
        XCTAssertFalse(message.contains("choose another format"), message)
        if let fits = shortfall.fits {
            XCTAssertNotEqual(fits.format, .webp)
            XCTAssertLessThanOrEqual(fits.bytes, 20 * 1024)
            XCTAssertGreaterThanOrEqual(fits.luma, QualityFloor.luma)
        } else {
            XCTAssertTrue(message.contains("no other format fits it above the quality floor"), message)
        }
    }

    /// The colours of a palette PNG (its PLTE entries).
    private func paletteColours(_ png: [UInt8]) throws -> Int {
        XCTAssertEqual(png[25], 3, "a palette PNG")
        let chunk = Fixtures.pngChunk(png, "PLTE")
        return chunk.length / 3
    }

    /// Issue 52, point 2: palettes went from 256 colours to 16 (a photograph at 60K: 16 colours,
    /// SSIM 0.868, where 64 fit). Now the most colours of the ladder that fit are written.
    func testAPaletteBetween256And16ColoursIsWrittenWhereItFits() throws {
        // A mosaic of 390x65 random colours, each 12 pixels square, shown at 3 pixels: thousands
        // of colours whose palettes keep luma (64 colours: 0.931; libimagequant's 16: 0.837).
        var bands: [VImage] = []
        for band in 0..<3 {
            let noise = try VipsOperation("gaussnoise").with("width", .int(390)).with("height", .int(65))
                .with("sigma", .double(50)).with("mean", .double(128)).with("seed", .int(band + 1)).image()
            bands.append(try VipsOperation("zoom").with("input", .image(noise)).with("xfac", .int(12)).with("yfac", .int(12)).image())
        }
        let art = try ImageSource(bytes: try Fixtures.png(try Fixtures.joinBands(bands)))
        let settings = try RenderSettings(canvas: PixelSize(width: 1170, height: 183), background: Background.white)
        let image = try Renderer.renderImage(art, settings: settings).materialized()
        let content = settings.placement(of: art.displayedSize).contentRect
        let quantised = try AutoRecipe.palette(bitDepth: 8, quality: 60).encode(image)
        let ladder = try XCTUnwrap(try PaletteLadder(quantised: quantised))
        let budget = try ladder.encode(colours: 64).count
        XCTAssertGreaterThan(quantised.count, budget, "256 colours do not fit")
        let fitted = try Encoder.encode(image, EncodeRequest(format: .fixed(.png), content: content, weightBudget: budget))
        XCTAssertLessThanOrEqual(fitted.bytes.count, budget, fitted.detail)
        let colours = try paletteColours(fitted.bytes)
        XCTAssertGreaterThan(colours, 16, fitted.detail)
        XCTAssertLessThanOrEqual(colours, 64, fitted.detail)
        XCTAssertTrue(fitted.detail.hasPrefix("PNG, palette of at most "), fitted.detail)
        XCTAssertGreaterThanOrEqual(try luma(fitted.bytes, image, content), QualityFloor.luma, fitted.detail)
    }

    /// Issue 52, point 2: the lossy search stopped at quality 30 and called it the smallest it
    /// reaches. Flat art keeps the floor far lower: written there.
    func testTheLossySearchGoesBelowThirtyWhereTheFloorHolds() throws {
        let art = try ImageSource(bytes: try Fixtures.png(try PreflightCorpus.flat(PixelSize(width: 2184, height: 270), seed: 1,
                                                                                    gradient: true)))
        let settings = try RenderSettings(canvas: PixelSize(width: 1170, height: 183), background: Background.white)
        let image = try Renderer.renderImage(art, settings: settings).materialized()
        let content = settings.placement(of: art.displayedSize).contentRect
        let atThirty = try Encoder.lossy(image, .webp, quality: 30).count
        let budget = try Encoder.lossy(image, .webp, quality: 10).count
        XCTAssertLessThan(budget, atThirty)
        let fitted = try Encoder.encode(image, EncodeRequest(format: .fixed(.webp), content: content, weightBudget: budget))
        XCTAssertLessThanOrEqual(fitted.bytes.count, budget, fitted.detail)
        XCTAssertLessThan(try XCTUnwrap(fitted.recipe?.quality), 30, fitted.detail)
        XCTAssertGreaterThanOrEqual(try luma(fitted.bytes, image, content), QualityFloor.luma, fitted.detail)
        // Below what the lowest quality reaches, the message says where the search went.
        let (_, smallest, shortfall, message) = try refusal {
            try Encoder.encode(image, EncodeRequest(format: .fixed(.webp), content: content, weightBudget: 200))
        }
        XCTAssertEqual(smallest, try Encoder.lossy(image, .webp, quality: WeightBudgetSearch.lowestQuality).count)
        XCTAssertEqual(shortfall.tried, "WebP qualities 85 down to \(WeightBudgetSearch.lowestQuality)")
        XCTAssertTrue(message.contains("the smallest of those tried (WebP qualities 85 down to 1) is \(smallest) bytes"), message)
    }

    /// Issue 52, point 2: `auto` under a tight budget wrote a 4-colour PNG (luma 0.768), and its
    /// refusal said "choose another format" after trying them all. Now nothing under the floor is
    /// written, and a refusal names every format tried.
    func testAutoUnderATightBudgetKeepsTheFloorOrSaysWhatItTried() throws {
        let art = try ImageSource(bytes: try Fixtures.png(try PreflightCorpus.photo(PixelSize(width: 2184, height: 270), seed: 11)))
        let settings = try RenderSettings(canvas: PixelSize(width: 1170, height: 183), background: Background.white)
        let image = try Renderer.renderImage(art, settings: settings).materialized()
        let content = settings.placement(of: art.displayedSize).contentRect
        var refused = 0
        for budget in [4 * 1024, 8 * 1024, 16 * 1024, 30 * 1024] {
            do {
                let written = try Encoder.encode(image, EncodeRequest(format: .auto, content: content, weightBudget: budget))
                XCTAssertLessThanOrEqual(written.bytes.count, budget, written.detail)
                XCTAssertGreaterThanOrEqual(try luma(written.bytes, image, content), QualityFloor.luma, written.detail)
            } catch {
                guard case .overWeightBudget(_, _, _, let shortfall?) = error else { throw error }
                refused += 1
                XCTAssertTrue(shortfall.tried.hasPrefix("auto: WebP qualities"), error.message)
                XCTAssertTrue(shortfall.tried.contains("JPEG qualities"), error.message)
                XCTAssertTrue(shortfall.searchedOthers)
                XCTAssertFalse(error.message.contains("choose another format"), error.message)
                XCTAssertTrue(error.message.contains("no other format fits it above the quality floor"), error.message)
            }
        }
        XCTAssertGreaterThan(refused, 0, "this grain is under the floor at 4K in every format")
    }
}
