import Foundation
import CreativeTestSupport
import XCTest
@testable import CreativeService

/// The service under slow, oversized and malformed traffic, each over a real socket: probes stay
/// answerable, memory stays within its budget, framing is strict, refusals are readable.
final class HostileTrafficTests: XCTestCase {
    /// Sends `head` and waits (up to the socket's timeout) for the server to answer or hang up.
    private func exchange(_ port: Int, _ bytes: [UInt8], from source: String? = nil) -> [UInt8] {
        let fd = HTTPClient.connectSocket(port, from: source, timeoutSeconds: 10)
        defer { close(fd) }
        HTTPClient.sendAll(fd, bytes)
        return HTTPClient.readAll(fd)
    }

    private func responses(in bytes: [UInt8]) -> Int {
        String(decoding: bytes, as: UTF8.self).components(separatedBy: "HTTP/1.1 ").count - 1
    }

    /// The status of a GET, retried for up to 5 s while the service refuses connections (full).
    private func statusOnceFree(_ port: Int, _ path: String) -> Int {
        let deadline = Date().addingTimeInterval(5)
        var status = 0
        repeat {
            status = HTTPClient.request(port, "GET", path).status
            if status == 0 { usleep(50_000) }
        } while status == 0 && Date() < deadline
        return status
    }

    private func metric(_ port: Int, _ line: String) -> Bool {
        HTTPClient.request(port, "GET", "/metrics").text.contains(line)
    }

