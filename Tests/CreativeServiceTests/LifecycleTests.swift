import Foundation
import XCTest
import CreativeCore
@testable import CreativeService

/// Graceful stop (in process and through the binary's SIGTERM), binding and the health probe.
final class LifecycleTests: XCTestCase {
    func testStopFinishesTheRequestInFlight() throws {
        let server = try Fixture.server {
            $0.workers = 1
            $0.queue = 4
        }
        let port = server.port
        XCTAssertTrue(server.gate.enter())  // hold the only slot: the next job waits in line
        let answered = expectation(description: "request in flight answered")
        let box = ResultBox()
        let bytes = try Fixture.testImage("960x150")
        Thread.detachNewThread {
            box.result = HTTPClient.request(port, "POST", "/v1/validate", body: bytes)
            answered.fulfill()
        }
        while server.gate.load.waiting == 0 { usleep(1000) }
        let stopped = expectation(description: "stop returned")
        Thread.detachNewThread {
            server.stop(grace: 10)
            stopped.fulfill()
        }
        usleep(200_000)
        // Draining: no new connections are accepted.
        XCTAssertFalse(Self.canConnect(port))
        server.gate.leave()
        wait(for: [answered, stopped], timeout: 10)
        XCTAssertEqual(box.result?.status, 200)
        XCTAssertEqual(box.result?.json?["valid"] as? Bool, true)
    }

    func testBindsLoopbackByDefaultAndRejectsBadHosts() throws {
        XCTAssertEqual(ServiceConfig().host, "127.0.0.1")
        XCTAssertThrowsError(try Fixture.server { $0.host = "example.com" })
        let server = try Fixture.server()
        defer { server.stop(grace: 1) }
        XCTAssertThrowsError(try Fixture.server { $0.port = server.port }, "port in use")
        XCTAssertTrue(HealthProbe.check(port: server.port))
        XCTAssertTrue(HealthProbe.check(port: server.adminPort))
    }

    func testBinaryExitsZeroOnSIGTERM() throws {
        let running = try Fixture.startBinary(["--workers", "1"])
        let port = running.port
        XCTAssertEqual(HTTPClient.request(port, "GET", "/healthz").status, 200)
        XCTAssertEqual(HTTPClient.request(port, "GET", "/v1/slot?width=320", headers: [("Authorization", "Bearer abc")]).status, 200)
        kill(running.process.processIdentifier, SIGTERM)
        XCTAssertEqual(running.exitStatus(within: 40), 0)
        let rest = running.log()
        let lines = rest.split(separator: "\n")
        XCTAssertTrue(lines.contains { $0.contains(#""route":"/v1/slot""#) && $0.contains(#""status":200"#) })
        XCTAssertTrue(lines.contains { $0.contains(#""event":"stopped""#) })
        XCTAssertFalse(rest.contains("abc\""), "the Authorization header is never logged")
        for text in lines {
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(text.utf8)), String(text))
        }
    }

    static func canConnect(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}

final class ResultBox: @unchecked Sendable {
    var result: HTTPResult?
}

final class JSONParserTests: XCTestCase {
    func testParsesAndRejects() throws {
        let value = try JSONParser.parse(Array(#" {"a":[1,-2.5e1,"x\u00e9\n",true,false,null],"b":{}} "#.utf8))
        XCTAssertEqual(value.serialized(), #"{"a":[1,-25.0,"xé\n",true,false,null],"b":{}}"#)
        for bad in ["", "{", "[1,]", "01", "{\"a\"}", "\"\\q\"", "1 2", "nul", String(repeating: "[", count: 100)] {
            XCTAssertThrowsError(try JSONParser.parse(Array(bad.utf8)), bad) { error in
                XCTAssertTrue(error is JSONParser.Failure, "\(bad): \(error)")
            }
        }
    }
}
