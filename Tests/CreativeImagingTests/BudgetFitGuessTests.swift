import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import XCTest

/// A job's budget searches start at the quality another of its renders was fitted at
/// (``BudgetFitGuesses``): wherever the guess falls, the search ends on the quality a search from
/// the bounds finds, to the byte.
final class BudgetFitGuessTests: XCTestCase {
    private func photo() throws -> VImage {
        let art = try ImageSource(bytes: try Fixtures.png(try PreflightCorpus.photo(PixelSize(width: 390, height: 61), seed: 3)))
        let settings = try RenderSettings(canvas: PixelSize(width: 1170, height: 183), background: Background.white)
        return try Renderer.renderImage(art, settings: settings).materialized()
    }

    func testEveryGuessEndsWhereTheSearchFromTheBoundsEnds() throws {
        let image = try photo()
        // The budget a WebP at quality 70 takes: the answer is 70 or a little above.
        let budget = try Encoder.lossy(image, .webp, quality: 70, sharpYUV: true).count
        let plain = try WeightBudgetSearch.lossy(image, .webp, budget: budget, highest: 94)
        let quality = try XCTUnwrap(plain.recipe?.quality)
        XCTAssertGreaterThanOrEqual(quality, 70)
        XCTAssertLessThanOrEqual(plain.bytes.count, budget)
        for guess in [2, 40, quality - 1, quality, quality + 1, 93] {
            let guesses = BudgetFitGuesses()
            guesses.record(.webp, fullChroma: false, canvas: image.size, quality: guess)
            let guided = try BudgetFitGuesses.current.withValue(guesses) {
                try WeightBudgetSearch.lossy(image, .webp, budget: budget, highest: 94)
            }
            XCTAssertEqual(guided.recipe, plain.recipe, "guess \(guess)")
            XCTAssertEqual(guided.bytes, plain.bytes, "guess \(guess)")
            XCTAssertEqual(guided.detail, plain.detail, "guess \(guess)")
            // The fit is recorded for the job's next render.
            XCTAssertEqual(guesses.guess(.webp, fullChroma: false, canvas: image.size), quality == 94 ? guess : quality)
        }
    }

    /// A guess of another format, of JPEG's other chroma or of the other orientation is not
    /// taken; the nearest canvas's is.
    func testTheNearestCanvasOfTheSameFormatAndOrientationGuesses() {
        let guesses = BudgetFitGuesses()
        guesses.record(.webp, fullChroma: false, canvas: PixelSize(width: 750, height: 1334), quality: 80)
        guesses.record(.webp, fullChroma: false, canvas: PixelSize(width: 1290, height: 2796), quality: 60)
        guesses.record(.webp, fullChroma: false, canvas: PixelSize(width: 2796, height: 1290), quality: 97)
        guesses.record(.jpeg, fullChroma: true, canvas: PixelSize(width: 1290, height: 2796), quality: 50)
        XCTAssertEqual(guesses.guess(.webp, fullChroma: false, canvas: PixelSize(width: 828, height: 1792)), 80)
        XCTAssertEqual(guesses.guess(.webp, fullChroma: false, canvas: PixelSize(width: 1284, height: 2778)), 60)
        XCTAssertEqual(guesses.guess(.webp, fullChroma: false, canvas: PixelSize(width: 1792, height: 828)), 97)
        XCTAssertNil(guesses.guess(.avif, fullChroma: false, canvas: PixelSize(width: 1284, height: 2778)))
        XCTAssertNil(guesses.guess(.jpeg, fullChroma: false, canvas: PixelSize(width: 1284, height: 2778)))
        XCTAssertEqual(guesses.guess(.jpeg, fullChroma: true, canvas: PixelSize(width: 1, height: 2)), 50)
    }

    /// An encoding over its budget by the margin on a canvas stands for larger canvases of the
    /// same orientation under budgets no larger, and for nothing else.
    func testAnEncodingOverItsBudgetStandsForLargerCanvasesOnly() {
        let guesses = BudgetFitGuesses()
        let webp = AutoRecipe.lossy(.webp, 94)
        let portrait = PixelSize(width: 1080, height: 2400)
        guesses.recordOver(webp, sharpYUV: true, canvas: portrait, budget: 153_600, bytes: 200_000)
        guesses.recordOver(.lossless, sharpYUV: false, canvas: portrait, budget: 153_600, bytes: 160_000)
        XCTAssertTrue(guesses.wasOver(webp, sharpYUV: true, canvas: PixelSize(width: 1290, height: 2796), budget: 153_600))
        XCTAssertFalse(guesses.wasOver(webp, sharpYUV: true, canvas: PixelSize(width: 828, height: 1792), budget: 153_600))
        XCTAssertFalse(guesses.wasOver(webp, sharpYUV: true, canvas: PixelSize(width: 2796, height: 1290), budget: 153_600))
        XCTAssertFalse(guesses.wasOver(webp, sharpYUV: false, canvas: PixelSize(width: 1290, height: 2796), budget: 153_600))
        XCTAssertFalse(guesses.wasOver(webp, sharpYUV: true, canvas: PixelSize(width: 1290, height: 2796), budget: 300_000))
        XCTAssertFalse(guesses.wasOver(.lossy(.webp, 90), sharpYUV: true, canvas: PixelSize(width: 1290, height: 2796),
                                       budget: 153_600))
        // Over by less than the margin: a larger canvas may still fit.
        XCTAssertFalse(guesses.wasOver(.lossless, sharpYUV: false, canvas: PixelSize(width: 1290, height: 2796), budget: 153_600))
    }
}
