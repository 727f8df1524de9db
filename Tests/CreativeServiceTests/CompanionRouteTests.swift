import Foundation
import XCTest
import CreativeCore
@testable import CreativeService

/// `POST /v1/companion/lint`: the library's lint report over HTTP, with its own body limit.
final class CompanionRouteTests: ServerTestCase {
    let cta = "icon=https://cdn.example.com/icon.png,bannerTitle=Summer sale,ctaUrl=https://shop.example.com/buy?a=b&c=d"

    func testAnswersTheLintReport() {
        let valid = HTTPClient.request(port, "POST", "/v1/companion/lint", headers: [("Content-Type", "text/plain")],
                                       body: Array(cta.utf8))
        XCTAssertEqual(valid.status, 200)
        XCTAssertEqual(valid.headers["content-type"], "application/json")
        XCTAssertEqual(valid.text, JSONContract.document(CompanionLint.lint(Array(cta.utf8)).json).serialized() + "\n")
        let rejected = HTTPClient.request(port, "POST", "/v1/companion/lint", body: Array((cta + ",ctaUrl=x").utf8))
        XCTAssertEqual(rejected.status, 200)
        XCTAssertEqual(rejected.json?["valid"] as? Bool, false)
        let takeover = HTTPClient.request(port, "POST", "/v1/companion/lint?takeover=true",
                                          body: Array("ad_type=takeoverAds,Takeover_ads_url=https://ads.example.com/t".utf8))
        XCTAssertEqual(takeover.json?["format"] as? String, "contextual")
        let empty = HTTPClient.request(port, "POST", "/v1/companion/lint", body: [])
        XCTAssertEqual((empty.json?["errors"] as? [[String: Any]])?.first?["code"] as? String, "empty_input")
    }

    func testLimitsAndBadRequests() {
        let limit = TraffickingInput.maxBytes
        let atLimit = HTTPClient.request(port, "POST", "/v1/companion/lint", body: [UInt8](repeating: UInt8(ascii: ","), count: limit))
        XCTAssertEqual(atLimit.status, 200)
        for chunked in [false, true] {
            let over = HTTPClient.request(port, "POST", "/v1/companion/lint", body: [UInt8](repeating: 0x41, count: limit + 1),
                                          chunked: chunked)
            XCTAssertEqual(over.status, 413)
            XCTAssertEqual((over.json?["error"] as? [String: Any])?["message"] as? String,
                           "the body is over this route's limit of \(limit) bytes")
        }
        XCTAssertEqual(HTTPClient.request(port, "POST", "/v1/companion/lint?strict=1", body: Array(cta.utf8)).status, 400)
        XCTAssertEqual(HTTPClient.request(port, "POST", "/v1/companion/lint?takeover=maybe", body: Array(cta.utf8)).status, 400)
        XCTAssertEqual(HTTPClient.request(port, "GET", "/v1/companion/lint").status, 405)
        let nul = HTTPClient.request(port, "POST", "/v1/companion/lint", body: [0x61, 0x00])
        XCTAssertEqual((nul.json?["errors"] as? [[String: Any]])?.first?["code"] as? String, "nul_character")
    }
}
