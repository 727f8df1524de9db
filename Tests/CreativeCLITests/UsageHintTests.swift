import Foundation
import XCTest

/// A newcomer's near misses get the line meant, as a usage error (exit 64); the short flags
/// people expect work; `--quiet` leaves only the exit code.
final class UsageHintTests: ScratchFolderTestCase {
    private func assertUsage(_ arguments: [String], _ message: String, file: StaticString = #filePath,
                             line: UInt = #line) throws {
        let run = try Tool.run(arguments, stdin: [], in: folder)
        XCTAssertEqual(run.status, 64, run.stderr, file: file, line: line)
        XCTAssertEqual(run.stderr.split(separator: "\n").first.map(String.init), message, file: file, line: line)
        XCTAssertEqual(run.text, "", file: file, line: line)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "nothing written",
                       file: file, line: line)
    }

    func testNearMissesNameTheLineMeant() throws {
        try assertUsage(["help", "--format", "md"],
                        "creative-tool help: --format takes one of markdown, man, bash, zsh; did you mean 'markdown'?")
        try assertUsage(["render", "--slot", "390x61", "--background", "ff0000"], "creative-tool render: background "
                        + "'ff0000' is not '#rrggbb', a CSS colour name or 'transparent'; did you mean '#ff0000'?")
        try assertUsage(["render", "--slot", "390x61", "@3x"],
                        "creative-tool render: the scale goes with the slot, without a space: --slot 390x61@3x")
        try assertUsage(["render", "--slot", "390x61px"], "creative-tool render: --slot: '390x61px': drop the unit, "
                        + "write 390x61 (the option says whether it counts points or pixels)")
        try assertUsage(["render", "--slot", "390x61", "--scale", "3x"],
                        "creative-tool render: --scale takes the number alone: drop the 'x', write 3")
        try assertUsage(["render", "--slot", "390x61", "--format", "gif"],
                        "creative-tool render: --format must be one of png, jpeg, webp, avif, auto, not 'gif'")
        // A size of another product names the product, as validate's report does.
        try assertUsage(["prompt", "--size", "640x100"], "creative-tool prompt: --size: 640x100 is not an accepted size "
                        + "(it is a companion size: give --product companion, product=companion over HTTP); accepted: "
                        + "960x150, 1320x204, 2184x270, 320x50, 320x100, 300x250, 468x60, 728x90")
        try assertUsage(["prompt", "--size", "1080x1920"], "creative-tool prompt: --size: 1080x1920 is not an accepted size "
                        + "(it is an interstitial size: give --product interstitial, product=interstitial over HTTP); "
                        + "accepted: 960x150, 1320x204, 2184x270, 320x50, 320x100, 300x250, 468x60, 728x90")
        try assertUsage(["prompt", "--size", "961x150"], "creative-tool prompt: --size: 961x150 is not an accepted size; "
                        + "accepted: 960x150, 1320x204, 2184x270, 320x50, 320x100, 300x250, 468x60, 728x90")
        try assertUsage(["guidance", "--json"], "creative-tool guidance: unknown option --json; did you mean --format json?")
        try assertUsage(["render", "--interstitial"],
                        "creative-tool render: unknown option --interstitial; did you mean --product interstitial?")
        try assertUsage(["--versoin"], "creative-tool: unknown command '--versoin'; did you mean '--version'?")
        try assertUsage(["render", "--device", "iPhone", "15", "--output", "d.png"],
                        "creative-tool render: quote a device name with spaces: --device \"iPhone 15\"")
        try assertUsage(["slot", "--device", "iPad", "Air"],
                        "creative-tool slot: quote a device name with spaces: --device \"iPad Air\"")
    }

    func testShortFlagsAreTheLongOnes() throws {
        let version = try Tool.run(["-v"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.text.hasPrefix("creative-tool 0."), version.text)
        XCTAssertEqual(try Tool.run(["render", "-h"]).text, try Tool.run(["render", "--help"]).text)
        let render = try Tool.run(["render", "--slot", "390x61", "-o", "s.png", "-v"], stdin: [], in: folder)
        XCTAssertEqual(render.status, 0, render.stderr)
        XCTAssertTrue(render.text.hasPrefix("wrote s.png: 390x61 px"), render.text)
        XCTAssertTrue(render.stderr.contains("creative-tool render: time: "), render.stderr)
        let process = try Tool.run(["process", Tool.artwork960x150.path, "-o", "job", "-q"], in: folder)
        XCTAssertEqual(process.status, 0, process.stderr)
        XCTAssertEqual(process.text, "")
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("job/manifest.json").path))
        let help = try Tool.run(["render", "--help"]).text
        XCTAssertTrue(help.contains("\n  -o, --output PATH|-   "), help)
        XCTAssertTrue(help.contains("\n  -q, --quiet "), help)
    }

    func testQuietLeavesTheExitCode() throws {
        let render = try Tool.run(["render", "--slot", "390x61", "--output", "q.png", "--quiet"], stdin: [], in: folder)
        XCTAssertEqual(render.status, 0)
        XCTAssertEqual(render.text + render.stderr, "", "no note, no 'wrote' line")
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("q.png").path))
        let valid = try Tool.run(["validate", "--quiet", Tool.artwork960x150.path])
        XCTAssertEqual(valid.status, 0)
        XCTAssertEqual(valid.text + valid.stderr, "")
        let rejected = try Tool.run(["validate", "-q", folder.appendingPathComponent("q.png").path])
        XCTAssertEqual(rejected.status, 1)
        XCTAssertEqual(rejected.text + rejected.stderr, "")
        let json = try Tool.run(["validate", "-q", "--json", Tool.artwork960x150.path])
        XCTAssertTrue(json.text.hasPrefix("{"), "--json is asked for: printed")
    }
}
