import CreativeCore
import CreativeTestSupport
@testable import CreativeCLI
import Foundation
import XCTest

/// `render A B C ...`: a candidate over the read limit drops out of the choice with a note,
/// instead of failing the command; only when none is left does it fail.
final class RenderCandidateTests: ScratchFolderTestCase {
    /// A file of `size` bytes (sparse: nothing is written past the head) starting with a PNG
    /// header that claims `width` x `height`; it would win the choice if it could be read.
    private func bigPNG(_ name: String, size: Int, width: Int = 728, height: Int = 90) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(Fixtures.pngHeaderOnly(width: width, height: height)).write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
        return url.path
    }

    private func outputs() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("o.") }
    }

    func testACandidateOverTheReadLimitDropsOutWithANote() throws {
        let limit = Inputs.defaultRenderMaxBytes
        let big = try bigPNG("big.png", size: limit + 1)
        let small = try Fixtures.solidArtwork("320x50", in: folder)
        let run = try Tool.run(["render", big, small, "--slot", "728x90", "--output", "o.png"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.text.contains("320x50 artwork"), run.text)
        XCTAssertEqual(run.stderr, "creative-tool render: note: file_too_large: \(big): \(limit + 1) bytes, over the "
                       + "limit of \(limit); left out of the choice\n"
                       + "creative-tool render: note: picked \(small) (320x50) of 2 files by the anchored rule for "
                       + "728x90 px; 1 left out\n")
        XCTAssertEqual(try outputs(), ["o.png"])
        // Alone, the same file still fails the command.
        let alone = try Tool.run(["render", big, "--slot", "728x90", "--output", "o2.png"], in: folder)
        XCTAssertEqual(alone.status, 1)
        XCTAssertTrue(alone.stderr.contains("file_too_large"), alone.stderr)
    }

    func testNoCandidateLeftFailsWithFileTooLarge() throws {
        let limit = Inputs.defaultRenderMaxBytes
        let first = try bigPNG("big-1.png", size: limit + 1), second = try bigPNG("big-2.png", size: 40 << 20)
        let run = try Tool.run(["render", first, second, "--slot", "728x90", "--output", "o.png"], in: folder)
        XCTAssertEqual(run.status, 1)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        guard lines.count == 3 else { return XCTFail("two notes and the failure: \(run.stderr)") }
        XCTAssertTrue(lines[0].contains("note: file_too_large: \(first)"), run.stderr)
        XCTAssertTrue(lines[1].contains("note: file_too_large: \(second)"), run.stderr)
        XCTAssertEqual(lines[2], "creative-tool render: file_too_large: every candidate is over the read limit of "
                       + "\(limit) bytes (--max-bytes)")
        XCTAssertEqual(try outputs(), [])
    }

    func testStandardInputOverTheLimitDropsOutToo() throws {
        let small = try Fixtures.solidArtwork("320x50", in: folder)
        // Over the limit, and within a pipe's buffer: the tool stops reading past the limit.
        let piped = try Fixtures.pngSolid(728, 20, compression: 0)
        XCTAssertTrue((2001..<60_000).contains(piped.count), "\(piped.count)")
        let run = try Tool.run(["render", "-", small, "--slot", "728x90", "--max-bytes", "2000", "--output", "o.png"],
                               stdin: piped, in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.text.contains("320x50 artwork"), run.text)
        XCTAssertTrue(run.stderr.contains("note: file_too_large: standard input: more than 2000 bytes"), run.stderr)
        // Other failures of a candidate still fail the command.
        let missing = try Tool.run(["render", small, folder.appendingPathComponent("none.png").path, "--slot", "728x90",
                                    "--output", "o3.png"], in: folder)
        XCTAssertEqual(missing.status, 74)
        XCTAssertTrue(missing.stderr.contains("file_not_found"), missing.stderr)
    }
}
