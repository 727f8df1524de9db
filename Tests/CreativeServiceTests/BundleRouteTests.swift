import CreativeCore
import CreativeImaging
import CreativeTestSupport
import XCTest
@testable import CreativeService

/// `POST /v1/validate` and `/v1/render` with an HTML5 bundle (a zip) as the body.
final class BundleRouteTests: ServerTestCase {
    func testValidateAndRenderABundle() throws {
        let bytes = try BundleCorpus.clean().bytes()
        let result = HTTPClient.request(port, "POST", "/v1/validate?filename=ad.zip", body: bytes)
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.text, JSONContract.document(Validator.validate(bytes, fileName: "ad.zip").json).serialized() + "\n")
        XCTAssertEqual(result.json?["format"] as? String, "html5")
        XCTAssertEqual(result.json?["entry"] as? String, "index.html")

        let png = HTTPClient.request(port, "POST", "/v1/render?slot=390x61", body: bytes)
        XCTAssertEqual(png.status, 200)
        XCTAssertEqual(try ImageSource(bytes: png.body).displayedSize, PixelSize(width: 390, height: 61))

        let remote = try BundleCorpus.clean(html: BundleCorpus.html(head: "<script src=\"https://cdn.example/x.js\"></script>"))
        let refused = HTTPClient.request(port, "POST", "/v1/render?slot=390x61", body: remote.bytes())
        XCTAssertEqual(refused.status, 422)
        XCTAssertTrue(refused.text.contains("remote_resource_blocked"), refused.text)
    }

    func testHTMLThatAbortsTheParserIsRefusedAndTheServiceLives() throws {
        // gumbo 0.10.1 aborts on this markup: parsed in a child process first, it is refused,
        // and the service (this process) keeps answering.
        let bytes = try BundleCorpus.clean(html: BundleCorpus.html(body: "<table><svg><title><![CDATA[>]]>t")).bytes()
        let result = HTTPClient.request(port, "POST", "/v1/validate?filename=ad.zip", body: bytes)
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.json?["valid"] as? Bool, false)
        XCTAssertTrue(result.text.contains("\"code\":\"unparseable_html\""), result.text)
        let render = HTTPClient.request(port, "POST", "/v1/render?slot=390x61", body: bytes)
        XCTAssertEqual(render.status, 422)
        XCTAssertTrue(render.text.contains("unparseable_html"), render.text)
        let clean = HTTPClient.request(port, "POST", "/v1/validate?filename=ad.zip", body: try BundleCorpus.clean().bytes())
        XCTAssertEqual(clean.status, 200)
        XCTAssertEqual(clean.json?["valid"] as? Bool, true)
    }
}
