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
            try Encoder.encode(image, format: .png, content: content, memoryBudget: JobLimits.fullScreenMemoryBudget,
                               weightBudget: budget)
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
        let webp = try Encoder.encode(image, format: .webp, content: content, memoryBudget: JobLimits.fullScreenMemoryBudget,
                                      weightBudget: budget)
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
            try Encoder.encode(image, format: .webp, quality: 100, content: content, weightBudget: 20 * 1024)
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
}
