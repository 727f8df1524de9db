@testable import CreativeBundle
import CreativeTestSupport
import XCTest

/// The counts taken before gumbo parses: exact on ordinary markup, and never below what gumbo
/// reads where a pre-scan cannot know the context (scripts, comments, quotes left open).
final class MarkupCensusTests: XCTestCase {
    private func census(_ html: String) -> MarkupCensus { MarkupCensus(Array(html.utf8)) }

    private func attributes(_ count: Int, prefix: String = "a") -> String {
        (0..<count).map { "\(prefix)\($0)" }.joined(separator: " ")
    }

    func testOrdinaryMarkupIsCountedExactly() {
        let ad = census(BundleCorpus.html())
        XCTAssertEqual(ad.attributesPerElement, 3, "<img src srcset alt>")
        XCTAssertEqual(ad.attributes, 10)
        XCTAssertEqual(ad.startTags, 9)
        let forms = census(#"<p a b=c d="e f>" g='h' i = j/><br/k/l><q m="1"n="2"o></q m>"#)
        XCTAssertEqual(forms.attributesPerElement, 5, "a, b, d, g, i")
        XCTAssertEqual(forms.attributes, 5 + 2 + 3 + 1, "an end tag's attributes are read too")
        XCTAssertEqual(census("<!doctype html><!-- a b c --><p>x = y</p> a < b").attributes, 0)
    }

    func testTagsAndBodiesMergeIntoOneElement() {
        let html = census("<html a b><body c><html d e f><BODY g><p h i j k>")
        XCTAssertEqual(html.attributesPerElement, 5, "the html element gets a, b, d, e, f")
        XCTAssertEqual(html.attributes, 11)
    }

    func testAttributesAreCountedWhateverContextHidesThemFromAPreScan() {
        let hidden = attributes(300)
        for html in [
            // gumbo ends the script at </script>; a reading that took the quote as a value's would skip the div.
            "<script>var s = \"<b x='\";</script><div \(hidden)></div>",
            "<!-- <p title=\" --><div \(hidden)></div>",
            "<style>a[title='<i x=\"'] {}</style><div \(hidden)>",
            "<textarea><b c=\"</textarea><div \(hidden)>\"</textarea>",
            "<p title='>'\(hidden)>",
            "<svg><style><b x=\"</style><div \(hidden)>\"",
        ] {
            let counted = census(html)
            XCTAssertGreaterThanOrEqual(counted.attributesPerElement, 300, html.prefix(60).debugDescription)
            XCTAssertGreaterThanOrEqual(counted.attributes, 300, html.prefix(60).debugDescription)
        }
    }

    func testTheFileTotalAddsUpEveryTag() {
        let html = String(repeating: "<p \(attributes(10))>", count: 50)
        XCTAssertEqual(census(html).attributes, 500)
        XCTAssertEqual(census(html).attributesPerElement, 10)
    }

    func testTheLimitsOfTheRules() throws {
        let atLimit = "<div \(attributes(BundleRules.maxAttributesPerElement))>"
        XCTAssertNoThrow(try HTMLDocument(bytes: Array(atLimit.utf8)))
        XCTAssertThrowsError(try HTMLDocument(bytes: Array("<div \(attributes(BundleRules.maxAttributesPerElement + 1))>".utf8))) { error in
            guard case .overLimit? = error as? HTMLRefusal else { return XCTFail("\(error)") }
        }
        let element = "<p \(attributes(200))>"
        let total = BundleRules.maxAttributesPerFile / 200
        XCTAssertNoThrow(try HTMLDocument(bytes: Array(String(repeating: element, count: total).utf8)))
        XCTAssertThrowsError(try HTMLDocument(bytes: Array(String(repeating: element, count: total + 1).utf8))) { error in
            guard case .overLimit? = error as? HTMLRefusal else { return XCTFail("\(error)") }
        }
    }

    func testFormattingTagsAreCountedWithTheirAttributes() {
        let ad = census("<a href=x target=_blank><b>t</b></a><strong class=y>z</strong><bx>")
        XCTAssertEqual(ad.formattingWeight, 3 + 1 + 2)
        XCTAssertEqual(ad.startTags, 4)
        XCTAssertEqual(ad.endTags, 3)
        XCTAssertEqual(ad.formattingCopies, 6 * 7)
        // Names read at once from different `<` are told apart: "s<strike" is no tag gumbo knows, "strike" is.
        XCTAssertEqual(census("<s<strike><st<tt></b><B/><nobrx>").formattingWeight, 3)
    }
}
