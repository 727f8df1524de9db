import Foundation
import XCTest
@testable import CreativeCore

/// The guidance page's prompt section: one prompt per accepted size with a Copy button, placeholders
/// marked, user text escaped, and the page's text equal to the prompt character for character.
final class GuidancePromptsTests: XCTestCase {
    private func template() throws -> String { try String(contentsOf: BannerPromptTests.templateURL, encoding: .utf8) }

    private func prompts(_ product: Product = .banner, brand: String? = nil, headline: String? = nil,
                         cta: String? = nil, colors: String? = nil) throws -> [RenderedPrompt] {
        try product.entries.flatMap { entry in
            try BannerPrompt.render(template: template(), size: entry.size, brand: brand, headline: headline, cta: cta,
                                    colors: colors, product: product, placeholders: true)
        }
    }

    /// The text of each `<pre>` as a browser reads it: tags dropped, entities decoded, the line
    /// break right after `<pre>` dropped.
    private func preTexts(_ html: String) -> [String: String] {
        var texts: [String: String] = [:]
        for part in html.components(separatedBy: "<pre id=\"").dropFirst() {
            let id = String(part.prefix { $0 != "\"" })
            var body = part.components(separatedBy: "</pre>")[0]
            body = String(body[body.index(after: body.firstIndex(of: ">")!)...])
            XCTAssertTrue(body.hasPrefix("\n"))
            body.removeFirst()
            body = body.replacingOccurrences(of: "<mark>", with: "").replacingOccurrences(of: "</mark>", with: "")
            XCTAssertFalse(body.contains("<"), "only <mark> inside a prompt")
            for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&#13;", "\r"), ("&amp;", "&")] {
                body = body.replacingOccurrences(of: entity, with: character)
            }
            texts[id] = body
        }
        return texts
    }

    func testEveryAcceptedSizeHasItsPromptAndACopyButton() throws {
        for product in [Product.banner, .interstitial] {
            let list = try prompts(product)
            XCTAssertEqual(list.map(\.size), product.entries.map(\.size))
            let html = Guidance(product: product).render(.html, prompts: list)
            let texts = preTexts(html)
            XCTAssertEqual(texts.count, product.entries.count)
            for prompt in list {
                let id = "prompt-\(prompt.size)"
                XCTAssertEqual(texts[id], prompt.text, id)
                XCTAssertTrue(html.contains("<button type=\"button\" class=\"copy\" data-copy=\"\(id)\" hidden "
                                            + "aria-label=\"Copy the \(prompt.size) px prompt\">Copy</button>"))
                XCTAssertTrue(html.contains("<span class=\"status\" role=\"status\" id=\"\(id)-status\"></span>"))
            }
            let lower = html.lowercased()
            XCTAssertEqual(lower.components(separatedBy: "<script>").count, 2, "one inline script")
            XCTAssertEqual(lower.components(separatedBy: "<script").count, 2, "no script with src")
            for forbidden in ["http://", "https://", "//", "src=", "<link", "<img", "<iframe", "@import", "url(",
                              "fetch(", "xmlhttprequest", "innerhtml"] {
                XCTAssertFalse(lower.contains(forbidden), "contains \(forbidden)")
            }
            // Links only to the page's own sections and to the templates written into it.
            for link in html.components(separatedBy: " href=\"").dropFirst().map({ $0.components(separatedBy: "\"")[0] }) {
                XCTAssertTrue(link.hasPrefix("#") || link.hasPrefix("data:image/svg+xml,"), link)
            }
        }
        XCTAssertFalse(Guidance(product: .banner).render(.html).contains("<script"), "no prompts, no script")
        XCTAssertFalse(Guidance(product: .banner).render(.markdown, prompts: try prompts()).contains("AI prompts"))
    }

    func testPlaceholdersAreMarkedAndGivenTextIsNot() throws {
        let open = try prompts()[0]
        for (_, text) in BannerPrompt.placeholders { XCTAssertTrue(open.text.contains(text), text) }
        XCTAssertEqual(open.pieces.filter(\.isPlaceholder).map(\.name), ["brand", "colors", "brand", "headline", "cta"])
        XCTAssertTrue(open.text.contains("- headline: \"[headline]\""), "the text sections stay in")

        let filled = try prompts(brand: "Acme", headline: "[headline]", cta: "Go", colors: "navy")[0]
        XCTAssertFalse(filled.pieces.contains(where: \.isPlaceholder), "typed text is never a placeholder")
        XCTAssertEqual(filled.text, try BannerPrompt.render(template: template(), size: filled.size, brand: "Acme",
                                                            headline: "[headline]", cta: "Go", colors: "navy", product: .banner)[0].text,
                       "filled in, the prompt is the `prompt` command's")
        let html = Guidance(product: .banner).render(.html, prompts: [filled])
        XCTAssertEqual(html.components(separatedBy: "<mark>").count - 1, 0,
                       "every text given: nothing is marked, not even in the explanation")
    }

    func testHostileTextIsEscapedAndCopiesAsTyped() throws {
        let brand = "<img src=x onerror=alert(1)> & \"Kuku's\"\r\n</pre><script>"
        let headline = "{{cta}} \r line"
        let list = try prompts(brand: brand, headline: headline)
        let html = Guidance(product: .banner).render(.html, prompts: list)
        XCTAssertFalse(html.contains("<img"))
        XCTAssertEqual(html.components(separatedBy: "<script").count, 2)
        XCTAssertEqual(html.components(separatedBy: "</pre>").count - 1, list.count)
        let texts = preTexts(html)
        for prompt in list {
            XCTAssertEqual(texts["prompt-\(prompt.size)"], prompt.text)
            XCTAssertTrue(prompt.text.contains(brand))
            XCTAssertTrue(prompt.text.contains("\"\(headline)\""))
        }
    }

    func testThePageAsksToReplaceOnlyThePlaceholdersLeft() throws {
        let open = Guidance(product: .banner).render(.html, prompts: try prompts())
        XCTAssertTrue(open.contains("Copy it, and replace <mark>[brand]</mark>, <mark>[headline]</mark>, "
                                    + "<mark>[call to action]</mark>, <mark>[colours]</mark> where they are marked. "), open)
        let branded = Guidance(product: .banner).render(.html, prompts: try prompts(brand: "Bakery Kuku"))
        XCTAssertTrue(branded.contains("Copy it, and replace <mark>[headline]</mark>, <mark>[call to action]</mark>, "
                                       + "<mark>[colours]</mark> where they are marked. "), branded)
        XCTAssertFalse(branded.contains("[brand]"), "--brand was given: nothing asks for it")
        let one = Guidance(product: .banner).render(.html, prompts: try prompts(brand: "Kuku", headline: "Fresh bread", cta: "Order now"))
        XCTAssertTrue(one.contains("Copy it, and replace <mark>[colours]</mark> where it is marked. "), one)
        let full = Guidance(product: .banner).render(.html, prompts: try prompts(brand: "Kuku", headline: "Fresh bread", cta: "Order now",
                                                                 colors: "navy"))
        XCTAssertTrue(full.contains("Copy it as it is: it holds every text you gave. "), full)
        XCTAssertFalse(full.contains("<mark>"))
    }
}
