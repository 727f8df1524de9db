import CreativeCore
import CreativeImaging
import CreativeTestSupport
import Foundation
import XCTest

/// Every command's exit codes told apart, one case per code it can give: 0 success, 1 a rejected
/// creative or a failed job, 2 `fix` wrote the file but the artwork's own warnings remain, 64 a
/// usage error, 74 a file that cannot be read or written. A script can tell "rejected" from "the
/// path was wrong".
final class ExitCodeTests: ScratchFolderTestCase {
    /// A command line, the exit code it must give and, when set, a text standard error must hold.
    private struct Case {
        let arguments: [String]
        let status: Int32
        var stderr: String? = nil
        /// Run through the shell with standard output on a full device.
        var fullOutput = false
    }

    private func put(_ bytes: [UInt8], _ name: String) throws {
        try Data(bytes).write(to: folder.appendingPathComponent(name))
    }

    private func check(_ cases: [Case], file: StaticString = #filePath, line: UInt = #line) throws {
        for item in cases {
            let run: ToolRun
            if item.fullOutput {
                let quoted = item.arguments.map { "'\($0)'" }.joined(separator: " ")
                run = try Tool.runShell("\"$0\" \(quoted) > /dev/full", in: folder)
            } else {
                run = try Tool.run(item.arguments, in: folder)
            }
            XCTAssertEqual(run.status, item.status, "\(item.arguments): \(run.stderr)", file: file, line: line)
            if let expected = item.stderr {
                XCTAssertTrue(run.stderr.contains(expected), "\(item.arguments): \(run.stderr)", file: file, line: line)
            }
        }
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try put(try TestArtwork.generate(PixelSize(width: 960, height: 150)), "good.png")
        try put(try TestArtwork.generate(PixelSize(width: 1000, height: 150)), "wide.png")
        try put(Array("not an image\n".utf8), "notes.png")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("somefolder"), withIntermediateDirectories: false)
    }

    func testValidate() throws {
        try check([
            Case(arguments: ["validate", "good.png"], status: 0),
            Case(arguments: ["validate", "wide.png"], status: 1),
            Case(arguments: ["validate", "--jsn", "good.png"], status: 64),
            Case(arguments: ["validate", "missing.png"], status: 74),
            Case(arguments: ["validate", "somefolder"], status: 74),
            // A missing file wins over a rejected one: the run itself went wrong.
            Case(arguments: ["validate", "wide.png", "missing.png"], status: 74),
            Case(arguments: ["validate", "good.png"], status: 74, stderr: "io_error", fullOutput: true),
        ])
        let missing = try Tool.run(["validate", "missing.png"], in: folder)
        XCTAssertTrue(missing.text.hasPrefix("missing.png: cannot be read - error file_not_found: "), missing.text)
    }

    func testRender() throws {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("taken/good-390x61@3x.png"),
                                                withIntermediateDirectories: true)
        try check([
            Case(arguments: ["render", "good.png", "--slot", "390x61@3x", "--output", "out.png"], status: 0),
            Case(arguments: ["render", "notes.png", "--slot", "390x61@3x", "--output", "out.png"], status: 1,
                 stderr: "not_an_image"),
            Case(arguments: ["render", "good.png", "--output", "out.png"], status: 64),
            // An output name of no format is a usage error, as for fix.
            Case(arguments: ["render", "good.png", "--slot", "390x61@3x", "--output", "x.bin"], status: 64,
                 stderr: ".bin is not a format a render writes"),
            Case(arguments: ["render", "missing.png", "--slot", "390x61@3x", "--output", "out.png"], status: 74,
                 stderr: "file_not_found"),
            // A folder holds the default name; a folder where that name should go cannot be written.
            Case(arguments: ["render", "good.png", "--slot", "390x61@3x", "--output", "somefolder"], status: 0),
            Case(arguments: ["render", "good.png", "--slot", "390x61@3x", "--output", "taken"], status: 74,
                 stderr: "io_error"),
            Case(arguments: ["render", "good.png", "--slot", "390x61@3x", "--output", "good.png"], status: 74,
                 stderr: "output_is_input"),
        ])
    }

    func testSlotSelectGuidancePromptProfiles() throws {
        try check([
            Case(arguments: ["slot", "--width", "390"], status: 0),
            Case(arguments: ["slot", "--width", "wide"], status: 64),
            Case(arguments: ["slot", "--width", "390"], status: 74, fullOutput: true),
            Case(arguments: ["select", "--width", "1170", "--height", "183", "960x150"], status: 0),
            Case(arguments: ["select", "--width", "100", "--height", "10", "--mode", "anchored", "300x250"], status: 1,
                 stderr: "no_eligible_creative"),
            Case(arguments: ["select", "960x150"], status: 64),
            Case(arguments: ["select", "--width", "1170", "missing.png"], status: 74, stderr: "file_not_found"),
            Case(arguments: ["guidance"], status: 0),
            Case(arguments: ["guidance", "--format", "pdf"], status: 64),
            Case(arguments: ["guidance"], status: 74, fullOutput: true),
            Case(arguments: ["prompt", "--size", "960x150"], status: 0),
            Case(arguments: ["prompt", "--size", "961x150"], status: 64),
            Case(arguments: ["prompt"], status: 74, fullOutput: true),
            Case(arguments: ["profiles"], status: 0),
            Case(arguments: ["profiles", "--jsn"], status: 64),
            Case(arguments: ["profiles"], status: 74, fullOutput: true),
        ])
    }

    func testTestArtworkAndCompanion() throws {
        try put(Array("ad_type=carousel\n".utf8), "carousel.txt")
        try check([
            Case(arguments: ["test-artwork", "--output-dir", "art"], status: 0),
            Case(arguments: ["test-artwork", "--redrw"], status: 64),
            Case(arguments: ["test-artwork", "--output-dir", "good.png"], status: 74, stderr: "io_error"),
            Case(arguments: ["companion", "lint", "--takeover", "ad_type=webview,campaign=spring,Image_url=https://ads.example.com/page"],
                 status: 0),
            Case(arguments: ["companion", "lint", "--file", "carousel.txt"], status: 1),
            Case(arguments: ["companion", "lnt"], status: 64),
            Case(arguments: ["companion", "lint", "--file", "missing.txt"], status: 74, stderr: "file_not_found"),
        ])
    }

    func testProcess() throws {
        try check([
            Case(arguments: ["process", "good.png", "--with", "1320x204,2184x270", "--output-dir", "job"], status: 0),
            Case(arguments: ["process", "wide.png", "--output-dir", "rejected"], status: 1),
            Case(arguments: ["process", "good.png"], status: 64),
            Case(arguments: ["process", "missing.png", "--output-dir", "none"], status: 74, stderr: "file_not_found"),
            Case(arguments: ["process", "good.png", "--output-dir", "good.png"], status: 74),
        ])
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("none").path))
    }

    func testFix() throws {
        // A photograph enlarged 3x by nearest pixels, one pixel wide: written, its own warning
        // (upscaled_artwork, which no fix takes away) said, exit 2.
        let blocky = try VipsOperation("resize").with("in", .image(try Fixtures.photograph(320, 50)))
            .with("scale", .double(3)).with("kernel", .enumeration("nearest")).image()
        let blockyNearMiss = try VipsOperation("embed").with("in", .image(blocky)).with("x", .int(0)).with("y", .int(0))
            .with("width", .int(961)).with("height", .int(150)).with("extend", .enumeration("copy")).image()
        try put(try Fixtures.save("pngsave_buffer", blockyNearMiss), "blocky-961x150.png")
        let edges = try Fixtures.solid(961, 150, [255, 255, 255]).materialized()
        try VipsOperation("draw_rect").with("image", .image(edges)).with("ink", .doubles([20, 40, 120]))
            .with("left", .int(200)).with("top", .int(40)).with("width", .int(500)).with("height", .int(70))
            .with("fill", .bool(true)).execute()
        try put(try Fixtures.save("pngsave_buffer", edges), "edges-961x150.png")
        try check([
            Case(arguments: ["fix", "good.png", "--output", "fixed.png"], status: 0),
            Case(arguments: ["fix", "wide.png", "--output", "fixed-wide.png"], status: 1, stderr: "size_too_far"),
            Case(arguments: ["fix", "blocky-961x150.png", "--output", "blocky.png"], status: 2),
            // The artwork's edges blend into the app: fix draws the border (border_added), exit 0.
            Case(arguments: ["fix", "edges-961x150.png", "--output", "edges.png"], status: 0),
            Case(arguments: ["fix", "good.png"], status: 64),
            // An output name of no format is a usage error, as for render.
            Case(arguments: ["fix", "good.png", "--output", "x.bin"], status: 64, stderr: "names no format fix writes"),
            Case(arguments: ["fix", "missing.png", "--output", "x.png"], status: 74, stderr: "file_not_found"),
            Case(arguments: ["fix", "good.png", "--output", "somefolder"], status: 74, stderr: "io_error"),
            Case(arguments: ["fix", "good.png", "--output", "good.png"], status: 74, stderr: "output_is_input"),
        ])
        XCTAssertNil(try? Data(contentsOf: folder.appendingPathComponent("fixed-wide.png")))
        XCTAssertNotNil(try? Data(contentsOf: folder.appendingPathComponent("blocky.png")))
    }

    func testServeWorkerEnqueueAndTheOverview() throws {
        try check([
            Case(arguments: ["serve", "--prot", "8080"], status: 64),
            Case(arguments: ["serve", "--port", "0", "--token-file", "missing-token"], status: 74, stderr: "file_not_found"),
            Case(arguments: ["worker", "--store", "s3://bucket/results"], status: 64),
            Case(arguments: ["enqueue", "good.png", "--store", "s3://bucket/results"], status: 64),
            // A local file that cannot be read is 74, as for every command, before the queue or the
            // store is reached (nothing listens on port 1; no credentials are needed to get there).
            Case(arguments: ["enqueue", "missing.png", "--redis", "redis://127.0.0.1:1", "--store", "s3://bucket/results"],
                 status: 74, stderr: "file_not_found"),
            Case(arguments: ["enqueue", "good.png", "missing.png", "--redis", "redis://127.0.0.1:1",
                             "--store", "s3://bucket/results"], status: 74, stderr: "file_not_found"),
            Case(arguments: ["enqueue", "somefolder", "--redis", "redis://127.0.0.1:1", "--store", "s3://bucket/results"],
                 status: 74, stderr: "not_a_file"),
            Case(arguments: ["--help"], status: 0),
            Case(arguments: ["--help"], status: 74, fullOutput: true),
            Case(arguments: ["nosuchcommand"], status: 64),
        ])
        // Every command's help names 74 beside 0, 1 and 64; fix's names 2.
        for command in ["validate", "render", "slot", "select", "test-artwork", "guidance", "prompt", "process", "fix",
                        "companion", "profiles", "serve", "worker", "enqueue"] {
            let help = try Tool.run([command, "--help"], in: folder).text
            let codes = help.components(separatedBy: "\nexit codes: ").last ?? ""
            XCTAssertTrue(codes.hasPrefix("0 ") && codes.contains(" 64 usage error")
                          && codes.contains("74 a file cannot be read or written"), "\(command): \(codes)")
            XCTAssertEqual(codes.contains("2 written, but warnings of the artwork itself remain"), command == "fix", command)
        }
    }
}
