import Foundation
import XCTest
import CreativeCore
import CreativeImaging
@testable import CreativeService

/// `GET /`: the try-it page, served from the binary with a policy that lets only its own script
/// and style run. What it does in a browser is tested by Tests/Browser/test_pages.py.
final class TryItPageTests: XCTestCase {
    func testThePageIsServedWithoutTokenAndOnlyItsOwnScriptMayRun() throws {
        let server = try Fixture.server { $0.token = "s3cret-token-0123456789" }
        defer { server.stop(grace: 5) }
        let page = HTTPClient.request(server.port, "GET", "/")
        XCTAssertEqual(page.status, 200, "the page holds nothing secret: it asks for the token itself")
        XCTAssertEqual(page.headers["content-type"], "text/html; charset=utf-8")
        XCTAssertEqual(page.text, TryItPage.html)
        let policy = try XCTUnwrap(page.headers["content-security-policy"])
        // The hashes are recomputed here from the page's own <script> and <style>, byte for byte.
        func between(_ open: String, _ close: String) -> String {
            page.text.components(separatedBy: open)[1].components(separatedBy: close)[0]
        }
        XCTAssertTrue(policy.contains("script-src \(TryItPage.cspHash(between("<script>", "</script>")));"), policy)
        XCTAssertTrue(policy.contains("style-src \(TryItPage.cspHash(between("<style>", "</style>")));"), policy)
        XCTAssertEqual(TryItPage.cspHash("alert(1)"), "'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='",
                       "the CSP form of SHA-256 (base64 of the digest)")
        // What the page uses and nothing more: fetch to this service, blob: images, no other load.
        for part in ["default-src 'none'", "connect-src 'self'", "img-src blob:;", "base-uri 'none'", "form-action 'none'",
                     "frame-ancestors 'none'"] {
            XCTAssertTrue(policy.contains(part), part)
        }
        XCTAssertEqual(policy.components(separatedBy: "'self'").count, 2, "'self' only for connect-src: \(policy)")
        XCTAssertFalse(policy.contains("unsafe"), policy)
        let lower = page.text.lowercased()
        for forbidden in ["http://", "https://", "innerhtml", "outerhtml", "insertadjacenthtml", "document.write", "eval(",
                          "src=\"", "<link", "@import"] {
            XCTAssertFalse(lower.contains(forbidden), forbidden)
        }
        XCTAssertFalse(TryItPage.style.contains("url("), "no outside images in the style sheet")
        XCTAssertEqual(lower.components(separatedBy: "<script").count, 2, "one inline script")
        XCTAssertEqual(HTTPClient.request(server.port, "POST", "/v1/validate").status, 401, "the API still needs the token")
        XCTAssertEqual(HTTPClient.request(server.port, "HEAD", "/").status, 200)
        XCTAssertEqual(HTTPClient.request(server.port, "GET", "/?x=1").status, 400)
        XCTAssertEqual(HTTPClient.request(server.port, "POST", "/").status, 405)
        XCTAssertEqual(HTTPClient.request(server.adminPort, "GET", "/").status, 404, "the admin listener serves probes only")
    }

    /// The plan the page carries is the device plan: per product and accepted size, every slot of
    /// the product with the size served there when it is the whole campaign, the same slots
    /// `process` renders the size into when it is uploaded alone: all of them.
    func testThePageCarriesTheDevicePlanOfEveryProduct() throws {
        guard case .object(let products) = TryItPlan.json else { return XCTFail("not an object") }
        XCTAssertEqual(products.map(\.0), ["banner", "interstitial", "companion"])
        for (name, value) in products {
            let product = try XCTUnwrap(Product(rawValue: name))
            let text = JSONValue.object([(name, value)]).serialized()
            for size in product.sizes {
                let plan = DevicePlan.plan(with: size, campaign: [], product: product)
                let served = DevicePlan.assignments(for: size, campaign: [], product: product)
                XCTAssertFalse(plan.isEmpty, "\(name) \(size)")
                XCTAssertEqual(served.count, plan.count, "\(name) \(size): alone, it is served in every slot of its kind")
                XCTAssertEqual(Set(plan.map(\.deviceSlot.device.name)), Set(Devices.all.map(\.name)), "\(name) \(size)")
                XCTAssertTrue(text.contains("\"\(size)\":["), "\(name) \(size)")
            }
        }
        // 960x150 alone: every anchored slot, and no other size named anywhere in its plan.
        let banner = DevicePlan.plan(with: PixelSize(width: 960, height: 150), campaign: [], product: .banner)
        XCTAssertEqual(banner.filter { $0.artwork.description == "960x150" }.count, DevicePlan.anchoredSlots().count)
        let first = try XCTUnwrap(banner.first)
        XCTAssertTrue(TryItPlan.literal.contains(TryItPlan.slotJSON(first).serialized()))
        guard case .object(let bannerFields)? = products.first?.1, case .object(let plans)? = bannerFields.first(where: { $0.0 == "plans" })?.1
        else { return XCTFail("no banner plans") }
        for (size, slots) in plans {
            XCTAssertFalse(slots.serialized().contains("\"served\":\"") && !slots.serialized()
                .components(separatedBy: "\"served\":\"").dropFirst().allSatisfy { $0.hasPrefix(size + "\"") },
                           "\(size)'s plan names another size")
        }
        // An interstitial slot carries its safe area and the close button's square, in screen pixels.
        let screen = try XCTUnwrap(DevicePlan.plan(with: PixelSize(width: 1080, height: 1920), campaign: [], product: .interstitial).first)
        let close = CloseButton.square(in: screen.deviceSlot)
        XCTAssertTrue(TryItPlan.slotJSON(screen).serialized()
            .contains("\"close\":[\(close.x),\(close.y),\(close.width),\(close.height)]"))
        XCTAssertFalse(TryItPlan.literal.contains("<"), "nothing in the script literal can close the script")
        XCTAssertTrue(TryItPage.html.contains("<input type=\"radio\" name=\"product\" value=\"interstitial\">"))
    }
}
