import XCTest
import CreativeFleet

/// The S3 client against a real SeaweedFS gateway and the Redis Streams client against a real
/// redis-server (both started by ``FleetServers``).
final class StoreAndQueueTests: XCTestCase {
    nonisolated(unsafe) static var servers: FleetServers?

    override class func tearDown() {
        servers?.shutdown()
        servers = nil
    }

    private func shared() throws -> FleetServers {
        if let servers = Self.servers { return servers }
        let started = try FleetServers()
        Self.servers = started
        return started
    }

    func testPutThenGetGivesTheBytesAndHeadTheSize() throws {
        let store = try shared().store()
        let object = S3Location(bucket: FleetServers.bucket, key: "tests/some key+odd/ü.bin")
        let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try store.put(bytes, at: object, contentType: "application/octet-stream")
        XCTAssertEqual(try store.get(object, limit: 1 << 20), .bytes(bytes))
        XCTAssertEqual(try store.head(object), bytes.count)
        XCTAssertNil(try store.head(object.appending("absent")))
    }

    func testGetOverTheLimitReadsOnlyTheHead() throws {
        let store = try shared().store()
        let object = S3Location(bucket: FleetServers.bucket, key: "tests/large.bin")
        let bytes = [UInt8](repeating: 7, count: 2_000_000)  // over 1 MiB: curl asks 100-continue
        try store.put(bytes, at: object, contentType: "application/octet-stream")
        guard case .tooLarge(let size, let head) = try store.get(object, limit: 100_000) else {
            return XCTFail("an object over the limit was read whole")
        }
        XCTAssertEqual(size, 2_000_000)
        XCTAssertEqual(head, Array(bytes.prefix(S3Client.headBytes)))
    }

    func testMissingObjectIsNotFoundAndAWrongSecretIsRefused() throws {
        let servers = try shared()
        XCTAssertThrowsError(try servers.store().get(S3Location(bucket: FleetServers.bucket, key: "nothing-here"), limit: 10)) {
            XCTAssertEqual(($0 as? FleetError)?.code, "not_found")
        }
        let wrong = try S3Client(endpoint: try S3Endpoint(url: servers.s3Endpoint, region: "us-east-1"),
                                 credentials: AWSCredentials(accessKey: FleetServers.accessKey, secretKey: "wrong", region: "us-east-1"))
        XCTAssertThrowsError(try wrong.put([1, 2, 3], at: S3Location(bucket: FleetServers.bucket, key: "x"), contentType: "text/plain")) {
            XCTAssertEqual(($0 as? FleetError)?.code, "store_refused")
        }
    }

    func testAStoreThatIsNotListeningIsUnavailable() throws {
        let port = try FleetServers.freePorts(1)[0]
        let store = try S3Client(endpoint: try S3Endpoint(url: "http://127.0.0.1:\(port)", region: "us-east-1"),
                                 credentials: try shared().credentials, timeout: 3)
        XCTAssertThrowsError(try store.head(S3Location(bucket: FleetServers.bucket, key: "x"))) {
            XCTAssertEqual(($0 as? FleetError)?.code, "store_unavailable")
            XCTAssertTrue(($0 as? FleetError)?.isTransient ?? false)
        }
    }

    func testStreamGroupReadClaimAndAcknowledge() throws {
        let redis = try shared().queue()
        let stream = "test-\(UInt32.random(in: 0...UInt32.max))"
        let first = try redis.add(to: stream, [("source", "s3://b/one"), ("id", "1")])
        try redis.createGroup("g", on: stream)
        try redis.createGroup("g", on: stream)  // a second create is fine
        let second = try redis.add(to: stream, [("source", "s3://b/two")])
        let read = try redis.readNew(stream, group: "g", consumer: "a", count: 10, blockSeconds: 1)
        XCTAssertEqual(read.map(\.id), [first, second], "entries added before the group existed are read too")
        XCTAssertEqual(read.first?["source"], "s3://b/one")
        XCTAssertEqual(try redis.pendingCount(stream, group: "g"), 2)
        XCTAssertEqual(try redis.deliveries(of: first, stream: stream, group: "g"), 1)
        XCTAssertEqual(try redis.readNew(stream, group: "g", consumer: "a", count: 10, blockSeconds: 0.1), [])
        // Consumer a "dies": b claims what has been idle, and the delivery count goes up.
        usleep(300_000)
        let claimed = try redis.claimIdle(stream, group: "g", consumer: "b", minIdleSeconds: 0.2, cursor: "0-0", count: 10)
        XCTAssertEqual(claimed.entries.map(\.id), [first, second])
        XCTAssertEqual(try redis.deliveries(of: first, stream: stream, group: "g"), 2)
        // A heartbeat resets the idle time: nothing is idle enough to claim right after.
        try redis.setIdle([first, second], stream: stream, group: "g", consumer: "b", idleSeconds: 0)
        XCTAssertEqual(try redis.claimIdle(stream, group: "g", consumer: "c", minIdleSeconds: 5, cursor: "0-0", count: 10).entries, [])
        try redis.transaction([["XADD", stream + ":results", "*", "id", "1"], ["XACK", stream, "g", first]])
        XCTAssertEqual(try redis.pendingCount(stream, group: "g"), 1)
        XCTAssertEqual(try redis.read(stream + ":results", after: "0", count: 10, blockSeconds: 0.1).first?["id"], "1")
        XCTAssertEqual(try redis.lag(stream, group: "g"), 0)
    }

    func testRedisAddressesAndBadOnes() throws {
        let full = try RedisAddress(parsing: "redis://user:secret@cache.internal:6380/2")
        XCTAssertEqual([full.host, String(full.port), full.user ?? "", full.password ?? "", String(full.database)],
                       ["cache.internal", "6380", "user", "secret", "2"])
        XCTAssertEqual(try RedisAddress(parsing: "redis://localhost").port, 6379)
        for bad in ["http://x", "redis://", "redis://h:99999", "redis://h/db"] {
            XCTAssertThrowsError(try RedisAddress(parsing: bad)) { XCTAssertEqual(($0 as? FleetError)?.code, "bad_option") }
        }
    }

    func testAConnectionToAStoppedRedisFailsThenReconnects() throws {
        let servers = try shared()
        let redis = try servers.queue()
        try redis.run(["SET", "k", "v"])
        servers.stopRedis()
        XCTAssertThrowsError(try redis.run(["GET", "k"])) { XCTAssertEqual(($0 as? FleetError)?.code, "queue_unavailable") }
        try servers.startRedis()
        XCTAssertEqual(try redis.run(["GET", "k"]).text, "v", "the same connection object reconnects, and the data survived")
    }
}
