import XCTest
@testable import CreativeCore

/// Splitting trafficking parameters, the URL reader and key suggestions.
final class TraffickingParametersTests: XCTestCase {
    func testSplitsOnCommasAndTheFirstEquals() {
        let parameters = TraffickingParameters("a=1,url=https://x.example/p?a=b&c=d=e,,b,=c,a=2, a=3")
        XCTAssertEqual(parameters.segmentCount, 7)
        XCTAssertEqual(parameters.entries.map(\.key), ["a", "url", "a", " a"])
        XCTAssertEqual(parameters.value("url"), "https://x.example/p?a=b&c=d=e")
        XCTAssertEqual(parameters.value("a"), "1")
        XCTAssertEqual(parameters.entry(" a")?.segment, 7)
        XCTAssertEqual(parameters.malformed, [
            .init(segment: 3, text: "", reason: .empty), .init(segment: 4, text: "b", reason: .noEquals),
            .init(segment: 5, text: "=c", reason: .emptyKey),
        ])
        XCTAssertEqual(parameters.duplicates, [.init(key: "a", segments: [1, 6])])
        XCTAssertEqual(TraffickingParameters("k=").value("k"), "")
        XCTAssertEqual(TraffickingParameters("").malformed.map(\.reason), [.empty])
        XCTAssertEqual(TraffickingParameters("é=ü,ß").entries.map(\.value), ["ü"])
    }

    func testDollarLists() {
        XCTAssertEqual(TraffickingParameters.list("a$b"), ["a", "b"])
        XCTAssertEqual(TraffickingParameters.list("$b$"), ["", "b", ""])
        XCTAssertEqual(TraffickingParameters.list(""), [""])
    }

    func testInputChecks() {
        XCTAssertEqual(TraffickingInput.read(Array("a=b\n".utf8)), .text("a=b"))
        XCTAssertEqual(TraffickingInput.read(Array("a=b\n\n".utf8)), .text("a=b\n"))
        XCTAssertEqual(TraffickingInput.read(Array("a=b\r\n".utf8)), .text("a=b"))
        XCTAssertEqual(TraffickingInput.read([0x61, 0x00]), .problem(.nul(offset: 1)))
        XCTAssertEqual(TraffickingInput.read([0x61, 0x62, 0xFF]), .problem(.invalidUTF8(offset: 2)))
        XCTAssertEqual(TraffickingInput.read([0xC0, 0xAF]), .problem(.invalidUTF8(offset: 0)))  // overlong '/'
        XCTAssertEqual(TraffickingInput.read([UInt8](repeating: 0x61, count: TraffickingInput.maxBytes + 1)),
                       .problem(.tooLarge(bytes: TraffickingInput.maxBytes + 1)))
        XCTAssertEqual(TraffickingInput.read([UInt8](repeating: 0x61, count: TraffickingInput.maxBytes)),
                       .text(String(repeating: "a", count: TraffickingInput.maxBytes)))
    }

    private func url(_ text: String) -> URLReference? {
        if case .url(let url) = URLReference.read(text) { return url }
        return nil
    }

    func testURLReaderAcceptsAbsoluteURLs() throws {
        let url = try XCTUnwrap(url("HTTPS://user:pw@cdn.example.com:8443/a/b.png?x=1&y=a=b#frag"))
        XCTAssertEqual(url.scheme, "https")
        XCTAssertEqual(url.host, "cdn.example.com")
        XCTAssertEqual(url.port, 8443)
        XCTAssertTrue(url.isHTTP)
        XCTAssertNil(url.unencoded)
        XCTAssertEqual(self.url("http://[2001:db8::1]:80/")?.host, "2001:db8::1")
        XCTAssertEqual(self.url("http://a.example%2Ecom/")?.host, "a.example%2Ecom")
        XCTAssertEqual(self.url("myapp:open?id=1")?.scheme, "myapp")
        XCTAssertNil(self.url("myapp:open?id=1")?.host)
        XCTAssertEqual(self.url("myapp://deals")?.isHTTP, false)
        XCTAssertEqual(self.url("https://bücher.example/")?.unencoded, "ü")
        XCTAssertEqual(self.url("https://a.example/{x}")?.unencoded, "{")
    }

