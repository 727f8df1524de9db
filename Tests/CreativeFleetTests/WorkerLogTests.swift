import Foundation
import XCTest
@testable import CreativeFleet

/// Each job a worker ends is one JSON line on its standard error: what it was, how it ended,
/// what it wrote and how long it took.
final class WorkerLogTests: FleetTestCase {
    /// The worker's lines of `event`, parsed, once `count` of them are there.
    private func lines(_ worker: WorkerProcess, event: String, count: Int) -> [[String: Any]] {
        var found: [[String: Any]] = []
        for _ in 0..<150 {
            found = worker.logText.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }.filter { $0["event"] as? String == event }
            if found.count >= count { break }
            usleep(200_000)
        }
        return found
    }

    func testEachJobEndsWithOneLogLine() throws {
        let worker = try WorkerProcess(servers, name: "logger", stream: stream, prefix: prefix)
        let file = servers.folder.appendingPathComponent("logged.png")
        try Data(FleetCheck.variant(6100)).write(to: file)
        let run = try WorkerProcess.run(["enqueue", file.path, "--id", "log-1", "--wait", "--redis", servers.redisURL,
                                         "--store", "s3://\(FleetServers.bucket)/\(prefix)", "--s3-endpoint",
                                         servers.s3Endpoint, "--stream", stream], servers: servers)
        XCTAssertEqual(run.status, 0, run.errors + worker.logText)
        let redis = RedisConnection(address: try RedisAddress(parsing: servers.redisURL))
        _ = try redis.run(["XADD", stream, "*", "source", "s3://\(FleetServers.bucket)/x.png", "format", "jpg", "id", "log-2"])
        let jobs = lines(worker, event: "job", count: 2)
        XCTAssertEqual(jobs.count, 2, worker.logText)
        guard jobs.count == 2 else { return }
        let valid = jobs[0], bad = jobs[1]
        XCTAssertEqual(valid["consumer"] as? String, "logger")
        XCTAssertEqual(valid["id"] as? String, "log-1")
        XCTAssertEqual(valid["status"] as? String, "valid")
        XCTAssertEqual(valid["codes"] as? [String], [])
        XCTAssertEqual(valid["cached"] as? Bool, false)
        XCTAssertTrue((valid["manifest"] as? String)?.hasPrefix("s3://\(FleetServers.bucket)/\(prefix)/") == true, "\(valid)")
        XCTAssertNotNil(valid["seconds"] as? Double)
        XCTAssertNotNil(valid["entry"] as? String)
        XCTAssertNil(valid["message"])
        XCTAssertEqual(bad["id"] as? String, "log-2")
        XCTAssertEqual(bad["status"] as? String, "failed")
        XCTAssertEqual(bad["codes"] as? [String], ["bad_job"])
        XCTAssertTrue(bad["manifest"] is NSNull, "\(bad)")
        XCTAssertEqual(bad["message"] as? String,
                       "format must be one of png, jpeg, webp, avif, auto, not 'jpg'; did you mean 'jpeg'?")
        // The same creative again: answered by its manifest, and said so.
        let again = try WorkerProcess.run(["enqueue", file.path, "--id", "log-3", "--wait", "--redis", servers.redisURL,
                                           "--store", "s3://\(FleetServers.bucket)/\(prefix)", "--s3-endpoint",
                                           servers.s3Endpoint, "--stream", stream], servers: servers)
        XCTAssertEqual(again.status, 0, again.errors)
        let cached = lines(worker, event: "job", count: 3)
        XCTAssertEqual(cached.last?["cached"] as? Bool, true, worker.logText)
        XCTAssertEqual(cached.last?["manifest"] as? String, valid["manifest"] as? String)
    }
}
