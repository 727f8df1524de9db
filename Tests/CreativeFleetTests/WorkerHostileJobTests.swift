import Foundation
import XCTest
@testable import CreativeFleet

/// "Hostile input, part 4", items 6, 8 and 9, against the real Redis and SeaweedFS: what a job
/// entry may say. A source must name an object by its own key (no bucket, no prefix, no `.` or
/// `..` segment: `bad_source`), and fields over their sizes are answered naming the field.
final class WorkerHostileJobTests: FleetTestCase {
    private func results(_ count: Int) throws -> [String: StreamEntry] {
        let found = FleetCheck.waitForEntries(stream + ":results", count: count, seconds: 120, redis: try servers.queue())
        return Dictionary(found.map { ($0["id"] ?? $0["entry"] ?? "", $0) }) { first, _ in first }
    }

    func testSourcesThatNameNoObjectOrClimbOutOfTheirKeyAreBadSource() throws {
        let store = try servers.store()
        let bucket = FleetServers.bucket
        // Another advertiser's creative, and a name with dots inside its segments (a real key).
        let secret = S3Location(bucket: bucket, key: "\(prefix)/adv2/secret.png")
        try store.put(FleetCheck.variant(7001), at: secret, contentType: "image/png")
        let dotted = S3Location(bucket: bucket, key: "\(prefix)/adv1/..banner.v2..png")
        try store.put(FleetCheck.variant(7002), at: dotted, contentType: "image/png")
        let redis = try servers.queue()
        let jobs = [("climb", "s3://\(bucket)/\(prefix)/adv1/../adv2/secret.png"),
                    ("here", "s3://\(bucket)/\(prefix)/adv2/./secret.png"),
                    ("bucket", "s3://\(bucket)"), ("prefix", "s3://\(bucket)/\(prefix)/adv2/"),
                    ("dotted", dotted.description)]
        for (id, source) in jobs { _ = try redis.add(to: stream, [("source", source), ("id", id)]) }
        let worker = try WorkerProcess(servers, name: "keys", stream: stream, prefix: prefix)
        let byID = try results(jobs.count)
        for id in ["climb", "here", "bucket", "prefix"] {
            XCTAssertEqual(byID[id]?["status"], "failed", "\(id): \(byID[id]?.fields ?? []) \(worker.logText)")
            XCTAssertEqual(byID[id]?["codes"], "bad_source", id)
            XCTAssertEqual(byID[id]?["manifest"], "", id)
        }
        XCTAssertTrue(byID["climb"]?["message"]?.contains("'..' segment") ?? false, "\(byID["climb"]?.fields ?? [])")
        XCTAssertTrue(byID["bucket"]?["message"]?.contains("names a bucket") ?? false, "\(byID["bucket"]?.fields ?? [])")
        XCTAssertEqual(byID["dotted"]?["status"], "valid", "\(byID["dotted"]?.fields ?? [])")
        XCTAssertEqual(try redis.pendingCount(stream, group: "creative-workers"), 0)
        // The client itself never sends a dot segment, and sends other keys byte for byte.
        XCTAssertThrowsError(try store.get(S3Location(bucket: bucket, key: "\(prefix)/adv1/../adv2/secret.png"), limit: 1 << 20)) {
            XCTAssertEqual(($0 as? FleetError)?.code, "bad_source")
        }
        let odd = S3Location(bucket: bucket, key: "\(prefix)/a b/%2e%2e/+&=é.png")
        try store.put([1, 2, 3], at: odd, contentType: "image/png")
        XCTAssertEqual(try store.get(odd, limit: 16), .bytes([1, 2, 3]))
        // The percent-encoded dots are a segment's bytes, not a dot segment: nothing else matches.
        XCTAssertEqual(try store.head(S3Location(bucket: bucket, key: "\(prefix)/+&=é.png")), nil)
    }

    /// The process's peak resident memory (`VmHWM`), in bytes.
    private func peakResidentBytes(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        return try XCTUnwrap(Int(line.split(separator: " ").dropFirst().first ?? "")) * 1024
    }

