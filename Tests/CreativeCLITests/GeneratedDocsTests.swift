import Foundation
import XCTest

/// The files written from the option declarations (`creative-tool help --format F`) are checked in:
/// each must be what the built tool writes now, so a new or changed option cannot leave them stale.
final class GeneratedDocsTests: XCTestCase {
    /// Each format and its checked-in file (the same list as scripts/generate-docs.sh).
    private static let generated = [("markdown", "docs/commands.md"), ("man", "docs/creative-tool.1"),
                                    ("bash", "docs/completions/creative-tool.bash"),
                                    ("zsh", "docs/completions/_creative-tool")]

    func testCheckedInReferenceIsWhatTheToolWrites() throws {
        for (format, path) in Self.generated {
            let run = try Tool.run(["help", "--format", format])
            XCTAssertEqual(run.status, 0, "\(format): \(run.stderr)")
            let checkedIn = try String(contentsOf: Tool.packageRoot.appendingPathComponent(path), encoding: .utf8)
            XCTAssertTrue(run.text == checkedIn, "\(path) is stale: run scripts/generate-docs.sh and commit it")
        }
    }

    func testReferenceNamesEveryCommandAndEveryFlagOfItsHelp() throws {
        let markdown = try Tool.run(["help", "--format", "markdown"]).text
        let man = try Tool.run(["help", "--format", "man"]).text
        let bash = try Tool.run(["help", "--format", "bash"]).text
        for command in ["validate", "render", "slot", "select", "test-artwork", "guidance", "prompt", "process",
                        "companion", "serve"] {
            XCTAssertTrue(markdown.contains("\n## \(command)\n"), command)
            XCTAssertTrue(man.contains("\n.SS \(command)\n"), command)
            let help = try Tool.run([command, "--help"]).text
            // Every flag the help lists (a line "  --flag ...") is in the reference, the page and the completion.
            let flags = help.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("  --") else { return nil }
                return String(line.dropFirst(2).prefix { $0 != " " })
            }
            XCTAssertFalse(flags.isEmpty, command)
            for flag in flags {
                XCTAssertTrue(markdown.contains("`\(flag)"), "\(command) \(flag) in commands.md")
                XCTAssertTrue(man.contains("\\fB" + flag.replacingOccurrences(of: "-", with: "\\-") + "\\fR"),
                              "\(command) \(flag) in the man page")
                XCTAssertTrue(Self.bashFlags(bash, command).contains(flag), "\(command) \(flag) in bash")
            }
        }
    }

    /// The words of `options="..."` in the completion's case for the command.
    private static func bashFlags(_ script: String, _ command: String) -> Set<String> {
        guard let start = script.range(of: "\n        \(command))\n") else { return [] }
        let rest = script[start.upperBound...]
        guard let line = rest.split(separator: "\n").first(where: { $0.contains("options=\"") }) else { return [] }
        let quoted = line.split(separator: "\"").dropFirst().first ?? ""
        return Set(quoted.split(separator: " ").map(String.init))
    }

    func testRenderQualityRowCarriesKindRangeDefaultAndQueryName() throws {
        let markdown = try Tool.run(["help", "--format", "markdown"]).text
        XCTAssertTrue(markdown.contains("| `--quality Q` | integer | 1 to 100 |  | `85` | all | `quality` | JPEG, WebP or AVIF quality, 1 to 100 |"),
                      markdown)
        XCTAssertTrue(markdown.contains("| `--memory-budget SIZE` | size | 1M to 1024G | bytes;"), "serve's budget in MiB")
    }

    func testUnknownFormatIsAUsageError() throws {
        let run = try Tool.run(["help", "--format", "pdf"])
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.stderr.contains("markdown, man, bash, zsh"), run.stderr)
    }
}
