import XCTest
@testable import CreativeFleet

/// The limits of a campaign job's entry stop hostile entries, never a legitimate campaign: 16
/// sources at S3's longest keys, with an `id` at its own limit and every job option, fit.
final class CampaignSourcesTests: XCTestCase {
    private func address(_ index: Int) -> String {
        let bucket = String(repeating: "b", count: 63)
        let head = "s3://\(bucket)/\(index)-"
        return head + String(repeating: "k", count: JobFieldLimits.maxBytes(of: "source") - head.utf8.count)
    }

    func testTheLongestLegitimateCampaignFitsTheEntryLimits() throws {
        let lines = (0..<CampaignSources.maxSources).map(address)
        XCTAssertEqual(lines[0].utf8.count, 1093)
        let entry = StreamEntry(id: "1-0", fields: [
            ("sources", lines.joined(separator: "\n") + "\n"), ("id", String(repeating: "i", count: 4096)),
            ("product", "interstitial"), ("format", "auto"), ("with", "1320x204,2184x270"), ("weight_budget", "150K"),
        ])
        XCTAssertNil(JobFieldLimits.problem(entry))
        XCTAssertEqual(try CampaignSources.parse(entry["sources"] ?? "").map(\.description), lines)
    }

    func testOneSourceTooManyOrALineTooLongIsRefusedNamingIt() {
        let lines = (0...CampaignSources.maxSources).map(address)
        XCTAssertThrowsError(try CampaignSources.parse(lines.joined(separator: "\n"))) {
            XCTAssertEqual($0 as? FleetError, .badJob("field 'sources' names 17 sources; a campaign job takes at most 16"))
        }
        XCTAssertThrowsError(try CampaignSources.parse(lines[0] + "k\n" + lines[1])) {
            XCTAssertEqual($0 as? FleetError, .badSource("sources line 1 has 1094 bytes, over the limit of 1093"))
        }
        XCTAssertThrowsError(try CampaignSources.parse("s3://bucket/a.png\r\ns3://bucket/c.png")) {
            XCTAssertEqual($0 as? FleetError, .badSource("sources line 1 has a control character (lines end with \\n alone)"))
        }
        XCTAssertThrowsError(try CampaignSources.parse("\n")) {
            XCTAssertEqual(($0 as? FleetError)?.code, "bad_job")
        }
        XCTAssertThrowsError(try CampaignSources.parse("https://b/a.png")) {
            XCTAssertEqual($0 as? FleetError, .badSource("sources line 1: 'https://b/a.png' is not an s3://BUCKET/KEY address"))
        }
    }
}
