import CreativeCore
@testable import CreativeImaging
import CreativeTestSupport
import XCTest

/// `fix` of a JPEG keeps the quality it came at: a near-miss JPEG is not made heavier.
final class FixQualityTests: XCTestCase {
    private func jpeg(_ image: VImage, quality: Int) throws -> [UInt8] {
        try Fixtures.save("jpegsave_buffer", image, [("Q", .int(quality))])
    }

    private func fix(_ bytes: [UInt8], _ request: FixRequest = FixRequest()) throws -> FixedUpload {
        let source = try ImageSource(bytes: bytes)
        return try Fixer.fix(source, request: request, format: .jpeg, outputName: "fixed.jpg")
    }

    func testTheQualityIsReadFromTheLuminanceTable() throws {
        let photo = try Fixtures.photograph(320, 50)
        for quality in [30, 50, 75, 80, 85, 92, 100] {
            XCTAssertEqual(JPEGQuality.estimate(try jpeg(photo, quality: quality)), quality)
        }
        XCTAssertNil(JPEGQuality.estimate(try Fixtures.png(photo)))
        XCTAssertNil(JPEGQuality.estimate([0xFF, 0xD8, 0xFF, 0xDA, 0, 2]), "no table before the scan")
    }

    func testANearMissJPEGKeepsItsQualityAndItsWeight() throws {
        let source = try jpeg(try Fixtures.photograph(961, 150), quality: 80)
        let fixed = try fix(source)
        XCTAssertEqual(fixed.size, PixelSize(width: 960, height: 150))
        XCTAssertEqual(fixed.encoding, "JPEG quality 80")
        XCTAssertEqual(JPEGQuality.estimate(fixed.bytes), 80)
        XCTAssertLessThanOrEqual(fixed.bytes.count, source.count, "\(source.count) -> \(fixed.bytes.count) bytes")
        XCTAssertEqual(fixed.changes.last?.message, "\(source.count) -> \(fixed.bytes.count) bytes: JPEG quality 80 "
                       + "(the source's quality)")
    }

    func testAJPEGAboveTheLadderIsWrittenAt92AsBefore() throws {
        let source = try jpeg(try Fixtures.photograph(961, 150), quality: 97)
        XCTAssertEqual(try fix(source).encoding, "JPEG quality 92")
    }

    func testAPNGWrittenAsJPEGStartsAt92() throws {
        let fixed = try fix(try Fixtures.png(try Fixtures.photograph(960, 150)))
        XCTAssertEqual(fixed.encoding, "JPEG quality 92")
    }

    func testTheQualitiesUnderTheSourcesAreSearchedWhenItsIsOverTheWeight() throws {
        let photo = try Fixtures.photograph(960, 150)
        let atSource = try Encoder.lossy(photo, .jpeg, quality: 80)
        let fitted = try WeightFit.best(photo, format: .jpeg, maxBytes: atSource.count - 1, highestQuality: 80)
        XCTAssertLessThan(fitted.bytes.count, atSource.count)
        let quality = try XCTUnwrap(Int(fitted.detail.split(separator: " ").last ?? ""), fitted.detail)
        XCTAssertLessThan(quality, 80)
        XCTAssertGreaterThan(try Encoder.lossy(photo, .jpeg, quality: quality + 1).count, atSource.count - 1)
        // A source quality above fix's highest is capped there.
        XCTAssertEqual(try WeightFit.best(photo, format: .jpeg, maxBytes: 1 << 30, highestQuality: 97).detail,
                       "JPEG quality \(WeightFit.highestQuality)")
    }
}
