import CreativeCore
import CreativeImaging
import CreativeTestSupport
import Foundation
import XCTest
@testable import CreativeService

/// `POST /v1/fix`: the fixed file with its changes in headers, or one JSON document with
/// `Accept: application/json`; the same refusals as `creative-tool fix`, as HTTP statuses.
final class FixRouteTests: ServerTestCase {
    private func changes(_ result: HTTPResult) -> [String] {
        result.fields.filter { $0.name == "x-creative-change" }.map(\.value)
    }

    private func assertClean(_ bytes: [UInt8], _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        let report = Validator.validate(bytes, fileName: name)
        XCTAssertTrue(report.valid, "\(report.errors)", file: file, line: line)
        XCTAssertEqual(report.warnings, [], file: file, line: line)
    }

    func testANearMissIsAnsweredAsTheFixedFileWithOneHeaderAChange() throws {
        let input = try TestArtwork.generate(PixelSize(width: 961, height: 150))
        let result = HTTPClient.request(port, "POST", "/v1/fix", body: input)
        XCTAssertEqual(result.status, 200, result.text)
        XCTAssertEqual(result.headers["content-type"], "image/png")
        XCTAssertEqual(try ImageSource(bytes: result.body).displayedSize, PixelSize(width: 960, height: 150))
        let said = changes(result)
        XCTAssertEqual(said.count, 2, "\(said)")
        XCTAssertTrue(said.first?.hasPrefix("resized: 961x150 resized to 960x150, the accepted size (aspect ratio 0.10% off): ")
                      ?? false, "\(said)")
        XCTAssertTrue(said.last?.hasPrefix("reencoded: ") ?? false, "\(said)")
        XCTAssertTrue(result.headers["x-creative-encoding"]?.hasPrefix("PNG") ?? false)
        assertClean(result.body, "fixed.png")
    }

