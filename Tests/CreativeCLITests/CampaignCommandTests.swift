import CreativeCore
import CreativeTestSupport
import Foundation
import XCTest

/// `process` and the campaign: a creative is rendered where the ad server serves it among the
/// campaign's approved sizes (the files given together, and `--with`), and alone in every slot
/// it is eligible for; several files are one campaign with `campaign.json` and `campaign.png`.
final class CampaignCommandTests: ScratchFolderTestCase {
    private func retina(_ size: String) -> String {
        Tool.packageRoot.appendingPathComponent("TestImages/test-artwork-\(size).png").path
    }

    private func json(_ url: URL) throws -> [String: Any] {
        try Fixtures.object(String(decoding: try Data(contentsOf: url), as: UTF8.self))
    }

    private func sizes(_ value: Any?) -> [String] {
        ((value as? [[String: Int]]) ?? []).map { "\($0["width"] ?? 0)x\($0["height"] ?? 0)" }
    }

    /// The device slot a render or a slot entry names.
    private func key(_ entry: [String: Any]) -> String {
        "\(entry["device"] ?? "")|\(entry["orientation"] ?? "")|\(entry["slot_mode"] ?? "")"
    }

    func testAStandardOrRetinaSizeAloneIsServedInEveryAnchoredSlotAndNamesNoOtherSize() throws {
        for size in ["320x50", "728x90", "960x150"] {
            let file = try Fixtures.solidArtwork(size, in: folder)
            let out = folder.appendingPathComponent("out-\(size)")
            let run = try Tool.run(["process", file, "--output-dir", out.path, "--format", "png"])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertTrue(run.text.contains("valid; wrote 28 renders"), run.text)
            let manifest = try json(out.appendingPathComponent("manifest.json"))
            let renders = try XCTUnwrap(manifest["renders"] as? [[String: Any]])
            XCTAssertEqual(renders.count, DevicePlan.anchoredSlots().count, size)
            XCTAssertEqual(renders.count, 28, size)
            XCTAssertEqual(Set(renders.map(key)).count, 28, "\(size): each anchored slot once")
            XCTAssertTrue(renders.allSatisfy { $0["slot_mode"] as? String == "anchored" }, size)
            XCTAssertEqual(sizes(manifest["campaign_pixels"]), [size], "the campaign is the creative alone")
            // No other upload size appears as a size the ad server would serve.
            let text = String(decoding: try Data(contentsOf: out.appendingPathComponent("manifest.json")), as: UTF8.self)
            for other in Product.banner.sizes where other.description != size {
                XCTAssertFalse(text.contains("\"\(other)\""), "\(size): its manifest names \(other)")
            }
            // Every render file is there, at its slot's pixels.
            for render in renders {
                let name = try XCTUnwrap(render["file"] as? String)
                let bytes = try Data(contentsOf: out.appendingPathComponent(name))
                XCTAssertEqual(bytes.count, render["file_bytes"] as? Int, name)
            }
        }
    }

