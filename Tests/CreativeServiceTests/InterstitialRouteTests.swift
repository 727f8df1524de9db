import CreativeCore
import CreativeImaging
import Foundation
import CreativeTestSupport
import XCTest
@testable import CreativeService

/// `product=interstitial` and `product=companion` on the routes that depend on the product.
final class InterstitialRouteTests: ServerTestCase {
    private func png(_ width: Int, _ height: Int) throws -> [UInt8] { try Fixture.bluePNG(width, height) }

    func testValidateAndProcessTakeTheProduct() throws {
        let tall = try png(1080, 1920)
        let banner = HTTPClient.request(port, "POST", "/v1/validate", body: tall)
        XCTAssertEqual(banner.json?["valid"] as? Bool, false)
        let interstitial = HTTPClient.request(port, "POST", "/v1/validate?product=interstitial", body: tall)
        XCTAssertEqual(interstitial.status, 200)
        XCTAssertEqual(interstitial.json?["valid"] as? Bool, true)
        XCTAssertEqual(interstitial.json?["size_class"] as? String, "full_hd")
        XCTAssertEqual(HTTPClient.request(port, "POST", "/v1/validate?product=video", body: tall).status, 400)

        let processed = HTTPClient.request(port, "POST", "/v1/process?product=interstitial", body: tall)
        XCTAssertEqual(processed.status, 200)
        let manifest = try XCTUnwrap(processed.json?["manifest"] as? [String: Any])
        let zone = try XCTUnwrap(CloseButton.zone(for: PixelSize(width: 1080, height: 1920), product: .interstitial))
        XCTAssertEqual(manifest["close_zone_pixels"] as? [String: Int],
                       ["x": zone.x, "y": zone.y, "width": zone.width, "height": zone.height])
    }

