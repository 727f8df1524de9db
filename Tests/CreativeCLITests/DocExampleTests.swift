import Foundation
import XCTest

/// Every `$ creative-tool` line of docs/ and README.md, and every `--help` example, runs as
/// written and prints what is shown (scripts/check-examples.py: a pseudo-terminal, the files the
/// examples name, figures compared; it first proves it reports a changed figure).
final class DocExampleTests: XCTestCase {
    func testEveryExampleRunsAsShown() throws {
        let script = Tool.packageRoot.appendingPathComponent("scripts/check-examples.py").path
        let run = try Tool.run(["python3", script, Tool.binary.path], executable: URL(fileURLWithPath: "/usr/bin/env"),
                               timeout: 600)
        XCTAssertEqual(run.status, 0, run.text + run.stderr)
        let last = run.text.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(last.hasPrefix("examples: ") && last.hasSuffix(" ran as shown"), run.text)
        let counts = last.dropFirst("examples: ".count).split(separator: " ")
        XCTAssertEqual(counts.first, counts.dropFirst(2).first, "every example ran as shown: \(last)")
        XCTAssertGreaterThanOrEqual(Int(counts.first ?? "") ?? 0, 50, "the docs' and helps' examples were found")
    }
}
