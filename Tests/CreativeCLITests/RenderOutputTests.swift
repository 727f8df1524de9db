import CreativeCore
import CreativeTestSupport
@testable import CreativeCLI
import Foundation
import XCTest

/// `render` writes the path it is given and nothing else: `--format auto` with an image ending
/// chooses within that ending's format, and no render replaces one of its inputs.
final class RenderOutputTests: ScratchFolderTestCase {
    /// Every file of the scratch folder (links as their own targets' names) and its bytes.
    private func snapshot() throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
        }
        return files
    }

    private func put(_ bytes: [UInt8], _ name: String) throws {
        try Data(bytes).write(to: folder.appendingPathComponent(name))
    }

    private func format(_ bytes: [UInt8]?) -> ImageFormat? {
        guard let bytes, case .accepted(let format) = ImageFormat.sniff(bytes) else { return nil }
        return format
    }

    /// The art: the committed 960x150 test artwork, and a WebP of it.
    private func artwork() throws -> (png: [UInt8], webp: [UInt8]) {
        let png = [UInt8](try Data(contentsOf: Tool.artwork960x150))
        try put(png, "art.png")
        let made = try Tool.run(["render", "art.png", "--slot", "960x150", "--format", "webp", "--output", "art.webp"],
                                in: folder)
        XCTAssertEqual(made.status, 0, made.stderr)
        return (png, [UInt8](try Data(contentsOf: folder.appendingPathComponent("art.webp"))))
    }

    /// `--format auto --output X.png` wrote X.webp, replacing a file of that name.
    func testAutoWritesExactlyTheNamedFileInItsFormat() throws {
        _ = try artwork()
        try put(Array("not an image, keep me".utf8), "banner.webp")
        try put(Array("keep me too".utf8), "banner.jpg")
        let cases: [(String, ImageFormat)] = [("banner.png", .png), ("photo.webp", .webp), ("photo.jpg", .jpeg),
                                              ("photo.JPEG", .jpeg)]
        for (name, expected) in cases {
            let before = try snapshot()
            let run = try Tool.run(["render", "art.png", "--slot", "320x50", "--scale", "2", "--format", "auto",
                                    "--output", name], in: folder)
            XCTAssertEqual(run.status, 0, "\(name): \(run.stderr)")
            XCTAssertTrue(run.text.hasPrefix("wrote \(name): "), run.text)
            XCTAssertTrue(run.text.contains("(auto"), run.text)
            var after = try snapshot()
            XCTAssertEqual(format(after.removeValue(forKey: name)), expected, name)
            XCTAssertEqual(after, before.filter { $0.key != name }, "\(name): no other file written or replaced")
        }
    }

    /// `render art.webp --format auto --output art.png` chose WebP and replaced art.webp, its source.
    func testAutoNeverRenamesOntoItsSource() throws {
        // A 960x150 PNG of random RGB pixels: `auto` picks WebP for it when the bars are transparent (no JPEG).
        try put(Fixtures.storedNoisePNG(960, 150), "noise.png")
        let made = try Tool.run(["render", "noise.png", "--slot", "960x150", "--format", "webp", "--quality", "95",
                                 "--output", "art.webp"], in: folder)
        XCTAssertEqual(made.status, 0, made.stderr)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("noise.png"))
        let before = try snapshot()
        // Transparent bars: auto's free choice for this art is WebP.
        let run = try Tool.run(["render", "art.webp", "--slot", "300x100", "--scale", "2", "--format", "auto",
                                "--output", "art.png"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let after = try snapshot()
        XCTAssertEqual(Set(after.keys), ["art.webp", "art.png"])
        XCTAssertEqual(after["art.webp"], before["art.webp"], "the source is untouched")
        XCTAssertEqual(format(after["art.png"]), .png)
        let free = try Tool.run(["render", "art.webp", "--slot", "300x100", "--scale", "2", "--format", "auto",
                                 "--output", "-"], in: folder)
        XCTAssertEqual(format(free.stdout), .webp, "the choice the name narrowed")
    }

    func testAnOutputThatIsAnInputIsRefusedBeforeAnyWork() throws {
        _ = try artwork()
        XCTAssertEqual(symlink("art.png", folder.appendingPathComponent("link.png").path), 0)
        XCTAssertEqual(link(folder.appendingPathComponent("art.png").path, folder.appendingPathComponent("hard.png").path), 0)
        let before = try snapshot()
        let cases: [[String]] = [
            ["art.png", "--output", "art.png"],
            ["art.png", "--output", "./art.png", "--format", "auto"],
            ["art.png", "--output", "link.png"],
            ["art.png", "--output", "hard.png", "--format", "png"],
            ["art.webp", "art.png", "--output", "art.png"],  // a candidate that would not win
            ["art.png", "--output", "\(folder.path)/art.png", "--format", "auto"],
        ]
        for arguments in cases {
            let run = try Tool.run(["render"] + arguments + ["--slot", "320x50"], in: folder)
            XCTAssertEqual(run.status, 74, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("output_is_input"), run.stderr)
            XCTAssertEqual(run.text, "", "\(arguments)")
            XCTAssertEqual(try snapshot(), before, "\(arguments): nothing written or replaced")
        }
        // Standard input that is the output file, and standard output that is an input file.
        let script = "\"$0\" render - --slot 320x50 --output art.png < art.png; echo \" $?\"; "
            + "\"$0\" render art.png --slot 320x50 --output - 1<>hard.png; echo \" $?\" >&2"
        let shell = try Tool.runShell(script, in: folder)
        XCTAssertTrue(shell.text.hasSuffix(" 74\n"), shell.text)
        XCTAssertTrue(shell.stderr.contains("output_is_input: art.png is standard input"), shell.stderr)
        XCTAssertTrue(shell.stderr.contains("output_is_input: standard output is the input art.png"), shell.stderr)
        XCTAssertTrue(shell.stderr.hasSuffix(" 74\n"), shell.stderr)
        XCTAssertEqual(try snapshot(), before)
    }

    func testAJPEGOnlyAutoHasWhiteBarsAndRefusesTransparentOnes() throws {
        _ = try artwork()
        let run = try Tool.run(["render", "art.png", "--slot", "300x100", "--format", "auto", "--output", "o.jpg"],
                               in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let pixels = try PixelReader(encoded: [UInt8](try Data(contentsOf: folder.appendingPathComponent("o.jpg"))))
        XCTAssertTrue(pixels[150, 2].allSatisfy { $0 > 245 }, "white bars: \(pixels[150, 2])")
        let refused = try Tool.run(["render", "art.png", "--slot", "300x100", "--format", "auto", "--output", "t.jpeg",
                                    "--background", "transparent"], in: folder)
        XCTAssertEqual(refused.status, 64)
        XCTAssertTrue(refused.stderr.contains("is a JPEG, which cannot be transparent"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("t.jpeg").path))
    }

    func testOutputNamesAndTheirFormats() {
        XCTAssertEqual(OutputFile.format(named: "a/b.PNG"), .png)
        XCTAssertEqual(OutputFile.format(named: "b.jpeg"), .jpeg)
        XCTAssertEqual(OutputFile.format(named: "b.jpg"), .jpeg)
        XCTAssertEqual(OutputFile.format(named: "b.webp"), .webp)
        for none in ["-", "/dev/stdout", "out.d/banner", "banner", "b.gif", "b.png.bak", ".png/x"] {
            XCTAssertNil(OutputFile.format(named: none), none)
        }
        XCTAssertEqual(OutputFile.path("b.png", defaultStem: "x", format: .webp), "b.png")
        XCTAssertEqual(OutputFile.path(nil, defaultStem: "art-390x61@3x", format: .jpeg), "art-390x61@3x.jpg")
    }

    /// `--output FOLDER` (an existing one, or a name ending in `/`) writes the default name inside it.
    func testAnOutputFolderHoldsTheDefaultName() throws {
        _ = try artwork()
        let plain = try Tool.run(["render", "art.png", "--slot", "390x61@3x"], in: folder)
        XCTAssertEqual(plain.status, 0, plain.stderr)
        let before = try snapshot()
        let name = try XCTUnwrap(before.keys.first { $0 != "art.png" && $0 != "art.webp" })
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("out"), withIntermediateDirectories: false)
        let into = try Tool.run(["render", "art.png", "--slot", "390x61@3x", "--output", "out"], in: folder)
        XCTAssertEqual(into.status, 0, into.stderr)
        XCTAssertTrue(into.text.hasPrefix("wrote out/\(name): "), into.text)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path), [name])
        XCTAssertEqual([UInt8](try Data(contentsOf: folder.appendingPathComponent("out/\(name)"))), before[name])
        let fresh = try Tool.run(["render", "art.png", "--slot", "390x61@3x", "--format", "webp", "--output", "new/"], in: folder)
        XCTAssertEqual(fresh.status, 0, fresh.stderr)
        let webpName = (name as NSString).deletingPathExtension + ".webp"
        XCTAssertEqual(format([UInt8](try Data(contentsOf: folder.appendingPathComponent("new/\(webpName)")))), .webp)
    }
}