    func testRenderSlotGuidancePromptAndSelect() throws {
        let render = HTTPClient.request(port, "POST", "/v1/render?product=interstitial&device=iPhone%2015&orientation=portrait",
                                        body: try png(1080, 1920))
        XCTAssertEqual(render.status, 200)
        XCTAssertEqual(try ImageSource(bytes: render.body).displayedSize, PixelSize(width: 1179, height: 2556))
        // A banner on a device: its anchored strip across the screen (393x61 pt @3x).
        let banner = HTTPClient.request(port, "POST", "/v1/render?device=iPhone%2015", body: try png(960, 150))
        XCTAssertEqual(banner.status, 200)
        XCTAssertEqual(try ImageSource(bytes: banner.body).displayedSize, PixelSize(width: 1179, height: 183))

        let slot = HTTPClient.request(port, "GET", "/v1/slot?product=interstitial&device=iPhone%2015&orientation=landscape")
        XCTAssertEqual(slot.status, 200)
        XCTAssertEqual(slot.json?.sizeText("screen_pixels"), "2556x1179")
        XCTAssertEqual(HTTPClient.request(port, "GET", "/v1/slot?product=interstitial&width=390").status, 400)

        let guidance = HTTPClient.request(port, "GET", "/v1/guidance?product=interstitial")
        XCTAssertEqual(guidance.json?["product"] as? String, "interstitial")
        let prompt = HTTPClient.request(port, "GET", "/v1/prompt?product=interstitial&size=1080x1920")
        XCTAssertEqual(prompt.status, 200)
        XCTAssertEqual(HTTPClient.request(port, "GET", "/v1/prompt?size=1080x1920").status, 400)

        let select = HTTPClient.request(port, "POST", "/v1/select?product=interstitial",
                                        body: Array(#"{"width": 2202, "height": 1116, "candidates": ["1080x1920", "1920x1080"]}"#.utf8))
        XCTAssertEqual(select.status, 200)
        XCTAssertEqual((select.json?["winner"] as? [String: Any])?.sizeText("size_pixels"), "1920x1080")
        XCTAssertEqual(select.json?["slot_mode"] as? String, "full_screen")
    }

    /// At the service's default limits an interstitial job gets its product's budget (144 MiB):
    /// a WebP of the 2048x2732 iPad Pro 12.9 screen with transparent bars holds more than a
    /// banner job's 80 MiB, and was refused `too_many_pixels` when every product had 80. A banner
    /// job keeps 80 MiB: the same screen asked as a banner render is still refused.
    func testTheServiceDefaultsTakeAWebPInterstitialScreen() throws {
        let server = try Fixture.server()
        defer { server.stop(grace: 1) }
        let screen = "/v1/render?product=interstitial&device=iPad%20Pro%2012.9&orientation=portrait&format=webp"
        let render = HTTPClient.request(server.port, "POST", screen, body: try png(768, 1024))
        XCTAssertEqual(render.status, 200, String(decoding: render.body.prefix(300), as: UTF8.self))
        XCTAssertEqual(try ImageSource(bytes: render.body).displayedSize, PixelSize(width: 2048, height: 2732))
        let banner = HTTPClient.request(server.port, "POST", "/v1/render?slot=1024x1366&scale=2&format=webp",
                                        body: try png(960, 150))
        XCTAssertEqual(banner.status, 422)
        XCTAssertEqual(banner.errorCode, "too_many_pixels")
    }

    /// `product=companion`: its six sizes, each device's standard slot, and its process renders.
    func testCompanionProduct() throws {
        let retina = try png(640, 100)
        XCTAssertEqual(HTTPClient.request(port, "POST", "/v1/validate", body: retina).json?["valid"] as? Bool, false)
        let validated = HTTPClient.request(port, "POST", "/v1/validate?product=companion", body: retina)
        XCTAssertEqual(validated.status, 200)
        XCTAssertEqual(validated.json?["valid"] as? Bool, true)
        XCTAssertEqual(validated.json?["size_class"] as? String, "retina")
        let rectangle = HTTPClient.request(port, "POST", "/v1/validate?product=companion", body: try png(300, 250))
        XCTAssertEqual(rectangle.json?["valid"] as? Bool, false)
        XCTAssertEqual((rectangle.json?["errors"] as? [[String: Any]])?.first?["code"] as? String, "dimensions_not_allowed")

        let slot = HTTPClient.request(port, "GET", "/v1/slot?product=companion&device=iPad%20Air")
        XCTAssertEqual(slot.status, 200)
        XCTAssertEqual(slot.json?.sizeText("slot_pixels"), "1456x180")
        XCTAssertEqual(HTTPClient.request(port, "GET", "/v1/slot?product=companion&width=390").status, 400)

        let processed = HTTPClient.request(port, "POST", "/v1/process?product=companion", body: retina)
        XCTAssertEqual(processed.status, 200)
        let manifest = try XCTUnwrap(processed.json?["manifest"] as? [String: Any])
        XCTAssertEqual(manifest["product"] as? String, "companion")
        // A companion fills every device's standard slot: phones at their scale, iPads 1456x180.
        XCTAssertEqual((manifest["renders"] as? [[String: Any]])?.compactMap { $0.sizeText("slot_pixels") },
                       ["640x100", "640x100", "960x150", "960x150", "640x100", "960x150", "960x150",
                        "1456x180", "1456x180", "1456x180", "1456x180", "1456x180", "960x150", "840x131"])

        let select = HTTPClient.request(port, "POST", "/v1/select?product=companion",
                                        body: Array(#"{"width": 1456, "height": 180, "candidates": ["960x150", "1456x180", "2184x270"]}"#.utf8))
        XCTAssertEqual(select.status, 200)
        XCTAssertEqual((select.json?["winner"] as? [String: Any])?.sizeText("size_pixels"), "1456x180")
        XCTAssertEqual(select.json?["slot_mode"] as? String, "standard_slot")
        XCTAssertEqual(HTTPClient.request(port, "GET", "/v1/guidance?product=companion").json?["product"] as? String, "companion")
        let render = HTTPClient.request(port, "POST", "/v1/render?product=companion&device=iPad%20Air", body: try png(960, 150))
        XCTAssertEqual(render.status, 200)
        XCTAssertEqual(try ImageSource(bytes: render.body).displayedSize, PixelSize(width: 1456, height: 180))
        XCTAssertEqual(HTTPClient.request(port, "POST", "/v1/render?product=companion&device=iPad%20Air&scale=3",
                                          body: try png(960, 150)).status, 400)
    }
}
