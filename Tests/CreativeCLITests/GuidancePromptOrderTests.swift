import Foundation
import XCTest

/// The guidance page opens with what an advertiser comes to copy: the prompts section is the
/// first after the contents, its Copy buttons before every template and table.
final class GuidancePromptOrderTests: XCTestCase {
    func testThePromptsComeRightAfterTheContents() throws {
        for product in ["banner", "interstitial", "companion"] {
            let run = try Tool.run(["guidance", "--product", product, "--format", "html"])
            XCTAssertEqual(run.status, 0, run.stderr)
            let page = run.text
            let nav = try XCTUnwrap(page.range(of: "</nav>\n"), product)
            XCTAssertTrue(page[nav.upperBound...].hasPrefix("<h2 id=\"prompts\">AI prompts to copy</h2>"),
                          "\(product): \(page[nav.upperBound...].prefix(80))")
            let copy = try XCTUnwrap(page.range(of: ">Copy</button>"), product)
            let secondHeading = try XCTUnwrap(page.range(of: "<h2 id=", range: nav.upperBound..<page.endIndex).map { first in
                page.range(of: "<h2 id=", range: first.upperBound..<page.endIndex)
            } ?? nil, product)
            XCTAssertLessThan(copy.lowerBound, secondHeading.lowerBound, "\(product): a Copy button before the next section")
            XCTAssertLessThan(copy.lowerBound, try XCTUnwrap(page.range(of: "<table")).lowerBound, product)
            // The contents list it first, and its target is where the link points.
            XCTAssertTrue(page.contains("<ol><li><a href=\"#prompts\">AI prompts to copy</a></li>"), product)
        }
    }
}