    func testAPhotographIsAnsweredAsJSONWithinTheWeight() throws {
        let photo = try Fixtures.heavyPhotographJPEG()
        XCTAssertGreaterThan(photo.count, 1_300_000)
        let result = HTTPClient.request(port, "POST", "/v1/fix", headers: [("Accept", "application/json")], body: photo)
        XCTAssertEqual(result.status, 200, result.text)
        XCTAssertEqual(result.headers["content-type"], "application/json")
        let json = try XCTUnwrap(result.json)
        XCTAssertEqual(json["format"] as? String, "jpeg")
        XCTAssertEqual(json["input_bytes"] as? Int, photo.count)
        XCTAssertTrue(json["file"] is NSNull)
        let file = [UInt8](try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(json["base64"] as? String))))
        XCTAssertEqual(json["file_bytes"] as? Int, file.count)
        XCTAssertLessThanOrEqual(file.count, Catalog.weightGuidelineBytes)
        XCTAssertEqual((json["changes"] as? [[String: Any]])?.compactMap { $0["code"] as? String },
                       ["metadata_stripped", "weight_reduced"])
        assertClean(file, "fixed.jpg")
    }

    func testTheNewcomersFilesWithFormatEachValidateWithNoWarning() throws {
        let flat = HTTPClient.request(port, "POST", "/v1/fix?format=png",
                                      body: try Fixtures.save("pngsave_buffer", try Fixtures.flatArt(961, 150)))
        XCTAssertEqual(flat.status, 200, flat.text)
        XCTAssertTrue(changes(flat).first?.hasSuffix("(no pixel resampled)") ?? false, "\(changes(flat))")
        assertClean(flat.body, "fixed.png")
        let photo = HTTPClient.request(port, "POST", "/v1/fix?format=jpeg", body: try Fixtures.photographPNG())
        XCTAssertEqual(photo.status, 200, photo.text)
        XCTAssertEqual(photo.headers["content-type"], "image/jpeg")
        XCTAssertLessThanOrEqual(photo.body.count, 150_000)
        XCTAssertEqual(changes(photo).first, "format_changed: PNG written as JPEG (the format asked for)")
        assertClean(photo.body, "fixed.jpg")
        // No format: the PNG that cannot be within the weight is answered as JPEG.
        let fallback = HTTPClient.request(port, "POST", "/v1/fix", body: try Fixtures.photographPNG())
        XCTAssertEqual(fallback.status, 200, fallback.text)
        XCTAssertEqual(fallback.headers["content-type"], "image/jpeg")
        let cmyk = HTTPClient.request(port, "POST", "/v1/fix?format=jpeg",
                                      body: try Fixtures.cmykJPEG(try Fixtures.artwork(728, 90)))
        XCTAssertEqual(cmyk.status, 200, cmyk.text)
        assertClean(cmyk.body, "fixed.jpg")
        let gif = HTTPClient.request(port, "POST", "/v1/fix?format=png", body: try Fixtures.animatedArtworkGIF(320, 50))
        XCTAssertEqual(gif.status, 200, gif.text)
        XCTAssertEqual(gif.headers["content-type"], "image/png")
        XCTAssertEqual(changes(gif).dropFirst().first, "format_changed: GIF written as PNG (the format asked for)")
        assertClean(gif.body, "fixed.png")
    }

    func testTheArtworksOwnWarningIsAnsweredInAHeader() throws {
        let bars = try VipsOperation("embed").with("in", .image(try Fixtures.solid(640, 150, [200, 30, 30])))
            .with("x", .int(160)).with("y", .int(0)).with("width", .int(960)).with("height", .int(150))
            .with("extend", .enumeration("white")).image()
        let result = HTTPClient.request(port, "POST", "/v1/fix", body: try Fixtures.save("pngsave_buffer", bars))
        XCTAssertEqual(result.status, 200, result.text)
        XCTAssertTrue(result.headers["x-creative-warning"]?.hasPrefix("baked_in_bars: ") ?? false, "\(result.headers)")
    }

    func testACMYKJPEGAndAnAnimatedGIFAreFixed() throws {
        let cmyk = HTTPClient.request(port, "POST", "/v1/fix", body: try Fixtures.cmykJPEG(try Fixtures.artwork(728, 90)))
        XCTAssertEqual(cmyk.status, 200, cmyk.text)
        XCTAssertEqual(cmyk.headers["content-type"], "image/jpeg")
        XCTAssertEqual(changes(cmyk).first, "converted_to_srgb: CMYK converted to sRGB through its embedded profile")
        assertClean(cmyk.body, "fixed.jpg")
        let gif = HTTPClient.request(port, "POST", "/v1/fix?frame=2", body: try Fixtures.animatedArtworkGIF(728, 90))
        XCTAssertEqual(gif.status, 200, gif.text)
        XCTAssertEqual(gif.headers["content-type"], "image/gif")
        XCTAssertEqual(changes(gif).first, "frame_kept: animated GIF of 3 frames: frame 2 kept as the still image")
        assertClean(gif.body, "fixed.gif")
    }

    func testRefusalsHaveTheirStatusAndCode() throws {
        let far = HTTPClient.request(port, "POST", "/v1/fix", body: try TestArtwork.generate(PixelSize(width: 1000, height: 150)))
        XCTAssertEqual(far.status, 422)
        XCTAssertEqual(far.errorCode, "size_too_far")
        let frame = HTTPClient.request(port, "POST", "/v1/fix?frame=9", body: try Fixtures.animatedArtworkGIF(728, 90))
        XCTAssertEqual(frame.status, 400)
        XCTAssertTrue(frame.text.contains("give 1 to 3"), frame.text)
        XCTAssertEqual(HTTPClient.request(port, "POST", "/v1/fix?size=961x150", body: [1]).status, 400)
        XCTAssertEqual(HTTPClient.request(port, "POST", "/v1/fix", body: []).status, 422)
        let garbage = HTTPClient.request(port, "POST", "/v1/fix", body: Array("not an image".utf8))
        XCTAssertEqual(garbage.status, 422)
        XCTAssertEqual(garbage.errorCode, "not_an_image")
        let bundle = HTTPClient.request(port, "POST", "/v1/fix", body: [0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 0, count: 26))
        XCTAssertEqual(bundle.status, 422)
        XCTAssertEqual(bundle.errorCode, "unsupported_format")
    }

    func testAProfileSetsTheWeight() throws {
        let photo = try Fixtures.save("jpegsave_buffer", try Fixtures.photograph(960, 150), [("Q", .int(100))])
        let result = HTTPClient.request(port, "POST", "/v1/fix?profile=iab-lean", body: photo)
        XCTAssertEqual(result.status, 200, result.text)
        XCTAssertLessThanOrEqual(result.body.count, 50_000)
        XCTAssertTrue(changes(result).last?.contains("within the weight of 50000 bytes") ?? false, "\(changes(result))")
        XCTAssertEqual(HTTPClient.request(port, "POST", "/v1/fix?profile=nowhere", body: photo).status, 400)
    }

    func testAcceptPicksJSONOnlyWhenAskedFor() {
        XCTAssertTrue(FixHandlers.wantsJSON("application/json"))
        XCTAssertTrue(FixHandlers.wantsJSON("image/*;q=0.5, application/json"))
        XCTAssertFalse(FixHandlers.wantsJSON("application/json; q=0"))
        XCTAssertFalse(FixHandlers.wantsJSON("image/png, */*"))
        XCTAssertFalse(FixHandlers.wantsJSON(nil))
    }
}
