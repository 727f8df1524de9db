import CreativeCore
import CreativeImaging
import CreativeOperations
import CreativeTestSupport
import XCTest

/// The reports of ``ValidateOperation``, which `validate`, `process`, `POST /v1/validate` and the
/// worker present: a creative that could not be read whole is a report too, with its code.
final class ValidateOperationTests: XCTestCase {
    func testAFolderAndAMissingFileAreReportsThatSayWhatToGive() {
        let limits = ValidationLimits(product: .interstitial)
        let folder = ValidateOperation.report(.notAFile("art: is a folder, not a file"), name: "art", limits: limits)
        XCTAssertEqual(folder.file, "art")
        XCTAssertEqual(folder.product, .interstitial)
        XCTAssertEqual(folder.errors.map(\.code), [.notAFile])
        XCTAssertEqual(folder.errors.map(\.message),
                       ["art: is a folder, not a file; give a regular file, or '-' and the bytes on standard input"])
        XCTAssertNil(folder.bytes)
        let missing = ValidateOperation.report(.unreadable("gone.png: no such file"), name: "gone.png", limits: limits)
        XCTAssertEqual(missing.errors.map(\.code), [.fileNotFound])
        XCTAssertEqual(missing.errors.map(\.message), ["gone.png: no such file; check the path"])
    }

    func testAnInputOverTheLimitIsReportedFromItsHeadWithItsWholeSize() throws {
        let png = try Fixtures.save("pngsave_buffer", try Fixtures.solid(960, 150, [200, 30, 30]))
        let limits = ValidationLimits(maxBytes: 64)
        let report = ValidateOperation.report(.tooLarge(size: 5_000_000, head: Array(png.prefix(64))), name: "big.png",
                                              limits: limits)
        XCTAssertEqual(report.bytes, 5_000_000)
        XCTAssertEqual(report.errors.first?.code, .fileTooLarge)
        XCTAssertEqual(report.format, .png)
        XCTAssertEqual(report.dimensions, PixelSize(width: 960, height: 150))
        XCTAssertFalse(report.decoded)
    }

    func testBytesAndAnUploadOfThemGiveTheSameReport() throws {
        let png = try Fixtures.save("pngsave_buffer", try Fixtures.solid(961, 150, [200, 30, 30]))
        let fromBytes = ValidateOperation.report(.bytes(png), name: "upload", limits: ValidationLimits())
        let fromUpload = ValidateOperation.report(Upload(png, fileName: "upload"), limits: ValidationLimits())
        XCTAssertEqual(fromBytes.json.serialized(), fromUpload.json.serialized())
        XCTAssertEqual(fromBytes.errors.map(\.code), [.dimensionsNotAllowed])
    }

    func testTheLimitsAreTheRequestsAndProfilesOnlyWhenChecked() throws {
        let request = try ValidateRequest(TestOptions(["product": "interstitial", "profile": "iab-lean", "preflight": "false"]))
        let checked = ValidateOperation.limits(request, maxBytes: 1000, maxPixels: 2000, job: JobLimits())
        XCTAssertEqual(checked.product, .interstitial)
        XCTAssertEqual(checked.maxBytes, 1000)
        XCTAssertEqual(checked.maxPixels, 2000)
        XCTAssertFalse(checked.preflight)
        XCTAssertEqual(checked.profiles.map(\.name), ["iab-lean"])
        let unchecked = ValidateOperation.limits(request, job: JobLimits(), checkingProfiles: false)
        XCTAssertEqual(unchecked.profiles.map(\.name), [])
        XCTAssertEqual(unchecked.maxBytes, Catalog.defaultMaxBytes)
    }

    func testTheChargeIsTheStrictDecodesForAnAcceptedSizeAndNothingElse() throws {
        let accepted = Upload(try Fixtures.save("pngsave_buffer", try Fixtures.solid(960, 150, [1, 2, 3])), fileName: "a")
        let source = try accepted.source().get()
        XCTAssertEqual(ValidateOperation.memory(accepted), JobCost.validate(source).memory)
        let refused = Upload(try Fixtures.save("pngsave_buffer", try Fixtures.solid(961, 150, [1, 2, 3])), fileName: "b")
        XCTAssertEqual(ValidateOperation.memory(refused), 0)
        XCTAssertEqual(ValidateOperation.memory(Upload([], fileName: "c")), 0)
        XCTAssertEqual(ValidateOperation.memory(Upload(Array("not an image".utf8), fileName: "d")), 0)
    }
}

/// Options given by name, as a query gives them.
struct TestOptions: OptionSource {
    let values: [String: String]
    init(_ values: [String: String]) { self.values = values }
    func given(_ option: OptionDeclaration) -> String? { values[option.name] }
    func every(_ option: OptionDeclaration) -> [String] { given(option).map { [$0] } ?? [] }
    func spelling(_ option: OptionDeclaration) -> String { option.name }
}
