import CreativeCore
import Foundation
import CreativeTestSupport
import XCTest

/// `--timeout S` and `--memory-budget MIB` on validate, render and process, through the binary.
final class JobLimitOptionTests: ScratchFolderTestCase {
    private func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    private func report(_ run: ToolRun) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any], run.text)
    }

    private func codes(_ report: [String: Any]) -> [String] {
        (report["errors"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    func testBadValuesAreUsageErrors() throws {
        let png = try write(try Fixtures.encoded(320, 50, "png"), "b.png")
        for (command, extra) in [("validate", [String]()), ("render", ["--slot", "320x50"]),
                                 ("process", ["--output-dir", folder.appendingPathComponent("out").path])] {
            for bad in [["--timeout", "0"], ["--timeout", "-1"], ["--timeout", "soon"], ["--memory-budget", "0"]] {
                let run = try Tool.run([command, png] + extra + bad, in: folder)
                XCTAssertEqual(run.status, 64, "\(command) \(bad): \(run.stderr)")
                XCTAssertTrue(run.stderr.contains(bad[0]), run.stderr)
            }
        }
    }

    func testMemoryBudgetRefusesWhatCannotStream() throws {
        // 320x50 RGB, interlaced: decoded whole, 48,000 bytes.
        let png = try write(try Fixtures.encoded(320, 50, "png", options: [("interlace", .bool(true))]), "i.png")
        let validated = try Tool.run(["validate", png, "--json", "--memory-budget", "1"], in: folder)
        XCTAssertEqual(validated.status, 0, validated.stderr)
        XCTAssertEqual(try report(validated)["decoded"] as? Bool, true)
        // A render is charged its whole peak (decode, window, canvas, encoder, the job's own): over 1 MiB.
        let render = try Tool.run(["render", png, "--slot", "320x50", "--output", "-", "--memory-budget", "1"], in: folder)
        XCTAssertEqual(render.status, 1, render.stderr)
        XCTAssertTrue(render.stderr.contains("too_many_pixels: i: the job would hold "), render.stderr)
        let cost = try Tool.run(["render", png, "--slot", "320x50", "--cost"], in: folder)
        let charged = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(cost.stdout)) as? [String: Any])
        let mebibytes = (try XCTUnwrap(charged["memory_bytes"] as? Int) + (1 << 20) - 1) >> 20
        let enoughForIt = try Tool.run(["render", png, "--slot", "320x50", "--output", "-",
                                        "--memory-budget", String(mebibytes)], in: folder)
        XCTAssertEqual(enoughForIt.status, 0, enoughForIt.stderr)
        // A 7000x7000 interlaced header: refused from the header, nothing decoded.
        var bomb = try Fixtures.encoded(16, 16, "png", options: [("interlace", .bool(true))])
        bomb.replaceSubrange(16..<24, with: Fixtures.be32(7000) + Fixtures.be32(7000))
        bomb.replaceSubrange(29..<33, with: Fixtures.be32(Int(Fixtures.crc32(Array(bomb[12..<29])))))
        let bombPath = try write(bomb, "bomb.png")
        let refused = try Tool.run(["render", bombPath, "--slot", "320x50", "--output", "-"], in: folder)
        XCTAssertEqual(refused.status, 1)
        // 147 MB of samples to inflate: over what any job may decode, whatever its memory budget.
        XCTAssertTrue(refused.stderr.contains("too_many_pixels: bomb: decoding it would produce 140.2 MiB of samples, "
                                              + "over the limit of 96.0 MiB one job may decode"), refused.stderr)
        XCTAssertTrue(refused.stdout.isEmpty)
        let enough = try Tool.run(["render", bombPath, "--slot", "320x50", "--output", "-", "--memory-budget", "2000"],
                                  in: folder)
        XCTAssertTrue(enough.stderr.contains("140.2 MiB of samples"), enough.stderr)
        let report = try report(try Tool.run(["validate", bombPath, "--json"], in: folder))
        XCTAssertEqual(codes(report), ["dimensions_not_allowed"])
        XCTAssertEqual(report["decoded"] as? Bool, false)
    }

    func testJobsPastTheirTimeoutFailWithTimeout() throws {
        let jpeg = try write(try Fixtures.encoded(960, 150, "jpeg"), "b.jpg")
        let render = try Tool.run(["render", jpeg, "--slot", "320x50", "--output", "-", "--timeout", "0.000000001"],
                                  in: folder)
        XCTAssertEqual(render.status, 1)
        XCTAssertTrue(render.stderr.contains("render: timeout: b: the job ran past its deadline"), render.stderr)
        let validated = try Tool.run(["validate", jpeg, "--json", "--timeout", "0.000000001"], in: folder)
        XCTAssertEqual(validated.status, 1)
        XCTAssertEqual(codes(try report(validated)), ["timeout"])
        let out = folder.appendingPathComponent("job")
        let processed = try Tool.run(["process", jpeg, "--output-dir", out.path, "--timeout", "0.000000001"], in: folder)
        XCTAssertEqual(processed.status, 1)
        XCTAssertTrue(processed.stderr.contains("timeout") || processed.text.contains("timeout"),
                      processed.stderr + processed.text)
        let relaxed = try Tool.run(["render", jpeg, "--slot", "320x50", "--output", "-", "--timeout", "60"], in: folder)
        XCTAssertEqual(relaxed.status, 0, relaxed.stderr)
    }
}
