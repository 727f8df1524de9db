import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import XCTest

/// "Hostile input, part 4", items 2 and 3, judged from the SOS markers before decoding: a
/// baseline JPEG that codes each component in its own scan holds the whole image's
/// coefficients like a progressive one, and a JPEG decoded scan by scan is charged for the
/// coefficients its scans cover, not only counted.
final class JPEGScanCostTests: XCTestCase {
    private let slot = PixelSize(width: 320, height: 50)

    private func renderCost(_ bytes: [UInt8]) throws -> JobCost {
        JobCost.render(try ImageSource(bytes: bytes), settings: try RenderSettings(canvas: slot))
    }

    func testABaselineScanPerComponentDecodesAndIsChargedForItsCoefficients() throws {
        let jpeg = Fixtures.baselineScanPerComponent(width: 320, height: 50, components: 3)
        let walk = JPEGWalk(jpeg)
        XCTAssertEqual(walk.scans, 3)
        XCTAssertTrue(walk.scanLacksAComponent)
        XCTAssertFalse(HeaderProbe.isProgressiveJPEG(jpeg))
        XCTAssertTrue(HeaderProbe.jpegHoldsCoefficients(jpeg))
        let source = try ImageSource(bytes: jpeg)
        XCTAssertEqual(source.decodeMemory(content: slot), 320 * 50 * 3 * 2)
        // A real file: it decodes, flat mid grey, and renders.
        XCTAssertTrue(Validator.validate(jpeg, fileName: "b.jpg").valid, Validator.validate(jpeg, fileName: "b.jpg").summary)
        let render = try Renderer.render(source, settings: try RenderSettings(canvas: slot, format: .fixed(.png)), limits: JobLimits())
        XCTAssertEqual(try Fixtures.decode(render.bytes).size, slot)
        // The same image interleaved (libvips' baseline) holds no coefficients.
        let interleaved = try Fixtures.jpeg(try Fixtures.solid(320, 50, [128, 128, 128]))
        XCTAssertFalse(JPEGWalk(interleaved).scanLacksAComponent)
        XCTAssertEqual(try ImageSource(bytes: interleaved).decodeMemory(content: slot), 0)
    }

    func testA7070SquareCMYKBaselineScanPerComponentIsRefusedUndecoded() throws {
        let jpeg = Fixtures.baselineScanPerComponent(width: 7070, height: 7070, components: 4)
        XCTAssertLessThan(jpeg.count, 800_000)
        let cost = try renderCost(jpeg)
        // Every coefficient of the whole image: 7070 x 7070 x 4 x 2 bytes, 381 MiB (it was charged 24 MiB).
        XCTAssertGreaterThanOrEqual(cost.decode, 7070 * 7070 * 4 * 2)
        XCTAssertThrowsError(try JobLimits().charge(cost)) { XCTAssertEqual(($0 as? ImagingError)?.code, "too_many_pixels") }
        XCTAssertThrowsError(try Renderer.render(try ImageSource(bytes: jpeg), settings: try RenderSettings(canvas: slot),
                                                 limits: JobLimits())) {
            XCTAssertEqual(($0 as? ImagingError)?.code, "too_many_pixels", "\($0)")
        }
    }

    func testScansAreChargedByTheCoefficientsTheyCover() throws {
        // 499 scans (under the count of 500) of a 5600x5600 grey progressive JPEG: 15.6 billion
        // coefficients covered, 5.8 s of CPU that no deadline stops. Charged, it is refused.
        let progressive = try Fixtures.jpeg(try Fixtures.grey(try Fixtures.noise(64, 64)), [("interlace", .bool(true))])
        let bomb = Fixtures.withScans(499, jpeg: Fixtures.claiming(PixelSize(width: 5600, height: 5600), jpeg: progressive))
        let walk = JPEGWalk(bomb)
        XCTAssertEqual(walk.scans, 499)
        XCTAssertEqual(walk.scanCoefficients, 499 * 5600 * 5600)
        let source = try ImageSource(bytes: bomb)
        XCTAssertEqual(source.scanDecodeCharge, 499 * 5600 * 5600 / 16)
        let cost = try renderCost(bomb)
        XCTAssertGreaterThan(cost.decodedSamples, JobLimits.defaultMaxDecodedBytes)
        XCTAssertThrowsError(try Renderer.render(source, settings: try RenderSettings(canvas: slot), limits: JobLimits())) {
            XCTAssertEqual(($0 as? ImagingError)?.code, "too_many_pixels", "\($0)")
        }
        // A camera-like progressive JPEG (libjpeg's 10-scan script on a 12 MP colour image) fits.
        let camera = Fixtures.claiming(PixelSize(width: 4000, height: 3000),
                                       jpeg: try Fixtures.jpeg(try Fixtures.noise(64, 64), [("interlace", .bool(true))]))
        XCTAssertLessThanOrEqual(JPEGWalk(camera).scans, 12)
        XCTAssertNoThrow(try JobLimits().charge(try renderCost(camera)))
        XCTAssertLessThan(try ImageSource(bytes: camera).scanDecodeCharge, 12 << 20)
    }
}
