import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Outputs: special files are written, never replaced; a failed write to standard output is
/// an error (exit 1 and a message), never a silent success.
final class OutputSafetyTests: ScratchFolderTestCase {
    private let art = Tool.artwork960x150.path

    /// The file type bits of `path` itself (a link is not followed).
    private func kind(_ path: String) -> mode_t {
        var info = stat()
        XCTAssertEqual(lstat(path, &info), 0, path)
        return info.st_mode & S_IFMT
    }

    private func render(_ output: String, stdout: FileHandle? = nil) throws -> ToolRun {
        try Tool.run(["render", art, "--slot", "320x50", "--output", output], in: folder, stdout: stdout)
    }

    // MARK: render --output and special files

    /// The device `/dev/NAME` (character device `major`, `minor`), or, where this process may
    /// make device nodes (root), a node of the same device in the scratch folder: a regression
    /// that replaces the node then replaces the copy, not the machine's `/dev/null`.
    private func device(_ name: String, _ major: dev_t, _ minor: dev_t) -> String {
        let copy = folder.appendingPathComponent(name).path
        return mknod(copy, S_IFCHR | 0o666, major << 8 | minor) == 0 ? copy : "/dev/\(name)"
    }

    /// `/dev/stdout`, or, for root, a link in the scratch folder to what it links to.
    private func standardOutputLink() throws -> String {
        guard geteuid() == 0 else { return "/dev/stdout" }
        let link = folder.appendingPathComponent("stdout").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/proc/self/fd/1")
        return link
    }

    /// As root, `--output /dev/full` or `--output /dev/stdout` turned the device node or symlink
    /// into a regular file.
    func testDevicesAndStandardOutputAreWrittenNotReplaced() throws {
        let full = device("full", 1, 7)
        let failed = try render(full)
        XCTAssertEqual(failed.status, 74, failed.stderr)
        XCTAssertTrue(failed.stderr.contains("io_error") && failed.stderr.contains("No space left on device"), failed.stderr)
        XCTAssertEqual(kind(full), S_IFCHR)

        let null = device("null", 1, 3)
        let discarded = try render(null)
        XCTAssertEqual(discarded.status, 0, discarded.stderr)
        XCTAssertEqual(kind(null), S_IFCHR)

        let link = try standardOutputLink()
        let standard = try render(link)
        XCTAssertEqual(standard.status, 0, standard.stderr)
        XCTAssertEqual(kind(link), S_IFLNK)
        XCTAssertEqual(try ImageSource(bytes: standard.stdout).header.size, PixelSize(width: 320, height: 50),
                       "standard output holds the image and nothing else")
        let fd = try render("/dev/fd/1")
        XCTAssertEqual(try ImageSource(bytes: fd.stdout).header.size, PixelSize(width: 320, height: 50))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".tmp-") },
                       [], "no temporary file left")
    }

    /// A FIFO given as output was replaced by a regular file.
    func testAFIFOIsWrittenThrough() throws {
        let fifo = folder.appendingPathComponent("pipe.png").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let received = Received()
        let reader = Thread {
            received.bytes = FileHandle(forReadingAtPath: fifo).map { [UInt8]($0.readDataToEndOfFile()) } ?? []
            received.done.signal()
        }
        reader.start()
        let run = try render("pipe.png")
        // Should the tool never have opened the FIFO, this open releases the reader.
        let release = open(fifo, O_WRONLY | O_NONBLOCK)
        if release >= 0 { close(release) }
        XCTAssertEqual(received.done.wait(timeout: .now() + 60), .success, "the reader got an end")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(kind(fifo), S_IFIFO)
        XCTAssertEqual(try ImageSource(bytes: received.bytes).header.size, PixelSize(width: 320, height: 50))
    }

    /// Writing through a symbolic link to a regular file replaces the file it names, atomically,
    /// and leaves the link in place.
    func testALinkToAFileReplacesTheFileAndKeepsTheLink() throws {
        let target = folder.appendingPathComponent("target.png")
        try Data("old".utf8).write(to: target)
        let oldInode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: target.path)[.systemFileNumber] as? Int)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.png").path,
                                                   withDestinationPath: "target.png")
        let run = try render("link.png")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(kind(folder.appendingPathComponent("link.png").path), S_IFLNK)
        XCTAssertEqual(kind(target.path), S_IFREG)
        let newInode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: target.path)[.systemFileNumber] as? Int)
        XCTAssertNotEqual(newInode, oldInode, "replaced by a rename, not rewritten in place")
        XCTAssertEqual(try ImageSource(bytes: [UInt8](Data(contentsOf: target))).header.size, PixelSize(width: 320, height: 50))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["link.png", "target.png"])
    }

    // MARK: Standard output errors

    /// `validate --json f > /dev/full`, `guidance > /dev/full` and `process --json > /dev/full`
    /// all exited 0.
    func testAFullStandardOutputExitsSeventyFourWithAMessage() throws {
        let full = try XCTUnwrap(FileHandle(forWritingAtPath: "/dev/full"))
        let out = folder.appendingPathComponent("out").path
        for arguments in [["validate", "--json", art], ["validate", art], ["guidance"], ["guidance", "--format", "html"],
                          ["process", art, "--output-dir", out, "--json"], ["process", art, "--output-dir", out],
                          ["render", art, "--slot", "320x50", "--output", "-"], ["slot", "--width", "390"],
                          ["select", "--width", "390", "960x150"], ["prompt"], ["--version"], ["validate", "--help"]] {
            let run = try Tool.run(arguments, in: folder, stdout: full)
            XCTAssertEqual(run.status, 74, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("cannot write to standard output"), "\(arguments): \(run.stderr)")
        }
    }
}

/// Bytes a reader thread received; the semaphore orders the accesses.
private final class Received: @unchecked Sendable {
    var bytes: [UInt8] = []
    let done = DispatchSemaphore(value: 0)
}
