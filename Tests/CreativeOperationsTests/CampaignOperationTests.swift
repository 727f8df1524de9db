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
        let operation = CampaignOperation(limits: ValidationLimits(), settings: ProcessSettings(format: .fixed(.png), campaign: [PixelSize(width: 960, height: 150)]))
        let approval = operation.approve(files) { inputs[$0] }
        XCTAssertEqual(approval.reports.map(\.valid), [true, true, false])
        XCTAssertEqual(approval.reports[2].errors.map(\.code), [.dimensionsNotAllowed])
        XCTAssertEqual(approval.sizes.map(\.description), ["320x50", "728x90", "960x150"])
        XCTAssertEqual(approval.names, ["banner", "banner-2", "odd"])
    }

    func testEachValidCreativeIsRenderedAmongTheCampaignAndCampaignJSONNamesWhoIsServed() throws {
        let (files, inputs) = try creatives()
        let operation = CampaignOperation(limits: ValidationLimits(), settings: ProcessSettings(format: .fixed(.png)))
        let approval = operation.approve(files) { inputs[$0] }
        var kept: [Int] = [], heard: [String] = []
        let outcome = operation.run(approval, sink: { _, _ in nil },
                                    keep: { index, output in
            kept.append(index)
            XCTAssertEqual(output.files.last?.name, JobResult.manifestName)
        }, done: { heard.append($0.name) })
        XCTAssertNil(outcome.stopped)
        XCTAssertEqual(kept, [0, 1, 2], "a rejected creative's manifest is kept too")
        XCTAssertEqual(heard, ["banner", "banner-2", "odd"])
        XCTAssertEqual(outcome.rendered, 2)
        let sheet = try XCTUnwrap(try operation.sheet(outcome))
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
        let operation = CampaignOperation(limits: ValidationLimits(job: JobLimits(timeout: 1)), settings: ProcessSettings(format: .fixed(.png)))
        XCTAssertNotNil(operation.limits.job.deadline, "started when the campaign is made")
        let approval = operation.approve(files) { inputs[$0] }
        XCTAssertEqual(approval.reports.map(\.valid), [true, true])
        usleep(1_100_000)
        let outcome = operation.run(approval, sink: { _, _ in nil }, keep: { _, _ in })
        XCTAssertEqual(outcome.rendered, 0)
        // The first job stops at the campaign's deadline, already past (it was approved, so it is
        // not validated again: its render is what stops), and the rest are not run.
        let codes = outcome.members.map { member -> [String] in
            switch member.outcome {
            case .success(let result): result.report.errors.map(\.code.rawValue)
            case .failure(let error): [error.code]
            }
        }
        XCTAssertEqual(codes, [["timeout"], ["cancelled"]])
    }

    func testACreativeWhoseFilesCannotBeKeptStopsTheRest() throws {
        let (files, inputs) = try creatives()
        let operation = CampaignOperation(limits: ValidationLimits(), settings: ProcessSettings(format: .fixed(.png)))
        let approval = operation.approve(files) { inputs[$0] }
        var ran: [Int] = []
        let outcome = operation.run(approval, sink: { index, _ in ran.append(index); return nil },
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

    private func gif(_ width: Int, _ height: Int) throws -> [UInt8] {
        try Fixtures.save("gifsave_buffer", try Fixtures.solid(width, height, [30, 90, 200]))
    }

    /// One pass per creative: each is read once (the surface's input), opened once and validated
    /// once (the render reuses the approval's report and source), and what is rendered is what
    /// was approved: the manifest names the approved bytes. Its pixels are decoded by the
    /// approval's strict check and once more by its render (the approval keeps no pixels), but
    /// the first creative's: approved last, it keeps its decode for its render, which runs first.
    func testEachCreativeIsReadValidatedAndDecodedOnceAndItsApprovedBytesAreRendered() throws {
        let files = ["a.gif", "b.gif"]
        let approved = [try gif(320, 50), try gif(728, 90)]
        let operation = CampaignOperation(limits: ValidationLimits(), settings: ProcessSettings(format: .fixed(.png)))
        var reads = [0, 0]
        let before = DecodeLedger.current
        let approval = operation.approve(files) { index -> CreativeInput in
            reads[index] += 1
            return .bytes(approved[index])
        }
        XCTAssertEqual(approval.reports.map(\.valid), [true, true])
        let outcome = operation.run(approval, sink: { _, _ in nil }, keep: { _, _ in })
        let after = DecodeLedger.current
        XCTAssertEqual(reads, [1, 1])
        XCTAssertEqual(after.opens - before.opens, 2, "one header read per creative")
        XCTAssertEqual(after.decodes - before.decodes, 3,
                       "the first creative's strict decode, which its render scales from; the approval's and the render's of the second")
        for creative in approval.creatives { XCTAssertNotNil(creative?.report, "validated at the approval") }
        XCTAssertEqual(outcome.rendered, 2)
        for (member, bytes) in zip(outcome.members, approved) {
            guard case .success(let result) = member.outcome, case .object(let manifest) = result.manifest,
                  case .object(let source)? = manifest.first(where: { $0.0 == "source" })?.1 else { return XCTFail("no manifest") }
            XCTAssertEqual(source.first { $0.0 == "sha256" }?.1, .string(Checksum.sha256(bytes)))
            XCTAssertFalse(result.renders.isEmpty)
        }
    }

    /// A creative replaced after its approval (the file changed on disk) is rendered from the
    /// bytes approved: the render never reads it again.
    func testACreativeChangedAfterItsApprovalIsRenderedFromTheApprovedBytes() throws {
        var onDisk = try gif(320, 50)
        let approvedBytes = onDisk
        let operation = CampaignOperation(limits: ValidationLimits(), settings: ProcessSettings(format: .fixed(.png)))
        let approval = operation.approve(["a.gif"]) { _ in .bytes(onDisk) }
        onDisk = try gif(728, 90)
        let outcome = operation.run(approval, sink: { _, _ in nil }, keep: { _, _ in })
        guard case .success(let result) = outcome.members.first?.outcome else { return XCTFail("not rendered") }
        XCTAssertEqual(result.report.dimensions, PixelSize(width: 320, height: 50))
        guard case .object(let manifest) = result.manifest,
              case .object(let source)? = manifest.first(where: { $0.0 == "source" })?.1 else { return XCTFail("no manifest") }
        XCTAssertEqual(source.first { $0.0 == "sha256" }?.1, .string(Checksum.sha256(approvedBytes)))
        XCTAssertNotEqual(Checksum.sha256(onDisk), Checksum.sha256(approvedBytes))
    }

    /// A campaign is charged for what it holds at once: one creative's job at a time, the
    /// largest's. The approval keeps no creative's pixels (each approval kept its decode, and a
    /// campaign of 16 interstitials held +293 MB against a 142.7 MiB charge).
    func testACampaignOfManyCreativesHoldsNoApprovalsPixelsAndIsChargedItsLargestJob() throws {
        let sizes = [(320, 50), (728, 90), (300, 250), (960, 150), (468, 60), (320, 100), (1320, 204), (2184, 270)]
        var uploads = try sizes.enumerated().map { index, size in Upload(try gif(size.0, size.1), fileName: "c\(index).gif") }
        // One more of a size already given, and one the product refuses: 10 creatives.
        uploads += [Upload(try gif(320, 50), fileName: "again.gif"), Upload(try gif(321, 50), fileName: "odd.gif")]
        let jobs = uploads.map { ProcessOperation.memory($0, product: .defaultProduct) }
        XCTAssertEqual(jobs.last, 0, "a size the product refuses is not decoded, not charged")
        // Beside the largest job, the sheet copy each accepted size keeps (at most its size's when
        // it is alone): one for the two of 320x50, none for the refused size.
        let copies = uploads.dropLast(2).reduce(0) { total, upload in
            let size = (try? upload.source().get().displayedSize) ?? PixelSize(width: 0, height: 0)
            return total + CampaignSheet.copyBytes(size, campaign: [size], product: .defaultProduct)
        }
        XCTAssertGreaterThan(copies, 0)
        XCTAssertEqual(CampaignOperation.memory(uploads, product: .defaultProduct), (jobs.max() ?? 0) + copies)
        XCTAssertEqual(jobs.filter { $0 > 0 }.count, 9, "every accepted size has a job to charge")
        let operation = CampaignOperation(limits: ValidationLimits(), settings: ProcessSettings(format: .fixed(.png)))
        let approval = operation.approve(uploads)
        XCTAssertEqual(approval.reports.map(\.valid), Array(repeating: true, count: 9) + [false])
        XCTAssertEqual(approval.creatives.map { $0?.inspection?.source?.keptPixels == nil },
                       [false] + Array(repeating: true, count: 9), "no approval holds its pixels but the first's, rendered first")
        XCTAssertEqual(approval.creatives.compactMap { try? $0?.source().get().keptPixels }.count, 1)
        let outcome = operation.run(approval, sink: { _, _ in nil }, keep: { _, _ in })
        XCTAssertEqual(approval.creatives.compactMap { try? $0?.source().get().keptPixels }.count, 0,
                       "the first's render let its decode go")
        XCTAssertEqual(outcome.rendered, 8)
        XCTAssertEqual(outcome.members.map { member -> String in
            if case .failure(let error) = member.outcome { error.code } else { "ok" }
        }, Array(repeating: "ok", count: 8) + ["duplicate_size", "ok"])
    }

    /// One decode per creative for the campaign's sheet: each creative's job keeps a small copy
    /// of the decode its renders scale from (the largest size the sheet draws it at), and the
    /// sheet draws from those copies: it opens and decodes nothing (it opened and decoded each
    /// served creative again from its bytes: 2 opens, 3 decodes, 1 validation per GIF). The first
    /// creative, approved last and rendered first, is decoded once.
    func testTheSheetDrawsEachCreativeFromItsJobsDecodeAndDecodesNothingAgain() throws {
        let files = ["a.gif", "b.gif"]
        let bytes = [try gif(320, 50), try gif(728, 90)]
        let operation = CampaignOperation(limits: ValidationLimits(), settings: ProcessSettings(format: .fixed(.png)))
        let before = DecodeLedger.current
        let approval = operation.approve(files) { .bytes(bytes[$0]) }
        let outcome = operation.run(approval, sink: { _, _ in nil }, keep: { _, _ in })
        let rendered = DecodeLedger.current
        let sheet = try XCTUnwrap(try operation.sheet(outcome))
        let after = DecodeLedger.current
        XCTAssertEqual(outcome.rendered, 2)
        XCTAssertEqual(after.since(rendered), DecodeLedger.Counts(), "the sheet opens, validates and decodes nothing")
        XCTAssertEqual(after.since(before), DecodeLedger.Counts(opens: 2, decodes: 3, validations: 2),
                       "per creative one open and one validation; the first decoded once, the second twice")
        XCTAssertEqual(sheet.name, "campaign.png")
        for member in outcome.members {
            guard case .success(let result) = member.outcome, let size = result.report.dimensions else { return XCTFail("not rendered") }
            let copy = try XCTUnwrap(result.sheetCopy, "the job kept its copy for the sheet")
            XCTAssertEqual(copy.size, CampaignSheet.drawnSize(size, campaign: approval.sizes, product: .defaultProduct))
            XCTAssertLessThanOrEqual(copy.size.width, size.width)
        }
    }
}
