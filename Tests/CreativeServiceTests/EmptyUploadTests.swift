import CreativeCore
import CreativeImaging
import CreativeTestSupport
import Foundation
import XCTest
@testable import CreativeService

/// An empty body is an empty upload, answered as `creative-tool` answers an empty file: the
/// upload routes that take a creative report it or refuse it `empty_file` (422 with the report),
/// never with a status of their own; `/v1/render` alone keeps its documented meaning (no body:
/// the built-in test artwork). Each answer says a code in one sentence, the report's.
final class EmptyUploadTests: ServerTestCase {
    private func message(_ result: HTTPResult) -> String? {
        (result.json?["error"] as? [String: Any])?["message"] as? String
    }

    private func reportMessages(_ result: HTTPResult) -> [String: String] {
        let report = result.json?["report"] as? [String: Any] ?? result.json ?? [:]
        var messages: [String: String] = [:]
        for issue in report["errors"] as? [[String: Any]] ?? [] {
            if let code = issue["code"] as? String, let text = issue["message"] as? String { messages[code] = text }
        }
        return messages
    }

    func testAnEmptyBodyIsAnEmptyUploadOnEveryUploadRoute() throws {
        for path in ["/v1/fix", "/v1/fix?format=png", "/v1/process"] {
            let answer = HTTPClient.request(port, "POST", path, body: [])
            XCTAssertEqual(answer.status, 422, "\(path): \(answer.text)")
            XCTAssertEqual(answer.errorCode, "empty_file", "\(path): \(answer.text)")
            XCTAssertEqual(message(answer), reportMessages(answer)["empty_file"], "\(path): one sentence for empty_file")
        }
        let validate = HTTPClient.request(port, "POST", "/v1/validate", body: [])
        XCTAssertEqual(validate.status, 200, validate.text)
        XCTAssertEqual(validate.json?["valid"] as? Bool, false)
        XCTAssertNotNil(reportMessages(validate)["empty_file"], validate.text)
        // The render route's documented meaning stays: no body renders the test artwork.
        let render = HTTPClient.request(port, "POST", "/v1/render?slot=320x50", body: [])
        XCTAssertEqual(render.status, 200, render.text)
        XCTAssertEqual(Array(render.body.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
    }

    func testNotAnImageIsOneSentenceInOneAnswer() throws {
        let bytes = Array("not an image".utf8)
        for path in ["/v1/fix", "/v1/render?slot=320x50", "/v1/process"] {
            let answer = HTTPClient.request(port, "POST", path, body: bytes)
            XCTAssertEqual(answer.status, 422, "\(path): \(answer.text)")
            XCTAssertEqual(answer.errorCode, "not_an_image", path)
            XCTAssertEqual(message(answer), ImagingError.notAnImageMessage, "\(path): \(answer.text)")
            XCTAssertEqual(reportMessages(answer)["not_an_image"], ImagingError.notAnImageMessage, "\(path): \(answer.text)")
        }
    }
}
