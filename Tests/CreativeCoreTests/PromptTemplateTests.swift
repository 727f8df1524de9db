import Foundation
import XCTest
@testable import CreativeCore

/// The strings a user might type that look like template syntax, escapes or format specifiers.
let hostileTexts = [
    "{{headline}}", "}}{{", "{{", "}}", "{{#text}}", "{{/brand}}", "{{^cta}}x{{/cta}}", "{{! comment }}",
    "\"double\" and 'single' quotes", "line one\nline two\r\nline three", "back\\slash \\n \\u0041",
    "ünïcødé – 日本語 🚀 e\u{301}", "$1 $0 \\1 ${brand}", "%s %d %@ %n %%", "<b>&amp;</b>", "\t tab",
]

/// The template engine: literal insertion, sections, errors.
final class PromptTemplateTests: XCTestCase {
    private func render(_ template: String, _ values: [String: String]) throws -> String {
        try PromptTemplate(template).render(values)
    }

    func testValuesAreInsertedLiterallyAndNeverRescanned() throws {
        for hostile in hostileTexts {
            let out = try render("A{{brand}}B{{headline}}C", ["brand": hostile, "headline": "h"])
            XCTAssertEqual(out, "A" + hostile + "Bh" + "C", hostile)
        }
        // A value naming another placeholder stays the name, not that placeholder's value.
        XCTAssertEqual(try render("{{a}}|{{b}}", ["a": "{{b}}", "b": "B"]), "{{b}}|B")
        // A value that looks like a section does not open one.
        XCTAssertEqual(try render("{{a}}x{{b}}", ["a": "{{#b}}", "b": "{{/b}}"]), "{{#b}}x{{/b}}")
    }

    func testSectionsShowOnGivenOrMissingValues() throws {
        let template = "[{{#a}}has {{a}}{{/a}}{{^a}}none{{/a}}]"
        XCTAssertEqual(try render(template, ["a": "x"]), "[has x]")
        XCTAssertEqual(try render(template, ["a": ""]), "[none]")
        XCTAssertEqual(try render("{{#a}}{{#b}}ab{{/b}}{{^b}}a{{/b}}{{/a}}", ["a": "1", "b": ""]), "a")
        XCTAssertEqual(try render("{{#a}}{{#b}}ab{{/b}}{{/a}}", ["a": "", "b": "1"]), "")
    }

    func testTagLinesDisappearWhole() throws {
        let template = "one\n{{! a note }}\n  {{#a}}  \ntwo {{a}}\n{{/a}}\nthree"
        XCTAssertEqual(try render(template, ["a": "2"]), "one\ntwo 2\nthree")
        XCTAssertEqual(try render(template, ["a": ""]), "one\nthree")
        // A value alone on a line keeps its line; an inline section keeps the text around it.
        XCTAssertEqual(try render("{{a}}\nx {{#a}}y{{/a}} z\n", ["a": ""]), "\nx  z\n")
        XCTAssertEqual(try render("a\r\n{{#a}}\r\nb\r\n{{/a}}\r\n", ["a": "1"]), "a\r\nb\r\n")
    }

    func testPlaceholdersAreListedOnceInOrder() throws {
        XCTAssertEqual(try PromptTemplate.placeholders(in: "{{b}} {{#a}}{{b}}{{c}}{{/a}} {{^d}}{{/d}} {{! e }}"),
                       ["b", "a", "c", "d"])
        XCTAssertEqual(try PromptTemplate.placeholders(in: "no tags, a lone }} and { braces }"), [])
        XCTAssertEqual(try render("a lone }} stays", [:]), "a lone }} stays")
    }

    func testAMissingValueThrows() {
        XCTAssertThrowsError(try render("Hello {{name}}", [:])) { error in
            guard case CoreError.templateError(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("{{name}}"), message)
        }
        XCTAssertThrowsError(try render("{{#shown}}x{{/shown}}", [:])) { error in
            guard case .templateError? = error as? CoreError else { return XCTFail("\(error)") }
        }
    }

