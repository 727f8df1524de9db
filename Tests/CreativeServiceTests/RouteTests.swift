import Foundation
import CreativeTestSupport
import XCTest
import CreativeCore
import CreativeImaging
@testable import CreativeService

/// Every route answers as documented (openapi.yaml), on a server started on an ephemeral port.
final class RouteTests: XCTestCase {
    var server: Server!
    var port: Int { server.port }

    override func setUpWithError() throws {
        server = try Fixture.server()
        XCTAssertGreaterThan(server.port, 0)
    }

    override func tearDown() {
        server.stop(grace: 5)
        server = nil
    }

    func testHealthAndReadiness() {
        let health = HTTPClient.request(port, "GET", "/healthz")
        XCTAssertEqual(health.status, 200)
        XCTAssertEqual(health.headers["content-type"], "application/json")
        XCTAssertEqual(health.json?["status"] as? String, "ok")
        let ready = HTTPClient.request(port, "GET", "/readyz")
        XCTAssertEqual(ready.status, 200)
        XCTAssertEqual(ready.json?["status"] as? String, "ready")
        XCTAssertEqual(HTTPClient.request(port, "HEAD", "/healthz").status, 200)
    }

    func testValidateMatchesTheLibraryReport() throws {
        let bytes = try Fixture.testImage("960x150")
        let result = HTTPClient.request(port, "POST", "/v1/validate?filename=banner.png", body: bytes)
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.headers["content-type"], "application/json")
        XCTAssertEqual(result.text, JSONContract.document(Validator.validate(bytes, fileName: "banner.png").json).serialized() + "\n")

        // A rejected creative is still a 200 with the report (the request itself succeeded).
        var wrong = bytes
        wrong.removeLast(100)
        let damaged = HTTPClient.request(port, "POST", "/v1/validate?filename=cut.png", body: wrong)
        XCTAssertEqual(damaged.status, 200)
        XCTAssertEqual(damaged.text, JSONContract.document(Validator.validate(wrong, fileName: "cut.png").json).serialized() + "\n")
        XCTAssertEqual(damaged.json?["valid"] as? Bool, false)

