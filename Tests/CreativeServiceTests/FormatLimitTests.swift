import CreativeCore
import CreativeImaging
import Foundation
import XCTest
@testable import CreativeService

/// Hostile input 6: each output format's size limit, read when the request is. (The command
/// line's side: ServeBinaryTests.)
final class FormatLimitTests: XCTestCase {
    // 6. A slot over the output format's limit (WebP: 16383 px a side; auto may pick WebP) is
    // refused when the query is read: 400 `canvas_too_large`, with an upload or without (it
    // was a 500 `internal_error` and a 422 with a bogus `empty_file` report).
    func testCanvasOverTheFormatsLimitIsRefusedBeforeAnyWork() throws {
        let server = try Fixture.server()
        defer { server.stop(grace: 1) }
        let upload = try Fixture.testImage("960x150")
        for format in ["webp", "auto"] {
            for body in [upload, []] {
                let refused = HTTPClient.request(server.port, "POST", "/v1/render?slot=16384x100&format=\(format)", body: body)
                XCTAssertEqual(refused.status, 400, "\(format), \(body.count) bytes")
                XCTAssertEqual(refused.errorCode, "canvas_too_large", refused.text)
            }
        }
        XCTAssertEqual(HTTPClient.request(server.port, "POST", "/v1/render?slot=8192x50&scale=2&format=webp", body: upload).errorCode,
                       "canvas_too_large", "the canvas counts, not the points")
        // At the limit it renders (a thin strip: the job's cost stays far under its memory budget).
        let fits = HTTPClient.request(server.port, "POST", "/v1/render?slot=16383x20&format=webp", body: upload)
        XCTAssertEqual(fits.status, 200, fits.text)
        XCTAssertEqual(fits.headers["content-type"], "image/webp")
        XCTAssertEqual(HTTPClient.request(server.port, "POST", "/v1/render?slot=16384x20&format=jpeg", body: upload).status, 200)
        XCTAssertEqual(FormatChoice.fixed(.webp).maxSide, 16_383)
        XCTAssertEqual(FormatChoice.fixed(.jpeg).maxSide, 65_535)
        XCTAssertEqual(FormatChoice.fixed(.png).maxSide, PixelSize.maximumSide)
        XCTAssertEqual(FormatChoice.auto.maxSide, 16_383)
        XCTAssertNil(FormatChoice.fixed(.webp).canvasRefusal(PixelSize(width: 16_383, height: 16_383)))
    }
}
