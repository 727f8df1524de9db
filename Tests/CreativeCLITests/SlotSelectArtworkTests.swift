import CreativeCore
import Foundation
import XCTest

/// `slot`, `select`, `test-artwork`, help and version through the built binary.
final class SlotSelectArtworkTests: XCTestCase {
    func testSlotRules() throws {
        XCTAssertTrue(try Tool.run(["slot", "--width", "390"]).text.hasPrefix("390x60 pt"))
        let google = try Tool.run(["slot", "--width", "390", "--rule", "google"])
        XCTAssertTrue(google.text.hasPrefix("390x61 pt") && google.text.contains("estimate"), google.text)
        XCTAssertTrue(try Tool.run(["slot", "--width", "390", "--screen-height", "320"]).text.hasPrefix("390x50 pt"))
        let json = try Tool.run(["slot", "--width", "390", "--scale", "3", "--json"]).text
        XCTAssertTrue(json.contains("\"slot_points\":{\"width\":390,\"height\":60}")
                      && json.contains("\"slot_pixels\":{\"width\":1170,\"height\":180}"), json)
        let inline = try Tool.run(["slot", "--width", "390", "--inline", "--max-height", "10", "--json"]).text
        XCTAssertTrue(inline.contains("\"max_slot_points\":{\"width\":390,\"height\":32}")
                      && inline.contains("\"slot_points\":{\"width\":38,\"height\":32}"), inline)
        XCTAssertEqual(try Tool.run(["slot"]).status, 64)
        XCTAssertEqual(try Tool.run(["slot", "--width", "390", "--rule", "apple"]).status, 64)
    }

    func testSelectModes() throws {
        let sizes = ["960x150", "1320x204", "2184x270", "300x250"]
        let adaptive = try Tool.run(["select", "--width", "1170", "--height", "183"] + sizes + ["--json"])
        XCTAssertEqual(adaptive.status, 0, adaptive.stderr)
        XCTAssertTrue(adaptive.text.contains("\"winner\":{\"candidate\":\"960x150\""), adaptive.text)
        let inline = try Tool.run(["select", "--mode", "inline", "--width", "1170", "--height", "750"] + sizes)
        XCTAssertTrue(inline.text.contains("serves 300x250"), inline.text)
        let legacy = try Tool.run(["select", "--width", "1000"] + sizes)
        XCTAssertTrue(legacy.text.contains("legacy") && legacy.text.contains("serves 960x150"), legacy.text)
        let none = try Tool.run(["select", "--width", "1000", "--height", "100", "300x250"])
        XCTAssertEqual(none.status, 1)
        XCTAssertEqual(try Tool.run(["select", "--width", "1000", "--mode", "inline", "960x150"]).status, 64)
        XCTAssertEqual(try Tool.run(["select", "--width", "1000", "0x150"]).status, 64)
    }

    func testTestArtworkMatchesTheCommittedFiles() throws {
        let folder = try Tool.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Tool.run(["test-artwork", "--output-dir", folder.appendingPathComponent("art").path])
        XCTAssertEqual(run.status, 0, run.stderr)
        for size in ["960x150", "1320x204", "2184x270"] {
            let name = "test-artwork-\(size).png"
            let written = try Data(contentsOf: folder.appendingPathComponent("art/\(name)"))
            let committed = try Data(contentsOf: Tool.packageRoot.appendingPathComponent("TestImages/\(name)"))
            XCTAssertEqual(written, committed, name)
        }
        // --redraw draws them anew with this libvips (byte-identical only on the series that drew
        // the committed files: see TestArtworkTests).
        let redraw = try Tool.run(["test-artwork", "--redraw", "--output-dir", folder.appendingPathComponent("drawn").path])
        XCTAssertEqual(redraw.status, 0, redraw.stderr)
        for size in ["960x150", "1320x204", "2184x270"] {
            let drawn = try Data(contentsOf: folder.appendingPathComponent("drawn/test-artwork-\(size).png"))
            XCTAssertEqual(Array(drawn.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], size)
        }
    }

    func testHelpAndVersion() throws {
        let help = try Tool.run(["--help"])
        XCTAssertEqual(help.status, 0)
        for command in ["render", "slot", "select", "test-artwork"] { XCTAssertTrue(help.text.contains(command)) }
        XCTAssertTrue(try Tool.run(["render", "--help"]).text.contains("--no-enlarge"))
        // The version names the libvips in use and the file it was loaded from.
        let version = try Tool.run(["--version"]).text
        // The wheel's library is libvips-<hash>.so.42, the system's libvips.so.42.
        XCTAssertNotNil(version.range(of: #"^creative-tool \S+ \(libvips \d+\.\d+\.\d+, /\S*libvips(-[0-9a-f]+)?\.so\.42\S*\)\n$"#,
                                      options: .regularExpression), version)
        XCTAssertEqual(try Tool.run([]).status, 64)
    }
}
