import CreativeCore
import CreativeImaging
import Foundation
import XCTest
@testable import CreativeService

/// Hostile input 4: the Content-Security-Policy of the pages and of every other answer.
final class PagePolicyTests: XCTestCase {
    // 4. The guidance page allows exactly its own style sheet, style attributes and Copy script
    // (it had no policy). The other answers are never pages: nosniff, and no policy that would
    // bind a document embedding a fetched guidance page.
    func testPagesCarryAStrictPolicy() throws {
        let server = try Fixture.server()
        defer { server.stop(grace: 1) }
        let page = HTTPClient.request(server.port, "GET", "/v1/guidance?format=html&brand=Acme%20%3Cb%20style%3D%22x%22%3E")
        XCTAssertEqual(page.status, 200)
        let policy = try XCTUnwrap(page.headers["content-security-policy"])
        let directives = policy.components(separatedBy: "; ")
        XCTAssertEqual(directives.first, "default-src 'none'")
        for part in ["base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"] { XCTAssertTrue(directives.contains(part), part) }
        XCTAssertFalse(policy.contains("unsafe-inline"), policy)
        XCTAssertFalse(policy.contains("'self'"), "the page loads nothing: \(policy)")
        // Each hash recomputed from the page: its one script, its one style sheet, each style attribute.
        let text = page.text
        let script = text.components(separatedBy: "<script>")[1].components(separatedBy: "</script>")[0]
        let style = text.components(separatedBy: "<style>")[1].components(separatedBy: "</style>")[0]
        XCTAssertTrue(directives.contains("script-src \(TryItPage.cspHash(script))"), policy)
        let styleSources = try XCTUnwrap(directives.first { $0.hasPrefix("style-src ") })
        XCTAssertTrue(styleSources.hasPrefix("style-src \(TryItPage.cspHash(style)) 'unsafe-hashes' "), styleSources)
        let attributes = text.components(separatedBy: " style=\"").dropFirst().map { $0.components(separatedBy: "\"")[0] }
        XCTAssertGreaterThan(attributes.count, 10)
        for value in attributes { XCTAssertTrue(styleSources.contains(TryItPage.cspHash(value)), value) }
        XCTAssertFalse(styleSources.contains(TryItPage.cspHash("x")), "user text is escaped, never an attribute")
        XCTAssertEqual(page.headers["referrer-policy"], "no-referrer")
        for path in ["/v1/guidance", "/v1/guidance?format=markdown", "/healthz", "/v1/test-artwork/960x150.png", "/nowhere"] {
            let answer = HTTPClient.request(server.port, "GET", path)
            XCTAssertEqual(answer.headers["x-content-type-options"], "nosniff", path)
            XCTAssertFalse(answer.headers["content-type"]?.hasPrefix("text/html") ?? true, path)
        }
    }
}
