import Foundation
import XCTest
@testable import CreativeFleet

/// `creative-tool worker` processes against a real redis-server and a real SeaweedFS S3 gateway.
/// Jobs are added with XADD by the test itself (a pipeline's client), on the committed 960x150
/// artwork made distinct by a text chunk, with `--format png`: small jobs, so the whole class
/// runs in a couple of minutes on two busy cores.
final class WorkerFleetTests: FleetTestCase {
    private func results(_ count: Int, seconds: Double = 120) throws -> [StreamEntry] {
        FleetCheck.waitForEntries(stream + ":results", count: count, seconds: seconds, redis: try servers.queue())
    }

    private func addJob(_ source: String, id: String) throws -> String {
        try servers.queue().add(to: stream, [("source", source), ("id", id)])
    }

    /// 200 jobs through 3 workers, one of them SIGKILLed mid-run: 200 results, one each, 200
    /// manifests, every listed file there with its SHA-256, nothing pending, nothing dead-lettered.
    func testTwoHundredJobsThroughThreeWorkersOneKilledMidRun() throws {
        let store = try servers.store()
        let count = 200
        let workers = try (1...3).map {
            try WorkerProcess(servers, name: "w\($0)", stream: stream, prefix: prefix, extra: ["--visibility-timeout", "3"])
        }
        var ids: [String] = []
        for index in 0..<count {
            let source = try FleetCheck.upload(FleetCheck.variant(index), name: "job-\(index).png", prefix: prefix, store: store)
            ids.append("job-\(index)")
            _ = try addJob(source, id: "job-\(index)")
        }
        // w1 dies once a quarter of the results are in, whatever it holds.
        _ = try results(count / 4, seconds: 240)
        workers[0].signal(SIGKILL)
        _ = workers[0].exitStatus(within: 10)
        let found = try results(count, seconds: 240)
        XCTAssertEqual(found.count, count, workers.map(\.logText).joined(separator: "\n").suffix(2000).description)
        XCTAssertEqual(Set(found.compactMap { $0["id"] }), Set(ids))
        XCTAssertEqual(Set(found.compactMap { $0["manifest"] }).count, count, "one manifest per input")
        XCTAssertTrue(found.allSatisfy { $0["status"] == "valid" })
        // Only the killed worker's last job can have been answered from a manifest it wrote
        // just before it died.
        XCTAssertGreaterThanOrEqual(found.filter { $0["cached"] == "false" }.count, count - 1)
        XCTAssertEqual(Set(found.compactMap { $0["worker"] }).count, 3, "every worker took jobs")
        for result in found { try XCTAssertTrue(FleetCheck.checkManifest(result["manifest"] ?? "", store: store)) }
        usleep(500_000)
        XCTAssertEqual(try results(count + 1, seconds: 0.1).count, count, "no job has two results")
        XCTAssertEqual(try servers.queue().pendingCount(stream, group: "creative-workers"), 0)
        XCTAssertEqual(try servers.queue().run(["XLEN", stream + ":dead"]), .integer(0))
        for worker in workers.dropFirst() {
            worker.signal(SIGTERM)
            XCTAssertEqual(worker.exitStatus(within: 30), 0, worker.logText)
        }
    }