        let unnamed = HTTPClient.request(port, "POST", "/v1/validate", body: Array("hello".utf8))
        XCTAssertEqual(unnamed.json?["file"] as? String, "upload")
    }

    func testRenderOutputsExactSlotPixels() throws {
        let bytes = try Fixture.testImage("2184x270")
        let png = HTTPClient.request(port, "POST", "/v1/render?slot=390x61&scale=3", body: bytes)
        XCTAssertEqual(png.status, 200)
        XCTAssertEqual(png.headers["content-type"], "image/png")
        XCTAssertEqual(try ImageSource(bytes: png.body).displayedSize, PixelSize(width: 1170, height: 183))

        let jpeg = HTTPClient.request(port, "POST", "/v1/render?slot=320x50&scale=2.625&format=jpeg&background=%23ff0000",
                                      body: bytes)
        XCTAssertEqual(jpeg.status, 200)
        XCTAssertEqual(jpeg.headers["content-type"], "image/jpeg")
        XCTAssertEqual(try ImageSource(bytes: jpeg.body).displayedSize, PixelSize(width: 840, height: 131))

        let webp = HTTPClient.request(port, "POST", "/v1/render?slot=300x250&format=webp&enlarge=false", body: bytes)
        XCTAssertEqual(webp.headers["content-type"], "image/webp")
        XCTAssertEqual(try ImageSource(bytes: webp.body).displayedSize, PixelSize(width: 300, height: 250))

        // Same bytes as the library call the CLI makes.
        let settings = try RenderSettings(canvas: PixelSize(width: 1170, height: 183))
        XCTAssertEqual(png.body, try Renderer.render(try ImageSource(bytes: bytes), settings: settings).bytes)

        // No body: the built-in test artwork picked for the slot, as `render` with no file.
        let artwork = HTTPClient.request(port, "POST", "/v1/render?slot=320x50&scale=3", body: [])
        XCTAssertEqual(artwork.status, 200)
        XCTAssertEqual(try ImageSource(bytes: artwork.body).displayedSize, PixelSize(width: 960, height: 150))
    }

    func testRenderAutoNamesItsChoiceAndQualityIsForLossyFormats() throws {
        let bytes = try Fixture.testImage("2184x270")
        let auto = HTTPClient.request(port, "POST", "/v1/render?slot=390x61&scale=3&format=auto", body: bytes)
        XCTAssertEqual(auto.status, 200)
        let encoding = try XCTUnwrap(auto.headers["x-creative-encoding"])
        XCTAssertTrue(encoding.contains("(auto"), encoding)
        // The Content-Type is the format of the bytes.
        let sniffed = auto.body.starts(with: [0x89, 0x50]) ? "image/png" : auto.body.starts(with: [0xFF, 0xD8]) ? "image/jpeg" : "image/webp"
        XCTAssertEqual(auto.headers["content-type"], sniffed)
        XCTAssertEqual(try ImageSource(bytes: auto.body).displayedSize, PixelSize(width: 1170, height: 183))
        // The same choice as the library call the CLI makes.
        var settings = try RenderSettings(canvas: PixelSize(width: 1170, height: 183), format: .auto)
        settings.quality = nil
        XCTAssertEqual(auto.body, try Renderer.render(try ImageSource(bytes: bytes), settings: settings).bytes)
        let png = HTTPClient.request(port, "POST", "/v1/render?slot=390x61&scale=3", body: bytes)
        XCTAssertLessThan(auto.body.count, png.body.count)
        XCTAssertEqual(png.headers["x-creative-encoding"], "PNG, RGB, transparent key")

        let low = HTTPClient.request(port, "POST", "/v1/render?slot=390x61&scale=3&format=webp&quality=20", body: bytes)
        XCTAssertEqual(low.headers["x-creative-encoding"], "WebP quality 20")
        let plain = HTTPClient.request(port, "POST", "/v1/render?slot=390x61&scale=3&format=webp", body: bytes)
        XCTAssertLessThan(low.body.count, plain.body.count)
        for query in ["format=png&quality=50", "format=auto&quality=50", "format=webp&quality=0", "format=webp&quality=x"] {
            let refused = HTTPClient.request(port, "POST", "/v1/render?slot=390x61&\(query)", body: bytes)
            XCTAssertEqual(refused.status, 400, query)
        }
    }

    func testRenderRejectsABrokenCreativeWith422AndTheReport() throws {
        var bytes = try Fixture.testImage("960x150")
        bytes.removeLast(200)
        let result = HTTPClient.request(port, "POST", "/v1/render?slot=320x50", body: bytes)
        XCTAssertEqual(result.status, 422)
        XCTAssertEqual(result.errorCode, "corrupt_image")
        let report = result.json?["report"] as? [String: Any]
        XCTAssertEqual(report?["valid"] as? Bool, false)

        let garbage = HTTPClient.request(port, "POST", "/v1/render?slot=320x50", body: Array("not an image".utf8))
        XCTAssertEqual(garbage.status, 422)
        XCTAssertEqual(garbage.errorCode, "not_an_image")
    }

    func testSlotMatchesTheCLIFields() {
        let anchored = HTTPClient.request(port, "GET", "/v1/slot?width=390&rule=google&scale=3")
        XCTAssertEqual(anchored.status, 200)
        XCTAssertEqual(anchored.text, #"{"schema_version":2,"tool_version":"\#(BuildInfo.version)","slot_mode":"anchored","#
            + #""rule":"google","estimate":true,"screen_height_points":null,"slot_points":{"width":390,"height":61},"#
            + #""scale":3.0,"slot_pixels":{"width":1170,"height":183}}"# + "\n")
        let capped = HTTPClient.request(port, "GET", "/v1/slot?width=728&screen_height=400")
        XCTAssertEqual(capped.json?.sizeText("slot_points"), "728x60")
        let inline = HTTPClient.request(port, "GET", "/v1/slot?width=320&inline=true&max_height=100")
        XCTAssertEqual(inline.json?["slot_mode"] as? String, "inline")
        XCTAssertEqual((inline.json?["fits"] as? [Any])?.count, Product.banner.entries.count)
    }

    func testSelectPicksByTheAdaptiveRule() {
        let body = #"{"width":1170,"height":183,"candidates":["2184x270","960x150","300x250"]}"#
        let result = HTTPClient.request(port, "POST", "/v1/select", headers: [("Content-Type", "application/json")],
                                        body: Array(body.utf8))
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual((result.json?["winner"] as? [String: Any])?.sizeText("size_pixels"), "960x150")
        XCTAssertEqual(result.json?["slot_mode"] as? String, "anchored")
        XCTAssertEqual((result.json?["ranking"] as? [Any])?.count, 3)

        let legacy = HTTPClient.request(port, "POST", "/v1/select",
                                        body: Array(#"{"width":1000,"candidates":["960x150","1320x204"]}"#.utf8))
        XCTAssertEqual((legacy.json?["winner"] as? [String: Any])?.sizeText("size_pixels"), "960x150")

        let none = HTTPClient.request(port, "POST", "/v1/select",
                                      body: Array(#"{"width":1170,"height":183,"candidates":["300x250"]}"#.utf8))
        XCTAssertEqual(none.status, 422)
        XCTAssertEqual(none.errorCode, "no_eligible_creative")
    }

    func testTestArtworkIsTheCommittedFiles() throws {
        for size in ["960x150", "1320x204", "2184x270"] {
            let result = HTTPClient.request(port, "GET", "/v1/test-artwork/\(size).png")
            XCTAssertEqual(result.status, 200, size)
            XCTAssertEqual(result.headers["content-type"], "image/png")
            XCTAssertEqual(result.body, try Fixture.testImage(size), size)
        }
        XCTAssertEqual(HTTPClient.request(port, "GET", "/v1/test-artwork/320x50.png").status, 404)
    }

    func testMetricsCountRequestsLatencyAndMemory() {
        _ = HTTPClient.request(port, "GET", "/healthz")
        _ = HTTPClient.request(port, "GET", "/nowhere")
        _ = HTTPClient.request(port, "POST", "/v1/validate", body: Array("junk".utf8))
        let result = HTTPClient.request(port, "GET", "/metrics")
        XCTAssertEqual(result.status, 200)
        XCTAssertTrue(result.headers["content-type"]?.hasPrefix("text/plain") ?? false)
        let text = result.text
        XCTAssertTrue(text.contains(#"creative_http_requests_total{route="/healthz",method="GET",status="200"} 1"#), text)
        XCTAssertTrue(text.contains(#"creative_http_requests_total{route="unmatched",method="GET",status="404"} 1"#))
        XCTAssertTrue(text.contains(#"creative_http_request_duration_seconds_bucket{route="/healthz",le="+Inf"} 1"#))
        XCTAssertTrue(text.contains(#"creative_http_errors_total{code="not_found"} 1"#))
        XCTAssertTrue(text.contains(#"creative_rejections_total{code="not_an_image"} 1"#))
        XCTAssertTrue(text.contains("creative_http_requests_in_flight 1"))
        XCTAssertTrue(text.contains("process_resident_memory_bytes "))
        let buildInfo = #"creative_build_info{version="\#(BuildInfo.version)",libvips="\#(VipsRuntime.version)",libvips_file="\#(VipsRuntime.libraryPath ?? "")"} 1"#
        XCTAssertTrue(text.contains(buildInfo), text)
    }
}