    func testUnusedValuesAreReported() throws {
        let template = try PromptTemplate("{{a}}{{#b}}{{/b}}")
        XCTAssertEqual(template.unusedNames(in: ["a": "", "b": "", "z": "", "c": ""]), ["c", "z"])
        XCTAssertEqual(template.unusedNames(in: ["a": "", "b": ""]), [])
    }

    func testMalformedTemplatesThrow() {
        for bad in ["{{", "x {{a", "{{}}", "{{ a }}", "{{a-b}}", "{{#}}", "{{a\n}}", "{{#a}}open",
                    "{{/a}}", "{{#a}}{{#b}}{{/a}}{{/b}}", "{{#a}}{{/b}}", "{{é}}"] {
            XCTAssertThrowsError(try PromptTemplate(bad), bad) { error in
                guard case CoreError.templateError = error else { return XCTFail("\(bad): \(error)") }
            }
        }
    }
}

/// The numbers of `prompt`, from the catalog and the device plan, and the shipped template.
final class BannerPromptTests: XCTestCase {
    static let templateURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Prompts/banner.txt")

    private func shippedTemplate() throws -> String {
        try String(contentsOf: Self.templateURL, encoding: .utf8)
    }

    /// Every way of giving or leaving out the user's text.
    private let textChoices: [(String?, String?, String?, String?)] = [
        (nil, nil, nil, nil), ("Acme", nil, nil, nil), (nil, "Fresh bread", nil, nil), (nil, nil, "Order", nil),
        ("Acme", "Fresh bread", "Order now", "navy and white"), ("  ", "\n", "", " "),
    ]

    func testTemplatePlaceholdersAreExactlyTheSuppliedValues() throws {
        let template = try shippedTemplate()
        let used = try PromptTemplate.placeholders(in: template)
        XCTAssertEqual(Set(used), Set(BannerPrompt.valueNames), "Prompts/banner.txt and BannerPrompt.valueNames differ")
        let parsed = try PromptTemplate(template)
        for entry in Product.banner.entries {
            let facts = try BannerPrompt.facts(for: entry.size, product: .banner)
            for (brand, headline, cta, colors) in textChoices {
                let values = BannerPrompt.values(for: facts, brand: brand, headline: headline, cta: cta, colors: colors)
                XCTAssertEqual(Set(values.keys), Set(BannerPrompt.valueNames))
                XCTAssertEqual(parsed.unusedNames(in: values), [])
                let text = try parsed.render(values)
                XCTAssertFalse(text.contains("{{") || text.contains("}}"), text)
                XCTAssertFalse(text.contains("\n\n\n"), "blank lines pile up:\n\(text)")
            }
        }
    }

    func testEveryAllowedSizeStatesItsPixelsAndAspect() throws {
        let template = try shippedTemplate()
        for entry in Product.banner.entries {
            let (w, h) = (entry.size.width, entry.size.height)
            let facts = try BannerPrompt.facts(for: entry.size, product: .banner)
            XCTAssertEqual(facts.size, entry.size)
            XCTAssertEqual(facts.aspect, String(format: "%.2f:1", Double(w) / Double(h)))
            let prompts = try BannerPrompt.render(template: template, size: entry.size, brand: "Acme",
                                                  headline: "Fresh", cta: "Buy", colors: nil, product: .banner)
            XCTAssertEqual(prompts.count, 1)
            let text = prompts[0].text
            XCTAssertTrue(text.contains("exactly \(w) x \(h) pixels"), text)
            XCTAssertTrue(text.contains("aspect ratio \(facts.aspect) (\(facts.ratio))"), text)
            XCTAssertTrue(text.contains("at least \(facts.minTextPixels) pixels tall"), text)
            XCTAssertTrue(text.contains("\(facts.safeArea.width) x \(facts.safeArea.height) pixel area"), text)
            XCTAssertFalse(text.hasSuffix("\n"))
        }
        XCTAssertEqual(Product.banner.entries.map { BannerPrompt.aspectText($0.size) },
                       ["6.40:1", "6.47:1", "8.09:1", "6.40:1", "3.20:1", "1.20:1", "7.80:1", "8.09:1"])
        XCTAssertEqual(Product.banner.recommendedUploads.map(BannerPrompt.ratioText), ["32:5", "110:17", "364:45"])
    }