    func testURLReaderRefusals() {
        let refused: [(String, URLReference.Problem)] = [
            ("", .empty), ("https://a.example/a b", .whitespace(position: 20)), ("https://a.example/\t", .whitespace(position: 19)),
            ("https://a.example/\u{7}", .control(position: 19)), ("https://a.example/\u{85}", .whitespace(position: 19)),
            ("cdn.example.com/a.png", .noScheme), ("//cdn.example.com/a.png", .noScheme), ("/a:b", .noScheme),
            ("1http://a.example", .noScheme), (":x", .noScheme), ("https:a.example", .noHost),
            ("https:///a", .noHost), ("http://:80/", .noHost), ("https://a.example/%zz", .badPercent(position: 19)),
            ("https://a.example/%4", .badPercent(position: 19)), ("https://a<b.example/", .badHost("a<b.example")),
            ("http://[zz]/", .badHost("zz")), ("http://[::1/", .badHost("[::1")), ("http://[::1]x/", .badHost("[::1]x")),
            ("https://a.example:99999/", .badPort("99999")), ("https://a.example:8x/", .badPort("8x")),
        ]
        for (text, problem) in refused {
            XCTAssertEqual(URLReference.read(text), .problem(problem), text)
        }
    }

    func testURLRules() throws {
        let http = try XCTUnwrap(url("http://a.example"))
        XCTAssertEqual(URLRule.http.check("http://a.example"), .usable(http))
        XCTAssertEqual(URLRule.http.check("javascript:alert(1)"),
                       .rejected(code: .urlSchemeNotAllowed, reason: "must be an HTTP or HTTPS URL, not a 'javascript:' URL"))
        XCTAssertEqual(URLRule.https.check("http://a.example"),
                       .rejected(code: .urlSchemeNotAllowed, reason: "must be an HTTPS URL, not a 'http:' URL"))
        XCTAssertEqual(URLRule.destination.check("tel:+15551234"), .usable(try XCTUnwrap(url("tel:+15551234"))))
        XCTAssertEqual(URLRule.destination.check("no scheme"),
                       .rejected(code: .invalidURL, reason: URLReference.Problem.whitespace(position: 3).reason))
    }

    func testKeySuggestions() {
        let known = CompanionLint.sharedKeys + CompanionLint.customCTAKeys + CompanionLint.carouselKeys
        XCTAssertEqual(KeySuggestion.nearest(to: "bannertitle", in: known), "bannerTitle")
        XCTAssertEqual(KeySuggestion.nearest(to: "banner_title", in: known), "bannerTitle")
        XCTAssertEqual(KeySuggestion.nearest(to: "ctaURL", in: known), "ctaUrl")
        XCTAssertEqual(KeySuggestion.nearest(to: "ICON", in: known), "icon")
        XCTAssertEqual(KeySuggestion.nearest(to: "carousel_image", in: known), "carousel_images")
        XCTAssertEqual(KeySuggestion.nearest(to: "campain", in: known), "campaign")
        XCTAssertEqual(KeySuggestion.nearest(to: "campaign_name", in: known), "campaign name")
        XCTAssertNil(KeySuggestion.nearest(to: "utm_source", in: known))
        XCTAssertNil(KeySuggestion.nearest(to: "", in: known))
        XCTAssertEqual(KeySuggestion.editDistance(Array("kitten".unicodeScalars), Array("sitting".unicodeScalars), limit: 3), 3)
        XCTAssertNil(KeySuggestion.editDistance(Array("kitten".unicodeScalars), Array("sitting".unicodeScalars), limit: 2))
        XCTAssertEqual(KeySuggestion.editDistance([], Array("ab".unicodeScalars), limit: 2), 2)
        // Two neighbours swapped are one edit; a short word is not taken for another short word.
        let formats = ["png", "jpeg", "webp", "avif", "auto"]
        XCTAssertEqual(KeySuggestion.editDistance(Array("pgn".unicodeScalars), Array("png".unicodeScalars), limit: 2), 1)
        XCTAssertEqual(KeySuggestion.nearest(to: "pgn", in: formats), "png")
        XCTAssertEqual(KeySuggestion.nearest(to: "jpge", in: formats), "jpeg")
        XCTAssertEqual(KeySuggestion.nearest(to: "webb", in: formats), "webp")
        XCTAssertNil(KeySuggestion.nearest(to: "gif", in: formats))
        XCTAssertNil(KeySuggestion.nearest(to: "tif", in: formats))
        XCTAssertNil(KeySuggestion.nearest(to: "bmp", in: formats))
    }
}
