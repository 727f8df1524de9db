import Foundation
import XCTest

/// The bash completion, sourced in bash and its function called as bash calls it (COMP_WORDS,
/// COMP_CWORD): device names with spaces complete from the bare, the escaped and the quoted
/// word, and `companion` offers its action.
final class CompletionTests: ScratchFolderTestCase {
    /// COMPREPLY for each word list (the last word is the one being completed), one line each,
    /// the words joined by `|`.
    private func complete(_ cases: [[String]]) throws -> [String] {
        let script = try Tool.run(["help", "--format", "bash"])
        XCTAssertEqual(script.status, 0)
        try Data(script.stdout).write(to: folder.appendingPathComponent("completion.bash"))
        var lines = [". ./completion.bash",
                     "t() { COMP_WORDS=(\"$@\"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=(); _creative_tool; "
                        + "local IFS='|'; echo \"${COMPREPLY[*]}\"; }"]
        for words in cases {
            lines.append("t " + words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " "))
        }
        try lines.joined(separator: "\n").write(to: folder.appendingPathComponent("t.sh"), atomically: true, encoding: .utf8)
        let run = try Tool.run(["--noprofile", "--norc", "t.sh"], in: folder, executable: URL(fileURLWithPath: "/bin/bash"))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        return run.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    func testDeviceNamesWithSpacesCompleteBareEscapedAndQuoted() throws {
        let iPhone1 = "iPhone 14|iPhone 15|iPhone 11|iPhone 13 Pro Max|iPhone 15 Plus"
        XCTAssertEqual(try complete([
            ["creative-tool", "render", "--device", "iPh"],
            ["creative-tool", "render", "--device", "iPhone\\ 1"],
            ["creative-tool", "render", "--device", "\"iPhone 1"],
            ["creative-tool", "slot", "--device", "'iPad A"],
            ["creative-tool", "render", "--device", "iPhone\\ 15\\ P"],
        ]), ["iPhone SE|iPhone 8|" + iPhone1, iPhone1, iPhone1, "iPad Air", "iPhone 15 Plus"])
    }

    func testCommandsActionsAndFlagsComplete() throws {
        XCTAssertEqual(try complete([
            ["creative-tool", "companion", ""],
            ["creative-tool", "companion", "l"],
            ["creative-tool", "companion", "lint", "--t"],
            ["creative-tool", "ren"],
            ["creative-tool", "render", "--los"],
            ["creative-tool", "guidance", "--format", "m"],
        ]), ["lint", "lint", "--takeover", "render", "--lossless", "markdown"])
    }
}
