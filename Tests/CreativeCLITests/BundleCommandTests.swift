import CreativeCore
import CreativeImaging
import CreativeTestSupport
import Foundation
import XCTest

/// HTML5 bundles (zips) through the built binary: validate, render and process use the bundle
/// checks and its static version; a zip bomb is refused within 64 MB.
final class BundleCommandTests: ScratchFolderTestCase {
    private func write(_ zip: BundleZip, _ name: String) throws -> String {
        try Data(zip.bytes()).write(to: folder.appendingPathComponent(name))
        return name
    }

    private func report(_ run: ToolRun) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any], run.text)
    }

    private func codes(_ report: [String: Any], _ key: String) -> [String] {
        (report[key] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    func testValidateReportsTheBundle() throws {
        let good = try write(try BundleCorpus.clean(), "ad.zip")
        let run = try Tool.run(["validate", good, "--json"], in: folder)
        XCTAssertEqual(run.status, 0, run.text + run.stderr)
        let json = try report(run)
        XCTAssertEqual(json["format"] as? String, "html5")
        XCTAssertEqual(json["file_count"] as? Int, 7)
        XCTAssertEqual(json["entry"] as? String, "index.html")
        XCTAssertGreaterThan(json["uncompressed_bytes"] as? Int ?? 0, 0)
        XCTAssertEqual(json.sizeText("size_pixels"), "320x50")

        let human = try Tool.run(["validate", good], in: folder)
        XCTAssertEqual(human.text.hasPrefix("ad.zip: valid (320x50, HTML5 bundle of 7 files, entry index.html, "), true,
                       human.text)
    }

    func testStaticImageOfTheWrongSizeIsTheOnlyProblem() throws {
        let zip = try write(try BundleCorpus.clean(staticImage: BundleCorpus.png(961, 150)), "wide.zip")
        let run = try Tool.run(["validate", zip, "--json"], in: folder)
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(codes(try report(run), "errors"), ["dimensions_not_allowed"])
    }

    func testZipBombIsRefusedWithinSixtyFourMegabytes() throws {
        let bomb = try write(try BundleCorpus.clean().adding("js/bomb.js", [UInt8](repeating: 0, count: 2_000_000)),
                             "bomb.zip")
        let run = try Tool.run(["validate", bomb, "--json"], in: folder)
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(codes(try report(run), "errors"), ["compression_ratio_too_high"])
        let peak = try Tool.peakMemory(of: ["validate", bomb, "--json"], in: folder)
        XCTAssertLessThan(peak, 64 * 1024 * 1024, "peak resident memory validating the zip bomb")
    }

    func testRenderAndProcessUseTheStaticVersion() throws {
        let zip = try write(try BundleCorpus.clean(), "ad.zip")
        let render = try Tool.run(["render", zip, "--slot", "390x61", "--output", "o.png"], in: folder)
        XCTAssertEqual(render.status, 0, render.stderr)
        XCTAssertTrue(render.text.contains("960x150 artwork shown at 390x61"), render.text)
        let png = try ImageSource(bytes: Array(try Data(contentsOf: folder.appendingPathComponent("o.png"))))
        XCTAssertEqual(png.displayedSize, PixelSize(width: 390, height: 61))

        let process = try Tool.run(["process", zip, "--output-dir", "out", "--json"], in: folder)
        XCTAssertEqual(process.status, 0, process.stderr)
        let manifest = try report(process)
        let bundleReport = try XCTUnwrap(manifest["report"] as? [String: Any])
        XCTAssertEqual(bundleReport["format"] as? String, "html5")
        let renders = try XCTUnwrap(manifest["renders"] as? [[String: Any]])
        XCTAssertFalse(renders.isEmpty)
        for render in renders {
            let name = try XCTUnwrap(render["file"] as? String)
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/" + name).path))
        }
    }

    func testRejectedBundleIsNotRendered() throws {
        let zip = try write(try BundleCorpus.clean(staticName: nil), "nostatic.zip")
        let render = try Tool.run(["render", zip, "--slot", "390x61", "--output", "o.png"], in: folder)
        XCTAssertEqual(render.status, 1)
        XCTAssertTrue(render.stderr.contains("missing_static_version"), render.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("o.png").path))
        let process = try Tool.run(["process", zip, "--output-dir", "out", "--json"], in: folder)
        XCTAssertEqual(process.status, 1)
        let bundleReport = try XCTUnwrap(try report(process)["report"] as? [String: Any])
        XCTAssertEqual(codes(bundleReport, "errors"), ["missing_static_version"])
    }
}
