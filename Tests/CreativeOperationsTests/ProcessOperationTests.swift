import CreativeCore
import CreativeImaging
import CreativeOperations
import CreativeTestSupport
import XCTest

/// ``ProcessOperation``, which `process`, `POST /v1/process` and the worker present: one job,
/// its manifest last, a creative that could not be read a rejected one.
final class ProcessOperationTests: XCTestCase {
    private func png(_ width: Int, _ height: Int) throws -> [UInt8] {
        try Fixtures.save("pngsave_buffer", try Fixtures.solid(width, height, [200, 30, 30]))
    }

    func testACreativeThatCouldNotBeReadIsRejectedWithOnlyItsManifest() throws {
        let operation = ProcessOperation(limits: ValidationLimits())
        let output = try operation.run(.unreadable("gone.png: no such file"), name: "gone.png")
        XCTAssertEqual(output.result.report.errors.map(\.code), [.fileNotFound])
        XCTAssertEqual(output.files.map(\.name), [JobResult.manifestName])
        XCTAssertEqual(output.manifest, Array((output.result.manifest.serialized() + "\n").utf8))
    }

    func testBytesAndAnUploadGiveTheSameFilesTheManifestLast() throws {
        let bytes = try png(960, 150)
        let operation = ProcessOperation(limits: ValidationLimits(), settings: ProcessSettings(format: .fixed(.png)))
        let fromBytes = try operation.run(.bytes(bytes), name: "upload")
        let fromUpload = try operation.run(Upload(bytes, fileName: "upload"))
        XCTAssertTrue(fromBytes.result.report.valid)
        XCTAssertEqual(fromBytes.files.last?.name, JobResult.manifestName)
        XCTAssertTrue(fromBytes.files.map(\.name).contains("preview.png"))
        XCTAssertTrue(fromBytes.files.map(\.name).contains(PreviewPage.name))
        XCTAssertEqual(fromBytes.files.map(\.name), fromUpload.files.map(\.name))
        XCTAssertEqual(fromBytes.files.map(\.bytes), fromUpload.files.map(\.bytes))
    }

    func testAnUploadOverTheBudgetIsRejectedWithItsReport() throws {
        var limits = ValidationLimits()
        limits.job = JobLimits(memoryBudget: 1 << 20)
        XCTAssertThrowsError(try ProcessOperation(limits: limits).run(Upload(try png(2184, 270), fileName: "upload"))) { error in
            guard case .rejected(let imaging, let report?)? = error as? OperationError else { return XCTFail("\(error)") }
            XCTAssertEqual(imaging.code, "too_many_pixels")
            XCTAssertEqual(report.file, "upload")
        }
    }

    func testTheChargeIsAtLeastTheValidations() throws {
        let upload = Upload(try png(960, 150), fileName: "upload")
        XCTAssertGreaterThan(ProcessOperation.memory(upload, product: .defaultProduct), ValidateOperation.memory(upload, product: .defaultProduct))
        XCTAssertEqual(ProcessOperation.memory(Upload(try png(961, 150), fileName: "upload"), product: .defaultProduct), 0)
    }

    /// One pass per job on the single job's surfaces: the command line and the worker run
    /// ``ProcessOperation/run(_:name:writingTo:)`` on the bytes they read, the service
    /// ``ProcessOperation/run(_:)`` on the upload it opened for its charge. Each opens the
    /// creative once, validates it once and decodes a GIF once (the strict decode the renders
    /// scale from).
    func testEachSurfacesJobOpensValidatesAndDecodesTheCreativeOnce() throws {
        let gif = try Fixtures.save("gifsave_buffer", try Fixtures.solid(320, 50, [30, 90, 200]))
        let operation = ProcessOperation(limits: ValidationLimits(), settings: ProcessSettings(format: .fixed(.png)))
        func counted(_ work: () throws -> ProcessOperation.Output) throws -> DecodeLedger.Counts {
            let before = DecodeLedger.current
            XCTAssertTrue(try work().result.report.valid)
            return DecodeLedger.current.since(before)
        }
        let once = DecodeLedger.Counts(opens: 1, decodes: 1, validations: 1)
        XCTAssertEqual(try counted { try operation.run(.bytes(gif), name: "a.gif") }, once, "command line, worker")
        let upload = Upload(gif, fileName: "a.gif")
        XCTAssertEqual(try counted {
            _ = ProcessOperation.memory(upload, product: .defaultProduct)
            return try operation.run(upload)
        }, once, "service: the charge's header read is the job's")
    }
}
