import CreativeCore
import CreativeImaging
import CreativeTestSupport
@testable import CreativeCLI
import Foundation
import XCTest

/// `creative-tool fix` end to end: each near miss becomes a file that `validate` passes with no
/// warning, each change on its own line, and the input is never touched.
final class FixCommandTests: ScratchFolderTestCase {
    private func put(_ bytes: [UInt8], _ name: String) throws {
        try Data(bytes).write(to: folder.appendingPathComponent(name))
    }

    private func bytes(_ name: String) -> [UInt8]? {
        (try? Data(contentsOf: folder.appendingPathComponent(name))).map { [UInt8]($0) }
    }

    /// Runs `fix`, then checks the input is unchanged and, on success, that `validate` passes the
    /// output with no warning and that the output has `size`.
    @discardableResult
    private func fix(_ input: String, _ output: String, _ extra: [String] = [], size: PixelSize? = nil,
                     file: StaticString = #filePath, line: UInt = #line) throws -> ToolRun {
        let before = bytes(input)
        let run = try Tool.run(["fix", input, "--output", output] + extra, in: folder)
        XCTAssertEqual(bytes(input), before, "the input is untouched", file: file, line: line)
        guard run.status == 0 else { return run }
        let check = try Tool.run(["validate", "--json", output], in: folder)
        XCTAssertEqual(check.status, 0, check.text, file: file, line: line)
        let report = try Fixtures.object(check.text)
        XCTAssertEqual((report["warnings"] as? [Any])?.count, 0, check.text, file: file, line: line)
        if let size {
            let dimensions = report["size_pixels"] as? [String: Int]
            XCTAssertEqual(dimensions?["width"], size.width, file: file, line: line)
            XCTAssertEqual(dimensions?["height"], size.height, file: file, line: line)
        }
        return run
    }

    func testANearMissSizeIsWrittenAtTheAcceptedSizeAndEachChangeSaid() throws {
        try put(try TestArtwork.generate(PixelSize(width: 961, height: 150)), "banner-961x150.png")
        XCTAssertEqual(try Tool.run(["validate", "banner-961x150.png"], in: folder).status, 1)
        let run = try fix("banner-961x150.png", "banner.png", size: PixelSize(width: 960, height: 150))
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, run.text)
        XCTAssertTrue(lines[0].hasPrefix("wrote banner.png: 960x150 PNG, "), lines[0])
        XCTAssertTrue(lines[0].hasSuffix(" bytes, valid with no warning"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("  resized: 961x150 resized to 960x150, the accepted size (aspect ratio 0.10% off): "),
                      lines[1])
        XCTAssertTrue(lines[2].hasPrefix("  reencoded: "), lines[2])
    }

    func testFlatArtOnePixelWideLosesAColumnOfItsEdgeAndNothingElse() throws {
        try put(try Fixtures.save("pngsave_buffer", try Fixtures.flatArt(961, 150)), "flat-961x150.png")
        try put(try Fixtures.save("pngsave_buffer", try Fixtures.flatArt(960, 150)), "flat-960x150.png")
        // Drawn at 960x150, the art validates with no warning.
        let drawn = try Tool.run(["validate", "--json", "flat-960x150.png"], in: folder)
        XCTAssertEqual(drawn.status, 0, drawn.text)
        XCTAssertEqual((try Fixtures.object(drawn.text)["warnings"] as? [Any])?.count, 0, drawn.text)
        let run = try fix("flat-961x150.png", "banner-960x150.png", size: PixelSize(width: 960, height: 150))
        XCTAssertEqual(run.status, 0, run.stderr + run.text)
        XCTAssertTrue(run.text.contains("  resized: 961x150 resized to 960x150, the accepted size (aspect ratio 0.10% off): "
                                        + "1 column taken out at the"), run.text)
        XCTAssertTrue(run.text.contains("(no pixel resampled)"), run.text)
        // Every pixel is the art's own: the art without its first column (a column of the plain field).
        XCTAssertTrue(run.text.contains("1 column taken out at the left edge"), run.text)
        let fixed = try Fixtures.decode(try XCTUnwrap(bytes("banner-960x150.png")))
        XCTAssertEqual(fixed.size, PixelSize(width: 960, height: 150))
        let art = try VipsOperation("extract_area").with("input", .image(try Fixtures.flatArt(961, 150)))
            .with("left", .int(1)).with("top", .int(0)).with("width", .int(960)).with("height", .int(150)).image()
        XCTAssertEqual(try fixed.pixelBytes(), try art.pixelBytes())
    }

