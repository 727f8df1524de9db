import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import Foundation
import XCTest

/// `creative-tool render` through the built binary: sizes, pixels, codes, exit codes, files.
final class RenderCommandTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws { folder = try Tool.scratch() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func image(at name: String) throws -> VImage {
        try ImageSource(bytes: [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))).header
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
        let pixels = try PixelReader(output)
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
        let pixels = try PixelReader(try image(at: "out.png"))
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
        let jpeg = try PixelReader(try image(at: "o.jpg"))
        XCTAssertTrue(jpeg[50, 5].allSatisfy { $0 > 245 }, "\(jpeg[50, 5])")
        XCTAssertEqual(try Tool.run(["render", source, "--slot", "100x100", "--background", "#00ff00",
                                     "--output", "g.png"], in: folder).status, 0)
        XCTAssertEqual(try PixelReader(try image(at: "g.png"))[50, 5], [0, 255, 0])
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
            XCTAssertTrue(run.stderr.contains("hint:"), run.stderr)
            XCTAssertTrue(run.stderr.contains("usage: creative-tool render"), run.stderr)
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
            XCTAssertEqual(run.status, 1, "\(path): \(run.stderr)")
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
}
