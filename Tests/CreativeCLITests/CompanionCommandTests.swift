import CreativeCore
import Foundation
import XCTest

/// `creative-tool companion lint` through the built binary: inputs, reports, exit codes.
final class CompanionCommandTests: XCTestCase {
    let cta = "icon=https://cdn.example.com/icon.png,bannerTitle=Summer sale,ctaUrl=https://shop.example.com/buy?a=b&c=d"

    private func json(_ run: ToolRun) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any], run.text)
    }

    private func errorCodes(_ run: ToolRun) throws -> [String] {
        try XCTUnwrap(try json(run)["errors"] as? [[String: Any]]).compactMap { $0["code"] as? String }
    }

    func testValidTextPrintsVerdictAndFields() throws {
        let run = try Tool.run(["companion", "lint", cta])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.text, """
            valid: custom_cta
            fields:
              icon = https://cdn.example.com/icon.png
              bannerTitle = Summer sale
              ctaUrl = https://shop.example.com/buy?a=b&c=d
              ctaText = Learn more

            """)
    }

    func testJSONReportIsTheLibrarysReport() throws {
        let text = cta + ",bannerTitle=Again,ctaText=Go"
        let run = try Tool.run(["companion", "lint", "--json", text])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.text, JSONContract.document(CompanionLint.lint(Array(text.utf8)).json).serialized() + "\n")
        XCTAssertEqual(try errorCodes(run), ["duplicate_key"])
        XCTAssertEqual(run.stderr, "")
    }

    func testRejectedHumanReportNamesEveryProblem() throws {
        let run = try Tool.run(["companion", "lint", "ad_type=carousel,carousel_title=\u{1b}[31mRed,carousel_cta_text=Go"])
        XCTAssertEqual(run.status, 1)
        let lines = run.text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "REJECTED: carousel")
        XCTAssertTrue(lines.contains { $0.hasPrefix("  error missing_key (carousel_banner): carousel_banner is required") })
        XCTAssertTrue(lines.contains { $0.hasPrefix("  error unpaired_cta (carousel_cta_text, segment 3):") })
        XCTAssertTrue(lines.contains("  carousel_title = \\x1b[31mRed"), run.text)
        XCTAssertFalse(run.text.contains("\u{1b}"))
    }

    func testStandardInputAndFileIgnoreOneFinalLineBreak() throws {
        let stdin = try Tool.run(["companion", "lint", "--json", "-"], stdin: Array((cta + "\n").utf8))
        XCTAssertEqual(stdin.status, 0, stdin.text)
        let folder = try Tool.scratch()
        let file = folder.appendingPathComponent("params.txt")
        try Data((cta + "\r\n").utf8).write(to: file)
        let fromFile = try Tool.run(["companion", "lint", "--json", "--file", file.path])
        XCTAssertEqual(fromFile.status, 0, fromFile.text)
        XCTAssertEqual(fromFile.text, stdin.text)
        let fileDash = try Tool.run(["companion", "lint", "--file", "-"], stdin: Array(cta.utf8))
        XCTAssertEqual(fileDash.status, 0, fileDash.text)
    }

    func testTakeoverFlag() throws {
        let text = "ad_type=webview,campaign=Spring,Image_url=https://ads.example.com/page?x=1"
        let run = try Tool.run(["companion", "lint", "--takeover", "--json", text])
        XCTAssertEqual(run.status, 0, run.text)
        XCTAssertEqual(try json(run)["format"] as? String, "in_video")
        let asCompanion = try Tool.run(["companion", "lint", "--json", text])
        XCTAssertEqual(asCompanion.status, 1)
        XCTAssertEqual(try errorCodes(asCompanion), ["unknown_format"])
    }

    func testHostileInputsGetTheirCodes() throws {
        let folder = try Tool.scratch()
        let big = folder.appendingPathComponent("commas.txt")
        try Data(repeating: UInt8(ascii: ","), count: 10 << 20).write(to: big)
        let fromFile = try Tool.run(["companion", "lint", "--json", "--file", big.path])
        XCTAssertEqual(fromFile.status, 1)
        XCTAssertEqual(try errorCodes(fromFile), ["input_too_large"])
        // Standard input is read to one byte past the limit (more would fill the pipe of this test).
        let fromStdin = try Tool.run(["companion", "lint", "--json", "-"], stdin: [UInt8](repeating: 0x41, count: 66_000))
        XCTAssertEqual(fromStdin.status, 1)
        XCTAssertEqual(try errorCodes(fromStdin), ["input_too_large"])
        let nul = try Tool.run(["companion", "lint", "--json", "-"], stdin: Array("icon=a".utf8) + [0] + Array("b".utf8))
        XCTAssertEqual(try errorCodes(nul), ["nul_character"])
        let latin1 = try Tool.run(["companion", "lint", "--json", "-"], stdin: Array("bannerTitle=caf".utf8) + [0xE9])
        XCTAssertEqual(try errorCodes(latin1), ["invalid_utf8"])
        // An argument that is not UTF-8 reaches the linter as its bytes.
        let argument = try Tool.runShell("\"$0\" companion lint --json \"$(printf 'bannerTitle=caf\\351')\"", in: folder)
        XCTAssertEqual(argument.status, 1)
        XCTAssertEqual(try errorCodes(argument), ["invalid_utf8"])
        // The longest legal text: 65,536 commas, reported as 100 errors and a count.
        let commas = try Tool.run(["companion", "lint", "--json", "-"], stdin: [UInt8](repeating: UInt8(ascii: ","), count: 65_536))
        XCTAssertEqual(commas.status, 1)
        let listed = try errorCodes(commas)
        XCTAssertEqual(listed.count, 101)
        XCTAssertEqual(listed.last, "too_many_problems")
    }

    func testUsageAndReadErrors() throws {
        for arguments in [["companion"], ["companion", "check", "a=b"], ["companion", "lint"], ["companion", "lint", "a=b", "c=d"],
                          ["companion", "lint", "a=b", "--file", "x"], ["companion", "lint", "--strict", "a=b"],
                          ["companion", "lint", "-", "--file", "-"]] {
            let run = try Tool.run(arguments, stdin: [])
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasSuffix("see 'creative-tool companion --help'\n"), run.stderr)
            XCTAssertLessThanOrEqual(run.stderr.split(separator: "\n").count, 3, run.stderr)
            XCTAssertEqual(run.stdout, [])
        }
        let missing = try Tool.run(["companion", "lint", "--file", "no-such-file.txt"])
        XCTAssertEqual(missing.status, 74)
        XCTAssertTrue(missing.stderr.contains("file_not_found"), missing.stderr)
        let empty = try Tool.run(["companion", "lint", ""])
        XCTAssertEqual(empty.status, 1)
        XCTAssertTrue(empty.text.contains("error empty_input"), empty.text)
        let help = try Tool.run(["companion", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.text.contains("--takeover"))
    }
}