    func testAPhotographPNGNamedJPGIsWrittenAsJPEGWithinTheWeight() throws {
        let photo = try Fixtures.photographPNG()
        XCTAssertGreaterThan(photo.count, 528_000)
        try put(photo, "heavy-2184x270.png")
        let run = try fix("heavy-2184x270.png", "banner-2184x270.jpg", size: PixelSize(width: 2184, height: 270))
        XCTAssertEqual(run.status, 0, run.stderr)
        let written = try XCTUnwrap(bytes("banner-2184x270.jpg"))
        XCTAssertEqual(Array(written.prefix(3)), [0xFF, 0xD8, 0xFF])
        XCTAssertLessThanOrEqual(written.count, 150_000)
        XCTAssertTrue(run.text.contains("\n  format_changed: PNG written as JPEG (the output name asks for it)\n"), run.text)
        // Named .png, no PNG can be within the weight: refused, and told what name to give.
        let png = try fix("heavy-2184x270.png", "banner.png")
        XCTAssertEqual(png.status, 1)
        XCTAssertTrue(png.stderr.contains("weight_unreachable"), png.stderr)
        XCTAssertTrue(png.stderr.contains("name the output .jpg or .webp"), png.stderr)
        XCTAssertNil(bytes("banner.png"))
        // No name to go by (standard output): the PNG that cannot fit is written as JPEG, and said.
        let piped = try Tool.run(["fix", "heavy-2184x270.png", "--output", "-"], in: folder)
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(Array(piped.stdout.prefix(3)), [0xFF, 0xD8, 0xFF])
        XCTAssertTrue(piped.stderr.contains("format_changed: PNG written as JPEG (PNG cannot be within the weight)"),
                      piped.stderr)
    }

    func testAnAnimatedGIFNamedPNGIsWrittenAsOnePNGFrame() throws {
        try put(try Fixtures.animatedArtworkGIF(320, 50), "anim-320x50.gif")
        let run = try fix("anim-320x50.gif", "still.png", size: PixelSize(width: 320, height: 50))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(Array(try XCTUnwrap(bytes("still.png")).prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        XCTAssertTrue(run.text.contains("\n  frame_kept: animated GIF of 3 frames: frame 1 (the first, as render shows it) kept"), run.text)
        XCTAssertTrue(run.text.contains("\n  format_changed: GIF written as PNG (the output name asks for it)\n"), run.text)
    }

    func testTheArtworksOwnWarningIsWrittenAndSaidWithExitTwo() throws {
        // A photograph enlarged 3x by nearest pixels: upscaled_artwork is the artwork's, at 961 as
        // at 960, and nothing fix does can take it away.
        let small = try Fixtures.photograph(320, 50)
        let blocky = try VipsOperation("resize").with("in", .image(small)).with("scale", .double(3))
            .with("kernel", .enumeration("nearest")).image()
        let art = try VipsOperation("embed").with("in", .image(blocky)).with("x", .int(0)).with("y", .int(0))
            .with("width", .int(961)).with("height", .int(150)).with("extend", .enumeration("copy")).image()
        try put(try Fixtures.save("pngsave_buffer", art), "blocky-961x150.png")
        let run = try Tool.run(["fix", "blocky-961x150.png", "--output", "blocky.png"], in: folder)
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.text.hasPrefix("wrote blocky.png: 960x150 PNG, "), run.text)
        XCTAssertTrue(run.text.contains("valid; the artwork's own warnings remain for the designer\n"), run.text)
        XCTAssertTrue(run.text.contains("\n  remains upscaled_artwork: "), run.text)
        let check = try Tool.run(["validate", "--json", "blocky.png"], in: folder)
        XCTAssertEqual(check.status, 0, check.text)
        let report = try Fixtures.object(check.text)
        let codes = (report["warnings"] as? [[String: Any]])?.compactMap { $0["code"] as? String } ?? []
        XCTAssertTrue(codes.contains("upscaled_artwork"), check.text)
        for code in codes { XCTAssertTrue(run.text.contains("\n  remains \(code): "), run.text) }
        let json = try Tool.run(["fix", "blocky-961x150.png", "--output", "blocky2.png", "--json"], in: folder)
        XCTAssertEqual(json.status, 2, json.stderr)
        let answer = try Fixtures.object(json.text)
        XCTAssertEqual(answer["valid"] as? Bool, true)
        XCTAssertEqual((answer["warnings"] as? [[String: Any]])?.compactMap { $0["code"] as? String }, codes)
    }

    func testASizeTooFarIsRefusedNamingTheNearestAndNothingIsWritten() throws {
        try put(try TestArtwork.generate(PixelSize(width: 1000, height: 150)), "wide.png")
        let run = try fix("wide.png", "out.png")
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.hasPrefix("creative-tool fix: size_too_far: wide.png: 1000x150 is too far from "
                                           + "960x150 or 1320x204"), run.stderr)
        XCTAssertNil(bytes("out.png"))
    }

