import CreativeCore
import CreativeTestSupport
@testable import CreativeService
import XCTest

/// `profile=` over HTTP (openapi.yaml's Profile parameter): the same rules and reports as
/// `validate --profile` and `guidance --profile`.
final class ProfileRouteTests: ServerTestCase {
    private func errors(_ answer: [String: Any]?) -> [String] {
        (answer?["errors"] as? [[String: Any]] ?? []).map { "\($0["code"] as? String ?? "?") \($0["profile"] as? String ?? "-")" }
    }

    func testValidateChecksTheProfilesAsked() throws {
        let strip = try Fixture.testImage("960x150")
        let google = HTTPClient.request(port, "POST", "/v1/validate?profile=google-ads", body: strip)
        XCTAssertEqual(google.status, 200)
        XCTAssertEqual(errors(google.json), ["dimensions_not_allowed google-ads"])
        XCTAssertEqual(google.json?["profiles"] as? [String], ["google-ads"])
        XCTAssertEqual(google.json?["valid"] as? Bool, false)

        let heavy = Fixtures.storedNoisePNG(320, 50, channels: 4)
        let lean = HTTPClient.request(port, "POST", "/v1/validate?profile=network,iab-lean&filename=m.png", body: heavy)
        XCTAssertEqual(lean.status, 200)
        XCTAssertEqual(errors(lean.json), ["over_weight_limit iab-lean"])
        XCTAssertEqual(lean.json?["profiles"] as? [String], ["network", "iab-lean"])

        let plain = HTTPClient.request(port, "POST", "/v1/validate", body: strip)
        XCTAssertEqual(plain.json?["valid"] as? Bool, true)
        XCTAssertEqual(plain.json?["profiles"] as? [String], ["network"])
    }

    func testAnUnknownProfileIsABadRequestNamingTheOneMeant() {
        let answer = HTTPClient.request(port, "POST", "/v1/validate?profile=iab-laen", body: [1, 2, 3])
        XCTAssertEqual(answer.status, 400)
        XCTAssertTrue(answer.text.contains("did you mean 'iab-lean'?"), answer.text)
        XCTAssertEqual(HTTPClient.request(port, "GET", "/v1/guidance?profile=facebook").status, 400)
    }

    func testGuidanceGivesThePlatformsSizes() throws {
        let answer = HTTPClient.request(port, "GET", "/v1/guidance?profile=google-ads&format=markdown")
        XCTAssertEqual(answer.status, 200)
        XCTAssertTrue(answer.text.contains("| 336x280 | rectangle |"), answer.text)
        XCTAssertFalse(answer.text.contains("960x150"))
        let html = HTTPClient.request(port, "GET", "/v1/guidance?profile=amazon-dsp&format=html")
        XCTAssertEqual(html.status, 200)
        XCTAssertTrue(html.text.contains("<td>414x125</td>"), html.text)
        XCTAssertNotNil(html.headers["content-security-policy"])
    }
}
