import CreativeCore
import CreativeImaging
import CreativeTestSupport
import Foundation
import XCTest

/// The command line as a newcomer meets it: the output name decides the format, slots carry
/// their scale, every product takes a device, usage errors fit in three lines and name the fix.
final class CommandSurfaceTests: ScratchFolderTestCase {
    private func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    private func size(_ name: String) throws -> PixelSize { try ImageSource(bytes: try bytes(name)).displayedSize }

    private func artwork(_ size: String) throws -> String { try Fixtures.solidArtwork(size, in: folder) }

    func testTheOutputNameDecidesTheFormat() throws {
        let art = try artwork("960x150")
        let jpeg = try Tool.run(["render", art, "--slot", "390x61@3x", "--output", "out.jpg"], in: folder)
        XCTAssertEqual(jpeg.status, 0, jpeg.stderr)
        XCTAssertTrue(try bytes("out.jpg").starts(with: [0xFF, 0xD8, 0xFF]), "JPEG bytes in out.jpg")
        XCTAssertEqual(try size("out.jpg"), PixelSize(width: 1170, height: 183))
        XCTAssertTrue(jpeg.text.contains("JPEG"), jpeg.text)
        XCTAssertEqual(try Tool.run(["render", art, "--slot", "390x61", "--output", "out.webp"], in: folder).status, 0)
        XCTAssertEqual(Array(try bytes("out.webp").prefix(4)), Array("RIFF".utf8))
        // The tool's own validate finds nothing to say about the extension of what it wrote.
        let checked = try Tool.run(["validate", "--json", "--product", "banner", "out.jpg"], in: folder)
        XCTAssertFalse(checked.text.contains("extension_mismatch"), checked.text)

        let disagree = try Tool.run(["render", art, "--slot", "390x61", "--format", "jpeg", "--output", "x.png"], in: folder)
        XCTAssertEqual(disagree.status, 64)
        XCTAssertTrue(disagree.stderr.contains("--format jpeg disagrees with the output name 'x.png'"), disagree.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.png").path))
        XCTAssertEqual(try Tool.run(["render", art, "--slot", "390x61", "--format", "png", "--output", "y.png"],
                                    in: folder).status, 0, "a --format that agrees is fine")
    }

    func testSlotsCarryTheirScale() throws {
        let art = try artwork("960x150")
        let written = try Tool.run(["render", art, "--slot", "390x61@3x", "--output", "-"], in: folder)
        let spelled = try Tool.run(["render", art, "--slot", "390x61", "--scale", "3", "--output", "-"], in: folder)
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertEqual(written.stdout, spelled.stdout, "390x61@3x is 390x61 at --scale 3")
        XCTAssertEqual(try Tool.run(["render", art, "--slot", "390x61@2.625x", "--output", "a.png"], in: folder).status, 0)
        XCTAssertEqual(try size("a.png"), Slot(points: PixelSize(width: 390, height: 61), scale: 2.625).pixels)
        let twice = try Tool.run(["render", art, "--slot", "390x61@3x", "--scale", "2", "--output", "b.png"], in: folder)
        XCTAssertEqual(twice.status, 64)
        XCTAssertTrue(twice.stderr.contains("give the scale once"), twice.stderr)
        XCTAssertEqual(try Tool.run(["render", art, "--slot", "390x61@9x", "--output", "c.png"], in: folder).status, 64)
    }

    func testBannersTakeADeviceAsEveryProductDoes() throws {
        let art = try artwork("1320x204")
        let run = try Tool.run(["render", art, "--device", "iPhone 15", "--output", "d.png"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let slot = try Fixtures.object(try Tool.run(["slot", "--device", "iPhone 15", "--json"]).text)
        XCTAssertEqual(try size("d.png"), PixelSize(width: 1179, height: 183))
        XCTAssertEqual(slot.sizeText("slot_pixels"), "1179x183")
        // The device's screen and scale: the same slot as its width, screen height and scale.
        XCTAssertEqual(try Tool.run(["slot", "--device", "iPhone 15", "--json"]).text,
                       try Tool.run(["slot", "--width", "393", "--screen-height", "852", "--scale", "3", "--json"]).text)
        let landscape = try Tool.run(["slot", "--device", "iPhone 15", "--orientation", "landscape", "--json"])
        XCTAssertEqual(try Fixtures.object(landscape.text).sizeText("slot_points")?.hasPrefix("852x"), true)
        XCTAssertEqual(try Tool.run(["slot", "--device", "iPhone 15", "--width", "390"]).status, 64)
        XCTAssertEqual(try Tool.run(["render", art, "--device", "iPhone 15", "--slot", "390x61"], in: folder).status, 64)
    }

    func testNewcomerMistakesAreAnsweredInThreeLinesWithTheFix() throws {
        let cases: [([String], String, String)] = [
            (["render", "--jsn"], "did you mean --json?", "render"),
            (["render", "--size", "390x61"], "did you mean --slot?", "render"),
            (["prompt", "--color", "red"], "did you mean --colors?", "prompt"),
            (["render", "--out", "x.png"], "did you mean --output?", "render"),
            (["render", "--slot", "390x61", "--format", "jpg"], "did you mean 'jpeg'?", "render"),
            (["guidance", "--format", "md"], "did you mean 'markdown'?", "guidance"),
            (["render", "--slot", "390x61", "--product", "intersitial"], "did you mean 'interstitial'?", "render"),
            (["render", "--device", "iPhone15"], "did you mean 'iPhone 15'?", "render"),
            (["render", "--slot", "390x61", "--background", "redd"], "did you mean 'red'?", "render"),
            (["slot", "--widht", "390"], "did you mean --width?", "slot"),
            (["serve", "--timeout", "5"], "did you mean --idle-timeout?", "serve"),
            (["validate"], "give at least one FILE", "validate"),
        ]
        for (arguments, fix, command) in cases {
            let run = try Tool.run(arguments, in: folder)
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)")
            XCTAssertEqual(run.stdout, [], "\(arguments)")
            XCTAssertTrue(run.stderr.contains(fix), "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasSuffix("see 'creative-tool \(command) --help'\n"), "\(arguments): \(run.stderr)")
            XCTAssertLessThanOrEqual(run.stderr.split(separator: "\n").count, 3, "\(arguments): \(run.stderr)")
        }
        let command = try Tool.run(["rendr"])
        XCTAssertEqual(command.status, 64)
        XCTAssertTrue(command.stderr.contains("did you mean 'render'?"), command.stderr)
        XCTAssertLessThanOrEqual(command.stderr.split(separator: "\n").count, 3, command.stderr)
    }

    func testEveryHelpPageHasExamplesAndExitCodesAndHelpCommandShowsIt() throws {
        for command in ["validate", "render", "slot", "select", "test-artwork", "guidance", "prompt", "process", "companion",
                        "serve", "worker", "enqueue"] {
            let help = try Tool.run([command, "--help"])
            XCTAssertEqual(help.status, 0, command)
            XCTAssertTrue(help.text.hasPrefix("usage: creative-tool \(command) "), help.text)
            XCTAssertTrue(help.text.contains("\nexamples:\n  creative-tool \(command) "), "\(command): \(help.text)")
            XCTAssertTrue(help.text.contains("\nexit codes: 0 "), "\(command): \(help.text)")
            XCTAssertEqual(try Tool.run(["help", command]).text, help.text, "help \(command) is \(command) --help")
        }
        let slot = try Tool.run(["slot", "--help"]).text
        XCTAssertTrue(slot.contains("Companions:"), slot)
        XCTAssertEqual(try Tool.run(["help", "frobnicate"]).status, 64)
        // help's own help is the overview, not "unknown command '--help'; did you mean '--help'?".
        let overview = try Tool.run(["--help"])
        for asked in [["help", "--help"], ["help", "-h"], ["help", "help"]] {
            let run = try Tool.run(asked)
            XCTAssertEqual(run.status, 0, "\(asked): \(run.text)")
            XCTAssertEqual(run.text, overview.text, "\(asked)")
        }
    }

    func testRenderJSONSaysWhatWasWritten() throws {
        let art = try artwork("960x150")
        let run = try Tool.run(["render", art, "--slot", "390x61@3x", "--output", "o.png", "--json"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let answer = try Fixtures.object(run.text)
        XCTAssertEqual(answer["file"] as? String, "o.png")
        XCTAssertEqual(answer["format"] as? String, "png")
        XCTAssertEqual(answer.sizeText("canvas_pixels"), "1170x183")
        XCTAssertEqual(answer.sizeText("artwork_pixels"), "960x150")
        XCTAssertEqual(answer["file_bytes"] as? Int, try bytes("o.png").count)
        XCTAssertEqual(try Tool.run(["render", art, "--slot", "390x61", "--output", "-", "--json"], in: folder).status, 64)
    }

    func testCSSColourNamesFillTheBars() throws {
        let art = try artwork("320x50")
        let run = try Tool.run(["render", art, "--slot", "320x100", "--background", "red", "--output", "r.png"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let pixels = try PixelReader(encoded: try bytes("r.png"))
        XCTAssertEqual(pixels[0, 0], [255, 0, 0, 255], "the bar above the artwork is CSS red")
    }

    func testSizesAndDurationsTakeSuffixesWithOneMeaning() throws {
        let art = try artwork("960x150")
        for limits in [["--memory-budget", "64M", "--timeout", "10s"], ["--memory-budget", "1G", "--timeout", "500ms"],
                       ["--memory-budget", "64", "--timeout", "2m"]] {
            let run = try Tool.run(["render", art, "--slot", "320x50", "--output", "-"] + limits, in: folder)
            XCTAssertEqual(run.status, 0, "\(limits): \(run.stderr)")
        }
        // Its size rounded up to KiB takes the file; a bare number (bytes) one short of it does not.
        let count = try bytes("a960x150.png").count
        XCTAssertEqual(try Tool.run(["validate", "--json", "--max-bytes", "\((count + 1023) / 1024)K", art],
                                    in: folder).status, 0)
        let small = try Tool.run(["validate", "--json", "--max-bytes", "\(count - 1)", art], in: folder)
        XCTAssertEqual(small.status, 1)
        XCTAssertTrue(small.text.contains("file_too_large"), small.text)
        for bad in [["--timeout", "10x"], ["--memory-budget", "64Q"], ["--memory-budget", "512K"], ["--timeout", "0"]] {
            XCTAssertEqual(try Tool.run(["render", art, "--slot", "320x50", "--output", "-"] + bad, in: folder).status, 64,
                           "\(bad)")
        }
    }

    func testSelectTakesPointsWithAScaleAndHintsAtPixels() throws {
        let candidates = ["960x150", "1320x204", "2184x270"]
        let points = try Tool.run(["select", "--width", "390", "--height", "61", "--scale", "3", "--json"] + candidates)
        let pixels = try Tool.run(["select", "--width", "1170", "--height", "183", "--json"] + candidates)
        XCTAssertEqual(points.status, 0, points.stderr)
        XCTAssertEqual(points.text, pixels.text)
        let narrow = try Tool.run(["select", "--width", "390"] + candidates)
        XCTAssertEqual(narrow.status, 0)
        XCTAssertTrue(narrow.stderr.contains("--width is in pixels; for points give --scale N"), narrow.stderr)
    }

    func testRenderNotesTheArtworkItPickedAndASizeValidateWouldReject() throws {
        let odd = try artwork("961x150")
        let run = try Tool.run(["render", odd, "--slot", "320x50", "--output", "o.png"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("note: 961x150 is not an accepted size, so validate would reject it"), run.stderr)
        let builtIn = try Tool.run(["render", "--slot", "320x50", "--output", "t.png"], in: folder)
        XCTAssertTrue(builtIn.stderr.contains("note: no FILE given: rendering the built-in test artwork"), builtIn.stderr)
        let several = try Tool.run(["render", try artwork("320x50"), try artwork("728x90"), "--slot", "728x90",
                                    "--output", "s.png"], in: folder)
        XCTAssertTrue(several.stderr.contains("picked \(folder.path)/a728x90.png (728x90) of 2 files by the anchored rule"),
                      several.stderr)
    }

    func testVerboseNamesTheStagesAndProcessListsItsWarnings() throws {
        let art = try artwork("960x150")
        let verbose = try Tool.run(["render", art, "--slot", "320x50", "--output", "v.png", "--verbose"], in: folder)
        XCTAssertEqual(verbose.status, 0, verbose.stderr)
        XCTAssertTrue(verbose.stderr.contains("creative-tool render: rendering 320x50 px (png)\n"), verbose.stderr)
        for stage in ["open", "render", "write", "total"] {
            XCTAssertTrue(verbose.stderr.contains("creative-tool render: time: \(stage) "), verbose.stderr)
        }
        XCTAssertFalse(try Tool.run(["render", art, "--slot", "320x50", "--output", "q.png"], in: folder)
            .stderr.contains("time:"), "quiet unless asked")
        let white = try Fixtures.save("pngsave_buffer", try Fixtures.solid(960, 150, [255, 255, 255]))
        try Data(white).write(to: folder.appendingPathComponent("white.png"))
        let processed = try Tool.run(["process", "white.png", "--output-dir", "job"], in: folder)
        XCTAssertEqual(processed.status, 0, processed.stderr)
        XCTAssertTrue(processed.text.contains("white.png: valid; wrote "), processed.text)
        XCTAssertTrue(processed.text.contains(" in "), processed.text)
        XCTAssertTrue(processed.text.contains("warning mostly_empty"), processed.text)
    }
}