    func testWithoutASizeThereIsOnePromptPerRetinaSize() throws {
        let prompts = try BannerPrompt.render(template: try shippedTemplate(), size: nil,
                                              brand: nil, headline: nil, cta: nil, colors: nil, product: .banner)
        XCTAssertEqual(prompts.map(\.size), Product.banner.recommendedUploads)
    }

    func testASizeOutsideTheCatalogIsRefused() {
        let size = PixelSize(width: 961, height: 150)
        XCTAssertThrowsError(try BannerPrompt.facts(for: size, product: .banner)) { error in
            XCTAssertEqual(error as? CoreError, .sizeNotAllowed(size, product: .banner))
        }
        XCTAssertThrowsError(try BannerPrompt.render(template: "x", size: size, brand: nil, headline: nil,
                                                     cta: nil, colors: nil, product: .banner))
    }

    func testSafeAreaLiesInsideTheArtwork() throws {
        for entry in Product.banner.entries {
            let (w, h) = (entry.size.width, entry.size.height)
            let area = try BannerPrompt.facts(for: entry.size, product: .banner).safeArea
            XCTAssertEqual(area, SafeArea(artwork: entry.size))
            XCTAssertGreaterThan(area.x, 0)
            XCTAssertGreaterThan(area.y, 0)
            XCTAssertGreaterThan(area.width, 0)
            XCTAssertGreaterThan(area.height, 0)
            XCTAssertEqual(area.x * 2 + area.width, w, "symmetric, \(entry.size)")
            XCTAssertEqual(area.y * 2 + area.height, h, "symmetric, \(entry.size)")
            XCTAssertGreaterThanOrEqual(area.x * 100, w * SafeArea.horizontalInsetPercent)
            XCTAssertGreaterThanOrEqual(area.y * 100, h * SafeArea.verticalInsetPercent)
            XCTAssertLessThan((area.x - 1) * 100, w * SafeArea.horizontalInsetPercent, "rounded up by less than a pixel")
        }
        XCTAssertEqual(SafeArea(artwork: PixelSize(width: 960, height: 150)).json.serialized(),
                       #"{"x":48,"y":15,"width":864,"height":120}"#)
    }

    func testMinimumTextHeightComesFromTheServingSlots() throws {
        for entry in Product.banner.entries {
            let facts = try BannerPrompt.facts(for: entry.size, product: .banner)
            XCTAssertGreaterThan(facts.minTextPixels, 0)
            XCTAssertFalse(facts.servedSlots.isEmpty)
            // Recomputed independently: on every serving slot, the letters are at least 9 points tall.
            let assignments = BannerPrompt.servingAssignments(for: entry.size, product: .banner)
            for assignment in assignments {
                let points = Double(facts.minTextPixels) * Double(assignment.placement.content.height)
                    / Double(entry.size.height) / assignment.deviceSlot.slot.scale
                XCTAssertGreaterThanOrEqual(points, 9 - 1e-9, "\(entry.size) on \(assignment.deviceSlot.identifier)")
            }
            if !assignments.isEmpty {
                // ... and one pixel less would be under 9 points somewhere.
                let tightest = assignments.map { Double(facts.minTextPixels - 1) * Double($0.placement.content.height)
                    / Double(entry.size.height) / $0.deviceSlot.slot.scale }.min() ?? 0
                XCTAssertLessThan(tightest, 9, "\(entry.size)")
            }
        }
        // Retina artwork: the smallest slot showing it (iPhone SE 320x50 pt for 960x150: 150 px in 50 pt).
        XCTAssertEqual(try Product.banner.recommendedUploads.map { try BannerPrompt.facts(for: $0, product: .banner).minTextPixels }, [27, 32, 49])
    }

    func testServingSlotsComeFromTheDevicePlan() throws {
        for size in Product.banner.recommendedUploads {
            let expected = DevicePlan.anchoredAssignments(candidates: Product.banner.recommendedUploads, product: .banner).filter { $0.artwork == size }
            XCTAssertEqual(BannerPrompt.servingAssignments(for: size, product: .banner), expected)
            XCTAssertEqual(BannerPrompt.servingAssignments(for: size, product: .banner), DevicePlan.assignments(for: size, campaign: Product.banner.recommendedUploads, product: .banner))
            XCTAssertFalse(expected.isEmpty, "\(size) serves no device slot")
        }
        let iphone14 = try BannerPrompt.facts(for: PixelSize(width: 1320, height: 204), product: .banner).servedSlots
        XCTAssertTrue(iphone14.contains("iPhone 14 portrait 390x60 pt"), "\(iphone14)")
        // 320x50 loses every slot to 960x150 (same proportions, sharper): its own slot stands in.
        XCTAssertEqual(try BannerPrompt.facts(for: PixelSize(width: 320, height: 50), product: .banner).servedSlots, ["320x50 pt slots"])
        XCTAssertEqual(try BannerPrompt.facts(for: PixelSize(width: 320, height: 50), product: .banner).minTextPixels, 9)
    }

    func testTheJSONFieldsAreInTheDocumentedOrder() throws {
        let prompt = try BannerPrompt.render(template: "P {{brand}}", size: PixelSize(width: 960, height: 150),
                                             brand: "A\"b", headline: nil, cta: nil, colors: nil, product: .banner)[0]
        XCTAssertEqual(prompt.json.serialized(),
                       #"{"product":"banner","artwork_pixels":{"width":960,"height":150},"aspect_ratio":6.4,"#
                       + #""safe_area_pixels":{"x":48,"y":15,"width":864,"height":120},"min_text_height_pixels":27,"#
                       + #""prompt":"P A\"b"}"#)
    }

    func testUserTextAppearsVerbatimAndOnlyWhereTheTemplateSaysSo() throws {
        let template = try shippedTemplate()
        let size = PixelSize(width: 1320, height: 204)
        let plain = try BannerPrompt.render(template: template, size: size, brand: "PLAINBRAND",
                                            headline: "PLAINHEAD", cta: "PLAINCTA", colors: "PLAINCOLORS", product: .banner)[0].text
        for hostile in hostileTexts {
            let text = try BannerPrompt.render(template: template, size: size, brand: hostile + "B",
                                               headline: hostile + "H", cta: hostile + "C",
                                               colors: hostile + "K", product: .banner)[0].text
            let back = text.replacing(hostile + "B", with: "PLAINBRAND").replacing(hostile + "H", with: "PLAINHEAD")
                .replacing(hostile + "C", with: "PLAINCTA").replacing(hostile + "K", with: "PLAINCOLORS")
            XCTAssertEqual(back, plain, hostile)
        }
        XCTAssertTrue(plain.contains("\"PLAINHEAD\"") && plain.contains("\"PLAINCTA\""), plain)
    }

    func testMissingTextIsWordedAway() throws {
        let template = try shippedTemplate()
        let bare = try BannerPrompt.render(template: template, size: PixelSize(width: 960, height: 150),
                                           brand: nil, headline: nil, cta: nil, colors: nil, product: .banner)[0].text
        XCTAssertTrue(bare.contains("No text at all"), bare)
        XCTAssertFalse(bare.contains(" for  ") || bare.contains("\"\"") || bare.contains("palette: ."), bare)
        let headlineOnly = try BannerPrompt.render(template: template, size: PixelSize(width: 960, height: 150),
                                                   brand: nil, headline: "Hi", cta: nil, colors: nil, product: .banner)[0].text
        XCTAssertTrue(headlineOnly.contains("\"Hi\"") && !headlineOnly.contains("call to action"), headlineOnly)
        XCTAssertFalse(headlineOnly.contains("No text at all"), headlineOnly)
    }
}
