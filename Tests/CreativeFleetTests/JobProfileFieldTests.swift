import CreativeCore
import CreativeImaging
@testable import CreativeFleet
import XCTest

/// A worker's job: the entry's `weight_budget` and `profile` fields, else the worker's own
/// `--weight-budget` and `--profile`; both are part of the result's version.
final class JobProfileFieldTests: XCTestCase {
    func testAJobsFieldsOrTheWorkersDefaultsDecideTheBudget() throws {
        let lean = try XCTUnwrap(PlatformProfiles.named("iab-lean"))
        let runner = ProcessJobRunner(limits: ValidationLimits(), defaults: ["weight_budget": "100K", "profile": "iab-lean"])
        func settings(_ fields: [(String, String)], _ runner: ProcessJobRunner) throws -> JobSettings {
            try runner.settings(StreamEntry(id: "1-1", fields: [("source", "s3://creatives/a.png")] + fields))
        }
        let defaults = try settings([("profile", "")], runner)
        XCTAssertEqual(defaults.process.weightBudget, RenderWeightBudget(asked: 100 * 1024, profiles: [lean]), "an empty field is no field")
        let own = try settings([("weight_budget", "40K"), ("profile", "google-ads")], runner)
        XCTAssertEqual(own.process.weightBudget.asked, 40 * 1024)
        XCTAssertEqual(own.process.weightBudget.profiles.names, "google-ads")
        XCTAssertNotEqual(defaults.version, own.version, "another budget is another answer")
        let unprofiled = try settings([], ProcessJobRunner(limits: ValidationLimits(), defaults: ["weight_budget": "100K"]))
        XCTAssertNotEqual(defaults.version, unprofiled.version, "the profile is part of the version")
        XCTAssertThrowsError(try settings([("profile", "iab-laen")], runner)) { error in
            guard case FleetError.badJob(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("did you mean 'iab-lean'?"), message)
        }
    }

    /// A job's `formats` (auto's choice) is read as `process --formats` reads it, and is part of
    /// the version: another set of formats is another answer.
    func testAJobsFormatsFieldNarrowsAutoAndIsPartOfTheVersion() throws {
        let runner = ProcessJobRunner(limits: ValidationLimits(), defaults: [:])
        let entry = { (fields: [(String, String)]) in StreamEntry(id: "1-1", fields: [("source", "s3://creatives/a.png")] + fields) }
        let plain = try runner.settings(entry([]))
        XCTAssertNil(plain.process.autoFormats)
        let avif = try runner.settings(entry([("formats", "webp,avif")]))
        XCTAssertEqual(avif.process.autoFormats, [.webp, .avif])
        XCTAssertNotEqual(plain.version, avif.version)
        XCTAssertEqual(try runner.settings(entry([("formats", "avif,webp")])).version, avif.version, "a set: order is not an answer")
        XCTAssertThrowsError(try runner.settings(entry([("formats", "webp,heic")]))) { error in
            guard case FleetError.badJob(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("formats must name formats of png, jpeg, webp, avif"), message)
        }
    }

    /// A job's memory budget is its product's default (interstitials 144 MiB, as `process`'s)
    /// unless the worker was given `--memory-budget`, which applies to every job.
    func testAJobsMemoryBudgetFollowsItsProductUnlessTheWorkerGaveOne() throws {
        let entry = { (product: String) in StreamEntry(id: "1-1", fields: [("source", "s3://creatives/a.png"), ("product", product)]) }
        let runner = ProcessJobRunner(limits: ValidationLimits(), defaults: [:])
        let banner = try runner.settings(entry("banner")), interstitial = try runner.settings(entry("interstitial"))
        XCTAssertEqual(runner.limits(banner).job.memoryBudget, 80 << 20)
        XCTAssertEqual(runner.limits(interstitial).job.memoryBudget, 144 << 20)
        let given = ProcessJobRunner(limits: ValidationLimits(), defaults: [:], jobMemoryBudget: 64 << 20)
        XCTAssertEqual(given.limits(try given.settings(entry("interstitial"))).job.memoryBudget, 64 << 20)
        XCTAssertNotEqual(try given.settings(entry("interstitial")).version, interstitial.version,
                          "the budget is part of the version")
    }
}
