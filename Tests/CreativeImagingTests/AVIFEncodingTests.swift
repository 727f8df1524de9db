import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import XCTest

/// AVIF: written only where the caller names it (`format` avif, or avif among `auto`'s
/// `formats`), within the weight budget like every format, its encoder charged; a libvips
/// without an AV1 encoder refuses it with `unsupported_format`.
final class AVIFEncodingTests: XCTestCase {
    /// The bench's kind of photograph at 2184x270, rendered opaque into `canvas`.
    private func photo(_ canvas: PixelSize) throws -> VImage {
        let art = try PreflightCorpus.photo(PixelSize(width: 2184, height: 270), seed: 11)
        let source = try ImageSource(bytes: try Fixtures.png(art))
        return try Renderer.renderImage(source, settings: try RenderSettings(canvas: canvas, background: Background.white))
            .materialized()
    }

    /// Whether this libvips writes AVIF; where it does not, asserts the refusal the caller gets
    /// instead (`unsupported_format`, saying why): the test then ends in a skip (``skipWithoutAVIF``),
    /// counted in the summary, never a silent pass.
    private func writesAVIF() throws -> Bool {
        guard !OutputFormat.avif.isWritable else { return true }
        XCTAssertThrowsError(try Encoder.encode(try photo(PixelSize(width: 320, height: 50)), EncodeRequest(format: .fixed(.avif)))) { error in
            XCTAssertEqual((error as? ImagingError)?.code, "unsupported_format", "\(error)")
            XCTAssertTrue("\(error)".contains("AVIF"), "\(error)")
        }
        return false
    }

    /// The skip of a test whose subject, AVIF encoding, this libvips lacks (its refusal was checked).
    private var skipWithoutAVIF: XCTSkip {
        XCTSkip("this libvips has no AV1 encoder: AVIF's refusal (unsupported_format) was checked, its encoding cannot be")
    }

    private func decoded(_ bytes: [UInt8]) throws -> VImage {
        try VipsOperation("heifload_buffer").with("buffer", .bytes(bytes)).image().materialized()
    }

    func testAFixedAVIFIsTheCanvasAtTheQualityAsked() throws {
        guard try writesAVIF() else { throw skipWithoutAVIF }
        let image = try photo(PixelSize(width: 960, height: 150))
        let encoded = try Encoder.encode(image, EncodeRequest(format: .fixed(.avif), weightBudget: nil))
        XCTAssertEqual(encoded.format, .avif)
        XCTAssertTrue(Fixtures.isAVIF(encoded.bytes))
        XCTAssertEqual(encoded.detail, "AVIF quality \(Encoder.defaultQuality)")
        let back = try decoded(encoded.bytes)
        XCTAssertEqual(back.size, PixelSize(width: 960, height: 150))
        XCTAssertEqual(back.bands, 3, "8-bit RGB, no alpha band on an opaque render")
        let score = try Similarity.Perceptual(image, area: nil).score(back)
        XCTAssertGreaterThan(score.luma, 0.97, "quality 85 looks like the render: \(score)")
        // Lower quality, fewer bytes.
        XCTAssertLessThan(try Encoder.encode(image, EncodeRequest(format: .fixed(.avif), quality: 40, weightBudget: nil)).bytes.count,
                          encoded.bytes.count)
    }

