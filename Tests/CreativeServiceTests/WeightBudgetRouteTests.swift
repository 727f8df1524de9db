import CreativeCore
import CreativeTestSupport
import Foundation
import XCTest
@testable import CreativeService

/// `weight_budget=` on `/v1/render` and `/v1/process`: the answer fits, or 422 `over_weight_budget`.
final class WeightBudgetRouteTests: XCTestCase {
    func testARenderFitsItsBudgetOrIsRefused() throws {
        let server = try Fixture.server()
        defer { server.stop(grace: 1) }
        let upload = try Fixture.testImage("2184x270")
        let free = HTTPClient.request(server.port, "POST", "/v1/render?slot=390x61&scale=3&format=webp&quality=100&weight_budget=1G",
                                      body: upload)
        XCTAssertEqual(free.status, 200, free.text)
        XCTAssertGreaterThan(free.body.count, 8 * 1024, "the test needs a render over 8K at quality 100")
        for budget in ["40K", "8K"] {
            let fitted = HTTPClient.request(server.port, "POST",
                                            "/v1/render?slot=390x61&scale=3&format=webp&quality=100&weight_budget=\(budget)",
                                            body: upload)
            XCTAssertEqual(fitted.status, 200, fitted.text)
            XCTAssertEqual(fitted.headers["content-type"], "image/webp")
            let limit = budget == "40K" ? 40 * 1024 : 8 * 1024
            XCTAssertLessThanOrEqual(fitted.body.count, limit, fitted.headers["x-creative-encoding"] ?? "")
        }
        let refused = HTTPClient.request(server.port, "POST", "/v1/render?slot=390x61&scale=3&format=png&weight_budget=1K",
                                         body: upload)
        XCTAssertEqual(refused.status, 422, refused.text)
        XCTAssertEqual(refused.errorCode, "over_weight_budget", refused.text)
        XCTAssertEqual(HTTPClient.request(server.port, "POST", "/v1/render?slot=390x61&weight_budget=ten", body: upload).status, 400)
    }

