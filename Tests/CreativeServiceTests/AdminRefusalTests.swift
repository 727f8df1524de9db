import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import CreativeService

/// The admin listener answers a request libmicrohttpd's parser refuses as the data plane does:
/// one answer, the service's JSON error (it kept the library's status line and headers twice).
final class AdminRefusalTests: XCTestCase {
    private func exchange(_ port: Int, _ bytes: [UInt8]) -> [UInt8] {
        let fd = HTTPClient.connectSocket(port, timeoutSeconds: 10)
        defer { close(fd) }
        HTTPClient.sendAll(fd, bytes)
        return HTTPClient.readAll(fd)
    }

    func testMalformedContentLengthOnTheAdminListenerGetsOneJSONAnswer() throws {
        let server = try Fixture.server()
        defer { server.stop(grace: 1) }
        let smuggled = "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"
        let cases = [("+5", 400, "bad_request"), ("-1", 400, "bad_request"), ("5, 5", 400, "bad_request"),
                     ("0x5", 400, "bad_request"), (String(repeating: "1", count: 23), 413, "payload_too_large")]
        for (length, status, code) in cases {
            let request = "GET /metrics HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(length)\r\n\r\nhello\(smuggled)"
            let answer = exchange(server.adminPort, Array(request.utf8))
            let parsed = HTTPClient.parse(answer)
            let lines = String(decoding: answer, as: UTF8.self).components(separatedBy: "HTTP/1.1 ").count - 1
            XCTAssertEqual(lines, 1, "one answer for Content-Length: \(length)")
            XCTAssertEqual(parsed.status, status, length)
            XCTAssertEqual(parsed.errorCode, code, length)
            XCTAssertEqual(parsed.headers["content-type"], "application/json", length)
            XCTAssertEqual(parsed.headers["connection"], "close", length)
            XCTAssertEqual(parsed.body.count, Int(parsed.headers["content-length"] ?? ""), "nothing after the body: \(length)")
        }
        // The listener goes on answering, and the data plane is untouched.
        XCTAssertEqual(HTTPClient.request(server.adminPort, "GET", "/healthz").status, 200)
        XCTAssertEqual(HTTPClient.request(server.port, "GET", "/healthz").status, 200)
    }
}
