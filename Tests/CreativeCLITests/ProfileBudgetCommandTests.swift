import CreativeCore
import CreativeImaging
@testable import CreativeCLI
import CreativeTestSupport
import Foundation
import XCTest

/// `render --profile` and `process --profile`: each render's weight budget is the profile's weight
/// for its size (IAB LEAN: 50,000 bytes for 320x50 and its 2x, 3x) when that is stricter than
/// `--weight-budget`; the render meets it or is refused with `over_weight_budget`, nothing written.
final class ProfileBudgetCommandTests: ScratchFolderTestCase {
    /// IAB LEAN's initial-load weight for 320x50 (Profiles/iab-lean.json).
    private let leanBudget = 50_000

    private func put(_ bytes: [UInt8], _ name: String) throws {
        try Data(bytes).write(to: folder.appendingPathComponent(name))
    }

    private func contents(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    private func object(_ bytes: [UInt8]) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    func testA320x50RenderMeetsIABLeansBudgetOrIsRefused() throws {
        // Random RGB pixels: heavier than 50,000 bytes at the default quality in every format, and
        // under the quality floor wherever they fit it. A photograph's statistics: heavier as
        // JPEG at the default quality, above the floor lowered to fit.
        try put(Fixtures.storedNoisePNG(960, 150), "noise.png")
        try put(Fixtures.storedPhotoPNG(960, 150), "photo.png")
        let free = try Tool.run(["render", "photo.png", "--slot", "320x50@3x", "--format", "jpeg", "--output", "free.jpg"],
                                in: folder)
        XCTAssertEqual(free.status, 0, free.stderr)
        XCTAssertGreaterThan(try contents("free.jpg").count, leanBudget, "the test needs a render over LEAN's weight")
        // JPEG fits at a lower quality: the file meets the budget and says whose it is.
        let jpeg = try Tool.run(["render", "photo.png", "--slot", "320x50@3x", "--format", "jpeg", "--profile", "iab-lean",
                                 "--output", "lean.jpg", "--json"], in: folder)
        XCTAssertEqual(jpeg.status, 0, jpeg.stderr)
        let answer = try object(jpeg.stdout)
        XCTAssertEqual(answer["weight_budget_bytes"] as? Int, leanBudget)
        XCTAssertEqual(answer["weight_budget_profile"] as? String, "iab-lean")
        XCTAssertLessThanOrEqual(try contents("lean.jpg").count, leanBudget)
        XCTAssertEqual(answer["file_bytes"] as? Int, try contents("lean.jpg").count)
        XCTAssertTrue((answer["encoding"] as? String ?? "").contains("the best that fits the weight budget of 50000 bytes"),
                      "\(answer)")
        // A larger budget asked does not lift the profile's weight; a smaller one wins.
        let lifted = try Tool.run(["render", "photo.png", "--slot", "320x50@3x", "--format", "jpeg", "--profile", "iab-lean",
                                   "--weight-budget", "1M", "--output", "lifted.jpg"], in: folder)
        XCTAssertEqual(lifted.status, 0, lifted.stderr)
        XCTAssertEqual(try contents("lifted.jpg"), try contents("lean.jpg"), "the same budget, the same bytes")
        let lower = try Tool.run(["render", "photo.png", "--slot", "320x50@3x", "--format", "jpeg", "--profile", "iab-lean",
                                  "--weight-budget", "47K", "--output", "lower.jpg", "--json"], in: folder)
        XCTAssertEqual(lower.status, 0, lower.stderr)
        XCTAssertEqual(try object(lower.stdout)["weight_budget_bytes"] as? Int, 47 * 1024)
        XCTAssertTrue(try object(lower.stdout)["weight_budget_profile"] is NSNull)
        XCTAssertLessThanOrEqual(try contents("lower.jpg").count, 47 * 1024)
        // WebP of noise fits 50,000 bytes only under the quality floor: refused, nothing written,
        // the budget and its profile named.
        let webp = try Tool.run(["render", "noise.png", "--slot", "320x50@3x", "--format", "webp", "--profile", "iab-lean",
                                 "--output", "lean.webp"], in: folder)
        XCTAssertEqual(webp.status, 1, webp.text)
        XCTAssertTrue(webp.stderr.contains("over_weight_budget"), webp.stderr)
        XCTAssertTrue(webp.stderr.contains("fits the weight budget of 50000 bytes"), webp.stderr)
        XCTAssertTrue(webp.stderr.contains("iab-lean's weight for 960x150"), webp.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("lean.webp").path))
        let unbudgeted = try Tool.run(["render", "noise.png", "--slot", "320x50@3x", "--format", "webp",
                                       "--output", "default.webp"], in: folder)
        XCTAssertEqual(unbudgeted.status, 0, "within the default 150K: \(unbudgeted.stderr)")
        // `auto` falls back to what fits above the floor: the photograph's WebP.
        let auto = try Tool.run(["render", "photo.png", "--slot", "320x50@3x", "--format", "auto", "--profile", "iab-lean",
                                 "--output", "auto", "--json"], in: folder)
        XCTAssertEqual(auto.status, 0, auto.stderr)
        XCTAssertLessThanOrEqual(try contents("auto").count, leanBudget)
        // 216x36 at 4x weighs as 216x36, 5,000 bytes: out of reach for noise in any format.
        let tiny = try Tool.run(["render", "noise.png", "--slot", "216x36@4x", "--format", "auto", "--profile", "iab-lean",
                                 "--output", "tiny"], in: folder)
        XCTAssertEqual(tiny.status, 1, tiny.text)
        XCTAssertTrue(tiny.stderr.contains("over_weight_budget") && tiny.stderr.contains("5000 bytes"), tiny.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("tiny").path))
    }

    func testAnUnknownProfileIsAUsageErrorNamingTheOneMeant() throws {
        for command in [["render", "--slot", "320x50", "--output", "o.png"], ["process", "art.png", "--output-dir", "out"]] {
            let run = try Tool.run(command + ["--profile", "iab-laen"], in: folder)
            XCTAssertEqual(run.status, 64, run.text)
            XCTAssertTrue(run.stderr.contains("did you mean 'iab-lean'?"), run.stderr)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "nothing written")
    }

    func testProcessGivesEachRenderItsProfilesBudget() throws {
        try put(Fixtures.storedNoisePNG(960, 150), "noise.png")
        let out = folder.appendingPathComponent("out")
        // Among the Retina sizes, the 960x150 serves three phones' slots, the iPhone SE's 320x50 at 2x one of them.
        let run = try Tool.run(["process", "noise.png", "--output-dir", out.path, "--format", "png", "--profile", "iab-lean",
                                "--with", "1320x204,2184x270", "--json"], in: folder)
        XCTAssertEqual(run.status, 0, run.text)
        let manifest = try object(run.stdout)
        XCTAssertEqual(manifest["weight_budget_bytes"] as? Int, RenderSettings.defaultWeightBudget)
        XCTAssertEqual(manifest["weight_budget_profiles"] as? [String], ["iab-lean"])
        let report = try XCTUnwrap(manifest["report"] as? [String: Any])
        XCTAssertEqual(report["valid"] as? Bool, true, "the upload is checked against the product's rules, not LEAN's")
        let renders = try XCTUnwrap(manifest["renders"] as? [[String: Any]])
        var leanSlots = 0
        for render in renders {
            let pixels = try XCTUnwrap(render["slot_pixels"] as? [String: Int])
            let size = PixelSize(width: pixels["width"] ?? 0, height: pixels["height"] ?? 0)
            let file = try XCTUnwrap(render["file"] as? String, "\(render)")
            let bytes = [UInt8](try Data(contentsOf: out.appendingPathComponent(file)))
            if size.width * 50 == size.height * 320 {
                leanSlots += 1
                XCTAssertEqual(render["weight_budget_bytes"] as? Int, leanBudget, file)
                XCTAssertEqual(render["weight_budget_profile"] as? String, "iab-lean", file)
                XCTAssertLessThanOrEqual(bytes.count, leanBudget, file)
            } else {
                XCTAssertEqual(render["weight_budget_bytes"] as? Int, RenderSettings.defaultWeightBudget, file)
                XCTAssertTrue(render["weight_budget_profile"] is NSNull, file)
                XCTAssertLessThanOrEqual(bytes.count, RenderSettings.defaultWeightBudget, file)
            }
        }
        XCTAssertEqual(leanSlots, 1, "the iPhone SE's 320x50 at 2x")
        // Without the profile, that slot's palette PNG is over 50,000 bytes: the profile decided it.
        let free = try Tool.run(["process", "noise.png", "--output-dir", folder.appendingPathComponent("free").path,
                                 "--format", "png", "--with", "1320x204,2184x270", "--json"], in: folder)
        let se = try XCTUnwrap((try object(free.stdout)["renders"] as? [[String: Any]])?.first {
            ($0["file"] as? String ?? "").hasPrefix("iphone-se-portrait")
        })
        XCTAssertGreaterThan(se["file_bytes"] as? Int ?? 0, leanBudget)
        XCTAssertTrue(se["weight_budget_profile"] is NSNull)
    }
}
