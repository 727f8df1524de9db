import CreativeCore
import CreativeImaging
import CreativeTestSupport
import XCTest
@testable import CreativeService

/// One pass per creative over HTTP: `/v1/process` opens, validates and decodes its upload once
/// (the charge's header read is the job's), and `/v1/campaign` each part once for its approval,
/// its render decoding it once more but the first's (it draws no sheet). Counted by ``DecodeLedger``.
final class OnePassRouteTests: XCTestCase {
    private func gif(_ width: Int, _ height: Int) throws -> [UInt8] {
        try Fixtures.save("gifsave_buffer", try Fixtures.solid(width, height, [30, 90, 200]))
    }

    /// `POST path` of `upload` on a fresh service: the answer, and what the job opened, decoded and validated.
    private func counted(_ path: String, _ upload: [UInt8]) throws -> (HTTPResult, DecodeLedger.Counts) {
        let server = try Fixture.server()
        defer { server.stop(grace: 5) }
        let before = DecodeLedger.current
        let answer = HTTPClient.request(server.port, "POST", path, body: upload)
        return (answer, DecodeLedger.current.since(before))
    }

    func testAProcessRequestOpensValidatesAndDecodesItsUploadOnce() throws {
        let (answer, counts) = try counted("/v1/process?format=png&inline=false&filename=a.gif", try gif(320, 50))
        XCTAssertEqual(answer.status, 200, answer.text)
        XCTAssertEqual(counts, DecodeLedger.Counts(opens: 1, decodes: 1, validations: 1))
    }

    /// A rejected upload's 422 carries the report its one validation made: a size the product
    /// refuses is opened and validated once, and never decoded.
    func testARejectedProcessRequestIsValidatedOnceAndNotDecoded() throws {
        let (answer, counts) = try counted("/v1/process?format=png&filename=a.gif", try gif(321, 50))
        XCTAssertEqual(answer.status, 422, answer.text)
        XCTAssertEqual(answer.errorCode, "dimensions_not_allowed")
        XCTAssertEqual(counts, DecodeLedger.Counts(opens: 1, decodes: 0, validations: 1))
    }

    func testACampaignRequestValidatesEachPartOnce() throws {
        let server = try Fixture.server()
        defer { server.stop(grace: 5) }
        let boundary = "one-pass-boundary"
        var body: [UInt8] = []
        for (name, bytes) in [("a.gif", try gif(320, 50)), ("b.gif", try gif(728, 90))] {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"creative\"; filename=\"\(name)\"\r\n".utf8)
            body += Array("Content-Type: image/gif\r\n\r\n".utf8) + bytes + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        let before = DecodeLedger.current
        let answer = HTTPClient.request(server.port, "POST", "/v1/campaign?format=png",
                                        headers: [("Content-Type", "multipart/form-data; boundary=\(boundary)")], body: body)
        XCTAssertEqual(answer.status, 200, answer.text)
        XCTAssertEqual((answer.json?["creatives"] as? [[String: Any]])?.map { $0["valid"] as? Bool }, [true, true])
        // Per part one open and one validation; the first part's strict decode is what its render
        // scales from, the second is decoded by its approval and by its render.
        XCTAssertEqual(DecodeLedger.current.since(before), DecodeLedger.Counts(opens: 2, decodes: 3, validations: 2))
    }
}
