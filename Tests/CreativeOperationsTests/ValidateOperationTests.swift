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
        XCTAssertEqual(ValidateOperation.memory(accepted, product: .defaultProduct), JobCost.validate(source).memory)
        let refused = Upload(try Fixtures.save("pngsave_buffer", try Fixtures.solid(961, 150, [1, 2, 3])), fileName: "b")
        XCTAssertEqual(ValidateOperation.memory(refused, product: .defaultProduct), 0)
        XCTAssertEqual(ValidateOperation.memory(Upload([], fileName: "c"), product: .defaultProduct), 0)
        XCTAssertEqual(ValidateOperation.memory(Upload(Array("not an image".utf8), fileName: "d"), product: .defaultProduct), 0)
    }

    /// A bundle's job renders its static version: `process` is charged that render's plan (more
    /// than the bundle check's budget), as for the static image uploaded alone; its validation
    /// only the check's. A static version the product refuses, or none, is charged the check.
    func testABundlesJobIsChargedItsStaticImagesRenders() throws {
        let still = try BundleCorpus.png(960, 150)
        let bundle = Upload(try BundleCorpus.clean(staticImage: still).bytes(), fileName: "ad.zip")
        let alone = ProcessOperation.memory(Upload(still, fileName: "static.png"), product: .defaultProduct)
        XCTAssertGreaterThan(alone, JobCost.bundleCheck)
        XCTAssertEqual(ProcessOperation.memory(bundle, product: .defaultProduct), alone)
        XCTAssertEqual(ValidateOperation.memory(bundle, product: .defaultProduct), JobCost.bundleCheck)
        // The job (valid) renders the static version the charge was made for.
        XCTAssertEqual(Validator.validate(bundle).valid, true)
        let odd = Upload(try BundleCorpus.clean(staticImage: try BundleCorpus.png(961, 150)).bytes(), fileName: "ad.zip")
        XCTAssertEqual(ProcessOperation.memory(odd, product: .defaultProduct), JobCost.bundleCheck)
        let none = Upload(try BundleCorpus.clean(staticName: nil).bytes(), fileName: "ad.zip")
        XCTAssertEqual(ProcessOperation.memory(none, product: .defaultProduct), JobCost.bundleCheck)
        let backup = Upload(try BundleCorpus.clean(staticImage: still, staticName: "backup.png").bytes(), fileName: "ad.zip")
        XCTAssertEqual(ProcessOperation.memory(backup, product: .defaultProduct), alone)
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