    func testARectangleAloneIsServedInEveryInlineSlot() throws {
        let file = try Fixtures.solidArtwork("300x250", in: folder)
        let out = folder.appendingPathComponent("out")
        let run = try Tool.run(["process", file, "--output-dir", out.path, "--format", "png", "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let renders = try XCTUnwrap(try Fixtures.object(run.text)["renders"] as? [[String: Any]])
        XCTAssertEqual(renders.count, DevicePlan.inlineSlots().count)
        XCTAssertTrue(renders.allSatisfy { $0["slot_mode"] as? String == "inline" })
    }

    func testWithBringsTheRetinaSizeBackToTheSlotsWhereItWins() throws {
        let out = folder.appendingPathComponent("out")
        let run = try Tool.run(["process", retina("960x150"), "--with", "1320x204, 2184x270", "--output-dir", out.path, "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let manifest = try Fixtures.object(run.text)
        XCTAssertEqual(sizes(manifest["campaign_pixels"]), ["960x150", "1320x204", "2184x270"])
        let renders = try XCTUnwrap(manifest["renders"] as? [[String: Any]])
        let expected = DevicePlan.anchoredAssignments(candidates: Product.banner.recommendedUploads, product: .banner)
            .filter { $0.artwork == PixelSize(width: 960, height: 150) }
        XCTAssertEqual(renders.count, 3)
        XCTAssertEqual(Set(renders.compactMap { $0["device"] as? String }), Set(expected.map(\.deviceSlot.device.name)))
        XCTAssertEqual(Set(renders.compactMap { $0["device"] as? String }), ["iPhone SE", "iPhone 15 Plus", "Android phone"])
        // A size the product does not accept, or not a size: a usage error, nothing written.
        for with in ["961x150", "960x150,big", "300x250x2"] {
            let bad = try Tool.run(["process", retina("960x150"), "--with", with, "--output-dir", folder.appendingPathComponent("bad").path])
            XCTAssertEqual(bad.status, 64, "\(with): \(bad.stderr)")
            XCTAssertTrue(bad.stderr.contains("--with"), bad.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("bad").path))
    }

    func testTheThreeRetinaSizesTogetherWriteEachSlotOnceAndCampaignJSON() throws {
        let out = folder.appendingPathComponent("campaign")
        let run = try Tool.run(["process", retina("960x150"), retina("1320x204"), retina("2184x270"), "--output-dir", out.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "", "no progress line when standard error is not a terminal")
        let lines = run.text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4, run.text)
        XCTAssertTrue(lines[0].hasSuffix("valid; 3 renders in test-artwork-960x150/"), lines[0])
        XCTAssertTrue(lines[3].hasPrefix("campaign of 3 creatives: 3 rendered, 0 not;"), lines[3])
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: out.path))
        XCTAssertEqual(names, ["campaign.json", "campaign.png", "test-artwork-960x150", "test-artwork-1320x204",
                               "test-artwork-2184x270"])
        var renderCount = 0
        var rendered: [String: String] = [:]
        for creative in ["960x150", "1320x204", "2184x270"] {
            let manifest = try json(out.appendingPathComponent("test-artwork-\(creative)/manifest.json"))
            XCTAssertEqual(sizes(manifest["campaign_pixels"]).sorted(), ["1320x204", "2184x270", "960x150"])
            let renders = try XCTUnwrap(manifest["renders"] as? [[String: Any]])
            renderCount += renders.count
            for render in renders {
                XCTAssertNil(rendered[key(render)], "\(key(render)) rendered twice")
                rendered[key(render)] = creative
            }
        }
        XCTAssertEqual(renderCount, 28)
        let campaign = try json(out.appendingPathComponent("campaign.json"))
        XCTAssertEqual(campaign["written_by"] as? String, "creative-tool process")
        let slots = try XCTUnwrap(campaign["slots"] as? [[String: Any]])
        XCTAssertEqual(slots.count, 28)
        for slot in slots {
            let served = try XCTUnwrap(slot["creative"] as? String)
            XCTAssertEqual("test-artwork-" + (rendered[key(slot)] ?? "?"), served, key(slot))
            let file = try XCTUnwrap(slot["file"] as? String)
            let bytes = try Data(contentsOf: out.appendingPathComponent(file))
            XCTAssertEqual(slot["file_bytes"] as? Int, bytes.count, file)
            XCTAssertNotNil(slot["fill_share"] as? Double)
        }
        let sheet = try XCTUnwrap(campaign["sheet"] as? [String: Any])
        let png = try Data(contentsOf: out.appendingPathComponent("campaign.png"))
        XCTAssertEqual(sheet["file_bytes"] as? Int, png.count)
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        // A rerun replaces the campaign's folder (its own), and the folder's files are a campaign too.
        let rerun = try Tool.run(["process", Tool.packageRoot.appendingPathComponent("TestImages").path,
                                  "--output-dir", out.path, "--json"])
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertEqual(rerun.text.filter { $0 == "\n" }.count, 1, "one document")
        let document = try Fixtures.object(rerun.text)
        XCTAssertEqual(Set(document.keys), ["schema_version", "tool_version", "campaign", "manifests"])
        XCTAssertEqual(((document["campaign"] as? [String: Any])?["slots"] as? [Any])?.count, 28)
        XCTAssertEqual((document["manifests"] as? [String: Any])?.count, 3)
        // A stray file makes it someone else's folder: refused, nothing changed.
        try Data("mine".utf8).write(to: out.appendingPathComponent("notes.txt"))
        let refused = try Tool.run(["process", retina("960x150"), retina("1320x204"), "--output-dir", out.path])
        XCTAssertEqual(refused.status, 74)
        XCTAssertTrue(refused.stderr.contains("output_dir_not_ours"), refused.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("test-artwork-2184x270").path))
    }

    /// A folder's files whose names are not images' (a README, notes, a brief) are left out, as
    /// hidden files are; an image's extension in any case, or none, is taken.
    func testAFolderCampaignLeavesOutFilesThatAreNotImages() throws {
        let art = folder.appendingPathComponent("art")
        try FileManager.default.createDirectory(at: art, withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: retina("960x150"), toPath: art.appendingPathComponent("a-960x150.PNG").path)
        try FileManager.default.copyItem(atPath: retina("1320x204"), toPath: art.appendingPathComponent("b-1320x204").path)
        for name in ["README.txt", "brief.docx", "notes.md", ".DS_Store"] {
            try Data("not a picture\n".utf8).write(to: art.appendingPathComponent(name))
        }
        let out = folder.appendingPathComponent("out")
        let run = try Tool.run(["process", art.path, "--output-dir", out.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.text.contains("campaign of 2 creatives: 2 rendered, 0 not"), run.text)
        XCTAssertFalse(run.text.contains("README") || run.text.contains("not_an_image"), run.text)
        // A folder of no image's name is a usage error, with nothing made; a FILE named alone is taken.
        let notes = folder.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: false)
        try Data("not a picture\n".utf8).write(to: notes.appendingPathComponent("README.txt"))
        let none = try Tool.run(["process", notes.path, "--output-dir", folder.appendingPathComponent("none").path])
        XCTAssertEqual(none.status, 64, none.stderr)
        XCTAssertTrue(none.stderr.contains("the folder holds no image files"), none.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("none").path))
        let named = try Tool.run(["process", retina("960x150"), notes.appendingPathComponent("README.txt").path,
                                  "--output-dir", folder.appendingPathComponent("named").path])
        XCTAssertEqual(named.status, 1, named.stderr)
        XCTAssertTrue(named.text.contains("README.txt: REJECTED"), named.text)
    }

