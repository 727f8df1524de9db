import Foundation
import XCTest
@testable import CreativeFleet

/// `enqueue --wait`, the metrics, the SIGTERM drain and the command lines, against real servers.
final class WorkerCommandTests: FleetTestCase {
    private var fleetArguments: [String] {
        ["--redis", servers.redisURL, "--store", "s3://\(FleetServers.bucket)/\(prefix)", "--s3-endpoint", servers.s3Endpoint,
         "--stream", stream]
    }

    func testEnqueueWaitPrintsTheResultAndTheMetricsCountIt() throws {
        let worker = try WorkerProcess(servers, name: "solo", stream: stream, prefix: prefix)
        let file = servers.folder.appendingPathComponent("banner.png")
        try Data(FleetCheck.variant(5000)).write(to: file)
        let run = try WorkerProcess.run(["enqueue", file.path, "--format", "png", "--id", "campaign-7/banner", "--wait"]
                                        + fleetArguments, servers: servers)
        XCTAssertEqual(run.status, 0, run.errors + worker.logText)
        let lines = run.output.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?.compactMapValues { $0 as? String }
        }
        XCTAssertEqual(lines.count, 2, run.output)
        try FleetCheck.assertMatchesSchema(run.output, "enqueue.schema.json")
        XCTAssertEqual(lines.first?["source"], "s3://\(FleetServers.bucket)/\(prefix)/sources/\(FleetCheck.sha256(FleetCheck.variant(5000))).png")
        XCTAssertEqual(lines.last?["id"], "campaign-7/banner")
        XCTAssertEqual(lines.last?["status"], "valid")
        try XCTAssertTrue(FleetCheck.checkManifest(lines.last?["manifest"] ?? "", store: servers.store()))
        let metrics = try worker.metrics()
        XCTAssertTrue(metrics.contains("creative_worker_jobs_total{status=\"valid\"} 1\n"), metrics)
        XCTAssertTrue(metrics.contains("creative_worker_job_seconds_count 1\n"), metrics)
        // A rejected creative: exit 1, its codes in the result.
        let small = servers.folder.appendingPathComponent("odd-size.png")
        try Data(FleetCheck.artwork.prefix(16) + [0, 0, 0, 13]).write(to: small)
        let rejected = try WorkerProcess.run(["enqueue", small.path, "--wait"] + fleetArguments, servers: servers)
        XCTAssertEqual(rejected.status, 1, rejected.errors)
        XCTAssertTrue(rejected.output.contains("\"status\":\"rejected\""), rejected.output)
        try FleetCheck.assertMatchesSchema(rejected.output, "enqueue.schema.json")
        let lastLine = String(rejected.output.split(separator: "\n").last ?? "")
        let parsed = try JSONSerialization.jsonObject(with: Data(lastLine.utf8))
        let answer = try XCTUnwrap(parsed as? [String: Any], rejected.output)
        XCTAssertEqual(answer["codes"] as? [String], ["corrupt_image"], rejected.output)
        XCTAssertEqual(answer["cached"] as? Bool, false, "typed, not the stream's strings")
        XCTAssertTrue((answer["manifest"] as? String)?.hasPrefix("s3://") == true, "its report on the store: \(rejected.output)")
    }

    /// The entry's `with` (`enqueue --with`): the creative is rendered where it wins among the
    /// campaign's sizes, against the real Redis and store; alone it is rendered into every
    /// anchored slot, and the two answers live in different folders (`with` is in the version).
    func testTheWithFieldRendersTheCreativeWhereItWinsInTheCampaign() throws {
        let worker = try WorkerProcess(servers, name: "campaign", stream: stream, prefix: prefix)
        let file = servers.folder.appendingPathComponent("banner.png")
        try Data(FleetCheck.variant(6000)).write(to: file)
        var manifests: [String] = []
        for (extra, expected) in [(["--with", "1320x204,2184x270"], 3), ([], 28)] {
            let run = try WorkerProcess.run(["enqueue", file.path, "--format", "png", "--wait"] + extra + fleetArguments,
                                            servers: servers)
            XCTAssertEqual(run.status, 0, run.errors + worker.logText)
            let last = String(run.output.split(separator: "\n").last ?? "")
            let answer = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any], run.output)
            let address = try XCTUnwrap(answer["manifest"] as? String)
            try XCTAssertTrue(FleetCheck.checkManifest(address, store: servers.store()))
            guard case .bytes(let bytes) = try servers.store().get(try S3Location(parsing: address), limit: 1 << 24),
                  let manifest = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
                return XCTFail("no manifest at \(address)")
            }
            XCTAssertEqual((manifest["renders"] as? [Any])?.count, expected, "\(extra)")
            manifests.append(address)
        }
        XCTAssertNotEqual(manifests[0], manifests[1], "another campaign is another answer")
        // A size the product does not take: a usage error of enqueue (a raw entry: a failed result, bad_job).
        let bad = try WorkerProcess.run(["enqueue", file.path, "--with", "961x150"] + fleetArguments, servers: servers)
        XCTAssertEqual(bad.status, 64, bad.errors)
    }

    /// The entry's `profile` and `weight_budget` (`enqueue --profile`, `--weight-budget`): each
    /// render's budget is the strictest of the two, named in the manifest, as `process --profile`.
    func testTheProfileFieldGivesEachRenderItsBudget() throws {
        let worker = try WorkerProcess(servers, name: "profile", stream: stream, prefix: prefix)
        let file = servers.folder.appendingPathComponent("banner.png")
        try Data(FleetCheck.variant(7000)).write(to: file)
        let run = try WorkerProcess.run(["enqueue", file.path, "--format", "png", "--profile", "iab-lean", "--weight-budget",
                                         "100K", "--with", "1320x204,2184x270", "--wait"] + fleetArguments, servers: servers)
        XCTAssertEqual(run.status, 0, run.errors + worker.logText)
        let last = String(run.output.split(separator: "\n").last ?? "")
        let answer = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any], run.output)
        let address = try XCTUnwrap(answer["manifest"] as? String)
        guard case .bytes(let bytes) = try servers.store().get(try S3Location(parsing: address), limit: 1 << 24),
              let manifest = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            return XCTFail("no manifest at \(address)")
        }
        XCTAssertEqual(manifest["weight_budget_bytes"] as? Int, 102_400)
        XCTAssertEqual(manifest["weight_budget_profiles"] as? [String], ["iab-lean"])
        let renders = try XCTUnwrap(manifest["renders"] as? [[String: Any]])
        let se = try XCTUnwrap(renders.first { ($0["file"] as? String ?? "").hasPrefix("iphone-se-portrait-320x50@2x") })
        XCTAssertEqual(se["weight_budget_bytes"] as? Int, 50_000, "LEAN's weight for 320x50 at 2x")
        XCTAssertEqual(se["weight_budget_profile"] as? String, "iab-lean")
        XCTAssertTrue(renders.filter { $0["weight_budget_profile"] is NSNull }.allSatisfy { $0["weight_budget_bytes"] as? Int == 102_400 },
                      "the others: the budget asked")
        // A profile that does not exist: enqueue's usage error, naming the one meant.
        let bad = try WorkerProcess.run(["enqueue", file.path, "--profile", "iab-laen"] + fleetArguments, servers: servers)
        XCTAssertEqual(bad.status, 64, bad.errors)
        XCTAssertTrue(bad.errors.contains("did you mean 'iab-lean'?"), bad.errors)
    }

    /// SIGTERM: the job in flight finishes within the drain and is acknowledged, exit 0. With a
    /// drain too short for the job, it is released (not acknowledged) and another worker takes it
    /// at once, long before the visibility timeout.
    func testSIGTERMFinishesOrReleasesTheJobsInFlight() throws {
        let store = try servers.store()
        let redis = try servers.queue()
        let held = try FleetCheck.upload(FleetCheck.variant(6000), name: "held.png", prefix: prefix, store: store)
        let first = try WorkerProcess(servers, name: "finisher", stream: stream, prefix: prefix,
                                      extra: ["--drain-timeout", "20"], hook: "hold:held:2")
        _ = try redis.add(to: stream, [("source", held), ("id", "finished")])
        while ((try? redis.pendingCount(stream, group: "creative-workers")) ?? 0) == 0 { usleep(50_000) }
        first.signal(SIGTERM)
        XCTAssertEqual(first.exitStatus(within: 30), 0, first.logText)
        XCTAssertEqual(FleetCheck.waitForEntries(stream + ":results", count: 1, seconds: 1, redis: redis).first?["id"], "finished")
        XCTAssertEqual(try redis.pendingCount(stream, group: "creative-workers"), 0)

        let long = try FleetCheck.upload(FleetCheck.variant(6001), name: "held-long.png", prefix: prefix, store: store)
        let quitter = try WorkerProcess(servers, name: "quitter", stream: stream, prefix: prefix,
                                        extra: ["--drain-timeout", "1", "--visibility-timeout", "300"], hook: "hold:held-long:600")
        _ = try redis.add(to: stream, [("source", long), ("id", "released")])
        while ((try? redis.pendingCount(stream, group: "creative-workers")) ?? 0) == 0 { usleep(50_000) }
        quitter.signal(SIGTERM)
        XCTAssertEqual(quitter.exitStatus(within: 10), 0, quitter.logText)
        XCTAssertEqual(try redis.pendingCount(stream, group: "creative-workers"), 1, "released, not acknowledged")
        let taker = try WorkerProcess(servers, name: "taker", stream: stream, prefix: prefix, extra: ["--visibility-timeout", "300"])
        let found = FleetCheck.waitForEntries(stream + ":results", count: 2, seconds: 60, redis: redis)
        XCTAssertEqual(found.last?["id"], "released", taker.logText)
        XCTAssertEqual(found.last?["worker"], "taker")
    }

    func testBadCommandLinesAreUsageErrors() throws {
        for arguments in [["worker", "--store", "s3://creatives/x"], ["worker", "--redis", "redis://h", "--store", "nowhere"],
                          ["worker", "--redis", "http://h", "--store", "s3://creatives/x"],
                          ["worker", "--redis", "redis://h", "--store", "s3://creatives/x", "--concurrency", "0"],
                          ["worker", "--redis", "redis://h", "--store", "s3://creatives/x", "--visibility-timeout", "0"],
                          ["worker", "--redis", "redis://h", "--store", "s3://creatives/x", "--max-bytes", "10Q"],
                          ["worker", "--redis", "redis://h", "--store", "s3://creatives/x", "--s3-addressing", "pth"],
                          ["worker", "--redis", "redis://h", "--store", "s3://creatives/x", "--consumer", ""],
                          ["enqueue", "--redis", "redis://h", "--store", "s3://creatives/x"],
                          ["enqueue", "a.png", "--redis", "redis://h", "--store", "s3://creatives/x", "--wait-timeout", "0"]] {
            let run = try WorkerProcess.run(arguments, servers: servers)
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.errors)")
        }
        var noKeys = servers.environment
        noKeys["AWS_ACCESS_KEY_ID"] = nil
        noKeys["AWS_SHARED_CREDENTIALS_FILE"] = servers.folder.appendingPathComponent("none").path
        let unsigned = try WorkerProcess.run(["worker", "--redis", servers.redisURL, "--store", "s3://creatives/x"],
                                             servers: servers, environment: noKeys)
        XCTAssertEqual(unsigned.status, 1)
        XCTAssertTrue(unsigned.errors.contains("no_credentials"), unsigned.errors)
        // A wrong option is reported as such, not as the missing credentials; an object already on
        // the store is enqueued without them (only the queue is written).
        let wrong = try WorkerProcess.run(["worker", "--redis", servers.redisURL, "--store", "s3://creatives/x",
                                           "--concurrency", "0"], servers: servers, environment: noKeys)
        XCTAssertEqual(wrong.status, 64, wrong.errors)
        XCTAssertTrue(wrong.errors.contains("--concurrency"), wrong.errors)
        let stored = try WorkerProcess.run(["enqueue", "s3://\(FleetServers.bucket)/uploads/a.png"] + fleetArguments,
                                           servers: servers, environment: noKeys)
        XCTAssertEqual(stored.status, 0, stored.errors)
        XCTAssertTrue(stored.output.contains("\"source\":\"s3://\(FleetServers.bucket)/uploads/a.png\""), stored.output)
    }

    /// A queue that does not answer at the start is exit 1 and one line, not "started" and
    /// retries for ever (a queue lost once running is retried: testStoreAndRedisRestartsLoseNoJob).
    func testAnUnreachableQueueFailsAtTheStart() throws {
        let closed = try WorkerProcess.run(["worker", "--redis", "redis://127.0.0.1:1", "--store", "s3://creatives/x",
                                            "--admin-port", "0"], servers: servers, timeout: 60)
        XCTAssertEqual(closed.status, 1, closed.errors)
        let lines = closed.errors.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, closed.errors)
        XCTAssertTrue(lines.first?.contains("\"event\":\"failed\"") ?? false, closed.errors)
        XCTAssertTrue(closed.errors.contains("cannot start: the queue does not answer (queue_unavailable: 127.0.0.1:1: "),
                      closed.errors)
        XCTAssertFalse(closed.errors.contains("started"), closed.errors)
    }

    func testSizesAndDurationsTakeTheirSuffixes() throws {
        let worker = try WorkerProcess(servers, name: "suffixes", stream: stream, prefix: prefix,
                                       extra: ["--visibility-timeout", "2m", "--retry-timeout", "500ms", "--max-bytes", "4M",
                                               "--memory-budget", "256M", "--timeout", "30s"])
        let file = servers.folder.appendingPathComponent("suffixes.png")
        try Data(FleetCheck.variant(5100)).write(to: file)
        let run = try WorkerProcess.run(["enqueue", file.path, "--wait", "--wait-timeout", "2m"] + fleetArguments,
                                        servers: servers)
        XCTAssertEqual(run.status, 0, run.errors + worker.logText)
        let result = run.output.split(separator: "\n").last.flatMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?.compactMapValues { $0 as? String }
        }
        XCTAssertEqual(result?["status"], "valid", run.output)
        XCTAssertEqual(result?["worker"], "suffixes", run.output)
    }
}
