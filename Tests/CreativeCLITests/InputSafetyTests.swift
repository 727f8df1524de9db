import CreativeCore
import CreativeTestSupport
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Inputs: names are shown escaped, names that are not UTF-8 open their files, and only
/// regular files (or `-`) are read: a FIFO or a device never blocks a run.
final class InputSafetyTests: ScratchFolderTestCase {
    private let art = Tool.artwork960x150

    private func copyArt(as name: String) throws {
        try FileManager.default.copyItem(at: art, to: folder.appendingPathComponent(name))
    }

    // MARK: Names in human output

    /// A file named `$'evil.png: valid (960x150, PNG, 3 KB)\nreal.png'` forged a "valid" line,
    /// and `\r` and ANSI escapes reached the terminal.
    func testNamesCannotForgeLinesOrReachTheTerminal() throws {
        let evil = "evil.png: valid (960x150, PNG, 3 KB)\nreal.png"
        let ansi = "cr\r\u{1b}[31mred.png"
        try copyArt(as: evil)
        try copyArt(as: ansi)
        let run = try Tool.run(["validate", evil, ansi], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.text, "evil.png: valid (960x150, PNG, 3 KB)\\nreal.png: valid (960x150, PNG, 3 KB)\n"
                       + "cr\\r\\x1b[31mred.png: valid (960x150, PNG, 3 KB)\n")
        // JSON already escapes them, and keeps the name exactly.
        let json = try Tool.run(["validate", "--json", evil, ansi], in: folder)
        let files = try json.text.split(separator: "\n").map { line in
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["file"] as? String
        }
        XCTAssertEqual(files, [evil, ansi])
        XCTAssertFalse(json.stdout.contains(0x1B) || json.stdout.contains(0x0D))
        // Standard error and every other human line escape them too.
        let missing = try Tool.run(["render", "gone\u{1b}]0;title\u{7}.png", "--slot", "320x50"], in: folder)
        XCTAssertEqual(missing.status, 74)
        XCTAssertTrue(missing.stderr.contains("gone\\x1b]0;title\\x07.png"), missing.stderr)
        let rendered = try Tool.run(["render", ansi, "--slot", "320x50", "--output", "o\nk.png"], in: folder)
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        XCTAssertTrue(rendered.text.hasPrefix("wrote o\\nk.png: "), rendered.text)
        let selected = try Tool.run(["select", "--width", "960", "--height", "150", evil, "320x50"], in: folder)
        XCTAssertEqual(selected.text.filter { $0 == "\n" }.count, 3, selected.text)
        let processed = try Tool.run(["process", ansi, "--output-dir", "out\u{1b}"], in: folder)
        XCTAssertEqual(processed.status, 0, processed.stderr)
        XCTAssertFalse(processed.stdout.contains(0x1B) || processed.stdout.contains(0x0D), processed.text)
    }

    /// `validate $'lat\xe9.png'` was reported `file_not_found`: a name that is not UTF-8 is
    /// opened by its bytes and shown escaped.
    func testANameThatIsNotUTF8OpensItsFile() throws {
        let name: [CChar] = Array("lat".utf8CString.dropLast()) + [CChar(bitPattern: 0xE9)] + Array(".png".utf8CString)
        let target = folder.path + "/"
        let descriptor = open(Array(target.utf8CString.dropLast()) + name, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        let bytes = try [UInt8](Data(contentsOf: art))
        XCTAssertEqual(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }, bytes.count)
        close(descriptor)
        let human = try Tool.runShell("exec \"$0\" validate \"$(printf 'lat\\351.png')\"", in: folder)
        XCTAssertEqual(human.status, 0, human.stderr)
        XCTAssertEqual(human.text, "lat\\xe9.png: valid (960x150, PNG, 3 KB)\n")
        let json = try Tool.runShell("exec \"$0\" validate --json \"$(printf 'lat\\351.png')\"", in: folder)
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertTrue(json.text.contains(",\"file\":\"lat\\\\xe9.png\",\"valid\":true,"), json.text)
        let rendered = try Tool.runShell("exec \"$0\" render \"$(printf 'lat\\351.png')\" --slot 320x50", in: folder)
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        XCTAssertTrue(rendered.text.hasPrefix("wrote lat\\xe9-320x50@1x.png: "), rendered.text)
    }

    // MARK: FIFOs, devices, standard input

    /// FIFOs and devices as input blocked forever on `open`, and one FIFO stalled a whole
    /// `validate` batch.
    func testFIFOsAndDevicesAreRefusedWithoutBlocking() throws {
        let fifo = folder.appendingPathComponent("upload.png").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        try copyArt(as: "good.png")
        let batch = try Tool.run(["validate", "upload.png", "/dev/zero", "good.png", "--json"], in: folder, timeout: 60)
        XCTAssertEqual(batch.status, 74, "no hang: \(batch.stderr)")
        let reports = try batch.text.split(separator: "\n").map { line in
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let codes = reports.map { ($0["errors"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String } }
        XCTAssertEqual(codes, [["not_a_file"], ["not_a_file"], []])
        XCTAssertEqual(reports.map { $0["file_bytes"] is NSNull }, [true, true, false])

        for arguments in [["render", "upload.png", "--slot", "320x50"], ["render", "upload.png", "good.png", "--slot", "320x50"],
                          ["select", "--width", "390", "upload.png"], ["render", "/dev/zero", "--slot", "320x50"]] {
            let run = try Tool.run(arguments, in: folder, timeout: 60)
            XCTAssertEqual(run.status, 74, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("not_a_file"), "\(arguments): \(run.stderr)")
        }
        let processed = try Tool.run(["process", "upload.png", "--output-dir", "out", "--json"], in: folder, timeout: 60)
        XCTAssertEqual(processed.status, 74, processed.stderr)
        XCTAssertTrue(processed.stderr.hasPrefix("creative-tool process: not_a_file: "), processed.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path),
                       "nothing created for an input that cannot be read")
        // A folder is no file either.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("out"), withIntermediateDirectories: false)
        let folderRun = try Tool.run(["validate", "out"], in: folder, timeout: 60)
        XCTAssertTrue(folderRun.text.hasPrefix("out: cannot be read - error not_a_file: "), folderRun.text)
    }

    /// Standard input stays `-`; its byte count is what was read, and says so.
    func testStandardInputCountsTheBytesRead() throws {
        let bytes = try [UInt8](Data(contentsOf: art))
        let human = try Tool.run(["validate", "-"], stdin: bytes)
        XCTAssertEqual(human.text, "-: valid (960x150, PNG, \(bytes.count) bytes read from standard input)\n")
        let capped = try Tool.run(["validate", "-", "--max-bytes", "100", "--json"], stdin: bytes)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(capped.stdout)) as? [String: Any])
        XCTAssertEqual(report["file_bytes"] as? Int, 101, "reading stops one byte past the limit")
        let cappedHuman = try Tool.run(["validate", "-", "--max-bytes", "100"], stdin: bytes)
        XCTAssertTrue(cappedHuman.text.hasPrefix("-: REJECTED (960x150, PNG, 101 bytes read from standard input) - "),
                      cappedHuman.text)
    }
}
