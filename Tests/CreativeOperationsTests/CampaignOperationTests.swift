import CreativeCore
import CreativeImaging
import CreativeOperations
import CreativeTestSupport
import XCTest

/// ``CampaignOperation``, which a campaign on the command line, `POST /v1/campaign` and a
/// worker's campaign job present: validated first, each valid creative run among the
/// campaign's sizes, a stopped creative stopping the rest, the sheet and `campaign.json`.
final class CampaignOperationTests: XCTestCase {
    private func png(_ width: Int, _ height: Int) throws -> [UInt8] {
        try Fixtures.save("pngsave_buffer", try Fixtures.solid(width, height, [200, 30, 30]))
    }

    private func creatives() throws -> (files: [String], inputs: [CreativeInput]) {
        (["a/banner.png", "b/banner.png", "odd.png"], [.bytes(try png(320, 50)), .bytes(try png(728, 90)),
                                                      .bytes(try png(321, 50))])
    }

    func testTheCampaignIsItsValidCreativesSizesThenWithsAndEachFolderIsUnique() throws {
        let (files, inputs) = try creatives()
        let operation = CampaignOperation(limits: ValidationLimits(), format: .png, with: [PixelSize(width: 960, height: 150)])
        let approval = operation.approve(files) { inputs[$0] }
        XCTAssertEqual(approval.reports.map(\.valid), [true, true, false])
        XCTAssertEqual(approval.reports[2].errors.map(\.code), [.dimensionsNotAllowed])
        XCTAssertEqual(approval.sizes.map(\.description), ["320x50", "728x90", "960x150"])
        XCTAssertEqual(approval.names, ["banner", "banner-2", "odd"])
    }

    func testEachValidCreativeIsRenderedAmongTheCampaignAndCampaignJSONNamesWhoIsServed() throws {
        let (files, inputs) = try creatives()
        let operation = CampaignOperation(limits: ValidationLimits(), format: .png)
        let approval = operation.approve(files) { inputs[$0] }
        var kept: [Int] = [], heard: [String] = []
        let outcome = operation.run(approval, input: { inputs[$0] }, sink: { _, _ in nil },
                                    keep: { index, output in
            kept.append(index)
            XCTAssertEqual(output.files.last?.name, JobResult.manifestName)
        }, done: { heard.append($0.name) })
        XCTAssertNil(outcome.stopped)
        XCTAssertEqual(kept, [0, 1, 2], "a rejected creative's manifest is kept too")
        XCTAssertEqual(heard, ["banner", "banner-2", "odd"])
        XCTAssertEqual(outcome.rendered, 2)
        let sheet = try XCTUnwrap(try operation.sheet(outcome) { if case .bytes(let bytes) = inputs[$0] { bytes } else { nil } })
        XCTAssertEqual(sheet.name, "campaign.png")
        guard case .object(let fields) = operation.json(outcome, sheet: sheet),
              case .array(let slots)? = fields.first(where: { $0.0 == "slots" })?.1 else { return XCTFail("no slots") }
        var served: Set<String> = []
        for case .object(let slot) in slots {
            if case .string(let creative)? = slot.first(where: { $0.0 == "creative" })?.1 { served.insert(creative) }
        }
        XCTAssertEqual(served, ["banner", "banner-2"], "each valid creative wins somewhere; the rejected one nowhere")
    }

    /// One deadline for the whole campaign, from when it was made: a campaign whose deadline passed
    /// while it was approved runs no creative to the end (each creative's job once took a fresh one).
    func testTheCampaignHasOneDeadlineForEveryCreative() throws {
        let files = ["a.png", "b.png"]
        let inputs: [CreativeInput] = [.bytes(try png(960, 150)), .bytes(try png(2184, 270))]
        let operation = CampaignOperation(limits: ValidationLimits(job: JobLimits(timeout: 1)), format: .png)
        XCTAssertNotNil(operation.limits.job.deadline, "started when the campaign is made")
        let approval = operation.approve(files) { inputs[$0] }
        XCTAssertEqual(approval.reports.map(\.valid), [true, true])
        usleep(1_100_000)
        let outcome = operation.run(approval, input: { inputs[$0] }, sink: { _, _ in nil }, keep: { _, _ in })
        XCTAssertEqual(outcome.rendered, 0)
        // Each job stops at the campaign's deadline, already past: its report names the timeout.
        let codes = outcome.members.map { member -> [String] in
            switch member.outcome {
            case .success(let result): result.report.errors.map(\.code.rawValue)
            case .failure(let error): [error.code]
            }
        }
        XCTAssertEqual(codes, [["timeout"], ["timeout"]])
    }

    func testACreativeWhoseFilesCannotBeKeptStopsTheRest() throws {
        let (files, inputs) = try creatives()
        let operation = CampaignOperation(limits: ValidationLimits(), format: .png)
        let approval = operation.approve(files) { inputs[$0] }
        var ran: [Int] = []
        let outcome = operation.run(approval, input: { ran.append($0); return inputs[$0] }, sink: { _, _ in nil },
                                    keep: { _, _ throws(ImagingError) in throw .io("the store is gone") })
        XCTAssertEqual(ran, [0], "nothing runs after the creative that stopped the campaign")
        XCTAssertEqual(outcome.stopped?.index, 0)
        XCTAssertEqual(outcome.stopped?.error.code, "io_error")
        let codes = outcome.members.map { member -> String in
            if case .failure(let error) = member.outcome { error.code } else { "ok" }
        }
        XCTAssertEqual(codes, ["io_error", "cancelled", "cancelled"])
        XCTAssertEqual(outcome.rendered, 0)
    }
}
