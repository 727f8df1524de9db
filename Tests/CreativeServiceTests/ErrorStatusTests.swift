import Foundation
import XCTest
import CreativeCore
@testable import CreativeService

/// Every error status, each with the JSON error body `{"error":{"code","message"}}`.
final class ErrorStatusTests: XCTestCase {
    private func assertError(_ result: HTTPResult, _ status: Int, _ code: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, status, result.text, file: file, line: line)
        XCTAssertEqual(result.headers["content-type"], "application/json", file: file, line: line)
        XCTAssertEqual(result.errorCode, code, result.text, file: file, line: line)
        let message = (result.json?["error"] as? [String: Any])?["message"] as? String
        XCTAssertFalse(message?.isEmpty ?? true, file: file, line: line)
    }

    func testTokenGuardsEveryV1Route() throws {
        let server = try Fixture.server { $0.token = "s3cret-token-0123456789" }
        defer { server.stop(grace: 5) }
        let port = server.port
        for (method, path) in [("POST", "/v1/validate"), ("POST", "/v1/render?slot=320x50"), ("GET", "/v1/slot?width=320"),
                               ("POST", "/v1/select"), ("GET", "/v1/test-artwork/960x150.png"),
                               ("GET", "/v1/guidance"), ("GET", "/v1/prompt"), ("POST", "/v1/process")] {
            let missing = HTTPClient.request(port, method, path, body: method == "POST" ? [] : nil)
            assertError(missing, 401, "unauthorized")
            XCTAssertEqual(missing.headers["www-authenticate"], "Bearer")
            let wrong = HTTPClient.request(port, method, path, headers: [("Authorization", "Bearer s3cret-tokeX")],
                                           body: method == "POST" ? [] : nil)
            assertError(wrong, 401, "unauthorized")
        }
        let good = HTTPClient.request(port, "GET", "/v1/slot?width=320", headers: [("Authorization", "Bearer s3cret-token-0123456789")])
        XCTAssertEqual(good.status, 200)
        // Health and metrics stay open for probes and scrapers.
        XCTAssertEqual(HTTPClient.request(port, "GET", "/healthz").status, 200)
        XCTAssertEqual(HTTPClient.request(port, "GET", "/readyz").status, 200)
        XCTAssertEqual(HTTPClient.request(port, "GET", "/metrics").status, 200)
    }

    func testConstantTimeCompare() {
        XCTAssertTrue(Auth.constantTimeEqual(Array("abc".utf8), Array("abc".utf8)))
        XCTAssertFalse(Auth.constantTimeEqual(Array("abc".utf8), Array("abd".utf8)))
        XCTAssertFalse(Auth.constantTimeEqual(Array("abc".utf8), Array("abcd".utf8)))
        XCTAssertFalse(Auth.constantTimeEqual([], Array("a".utf8)))
        XCTAssertTrue(Auth(token: nil).allows(authorization: nil))
        XCTAssertTrue(Auth(token: "t").allows(authorization: "bearer t"))
        XCTAssertFalse(Auth(token: "t").allows(authorization: "Basic t"))
    }

    func testUnknownRouteWrongMethodAndBadQuery() throws {
        let server = try Fixture.server()
        defer { server.stop(grace: 5) }
        let port = server.port
        assertError(HTTPClient.request(port, "GET", "/v2/render"), 404, "not_found")
        assertError(HTTPClient.request(port, "GET", "/v1/render/"), 404, "not_found")
        assertError(HTTPClient.request(port, "GET", "/v1/test-artwork/../../etc/passwd.png"), 404, "not_found")
        let wrong = HTTPClient.request(port, "GET", "/v1/render?slot=320x50")
        assertError(wrong, 405, "method_not_allowed")
        XCTAssertEqual(wrong.headers["allow"], "POST")
        assertError(HTTPClient.request(port, "DELETE", "/healthz"), 405, "method_not_allowed")
        assertError(HTTPClient.request(port, "POST", "/v1/slot?width=320", body: []), 405, "method_not_allowed")
        for query in ["", "?slot=abc", "?slot=320x50&scale=9", "?slot=320x50&format=gif", "?slot=320x50&background=reddish",
                      "?slot=320x50&format=jpeg&background=transparent", "?slot=320x50&slot=320x50",
                      "?slot=320x50&bogus=1", "?slot=99999x1", "?slot=320x50&enlarge=maybe"] {
            assertError(HTTPClient.request(port, "POST", "/v1/render\(query)", body: []), 400, "bad_request")
        }
        for query in ["", "?width=0", "?width=x", "?width=320&rule=apple", "?width=320&inline=true&rule=google",
                      "?width=320&max_height=90"] {
            assertError(HTTPClient.request(port, "GET", "/v1/slot\(query)"), 400, "bad_request")
        }
        assertError(HTTPClient.request(port, "POST", "/v1/validate?file=x", body: []), 400, "bad_request")
        for body in ["", "{", "[]", #"{"width":1}"#, #"{"width":1,"candidates":[]}"#, #"{"width":1,"candidates":["1x"]}"#,
                     #"{"width":1,"height":2,"mode":"diagonal","candidates":["2x1"]}"#, #"{"width":1,"extra":1,"candidates":["2x1"]}"#,
                     #"{"width":1.5,"candidates":["2x1"]}"#, #"{"width":1,"mode":"inline","candidates":["2x1"]}"#] {
            assertError(HTTPClient.request(port, "POST", "/v1/select", body: Array(body.utf8)), 400, "bad_request")
        }
    }

    func testOversizedBodiesGet413BeforeTheyAreBuffered() throws {
        let server = try Fixture.server {
            $0.maxBodyBytes = 1000
            $0.maxJSONBodyBytes = 100
        }
        defer { server.stop(grace: 5) }
        let port = server.port
        // Content-Length over the limit: answered at the headers, with nothing of the body sent.
        let fd = HTTPClient.connectSocket(port)
        HTTPClient.sendAll(fd, Array("POST /v1/validate HTTP/1.1\r\nHost: localhost\r\nContent-Length: 50000000\r\n\r\n".utf8))
        let early = HTTPClient.parse(HTTPClient.readAll(fd))
        close(fd)
        assertError(early, 413, "payload_too_large")
        // A chunked body that grows past the limit.
        let chunked = HTTPClient.request(port, "POST", "/v1/render?slot=320x50", body: [UInt8](repeating: 7, count: 5000),
                                         chunked: true)
        assertError(chunked, 413, "payload_too_large")
        // At the limit is fine.
        XCTAssertEqual(HTTPClient.request(port, "POST", "/v1/validate", body: [UInt8](repeating: 7, count: 1000)).status, 200)
        // Even a GET route counts a body against the limit (the small one of non-upload routes).
        assertError(HTTPClient.request(port, "GET", "/healthz", body: [UInt8](repeating: 1, count: 200)), 413,
                    "payload_too_large")
        assertError(HTTPClient.request(port, "POST", "/v1/select", body: [UInt8](repeating: 0x20, count: 200)), 413,
                    "payload_too_large")
    }

    func testBusyGateAnswers503WithRetryAfter() throws {
        let server = try Fixture.server {
            $0.workers = 1
            $0.queue = 0
        }
        defer { server.stop(grace: 5) }
        XCTAssertTrue(server.gate.enter())
        let busy = HTTPClient.request(server.port, "POST", "/v1/validate", body: Array("x".utf8))
        assertError(busy, 503, "busy")
        XCTAssertEqual(busy.headers["retry-after"], "1")
        // Routes that are not image jobs still answer.
        XCTAssertEqual(HTTPClient.request(server.port, "GET", "/healthz").status, 200)
        server.gate.leave()
        XCTAssertEqual(HTTPClient.request(server.port, "POST", "/v1/validate", body: Array("x".utf8)).status, 200)
    }

    func testQueuedJobWaitsForASlot() throws {
        let gate = JobGate(slots: 1, queue: 1, maxWait: 0.2)
        XCTAssertTrue(gate.enter())
        XCTAssertFalse(gate.enter(), "waits 0.2 s, then gives up")
        let queued = JobGate(slots: 1, queue: 1, maxWait: 5)
        XCTAssertTrue(queued.enter())
        let done = expectation(description: "queued job ran")
        Thread.detachNewThread {
            if queued.enter() {
                queued.leave()
                done.fulfill()
            }
        }
        while queued.load.waiting == 0 { usleep(1000) }
        XCTAssertFalse(queued.enter(), "the line is full")
        queued.leave()
        wait(for: [done], timeout: 5)
        XCTAssertFalse(JobGate(slots: 0, queue: 5).enter(), "a gate of 0 refuses everything")
    }

    func testTruncatedUploadsAndGarbageLeaveTheServiceHealthy() throws {
        let server = try Fixture.server { $0.connectionTimeout = 1 }
        defer { server.stop(grace: 5) }
        let port = server.port
        // Promise 10000 bytes, send 10, hang up.
        let fd = HTTPClient.connectSocket(port)
        HTTPClient.sendAll(fd, Array("POST /v1/render?slot=320x50 HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10000\r\n\r\n0123456789".utf8))
        close(fd)
        // A slow client that stops mid-body is cut off by the connection timeout: the server
        // closes the connection (the read ends at its end), not the client's own 30 s timeout.
        let slow = HTTPClient.connectSocket(port)
        HTTPClient.sendAll(slow, Array("POST /v1/validate HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\nab".utf8))
        var byte: UInt8 = 0
        let read = recv(slow, &byte, 1, 0)
        let readError = errno
        close(slow)
        XCTAssertEqual(read, 0, "the server closed the connection (recv errno \(readError) otherwise)")
        // Not HTTP at all.
        let junk = HTTPClient.connectSocket(port)
        HTTPClient.sendAll(junk, Array("\u{1}\u{2}garbage\r\n\r\n".utf8))
        _ = HTTPClient.readAll(junk)
        close(junk)
        XCTAssertEqual(HTTPClient.request(port, "GET", "/healthz").status, 200)
        let bytes = try Fixture.testImage("960x150")
        XCTAssertEqual(HTTPClient.request(port, "POST", "/v1/render?slot=320x50", body: bytes).status, 200)
        // Every request state was released: nothing left in flight but the metrics request itself.
        XCTAssertTrue(HTTPClient.request(port, "GET", "/metrics").text.contains("creative_http_requests_in_flight 1\n"))
    }
}