    /// A worker killed (SIGKILL) while it holds a job, its renders written and its manifest not:
    /// no manifest is visible, and after the visibility timeout another worker completes the job.
    func testAJobOfAKilledWorkerCompletesOnAnotherAfterTheVisibilityTimeout() throws {
        let store = try servers.store()
        let doomed = try WorkerProcess(servers, name: "doomed", stream: stream, prefix: prefix,
                                       extra: ["--visibility-timeout", "3"], hook: "hold:slow-one:60")
        let warmup = try FleetCheck.upload(FleetCheck.variant(1000), name: "warm.png", prefix: prefix, store: store)
        _ = try addJob(warmup, id: "warm")
        guard let warm = try results(1).first, let warmManifest = warm["manifest"] else { return XCTFail(doomed.logText) }
        let bytes = FleetCheck.variant(1001)
        let source = try FleetCheck.upload(bytes, name: "slow-one.png", prefix: prefix, store: store)
        let entry = try addJob(source, id: "slow")
        // The folder the job writes: the same settings version as the warm-up's.
        let version = warmManifest.split(separator: "/").dropLast().last.map(String.init) ?? ""
        let manifest = S3Location(bucket: FleetServers.bucket, key: "\(prefix)/\(FleetCheck.sha256(bytes))/\(version)/manifest.json")
        let preview = S3Location(bucket: FleetServers.bucket, key: "\(prefix)/\(FleetCheck.sha256(bytes))/\(version)/preview.png")
        let deadline = Date().addingTimeInterval(60)
        while try store.head(preview) == nil && Date() < deadline { usleep(100_000) }
        XCTAssertNotNil(try store.head(preview), "the held job wrote its files")
        doomed.signal(SIGKILL)
        _ = doomed.exitStatus(within: 10)
        XCTAssertNil(try store.head(manifest), "no manifest without all its files")
        XCTAssertEqual(try servers.queue().deliveries(of: entry, stream: stream, group: "creative-workers"), 1)
        let rescuer = try WorkerProcess(servers, name: "rescuer", stream: stream, prefix: prefix,
                                        extra: ["--visibility-timeout", "3"])
        let found = try results(2, seconds: 60)
        guard let slow = found.first(where: { $0["id"] == "slow" }) else { return XCTFail(rescuer.logText) }
        XCTAssertEqual(slow["worker"], "rescuer")
        XCTAssertEqual(slow["status"], "valid")
        XCTAssertEqual(slow["manifest"], manifest.description)
        try XCTAssertTrue(FleetCheck.checkManifest(manifest.description, store: store))
        XCTAssertEqual(try servers.queue().pendingCount(stream, group: "creative-workers"), 0)
        rescuer.signal(SIGTERM)
        XCTAssertEqual(rescuer.exitStatus(within: 30), 0)
    }

    /// A corrupt image is a rejected result after one attempt; a job that kills its worker at
    /// every delivery goes to the dead-letter stream after --max-deliveries, and nothing else does.
    func testACorruptImageIsRejectedOnceAndAPoisonJobIsDeadLettered() throws {
        let store = try servers.store()
        var corrupt = FleetCheck.artwork
        for index in 100..<min(corrupt.count, 400) { corrupt[index] ^= 0x5A }
        let corruptSource = try FleetCheck.upload(corrupt, name: "corrupt.png", prefix: prefix, store: store)
        let poison = try FleetCheck.upload(FleetCheck.variant(2000), name: "poison.png", prefix: prefix, store: store)
        let good = try FleetCheck.upload(FleetCheck.variant(2001), name: "good.png", prefix: prefix, store: store)
        _ = try addJob(corruptSource, id: "corrupt")
        let poisonEntry = try addJob(poison, id: "poison")
        _ = try addJob(good, id: "good")
        let options = ["--visibility-timeout", "1", "--max-deliveries", "2", "--concurrency", "1"]
        var workers: [WorkerProcess] = []
        var deadLetters: [StreamEntry] = []
        let deadline = Date().addingTimeInterval(90)
        let redis = try servers.queue()
        while Date() < deadline {
            // Workers killed by the poison job are replaced, as a Deployment would.
            workers.removeAll { !$0.isRunning }
            while workers.count < 2 {
                workers.append(try WorkerProcess(servers, name: "p\(UUID().uuidString.prefix(4))", stream: stream,
                                                 prefix: prefix, extra: options, hook: "crash:poison"))
            }
            deadLetters = RedisConnection.entries(try redis.run(["XRANGE", stream + ":dead", "-", "+"]))
            let done = try results(2, seconds: 0.1).count >= 2
            if !deadLetters.isEmpty && done { break }
            usleep(200_000)
        }
        XCTAssertEqual(deadLetters.map { $0["entry"] }, [poisonEntry], "only the poison job is dead-lettered")
        XCTAssertEqual(deadLetters.first?["deliveries"], "3")
        XCTAssertTrue(deadLetters.first?["error"]?.contains("no delivery finished") ?? false)
        XCTAssertEqual(deadLetters.first?["source"], poison)
        let found = try results(2)
        let byID = Dictionary(found.map { ($0["id"] ?? "", $0) }) { a, _ in a }
        XCTAssertEqual(found.count, 2, "one result each for the corrupt and the good job")
        XCTAssertEqual(byID["corrupt"]?["status"], "rejected")
        XCTAssertTrue(byID["corrupt"]?["codes"]?.contains("corrupt_image") ?? false, "\(byID["corrupt"] ?? StreamEntry(id: "", fields: []))")
        XCTAssertEqual(byID["good"]?["status"], "valid")
        if let manifest = byID["corrupt"]?["manifest"] { try XCTAssertFalse(FleetCheck.checkManifest(manifest, store: store)) }
        XCTAssertEqual(try redis.pendingCount(stream, group: "creative-workers"), 0)
    }

