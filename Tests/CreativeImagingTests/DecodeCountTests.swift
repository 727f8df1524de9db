import CreativeCore
import CreativeTestSupport
import XCTest
@testable import CreativeImaging

/// One pass per job: every job opens its upload once, validates it once and decodes its pixels
/// once, except where a check needs a pass of its own (a PNG's strict check is libpng's; its
/// renders decode through libvips). Counted by ``DecodeLedger``.
final class DecodeCountTests: XCTestCase {
    /// The counts `work` adds.
    private func counted(_ work: () throws -> Void) rethrows -> DecodeLedger.Counts {
        let before = DecodeLedger.current
        try work()
        return DecodeLedger.current.since(before)
    }

    private func banner(_ encode: (VImage) throws -> [UInt8]) throws -> [UInt8] {
        try encode(try Fixtures.noise(960, 150))
    }

    func testValidatingAJPEGDecodesItOnceForTheStrictCheckAndThePreflight() throws {
        let jpeg = try banner { try Fixtures.jpeg($0) }
        var report: ValidationReport?
        let counts = counted { report = Validator.validate(jpeg, fileName: "a.jpg") }
        XCTAssertEqual(report?.valid, true)
        XCTAssertEqual(report?.decoded, true)
        XCTAssertEqual(counts, DecodeLedger.Counts(opens: 1, decodes: 1, validations: 1))
    }

    func testProcessingAJPEGDecodesItOnce() throws {
        let jpeg = try banner { try Fixtures.jpeg($0) }
        var result: JobResult?
        let counts = try counted { result = try CreativeJob.process(jpeg, fileName: "a.jpg", settings: ProcessSettings(format: .fixed(.png))) }
        XCTAssertEqual(result?.report.valid, true)
        XCTAssertGreaterThanOrEqual(result?.files.count ?? 0, 4, "renders and the preview sheet")
        XCTAssertEqual(counts, DecodeLedger.Counts(opens: 1, decodes: 1, validations: 1))
    }

    func testProcessingAWebPAndAGIFDecodesThemOnce() throws {
        for bytes in [try banner { try Fixtures.webp($0) }, try banner { try Fixtures.gif($0) }] {
            var result: JobResult?
            let counts = try counted { result = try CreativeJob.process(bytes, fileName: "a", settings: ProcessSettings(format: .fixed(.png))) }
            XCTAssertEqual(result?.report.valid, true)
            XCTAssertEqual(counts, DecodeLedger.Counts(opens: 1, decodes: 1, validations: 1))
        }
    }

    func testRenderingAJPEGDecodesItOnceStrictlyAndScalesFromThosePixels() throws {
        let jpeg = try banner { try Fixtures.jpeg($0) }
        let source = try ImageSource(bytes: jpeg)
        let settings = try RenderSettings(slot: PixelSize(width: 320, height: 50), scale: 3, format: .fixed(.png))
        let counts = try counted { _ = try Renderer.render(source, settings: settings) }
        XCTAssertEqual(counts, DecodeLedger.Counts(opens: 0, decodes: 1))
        XCTAssertNotNil(source.keptPixels, "the strict decode's pixels are what the render scaled")
    }

    func testAPNGIsCheckedByLibpngAndRenderedInOnePassOfLibvips() throws {
        let png = try banner { try Fixtures.png($0) }
        var report: ValidationReport?
        let validated = counted { report = Validator.validate(png, fileName: "a.png") }
        XCTAssertEqual(report?.valid, true)
        // libpng's strict read keeps the rows the pre-flight checks read.
        XCTAssertEqual(validated, DecodeLedger.Counts(opens: 1, decodes: 1, validations: 1))
        let processed = try counted { _ = try CreativeJob.process(png, fileName: "a.png", settings: ProcessSettings(format: .fixed(.png))) }
        XCTAssertEqual(processed, DecodeLedger.Counts(opens: 1, decodes: 2, validations: 1))
    }

    func testAnUploadIsOpenedOnceForItsReservationItsValidationAndItsRejection() throws {
        let jpeg = try banner { try Fixtures.jpeg($0) }
        let upload = Upload(jpeg, fileName: "a.jpg")
        let counts = counted {
            _ = upload.source()
            _ = Validator.validate(upload)
            _ = upload.source()
        }
        XCTAssertEqual(counts, DecodeLedger.Counts(opens: 1, decodes: 1, validations: 1))
        XCTAssertEqual(upload.report?.valid, true, "the report is kept for a rejection to reuse")
    }

    func testAJPEGTooBigForTheStrictDecodeStillRendersWithShrinkOnLoad() throws {
        let jpeg = try Fixtures.jpeg(try Fixtures.noise(2000, 1500))
        let source = try ImageSource(bytes: jpeg, maxPixels: 4_000_000)
        let settings = try RenderSettings(slot: PixelSize(width: 100, height: 75), scale: 1, format: .fixed(.png))
        let budget = 24 << 20
        XCTAssertFalse(JobCost.renderPlan(source, settings: settings, memoryBudget: budget).strictFirst)
        let counts = try counted {
            _ = try Renderer.render(source, settings: settings, limits: JobLimits(memoryBudget: budget))
        }
        // Shrink-on-load, then no strict decode: it would not fit beside the render.
        XCTAssertEqual(counts.decodes, 1)
        XCTAssertNil(source.keptPixels)
    }
}