    func testAPhotographOfOverAMegabyteIsWrittenWithinTheWeight() throws {
        let photo = try Fixtures.heavyPhotographJPEG()
        XCTAssertGreaterThan(photo.count, 1_300_000)
        try put(photo, "photo.jpg")
        let run = try fix("photo.jpg", "photo-fixed.jpg", ["--json"], size: PixelSize(width: 2184, height: 270))
        XCTAssertEqual(run.status, 0, run.stderr)
        let answer = try Fixtures.object(run.text)
        XCTAssertEqual(answer["format"] as? String, "jpeg")
        XCTAssertEqual(answer["input_bytes"] as? Int, photo.count)
        let written = try XCTUnwrap(bytes("photo-fixed.jpg"))
        XCTAssertEqual(answer["file_bytes"] as? Int, written.count)
        XCTAssertLessThanOrEqual(written.count, 150_000)
        let codes = (answer["changes"] as? [[String: Any]])?.compactMap { $0["code"] as? String }
        XCTAssertEqual(codes, ["metadata_stripped", "weight_reduced"])
    }

    func testACMYKJPEGIsWrittenInSRGB() throws {
        try put(try Fixtures.cmykJPEG(try Fixtures.artwork(728, 90)), "cmyk.jpg")
        let run = try fix("cmyk.jpg", "srgb.jpg", size: PixelSize(width: 728, height: 90))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.text.contains("\n  converted_to_srgb: CMYK converted to sRGB"), run.text)
    }

    func testAnAnimatedGIFBecomesOneStillFrame() throws {
        try put(try Fixtures.animatedArtworkGIF(728, 90), "animated.gif")
        let run = try fix("animated.gif", "still.gif", size: PixelSize(width: 728, height: 90))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.text.contains("\n  frame_kept: animated GIF of 3 frames: frame 1 (the first, as render shows it) "
                                        + "kept as the still image\n"), run.text)
        XCTAssertFalse(AnimationProbe.isAnimatedGIF(try XCTUnwrap(bytes("still.gif"))))
        let last = try fix("animated.gif", "last.gif", ["--frame", "3"])
        XCTAssertEqual(last.status, 0, last.stderr)
        XCTAssertTrue(last.text.contains("frame 3 (the last) kept"), last.text)
        // A frame the animation does not have is a usage error.
        let missing = try fix("animated.gif", "none.gif", ["--frame", "4"])
        XCTAssertEqual(missing.status, 64)
        XCTAssertTrue(missing.stderr.hasPrefix("creative-tool fix: frame 4 is not a frame of this animation: give 1 to 3"),
                      missing.stderr)
        XCTAssertEqual(try fix("animated.gif", "none.gif", ["--frame", "0"]).status, 64)
        XCTAssertNil(bytes("none.gif"))
    }

    func testTheInputIsNeverTheOutputByAnyName() throws {
        try put(try TestArtwork.generate(PixelSize(width: 961, height: 150)), "in.png")
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.png").path,
                                                   withDestinationPath: "in.png")
        try FileManager.default.linkItem(at: folder.appendingPathComponent("in.png"),
                                         to: folder.appendingPathComponent("hard.png"))
        for output in ["in.png", "link.png", "hard.png", "./in.png"] {
            let run = try fix("in.png", output)
            XCTAssertEqual(run.status, 74, output)
            XCTAssertTrue(run.stderr.hasPrefix("creative-tool fix: output_is_input: "), run.stderr)
        }
    }

    func testUsageErrors() throws {
        try put(try TestArtwork.generate(PixelSize(width: 961, height: 150)), "in.png")
        let cases: [([String], String)] = [
            (["fix", "in.png"], "give --output PATH"),
            (["fix", "--output", "x.png"], "give one FILE"),
            (["fix", "in.png", "--output", "x.png", "--format", "webp"], "--format webp disagrees with the output name"),
            (["fix", "in.png", "--output", "x.bmp"], "the output name 'x.bmp' ends in .bmp, which names no format fix writes"),
            (["fix", "in.png", "--output", "x.png", "--size", "961x150"], "--size 961x150 is not an accepted size"),
            (["fix", "in.png", "--output", "x.png", "--size", "640x100"],
             "--size 640x100 is not an accepted size (it is a companion size: give --product companion"),
            (["fix", "in.png", "--output", "x.png", "--frame", "2"], "a frame is chosen only from an animated GIF or WebP"),
            (["fix", "in.png", "--output", "-", "--json"], "--json and --output - both write standard output"),
        ]
        for (arguments, message) in cases {
            let run = try Tool.run(arguments, in: folder)
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        XCTAssertNil(bytes("x.png"))
    }

    func testABundleIsRefused() throws {
        try put([0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 0, count: 26), "ad.zip")
        let run = try fix("ad.zip", "ad.png")
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.hasPrefix("creative-tool fix: unsupported_format: ad.zip: an HTML5 bundle (zip)"), run.stderr)
    }

    func testAsWebPOnRequest() throws {
        try put(try TestArtwork.generate(PixelSize(width: 321, height: 50)), "small.png")
        let run = try fix("small.png", "small.webp", ["--format", "webp"], size: PixelSize(width: 320, height: 50))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.text.contains("\n  format_changed: PNG written as WEBP (the format asked for)\n"), run.text)
    }

    func testAProfilesWeightAndSizes() throws {
        try put(try Fixtures.save("jpegsave_buffer", try Fixtures.photograph(960, 150), [("Q", .int(100))]), "photo.jpg")
        let run = try fix("photo.jpg", "lean.jpg", ["--profile", "iab-lean"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertLessThanOrEqual(try XCTUnwrap(bytes("lean.jpg")).count, 50_000)
        let check = try Tool.run(["validate", "--profile", "iab-lean", "lean.jpg"], in: folder)
        XCTAssertEqual(check.status, 0, check.text)
        XCTAssertTrue(check.text.hasPrefix("lean.jpg: valid for iab-lean ("), check.text)
        let unknown = try fix("photo.jpg", "x.jpg", ["--profile", "iab-laen"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("did you mean 'iab-lean'?"), unknown.stderr)
        let size = try fix("photo.jpg", "x.jpg", ["--profile", "amazon-dsp", "--size", "960x150"])
        XCTAssertEqual(size.status, 64)
        XCTAssertTrue(size.stderr.contains("--size 960x150 is not an accepted amazon-dsp size; give one of: 300x250, "),
                      size.stderr)
    }
}
