import Foundation
import XCTest
@testable import CreativeFleet
import CreativeImaging
import CreativeTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A `creative-tool worker` (or `enqueue`) run as its own process against ``FleetServers``.
final class WorkerProcess {
    static let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("creative-tool")

    let process = Process()
    let name: String
    let log: URL

    /// Starts `creative-tool worker` as consumer `name` with the servers' addresses; `hook` sets
    /// CREATIVE_WORKER_TEST_HOOK.
    init(_ servers: FleetServers, name: String, stream: String, prefix: String, extra: [String] = [],
         hook: String? = nil) throws {
        self.name = name
        log = servers.folder.appendingPathComponent("worker-\(name)-\(UUID().uuidString.prefix(8)).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = Self.binary
        process.arguments = ["worker", "--redis", servers.redisURL, "--store", "s3://\(FleetServers.bucket)/\(prefix)",
                             "--s3-endpoint", servers.s3Endpoint, "--stream", stream, "--consumer", name,
                             "--admin-port", "0", "--format", "png"] + extra
        var environment = servers.environment
        if let hook { environment["CREATIVE_WORKER_TEST_HOOK"] = hook }
        process.environment = environment
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    var isRunning: Bool { process.isRunning }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the exit; nil (and the process is killed) when it is still running after `seconds`.
    func exitStatus(within seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// Test inputs and checks of what workers wrote.
enum FleetCheck {
    /// Checks every JSON line of `output` against `schema` in schemas/ with the project's validator
    /// (`scripts/check-schemas.py --documents`, the venv's Python with `jsonschema`, which
    /// scripts/test.sh installs first): a failure, or no validator, fails the test.
    static func assertMatchesSchema(_ output: String, _ schema: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let root = FleetServers.packageRoot
        let python = root.appendingPathComponent(".build/venv/bin/python3")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            return XCTFail("no validator: run scripts/python-tools.sh jsonschema", file: file, line: line)
        }
        let documents = FileManager.default.temporaryDirectory.appendingPathComponent("enqueue-\(UUID().uuidString).jsonl")
        try Data(output.utf8).write(to: documents)
        defer { try? FileManager.default.removeItem(at: documents) }
        let checked = try WorkerProcess.runProgram(python, [root.appendingPathComponent("scripts/check-schemas.py").path,
                                                            "--documents", schema, documents.path])
        XCTAssertEqual(checked.status, 0, checked.output + checked.errors, file: file, line: line)
    }

    static let artwork: [UInt8] = {
        let url = FleetServers.packageRoot.appendingPathComponent("TestImages/test-artwork-960x150.png")
        return [UInt8]((try? Data(contentsOf: url)) ?? Data())
    }()

    /// The committed 960x150 artwork with a text chunk naming `index` before IEND: the same
    /// valid banner, other bytes (so another content address).
    static func variant(_ index: Int) -> [UInt8] {
        let end = artwork.count - 12
        return Array(artwork[..<end]) + Fixtures.pngChunk("tEXt", Array("Comment\u{0}job \(index)".utf8)) + Array(artwork[end...])
    }

    /// Uploads `bytes` as `sources/NAME` and returns its address.
    static func upload(_ bytes: [UInt8], name: String, prefix: String, store: S3Client) throws -> String {
        let location = S3Location(bucket: FleetServers.bucket, key: "\(prefix)/sources/\(name)")
        try store.put(bytes, at: location, contentType: "image/png")
        return location.description
    }

    /// Waits until `stream` holds `count` entries (or `seconds` pass) and returns them.
    static func waitForEntries(_ stream: String, count: Int, seconds: Double, redis: RedisConnection) -> [StreamEntry] {
        let deadline = Date().addingTimeInterval(seconds)
        var entries: [StreamEntry] = []
        while Date() < deadline {
            entries = (try? RedisConnection.entries(redis.run(["XRANGE", stream, "-", "+"]))) ?? entries
            if entries.count >= count { break }
            usleep(200_000)
        }
        return entries
    }

    /// Reads a result's manifest and checks every file it lists is in its folder with its
    /// size and SHA-256. Returns the manifest's report `valid`.
    @discardableResult
    static func checkManifest(_ address: String, store: S3Client, file: StaticString = #filePath,
                              line: UInt = #line) throws -> Bool {
        let manifestLocation = try S3Location(parsing: address)
        guard case .bytes(let bytes) = try store.get(manifestLocation, limit: 1 << 24),
              let manifest = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let report = manifest["report"] as? [String: Any] else {
            XCTFail("\(address) is not a manifest", file: file, line: line)
            return false
        }
        XCTAssertEqual(manifest["written_by"] as? String, "creative-tool process", file: file, line: line)
        let folder = String(manifestLocation.key.dropLast("manifest.json".count))
        var listed = (manifest["renders"] as? [[String: Any]]) ?? []
        if let preview = manifest["preview"] as? [String: Any] { listed.append(preview) }
        for entry in listed {
            guard let name = entry["file"] as? String, let sha = entry["sha256"] as? String,
                  let size = entry["file_bytes"] as? Int else {
                XCTFail("\(address): a file entry without file, bytes, sha256", file: file, line: line)
                continue
            }
            let object = S3Location(bucket: manifestLocation.bucket, key: folder + name)
            guard case .bytes(let written) = try store.get(object, limit: 1 << 26) else {
                XCTFail("\(object) is too large", file: file, line: line)
                continue
            }
            XCTAssertEqual(written.count, size, "\(object)", file: file, line: line)
            XCTAssertEqual(sha256(written), sha, "\(object)", file: file, line: line)
        }
        return report["valid"] as? Bool ?? false
    }

    static func sha256(_ bytes: [UInt8]) -> String { Checksum.sha256(bytes) }
}

extension WorkerProcess {
    /// Runs `creative-tool ARGUMENTS` to its end with the servers' credentials: status and standard output.
    static func run(_ arguments: [String], servers: FleetServers, environment: [String: String]? = nil,
                    timeout: Double = 120) throws -> (status: Int32, output: String, errors: String) {
        try runProgram(binary, arguments, environment: environment ?? servers.environment, timeout: timeout)
    }

    /// Runs a program to its end (killed after `timeout` seconds), in `environment` (nil: this
    /// process's), with no input: its status, standard output and standard error.
    static func runProgram(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                           timeout: Double = 120) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { kill(pid, SIGKILL) }
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }

    /// The admin port the worker logged at its start.
    func adminPort(within seconds: Double = 20) -> Int? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let range = logText.range(of: "admin port ") {
                let digits = logText[range.upperBound...].prefix { $0.isNumber }
                if let port = Int(digits) { return port }
            }
            usleep(50_000)
        }
        return nil
    }

    /// `GET /metrics` on the admin port.
    func metrics() throws -> String {
        guard let port = adminPort() else { return "" }
        return Self.get("/metrics", port: port)
    }

    /// The whole answer (status line, headers, body) to `GET PATH` on a loopback port.
    static func get(_ path: String, port: Int) -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return "" }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            answer += buffer[0..<count]
        }
        return String(decoding: answer, as: UTF8.self)
    }
}
