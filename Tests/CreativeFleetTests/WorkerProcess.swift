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
        FileManager.default.createFile(atPath: log.path, contents: nil)
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
                  let size = entry["bytes"] as? Int else {
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
