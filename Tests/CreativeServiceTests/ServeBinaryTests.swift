import Foundation
import XCTest
@testable import CreativeService

/// The built binary's `serve` under a stalled log pipe, stray signals and an insecure address.
final class ServeBinaryTests: XCTestCase {
    /// A running `creative-tool serve` with its standard error on a pipe.
    private struct Running {
        let process: Process
        let errors: FileHandle
        let port: Int
        let adminPort: Int
        /// The log read so far (the first line, until the test reads more).
        var log: String
    }

    private func start(_ arguments: [String]) throws -> Running {
        guard FileManager.default.isExecutableFile(atPath: Fixture.binary.path) else {
            throw XCTSkip("build the tool first (make test runs swift build)")
        }
        let process = Process()
        process.executableURL = Fixture.binary
        process.arguments = ["serve", "--port", "0", "--admin-port", "0"] + arguments
        let pipe = Pipe()
        process.standardError = pipe
        try process.run()
        var line = Data()
        let handle = pipe.fileHandleForReading
        while !line.contains(0x0A) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let first = try JSONSerialization.jsonObject(with: line.split(separator: 0x0A)[0]) as? [String: Any]
        return Running(process: process, errors: handle, port: try XCTUnwrap(first?["port"] as? Int),
                       adminPort: try XCTUnwrap(first?["admin_port"] as? Int), log: String(decoding: line, as: UTF8.self))
    }

    /// Waits up to `seconds` for the process to exit; kills it (and fails) when it does not.
    private func exitStatus(_ process: Process, within seconds: Double, file: StaticString = #filePath, line: UInt = #line) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        guard !process.isRunning else {
            XCTFail("the service did not exit within \(seconds) s", file: file, line: line)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    /// One request on a kept-alive connection; reads exactly one response.
    private func keptAlive(_ fd: Int32, _ path: String) -> Int {
        HTTPClient.sendAll(fd, Array("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return 0 }
            data.append(contentsOf: buffer[0..<count])
            let parsed = HTTPClient.parse(data)
            if parsed.status != 0, let length = parsed.headers["content-length"].flatMap(Int.init), parsed.body.count >= length {
                return parsed.status
            }
        }
    }

    // 4. Nobody reads the log pipe: requests, probes and SIGTERM still go through; lines are dropped and counted.
    func testUnreadLogPipeNeverStallsTheService() throws {
        let running = try start(["--workers", "1"])
        let fd = HTTPClient.connectSocket(running.port, timeoutSeconds: 10)
        let path = "/" + String(repeating: "p", count: 300)
        var answered = 0
        for _ in 0..<4000 where keptAlive(fd, path) == 404 { answered += 1 }
        close(fd)
        XCTAssertEqual(answered, 4000)
        XCTAssertEqual(HTTPClient.request(running.adminPort, "GET", "/healthz").status, 200)
        let metrics = HTTPClient.request(running.adminPort, "GET", "/metrics").text
        let dropped = metrics.split(separator: "\n").first { $0.hasPrefix("creative_log_lines_dropped_total ") }
        XCTAssertGreaterThan(Int(dropped?.split(separator: " ").last ?? "0") ?? 0, 0)
        kill(running.process.processIdentifier, SIGTERM)
        XCTAssertEqual(exitStatus(running.process, within: 10), 0)
    }

    // 8. SIGHUP and SIGUSR1 are ignored and logged; SIGTERM still drains and exits 0.
    func testHangupAndUser1AreIgnored() throws {
        let running = try start([])
        kill(running.process.processIdentifier, SIGHUP)
        kill(running.process.processIdentifier, SIGUSR1)
        usleep(200_000)
        XCTAssertTrue(running.process.isRunning)
        XCTAssertEqual(HTTPClient.request(running.port, "GET", "/healthz").status, 200)
        kill(running.process.processIdentifier, SIGTERM)
        XCTAssertEqual(exitStatus(running.process, within: 10), 0)
        let log = running.log + String(decoding: running.errors.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(log.contains(#""signal":\#(SIGHUP),"action":"ignored""#), log)
        XCTAssertTrue(log.contains(#""signal":\#(SIGUSR1),"action":"ignored""#), log)
        XCTAssertTrue(log.contains(#""event":"stopped""#))
    }

    // 6. Every interface without a token is refused (exit 64) unless asked for, then logged as a warning.
    func testNonLoopbackWithoutTokenIsRefused() throws {
        guard FileManager.default.isExecutableFile(atPath: Fixture.binary.path) else {
            throw XCTSkip("build the tool first (make test runs swift build)")
        }
        let refused = Process()
        refused.executableURL = Fixture.binary
        refused.arguments = ["serve", "--host", "0.0.0.0", "--port", "0", "--admin-port", "0"]
        let pipe = Pipe()
        refused.standardError = pipe
        try refused.run()
        let message = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        refused.waitUntilExit()
        XCTAssertEqual(refused.terminationStatus, 64)
        XCTAssertTrue(message.contains("--token-file"), message)

        let running = try start(["--host", "0.0.0.0", "--allow-unauthenticated"])
        kill(running.process.processIdentifier, SIGTERM)
        XCTAssertEqual(exitStatus(running.process, within: 10), 0)
        let log = running.log + String(decoding: running.errors.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(log.contains(#""event":"warning""#), log)
    }
}
