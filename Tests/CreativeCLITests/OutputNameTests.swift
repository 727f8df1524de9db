import CreativeCore
import Foundation
import XCTest

/// `render --output`: an ending the render cannot write is a usage error naming the ones it
/// can; save options in brackets (`o.jpg[Q=60]`) are the flags they stand for; missing parent
/// folders are created, as `process --output-dir` creates them.
final class OutputNameTests: ScratchFolderTestCase {
    private func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    private func render(_ extra: [String]) throws -> ToolRun {
        try Tool.run(["render", Tool.artwork960x150.path, "--slot", "390x61@2x"] + extra, in: folder)
    }

    func testAnUnknownEndingIsAUsageErrorAndWritesNothing() throws {
        for name in ["o.gif", "o.tiff", "o.bmp", "sub/o.PNG2"] {
            let run = try render(["--output", name])
            XCTAssertEqual(run.status, 64, name)
            let ending = String(name.split(separator: ".").last!)
            XCTAssertTrue(run.stderr.hasPrefix("creative-tool render: output '\(name)': .\(ending) is not a format a render "
                                               + "writes; name .png, .jpg, .jpeg, .webp, .avif (or give --format"), run.stderr)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], name)
        }
        // A name without an ending, or an explicit format, is still written.
        let named = try render(["--output", "o.tmp", "--format", "jpeg"])
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(Array(try bytes("o.tmp").prefix(3)), [0xFF, 0xD8, 0xFF])
    }

    func testSaveOptionsWriteTheSameBytesAsTheirFlags() throws {
        let pairs: [(String, [String], String)] = [
            ("a.jpg[Q=60]", ["--output", "b.jpg", "--quality", "60"], "JPEG quality 60"),
            ("a.webp[lossless]", ["--output", "b.webp", "--lossless"], "WebP lossless, effort 4"),
            ("a.webp[effort=6,Q=90]", ["--output", "b.webp", "--effort", "6", "--quality", "90"],
             "WebP quality 90, effort 6"),
        ]
        for (bracketed, flags, detail) in pairs {
            let viaName = try render(["--output", bracketed])
            XCTAssertEqual(viaName.status, 0, viaName.stderr)
            let file = String(bracketed.prefix(while: { $0 != "[" }))
            XCTAssertTrue(viaName.text.hasPrefix("wrote \(file): 780x122 px"), viaName.text)
            XCTAssertTrue(viaName.text.hasSuffix("bytes, \(detail)\n"), viaName.text)
            let viaFlags = try render(flags)
            XCTAssertEqual(viaFlags.status, 0, viaFlags.stderr)
            XCTAssertEqual(try bytes(file), try bytes(flags[1]), bracketed)
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent(bracketed).path))
        }
        // Lossless WebP is a VP8L stream; the lossy one is not.
        _ = try render(["--output", "l.webp[lossless]"])
        XCTAssertEqual(Array(try bytes("l.webp")[12..<16]), Array("VP8L".utf8))
        _ = try render(["--output", "q.webp"])
        XCTAssertNotEqual(Array(try bytes("q.webp")[12..<16]), Array("VP8L".utf8))
    }

    func testBadSaveOptionsAreUsageErrors() throws {
        let cases: [([String], String)] = [
            (["--output", "o.jpg[Q=60]", "--quality", "80"], "Q in 'o.jpg[Q=60]' and --quality 80 disagree; give the option once"),
            (["--output", "o.jpg[lossless]"], "lossless in 'o.jpg[lossless]' is for WebP (--format webp or a .webp output), not jpeg"),
            (["--output", "o.jpg[Q=600]"], "Q in 'o.jpg[Q=600]' must be a whole number from 1 to 100, not '600'"),
            (["--output", "o.webp[efort=3]"], "output 'o.webp[efort=3]': unknown save option 'efort'; did you mean 'effort'? "
                + "(known: Q, lossless, effort)"),
            (["--output", "o.webp[lossless,Q=50]"], "Q in 'o.webp[lossless,Q=50]' is for lossy WebP; lossless in "
                + "'o.webp[lossless,Q=50]' keeps every pixel, give one of them"),
            (["--output", "o.png", "--effort", "3"], "--effort is for WebP (--format webp or a .webp output), not png"),
        ]
        for (arguments, message) in cases {
            let run = try render(arguments)
            XCTAssertEqual(run.status, 64, arguments.joined(separator: " "))
            XCTAssertEqual(run.stderr, "creative-tool render: \(message)\nsee 'creative-tool render --help'\n")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }

    func testParsingKeepsBracketsThatAreNoSaveOptions() throws {
        XCTAssertEqual(try OutputName(parsing: "out[1].png").path, "out[1].png")
        XCTAssertEqual(try OutputName(parsing: "dir[x]/o.png").path, "dir[x]/o.png")
        let name = try OutputName(parsing: "a/o.webp[ effort=2 , lossless ]")
        XCTAssertEqual(name.path, "a/o.webp")
        XCTAssertEqual(name.saveOptions.map { "\($0.name)=\($0.text)" }, ["effort=2", "lossless=true"])
        XCTAssertThrowsError(try OutputName(parsing: "[Q=3]")) { error in
            XCTAssertTrue("\(error)".contains("names no file before '['"), "\(error)")
        }
        XCTAssertThrowsError(try OutputName(parsing: "o.jpg[Q=3,q=4]")) { error in
            XCTAssertTrue("\(error)".contains("twice"), "\(error)")
        }
    }

    /// `render --output new/dir/o.png` creates the folders, as `process --output-dir a/b/c` does;
    /// a render that fails creates none.
    func testRenderCreatesMissingParentFoldersOnlyWhenItWrites() throws {
        let run = try render(["--output", "new/dir/o.png"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(Array(try bytes("new/dir/o.png").prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        let failed = try Tool.run(["render", "missing.png", "--slot", "390x61", "--output", "other/o.png"], in: folder)
        XCTAssertEqual(failed.status, 74)
        XCTAssertTrue(failed.stderr.contains("file_not_found"), failed.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("other").path))
        let process = try Tool.run(["process", Tool.artwork960x150.path, "--output-dir", "p/q/r"], in: folder)
        XCTAssertEqual(process.status, 0, process.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("p/q/r/manifest.json").path))
    }
}
