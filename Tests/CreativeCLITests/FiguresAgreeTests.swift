import CreativeCore
import CreativeTestSupport
import Foundation
import XCTest

/// The same figure reads the same everywhere: kilobytes rounded one way, process's stages
/// timed as its help says, a raised inline height said, the man page's environment whole.
final class FiguresAgreeTests: ScratchFolderTestCase {
    func testKilobytesRoundToTheNearestEverywhere() throws {
        XCTAssertEqual(TextFormat.kilobytes(999), "999 bytes")
        XCTAssertEqual(TextFormat.kilobytes(1000), "1 KB")
        XCTAssertEqual(TextFormat.kilobytes(1499), "1 KB")
        XCTAssertEqual(TextFormat.kilobytes(1985), "2 KB", "was 1 KB, rounded down")
        XCTAssertEqual(TextFormat.kilobytes(3_145_728), "3,146 KB")
        // validate's line for a file of 3985 bytes (the 960x150 artwork padded with a text chunk):
        // 4 KB, where rounding down said 3.
        let art = [UInt8](try Data(contentsOf: Tool.artwork960x150))
        let pad = 3985 - art.count - 12
        guard pad > 8 else { return XCTFail("the artwork is \(art.count) bytes: pad to a larger size") }
        let padded = Array(art[0..<33]) + Fixtures.pngChunk("tEXt", Array("Comment".utf8) + [0]
            + [UInt8](repeating: 0x41, count: pad - 8)) + Array(art[33...])
        XCTAssertEqual(padded.count, 3985)
        try Data(padded).write(to: folder.appendingPathComponent("p.png"))
        let run = try Tool.run(["validate", "p.png"], in: folder)
        XCTAssertTrue(run.text.hasPrefix("p.png: valid (960x150, PNG, 4 KB)"), run.text)
    }

    func testProcessVerboseTimesEachStage() throws {
        let run = try Tool.run(["process", Tool.artwork960x150.path, "--output-dir", "out", "--verbose"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let stages = run.stderr.split(separator: "\n").map { line in
            line.replacingOccurrences(of: #" [0-9.]+ m?s$"#, with: "", options: .regularExpression)
        }
        XCTAssertEqual(stages, ["creative-tool process: time: read", "creative-tool process: time: validate, render and preview",
                                "creative-tool process: time: write", "creative-tool process: time: total"], run.stderr)
    }

    func testARaisedInlineHeightIsSaid() throws {
        let low = try Tool.run(["slot", "--width", "390", "--inline", "--max-height", "20"])
        XCTAssertEqual(low.status, 0)
        XCTAssertEqual(low.stderr, "creative-tool slot: note: --max-height 20 is below the smallest inline view, 32 pt: "
                       + "sizing for 32\n")
        XCTAssertTrue(low.text.hasPrefix("inline: up to 390x32 pt @1x"), low.text)
        XCTAssertEqual(try Tool.run(["slot", "--width", "390", "--inline", "--max-height", "40"]).stderr, "")
        let article = try Tool.run(["slot", "--product", "interstitial", "--width", "390"])
        XCTAssertTrue(article.stderr.contains("an interstitial slot comes from --device NAME"), article.stderr)
    }

    func testTheManPageNamesEveryVariableAndWhereTheReportGoes() throws {
        let man = try Tool.run(["help", "--format", "man"]).text
        for variable in ["CREATIVE_PORT", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE",
                         "AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE", "AWS_REGION", "AWS_DEFAULT_REGION"] {
            XCTAssertTrue(man.contains(variable), variable)
        }
        XCTAssertTrue(man.contains("a creative was rejected (validate's report, with its codes, on standard"), "exit status 1")
    }
}