    // Hostile input 5, item 10. An entry with a 64 MiB field took the worker to 223 MB: hiredis
    // buffered the reply whole and it was copied twice more. Now the field is refused from its
    // declared length before any of it is read, so the worker never holds it: its peak stays
    // under the field's size (it idles near 30 MB), and the entry is still answered by name.
    func testA64MiBFieldIsRefusedBeforeItIsRead() throws {
        let redis = try servers.queue()
        let source = try FleetCheck.upload(FleetCheck.variant(7004), name: "long.png", prefix: prefix, store: servers.store())
        let long = try redis.add(to: stream, [("source", source), ("id", String(repeating: "i", count: 64 << 20))])
        let worker = try WorkerProcess(servers, name: "long", stream: stream, prefix: prefix)
        let byID = try results(1)
        let refused = try XCTUnwrap(byID[long], "\(byID.keys) \(worker.logText)")
        XCTAssertEqual(refused["status"], "failed")
        XCTAssertEqual(refused["codes"], "bad_job")
        XCTAssertEqual(refused["message"], "field 'id' has \(64 << 20) bytes, over the limit of 4096")
        XCTAssertEqual(refused["source"], source, "the fields read before the long one are kept")
        let peak = try peakResidentBytes(worker.process.processIdentifier)
        print("worker peak after a 64 MiB field: \(peak) bytes")
        XCTAssertLessThan(peak, 64 << 20, "peak \(peak) bytes: the 64 MiB field was read")
        XCTAssertEqual(try redis.pendingCount(stream, group: "creative-workers"), 0)
        // The connection cut in the middle of the reply is opened again for the next job.
        _ = try redis.add(to: stream, [("source", source), ("id", "after")])
        XCTAssertEqual(try results(2)["after"]?["status"], "valid", worker.logText)
    }

    func testFieldsOverTheirSizesAreAnsweredNamingTheFieldAndNotCopied() throws {
        let redis = try servers.queue()
        let source = try FleetCheck.upload(FleetCheck.variant(7003), name: "fields.png", prefix: prefix, store: servers.store())
        let hugeID = String(repeating: "i", count: 1 << 20)
        let idEntry = try redis.add(to: stream, [("source", source), ("id", hugeID)])
        _ = try redis.add(to: stream, [("source", source), ("id", "note"), ("note", String(repeating: "n", count: 2000))])
        _ = try redis.add(to: stream, [("source", source), ("id", "fine")])
        let worker = try WorkerProcess(servers, name: "fields", stream: stream, prefix: prefix)
        let byID = try results(3)
        let huge = try XCTUnwrap(byID[idEntry], "\(byID.keys) \(worker.logText)")
        XCTAssertEqual(huge["status"], "failed")
        XCTAssertEqual(huge["codes"], "bad_job")
        XCTAssertEqual(huge["message"], "field 'id' has \(1 << 20) bytes, over the limit of 4096")
        XCTAssertEqual(huge["source"], source)
        XCTAssertEqual(byID["note"]?["codes"], "bad_job")
        XCTAssertEqual(byID["note"]?["message"], "field 'note' has 2000 bytes, over the limit of 1024")
        XCTAssertEqual(byID["fine"]?["status"], "valid", "\(byID["fine"]?.fields ?? [])")
        let stored = try redis.run(["XRANGE", stream + ":results", "-", "+"])
        XCTAssertFalse(RedisConnection.entries(stored).contains { $0.fields.contains { $0.1.utf8.count > 4096 } })
    }

    func testEnqueueRefusesSourcesThatNameNoObjectAndAnEmptyID() throws {
        let fleet = ["--redis", servers.redisURL, "--store", "s3://\(FleetServers.bucket)/\(prefix)", "--s3-endpoint",
                     servers.s3Endpoint, "--stream", stream]
        for source in ["s3://\(FleetServers.bucket)", "s3://\(FleetServers.bucket)/", "s3://\(FleetServers.bucket)/uploads/",
                       "s3://\(FleetServers.bucket)/adv1/../adv2/secret.png", "s3://\(FleetServers.bucket)/./a.png"] {
            let run = try WorkerProcess.run(["enqueue", source, "--wait"] + fleet, servers: servers)
            XCTAssertEqual(run.status, 64, "\(source): \(run.errors)")
            XCTAssertEqual(run.output, "", source)
        }
        let empty = try WorkerProcess.run(["enqueue", "s3://\(FleetServers.bucket)/uploads/a.png", "--id", ""] + fleet,
                                          servers: servers)
        XCTAssertEqual(empty.status, 64, empty.errors)
        XCTAssertTrue(empty.errors.contains("--id"), empty.errors)
        XCTAssertEqual(try servers.queue().run(["XLEN", stream]), .integer(0), "nothing was added")
    }

