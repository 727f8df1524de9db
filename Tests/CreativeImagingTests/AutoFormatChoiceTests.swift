import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import XCTest

/// `auto` narrowed to some formats (a render written under a name the caller gave): only those
/// formats' candidates are tried, and the answer is always one of them.
final class AutoFormatChoiceTests: XCTestCase {
    /// A photographic render (auto picks a lossy format) and a flat one (auto picks PNG), opaque.
    private func renders() throws -> [(name: String, image: VImage)] {
        let settings = try RenderSettings(canvas: PixelSize(width: 320, height: 160), background: Background.white)
        let photo = try PreflightCorpus.photo(PixelSize(width: 320, height: 160), seed: 3)
        let flat = try Fixtures.split(320, 160, left: [20, 90, 200], right: [250, 250, 250])
        return [("photo", try Renderer.renderImage(decoded: try photo.materialized(), settings: settings)),
                ("flat", try Renderer.renderImage(decoded: try flat.materialized(), settings: settings))]
    }

    /// Every output format this libvips writes (AVIF only with an AV1 encoder: AVIFEncodingTests
    /// checks the refusal without one).
    private var writable: [OutputFormat] { OutputFormat.allCases.filter { $0 != .avif || OutputFormat.avif.isWritable } }

    private func sniffed(_ bytes: [UInt8]) -> OutputFormat? {
        if Fixtures.isAVIF(bytes) { return .avif }
        return switch ImageFormat.sniff(bytes) {
        case .accepted(.png): .png
        case .accepted(.jpeg): .jpeg
        case .accepted(.webp): .webp
        default: nil
        }
    }

    func testEachNamedFormatIsTheOnlyAnswer() throws {
        for (name, image) in try renders() {
            let free = try Encoder.encode(image, EncodeRequest(format: .auto))
            for only in writable {
                let encoded = try Encoder.encode(image, EncodeRequest(format: .auto, auto: .init(formats: [only])))
                XCTAssertEqual(encoded.format, only, "\(name): \(encoded.detail)")
                XCTAssertEqual(sniffed(encoded.bytes), only, name)
                XCTAssertTrue(encoded.detail.contains("auto"), encoded.detail)
                // Narrowed to what the free choice picked, the answer is the same file.
                if only == free.format { XCTAssertEqual(encoded.bytes, free.bytes, name) }
            }
        }
    }

    func testPNGOnlyIsLosslessOrPaletteAndTooLargeRendersStayInTheFormat() throws {
        let photo = try XCTUnwrap(try renders().first).image
        let png = try Encoder.encode(photo, EncodeRequest(format: .auto, auto: .init(formats: [.png])))
        XCTAssertTrue(png.recipe == .lossless || png.recipe == .flatPalette, "\(png.detail)")
        // Over the budget the render is not held: written in the named format, not as a PNG.
        for only in [OutputFormat.webp, .jpeg] {
            let streamed = try Encoder.encode(photo, EncodeRequest(format: .auto, memoryBudget: 1000, auto: .init(formats: [only])))
            XCTAssertEqual(sniffed(streamed.bytes), only, streamed.detail)
        }
        XCTAssertEqual(sniffed(try Encoder.encode(photo, EncodeRequest(format: .auto, memoryBudget: 1000, auto: .init(formats: [.png]))).bytes), .png)
    }

    /// A canvas over the search's size decides on a smaller render (``AutoPlan``): narrowed,
    /// that decision stays within the named format too.
    func testLargeCanvasesDecideOnASampleWithinTheNamedFormat() throws {
        let photo = try PreflightCorpus.photo(PixelSize(width: 600, height: 200), seed: 5)
        let source = try ImageSource(bytes: try Fixtures.png(photo))
        for only in writable {
            var settings = try RenderSettings(canvas: PixelSize(width: 1200, height: 400), format: .auto,
                                              background: Background.white)
            settings.autoFormats = [only]
            // This grain's palettes are under the quality floor at 150K: lossless PNG is given room.
            if only == .png { settings.weightBudget = 1 << 20 }
            let encoded = try Renderer.render(source, settings: settings)
            XCTAssertEqual(encoded.format, only, encoded.detail)
            XCTAssertEqual(sniffed(encoded.bytes), only, encoded.detail)
        }
    }

    func testThePlanTriesAndChargesOnlyTheNamedFormat() {
        let canvas = PixelSize(width: 1170, height: 183)
        for only in writable {
            let plan = AutoPlan(canvas: canvas, memoryBudget: 1 << 30, oneOfMany: false, allowed: [only], alpha: .bars)
            XCTAssertFalse(plan.kinds.isEmpty, "\(only)")
            XCTAssertTrue(plan.kinds.allSatisfy { $0.format == only }, "\(only): \(plan.kinds)")
        }
        // No search fits: without PNG, the allowed lossy encoder over the canvas is what is charged.
        let tight = AutoPlan(canvas: canvas, memoryBudget: 1 << 20, oneOfMany: false, allowed: [.webp], alpha: .bars)
        XCTAssertTrue(tight.losslessOnly)
        XCTAssertEqual(tight.memory, JobCost.encoderBytes(.webp, pixels: canvas.width * canvas.height))
        XCTAssertEqual(AutoPlan(canvas: canvas, memoryBudget: 1 << 30, oneOfMany: false, alpha: .bars),
                       AutoPlan(canvas: canvas, memoryBudget: 1 << 30, oneOfMany: false, allowed: OutputFormat.autoDefault,
                                alpha: .bars))
    }

    /// AVIF only where it is named, charged for its encoder on the search's pixels (a skip where
    /// this libvips has no AV1 encoder: the plan then leaves AVIF out, checked first).
    func testAVIFIsTriedOnlyWhereNamedAndChargedForItsEncoder() throws {
        let canvas = PixelSize(width: 1170, height: 183)
        XCTAssertFalse(OutputFormat.autoDefault.contains(.avif))
        let withAVIF = AutoPlan(canvas: canvas, memoryBudget: 1 << 30, oneOfMany: false, allowed: Set(OutputFormat.allCases),
                                alpha: .bars)
        XCTAssertEqual(withAVIF.kinds.subtracting(AutoPlan(canvas: canvas, memoryBudget: 1 << 30, oneOfMany: false,
                                                           alpha: .bars).kinds), OutputFormat.avif.isWritable ? [.avif] : [])
        guard OutputFormat.avif.isWritable else { throw XCTSkip("this libvips has no AV1 encoder: AVIF's charge on the search cannot be checked") }
        XCTAssertGreaterThanOrEqual(withAVIF.memory, JobCost.adding(JobCost.autoSearchBytes(pixels: canvas.width * canvas.height),
                                                                    JobCost.avifBytes(pixels: canvas.width * canvas.height,
                                                                                      alpha: .bars)))
    }
}