    // 1. Slowloris and idle connections: the admin listener answers while the data plane is full;
    // a slow header sender is cut at the header deadline; one client address cannot take every slot.
    func testSlowClientsCannotStarveProbes() throws {
        let server = try Fixture.server {
            $0.maxConnections = 4
            $0.maxConnectionsPerClient = 3
            $0.headerTimeout = 1
        }
        defer { server.stop(grace: 1) }
        var slow: [Int32] = []
        for source in ["127.0.0.2", "127.0.0.2", "127.0.0.2", "127.0.0.3"] {
            let fd = HTTPClient.connectSocket(server.port, from: source, timeoutSeconds: 10)
            HTTPClient.sendAll(fd, Array("GET /healthz HTTP/1.1\r\nHost: localhost\r\n".utf8))
            slow.append(fd)
        }
        // The data plane is full; the admin listener still answers.
        XCTAssertEqual(HTTPClient.request(server.adminPort, "GET", "/healthz").status, 200)
        XCTAssertEqual(HTTPClient.request(server.adminPort, "GET", "/readyz").status, 200)
        XCTAssertEqual(HTTPClient.request(server.adminPort, "GET", "/v1/slot?width=320").status, 404,
                       "the admin listener serves probes and metrics only")
        // Every slow sender is cut off at the header deadline (it never gets an answer), even
        // though it keeps sending a byte now and then.
        HTTPClient.sendAll(slow[0], Array("X".utf8))
        for fd in slow {
            XCTAssertTrue(HTTPClient.readAll(fd).isEmpty)
            close(fd)
        }
        // MHD frees a closed connection's place a moment after its socket is shut.
        XCTAssertEqual(statusOnceFree(server.port, "/healthz"), 200)
        XCTAssertTrue(metric(server.port, #"creative_connections_closed_total{reason="header_timeout"} 4"#))
    }

    // 1. A kept-alive connection that does not start its next request is closed at the header
    // deadline too, counted apart from slow senders.
    func testIdleKeepAliveIsClosed() throws {
        let server = try Fixture.server { $0.headerTimeout = 1 }
        defer { server.stop(grace: 1) }
        let fd = HTTPClient.connectSocket(server.port, timeoutSeconds: 10)
        defer { close(fd) }
        HTTPClient.sendAll(fd, Array("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
        XCTAssertEqual(HTTPClient.parse(HTTPClient.readAll(fd)).status, 200, "answered, then closed when idle")
        XCTAssertTrue(metric(server.port, #"creative_connections_closed_total{reason="keepalive_idle"} 1"#))
    }

    // 1. One client address cannot take every connection.
    func testConnectionsPerClientAreCapped() throws {
        let server = try Fixture.server {
            $0.maxConnections = 10
            $0.maxConnectionsPerClient = 3
        }
        defer { server.stop(grace: 1) }
        // Three kept-alive connections from one address, each answered once (so surely accepted).
        let held = (0..<3).map { _ in HTTPClient.connectSocket(server.port, from: "127.0.0.4", timeoutSeconds: 10) }
        for fd in held {
            HTTPClient.sendAll(fd, Array("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
            var buffer = [UInt8](repeating: 0, count: 1024)
            XCTAssertGreaterThan(buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }, 0)
        }
        let request = Array("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)
        XCTAssertTrue(exchange(server.port, request, from: "127.0.0.4").isEmpty, "a fourth is refused")
        XCTAssertEqual(HTTPClient.parse(exchange(server.port, request, from: "127.0.0.5")).status, 200)
        held.forEach { close($0) }
    }

    // 1. A body slower than the minimum rate is cut off after its grace time, answered first:
    // 408 `slow_body`, the JSON error, `Connection: close`.
    func testSlowBodyIsCutOff() throws {
        let server = try Fixture.server {
            $0.minBodyRate = 1000
            $0.bodyRateGrace = 0.5
        }
        defer { server.stop(grace: 1) }
        let fd = HTTPClient.connectSocket(server.port, timeoutSeconds: 10)
        defer { close(fd) }
        HTTPClient.sendAll(fd, Array("POST /v1/validate HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\nabc".utf8))
        let answer = HTTPClient.readAll(fd)
        XCTAssertEqual(responses(in: answer), 1)
        let parsed = HTTPClient.parse(answer)
        XCTAssertEqual(parsed.status, 408)
        XCTAssertEqual(parsed.errorCode, "slow_body")
        XCTAssertEqual(parsed.headers["connection"], "close")
        XCTAssertTrue(metric(server.port, #"creative_connections_closed_total{reason="slow_body"} 1"#))
    }

    // 2. Buffered bodies share one memory budget: a body that cannot get its share in time gets
    // 503 with Retry-After, readable even though the client sent the whole body first.
    func testBodiesOverTheMemoryBudgetGet503() throws {
        let server = try Fixture.server {
            $0.memoryBudget = 100_000
            $0.budgetWait = 0.2
        }
        defer { server.stop(grace: 1) }
        let body = [UInt8](repeating: 7, count: 60_000)
        XCTAssertEqual(HTTPClient.request(server.port, "POST", "/v1/validate", body: body).status, 200)
        XCTAssertTrue(server.budget.reserve(50_000, waitingUntil: 0))
        let refused = HTTPClient.request(server.port, "POST", "/v1/validate", body: body)
        XCTAssertEqual(refused.status, 503)
        XCTAssertEqual(refused.errorCode, "busy")
        XCTAssertEqual(refused.headers["retry-after"], "1")
        // A chunked body is charged as it grows.
        let chunked = HTTPClient.request(server.port, "POST", "/v1/validate", body: body, chunked: true)
        XCTAssertEqual(chunked.status, 503)
        server.budget.release(50_000)
        XCTAssertEqual(HTTPClient.request(server.port, "POST", "/v1/validate", body: body, chunked: true).status, 200)
        XCTAssertEqual(server.budget.inUse, 0, "every request gave its share back")
        XCTAssertTrue(metric(server.port, "creative_memory_budget_refusals_total 2\n"))
    }

    // 3. /v1/select takes a few KB, and at most 1024 JSON values, whatever the body.
    func testSelectBodiesAreSmall() throws {
        let server = try Fixture.server()
        defer { server.stop(grace: 1) }
        let huge = Array(("{\"candidates\":[" + Array(repeating: "0", count: 100_000).joined(separator: ",") + "]}").utf8)
        let tooLarge = HTTPClient.request(server.port, "POST", "/v1/select", body: huge)
        XCTAssertEqual(tooLarge.status, 413)
        XCTAssertEqual(tooLarge.errorCode, "payload_too_large")
        let many = Array(("{\"candidates\":[" + Array(repeating: "0", count: 2000).joined(separator: ",") + "]}").utf8)
        let refused = HTTPClient.request(server.port, "POST", "/v1/select", body: many)
        XCTAssertEqual(refused.status, 400)
        XCTAssertTrue(refused.text.contains("more than 1024 values"), refused.text)
    }

    // 5. Request smuggling's building blocks: 400, Connection: close, and nothing after is served.
    func testAmbiguousFramingGets400AndClose() throws {
        let server = try Fixture.server()
        defer { server.stop(grace: 1) }
        let smuggled = "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"
        for head in ["Content-Length: 5\r\nContent-Length: 60", "Content-Length: 5\r\nContent-Length: 5",
                     "Content-Length: 5\r\nTransfer-Encoding: chunked", "Transfer-Encoding: gzip, chunked",
                     "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked"] {
            let body = head.contains("chunked") ? "0\r\n\r\n" : "hello"
            let request = "POST /v1/select HTTP/1.1\r\nHost: localhost\r\n\(head)\r\n\r\n\(body)\(smuggled)"
            let answer = exchange(server.port, Array(request.utf8))
            let parsed = HTTPClient.parse(answer)
            XCTAssertEqual(parsed.status, 400, head)
            XCTAssertEqual(parsed.errorCode, "bad_request", head)
            XCTAssertEqual(parsed.headers["connection"], "close", head)
            XCTAssertEqual(responses(in: answer), 1, "the smuggled request is never served: \(head)")
        }
    }

    // Hostile input 5, item 6. A Content-Length libmicrohttpd's parser refuses (not a plain decimal
    // number, or over 64 bits) got its status line and headers twice and its HTML page. Now one
    // answer, the service's JSON error, Connection: close, and nothing after it is served.
    /// Sends `requestLine` with each malformed `Content-Length` (and a request smuggled after its
    /// body) to `port`: one answer each, the service's JSON error, `Connection: close`, nothing after.
    private func assertOneJSONAnswerToMalformedContentLength(port: Int, requestLine: String,
                                                             file: StaticString = #filePath, line: UInt = #line) {
        let smuggled = "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"
        let cases = [("+5", 400, "bad_request"), ("-1", 400, "bad_request"), ("5, 5", 400, "bad_request"),
                     ("0x5", 400, "bad_request"), (String(repeating: "1", count: 23), 413, "payload_too_large")]
        for (length, status, code) in cases {
            let request = "\(requestLine)\r\nHost: localhost\r\nContent-Length: \(length)\r\n\r\nhello\(smuggled)"
            let answer = exchange(port, Array(request.utf8))
            let parsed = HTTPClient.parse(answer)
            XCTAssertEqual(responses(in: answer), 1, "one answer for Content-Length: \(length)", file: file, line: line)
            XCTAssertEqual(parsed.status, status, length, file: file, line: line)
            XCTAssertEqual(parsed.errorCode, code, length, file: file, line: line)
            XCTAssertEqual(parsed.headers["content-type"], "application/json", length, file: file, line: line)
            XCTAssertEqual(parsed.headers["connection"], "close", length, file: file, line: line)
            XCTAssertEqual(parsed.body.count, Int(parsed.headers["content-length"] ?? ""), length, file: file, line: line)
        }
    }

    /// The admin listener answers what libmicrohttpd's parser refuses as the data plane does (it
    /// kept the library's status line and headers twice), and goes on answering.
    func testMalformedContentLengthOnTheAdminListenerGetsOneJSONAnswer() throws {
        let server = try Fixture.server()
        defer { server.stop(grace: 1) }
        assertOneJSONAnswerToMalformedContentLength(port: server.adminPort, requestLine: "GET /metrics HTTP/1.1")
        XCTAssertEqual(HTTPClient.request(server.adminPort, "GET", "/healthz").status, 200)
        XCTAssertEqual(HTTPClient.request(server.port, "GET", "/healthz").status, 200)
    }

    func testMalformedContentLengthGetsOneJSONAnswer() throws {
        let server = try Fixture.server()
        defer { server.stop(grace: 1) }
        assertOneJSONAnswerToMalformedContentLength(port: server.port, requestLine: "POST /v1/select HTTP/1.1")
        // Still counted as malformed requests, and none left in flight.
        let deadline = Date().addingTimeInterval(5)
        while !metric(server.port, "creative_http_requests_malformed_total 5\n") && Date() < deadline { usleep(20_000) }
        XCTAssertTrue(metric(server.port, "creative_http_requests_malformed_total 5\n"))
        XCTAssertTrue(metric(server.port, "creative_http_requests_in_flight 1\n"))
        XCTAssertEqual(HTTPClient.request(server.port, "GET", "/healthz").status, 200)
    }

    // Hostile input 5, item 7. Chunk lines libmicrohttpd refuses (a size over 64 bits, a line that
    // is not hexadecimal) are answered at once with the service's JSON error: 413 and 400.
    func testRefusedChunkLinesGetJSONAnswersAtOnce() throws {
        let server = try Fixture.server()
        defer { server.stop(grace: 1) }
        let head = "POST /v1/validate HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
        for (line, status, code) in [("1" + String(repeating: "0", count: 16), 413, "payload_too_large"),
                                     (String(repeating: "f", count: 40), 413, "payload_too_large"),
                                     ("zz", 400, "bad_request"), ("5;x\r\nhelloXX", 400, "bad_request")] {
            // No last chunk: the answer must come without the rest of the body (the socket's
            // 10 s timeout would end the read with nothing otherwise).
            let answer = exchange(server.port, Array((head + line + "\r\nhello").utf8))
            let parsed = HTTPClient.parse(answer)
            XCTAssertEqual(responses(in: answer), 1, line)
            XCTAssertEqual(parsed.status, status, line)
            XCTAssertEqual(parsed.errorCode, code, line)
            XCTAssertEqual(parsed.headers["connection"], "close", line)
        }
        // A chunk extension that never ends is refused once it fills libmicrohttpd's read buffer
        // (the connection's 256 KiB): 400, at once, with the JSON body.
        let endless = exchange(server.port, Array((head + "5;" + String(repeating: "x", count: 300_000)).utf8))
        XCTAssertEqual(responses(in: endless), 1)
        XCTAssertEqual(HTTPClient.parse(endless).status, 400)
        XCTAssertEqual(HTTPClient.parse(endless).errorCode, "bad_request")
        XCTAssertEqual(HTTPClient.request(server.port, "GET", "/healthz").status, 200)
    }

    // Hostile input 5, item 7. A chunk size within 64 bits (2^64-1, 4 GiB) is parsed by
    // libmicrohttpd alone, which hands the service only the chunk's data: one announced and never
    // sent, as a chunk extension that stalls, is answered 408 `slow_body` (the JSON error) at the
    // body-rate window's end, not left to close without an answer.
    func testAnAnnouncedChunkNeverSentIsAnsweredWhenItsWindowEnds() throws {
        let server = try Fixture.server {
            $0.minBodyRate = 1000
            $0.bodyRateGrace = 0.5
        }
        defer { server.stop(grace: 1) }
        let head = "POST /v1/validate HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
        for line in ["ffffffffffffffff\r\n", "100000000\r\nabc", "5;" + String(repeating: "x", count: 20_000)] {
            let answer = exchange(server.port, Array((head + line).utf8))
            XCTAssertEqual(responses(in: answer), 1, line.prefix(20) + "")
            let parsed = HTTPClient.parse(answer)
            XCTAssertEqual(parsed.status, 408, line.prefix(20) + "")
            XCTAssertEqual(parsed.errorCode, "slow_body", line.prefix(20) + "")
        }
        XCTAssertEqual(HTTPClient.request(server.port, "GET", "/healthz").status, 200)
    }

    // 8. Host, absolute form, long targets and header sections.
    func testRequestLineAndHeaderRules() throws {
        let server = try Fixture.server()
        defer { server.stop(grace: 1) }
        let port = server.port
        let noHost = HTTPClient.parse(exchange(port, Array("GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n".utf8)))
        XCTAssertEqual(noHost.status, 400)
        let twoHosts = HTTPClient.parse(exchange(port, Array("GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n".utf8)))
        XCTAssertEqual(twoHosts.status, 400)
        let http10 = HTTPClient.parse(exchange(port, Array("GET /healthz HTTP/1.0\r\n\r\n".utf8)))
        XCTAssertEqual(http10.status, 200, "HTTP/1.0 needs no Host")
        let absolute = HTTPClient.parse(exchange(port, Array("GET http://localhost/v1/slot?width=320 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)))
        XCTAssertEqual(absolute.status, 200)
        XCTAssertEqual(absolute.json?.sizeText("slot_points")?.hasPrefix("320x"), true)
        // About 1000 query parameters: answered, not dropped (400 under 8 KB, 414 over it).
        let short = (0..<1000).map { "a\($0)=1" }.joined(separator: "&")
        XCTAssertEqual(HTTPClient.request(port, "GET", "/v1/slot?" + short).status, 400, "unknown parameters")
        let long = (0..<1000).map { "a\($0)=123" }.joined(separator: "&")
        let manyParameters = HTTPClient.request(port, "GET", "/v1/slot?" + long)
        XCTAssertEqual(manyParameters.status, 414)
        XCTAssertEqual(manyParameters.errorCode, "uri_too_long")
        let headers = (0..<200).map { ("X-Filler-\($0)", String(repeating: "y", count: 100)) }
        let bigHeaders = HTTPClient.request(port, "GET", "/healthz", headers: headers)
        XCTAssertEqual(bigHeaders.status, 431)
        XCTAssertEqual(bigHeaders.errorCode, "header_fields_too_large")
        // Past libmicrohttpd's own per-connection memory (256 KiB) its parser answers 431 itself;
        // the request is still logged and counted.
        let huge = (0..<300).map { ("X-Filler-\($0)", String(repeating: "y", count: 1000)) }
        XCTAssertEqual(HTTPClient.request(port, "GET", "/healthz", headers: huge).status, 431)
        XCTAssertTrue(metric(port, "creative_http_requests_malformed_total 1\n"))
        // Parameters that would exhaust that memory while it is parsed are refused before it
        // stores them (the target's screen); header lines that exhaust it get its own 431. Either
        // way the request is finished, so nothing stays in flight (a drain would wait for it).
        let flood = HTTPClient.parse(exchange(port, Array(("GET /healthz?" + String(repeating: "a&", count: 4000)
                                                           + " HTTP/1.1\r\nHost: localhost\r\n\r\n").utf8)))
        XCTAssertEqual(flood.status, 400)
        XCTAssertEqual(flood.errorCode, "too_many_parameters")
        _ = exchange(port, Array(("GET /healthz HTTP/1.1\r\nHost: localhost\r\n" + String(repeating: "X:y\r\n", count: 6000) + "\r\n").utf8))
        let deadline = Date().addingTimeInterval(5)
        while !metric(port, "creative_http_requests_malformed_total 2\n") && Date() < deadline { usleep(20_000) }
        XCTAssertTrue(metric(port, "creative_http_requests_in_flight 1\n"))
        XCTAssertTrue(metric(port, "creative_http_requests_malformed_total 2\n"))
        XCTAssertTrue(metric(port, #"creative_http_errors_total{code="uri_too_long"} 1"#))
        XCTAssertTrue(metric(port, #"creative_http_errors_total{code="header_fields_too_large"} 1"#))
    }

    // Hostile input 1. A flood of (empty) query parameters exhausted libmicrohttpd's
    // per-connection memory while it parsed them, and the connection closed with no answer.
    // Now every such request is answered, on both listeners: 400 `too_many_parameters` past 64
    // parameters, 414 past 8 KiB, and the connection stays usable for the next client.
    func testParameterFloodsAreAnswered() throws {
        let server = try Fixture.server()
        defer { server.stop(grace: 1) }
        for port in [server.port, server.adminPort] {
            for count in [500, 4030, 8000] {
                let answer = HTTPClient.parse(exchange(port, Array(("GET /healthz?" + String(repeating: "&", count: count)
                                                                    + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").utf8)))
                XCTAssertEqual(answer.status, 400, "\(count) empty parameters on port \(port)")
                XCTAssertEqual(answer.errorCode, "too_many_parameters", "\(count) empty parameters on port \(port)")
                XCTAssertEqual(answer.headers["connection"], "close")
            }
            let long = HTTPClient.request(port, "GET", "/healthz?" + String(repeating: "&", count: 20_000))
            XCTAssertEqual(long.status, 414, "port \(port)")
            if port == server.port {
                XCTAssertEqual(long.errorCode, "uri_too_long")
            }  // else over the admin listener's 16 KiB line buffer: libmicrohttpd's own 414 page
            // At the limit the parameters reach the route, which names the unknown one.
            let atLimit = HTTPClient.request(port, "GET", "/healthz?" + String(repeating: "&", count: TargetScreen.maxParameters - 1))
            XCTAssertEqual(atLimit.status, 400)
            XCTAssertEqual(atLimit.errorCode, "bad_request")
            let overLimit = HTTPClient.request(port, "GET", "/healthz?" + String(repeating: "&", count: TargetScreen.maxParameters))
            XCTAssertEqual(overLimit.errorCode, "too_many_parameters")
            XCTAssertEqual(HTTPClient.request(port, "GET", "/healthz").status, 200)
        }
        XCTAssertTrue(metric(server.port, "creative_http_requests_in_flight 1\n"))
    }

    // Hostile input 2. A NUL in the path, raw or as %00, ended the path for libmicrohttpd's C
    // strings: `/v1/slot%00/evil` was served as `/v1/slot`. Now 400 `invalid_path`, on both
    // listeners, whatever follows the NUL (a query, a fake version, a parameter flood).
    func testNULInThePathIs400() throws {
        let server = try Fixture.server()
        defer { server.stop(grace: 1) }
        let targets: [[UInt8]] = [
            Array("/v1/test-artwork/960x150.png%00.html".utf8), Array("/v1/slot%00/evil?width=320".utf8),
            Array("/healthz%00".utf8), Array("/v1/slot".utf8) + [0] + Array("/evil?width=320".utf8),
            Array("/healthz".utf8) + [0] + Array("x".utf8),
            Array("/v1/slot".utf8) + [0] + Array("HTTP/1.1".utf8) + [0] + Array("?width=320".utf8),
            Array("/healthz".utf8) + [0] + Array("?".utf8) + [UInt8](repeating: UInt8(ascii: "&"), count: 5000),
        ]
        for port in [server.port, server.adminPort] {
            for target in targets {
                let request = Array("GET ".utf8) + target + Array(" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
                let answer = HTTPClient.parse(exchange(port, request))
                let shown = String(decoding: target.prefix(48), as: UTF8.self).debugDescription
                XCTAssertEqual(answer.status, 400, "\(shown) on port \(port)")
                XCTAssertEqual(answer.errorCode, "invalid_path", "\(shown) on port \(port)")
            }
        }
        XCTAssertEqual(HTTPClient.request(server.port, "GET", "/v1/test-artwork/960x150.png").status, 200)
        XCTAssertEqual(HTTPClient.request(server.port, "GET", "/v1/slot?width=320").status, 200)
    }

    // 8. Over-limit bodies: the 413 comes as soon as the limit is passed (a chunked body still being
    // sent), and a client that writes its whole body before reading still reads it.
    func testOverLimitBodiesAreAnsweredEarlyAndDrained() throws {
        let server = try Fixture.server { $0.maxBodyBytes = 100_000 }
        defer { server.stop(grace: 1) }
        let fd = HTTPClient.connectSocket(server.port, timeoutSeconds: 10)
        HTTPClient.sendAll(fd, Array("POST /v1/validate HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
        let chunk = Array("4000\r\n".utf8) + [UInt8](repeating: 1, count: 0x4000) + Array("\r\n".utf8)
        for _ in 0..<8 { HTTPClient.sendAll(fd, chunk) }  // 128 KiB, and no last chunk
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        close(fd)
        XCTAssertGreaterThan(count, 0)
        let early = HTTPClient.parse(Array(buffer[0..<max(0, count)]))
        XCTAssertEqual(early.status, 413)
        XCTAssertEqual(early.errorCode, "payload_too_large")
        // The whole (declared) body first, then read: the answer is there, not a reset.
        let body = [UInt8](repeating: 2, count: 1_000_000)
        let answer = exchange(server.port, Array("POST /v1/render?slot=320x50 HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
        XCTAssertEqual(HTTPClient.parse(answer).status, 413)
        XCTAssertEqual(HTTPClient.request(server.port, "GET", "/healthz").status, 200)
    }

    // 6. A non-loopback address needs a token, unless unauthenticated serving is asked for.
    func testNonLoopbackNeedsATokenOrAnExplicitFlag() throws {
        XCTAssertThrowsError(try Fixture.server { $0.host = "0.0.0.0" }) { error in
            XCTAssertTrue((error as? ServiceError)?.message.contains("--token-file") ?? false)
        }
        XCTAssertTrue(ServiceConfig.isLoopback("127.0.0.1"))
        XCTAssertTrue(ServiceConfig.isLoopback("127.1.2.3"))
        XCTAssertTrue(ServiceConfig.isLoopback("::1"))
        XCTAssertFalse(ServiceConfig.isLoopback("::"))
        XCTAssertFalse(ServiceConfig.isLoopback("10.0.0.1"))
        var config = ServiceConfig()
        config.host = "0.0.0.0"
        config.token = "0123456789abcdef"
        XCTAssertNil(config.insecurity)
        config.token = nil
        config.allowUnauthenticated = true
        XCTAssertNil(config.insecurity)
    }

    // 4. The log queue never blocks its caller: with nobody reading, lines are dropped and counted.
    func testLogSinkDropsInsteadOfBlocking() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        // The pipe stays open: its writer thread stays blocked on it, as on a log nobody reads
        // (closing the read end would raise SIGPIPE in it; closing the write end could let it
        // write into a reused descriptor).
        let sink = LogSink(fd: fds[1], capacityBytes: 4096)
        let line = String(repeating: "x", count: 1000)
        for _ in 0..<200 { sink.append(line) }  // 200 KB into a 64 KiB pipe that nobody reads
        XCTAssertGreaterThan(sink.droppedLines, 100)
    }
}
