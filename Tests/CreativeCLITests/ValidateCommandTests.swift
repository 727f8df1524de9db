import CreativeCore
import Foundation
import CreativeTestSupport
import XCTest

/// `creative-tool validate` through the built binary (docs/reference.md, "validate"): one report per file,
/// JSON lines on standard output only, exit 0 / 1 / 64.
final class ValidateCommandTests: ScratchFolderTestCase {
    @discardableResult
    private func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Runs `validate` in the scratch folder.
    private func validate(_ arguments: [String], stdin: [UInt8]? = nil) throws -> ToolRun {
        try Tool.run(["validate"] + arguments, stdin: stdin, in: folder)
    }

    /// Standard output as JSON objects, asserting one complete object per line and nothing else.
    private func reports(_ run: ToolRun, count: Int, file: StaticString = #filePath, line: UInt = #line)
        throws -> [[String: Any]] {
        let text = run.text
        XCTAssertTrue(text.hasSuffix("\n"), "every report ends its line: \(text)", file: file, line: line)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        XCTAssertEqual(lines.count, count, "one line per file: \(text)", file: file, line: line)
        return try lines.map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try XCTUnwrap(object as? [String: Any], "a JSON object: \(line)")
        }
    }

    private func codes(_ report: [String: Any], _ key: String) -> [String] {
        (report[key] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    // MARK: Several files, JSON

    func testSeveralFilesGiveOneJSONObjectPerLineInOrder() throws {
        try write(try Fixtures.encoded(320, 50, "png"), "good.png")
        try write(try Fixtures.encoded(961, 150, "jpeg"), "wide.jpg")
        try write(try Fixtures.encoded(728, 90, "gif"), "leader.webp")
        try write(Array("not a picture\n".utf8), "notes.txt")
        try write([], "empty.png")
        let files = ["good.png", "wide.jpg", "missing.png", "leader.webp", "notes.txt", "empty.png"]
        let run = try validate(files + ["--json"])
        XCTAssertEqual(run.status, 74, run.stderr)
        XCTAssertEqual(run.stderr, "", "nothing goes wrong with the run itself")
        let parsed = try reports(run, count: files.count)
        XCTAssertEqual(parsed.map { $0["file"] as? String }, files)
        XCTAssertEqual(parsed.map { $0["valid"] as? Bool }, [true, false, false, true, false, false])
        XCTAssertEqual(parsed.map { codes($0, "errors") }, [
            [], ["dimensions_not_allowed"], ["file_not_found"], [], ["not_an_image"], ["empty_file"],
        ])
        XCTAssertEqual(parsed.map { codes($0, "warnings") }, [[], [], [], ["extension_mismatch"], [], []])

        let good = parsed[0]
        XCTAssertEqual(good["format"] as? String, "png")
        XCTAssertEqual(good.sizeText("size_pixels"), "320x50")
        XCTAssertEqual(good["size_class"] as? String, "standard")
        XCTAssertEqual(good["shape"] as? String, "strip")
        XCTAssertEqual(good["file_bytes"] as? Int, try Data(contentsOf: folder.appendingPathComponent("good.png")).count)

        let wide = parsed[1]
        XCTAssertEqual(wide["format"] as? String, "jpeg")
        XCTAssertTrue(wide.sizeText("size_pixels") != nil && wide["size_class"] is NSNull, "its size, not an accepted one")
        let message = (wide["errors"] as? [[String: Any]])?.first?["message"] as? String ?? ""
        XCTAssertTrue(message.contains("960x150"), message)

        let missing = parsed[2]
        XCTAssertTrue(missing["format"] is NSNull && missing["file_bytes"] is NSNull && missing["size_pixels"] is NSNull)
        XCTAssertEqual(parsed[3]["format"] as? String, "gif")
        XCTAssertEqual(parsed[5]["file_bytes"] as? Int, 0)
    }

    func testJSONFieldsComeInTheDocumentedOrder() throws {
        try write(try Fixtures.encoded(300, 250, "webp"), "rect.webp")
        let run = try validate(["rect.webp", "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let line = run.text
        let keys = ["schema_version", "tool_version", "file", "valid", "format", "size_pixels", "file_bytes", "size_class",
                    "shape", "errors", "warnings"]
        let positions = keys.map { line.range(of: "\"\($0)\":")?.lowerBound }
        XCTAssertFalse(positions.contains(nil), line)
        XCTAssertEqual(positions.compactMap { $0 }, positions.compactMap { $0 }.sorted(), line)
        let report = try reports(run, count: 1)[0]
        XCTAssertEqual(report["shape"] as? String, "rectangle")
        XCTAssertEqual(report["size_class"] as? String, "standard")
    }

    func testOddFileNamesStayOneJSONLineEach() throws {
        let names = ["we\"ird name.png", "new\nline.png", "ünïcode ✓.png", "back\\slash.png"]
        for name in names { try write(try Fixtures.encoded(320, 50, "png"), name) }
        let run = try validate(names + ["--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try reports(run, count: names.count).map { $0["file"] as? String }, names)
    }

    // MARK: Exit codes

    func testAllValidExitsZeroEvenWithWarnings() throws {
        try write(try Fixtures.encoded(960, 150, "png"), "a.png")
        try write(try Fixtures.encoded(2184, 270, "jpeg"), "b.jpg")
        try write(try Fixtures.encoded(468, 60, "webp"), "c.png")  // a WebP named .png: a warning only
        let run = try validate(["a.png", "b.jpg", "c.png"])
        XCTAssertEqual(run.status, 0, run.text + run.stderr)
        XCTAssertEqual(run.stderr, "")
        let lines = run.text.split(separator: "\n")
        XCTAssertEqual(lines.count, 3)
        XCTAssertTrue(lines.allSatisfy { $0.contains(": valid (") }, run.text)
        XCTAssertTrue(lines[2].contains("warning extension_mismatch"), run.text)
    }

    func testOneRejectedFileExitsOne() throws {
        try write(try Fixtures.encoded(960, 150, "png"), "a.png")
        try write(try Fixtures.encoded(960, 151, "png"), "b.png")
        XCTAssertEqual(try validate(["a.png"]).status, 0)
        XCTAssertEqual(try validate(["b.png"]).status, 1)
        XCTAssertEqual(try validate(["a.png", "b.png", "--json"]).status, 1)
        XCTAssertEqual(try validate(["b.png", "a.png"]).status, 1, "the last file's verdict does not win")
    }

    func testUsageErrorsExit64WithAHintOnStandardError() throws {
        try write(try Fixtures.encoded(320, 50, "png"), "a.png")
        let cases: [[String]] = [
            [], ["--json"], ["a.png", "--jsn"], ["a.png", "--max-bytes"], ["a.png", "--max-bytes", "abc"],
            ["a.png", "--max-bytes", "0"], ["a.png", "--max-bytes", "-5"], ["a.png", "--max-pixels", "lots"],
            ["-", "-"], ["a.png", "--max-bytes", "10", "--max-bytes", "20"],
        ]
        for arguments in cases {
            let run = try validate(arguments, stdin: [])
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)")
            XCTAssertEqual(run.text, "", "\(arguments): nothing on standard output")
            // What is wrong and where to read on, in at most 3 lines: the help does not bury the error.
            XCTAssertTrue(run.stderr.hasSuffix("see 'creative-tool validate --help'\n"), "\(arguments): \(run.stderr)")
            XCTAssertLessThanOrEqual(run.stderr.split(separator: "\n").count, 3, "\(arguments): \(run.stderr)")
        }
        let help = try validate(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.text.contains("--max-bytes") && help.text.contains("--json"), help.text)
    }

    // MARK: Missing files, standard input, limits

    func testMissingFileIsReportedAndTheRunContinues() throws {
        try write(try Fixtures.encoded(320, 100, "png"), "ok.png")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("folder.png"), withIntermediateDirectories: false)
        let run = try validate(["nope.png", "folder.png", "ok.png"])
        XCTAssertEqual(run.status, 74)
        XCTAssertEqual(run.stderr, "")
        let lines = run.text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, run.text)
        XCTAssertTrue(lines[0].hasPrefix("nope.png: cannot be read") && lines[0].contains("error file_not_found"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("folder.png: cannot be read") && lines[1].contains("error not_a_file"), lines[1])
        XCTAssertTrue(lines[2].hasPrefix("ok.png: valid (320x100, PNG"), lines[2])

        let json = try reports(try validate(["nope.png", "ok.png", "--json"]), count: 2)
        XCTAssertEqual(codes(json[0], "errors"), ["file_not_found"])
        XCTAssertEqual(json[1]["valid"] as? Bool, true)
    }

    func testStandardInput() throws {
        let png = try Fixtures.encoded(728, 90, "png")
        let run = try validate(["-", "--json"], stdin: png)
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try reports(run, count: 1)[0]
        XCTAssertEqual(report["file"] as? String, "-")
        XCTAssertEqual(report["file_bytes"] as? Int, png.count)
        XCTAssertEqual(report.sizeText("size_pixels"), "728x90")
        XCTAssertEqual(codes(report, "warnings"), [], "standard input has no name to mismatch")

        try write(try Fixtures.encoded(320, 50, "gif"), "b.gif")
        let mixed = try validate(["b.gif", "-"], stdin: Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8))
        XCTAssertEqual(mixed.status, 1)
        let lines = mixed.text.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, mixed.text)
        XCTAssertTrue(lines[0].hasPrefix("b.gif: valid"), mixed.text)
        XCTAssertTrue(lines[1].hasPrefix("-: REJECTED") && lines[1].contains("error unsupported_format"), mixed.text)

        let empty = try reports(try validate(["-", "--json"], stdin: []), count: 1)[0]
        XCTAssertEqual(codes(empty, "errors"), ["empty_file"])
    }

    func testMaxBytes() throws {
        let png = try Fixtures.encoded(320, 50, "png")
        try write(png, "a.png")
        let run = try validate(["a.png", "--max-bytes", "100", "--json"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stderr, "")
        let report = try reports(run, count: 1)[0]
        XCTAssertEqual(codes(report, "errors"), ["file_too_large"])
        XCTAssertEqual(report["file_bytes"] as? Int, png.count, "the real size")
        XCTAssertEqual(report["format"] as? String, "png", "the header is still read")
        XCTAssertEqual(report.sizeText("size_pixels"), "320x50")
        XCTAssertEqual(try validate(["a.png", "--max-bytes", "\(png.count)"]).status, 0, "the limit is inclusive")
        XCTAssertEqual(try validate(["a.png", "--max-bytes", "\(png.count - 1)"]).status, 1)

        // Through standard input the size is what was read before giving up: one byte past the limit.
        let piped = try reports(try validate(["-", "--max-bytes", "100", "--json"], stdin: png), count: 1)[0]
        XCTAssertEqual(codes(piped, "errors"), ["file_too_large"])
        XCTAssertEqual(piped["file_bytes"] as? Int, 101)

        // A big file of a wrong size over the default limit of 2 MiB: both problems, from its head.
        let big = try write(try Fixtures.encoded(1200, 700, "png", options: [("compression", .int(0))]), "big.png")
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: big)[.size] as? Int)
        XCTAssertGreaterThan(size, Catalog.defaultMaxBytes)
        let bigReport = try reports(try validate(["big.png", "--json"]), count: 1)[0]
        XCTAssertEqual(codes(bigReport, "errors"), ["file_too_large", "dimensions_not_allowed"])
        XCTAssertEqual(bigReport["file_bytes"] as? Int, size)
    }

    func testMaxPixelsAndBombs() throws {
        try write(Fixtures.pngHeaderOnly(width: 100_000, height: 100_000), "bomb.png")
        try write(try Fixtures.encoded(320, 50, "jpeg"), "a.jpg")
        let run = try validate(["bomb.png", "a.jpg", "--json"])
        XCTAssertEqual(run.status, 1)
        let parsed = try reports(run, count: 2)
        XCTAssertEqual(codes(parsed[0], "errors"), ["too_many_pixels", "dimensions_not_allowed"])
        XCTAssertEqual((parsed[0]["size_pixels"] as? [String: Int])?["width"], 100_000)
        XCTAssertEqual(parsed[1]["valid"] as? Bool, true)
        let capped = try reports(try validate(["a.jpg", "--max-pixels", "15999", "--json"]), count: 1)[0]
        XCTAssertEqual(codes(capped, "errors"), ["too_many_pixels"])
        XCTAssertEqual(try validate(["a.jpg", "--max-pixels", "16000"]).status, 0)
        // Refused from the header: the whole run stays far under 64 MB of resident memory.
        let peak = try Tool.peakMemory(of: ["validate", "--json", "bomb.png"], in: folder)
        XCTAssertLessThan(peak, 64 * 1024 * 1024, "peak resident memory validating a bomb")
    }

    // MARK: Human text

    func testHumanLineHasVerdictSizeFormatAndEveryCode() throws {
        let damaged = Array(try Fixtures.encoded(961, 150, "png", options: [("compression", .int(0))]).dropLast(20))
        try write(damaged, "bad.jpg")
        let run = try validate(["bad.jpg"])
        XCTAssertEqual(run.status, 1)
        let line = run.text
        XCTAssertTrue(line.hasPrefix("bad.jpg: REJECTED (961x150, PNG, "), line)
        for part in ["error corrupt_image", "error dimensions_not_allowed", "warning extension_mismatch"] {
            XCTAssertTrue(line.contains(part), "\(part) in \(line)")
        }
        XCTAssertEqual(line.filter { $0 == "\n" }.count, 1, "one line")
        XCTAssertFalse(line.hasPrefix("{"))
    }
}
