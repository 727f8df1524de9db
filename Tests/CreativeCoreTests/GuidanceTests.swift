import Foundation
import CreativeTestSupport
import XCTest
@testable import CreativeCore

/// `creative-tool guidance`: the JSON document, the Markdown and HTML pages, and agreement with
/// the slot rule, the selection rule and the prompt facts, re-derived here from the tables of docs/reference.md.
final class GuidanceTests: XCTestCase {
    // MARK: Independent data (docs/reference.md, "Accepted artwork" and the device table of "process")

    /// The catalog in its documented order.
    private let catalogOrder = ["960x150", "1320x204", "2184x270", "320x50", "320x100", "300x250", "468x60", "728x90"]
    private let retina = ["960x150", "1320x204", "2184x270"]

    /// Portrait points and scale of every device, in table order.
    private let deviceTable: [(width: Int, height: Int, scale: Double)] = [
        (320, 568, 2), (375, 667, 2), (390, 844, 3), (393, 852, 3), (414, 896, 2), (428, 926, 3), (430, 932, 3),
        (744, 1133, 2), (810, 1080, 2), (820, 1180, 2), (834, 1194, 2), (1024, 1366, 2),
        (360, 800, 3), (412, 915, 2.625),
    ]

    /// The qartvelo rule with the screen-height cap, written out again from docs/reference.md, "render", "slot" and "select".
    private func anchoredHeight(width: Int, screenHeight: Int) -> Int {
        let raw = min(max(width * 50 / 320, 50), 90)
        let cap = Int((0.15 * Double(screenHeight)).rounded(.down))
        return max(min(raw, cap), 50)
    }

    private func pixels(_ points: Int, _ scale: Double) -> Int { Int((Double(points) * scale).rounded()) }

    private struct Expected {
        let points: (Int, Int)
        let scale: Double
        let pixels: (Int, Int)
        let orientation: String
    }

    /// Every anchored slot: device by device, portrait then landscape.
    private var expectedAnchored: [Expected] {
        deviceTable.flatMap { device in
            [("portrait", device.width, device.height), ("landscape", device.height, device.width)].map { name, w, h in
                let height = anchoredHeight(width: w, screenHeight: h)
                return Expected(points: (w, height), scale: device.scale,
                                pixels: (pixels(w, device.scale), pixels(height, device.scale)), orientation: name)
            }
        }
    }

    /// The adaptive rule written out again: least `|ln(ratio / slot ratio)|`, ties to the wider.
    private func closestRetina(width: Int, height: Int) -> String {
        let slot = Double(width) / Double(height)
        let scored = retina.map { name -> (String, Double, Int) in
            let size = parse(name)
            return (name, abs(log(Double(size.0) / Double(size.1) / slot)), size.0)
        }
        return scored.min { a, b in abs(a.1 - b.1) > 1e-9 ? a.1 < b.1 : a.2 > b.2 }!.0
    }

    private func parse(_ text: String) -> (Int, Int) {
        let parts = text.split(separator: "x").map { Int($0)! }
        return (parts[0], parts[1])
    }

    /// Aspect fit of docs/reference.md, "render", "slot" and "select": content size and offsets.
    private func fit(_ source: (Int, Int), into canvas: (Int, Int)) -> (width: Int, height: Int, x: Int, y: Int) {
        let scale = min(Double(canvas.0) / Double(source.0), Double(canvas.1) / Double(source.1))
        let width = max(1, Int((Double(source.0) * scale).rounded()))
        let height = max(1, Int((Double(source.1) * scale).rounded()))
        return (width, height, (canvas.0 - width) / 2, (canvas.1 - height) / 2)
    }

