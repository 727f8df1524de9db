import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `process --output-dir` never destroys a user's files: a folder is replaced only when it is
/// empty or an earlier output of `process`, and never when it holds the input.
final class ProcessOutputDirTests: ScratchFolderTestCase {
    private let art = Tool.artwork960x150

    private func url(_ path: String) -> URL { folder.appendingPathComponent(path) }

    private func write(_ text: String, _ path: String) throws {
        try FileManager.default.createDirectory(at: url(path).deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url(path))
    }

    /// Every file and folder under `root` (relative paths) with the bytes of each file.
    private func snapshot(_ root: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        while let relative = enumerator?.nextObject() as? String {
            let item = root.appendingPathComponent(relative)
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: item.path, isDirectory: &isFolder)
            result[relative] = isFolder.boolValue ? Data("<folder>".utf8) : try Data(contentsOf: item)
        }
        return result
    }

    private func assertRefused(_ run: ToolRun, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.status, 74, run.stderr, file: file, line: line)
        XCTAssertTrue(run.stderr.contains("output_dir_not_ours"), run.stderr, file: file, line: line)
        XCTAssertEqual(run.stdout, [], file: file, line: line)
    }

    private func hidden() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix(".") }
    }

    /// `mkdir -p h/docs; cp art.png h/; echo keep > h/docs/t.txt; creative-tool process h/art.png
    /// --output-dir h` exited 0, and `h/art.png` and `h/docs` were gone.
    func testProcessIntoTheInputsOwnFolderIsRefusedAndLosesNothing() throws {
        try FileManager.default.createDirectory(at: url("h/docs"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: art, to: url("h/art.png"))
        try write("keep\n", "h/docs/t.txt")
        let before = try snapshot(url("h"))
        assertRefused(try Tool.run(["process", "h/art.png", "--output-dir", "h"], in: folder))
        XCTAssertEqual(try snapshot(url("h")), before)
        XCTAssertEqual(try Data(contentsOf: url("h/docs/t.txt")), Data("keep\n".utf8))
        XCTAssertEqual(hidden(), [], "no partial folder left beside it")
        // `--force` is no way around it: not an option at all.
        let forced = try Tool.run(["process", "h/art.png", "--output-dir", "h", "--force"], in: folder)
        XCTAssertEqual(forced.status, 64, forced.stderr)
        XCTAssertEqual(try snapshot(url("h")), before)
        // Named another way, it is still the input's folder.
        assertRefused(try Tool.run(["process", "h/art.png", "--output-dir", folder.appendingPathComponent("h/").path],
                                   in: folder))
        XCTAssertEqual(try snapshot(url("h")), before)
    }

    /// `creative-tool process /typo.png --output-dir keep` emptied `keep/`.
    func testMissingInputNeverEmptiesAUsersFolder() throws {
        try write("mine\n", "keep/notes.txt")
        try write("deep\n", "keep/sub/deep.txt")
        let before = try snapshot(url("keep"))
        assertRefused(try Tool.run(["process", "/typo.png", "--output-dir", "keep"], in: folder))
        XCTAssertEqual(try snapshot(url("keep")), before)
    }

    /// A folder above the input is never replaced, not even an earlier output of `process`.
    func testAnEarlierOutputHoldingTheInputIsNotReplaced() throws {
        let first = try Tool.run(["process", art.path, "--output-dir", "out"], in: folder)
        XCTAssertEqual(first.status, 0, first.stderr)
        let before = try snapshot(url("out"))
        assertRefused(try Tool.run(["process", "out/preview.png", "--output-dir", "out"], in: folder))
        assertRefused(try Tool.run(["process", "out/sub/missing.png", "--output-dir", "out"], in: folder))
        try FileManager.default.createSymbolicLink(atPath: url("link.png").path, withDestinationPath: "out/preview.png")
        assertRefused(try Tool.run(["process", "link.png", "--output-dir", "out"], in: folder))
        XCTAssertEqual(try snapshot(url("out")), before)
    }

    /// Every kind of failure (missing input, rejected input, killed run) into a folder of user
    /// files leaves each of them untouched.
    func testUserFilesSurviveEveryKindOfFailure() throws {
        try write("report\n", "target/report.txt")
        try write("<svg/>\n", "target/logo.svg")
        try FileManager.default.copyItem(at: art, to: url("target/preview.png"))
        try write("{\"renders\":[]}\n", "target/manifest.json")
        let before = try snapshot(url("target"))
        let rejected = url("rejected.png")
        try Data("not a picture\n".utf8).write(to: rejected)
        for input in [url("missing.png").path, rejected.path, art.path] {
            assertRefused(try Tool.run(["process", input, "--output-dir", url("target").path]))
            XCTAssertEqual(try snapshot(url("target")), before, input)
        }
        for delay in [0, 0.002, 0.01, 0.05, 0.2] {
            let process = Process()
            process.executableURL = Tool.binary
            process.arguments = ["process", art.path, "--output-dir", url("target").path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(delay * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            XCTAssertEqual(try snapshot(url("target")), before, "killed after \(delay) s")
        }
        XCTAssertEqual(hidden(), [])
    }

    func testAnEmptyFolderAndAnEarlierOutputAreReplaced() throws {
        try FileManager.default.createDirectory(at: url("empty"), withIntermediateDirectories: true)
        let run = try Tool.run(["process", art.path, "--output-dir", "empty"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let manifest = try String(decoding: Data(contentsOf: url("empty/manifest.json")), as: UTF8.self)
        XCTAssertTrue(manifest.hasPrefix("{\"written_by\":\"creative-tool process\","), manifest)
        let written = try FileManager.default.contentsOfDirectory(atPath: url("empty").path).sorted()
        // A mistyped input changes nothing; a rejected one replaces the earlier output with its report.
        let typo = try Tool.run(["process", "/typo.png", "--output-dir", "empty"], in: folder)
        XCTAssertEqual(typo.status, 74, typo.stderr)
        XCTAssertTrue(typo.stderr.contains("file_not_found"), typo.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: url("empty").path).sorted(), written)
        try Data("not a picture\n".utf8).write(to: url("notes.txt"))
        let again = try Tool.run(["process", "notes.txt", "--output-dir", "empty"], in: folder)
        XCTAssertEqual(again.status, 1, again.stderr)
        XCTAssertFalse(again.stderr.contains("output_dir_not_ours"), again.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: url("empty").path), ["manifest.json"])
    }

    /// A file of an earlier output that someone changed, or one added with a listed name, is not
    /// process's own any more: the folder is not replaced.
    func testAChangedFileInAnEarlierOutputIsKept() throws {
        XCTAssertEqual(try Tool.run(["process", art.path, "--output-dir", "out"], in: folder).status, 0)
        try write("my edit\n", "out/preview.png")
        let before = try snapshot(url("out"))
        assertRefused(try Tool.run(["process", art.path, "--output-dir", "out"], in: folder))
        assertRefused(try Tool.run(["process", "/typo.png", "--output-dir", "out"], in: folder))
        XCTAssertEqual(try snapshot(url("out")), before)
        XCTAssertEqual(hidden(), [])
    }

    /// A symbolic link to a folder, used as `--output-dir`, works: the link stays, the folder it
    /// names gets the output (it failed with "link exists and is not a folder").
    func testASymlinkToAFolderIsWrittenThrough() throws {
        try FileManager.default.createDirectory(at: url("real"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: url("link").path, withDestinationPath: "real")
        for _ in 0..<2 {
            let run = try Tool.run(["process", art.path, "--output-dir", "link"], in: folder)
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: url("link").path), "real")
            XCTAssertTrue(FileManager.default.fileExists(atPath: url("real/preview.png").path))
        }
        XCTAssertEqual(hidden(), [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["link", "real"])
    }
}