    func testACampaignWithARejectedFileExitsOneAndStillWritesTheRest() throws {
        let near = try Fixtures.solidArtwork("961x150", in: folder)
        let out = folder.appendingPathComponent("campaign")
        let run = try Tool.run(["process", retina("960x150"), near, retina("2184x270"), "--output-dir", out.path, "--json"])
        XCTAssertEqual(run.status, 1, run.stderr)
        let document = try Fixtures.object(run.text)
        let campaign = try XCTUnwrap(document["campaign"] as? [String: Any])
        XCTAssertEqual(sizes(campaign["campaign_pixels"]), ["960x150", "2184x270"], "only approved creatives compete")
        let creatives = try XCTUnwrap(campaign["creatives"] as? [[String: Any]])
        XCTAssertEqual(creatives.map { $0["valid"] as? Bool }, [true, false, true])
        XCTAssertEqual(creatives[1]["codes"] as? [String], ["dimensions_not_allowed"])
        XCTAssertEqual(creatives[1]["renders"] as? Int, 0)
        let slots = try XCTUnwrap(campaign["slots"] as? [[String: Any]])
        XCTAssertEqual(slots.count, 28)
        XCTAssertEqual(Set(slots.compactMap { $0["creative"] as? String }), ["test-artwork-960x150", "test-artwork-2184x270"])
        let rendered = creatives.compactMap { $0["renders"] as? Int }.reduce(0, +)
        XCTAssertEqual(rendered, 28, "the two valid ones share every slot")
        // The rejected one's folder holds its report only; the others are whole.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("a961x150").path),
                       ["manifest.json"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("campaign.json").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("test-artwork-960x150/preview.png").path))
        // Without --json, one line per creative, the rejected one with its code.
        let lines = try Tool.run(["process", retina("960x150"), near, "--output-dir", out.path])
        XCTAssertEqual(lines.status, 1)
        XCTAssertTrue(lines.text.contains("dimensions_not_allowed"), lines.text)
        XCTAssertTrue(lines.text.contains("1 rendered, 1 not"), lines.text)
    }

    func testASecondCreativeOfTheSameSizeIsSaidKeptOrNotWithItsOwnCode() throws {
        let first = folder.appendingPathComponent("first.png"), second = folder.appendingPathComponent("second.png")
        try FileManager.default.copyItem(atPath: retina("960x150"), toPath: first.path)
        try FileManager.default.copyItem(atPath: retina("960x150"), toPath: second.path)
        let out = folder.appendingPathComponent("campaign")
        let run = try Tool.run(["process", "first.png", "second.png", "--output-dir", out.path], in: folder)
        XCTAssertEqual(run.status, 1, run.stderr)
        let lines = run.text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "first.png: valid; 28 renders in first/")
        XCTAssertEqual(lines.dropFirst().first, "second.png: not rendered: duplicate_size: 960x150 is also first.png's size; "
                       + "first.png is kept (given first; the ad server serves one creative per size)")
        XCTAssertTrue(lines.last?.hasPrefix("campaign of 2 creatives: 1 rendered, 1 not; ") ?? false, run.text)
        let campaign = try json(out.appendingPathComponent("campaign.json"))
        let creatives = try XCTUnwrap(campaign["creatives"] as? [[String: Any]])
        let failure = try XCTUnwrap(creatives[1]["failure"] as? [String: Any])
        XCTAssertEqual(failure["code"] as? String, "duplicate_size")
        XCTAssertEqual(failure["kept"] as? String, "first.png")
        XCTAssertEqual(sizes([creatives[1]["size_pixels"] as Any]), ["960x150"])
        let slots = try XCTUnwrap(campaign["slots"] as? [[String: Any]])
        XCTAssertEqual(Set(slots.compactMap { $0["creative"] as? String }), ["first"])
    }

    func testAnInterstitialAloneIsServedOnEveryScreen() throws {
        let file = try Fixtures.solidArtwork("320x480", in: folder)
        let out = folder.appendingPathComponent("out")
        let run = try Tool.run(["process", file, "--product", "interstitial", "--format", "jpeg", "--output-dir", out.path, "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let manifest = try Fixtures.object(run.text)
        let renders = try XCTUnwrap(manifest["renders"] as? [[String: Any]])
        XCTAssertEqual(renders.count, DevicePlan.fullScreenSlots().count, "portrait and landscape screens alike")
        XCTAssertEqual(sizes(manifest["campaign_pixels"]), ["320x480"])
    }
}