    private func document() throws -> [String: Any] {
        let text = Guidance(product: .banner).render(.json)
        XCTAssertTrue(text.hasSuffix("}\n"))
        XCTAssertEqual(text.filter { $0 == "\n" }.count, 1, "one line")
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    private func slots(_ document: [String: Any], _ section: String) throws -> [[String: Any]] {
        let object = try XCTUnwrap(document[section] as? [String: Any])
        return try XCTUnwrap(object["slots"] as? [[String: Any]])
    }

    // MARK: JSON

    func testJSONDocumentShape() throws {
        let doc = try document()
        XCTAssertEqual(doc["schema_version"] as? Int, JSONContract.schemaVersion)
        XCTAssertEqual(doc["tool_version"] as? String, BuildInfo.version)
        XCTAssertEqual(Array(doc.keys).sorted(), ["anchored", "coverage", "formats", "inline", "product", "schema_version",
                                                  "sizes", "tool_version"])
        XCTAssertEqual(doc["product"] as? String, "banner", "every product's guidance names it")
        let sizes = try XCTUnwrap(doc["sizes"] as? [[String: Any]])
        XCTAssertEqual(sizes.map { $0.sizeText("size_pixels") }, catalogOrder)
        for size in sizes {
            let name = try XCTUnwrap(size.sizeText("size_pixels"))
            let (w, h) = parse(name)
            XCTAssertEqual(size["size_pixels"] as? [String: Int], ["width": w, "height": h])
            XCTAssertEqual(size["size_class"] as? String, retina.contains(name) ? "adaptive" : "standard")
            XCTAssertEqual(size["shape"] as? String, name == "300x250" ? "rectangle" : "strip")
            // Safe area: 5% left and right, 10% top and bottom, rounded up to whole pixels.
            let area = try XCTUnwrap(size["safe_area_pixels"] as? [String: Int], name)
            let x = (w * 5 + 99) / 100, y = (h * 10 + 99) / 100
            XCTAssertEqual(area, ["x": x, "y": y, "width": w - 2 * x, "height": h - 2 * y], name)
            let minText = try XCTUnwrap(size["min_text_height_pixels"] as? Int, name)
            XCTAssertGreaterThan(minText, 0, name)
            XCTAssertLessThan(minText, h, name)
        }
        let coverage = try XCTUnwrap(doc["coverage"] as? [String: Any])
        XCTAssertEqual((coverage["recommended_upload_pixels"] as? [Any])?.map(JSONShapes.size), retina)
        let anchoredObject = try XCTUnwrap(doc["anchored"] as? [String: Any])
        XCTAssertEqual(anchoredObject["rule"] as? String, "qartvelo")
        let formats = try XCTUnwrap(doc["formats"] as? [String: Any])
        XCTAssertEqual(formats["accepted"] as? [String], ["png", "jpeg", "gif", "webp"])
        XCTAssertEqual(formats["static_only"] as? Bool, true)
        XCTAssertEqual(formats["max_file_bytes"] as? Int, 2 * 1024 * 1024)
        XCTAssertEqual(formats["max_pixel_count"] as? Int, 50_000_000)
        XCTAssertEqual(formats["weight_guideline_bytes"] as? Int, 153_600)
    }

    func testAnchoredSlotsFollowTheSlotRuleSelectionAndAspectFit() throws {
        let doc = try document()
        let anchored = try slots(doc, "anchored")
        let expected = expectedAnchored
        XCTAssertEqual(anchored.count, 28, "14 devices x 2 orientations")
        XCTAssertEqual(Set(anchored.map { "\($0["device"] ?? "")/\($0["orientation"] ?? "")" }).count, 28)
        for (slot, want) in zip(anchored, expected) {
            let label = "\(slot["device"] ?? "?") \(slot["orientation"] ?? "?")"
            XCTAssertEqual(slot["orientation"] as? String, want.orientation, label)
            XCTAssertEqual(slot["slot_mode"] as? String, "anchored", label)
            XCTAssertEqual(slot.sizeText("slot_points"), "\(want.points.0)x\(want.points.1)", label)
            XCTAssertEqual(slot["scale"] as? Double, want.scale, label)
            XCTAssertEqual(slot.sizeText("slot_pixels"), "\(want.pixels.0)x\(want.pixels.1)", label)
            let artwork = try XCTUnwrap(slot.sizeText("artwork_pixels"), label)
            XCTAssertTrue(retina.contains(artwork), "\(label): \(artwork)")
            // The selection rule, both as written here and as the library runs it for `select`.
            XCTAssertEqual(artwork, closestRetina(width: want.pixels.0, height: want.pixels.1), label)
            let result = try Selection.select(Product.banner.recommendedUploads, mode: .anchored,
                                              width: want.pixels.0, height: want.pixels.1, product: .banner)
            XCTAssertEqual(Product.banner.recommendedUploads[result.winner].description, artwork, label)
            // Where it lands and how much it fills.
            let placed = fit(parse(artwork), into: want.pixels)
            XCTAssertEqual(slot.sizeText("content_pixels"), "\(placed.width)x\(placed.height)", label)
            XCTAssertEqual(slot.position("content_position_pixels")?[0], placed.x, label)
            XCTAssertEqual(slot.position("content_position_pixels")?[1], placed.y, label)
            let share = try XCTUnwrap(slot["fill_share"] as? Double, label)
            XCTAssertGreaterThan(share, 0, label)
            XCTAssertLessThanOrEqual(share, 1, label)
            XCTAssertEqual(share, Double(placed.width * placed.height) / Double(want.pixels.0 * want.pixels.1),
                           accuracy: 0.00006, label)
            XCTAssertEqual(try XCTUnwrap(slot["letterbox_share"] as? Double) + share, 1, accuracy: 0.0002, label)
        }
        // Device names in table order, each portrait then landscape.
        XCTAssertEqual(anchored.map { $0["device"] as? String },
                       Devices.all.flatMap { [$0.name, $0.name] })
        // Every Retina size serves at least one slot, and the counts add up.
        let sizes = try XCTUnwrap(doc["sizes"] as? [[String: Any]])
        var served = 0
        for size in sizes {
            let name = try XCTUnwrap(size.sizeText("size_pixels"))
            let count = anchored.filter { $0.sizeText("artwork_pixels") == name }.count
            XCTAssertEqual(size["served_slot_count"] as? Int, count, name)
            if retina.contains(name) { XCTAssertGreaterThan(count, 0, name) }
            served += count
        }
        XCTAssertEqual(served, 28)
    }

    func testInlineSlotsPickTheBiggestShownAmongTheRetinaSizesAndTheRectangle() throws {
        let doc = try document()
        let inline = try slots(doc, "inline")
        let inlineObject = try XCTUnwrap(doc["inline"] as? [String: Any])
        XCTAssertEqual(inlineObject["max_height_points"] as? Int, 250)
        XCTAssertEqual(inline.count, 28)
        // The upload set guidance assumes for inline slots: the Retina sizes and 300x250.
        let all = ["960x150", "1320x204", "2184x270", "300x250"].map(parse).map { PixelSize(width: $0.0, height: $0.1) }
        for (slot, device) in zip(inline, deviceTable.flatMap { [($0.width, $0.scale), ($0.height, $0.scale)] }) {
            let label = "\(slot["device"] ?? "?") \(slot["orientation"] ?? "?")"
            XCTAssertEqual(slot["slot_mode"] as? String, "inline", label)
            let box = (pixels(device.0, device.1), pixels(250, device.1))
            let artwork = try XCTUnwrap(slot.sizeText("artwork_pixels"), label)
            XCTAssertTrue(catalogOrder.contains(artwork), label)
            let result = try Selection.select(all, mode: .inline, width: box.0, height: box.1, product: .banner)
            XCTAssertEqual(all[result.winner].description, artwork, label)
            // The view is exactly as tall as the fitted ad.
            let fitted = fit(parse(artwork), into: box)
            XCTAssertEqual(slot.sizeText("slot_pixels"), "\(box.0)x\(fitted.height)", label)
            let share = try XCTUnwrap(slot["fill_share"] as? Double, label)
            XCTAssertGreaterThan(share, 0, label)
            XCTAssertLessThanOrEqual(share, 1, label)
        }
    }

    /// The prompt states the slots and the smallest text size the guidance implies.
    func testPromptFactsAgreeWithGuidance() throws {
        let doc = try document()
        let anchored = try slots(doc, "anchored")
        let sizes = try XCTUnwrap(doc["sizes"] as? [[String: Any]])
        for name in retina {
            let (w, h) = parse(name)
            let facts = try BannerPrompt.facts(for: PixelSize(width: w, height: h), product: .banner)
            let serving = anchored.filter { $0.sizeText("artwork_pixels") == name }
            XCTAssertEqual(facts.servedSlots, serving.map {
                "\($0["device"] as? String ?? "") \($0["orientation"] as? String ?? "") \($0.sizeText("slot_points") ?? "") pt"
            }, name)
            // ceil(9 pt x artwork height / shown height in points), the worst serving slot.
            let needed = try serving.map { slot -> Int in
                let content = parse(try XCTUnwrap(slot.sizeText("content_pixels")))
                let scale = try XCTUnwrap(slot["scale"] as? Double)
                return Int((9 * Double(h) / (Double(content.1) / scale) - 1e-9).rounded(.up))
            }
            let entry = sizes.first { $0.sizeText("size_pixels") == name }
            XCTAssertEqual(entry?["min_text_height_pixels"] as? Int, needed.max(), name)
            XCTAssertEqual(facts.minTextPixels, needed.max(), name)
            XCTAssertEqual(facts.aspect, BannerPrompt.aspectText(PixelSize(width: w, height: h)), name)
        }
    }

    // MARK: Markdown

    func testMarkdownHasTheHeadingsAndOneRowPerDeviceSlot() throws {
        let guidance = Guidance(product: .banner)
        let markdown = guidance.render(.markdown)
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let headings = lines.filter { $0.hasPrefix("#") }
        XCTAssertEqual(headings, ["# Banner artwork guidance", "## Accepted sizes", "## Safe area and text size",
                                  "## Anchored slots by device", "## Inline slots", "## Formats and weight"])
        /// Table rows (without the header and the rule) between a heading and the next.
        func rows(after heading: String) -> [[String]] {
            guard let start = lines.firstIndex(of: heading) else { return [] }
            let section = lines[(start + 1)...].prefix { !$0.hasPrefix("#") }
            return section.filter { $0.hasPrefix("|") }.dropFirst(2).map { line in
                line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                    .map { $0.trimmingCharacters(in: .whitespaces) }
            }
        }
        XCTAssertEqual(rows(after: "## Accepted sizes").map { $0[0] }, catalogOrder)
        XCTAssertEqual(rows(after: "## Safe area and text size").map { $0[0] }, catalogOrder)
        let anchored = rows(after: "## Anchored slots by device")
        XCTAssertEqual(anchored.count, 28)
        for (row, assignment) in zip(anchored, guidance.anchored) {
            XCTAssertEqual(row.count, 8)
            XCTAssertEqual(row[0], assignment.deviceSlot.device.name)
            XCTAssertEqual(row[1], assignment.deviceSlot.orientation.rawValue)
            XCTAssertEqual(row[4], assignment.placement.canvas.description)
            XCTAssertEqual(row[5], assignment.artwork.description)
            XCTAssertEqual(row[6], assignment.placement.content.description)
            let percent = Double(row[7].dropLast()) ?? -1
            XCTAssertEqual(percent, assignment.placement.fillShare * 100, accuracy: 0.005 + 1e-9, row[7])
        }
        XCTAssertEqual(rows(after: "## Inline slots").count, 28)
        XCTAssertTrue(markdown.hasSuffix("\n"))
    }

    // MARK: HTML

    func testEscape() {
        XCTAssertEqual(TextFormat.markupEscaped("<b>Tom & \"Jerry's\"</b>"),
                       "&lt;b&gt;Tom &amp; &quot;Jerry&#39;s&quot;&lt;/b&gt;")
        XCTAssertEqual(TextFormat.markupEscaped("&amp;"), "&amp;amp;")
        XCTAssertEqual(TextFormat.markupEscaped("plain · text"), "plain · text")
    }

    func testHTMLIsOneSelfContainedPage() throws {
        let html = Guidance(product: .banner).render(.html)
        let lower = html.lowercased()
        XCTAssertTrue(lower.hasPrefix("<!doctype html>"))
        XCTAssertTrue(lower.hasSuffix("</html>\n"))
        for forbidden in ["<script", "http://", "https://", "//", "src=", "<link", "<img", "<iframe",
                          "@import", "url(", "javascript:"] {
            // `//` alone would also catch protocol-relative URLs.
            XCTAssertFalse(lower.contains(forbidden), "contains \(forbidden)")
        }
        // Links go to the page's own sections or are templates written into the page itself.
        let links = html.components(separatedBy: " href=\"").dropFirst().map { $0.components(separatedBy: "\"")[0] }
        XCTAssertEqual(links.filter { $0.hasPrefix("data:image/svg+xml,") }.count, 3, "a template per Retina size")
        for link in links { XCTAssertTrue(link.hasPrefix("#") || link.hasPrefix("data:image/svg+xml,"), link) }
        for target in links.filter({ $0.hasPrefix("#") }) { XCTAssertTrue(html.contains(" id=\"\(target.dropFirst())\""), target) }
        XCTAssertEqual(lower.components(separatedBy: "<style>").count, 2, "one inline style sheet")
        XCTAssertTrue(lower.contains("</style>"))
        XCTAssertTrue(lower.contains("<meta charset=\"utf-8\">"))
        // Every `&` starts an entity: text is escaped.
        var rest = Substring(html)
        while let amp = rest.firstIndex(of: "&") {
            let tail = rest[amp...]
            XCTAssertTrue(["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"].contains { tail.hasPrefix($0) },
                          String(tail.prefix(20)))
            rest = rest[rest.index(after: amp)...]
        }
        // `<` only opens tags (a letter, `/` or `!` follows).
        var scan = Substring(html)
        while let open = scan.firstIndex(of: "<") {
            let next = scan[scan.index(after: open)...].first
            XCTAssertTrue(next.map { $0.isLetter || $0 == "/" || $0 == "!" } ?? false,
                          String(scan[open...].prefix(20)))
            scan = scan[scan.index(after: open)...]
        }
        // Tables balance and have one row per slot (plus the header).
        for tag in ["table", "tr", "td", "th", "p", "h2", "div"] {
            let opened = lower.components(separatedBy: "<\(tag)>").count + lower.components(separatedBy: "<\(tag) ").count - 2
            XCTAssertEqual(opened, lower.components(separatedBy: "</\(tag)>").count - 1, tag)
        }
        let tables = html.components(separatedBy: "<table>").dropFirst().map { $0.components(separatedBy: "</table>")[0] }
        XCTAssertEqual(tables.map { $0.components(separatedBy: "<tr>").count - 1 }, [9, 9, 29, 29])
        // Notes with quotes come out escaped, not raw.
        XCTAssertTrue(html.contains(TextFormat.markupEscaped(Guidance.safeAreaNote)))
        XCTAssertTrue(Guidance.safeAreaNote.contains("\""))
        XCTAssertFalse(html.contains(Guidance.safeAreaNote))
    }
}
