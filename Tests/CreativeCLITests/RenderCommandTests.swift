import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import Foundation
import XCTest

/// `creative-tool render` through the built binary: sizes, pixels, codes, exit codes, files.
final class RenderCommandTests: ScratchFolderTestCase {
    private func image(at name: String) throws -> VImage {
        try ImageSource(bytes: [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))).header
    }

    /// The file's pixels as shown (RGBA for PNG and WebP, however the file stores them).
    private func shown(at name: String) throws -> PixelReader {
        try PixelReader(encoded: [UInt8](Data(contentsOf: folder.appendingPathComponent(name))))
    }

    private func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    func testNoInputRendersTheTestArtworkChosenBySlotProportions() throws {
        let run = try Tool.run(["render", "--slot", "390x61", "--output", "x.png"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let output = try image(at: "x.png")
        XCTAssertEqual(output.size, PixelSize(width: 390, height: 61))
        XCTAssertTrue(run.text.contains("960x150"), run.text)
        // The 960x150 artwork fills 390x61 edge to edge: its ink border is on row 0.
        let pixels = try shown(at: "x.png")
        XCTAssertEqual(pixels[195, 0][3], 255)

        let retina = try Tool.run(["render", "--slot", "728x90", "--scale", "3", "--output", "r.png"], in: folder)
        XCTAssertEqual(retina.status, 0, retina.stderr)
        XCTAssertEqual(try image(at: "r.png").size, PixelSize(width: 2184, height: 270))
        XCTAssertTrue(retina.text.contains("2184x270"), retina.text)
    }

    func testLetterboxPlacementAtScaleThree() throws {
        let source = try write(try Fixtures.pngSolid(2184, 270), "wide.png")
        let run = try Tool.run(["render", source, "--slot", "390x61", "--scale", "3", "--output", "out.png"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let pixels = try shown(at: "out.png")
        XCTAssertEqual([pixels.width, pixels.height], [1170, 183])
        let expected = Placement(source: PixelSize(width: 2184, height: 270), canvas: PixelSize(width: 1170, height: 183))
        let box = try XCTUnwrap(pixels.opaqueBox())
        XCTAssertEqual([box.x, box.y, box.width, box.height],
                       [expected.x, expected.y, expected.content.width, expected.content.height])
        XCTAssertEqual([box.y, box.height], [19, 145])
    }

    func testJPEGOutputHasWhiteBarsAndGivenColourWorks() throws {
        let source = try write(try Fixtures.pngSolid(100, 50), "s.png")
        XCTAssertEqual(try Tool.run(["render", source, "--slot", "100x100", "--format", "jpeg", "--output", "o.jpg"],
                                    in: folder).status, 0)
        let jpeg = try shown(at: "o.jpg")
        XCTAssertTrue(jpeg[50, 5].allSatisfy { $0 > 245 }, "\(jpeg[50, 5])")
        XCTAssertEqual(try Tool.run(["render", source, "--slot", "100x100", "--background", "#00ff00",
                                     "--output", "g.png"], in: folder).status, 0)
        XCTAssertEqual(try shown(at: "g.png")[50, 5], [0, 255, 0, 255])
        let refused = try Tool.run(["render", source, "--slot", "100x100", "--format", "jpeg",
                                    "--background", "transparent"], in: folder)
        XCTAssertEqual(refused.status, 64)
    }

    func testStandardInputAndOutput() throws {
        let bytes = try Fixtures.pngSolid(100, 50)
        let run = try Tool.run(["render", "-", "--slot", "50x50", "--output", "-"], stdin: bytes)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try ImageSource(bytes: run.stdout).header.size, PixelSize(width: 50, height: 50))
    }

    func testSeveralFilesPickTheAdaptiveWinner() throws {
        let narrow = try write(try Fixtures.pngSolid(320, 100), "a.png")
        let wide = try write(try Fixtures.pngSolid(728, 90), "b.png")
        let run = try Tool.run(["render", narrow, wide, "--slot", "728x90", "--output", "o.png"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.text.contains("728x90 artwork"), run.text)
    }

    func testBadSlotsAndFlagsAreUsageErrors() throws {
        for slot in ["390", "0x61", "390x61x2", "-3x4", "99999x99999", "abc"] {
            let run = try Tool.run(["render", "--slot", slot, "--output", "o.png"], in: folder)
            XCTAssertEqual(run.status, 64, slot)
            XCTAssertTrue(run.stderr.hasSuffix("see 'creative-tool render --help'\n"), run.stderr)
            XCTAssertLessThanOrEqual(run.stderr.split(separator: "\n").count, 3, run.stderr)
        }
        XCTAssertEqual(try Tool.run(["render", "--slot", "390x61", "--bogus"], in: folder).status, 64)
        XCTAssertEqual(try Tool.run(["render"], in: folder).status, 64)
        XCTAssertEqual(try Tool.run(["render", "--slot", "390x61", "--scale", "9"], in: folder).status, 64)
        XCTAssertEqual(try Tool.run(["frobnicate"], in: folder).status, 64)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("o.png").path))
    }

    func testRefusedInputsExitOneWithTheirCodeAndLeaveNoFile() throws {
        let svg = try write(Array("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"/>".utf8), "a.svg")
        let pdf = try write(Array("%PDF-1.4\n%\u{00e2}\n".utf8), "a.pdf")
        let bmp = try write(Array("BM".utf8) + [UInt8](repeating: 0, count: 64), "a.bmp")
        let tiff = try write([0x4D, 0x4D, 0x00, 0x2A] + [UInt8](repeating: 0, count: 64), "a.tif")
        let full = try Fixtures.pngSolid(300, 100, compression: 0)
        let truncated = try write(Array(full.prefix(full.count * 2 / 3)), "cut.png")
        var flipped = full
        flipped[40] ^= 0xFF
        let badCRC = try write(flipped, "crc.png")
        let corruptSuite = Tool.pngSuite.appendingPathComponent("xcsn0g01.png").path
        let cases: [(String, String)] = [
            (svg, "unsupported_format"), (pdf, "unsupported_format"), (bmp, "unsupported_format"),
            (tiff, "unsupported_format"), (truncated, "corrupt_image"), (badCRC, "corrupt_image"),
            (corruptSuite, "corrupt_image"), (folder.appendingPathComponent("missing.png").path, "file_not_found"),
        ]
        for (path, code) in cases {
            let run = try Tool.run(["render", path, "--slot", "300x100", "--output", "o.png"], in: folder)
            XCTAssertEqual(run.status, code == "file_not_found" ? 74 : 1, "\(path): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(code), "\(path): \(run.stderr)")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("o.png") },
                           [], "a failed run leaves no output file")
        }
    }

    func testDecompressionBombIsRefusedFromTheHeader() throws {
        let bomb = try write(Fixtures.pngHeaderOnly(width: 100_000, height: 100_000), "bomb.png")
        let run = try Tool.run(["render", bomb, "--slot", "390x61", "--output", "o.png"], in: folder)
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.contains("too_many_pixels"), run.stderr)
        let peak = try Tool.peakMemory(of: ["render", bomb, "--slot", "390x61", "--output", "o.png"], in: folder)
        XCTAssertLessThan(peak, 100 * 1024 * 1024, "peak resident memory of the refused render")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("o.png").path))
    }

    /// A black RGB PNG of about `width x height x 3` bytes, stored without compression, written
    /// in pieces so this test process never holds it.
    private func writeStoredPNG(width: Int, height: Int, to url: URL) throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let ihdr = Fixtures.be32(width) + Fixtures.be32(height) + [8, 2, 0, 0, 0]
        try handle.write(contentsOf: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Fixtures.pngChunk("IHDR", ihdr))
        try handle.write(contentsOf: Fixtures.pngChunk("IDAT", [0x78, 0x01]))  // zlib header
        // Every row is filter byte 0 and black pixels: all zeros, in stored deflate blocks.
        let total = height * (1 + width * 3)
        let full = 65535
        let block = Fixtures.pngChunk("IDAT", [0] + Fixtures.le16(full) + Fixtures.le16(full ^ 0xFFFF)
                                      + [UInt8](repeating: 0, count: full))
        for _ in 0..<(total - 1) / full { try handle.write(contentsOf: block) }
        let rest = total - (total - 1) / full * full
        let adler = Fixtures.be32((total % 65521) << 16 | 1)  // Adler-32 of zeros: a = 1, b = count
        try handle.write(contentsOf: Fixtures.pngChunk("IDAT", [1] + Fixtures.le16(rest) + Fixtures.le16(rest ^ 0xFFFF)
                                                        + [UInt8](repeating: 0, count: rest) + adler))
        try handle.write(contentsOf: Fixtures.pngChunk("IEND", []))
    }

    /// `render A B C ...` held every candidate in memory (10 files of 30 MB peaked at 696 MB):
    /// the winner is picked from the headers alone, and only the winner is opened.
    func testManyBigCandidatesAreChosenFromTheirHeaders() throws {
        let big = folder.appendingPathComponent("big-0.png")
        try writeStoredPNG(width: 5000, height: 2000, to: big)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: big.path)[.size] as? Int)
        XCTAssertGreaterThan(size, 30_000_000)
        var candidates = [big.path]
        for index in 1..<9 {
            let copy = folder.appendingPathComponent("big-\(index).png")
            XCTAssertEqual(link(big.path, copy.path), 0)
            candidates.append(copy.path)
        }
        candidates.append(try write(try Fixtures.pngSolid(728, 90), "winner.png"))
        let arguments = ["render"] + candidates + ["--slot", "728x90", "--output", "o.png"]
        let run = try Tool.run(arguments, in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.text.contains("728x90 artwork"), run.text)
        XCTAssertEqual(try shown(at: "o.png")[364, 45], [0, 0, 255, 255], "the winner's blue")
        let peak = try Tool.peakMemory(of: arguments, in: folder)
        XCTAssertLessThan(peak, 100 * 1024 * 1024, "peak resident memory choosing among 270 MB of candidates")
        // A big candidate wins: only it is read whole (its resampling window needs a larger budget).
        let wins = try Tool.run(["render", candidates[0], candidates[9], "--slot", "500x200", "--output", "w.png",
                                 "--memory-budget", "256"], in: folder)
        XCTAssertEqual(wins.status, 0, wins.stderr)
        XCTAssertTrue(wins.text.contains("5000x2000 artwork"), wins.text)
    }
}
