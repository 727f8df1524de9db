import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import XCTest

/// Every render within its weight budget (``WeightBudgetSearch``): the best quality that fits in
/// the format asked, or `over_weight_budget` with the smallest size the format reaches.
final class WeightBudgetTests: XCTestCase {
    /// A 2184x270 banner of `kind` rendered into `canvas` (opaque: white bars, as JPEG needs).
    private func render(_ kind: String, _ canvas: PixelSize, fromJPEG: Bool = false) throws -> (VImage, PixelRect) {
        let size = PixelSize(width: 2184, height: 270)
        let art = kind == "photo" ? try PreflightCorpus.photo(size, seed: 11)
            : try PreflightCorpus.flat(size, seed: 1, gradient: true)
        let bytes = fromJPEG ? try Fixtures.jpeg(art, [("Q", .int(90))]) : try Fixtures.png(art)
        let source = try ImageSource(bytes: bytes)
        let settings = try RenderSettings(canvas: canvas, background: Background.white)
        return (try Renderer.renderImage(source, settings: settings).materialized(),
                settings.placement(of: source.displayedSize).contentRect)
    }

    private func decoded(_ bytes: [UInt8]) throws -> VImage { try ImageSource(bytes: bytes).header }

    func testAWebPOfAPhotographAtThreeTimes320x50FitsItsBudget() throws {
        let (image, _) = try render("photo", PixelSize(width: 960, height: 150))
        let unbounded = try Encoder.encode(image, EncodeRequest(format: .fixed(.webp), quality: 100, weightBudget: nil))
        XCTAssertGreaterThan(unbounded.bytes.count, 20 * 1024, "the test needs a render over the budget at quality 100")
        XCTAssertLessThanOrEqual(try Encoder.encode(image, EncodeRequest(format: .fixed(.webp), quality: 100, weightBudget: 40 * 1024)).bytes.count,
                                 40 * 1024)
        // 32K: WebP near quality 75, above the quality floor (this fixture's grain scores 0.889 at
        // quality 47, the 20K that fits: refused, QualityFloorTests).
        let fitted = try Encoder.encode(image, EncodeRequest(format: .fixed(.webp), quality: 100, weightBudget: 32 * 1024))
        XCTAssertEqual(fitted.format, .webp)
        XCTAssertLessThanOrEqual(fitted.bytes.count, 32 * 1024, fitted.detail)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(fitted.ssim, fitted.detail), QualityFloor.luma, fitted.detail)
        XCTAssertEqual(ImageFormat.sniff(fitted.bytes), .accepted(.webp))
        XCTAssertEqual(try decoded(fitted.bytes).size, PixelSize(width: 960, height: 150))
        // The best that fits: one quality more would not.
        let quality = try XCTUnwrap(fitted.recipe?.quality, fitted.detail)
        XCTAssertTrue(fitted.detail.hasPrefix("WebP quality \(quality) (the best that fits the weight budget of 32768 bytes)"),
                      fitted.detail)
        XCTAssertGreaterThan(try Encoder.lossy(image, .webp, quality: quality + 1).count, 32 * 1024)
    }

    func testAThirtyKilobytePNGOfAGradientAt390x61AtThreeTimes() throws {
        for fromJPEG in [false, true] {
            let (image, _) = try render("gradient", PixelSize(width: 1170, height: 183), fromJPEG: fromJPEG)
            let lossless = try Encoder.encode(image, EncodeRequest(format: .fixed(.png), weightBudget: nil))
            XCTAssertGreaterThan(lossless.bytes.count, 30 * 1024, "lossless is over the budget")
            let fitted = try Encoder.encode(image, EncodeRequest(format: .fixed(.png), weightBudget: 30 * 1024))
            XCTAssertEqual(fitted.format, .png)
            XCTAssertLessThanOrEqual(fitted.bytes.count, 30 * 1024, fitted.detail)
            // Lossless with every row Paeth-filtered when that fits, else a palette.
            if fitted.bytes[25] == 3 {
                XCTAssertTrue(fitted.detail.contains("palette of at most"), fitted.detail)
            } else {
                XCTAssertTrue(fitted.detail.contains("Paeth-filtered for the weight budget"), fitted.detail)
                XCTAssertEqual(try Similarity.Perceptual(image, area: nil).score(try decoded(fitted.bytes)).luma, 1,
                               accuracy: 1e-9)
            }
            // It still looks like the gradient: luma SSIM on white.
            let score = try Similarity.Perceptual(image, area: nil).score(try decoded(fitted.bytes))
            XCTAssertGreaterThanOrEqual(score.luma, 0.97, fitted.detail)
            // Under what lossless reaches filtered either way: a palette.
            let filtered = try Encoder.streamingPNG(image).bytes.count
            let tighter = min(filtered, lossless.bytes.count) * 2 / 3
            let palette = try Encoder.encode(image, EncodeRequest(format: .fixed(.png), weightBudget: tighter))
            XCTAssertEqual(palette.bytes[25], 3, "a palette PNG: \(palette.detail)")
            XCTAssertTrue(palette.detail.contains("palette of at most"), palette.detail)
            XCTAssertLessThanOrEqual(palette.bytes.count, tighter, palette.detail)
        }
    }

    func testASixtyKilobyteJPEGAt1366x90AtTwoTimes() throws {
        let (image, _) = try render("photo", PixelSize(width: 2732, height: 180))
        XCTAssertGreaterThan(try Encoder.lossy(image, .jpeg, quality: 95).count, 60 * 1024)
        let fitted = try Encoder.encode(image, EncodeRequest(format: .fixed(.jpeg), quality: 95, weightBudget: 60 * 1024))
        XCTAssertEqual(ImageFormat.sniff(fitted.bytes), .accepted(.jpeg))
        XCTAssertLessThanOrEqual(fitted.bytes.count, 60 * 1024, fitted.detail)
        XCTAssertEqual(try decoded(fitted.bytes).size, PixelSize(width: 2732, height: 180))
    }

    func testAnUnreachableBudgetIsRefusedWithTheSmallestSizeReached() throws {
        let (image, _) = try render("photo", PixelSize(width: 1170, height: 183))
        for format in [FormatChoice.fixed(.png), .fixed(.webp), .fixed(.jpeg), .auto] {
            XCTAssertThrowsError(try Encoder.encode(image, EncodeRequest(format: format, weightBudget: 1024)), "\(format)") { error in
                guard case .overWeightBudget(_, let smallest, let budget, _) = error as? ImagingError else {
                    return XCTFail("\(format): \(error)")
                }
                XCTAssertEqual(budget, 1024)
                XCTAssertGreaterThan(smallest, 1024, "\(format)")
                XCTAssertEqual((error as? ImagingError)?.code, "over_weight_budget")
                let message = (error as? ImagingError)?.message ?? ""
                XCTAssertTrue(message.contains("the smallest of those tried (") && message.contains(") is \(smallest) bytes"),
                              message)
            }
        }
        // The smallest said is what the lowest quality writes.
        XCTAssertThrowsError(try Encoder.encode(image, EncodeRequest(format: .fixed(.webp), weightBudget: 1024))) { error in
            guard case .overWeightBudget(_, let smallest, _, _) = error as? ImagingError else { return XCTFail("\(error)") }
            XCTAssertEqual(smallest, (try? Encoder.lossy(image, .webp, quality: WeightBudgetSearch.lowestQuality).count) ?? 0)
        }
    }

    /// The issue's targets for `auto` at the default budget: at most 150K, at most 0.35x the
    /// lossless PNG for photographs and gradients, luma SSIM on white at least 0.97, at 390x61@3x.
    /// (At 960x150 this fixture's 1-pixel grain, stronger than a camera's, keeps no lossy WebP
    /// at the luma target: it is near-lossless at 0.48x, docs/performance.md.)
    func testAutoAtTheDefaultBudgetIsLightAndLooksTheSame() throws {
        let canvases = [PixelSize(width: 1170, height: 183)]
        for kind in ["photo", "gradient"] {
            for fromJPEG in [false, true] {
                for canvas in canvases where (canvas.pixelCount ?? 0) <= AutoEncoder.searchMaxPixels {
                    let (image, content) = try render(kind, canvas, fromJPEG: fromJPEG)
                    let lossless = try Encoder.encode(image, EncodeRequest(format: .fixed(.png), weightBudget: nil))
                    let auto = try Encoder.encode(image, EncodeRequest(format: .auto, content: content, weightBudget: RenderSettings.defaultWeightBudget))
                    let name = "\(kind)\(fromJPEG ? " from JPEG" : "") at \(canvas): \(auto.detail)"
                    XCTAssertLessThanOrEqual(auto.bytes.count, 153_600, name)
                    XCTAssertLessThanOrEqual(Double(auto.bytes.count), 0.35 * Double(lossless.bytes.count),
                                             "\(name): \(auto.bytes.count) against \(lossless.bytes.count)")
                    let score = try Similarity.Perceptual(image, area: nil).score(try decoded(auto.bytes))
                    XCTAssertGreaterThanOrEqual(score.luma, 0.97, name)
                }
            }
        }
    }

    /// Art of at most 256 colours stays exact (where ringing would show): lossless, no lossy tried.
    func testFewColoursStayLossless() throws {
        let flat = try Fixtures.split(320, 160, left: [20, 90, 200], right: [250, 250, 250])
        let settings = try RenderSettings(canvas: PixelSize(width: 400, height: 100), background: Background.white)
        let image = try Renderer.renderImage(decoded: try flat.materialized(), settings: settings)
        let auto = try Encoder.encode(image, EncodeRequest(format: .auto))
        XCTAssertEqual(auto.recipe, .lossless, auto.detail)
    }

    /// The search starts where an earlier render's ended, and finds the same answer.
    func testASearchFromAnEarlierQualityFindsTheSameAnswer() throws {
        let (image, content) = try render("photo", PixelSize(width: 1170, height: 183))
        let cold = try Encoder.encode(image, EncodeRequest(format: .auto, content: content, weightBudget: nil))
        for start in [40, 88, 97] {
            let warm = try Encoder.encode(image, EncodeRequest(format: .auto, content: content, weightBudget: nil, auto: .init(startQuality: start)))
            XCTAssertEqual(warm.recipe, cold.recipe, "from \(start): \(warm.detail) against \(cold.detail)")
        }
    }

    func testTheScoreIsLumaAndHalfResolutionChroma() throws {
        let (image, _) = try render("gradient", PixelSize(width: 400, height: 100))
        let reference = try Similarity.Perceptual(image, area: nil)
        let same = try reference.score(image)
        XCTAssertEqual(same.luma, 1, accuracy: 1e-6)
        XCTAssertEqual(same.chroma, 1, accuracy: 1e-6)
        // A grey copy keeps luma (nearly) and loses all chroma.
        let grey = try VipsOperation("colourspace").with("in", .image(image)).with("space", .enumeration("b-w")).image()
        let greyRGB = try VipsOperation("colourspace").with("in", .image(grey)).with("space", .enumeration("srgb")).image()
        let score = try reference.score(try VipsOperation("cast").with("in", .image(greyRGB)).with("format", .enumeration("uchar")).image())
        XCTAssertLessThan(score.chroma, 0.9, score.description)
        XCTAssertGreaterThan(score.luma, score.chroma, score.description)
    }
}