    /// The job's options are read through `process`'s declarations (the third option source):
    /// a wrong value gets the sentence and the hint `process` prints for the same option, as a
    /// `failed` result with `bad_job` (not a dead letter); a misspelled or repeated field is named.
    func testJobFieldsAreReadAsProcessReadsItsOptions() throws {
        let redis = try servers.queue()
        let source = try FleetCheck.upload(FleetCheck.variant(7004), name: "options.png", prefix: prefix, store: servers.store())
        let jobs: [(String, [(String, String)], flag: String?)] = [
            ("jpg", [("format", "jpg")], "--format"), ("baner", [("product", "baner")], "--product"),
            ("budget", [("weight_budget", "10Q")], "--weight-budget"), ("with", [("with", "961x150")], "--with"),
            ("spelled", [("Format", "png")], nil), ("dashed", [("weight-budget", "40K")], nil),
            ("twice", [("format", "png"), ("format", "webp")], nil), ("upper", [("format", "PNG"), ("product", "Banner")], nil),
        ]
        for (id, fields, _) in jobs { _ = try redis.add(to: stream, [("source", source), ("id", id)] + fields) }
        // The worker's own --weight-budget is the default of the entries that give none.
        let worker = try WorkerProcess(servers, name: "options", stream: stream, prefix: prefix, extra: ["--weight-budget", "100K"])
        let byID = try results(jobs.count)
        let file = servers.folder.appendingPathComponent("options.png")
        try Data(FleetCheck.variant(7004)).write(to: file)
        for (id, fields, flag) in jobs {
            guard let flag else { continue }
            let result = try XCTUnwrap(byID[id], "\(id) \(worker.logText)")
            XCTAssertEqual(result["status"], "failed", "\(id): \(result.fields)")
            XCTAssertEqual(result["codes"], "bad_job", id)
            // What process says of the same value, the option named as the field is.
            let cli = try WorkerProcess.run(["process", file.path, "--output-dir", servers.folder.appendingPathComponent("o-\(id)").path,
                                             flag, fields[0].1], servers: servers)
            XCTAssertEqual(cli.status, 64, cli.errors)
            let said = try XCTUnwrap(result["message"], id)
            XCTAssertTrue(cli.errors.contains(said.replacingOccurrences(of: fields[0].0, with: flag)),
                          "\(id): the job says '\(said)', process '\(cli.errors)'")
        }
        XCTAssertTrue(byID["jpg"]?["message"]?.hasSuffix("not 'jpg'; did you mean 'jpeg'?") ?? false, "\(byID["jpg"]?.fields ?? [])")
        XCTAssertTrue(byID["baner"]?["message"]?.hasSuffix("did you mean 'banner'?") ?? false, "\(byID["baner"]?.fields ?? [])")
        XCTAssertEqual(byID["spelled"]?["message"], "unknown field 'Format'; did you mean 'format'?")
        XCTAssertEqual(byID["dashed"]?["message"], "unknown field 'weight-budget'; did you mean 'weight_budget'?")
        XCTAssertEqual(byID["twice"]?["message"], "field 'format' is given twice")
        XCTAssertEqual(byID["upper"]?["status"], "valid", "names in any case, as process takes them: \(byID["upper"]?.fields ?? [])")
        let manifest = try S3Location(parsing: try XCTUnwrap(byID["upper"]?["manifest"]))
        guard case .bytes(let bytes) = try servers.store().get(manifest, limit: 1 << 24),
              let parsed = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            return XCTFail("no manifest at \(manifest)")
        }
        XCTAssertEqual(parsed["weight_budget_bytes"] as? Int, 100 << 10)
        XCTAssertEqual(try redis.run(["XLEN", stream + ":dead"]), .integer(0), "every one answered in its result")
        XCTAssertEqual(try redis.pendingCount(stream, group: "creative-workers"), 0)
    }
}