    /// The store stopped for 10 s and started again: the jobs added meanwhile are retried and
    /// none is lost. Then Redis restarted: the worker reconnects and goes on.
    func testStoreAndRedisRestartsLoseNoJob() throws {
        let store = try servers.store()
        let sources = try (0..<6).map { try FleetCheck.upload(FleetCheck.variant(3000 + $0), name: "r\($0).png", prefix: prefix, store: store) }
        let worker = try WorkerProcess(servers, name: "steady", stream: stream, prefix: prefix,
                                       extra: ["--visibility-timeout", "5", "--retry-timeout", "5", "--max-deliveries", "20"])
        _ = try addJob(sources[0], id: "before")
        XCTAssertEqual(try results(1).count, 1, worker.logText)
        servers.stopStore()
        for index in 1...3 { _ = try addJob(sources[index], id: "outage-\(index)") }
        sleep(10)
        try servers.startStore()
        let afterOutage = try results(4, seconds: 90)
        XCTAssertEqual(afterOutage.filter { $0["status"] == "valid" }.count, 4, worker.logText)
        servers.stopRedis()
        sleep(2)
        try servers.startRedis()
        for index in 4...5 { _ = try addJob(sources[index], id: "after-redis-\(index)") }
        let all = try results(6, seconds: 60)
        XCTAssertEqual(Set(all.compactMap { $0["id"] }), ["before", "outage-1", "outage-2", "outage-3", "after-redis-4", "after-redis-5"])
        XCTAssertTrue(all.allSatisfy { $0["status"] == "valid" })
        for result in all { try XCTAssertTrue(FleetCheck.checkManifest(result["manifest"] ?? "", store: store)) }
        XCTAssertEqual(try servers.queue().pendingCount(stream, group: "creative-workers"), 0)
        worker.signal(SIGTERM)
        XCTAssertEqual(worker.exitStatus(within: 30), 0, worker.logText)
    }

    /// The same input enqueued twice (two workers, two at once each): one piece of work, two
    /// results naming one manifest.
    func testTheSameInputTwiceIsDoneOnce() throws {
        let store = try servers.store()
        let source = try FleetCheck.upload(FleetCheck.variant(4000), name: "twice.png", prefix: prefix, store: store)
        let workers = try (1...2).map { try WorkerProcess(servers, name: "t\($0)", stream: stream, prefix: prefix) }
        _ = try addJob(source, id: "first")
        _ = try addJob(source, id: "second")
        let found = try results(2)
        XCTAssertEqual(found.count, 2)
        XCTAssertEqual(Set(found.compactMap { $0["manifest"] }).count, 1)
        XCTAssertEqual(found.filter { $0["cached"] == "false" }.count, 1, "\(found)")
        try XCTAssertTrue(FleetCheck.checkManifest(found.first?["manifest"] ?? "", store: store))
        _ = workers
    }
}
