import CreativeCore
import CreativeImaging
import Foundation
import XCTest
@testable import CreativeService

/// Requests with a chosen `Host` header (``HTTPClient/request`` always names 127.0.0.1).
enum HostRequests {
    static func get(_ port: Int, _ path: String, host: String, headers: [(String, String)] = []) -> HTTPResult {
        let fd = HTTPClient.connectSocket(port, timeoutSeconds: 10)
        defer { close(fd) }
        var head = "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        HTTPClient.sendAll(fd, Array((head + "\r\n").utf8))
        return HTTPClient.parse(HTTPClient.readAll(fd))
    }
}

/// Hostile input 5: which `Host` names the service answers without a token (DNS rebinding),
/// and the token rule. (The command line's side: ServeBinaryTests.)
final class HostNameTests: XCTestCase {
    // 5. Without a token, only loopback Host names (any port) are answered: a page that rebinds
    // its own name to 127.0.0.1 gets 403 `host_not_allowed`, on every route of the data plane.
    // The admin listener also answers IP addresses (probes name the address they reach).
    func testWithoutATokenOnlyLoopbackHostNamesAreAnswered() throws {
        let server = try Fixture.server()
        defer { server.stop(grace: 1) }
        for host in ["localhost", "localhost:8080", "LocalHost", "127.0.0.1", "127.0.0.1:\(server.port)", "[::1]", "[::1]:8080"] {
            XCTAssertEqual(HostRequests.get(server.port, "/v1/slot?width=320", host: host).status, 200, host)
            XCTAssertEqual(HostRequests.get(server.port, "/healthz", host: host).status, 200, host)
            XCTAssertEqual(HostRequests.get(server.adminPort, "/healthz", host: host).status, 200, host)
        }
        for host in ["evil.example", "evil.example:\(server.port)", "localhost.evil.example", "127.0.0.1.evil.example",
                     "10.0.0.1", "[::2]", "localhost:http", "[::1]8080", ""] {
            for path in ["/v1/slot?width=320", "/healthz", "/", "/v1/guidance?format=html", "/nowhere"] {
                let refused = HostRequests.get(server.port, path, host: host)
                XCTAssertEqual(refused.status, 403, "\(host) \(path)")
                XCTAssertEqual(refused.errorCode, "host_not_allowed", "\(host) \(path)")
            }
        }
        XCTAssertEqual(HostRequests.get(server.adminPort, "/metrics", host: "evil.example").errorCode, "host_not_allowed")
        XCTAssertEqual(HostRequests.get(server.adminPort, "/healthz", host: "10.1.2.3:8081").status, 200)
        XCTAssertEqual(HostRequests.get(server.adminPort, "/readyz", host: "[fd00::1]:8081").status, 200)
        let plain = HTTPClient.parse({
            let fd = HTTPClient.connectSocket(server.port, timeoutSeconds: 10)
            defer { close(fd) }
            HTTPClient.sendAll(fd, Array("GET /healthz HTTP/1.0\r\n\r\n".utf8))
            return HTTPClient.readAll(fd)
        }())
        XCTAssertEqual(plain.status, 200, "HTTP/1.0 without Host: not a browser")
    }

    // 5. `--allowed-host` adds names; with a token any Host is answered and the token guards /v1.
    func testAllowedHostsAndTokens() throws {
        let named = try Fixture.server { $0.allowedHosts = ["creative.internal"] }
        XCTAssertEqual(HostRequests.get(named.port, "/v1/slot?width=320", host: "creative.internal:8080").status, 200)
        XCTAssertEqual(HostRequests.get(named.port, "/v1/slot?width=320", host: "CREATIVE.internal").status, 200)
        XCTAssertEqual(HostRequests.get(named.port, "/v1/slot?width=320", host: "other.internal").status, 403)
        named.stop(grace: 1)

        let token = "0123456789abcdef-token"
        let locked = try Fixture.server { $0.token = token }
        defer { locked.stop(grace: 1) }
        let bearer = [("Authorization", "Bearer \(token)")]
        XCTAssertEqual(HostRequests.get(locked.port, "/v1/slot?width=320", host: "creative.example", headers: bearer).status, 200)
        XCTAssertEqual(HostRequests.get(locked.port, "/v1/slot?width=320", host: "creative.example").errorCode, "unauthorized")
        XCTAssertEqual(HostRequests.get(locked.port, "/healthz", host: "creative.example").status, 200)
        XCTAssertEqual(HostRequests.get(locked.adminPort, "/healthz", host: "creative-tool.default.svc:8081").status, 200)

        // Tokens under 16 bytes are refused at start.
        XCTAssertThrowsError(try Fixture.server { $0.token = "t" }) { error in
            XCTAssertTrue((error as? ServiceError)?.message.contains("at least 16") ?? false, "\(error)")
        }
        XCTAssertThrowsError(try Fixture.server { $0.token = String(repeating: "k", count: 15) })
        XCTAssertEqual(HostAllowList.name(ofHost: "[::1]:8080"), "[::1]")
        XCTAssertNil(HostAllowList.name(ofHost: "a:b"))
        XCTAssertNotNil(HostAllowList.problem(withName: "a.example:80"))
        XCTAssertNil(HostAllowList.problem(withName: "a.example"))
    }
}
