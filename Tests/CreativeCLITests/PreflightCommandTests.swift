import CreativeCore
import Foundation
import CreativeTestSupport
import XCTest

/// The pre-flight warnings through the built binary: warnings only (exit 0), and
/// `--no-preflight` leaves them out.
final class PreflightCommandTests: ScratchFolderTestCase {
    func testPreflightWarningsKeepTheExitCodeAtZeroAndCanBeTurnedOff() throws {
        // One flat colour at an accepted size: valid, and mostly empty.
        let png = try Fixtures.save("pngsave_buffer", try Fixtures.solid(960, 150, [255, 255, 255]))
        try Data(png).write(to: folder.appendingPathComponent("white.png"))
        let run = try Tool.run(["validate", "--json", "white.png"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.text.contains(#""valid":true"#), run.text)
        XCTAssertTrue(run.text.contains(#""code":"mostly_empty""#), run.text)
        let human = try Tool.run(["validate", "white.png"], in: folder)
        XCTAssertEqual(human.status, 0)
        XCTAssertTrue(human.text.hasPrefix("white.png: valid (960x150, PNG"), human.text)
        XCTAssertTrue(human.text.contains("warning mostly_empty: the artwork is one flat colour"), human.text)

        let off = try Tool.run(["validate", "--json", "--no-preflight", "white.png"], in: folder)
        XCTAssertEqual(off.status, 0, off.stderr)
        XCTAssertTrue(off.text.contains(#""warnings":[]"#), off.text)
    }
}
