import Foundation
import XCTest
@testable import CreativeFleet
import CreativeImaging

/// A campaign job (the entry's `sources`) against the real Redis and SeaweedFS: its creatives
/// processed as one campaign, as `process a.png b.png --output-dir DIR` does, each creative's
/// files under `<folder>/<name>/` and `campaign.json` last; bad sources answered `bad_source`
/// with nothing written.
final class WorkerCampaignTests: FleetTestCase {
    private static func retina(_ size: String) throws -> [UInt8] {
        let url = FleetServers.packageRoot.appendingPathComponent("TestImages/test-artwork-\(size).png")
        return [UInt8](try Data(contentsOf: url))
    }

    private func results(_ count: Int) throws -> [String: StreamEntry] {
        let found = FleetCheck.waitForEntries(stream + ":results", count: count, seconds: 300, redis: try servers.queue())
        return Dictionary(found.map { ($0["id"] ?? $0["entry"] ?? "", $0) }) { first, _ in first }
    }

    private func object(_ address: String) throws -> [UInt8] {
        guard case .bytes(let bytes) = try servers.store().get(try S3Location(parsing: address), limit: 1 << 26) else {
            XCTFail("\(address) is too large")
            return []
        }
        return bytes
    }

    private func json(_ address: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try object(address))) as? [String: Any], address)
    }

    /// The device slot a render or a slot entry names.
    private func key(_ entry: [String: Any]) -> String {
        "\(entry["device"] ?? "")|\(entry["orientation"] ?? "")|\(entry["slot_mode"] ?? "")"
    }

    func testTheThreeRetinaSizesAsOneJobWriteEachSlotOnceAndCampaignJSONLast() throws {
        let store = try servers.store()
        var sources: [String] = []
        for size in ["960x150", "1320x204", "2184x270"] {
            sources.append(try FleetCheck.upload(try Self.retina(size), name: "banner-\(size).png", prefix: prefix, store: store))
        }
        let redis = try servers.queue()
        _ = try redis.add(to: stream, [("sources", sources.joined(separator: "\n")), ("id", "first")])
        let worker = try WorkerProcess(servers, name: "campaign", stream: stream, prefix: prefix)
        let first = try XCTUnwrap(try results(1)["first"], worker.logText)
        XCTAssertEqual(first["status"], "valid", "\(first.fields) \(worker.logText)")
        XCTAssertEqual(first["codes"], "")
        XCTAssertEqual(first["cached"], "false")
        XCTAssertEqual(first["sources"], sources.joined(separator: "\n"))
        XCTAssertNil(first["manifest"], "a campaign's result names its files by their own fields")
        let address = try XCTUnwrap(first["campaign"])
        let folder = String(address.dropLast("campaign.json".count))
        XCTAssertTrue(folder.hasPrefix("s3://\(FleetServers.bucket)/\(prefix)/campaigns/"), address)
        XCTAssertEqual(first["sheet"], folder + "campaign.png")
        let names = ["banner-960x150", "banner-1320x204", "banner-2184x270"]
        XCTAssertEqual(first["manifests"], names.map { folder + $0 + "/manifest.json" }.joined(separator: "\n"))

        // Each creative's manifest lists files that are there; each slot is rendered once.
        var rendered: [String: String] = [:]
        for (name, manifest) in zip(names, names.map { folder + $0 + "/manifest.json" }) {
            XCTAssertTrue(try FleetCheck.checkManifest(manifest, store: store), name)
            for render in try json(manifest)["renders"] as? [[String: Any]] ?? [] {
                XCTAssertNil(rendered[key(render)], "\(key(render)) rendered twice")
                rendered[key(render)] = name
            }
        }
        XCTAssertEqual(rendered.count, 28)
        let campaignText = String(decoding: try object(address), as: UTF8.self)
        try FleetCheck.assertMatchesSchema(campaignText, "campaign.schema.json")
        let campaign = try json(address)
        XCTAssertEqual(campaign["written_by"] as? String, "creative-tool process")
        let slots = try XCTUnwrap(campaign["slots"] as? [[String: Any]])
        XCTAssertEqual(slots.count, 28)
        for slot in slots {
            XCTAssertEqual(slot["creative"] as? String, rendered[key(slot)], key(slot))
            let file = try XCTUnwrap(slot["file"] as? String)
            XCTAssertEqual(try object(folder + file).count, slot["file_bytes"] as? Int, file)
        }
        XCTAssertEqual((campaign["creatives"] as? [[String: Any]])?.map { $0["file"] as? String }, sources)
        let sheet = try XCTUnwrap(campaign["sheet"] as? [String: Any])
        let png = try object(folder + "campaign.png")
        XCTAssertEqual(sheet["file_bytes"] as? Int, png.count)
        XCTAssertEqual(sheet["sha256"] as? String, FleetCheck.sha256(png))
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47])

        // The same campaign again: answered by its campaign.json, with no work.
        _ = try redis.add(to: stream, [("sources", sources.joined(separator: "\n")), ("id", "again")])
        let again = try XCTUnwrap(try results(2)["again"], worker.logText)
        XCTAssertEqual(again["cached"], "true")
        for field in ["status", "codes", "campaign", "sheet", "manifests"] { XCTAssertEqual(again[field], first[field], field) }
        XCTAssertEqual(try redis.pendingCount(stream, group: "creative-workers"), 0)
        XCTAssertEqual(try redis.run(["XLEN", stream + ":dead"]), .integer(0))
    }

    /// `enqueue a.png b.png c.png --wait`: the local files keep their names on the store (each
    /// creative's folder in the campaign), the job and its result print as enqueue.schema.json says.
    func testEnqueueOfSeveralFilesIsOneCampaignJob() throws {
        let worker = try WorkerProcess(servers, name: "enqueuer", stream: stream, prefix: prefix)
        var files: [String] = []
        for size in ["960x150", "1320x204", "2184x270"] {
            let file = servers.folder.appendingPathComponent("ad \(size).png")
            try Data(try Self.retina(size)).write(to: file)
            files.append(file.path)
        }
        let fleet = ["--redis", servers.redisURL, "--store", "s3://\(FleetServers.bucket)/\(prefix)", "--s3-endpoint",
                     servers.s3Endpoint, "--stream", stream]
        let run = try WorkerProcess.run(["enqueue"] + files + ["--format", "png", "--weight-budget", "150K", "--id", "c7",
                                                               "--wait", "--wait-timeout", "5m"] + fleet, servers: servers, timeout: 330)
        XCTAssertEqual(run.status, 0, run.errors + worker.logText)
        try FleetCheck.assertMatchesSchema(run.output, "enqueue.schema.json")
        let lines = try run.output.split(separator: "\n").map {
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        XCTAssertEqual(lines.count, 2, run.output)
        let sources = try XCTUnwrap(lines.first?["sources"] as? [String], run.output)
        XCTAssertEqual(sources.count, 3)
        for (source, size) in zip(sources, ["960x150", "1320x204", "2184x270"]) {
            let sha = FleetCheck.sha256(try Self.retina(size))
            XCTAssertEqual(source, "s3://\(FleetServers.bucket)/\(prefix)/sources/\(sha)/ad_\(size).png")
        }
        let result = try XCTUnwrap(lines.last)
        XCTAssertEqual(result["status"] as? String, "valid", run.output)
        XCTAssertEqual(result["id"] as? String, "c7")
        XCTAssertEqual(result["sources"] as? [String], sources)
        let manifests = try XCTUnwrap(result["manifests"] as? [String], run.output)
        XCTAssertEqual(manifests.map { $0.split(separator: "/").suffix(2).joined(separator: "/") },
                       ["ad_960x150/manifest.json", "ad_1320x204/manifest.json", "ad_2184x270/manifest.json"])
        for manifest in manifests { XCTAssertTrue(try FleetCheck.checkManifest(manifest, store: servers.store())) }
        // The entry's fields are the options as given, read by the worker as process reads them.
        let entry = try XCTUnwrap(RedisConnection.entries(try servers.queue().run(["XRANGE", stream, "-", "+"])).first)
        XCTAssertEqual(entry["format"], "png")
        XCTAssertEqual(entry["weight_budget"], "150K")
        XCTAssertEqual(try json(manifests[0])["weight_budget_bytes"] as? Int, 150 << 10)
        // A campaign with a missing object: failed, nothing of it written, the result as the schema says.
        let missing = try WorkerProcess.run(["enqueue", sources[0], "s3://\(FleetServers.bucket)/\(prefix)/sources/none.png",
                                             "--wait"] + fleet, servers: servers)
        XCTAssertEqual(missing.status, 1, missing.errors)
        try FleetCheck.assertMatchesSchema(missing.output, "enqueue.schema.json")
        let failed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data((missing.output.split(separator: "\n").last ?? "").utf8))
            as? [String: Any], missing.output)
        XCTAssertEqual(failed["codes"] as? [String], ["not_found"], missing.output)
        XCTAssertTrue(failed["campaign"] is NSNull, missing.output)
        XCTAssertEqual((failed["manifests"] as? [Any])?.count, 0, missing.output)
        // More creatives than a campaign job takes: a usage error, nothing added.
        let many = try WorkerProcess.run(["enqueue"] + Array(repeating: files[0], count: 17) + fleet, servers: servers)
        XCTAssertEqual(many.status, 64, many.errors)
        XCTAssertTrue(many.errors.contains("at most 16"), many.errors)
        XCTAssertEqual(try servers.queue().run(["XLEN", stream]), .integer(2))
    }

    /// A rejected creative does not stop the others (as `process`: the campaign is its valid
    /// creatives); a bad or missing source fails the job with nothing written, a bad one `bad_source`.
    func testARejectedCreativeIsReportedAndBadSourcesFailTheJob() throws {
        let store = try servers.store()
        let bucket = FleetServers.bucket
        let wide = try FleetCheck.upload(try Self.retina("960x150"), name: "wide.png", prefix: prefix, store: store)
        let broken = try FleetCheck.upload(Array(FleetCheck.artwork.prefix(16)) + [0, 0, 0, 13], name: "broken.png",
                                           prefix: prefix, store: store)
        let widest = try FleetCheck.upload(try Self.retina("2184x270"), name: "widest.png", prefix: prefix, store: store)
        let redis = try servers.queue()
        let jobs: [(String, [(String, String)])] = [
            ("rejected", [("sources", [wide, broken, widest].joined(separator: "\n") + "\n")]),
            ("climb", [("sources", wide + "\ns3://\(bucket)/\(prefix)/sources/../sources/wide.png")]),
            ("twice", [("sources", wide + "\n" + wide)]),
            ("blank", [("sources", wide + "\n\n" + widest)]),
            ("bucket", [("sources", "s3://\(bucket)\n" + wide)]),
            ("missing", [("sources", wide + "\ns3://\(bucket)/\(prefix)/sources/none.png")]),
            ("many", [("sources", Array(repeating: wide, count: 17).joined(separator: "\n"))]),
            ("both", [("source", wide), ("sources", wide + "\n" + widest)]),
            ("jpg", [("sources", wide + "\n" + widest), ("format", "jpg")]),
            ("huge", [("sources", String(repeating: wide + "\n", count: 400))]),
        ]
        for (id, fields) in jobs { _ = try redis.add(to: stream, fields + [("id", id)]) }
        let worker = try WorkerProcess(servers, name: "campaign-bad", stream: stream, prefix: prefix)
        let byID = try results(jobs.count)

        let rejected = try XCTUnwrap(byID["rejected"], "\(byID.keys) \(worker.logText)")
        XCTAssertEqual(rejected["status"], "rejected", "\(rejected.fields)")
        XCTAssertEqual(rejected["codes"], "corrupt_image")
        let folder = String(try XCTUnwrap(rejected["campaign"]).dropLast("campaign.json".count))
        XCTAssertEqual(rejected["manifests"], ["wide", "broken", "widest"].map { folder + $0 + "/manifest.json" }
            .joined(separator: "\n"), "the rejected creative's manifest holds its report")
        XCTAssertFalse(try FleetCheck.checkManifest(folder + "broken/manifest.json", store: store))
        let campaign = try json(folder + "campaign.json")
        let creatives = try XCTUnwrap(campaign["creatives"] as? [[String: Any]])
        XCTAssertEqual(creatives.map { $0["valid"] as? Bool }, [true, false, true])
        let slots = try XCTUnwrap(campaign["slots"] as? [[String: Any]])
        XCTAssertEqual(slots.count, 28)
        XCTAssertEqual(Set(slots.compactMap { $0["creative"] as? String }), ["wide", "widest"])

        for (id, code, words) in [("climb", "bad_source", "sources line 2: "), ("twice", "bad_source", "named twice"),
                                  ("blank", "bad_source", "sources line 2 is empty"), ("bucket", "bad_source", "names a bucket"),
                                  ("missing", "not_found", "none.png"), ("many", "bad_job", "at most 16"),
                                  ("both", "bad_job", "not both")] {
            let result = try XCTUnwrap(byID[id], id)
            XCTAssertEqual(result["status"], "failed", "\(id): \(result.fields)")
            XCTAssertEqual(result["codes"], code, id)
            XCTAssertEqual(result["campaign"], "", "\(id): nothing written")
            XCTAssertEqual(result["manifests"], "", id)
            XCTAssertTrue(result["message"]?.contains(words) ?? false, "\(id): \(result.fields)")
        }
        XCTAssertEqual(byID["climb"]?["message"],
                       "sources line 2: 's3://\(bucket)/\(prefix)/sources/../sources/wide.png' has a '..' segment in its key; "
                       + "name the object by its own key")
        let huge = try XCTUnwrap(byID["huge"])
        XCTAssertEqual(huge["codes"], "bad_job")
        XCTAssertEqual(huge["message"], "field 'sources' has \((wide.utf8.count + 1) * 400) bytes, over the limit of 17504")
        XCTAssertEqual(huge["sources"], "", "an oversized field is not copied")
        XCTAssertEqual(byID["jpg"]?["codes"], "bad_job")
        XCTAssertTrue(byID["jpg"]?["message"]?.hasSuffix("not 'jpg'; did you mean 'jpeg'?") ?? false, "\(byID["jpg"]?.fields ?? [])")
        XCTAssertEqual(try redis.pendingCount(stream, group: "creative-workers"), 0)
        XCTAssertEqual(try redis.run(["XLEN", stream + ":dead"]), .integer(0), "every bad job has its result")
    }
}
