import Foundation
import CreativeTestSupport
import XCTest
@testable import CreativeService

/// "Hostile input, part 4", item 4, over real sockets: uploads that send all but a few bytes
/// fast, then stall, held the whole memory budget for minutes (the body rate was an average from
/// the body's start), and every render got 503 `busy`. Each window of the body must now bring its
/// share, and a short budget first cuts the bodies that reserved the most and send the slowest.
final class StalledBodyTests: XCTestCase {
    private func metric(_ port: Int, _ line: String) -> Bool {
        HTTPClient.request(port, "GET", "/metrics").text.contains(line)
    }

    /// Polls `/metrics` for `line` for up to `seconds`.
    private func waitForMetric(_ port: Int, _ line: String, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if metric(port, line) { return true }
            usleep(100_000)
        }
        return false
    }

    /// Opens a connection that sends a `length`-byte upload's head and all but `short` of its bytes.
    private func stalledUpload(_ port: Int, length: Int, short: Int) -> Int32 {
        let fd = HTTPClient.connectSocket(port, timeoutSeconds: 30)
        HTTPClient.sendAll(fd, Array("POST /v1/validate HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(length)\r\n\r\n".utf8)
                           + [UInt8](repeating: 7, count: length - short))
        return fd
    }

    func testAFastStartBuysNoStallLater() throws {
        // 100,000 bytes at once, then nothing: over the average from the start that is 100 s at
        // 1000 bytes a second; the window after the burst brings nothing, so it is cut.
        let server = try Fixture.server {
            $0.minBodyRate = 1000
            $0.bodyRateGrace = 0.5
        }
        defer { server.stop(grace: 1) }
        let fd = stalledUpload(server.port, length: 200_000, short: 100_000)
        defer { close(fd) }
        XCTAssertTrue(waitForMetric(server.port, #"creative_connections_closed_total{reason="slow_body"} 1"#, seconds: 20))
        XCTAssertEqual(HTTPClient.parse(HTTPClient.readAll(fd)).errorCode, "slow_body", "cut, answered 408 first")
    }

    func testStalledBodiesDoNotHoldTheBudgetFromARender() throws {
        // Ten 4 MiB uploads stalled 200 bytes short hold the whole 40 MiB budget; the per-window
        // rule alone would need a minute here (60 s windows), so only the budget's pressure cuts them.
        let upload = 4 << 20
        let server = try Fixture.server {
            $0.memoryBudget = 10 * upload
            $0.bodyRateGrace = 60
            $0.budgetWait = 2
        }
        defer { server.stop(grace: 1) }
        let stalled = (0..<10).map { _ in stalledUpload(server.port, length: upload, short: 200) }
        defer { stalled.forEach { close($0) } }
        let held = Date().addingTimeInterval(20)
        while server.budget.inUse < 10 * upload && Date() < held { usleep(50_000) }
        XCTAssertEqual(server.budget.inUse, 10 * upload, "the stalled bodies hold the whole budget")
        // Once their bytes are in, a second passes without more: the service sees them stalled.
        let stalledSeen = Date().addingTimeInterval(30)
        while server.stalledBodies < 10 && Date() < stalledSeen { usleep(50_000) }
        XCTAssertEqual(server.stalledBodies, 10)
        // A normal render still answers, and a probe too.
        let render = HTTPClient.request(server.port, "POST", "/v1/render?slot=320x50", body: try Fixture.bluePNG(320, 50))
        XCTAssertEqual(render.status, 200, render.text)
        XCTAssertEqual(HTTPClient.request(server.adminPort, "GET", "/readyz").status, 200)
        let text = HTTPClient.request(server.port, "GET", "/metrics").text
        let cut = text.split(separator: "\n").first { $0.hasPrefix(#"creative_connections_closed_total{reason="budget_pressure"}"#) }
        let count = cut.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
        XCTAssertGreaterThanOrEqual(count, 1, text)
        XCTAssertLessThan(count, 10, "only as many as the render needed were cut")
        // The cut ones were closed, not answered; the budget comes back whole when all are gone.
        stalled.forEach { shutdown($0, Int32(SHUT_RDWR)) }
        let released = Date().addingTimeInterval(20)
        while server.budget.inUse > 0 && Date() < released { usleep(50_000) }
        XCTAssertEqual(server.budget.inUse, 0)
    }
}
