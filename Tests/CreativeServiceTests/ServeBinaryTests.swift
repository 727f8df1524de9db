import Foundation
import XCTest
import CreativeCore
import CreativeImaging
@testable import CreativeService

/// The built binary's `serve` under a stalled log pipe, stray signals and an insecure address.
final class ServeBinaryTests: XCTestCase {
    /// One request on a kept-alive connection; reads exactly one response.
    private func keptAlive(_ fd: Int32, _ path: String) -> Int {
        HTTPClient.sendAll(fd, Array("GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
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
        let running = try Fixture.startBinary(["--workers", "1"])
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
        XCTAssertEqual(running.exitStatus(within: 10), 0)
    }

    // 8. SIGHUP and SIGUSR1 are ignored and logged; SIGTERM still drains and exits 0.
    func testHangupAndUser1AreIgnored() throws {
        let running = try Fixture.startBinary([])
        kill(running.process.processIdentifier, SIGHUP)
        kill(running.process.processIdentifier, SIGUSR1)
        usleep(200_000)
        XCTAssertTrue(running.process.isRunning)
        XCTAssertEqual(HTTPClient.request(running.port, "GET", "/healthz").status, 200)
        kill(running.process.processIdentifier, SIGTERM)
        XCTAssertEqual(running.exitStatus(within: 10), 0)
        let log = running.log()
        XCTAssertTrue(log.contains(#""signal":\#(SIGHUP),"action":"ignored""#), log)
        XCTAssertTrue(log.contains(#""signal":\#(SIGUSR1),"action":"ignored""#), log)
        XCTAssertTrue(log.contains(#""event":"stopped""#))
    }

    // Hostile input 3. SIGUSR2, SIGALRM and SIGVTALRM killed the service at once, without the
    // drain; now they are ignored and logged like SIGUSR1, and SIGTERM still drains.
    func testUser2AndAlarmsAreIgnored() throws {
        let running = try Fixture.startBinary([])
        for signal in [SIGUSR2, SIGALRM, SIGVTALRM] {
            kill(running.process.processIdentifier, signal)
            usleep(100_000)
            XCTAssertTrue(running.process.isRunning, "signal \(signal)")
        }
        XCTAssertEqual(HTTPClient.request(running.port, "GET", "/healthz").status, 200)
        XCTAssertEqual(HTTPClient.request(running.adminPort, "GET", "/readyz").status, 200)
        kill(running.process.processIdentifier, SIGTERM)
        XCTAssertEqual(running.exitStatus(within: 10), 0)
        let log = running.log()
        for signal in [SIGUSR2, SIGALRM, SIGVTALRM] {
            XCTAssertTrue(log.contains(#""signal":\#(signal),"action":"ignored""#), log)
        }
        XCTAssertTrue(log.contains(#""signal":\#(SIGTERM),"action":"drain""#), log)
        XCTAssertTrue(log.contains(#""event":"stopped""#))
    }

    // Hostile input 5. A one-character token was accepted; under 16 bytes is a usage error (64)
    // with one line naming the file. `--allowed-host` repeats, and is checked.
    func testShortTokensAndBadAllowedHostsAreRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("token-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let short = folder.appendingPathComponent("short")
        try Data("x\n".utf8).write(to: short)
        let refused = try runBinaryReadingErrors(["serve", "--port", "0", "--admin-port", "0", "--token-file", short.path])
        XCTAssertEqual(refused.status, 64)
        let first = refused.errors.split(separator: "\n").first.map(String.init) ?? ""
        XCTAssertTrue(first.contains("--token-file \(short.path): the token is 1 bytes; give one of at least 16"), refused.errors)
        let fifteen = folder.appendingPathComponent("fifteen")
        try Data(String(repeating: "k", count: 15).utf8).write(to: fifteen)
        XCTAssertEqual(try runBinaryReadingErrors(["serve", "--port", "0", "--admin-port", "0", "--token-file", fifteen.path]).status, 64)
        for bad in ["creative.internal:8080", "", "a/b"] {
            XCTAssertEqual(try runBinaryReadingErrors(["serve", "--port", "0", "--admin-port", "0", "--allowed-host", bad]).status, 64, bad)
        }
        let good = folder.appendingPathComponent("good")
        try Data((String(repeating: "k", count: 16) + "\n").utf8).write(to: good)
        let locked = try Fixture.startBinary(["--token-file", good.path])
        kill(locked.process.processIdentifier, SIGTERM)
        XCTAssertEqual(locked.exitStatus(within: 10), 0)
        XCTAssertTrue(locked.firstLine.contains(#""auth":true"#), locked.firstLine)
        let open = try Fixture.startBinary(["--allowed-host", "creative.internal", "--allowed-host", "Other.Example"])
        defer {
            kill(open.process.processIdentifier, SIGTERM)
            XCTAssertEqual(open.exitStatus(within: 10), 0)
        }
        XCTAssertTrue(open.firstLine.contains(#""allowed_hosts":["127.0.0.1","[::1]","creative.internal","localhost","other.example"]"#),
                      open.firstLine)
        XCTAssertEqual(HostRequests.get(open.port, "/healthz", host: "creative.internal:\(open.port)").status, 200)
        XCTAssertEqual(HostRequests.get(open.port, "/healthz", host: "third.example").errorCode, "host_not_allowed")
    }

    /// Runs the binary and returns its exit status and standard error.
    private func runBinaryReadingErrors(_ arguments: [String]) throws -> (status: Int32, errors: String) {
        guard FileManager.default.isExecutableFile(atPath: Fixture.binary.path) else {
            throw Fixture.BinaryMissing()
        }
        let process = Process()
        process.executableURL = Fixture.binary
        process.arguments = arguments
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let errors = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, errors)
    }

    // Hostile input 6, on the command line: the output format's limit is read from the same rule
    // as the service's (FormatChoice.canvasRefusal), before any work.
    func testRenderRefusesACanvasOverTheFormatsLimit() throws {
        for format in ["webp", "auto"] {
            let refused = try runBinaryReadingErrors(["render", "--slot", "16384x100", "--format", format, "--output", "-"])
            XCTAssertEqual(refused.status, 64, format)
            let first = refused.errors.split(separator: "\n").first.map(String.init) ?? ""
            XCTAssertTrue(first.hasPrefix("creative-tool render: --format \(format): 16384x100 pixels is over 16383 pixels a side"),
                          refused.errors)
        }
        XCTAssertEqual(try runBinaryReadingErrors(["render", "--slot", "16383x100", "--format", "webp", "--output", "/dev/null"]).status, 0)
    }

    // 6. Every interface without a token is refused (exit 64) unless asked for, then logged as a warning.
    func testNonLoopbackWithoutTokenIsRefused() throws {
        guard FileManager.default.isExecutableFile(atPath: Fixture.binary.path) else {
            throw Fixture.BinaryMissing()
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

        let running = try Fixture.startBinary(["--host", "0.0.0.0", "--allow-unauthenticated"])
        kill(running.process.processIdentifier, SIGTERM)
        XCTAssertEqual(running.exitStatus(within: 10), 0)
        let log = running.log()
        XCTAssertTrue(log.contains(#""event":"warning""#), log)
    }

    /// Runs the binary with extra environment variables and returns its exit status.
    private func runBinary(_ arguments: [String], environment: [String: String]) throws -> Int32 {
        let process = Process()
        process.executableURL = Fixture.binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    // The container's HEALTHCHECK takes its port from the same variable as `serve` (CREATIVE_ADMIN_PORT).
    func testHealthcheckFollowsTheConfiguredAdminPort() throws {
        let running = try Fixture.startBinary([])
        XCTAssertEqual(try runBinary(["serve", "--healthcheck"], environment: ["CREATIVE_ADMIN_PORT": "\(running.adminPort)"]), 0)
        // Nothing listens on port 1: the check fails (exit 1), and a port that is not a number is a usage error.
        XCTAssertEqual(try runBinary(["serve", "--healthcheck"], environment: ["CREATIVE_ADMIN_PORT": "1"]), 1)
        XCTAssertEqual(try runBinary(["serve", "--healthcheck"], environment: ["CREATIVE_ADMIN_PORT": "http"]), 64)
        // The flag wins over the environment.
        XCTAssertEqual(try runBinary(["serve", "--healthcheck", "--admin-port", "\(running.adminPort)"],
                                     environment: ["CREATIVE_ADMIN_PORT": "1"]), 0)
        kill(running.process.processIdentifier, SIGTERM)
        XCTAssertEqual(running.exitStatus(within: 10), 0)
    }

    // The start line names the libvips in use and its file; the process maps that one libvips and,
    // with the wheel's (which carries its own GLib), no system GLib, GObject or libvips beside it.
    func testStartLineNamesTheOneLibvipsMapped() throws {
        let running = try Fixture.startBinary([])
        defer {
            kill(running.process.processIdentifier, SIGTERM)
            XCTAssertEqual(running.exitStatus(within: 10), 0)
        }
        XCTAssertEqual(HTTPClient.request(running.port, "POST", "/v1/validate", body: try Fixture.testImage("960x150")).status, 200)
        let first = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(running.firstLine.split(separator: "\n")[0].utf8))
                                  as? [String: Any])
        XCTAssertEqual(first["libvips"] as? String, VipsRuntime.version)
        let file = try XCTUnwrap(first["libvips_file"] as? String, running.firstLine)
        XCTAssertEqual(file, VipsRuntime.libraryPath)
        // Read to the end: a /proc file reports a size of 0.
        let handle = try XCTUnwrap(FileHandle(forReadingAtPath: "/proc/\(running.process.processIdentifier)/maps"))
        let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        handle.closeFile()
        let mapped = Set(maps.split(separator: "\n").compactMap { line in line.firstIndex(of: "/").map { String(line[$0...]) } })
        XCTAssertTrue(mapped.contains(file), file)
        let names = mapped.map { $0.split(separator: "/").last.map(String.init) ?? $0 }
        XCTAssertEqual(names.filter { $0.hasPrefix("libvips") && $0.contains(".so") }, [file.split(separator: "/").last.map(String.init)!])
        if file.split(separator: "/").last?.hasPrefix("libvips-") == true {
            let systemGLib = ["libglib-2.0", "libgobject-2.0", "libgio-2.0", "libgmodule-2.0"]
            let glib = names.filter { name in systemGLib.contains { name.hasPrefix($0) } }
            XCTAssertEqual(glib, [String](), "the wheel's libvips carries its own GLib")
        }
    }

    // The job limits are flags: bad values are usage errors (exit 64); good ones are logged at start.
    func testJobLimitFlags() throws {
        let base = ["serve", "--port", "0", "--admin-port", "0"]
        for bad in [["--job-timeout", "0"], ["--job-timeout", "soon"], ["--drain-timeout", "-1"], ["--budget-wait", "x"],
                    ["--job-memory-budget", "512K"], ["--job-memory-budget", "\(32 << 20)"], ["--timeout", "15"],
                    // The largest upload and the largest job's decode must fit in the budget together.
                    ["--memory-budget", "64M"]] {
            XCTAssertEqual(try runBinary(base + bad, environment: [:]), 64, bad.joined(separator: " "))
        }
        // One meaning per flag name: a bare memory budget is MiB, as the CLI's --memory-budget.
        let running = try Fixture.startBinary(["--job-timeout", "2.5", "--drain-timeout", "3s", "--job-memory-budget", "32",
                                               "--memory-budget", "40M"])
        kill(running.process.processIdentifier, SIGTERM)
        XCTAssertEqual(running.exitStatus(within: 10), 0)
        XCTAssertTrue(running.firstLine.contains(#""job_timeout":2.5"#), running.firstLine)
        XCTAssertTrue(running.firstLine.contains(#""drain_seconds":3"#), running.firstLine)
        XCTAssertTrue(running.firstLine.contains(#""job_memory_budget":\#(32 << 20)"#), running.firstLine)
    }

    // An interstitial job renders whole screens (up to 2048x2732, 28 of them in `process`): by
    // default it gets 144 MiB and 60 s where a banner job gets 80 MiB and 10 s, and the process-wide
    // budget holds one beside the largest upload. A value given applies to every product.
    func testEachProductHasItsOwnDefaultJobLimits() throws {
        let defaults = ServiceConfig()
        XCTAssertEqual(defaults.jobBudget(for: .banner), 80 << 20)
        XCTAssertEqual(defaults.jobBudget(for: .companion), 80 << 20)
        XCTAssertEqual(defaults.jobBudget(for: .interstitial), 144 << 20)
        XCTAssertEqual(defaults.jobDeadline(for: .banner), 10)
        XCTAssertEqual(defaults.jobDeadline(for: .interstitial), 60)
        XCTAssertGreaterThanOrEqual(defaults.memoryBudget, defaults.maxBodyBytes + defaults.largestJobMemoryBudget)
        var given = defaults
        given.jobMemoryBudget = 32 << 20
        given.jobTimeout = 2.5
        XCTAssertEqual(Product.allCases.map { given.jobBudget(for: $0) }, [Int](repeating: 32 << 20, count: Product.allCases.count))
        XCTAssertEqual(given.jobDeadline(for: .interstitial), 2.5)
        // 150 MiB cannot hold an 8 MiB upload beside an interstitial's 144 MiB; with every job at 80 it can.
        let base = ["serve", "--port", "0", "--admin-port", "0"]
        XCTAssertEqual(try runBinary(base + ["--memory-budget", "150M"], environment: [:]), 64)
        let running = try Fixture.startBinary(["--memory-budget", "150M", "--job-memory-budget", "80M"])
        kill(running.process.processIdentifier, SIGTERM)
        XCTAssertEqual(running.exitStatus(within: 10), 0)
    }
}