    /// `format=avif` and `formats=` (auto's choice) on the routes, with the weight budget held; a
    /// libvips without an AV1 encoder answers 415 `unsupported_format`.
    func testAVIFIsAnsweredOnlyWhereNamed() throws {
        let server = try Fixture.server()
        defer { server.stop(grace: 1) }
        let upload = try Fixture.testImage("2184x270")
        let fixed = HTTPClient.request(server.port, "POST", "/v1/render?slot=390x61&scale=3&format=avif&weight_budget=4K",
                                       body: upload)
        guard fixed.status == 200 else {
            XCTAssertEqual(fixed.errorCode, "unsupported_format", fixed.text)
            XCTAssertGreaterThanOrEqual(fixed.status, 400, fixed.text)
            throw XCTSkip("this libvips has no AV1 encoder: the refusal was checked, AVIF answers cannot be")
        }
        XCTAssertEqual(fixed.headers["content-type"], "image/avif")
        XCTAssertTrue(Fixtures.isAVIF(fixed.body))
        XCTAssertLessThanOrEqual(fixed.body.count, 4 * 1024, fixed.headers["x-creative-encoding"] ?? "")
        let free = HTTPClient.request(server.port, "POST", "/v1/render?slot=390x61&scale=3&format=avif&weight_budget=1G",
                                      body: upload)
        XCTAssertGreaterThan(free.body.count, 4 * 1024, "the test needs quality 85 over the budget")
        let plain = HTTPClient.request(server.port, "POST", "/v1/render?slot=390x61&scale=3&format=auto", body: upload)
        XCTAssertEqual(plain.headers["content-type"], "image/webp", plain.headers["x-creative-encoding"] ?? "")
        let chosen = HTTPClient.request(server.port, "POST", "/v1/render?slot=390x61&scale=3&format=auto&formats=webp,avif",
                                        body: upload)
        XCTAssertEqual(chosen.status, 200, chosen.text)
        XCTAssertEqual(chosen.headers["content-type"], "image/avif", chosen.headers["x-creative-encoding"] ?? "")
        XCTAssertLessThan(chosen.body.count, plain.body.count)
        let refused = HTTPClient.request(server.port, "POST", "/v1/render?slot=390x61&format=png&formats=png", body: upload)
        XCTAssertEqual(refused.status, 400, refused.text)
        XCTAssertTrue(refused.text.contains("formats is for format auto"), refused.text)
        let answer = HTTPClient.request(server.port, "POST", "/v1/process?formats=avif&inline=false", body: upload)
        XCTAssertEqual(answer.status, 200, answer.text)
        let manifest = try XCTUnwrap(answer.json?["manifest"] as? [String: Any], answer.text)
        let renders = try XCTUnwrap(manifest["renders"] as? [[String: Any]])
        XCTAssertFalse(renders.isEmpty)
        XCTAssertTrue(renders.allSatisfy { $0["format"] as? String == "avif" }, answer.text)
        let boundary = "b"
        let form = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"a\"; filename=\"a.png\"\r\n".utf8)
            + Array("Content-Type: image/png\r\n\r\n".utf8) + upload + Array("\r\n--\(boundary)--\r\n".utf8)
        let campaign = HTTPClient.request(server.port, "POST", "/v1/campaign?formats=avif",
                                          headers: [("Content-Type", "multipart/form-data; boundary=\(boundary)")], body: form)
        XCTAssertEqual(campaign.status, 200, campaign.text)
        let slots = try XCTUnwrap(campaign.json?["slots"] as? [[String: Any]], campaign.text)
        XCTAssertFalse(slots.isEmpty, campaign.text)
        XCTAssertTrue(slots.allSatisfy { $0["format"] as? String == "avif" }, campaign.text)
    }

    func testProcessMarksTheRendersOverTheBudget() throws {
        let server = try Fixture.server()
        defer { server.stop(grace: 1) }
        let upload = try Fixture.testImage("2184x270")
        let answer = HTTPClient.request(server.port, "POST", "/v1/process?format=png&weight_budget=2K&inline=false", body: upload)
        XCTAssertEqual(answer.status, 200, answer.text)
        let manifest = try XCTUnwrap(answer.json?["manifest"] as? [String: Any], answer.text)
        XCTAssertEqual(manifest["weight_budget_bytes"] as? Int, 2048)
        let renders = try XCTUnwrap(manifest["renders"] as? [[String: Any]])
        XCTAssertTrue(renders.contains { $0["over_weight_budget"] != nil }, answer.text)
        XCTAssertTrue(renders.allSatisfy { ($0["file_bytes"] as? Int ?? 0) <= 2048 }, answer.text)
    }

    func testProcessAndCampaignTakeAProfilesBudget() throws {
        let server = try Fixture.server()
        defer { server.stop(grace: 1) }
        let noise = Fixtures.storedNoisePNG(960, 150)
        let answer = HTTPClient.request(server.port, "POST", "/v1/process?format=png&profile=iab-lean&with=1320x204,2184x270&inline=false", body: noise)
        XCTAssertEqual(answer.status, 200, answer.text)
        let manifest = try XCTUnwrap(answer.json?["manifest"] as? [String: Any], answer.text)
        XCTAssertEqual(manifest["weight_budget_profiles"] as? [String], ["iab-lean"])
        let renders = try XCTUnwrap(manifest["renders"] as? [[String: Any]])
        let se = try XCTUnwrap(renders.first { ($0["file"] as? String ?? "").hasPrefix("iphone-se-portrait-320x50@2x") })
        XCTAssertEqual(se["weight_budget_bytes"] as? Int, 50_000)
        XCTAssertEqual(se["weight_budget_profile"] as? String, "iab-lean")
        XCTAssertLessThanOrEqual(se["file_bytes"] as? Int ?? .max, 50_000)
        XCTAssertTrue(renders.filter { $0["weight_budget_profile"] is NSNull }.allSatisfy {
            $0["weight_budget_bytes"] as? Int == RenderSettings.defaultWeightBudget
        })
        let mistyped = HTTPClient.request(server.port, "POST", "/v1/process?profile=iab-laen", body: noise)
        XCTAssertEqual(mistyped.status, 400, mistyped.text)
        XCTAssertTrue(mistyped.text.contains("did you mean 'iab-lean'?"), mistyped.text)
        let campaign = HTTPClient.request(server.port, "POST", "/v1/campaign?profile=iab-laen",
                                          headers: [("Content-Type", "multipart/form-data; boundary=b")], body: [])
        XCTAssertEqual(campaign.status, 400, "the campaign route takes profile= too: \(campaign.text)")
        XCTAssertTrue(campaign.text.contains("did you mean 'iab-lean'?"), campaign.text)
    }
}
