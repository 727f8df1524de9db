import CreativeImaging
import Foundation
import XCTest
@testable import CreativeService

/// Paths and a server started on an ephemeral loopback port for one test.
enum Fixture {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func testImage(_ size: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent("TestImages/test-artwork-\(size).png")))
    }

    /// Starts a server on port 0 (the kernel picks a free one) with request logging off.
    /// Its job deadline is 300 s, not the service's 10 s: a debug build on a loaded two-core
    /// machine takes more than 10 s for a process job, and what these tests check is the answer,
    /// not the clock. The deadline tests set their own (`JobDeadlineTests`).
    static func server(_ configure: (inout ServiceConfig) -> Void = { _ in }) throws -> Server {
        var config = ServiceConfig()
        config.port = 0
        config.adminPort = 0
        config.logRequests = false
        config.jobTimeout = 300
        configure(&config)
        return try Server(config: config)
    }

    /// A solid blue PNG of a size.
    static func bluePNG(_ width: Int, _ height: Int) throws -> [UInt8] {
        let black = try VipsOperation("black").with("width", .int(width)).with("height", .int(height))
            .with("bands", .int(3)).image()
        let blue = try VipsOperation("linear").with("in", .image(black)).with("a", .doubles([1, 1, 1]))
            .with("b", .doubles([0, 0, 255])).with("uchar", .bool(true)).image()
        return try VipsOperation("pngsave_buffer").with("in", .image(blue)).with("strip", .bool(true)).bytes()
    }

    /// Thrown by the tests that run the built tool when it is not there: they fail, never skip.
    struct BinaryMissing: Error, CustomStringConvertible {
        var description: String {
            "the built creative-tool is missing at \(Fixture.binary.path): build it first (make test runs swift build)"
        }
    }

    /// The built `creative-tool` beside the test bundle (`swift build` puts both in one folder).
    static let binary: URL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("creative-tool")

    /// A running `creative-tool serve` with its standard error on a pipe.
    struct RunningService {
        let process: Process
        let errors: FileHandle
        let port: Int
        let adminPort: Int
        /// The log read so far: the first line, `listening`.
        let firstLine: String

        /// Waits up to `seconds` for the process to exit; kills it (and fails) when it does not.
        func exitStatus(within seconds: Double, file: StaticString = #filePath, line: UInt = #line) -> Int32? {
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

        /// The whole log once the process has exited.
        func log() -> String { firstLine + String(decoding: errors.readDataToEndOfFile(), as: UTF8.self) }
    }

    /// Starts the built binary's `serve` on free loopback ports (data and admin) and reads its
    /// first log line, which says where it listens.
    static func startBinary(_ arguments: [String]) throws -> RunningService {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw Fixture.BinaryMissing()
        }
        let process = Process()
        process.executableURL = binary
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
        XCTAssertEqual(first?["event"] as? String, "listening")
        return RunningService(process: process, errors: handle, port: try XCTUnwrap(first?["port"] as? Int),
                              adminPort: try XCTUnwrap(first?["admin_port"] as? Int),
                              firstLine: String(decoding: line, as: UTF8.self))
    }
}

/// A test case with a service on a free loopback port for each test (`server`, `port`),
/// stopped afterwards.
class ServerTestCase: XCTestCase {
    var server: Server!
    var port: Int { server.port }

    override func setUpWithError() throws { server = try Fixture.server() }

    override func tearDown() {
        server.stop(grace: 5)
        server = nil
    }
}