    func testAnAVIFFitsItsWeightBudgetOrIsRefused() throws {
        guard try writesAVIF() else { throw skipWithoutAVIF }
        let image = try photo(PixelSize(width: 960, height: 150))
        let free = try Encoder.encode(image, EncodeRequest(format: .fixed(.avif), quality: 100, weightBudget: nil))
        // 24K: AVIF near quality 60, above the quality floor (12K, quality 41, scores 0.863).
        let budget = 24 * 1024
        XCTAssertGreaterThan(free.bytes.count, budget, "the test needs a render over the budget at quality 100")
        let fitted = try Encoder.encode(image, EncodeRequest(format: .fixed(.avif), quality: 100, weightBudget: budget))
        XCTAssertTrue(Fixtures.isAVIF(fitted.bytes))
        XCTAssertLessThanOrEqual(fitted.bytes.count, budget, fitted.detail)
        let quality = try XCTUnwrap(fitted.recipe?.quality, fitted.detail)
        XCTAssertTrue(fitted.detail.hasPrefix("AVIF quality \(quality) (the best that fits the weight budget of \(budget) bytes)"),
                      fitted.detail)
        XCTAssertGreaterThan(try Encoder.lossy(image, .avif, quality: quality + 1).count, budget, "one quality more does not fit")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(fitted.ssim, fitted.detail), QualityFloor.luma, fitted.detail)
        XCTAssertThrowsError(try Encoder.encode(image, EncodeRequest(format: .fixed(.avif), weightBudget: 300))) { error in
            guard case ImagingError.overWeightBudget(let format, let smallest, let asked, _) = error else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(format, .avif)
            XCTAssertEqual(asked, 300)
            XCTAssertGreaterThan(smallest, 300)
        }
    }

    /// `auto` never writes AVIF unless named; named beside WebP, it is written where it is the
    /// smaller file that keeps the target (a photograph: about a quarter smaller).
    func testAutoWritesAVIFOnlyWhereItIsNamedAndSmaller() throws {
        guard try writesAVIF() else { throw skipWithoutAVIF }
        let image = try photo(PixelSize(width: 1170, height: 183))
        let content = PixelRect(x: 0, y: 19, width: 1170, height: 145)
        let plain = try Encoder.encode(image, EncodeRequest(format: .auto, content: content))
        XCTAssertEqual(plain.format, .webp, plain.detail)
        let both = try Encoder.encode(image, EncodeRequest(format: .auto, content: content, auto: .init(formats: [.webp, .avif])))
        XCTAssertEqual(both.format, .avif, both.detail)
        XCTAssertTrue(Fixtures.isAVIF(both.bytes))
        XCTAssertLessThan(both.bytes.count, plain.bytes.count, "\(both.detail) against \(plain.detail)")
        let score = try Similarity.Perceptual(image, area: content).score(try decoded(both.bytes))
        XCTAssertTrue(score.keeps(luma: AutoEncoder.lumaTarget, chroma: AutoEncoder.chromaTarget), "\(score)")
        XCTAssertTrue(both.detail.hasPrefix("AVIF quality "), both.detail)
        // The lowest quality that keeps the target: one step lower does not.
        let quality = try XCTUnwrap(both.recipe?.quality)
        let index = try XCTUnwrap(AutoEncoder.qualities.firstIndex(of: quality))
        if index > 0 {
            let lower = try decoded(try Encoder.lossy(image, .avif, quality: AutoEncoder.qualities[index - 1]))
            XCTAssertFalse(try Similarity.Perceptual(image, area: content).score(lower)
                .keeps(luma: AutoEncoder.lumaTarget, chroma: AutoEncoder.chromaTarget))
        }
        XCTAssertEqual(try Encoder.encode(image, EncodeRequest(format: .auto, content: content, auto: .init(formats: [.avif]))).format, .avif)
    }

    /// The charge of an AVIF render: its encoder over the canvas, more with an alpha band.
    func testAnAVIFRenderIsChargedItsEncoder() throws {
        let canvas = PixelSize(width: 2048, height: 2732)
        let pixels = canvas.width * canvas.height
        XCTAssertEqual(JobCost.output(canvas: canvas, format: .fixed(.avif), memoryBudget: 1 << 30, alpha: .none),
                       JobCost.adding(JobCost.pipeline(canvas: canvas), JobCost.avifBytes(pixels: pixels, alpha: .none)))
        // Measured 120.4 MiB opaque, 217.7 MiB with an alpha of noise, on this canvas.
        XCTAssertGreaterThan(JobCost.avifBytes(pixels: pixels, alpha: .none), 121 << 20)
        XCTAssertGreaterThan(JobCost.avifBytes(pixels: pixels, alpha: .artwork), 218 << 20)
        // A budget that cannot hold it leaves AVIF out of auto's search on a large canvas.
        let short = JobCost.avifBytes(pixels: pixels, alpha: .none) - 1
        let plan = AutoPlan(canvas: canvas, memoryBudget: short, oneOfMany: true, allowed: [.webp, .avif], alpha: .none)
        XCTAssertEqual(plan.kinds, [.webp], "WebP fits where AVIF does not")
        XCTAssertLessThanOrEqual(plan.memory, short)
        // Over AutoEncoder.avifMaxPixels AVIF is never tried, whatever the budget.
        XCTAssertFalse(AutoPlan(canvas: canvas, memoryBudget: 1 << 40, oneOfMany: true, allowed: [.webp, .avif], alpha: .none)
            .kinds.contains(.avif))
        XCTAssertEqual(AutoPlan(canvas: PixelSize(width: 1170, height: 183), memoryBudget: 1 << 30, oneOfMany: true,
                                allowed: [.webp, .avif], alpha: .bars).kinds.contains(.avif), OutputFormat.avif.isWritable)
    }

    /// An interstitial job with AVIF among auto's formats stays within the service's defaults
    /// and searches as without: AVIF only for the screens of at most a megapixel (charging it
    /// on a 2048x2732 screen left the job room for lossless PNG alone, every render over 150K).
    func testAnInterstitialJobWithAVIFIsNotLeftLosslessOnly() throws {
        let art = try Fixtures.split(1080, 1920, left: [20, 90, 200], right: [250, 180, 40])
        let source = try ImageSource(bytes: try Fixtures.jpeg(art, [("Q", .int(85))]))
        let budget = JobLimits.defaultMemoryBudget(for: .interstitial)
        let plain = ProcessPlan(source, product: .interstitial, settings: ProcessSettings(), memoryBudget: budget)
        let avif = ProcessPlan(source, product: .interstitial, settings: ProcessSettings(format: .auto, autoFormats: [.webp, .avif]), memoryBudget: budget)
        XCTAssertFalse(plain.autoLossless)
        XCTAssertFalse(avif.autoLossless, "AVIF among the formats must not leave the job lossless only")
        XCTAssertLessThanOrEqual(avif.cost.memory, budget)
        XCTAssertGreaterThanOrEqual(avif.cost.memory, plain.cost.memory)
    }
}
