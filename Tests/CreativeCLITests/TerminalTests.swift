import Foundation
import XCTest

/// What `render` does with a terminal and a pipe: it reads standard input when no FILE is
/// given and standard input is not a terminal, and refuses to write binary to a terminal.
/// The terminal is a real pseudo-terminal (scripts/pty_run.py, python3's `pty`), so `isatty`
/// answers as for a user.
final class TerminalTests: ScratchFolderTestCase {
    /// Runs the tool with standard input, output and error on one pseudo-terminal; the answer's
    /// `stdout` holds everything the terminal showed.
    private func runOnTerminal(_ arguments: [String]) throws -> ToolRun {
        let script = Tool.packageRoot.appendingPathComponent("scripts/pty_run.py").path
        return try Tool.run(["python3", script, Tool.binary.path] + arguments, in: folder,
                            executable: URL(fileURLWithPath: "/usr/bin/env"), timeout: 60)
    }

    func testBinaryOutputToATerminalIsRefused() throws {
        for output in ["-", "/dev/stdout", "/dev/tty"] {
            let run = try runOnTerminal(["render", "--slot", "390x61", "--output", output])
            XCTAssertEqual(run.status, 64, output)
            let target = output == "-" ? "standard output" : output
            XCTAssertTrue(run.text.contains("creative-tool render: \(target) is a terminal and the render is binary; "
                                            + "redirect it ('> o.png'), pipe it, or name a file with --output"), run.text)
            XCTAssertFalse(run.stdout.contains(0x89), "no PNG byte reached the terminal")
        }
        // Piped, the same command writes the PNG.
        let piped = try Tool.run(["render", "--slot", "390x61", "--output", "-"], in: folder)
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(Array(piped.stdout.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    func testNoFileAtATerminalRendersTheTestArtwork() throws {
        let run = try runOnTerminal(["render", "--slot", "390x61", "--output", "t.png"])
        XCTAssertEqual(run.status, 0, run.text)
        XCTAssertTrue(run.text.contains("note: no FILE given: rendering the built-in test artwork (960x150)\r\n"), run.text)
        XCTAssertTrue(run.text.contains("wrote t.png: 390x61 px (slot 390x61 pt @1x), 960x150 artwork"), run.text)
    }

    func testPipedInputIsTheArtworkWhenNoFileIsGiven() throws {
        let art = [UInt8](try Data(contentsOf: Tool.packageRoot.appendingPathComponent("TestImages/test-artwork-1320x204.png")))
        let run = try Tool.run(["render", "--slot", "390x61@3x", "--output", "x.png"], stdin: art, in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        XCTAssertTrue(run.text.hasPrefix("wrote x.png: 1170x183 px (slot 390x61 pt @3x), 1320x204 artwork shown at 1170x181 "
                                         + "from (0,1)"), run.text)
        // The same bytes as naming the file.
        let named = try Tool.run(["render", "-", "--slot", "390x61@3x", "--output", "y.png"], stdin: art, in: folder)
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent("x.png")),
                       try Data(contentsOf: folder.appendingPathComponent("y.png")))
        // Empty standard input (a closed pipe, `< /dev/null`) leaves the test artwork, and says so.
        let empty = try Tool.run(["render", "--slot", "390x61", "--output", "t.png"], stdin: [], in: folder)
        XCTAssertEqual(empty.status, 0, empty.stderr)
        XCTAssertEqual(empty.stderr, "creative-tool render: note: no FILE given: rendering the built-in test artwork "
                       + "(960x150); standard input gave no bytes\n")
        // Bytes that are no image are refused as a FILE would be.
        let text = try Tool.run(["render", "--slot", "390x61", "--output", "n.png"], stdin: Array("hello\n".utf8), in: folder)
        XCTAssertEqual(text.status, 1)
        XCTAssertTrue(text.stderr.hasPrefix("creative-tool render: not_an_image: standard input: "), text.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("n.png").path))
    }
}
