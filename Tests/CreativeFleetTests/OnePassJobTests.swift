import CreativeCore
import CreativeImaging
import CreativeTestSupport
@testable import CreativeFleet
import XCTest

/// One pass per job on the worker: an entry's source is opened, validated and decoded once
/// (``ProcessJobRunner`` runs `process`'s own job on the bytes it downloaded). Counted by
/// ``DecodeLedger``.
final class OnePassJobTests: XCTestCase {
    func testAWorkersJobOpensValidatesAndDecodesItsSourceOnce() throws {
        let gif = try Fixtures.save("gifsave_buffer", try Fixtures.solid(320, 50, [30, 90, 200]))
        let runner = ProcessJobRunner(limits: ValidationLimits(), defaults: ["format": "png"])
        let settings = try runner.settings(StreamEntry(id: "1-1", fields: [("source", "s3://creatives/a.gif")]))
        let before = DecodeLedger.current
        guard case .success(let output) = runner.run(.bytes(gif), source: "s3://creatives/a.gif", settings: settings) else {
            return XCTFail("the job failed")
        }
        XCTAssertTrue(output.valid)
        XCTAssertEqual(DecodeLedger.current.since(before), DecodeLedger.Counts(opens: 1, decodes: 1, validations: 1))
    }
}
