import CreativeCore
import CreativeImaging
import CreativeTestSupport
@testable import CreativeCLI
import Foundation
import XCTest

/// `--format auto`, `--quality` and the encodings `render` and `process` write, through the binary.
final class EncodingCommandTests: ScratchFolderTestCase {
    private var wideArtwork: String {
        Tool.packageRoot.appendingPathComponent("TestImages/test-artwork-2184x270.png").path
    }

    private func contents(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    func testAutoWritesItsChoiceUnderANameWithoutAnImageEnding() throws {
        let run = try Tool.run(["render", wideArtwork, "--slot", "390x61", "--scale", "3", "--format", "auto",
                                "--output", "banner"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        XCTAssertEqual(written, ["banner"], "exactly the named file")
        let bytes = try contents("banner")
        // The bytes and the line agree.
        let format: OutputFormat = bytes.starts(with: [0x89, 0x50]) ? .png : bytes.starts(with: [0xFF, 0xD8]) ? .jpeg : .webp
        XCTAssertTrue(run.text.contains("wrote banner: 1170x183 px"), run.text)
        XCTAssertTrue(run.text.contains("\(bytes.count) bytes, \(format.displayName)"), run.text)
        XCTAssertTrue(run.text.contains("(auto"), run.text)
        // Smaller than the lossless render of the same slot.
        XCTAssertEqual(try Tool.run(["render", wideArtwork, "--slot", "390x61", "--scale", "3", "--output", "lossless.png"],
                                    in: folder).status, 0)
        XCTAssertLessThan(bytes.count, try contents("lossless.png").count)
        XCTAssertEqual(try ImageSource(bytes: bytes).displayedSize, PixelSize(width: 1170, height: 183))
    }

    func testQualityIsOnlyForTheLossyFormats() throws {
        for format in ["png", "auto"] {
            let run = try Tool.run(["render", "--slot", "320x50", "--format", format, "--quality", "50", "--output", "q.x"],
                                   in: folder)
            XCTAssertEqual(run.status, 64, format)
            XCTAssertTrue(run.stderr.contains("--quality is for --format jpeg, webp or avif"), run.stderr)
        }
        XCTAssertEqual(try Tool.run(["render", "--slot", "320x50", "--format", "webp", "--quality", "0"], in: folder).status, 64)
        let low = try Tool.run(["render", "--slot", "320x50", "--scale", "3", "--format", "webp", "--quality", "20",
                                "--output", "low.webp"], in: folder)
        XCTAssertEqual(low.status, 0, low.stderr)
        XCTAssertTrue(low.text.contains("WebP quality 20"), low.text)
        XCTAssertEqual(try Tool.run(["render", "--slot", "320x50", "--scale", "3", "--format", "webp", "--output", "d.webp"],
                                    in: folder).status, 0)
        XCTAssertLessThan(try contents("low.webp").count, try contents("d.webp").count)
    }

    /// AVIF only where named: `--format avif`, a `.avif` output, or `--formats` with avif, which
    /// writes it where it is smaller than the WebP that keeps the target. A libvips without an
    /// AV1 encoder refuses it (`unsupported_format`, exit 1).
    func testAVIFIsWrittenOnlyWhereNamed() throws {
        let fixed = try Tool.run(["render", wideArtwork, "--slot", "390x61@3x", "--output", "banner.avif"], in: folder)
        guard fixed.status == 0 else {
            XCTAssertEqual(fixed.status, 1, fixed.stderr)
            XCTAssertTrue(fixed.stderr.contains("unsupported_format") && fixed.stderr.contains("cannot write AVIF"), fixed.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("banner.avif").path))
            throw XCTSkip("this libvips has no AV1 encoder: the refusal was checked, AVIF files cannot be")
        }
        let bytes = try contents("banner.avif")
        XCTAssertTrue(Fixtures.isAVIF(bytes))
        XCTAssertTrue(fixed.text.contains("wrote banner.avif: 1170x183 px"), fixed.text)
        XCTAssertTrue(fixed.text.contains("\(bytes.count) bytes, AVIF quality 85"), fixed.text)
        let out = folder.appendingPathComponent("out"), plain = folder.appendingPathComponent("plain")
        let run = try Tool.run(["process", wideArtwork, "--output-dir", out.path, "--formats", "webp,avif", "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try Tool.run(["process", wideArtwork, "--output-dir", plain.path]).status, 0)
        let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any])
        let renders = try XCTUnwrap(manifest["renders"] as? [[String: Any]])
        XCTAssertFalse(renders.isEmpty)
        var total = 0
        for render in renders {
            let file = try XCTUnwrap(render["file"] as? String)
            let format = try XCTUnwrap(render["format"] as? String)
            XCTAssertTrue(["webp", "avif"].contains(format), "\(render)")
            let written = [UInt8](try Data(contentsOf: out.appendingPathComponent(file)))
            XCTAssertEqual(Fixtures.isAVIF(written), format == "avif", file)
            XCTAssertTrue(file.hasSuffix("." + format), file)
            total += written.count
        }
        XCTAssertTrue(renders.contains { $0["format"] as? String == "avif" }, "flat art is smaller in AVIF")
        let plainNames = try FileManager.default.contentsOfDirectory(atPath: plain.path)
        XCTAssertFalse(plainNames.contains { $0.hasSuffix(".avif") }, "the default never writes AVIF")
        let plainTotal = try plainNames.filter { !["manifest.json", "preview.png", "preview.html"].contains($0) }.reduce(0) {
            $0 + (try Data(contentsOf: plain.appendingPathComponent($1))).count
        }
        XCTAssertLessThan(total, plainTotal, "each AVIF written is smaller than the WebP it replaces")
        for (arguments, message) in [(["--formats", "webp,gif"], "--formats must name formats of png, jpeg, webp, avif"),
                                     (["--format", "png", "--formats", "png"], "--formats is for --format auto")] {
            let refused = try Tool.run(["process", wideArtwork, "--output-dir", folder.appendingPathComponent("x").path]
                                       + arguments)
            XCTAssertEqual(refused.status, 64, refused.stderr)
            XCTAssertTrue(refused.stderr.contains(message), refused.stderr)
        }
    }

    func testProcessWritesAutoByDefaultAndNamesEachEncoding() throws {
        let out = folder.appendingPathComponent("out")
        let run = try Tool.run(["process", wideArtwork, "--output-dir", out.path, "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any])
        let renders = try XCTUnwrap(manifest["renders"] as? [[String: Any]])
        XCTAssertFalse(renders.isEmpty)
        for render in renders {
            let file = try XCTUnwrap(render["file"] as? String)
            let format = try XCTUnwrap(OutputFormat(rawValue: try XCTUnwrap(render["format"] as? String)))
            XCTAssertTrue(file.hasSuffix("." + format.fileExtension), file)
            XCTAssertTrue((render["encoding"] as? String ?? "").contains("auto"), "\(render)")
            let bytes = [UInt8](try Data(contentsOf: out.appendingPathComponent(file)))
            XCTAssertEqual(bytes.count, render["file_bytes"] as? Int, file)
            XCTAssertEqual(try ImageSource(bytes: bytes).displayedSize.description, render.sizeText("slot_pixels"), file)
        }
        // Every render is measured (its own SSIM, or the SSIM of the render of this job whose
        // decision it is written with), or lossless exact; the smallest render is searched itself.
        let canvases = Set(renders.map { $0.sizeText("slot_pixels") })
        var measuredThemselves = 0
        for render in renders {
            let encoding = render["encoding"] as? String ?? ""
            XCTAssertTrue(encoding.contains("SSIM") || encoding.contains("lossless"), encoding)
            XCTAssertFalse(encoding.contains("as decided on the smallest render"), encoding)
            if let range = encoding.range(of: "as decided on the ") {
                let named = encoding[range.upperBound...].prefix { $0 != " " }
                XCTAssertTrue(canvases.contains(String(named)), "\(encoding) names no render of the job")
            } else {
                measuredThemselves += 1
            }
            XCTAssertLessThanOrEqual(render["file_bytes"] as? Int ?? .max, RenderSettings.defaultWeightBudget, encoding)
        }
        func area(_ render: [String: Any]) -> Int {
            (render.sizeText("content_pixels") ?? "").split(separator: "x").compactMap { Int($0) }.reduce(1, *)
        }
        let smallest = try XCTUnwrap(renders.min { area($0) < area($1) })
        XCTAssertFalse((smallest["encoding"] as? String ?? "").contains("as decided on"), "\(smallest)")
        XCTAssertGreaterThanOrEqual(measuredThemselves, 1)
        XCTAssertEqual(manifest["weight_budget_bytes"] as? Int, 153_600)
        // The same folder again: it is process's own, so it is replaced.
        XCTAssertEqual(try Tool.run(["process", wideArtwork, "--output-dir", out.path, "--format", "png"]).status, 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path)
        XCTAssertTrue(names.allSatisfy { $0.hasSuffix(".png") || $0 == "manifest.json" || $0 == "preview.html" }, "\(names)")
        XCTAssertEqual(try Tool.run(["process", wideArtwork, "--output-dir", out.path, "--format", "gif"]).status, 64)
    }

    // MARK: The weight budget

    func testAnUnreachableWeightBudgetIsRefusedAndNothingIsWritten() throws {
        for format in ["png", "webp", "auto"] {
            let run = try Tool.run(["render", wideArtwork, "--slot", "390x61@3x", "--format", format, "--weight-budget", "1K",
                                    "--output", "b-\(format)"], in: folder)
            XCTAssertEqual(run.status, 1, "\(format): \(run.text)")
            XCTAssertTrue(run.stderr.contains("over_weight_budget"), run.stderr)
            // What was tried, the smallest it reached, and that no other format fits above the floor.
            XCTAssertTrue(run.stderr.contains("the smallest of those tried ("), run.stderr)
            XCTAssertTrue(run.stderr.contains("no other format fits it above the quality floor"), run.stderr)
            XCTAssertFalse(run.stderr.contains("choose another format"), run.stderr)
            XCTAssertTrue(run.stderr.contains("nothing was written"), run.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("b-\(format)").path), format)
        }
        XCTAssertEqual(try Tool.run(["render", wideArtwork, "--slot", "390x61", "--weight-budget", "12"], in: folder).status, 64,
                       "under 1K is a usage error")
    }

    func testABudgetIsMetInTheFormatAsked() throws {
        let free = try Tool.run(["render", wideArtwork, "--slot", "390x61@3x", "--format", "webp", "--quality", "100",
                                 "--weight-budget", "1G", "--output", "free.webp"], in: folder)
        XCTAssertEqual(free.status, 0, free.stderr)
        let budget = try contents("free.webp").count / 2
        let run = try Tool.run(["render", wideArtwork, "--slot", "390x61@3x", "--format", "webp", "--quality", "100",
                                "--weight-budget", "\(budget)", "--output", "fit.webp"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertLessThanOrEqual(try contents("fit.webp").count, budget)
        XCTAssertTrue(run.text.contains("the best that fits the weight budget of \(budget) bytes"), run.text)
    }

    func testProcessListsTheRendersThatCannotFitAndWritesTheOthers() throws {
        let out = folder.appendingPathComponent("out")
        // 2K: the small strips fit as palettes, the widest canvases do not.
        let run = try Tool.run(["process", wideArtwork, "--output-dir", out.path, "--format", "png", "--weight-budget", "2K"])
        let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(
            with: Data(contentsOf: out.appendingPathComponent("manifest.json"))) as? [String: Any])
        let renders = try XCTUnwrap(manifest["renders"] as? [[String: Any]])
        XCTAssertEqual(manifest["weight_budget_bytes"] as? Int, 2048)
        let refused = renders.filter { $0["file"] is NSNull }
        let written = renders.filter { $0["file"] is String }
        XCTAssertFalse(refused.isEmpty, "some render is over 2K")
        XCTAssertFalse(written.isEmpty, "some render fits 2K")
        XCTAssertEqual(run.status, 1, "a job with a render over its budget fails: \(run.text)")
        XCTAssertTrue(run.text.contains("over the weight budget, not written"), run.text)
        for render in refused {
            let over = try XCTUnwrap(render["over_weight_budget"] as? [String: Any])
            XCTAssertEqual(over["code"] as? String, "over_weight_budget")
            XCTAssertGreaterThan(over["smallest_bytes"] as? Int ?? 0, 2048)
        }
        for render in written {
            let file = try XCTUnwrap(render["file"] as? String)
            let bytes = [UInt8](try Data(contentsOf: out.appendingPathComponent(file)))
            XCTAssertLessThanOrEqual(bytes.count, 2048, file)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path)
        XCTAssertEqual(names.count, written.count + 3, "the renders that fit, the preview sheet and page, the manifest: \(names)")
    }
}
