import CreativeCore
import CreativeImaging
import CreativeOperations
import CreativeTestSupport
import XCTest

/// ``RenderOperation``, which `render` and `POST /v1/render` present: the artwork rule, the test
/// artwork standing in for no bytes, the notes, and what a failure carries.
final class RenderOperationTests: XCTestCase {
    private func request(_ values: [String: String]) throws -> RenderRequest { try RenderRequest(TestOptions(values)) }

    private func png(_ width: Int, _ height: Int) throws -> [UInt8] {
        try Fixtures.save("pngsave_buffer", try Fixtures.solid(width, height, [200, 30, 30]))
    }

    /// The failure of rendering the first half of `whole` (a damaged upload): its error and report.
    private func rejection(_ asked: RenderRequest, of whole: [UInt8]) throws -> (ImagingError, ValidationReport) {
        let damaged = Array(whole.prefix(whole.count / 2))
        let upload = try RenderOperation(asked, input: .upload(Upload(damaged, fileName: "upload")))
        let outcome = upload.run(upload.open(), limits: JobLimits())
        guard case .failure(.rejected(let error, let report?)) = outcome else { throw NotRejected(outcome: "\(outcome)") }
        return (error, report)
    }

    /// A damaged upload that rendered, or failed without its report: the test fails with what it got.
    private struct NotRejected: Error { let outcome: String }

    func testAFullScreenWithoutArtworkIsRefusedBeforeAnyWork() throws {
        let takeover = try request(["product": "interstitial", "device": "iPhone 15"])
        for input: RenderOperation.Input in [.none, .upload(Upload([], fileName: "upload"))] {
            XCTAssertThrowsError(try RenderOperation(takeover, input: input)) { error in
                guard case .needsArtwork(.interstitial)? = error as? OperationError else { return XCTFail("\(error)") }
            }
        }
        XCTAssertNoThrow(try RenderOperation(try request(["slot": "390x61@3x"]), input: .none))
    }

    func testNoBytesRenderTheTestArtworkPickedForTheCanvasWithoutNotes() throws {
        let banner = try request(["slot": "390x61@3x"])
        let empty = try RenderOperation(banner, input: .upload(Upload([], fileName: "upload")))
        let none = try RenderOperation(banner, input: .none)
        let artwork = try empty.open().get()
        XCTAssertTrue(artwork.isTestArtwork)
        XCTAssertEqual(artwork.source.displayedSize, try TestArtwork.source(for: banner.settings.canvas).displayedSize)
        let fromEmpty = try empty.run(empty.open(), limits: JobLimits()).get()
        let fromNone = try none.run(none.open(), limits: JobLimits()).get()
        XCTAssertEqual(fromEmpty.encoded.bytes, fromNone.encoded.bytes)
        XCTAssertEqual(fromEmpty.notes, [])
        XCTAssertEqual(fromEmpty.placement, banner.settings.placement(of: artwork.source.displayedSize))
    }

    func testAnUploadOfASizeValidateRejectsRendersWithItsNote() throws {
        let banner = try request(["slot": "390x61@3x"])
        let operation = try RenderOperation(banner, input: .upload(Upload(try png(961, 150), fileName: "upload")))
        let opened = operation.open()
        let rendered = try operation.run(opened, limits: JobLimits()).get()
        XCTAssertEqual(rendered.artwork, PixelSize(width: 961, height: 150))
        XCTAssertEqual(rendered.notes, try opened.get().notes)
        XCTAssertEqual(rendered.notes.count, 1)
        XCTAssertTrue(rendered.notes[0].contains("dimensions_not_allowed"), rendered.notes[0])
        XCTAssertEqual(operation.cost(try opened.get(), memoryBudget: 80 << 20).memory,
                       JobCost.render(try opened.get().source, settings: banner.settings, memoryBudget: 80 << 20).memory)
    }

    func testARejectedUploadCarriesItsReportAndOpenedArtworkNone() throws {
        let banner = try request(["slot": "390x61@3x"])
        let whole = try png(960, 150)
        let (error, report) = try rejection(banner, of: whole)
        XCTAssertEqual(error.code, "corrupt_image")
        XCTAssertFalse(report.valid)
        // Artwork the caller opened carries no bytes to report on: a render over the budget.
        let opened = try RenderOperation(banner, input: .opened(try ImageSource(bytes: whole)))
        guard case .failure(.rejected(let same, nil)) = opened.run(opened.open(), limits: JobLimits(memoryBudget: 1024)) else {
            return XCTFail("opened artwork fails with a report, or renders")
        }
        XCTAssertEqual(same.code, "too_many_pixels")
    }

    /// A damaged upload of another product is reported against that product's sizes, not the
    /// banner's: an interstitial's 1080x1920 is named corrupt, never `dimensions_not_allowed`.
    func testARejectedUploadIsReportedAgainstItsRequestsProduct() throws {
        let screen = try request(["product": "interstitial", "device": "iPhone 15"])
        let (error, report) = try rejection(screen, of: try png(1080, 1920))
        XCTAssertEqual(error.code, "corrupt_image")
        XCTAssertEqual(report.product, .interstitial)
        XCTAssertEqual(report.errors.map(\.code.rawValue), ["corrupt_image"], "\(report.errors)")
    }
}
