import CreativeCore
import Foundation
import XCTest
@testable import CreativeService

/// A fill share is rounded one way on every output: the sheet and preview page (Swift) and the
/// try-it page (its `pct`, reading the JSON's four decimals) show the same percentage.
final class FillRoundingTests: XCTestCase {
    func testTheSharesPercentIsTheJSONsFourDecimalsRoundedHalfUp() {
        XCTAssertEqual(JSONValue.double(0.97849).serialized(), "0.9785")
        XCTAssertEqual(TextFormat.percent(0.97849, decimals: 1), "97.9%", "from 0.9785, as the try-it page reads it")
        XCTAssertEqual(TextFormat.percent(0.9785, decimals: 1), "97.9%")
        XCTAssertEqual(TextFormat.percent(0.97844, decimals: 1), "97.8%")
        XCTAssertEqual(TextFormat.percent(0.97849), "97.85%")
        XCTAssertEqual(TextFormat.percent(1, decimals: 1), "100.0%")
        XCTAssertEqual(TextFormat.percent(0.99951, decimals: 0), "100%")
        XCTAssertEqual(TextFormat.percent(0.0004, decimals: 1), "0.0%")
    }

    /// The try-it page's own `pct`, run by Node on the JSON text of each share, against Swift's.
    func testTheTryItPageRoundsAsTheSheetDoes() throws {
        let node = ["/usr/bin/node", "/usr/local/bin/node"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let node else { throw XCTSkip("no node to run the page's script") }
        let source = TryItPage.script
        let start = try XCTUnwrap(source.range(of: "function pct(x){"))
        let end = try XCTUnwrap(source.range(of: "}\n", range: start.upperBound..<source.endIndex))
        let pct = String(source[start.lowerBound..<end.upperBound])
        let shares = [0.97849, 0.97851, 0.9785, 0.12345, 0.5, 0.99951, 0.0004, 0.333333, 0.666666, 0.7121, 0.97845]
            + (0..<200).map { Double($0) / 199.0 }
        let values = shares.map { JSONValue.double($0).serialized() }.joined(separator: ",")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: node)
        process.arguments = ["-e", pct + "console.log(JSON.stringify([\(values)].map(pct)))"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let shown = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String])
        XCTAssertEqual(shown, shares.map { TextFormat.percent($0, decimals: 1) })
    }
}
