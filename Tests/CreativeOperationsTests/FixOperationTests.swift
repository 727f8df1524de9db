import CreativeCore
import CreativeImaging
import CreativeOperations
import CreativeTestSupport
import XCTest

/// ``FixOperation``, which `fix` and `POST /v1/fix` present: the fix, its charge from the header,
/// and its failures told apart (the caller's mistake, a refused creative).
final class FixOperationTests: XCTestCase {
    func testANearMissSizeIsFixedAndChargedFromItsHeader() throws {
        let upload = Upload(try TestArtwork.generate(PixelSize(width: 961, height: 150)), fileName: "banner.png")
        let operation = FixOperation(FixRequest())
        XCTAssertGreaterThan(operation.memory(upload, memoryBudget: 80 << 20), 0)
        let fixed = try operation.run(upload, limits: JobLimits())
        XCTAssertEqual(fixed.size, PixelSize(width: 960, height: 150))
        XCTAssertEqual(fixed.format, .png)
    }

    func testAFrameTheAnimationLacksIsTheCallersMistake() throws {
        let upload = Upload(try Fixtures.animatedArtworkGIF(728, 90), fileName: "animated.gif")
        XCTAssertThrowsError(try FixOperation(FixRequest(frame: 4)).run(upload, limits: JobLimits())) { error in
            guard case .invalidRequest(let message)? = error as? OperationError else { return XCTFail("\(error)") }
            XCTAssertEqual(message, FixRefusal.frameOutOfRange(given: 4, frames: 3).message)
        }
    }

    func testABundleIsRefusedWithTheUploadsReportAndChargedNothing() throws {
        let upload = Upload(Array("PK\u{3}\u{4}not really a zip".utf8), fileName: "ad.zip")
        let operation = FixOperation(FixRequest())
        XCTAssertEqual(operation.memory(upload, memoryBudget: 80 << 20), 0)
        XCTAssertThrowsError(try operation.run(upload, limits: JobLimits())) { error in
            guard case .rejected(let imaging, let report?)? = error as? OperationError else { return XCTFail("\(error)") }
            XCTAssertEqual(imaging.code, "unsupported_format")
            XCTAssertEqual(report.file, "ad.zip")
            XCTAssertFalse(report.valid)
        }
    }
}
