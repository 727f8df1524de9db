import Foundation
import XCTest
import CreativeCore
import CreativeImaging
@testable import CreativeService

/// `/v1/guidance`, `/v1/prompt`, `/v1/process`: the same library calls as the CLI commands.
final class ContentRouteTests: ServerTestCase {
    func testGuidanceInEveryFormat() throws {
        for format in GuidanceFormat.allCases {
            let result = HTTPClient.request(port, "GET", "/v1/guidance?format=\(format.rawValue)")
            XCTAssertEqual(result.status, 200)
            XCTAssertEqual(result.headers["content-type"], format.mediaType)
            XCTAssertEqual(result.text, Guidance(product: .banner).render(format, prompts: format == .html ? try BannerPrompts.guidance(product: .banner) : [],
                                                          testArtworkBase: "/v1/test-artwork/"))
        }
        let filled = HTTPClient.request(port, "GET", "/v1/guidance?format=html&brand=Acme%20%3Cb%3E&headline=Fly&cta=Go&colors=navy")
        XCTAssertEqual(filled.status, 200)
        XCTAssertEqual(filled.text, Guidance(product: .banner).render(.html, prompts: try BannerPrompts.guidance(product: .banner, 
            brand: "Acme <b>", headline: "Fly", cta: "Go", colors: "navy"), testArtworkBase: "/v1/test-artwork/"))
        XCTAssertEqual(HTTPClient.request(port, "GET", "/v1/guidance?format=json&brand=Acme").status, 400)
        XCTAssertEqual(HTTPClient.request(port, "GET", "/v1/guidance?format=html&cta=" + String(repeating: "x", count: 501)).status, 400)
        XCTAssertEqual(HTTPClient.request(port, "GET", "/v1/guidance").headers["content-type"], "application/json")
        XCTAssertEqual(HTTPClient.request(port, "GET", "/v1/guidance?format=pdf").status, 400)
    }

    func testPromptObjectsAreTheCLIJSON() throws {
        let result = HTTPClient.request(port, "GET", "/v1/prompt?size=960x150&brand=Acme&headline=Fly%20now")
        XCTAssertEqual(result.status, 200)
        let expected = try BannerPrompts.render(size: PixelSize(width: 960, height: 150), brand: "Acme", headline: "Fly now", product: .banner)
        XCTAssertEqual(result.text, JSONContract.document(.object([("prompts", .array(expected.map(\.json)))])).serialized() + "\n")
        let all = HTTPClient.request(port, "GET", "/v1/prompt")
        XCTAssertEqual(((try JSONSerialization.jsonObject(with: Data(all.body)) as? [String: Any])?["prompts"] as? [Any])?.count,
                       Product.banner.recommendedUploads.count)
        XCTAssertEqual(HTTPClient.request(port, "GET", "/v1/prompt?size=961x150").status, 400)
    }

    func testProcessReturnsManifestAndFiles() throws {
        let bytes = try Fixture.testImage("960x150")
        let result = HTTPClient.request(port, "POST", "/v1/process?filename=banner.png", body: bytes)
        XCTAssertEqual(result.status, 200)
        let files = try XCTUnwrap(result.json?["files"] as? [[String: Any]])
        let job = try CreativeJob.process(bytes, fileName: "banner.png")
        XCTAssertEqual(files.count, job.files.count)
        for (file, expected) in zip(files, job.files) {
            XCTAssertEqual(file["file"] as? String, expected.name)
            XCTAssertEqual(Data(base64Encoded: file["base64"] as? String ?? "").map { [UInt8]($0) }, expected.bytes)
        }
        XCTAssertNotNil(result.json?["manifest"] as? [String: Any])
        // format= as `process --format`: lossless PNG renders on request.
        let lossless = HTTPClient.request(port, "POST", "/v1/process?filename=banner.png&format=png", body: bytes)
        XCTAssertEqual(lossless.status, 200)
        let names = try XCTUnwrap(lossless.json?["files"] as? [[String: Any]]).compactMap { $0["file"] as? String }
        XCTAssertTrue(names.allSatisfy { $0.hasSuffix(".png") || $0 == PreviewPage.name }, "\(names)")
        XCTAssertEqual(names.last, PreviewPage.name)
        XCTAssertEqual(HTTPClient.request(port, "POST", "/v1/process?format=gif", body: bytes).status, 400)
        let rejected = HTTPClient.request(port, "POST", "/v1/process", body: Array("nope".utf8))
        XCTAssertEqual(rejected.status, 422)
        XCTAssertNotNil(rejected.json?["report"])
    }

    func testBase64() {
        for (text, expected) in [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg==")] {
            XCTAssertEqual(Base64.encode(Array(text.utf8)), expected)
        }
    }
}
