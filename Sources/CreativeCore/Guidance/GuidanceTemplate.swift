/// The pieces every product's HTML guidance page shares: its table of contents, tables that say
/// they scroll at narrow widths, and per recommended size a safe-area diagram (inline SVG) with
/// the same drawing as a downloadable template (an SVG file at the artwork's pixel size).
enum GuidancePage {
    /// A section of a page: its `id` (the link target) and its heading.
    struct Section {
        let id: String
        let title: String
    }

    /// The AI prompts' section (``PromptSection`` gives it this id).
    static let prompts = Section(id: "prompts", title: "AI prompts to copy")
    /// The diagrams, templates and test artwork.
    static let templates = Section(id: "templates", title: "Safe area, templates and test artwork")
    static let formats = Section(id: "formats", title: "Formats and weight")

    /// The table of contents: the prompts first (what designers copy; when the page has them),
    /// then the page's sections in order.
    static func contents(_ sections: [Section], withPrompts: Bool) -> String {
        let items = ((withPrompts ? [prompts] : []) + sections + [formats]).map { "<li><a href=\"#\($0.id)\">\(TextFormat.markupEscaped($0.title))</a></li>" }
        return "<nav class=\"toc\" aria-label=\"Contents\"><b>On this page</b><ol>\(items.joined())</ol></nav>\n"
    }

    /// A section's heading, the target of its link in the contents.
    static func heading(_ section: Section) -> String {
        "<h2 id=\"\(section.id)\">\(TextFormat.markupEscaped(section.title))</h2>\n"
    }

    /// A table in a box that scrolls sideways on its own (never the page), announced as such,
    /// with a visible hint at narrow widths.
    static func scrolling(_ table: String, label: String) -> String {
        "<p class=\"hint\">Scroll the table sideways for every column.</p>"
            + "<div class=\"scroll\" role=\"region\" tabindex=\"0\" aria-label=\"\(TextFormat.markupEscaped(label)) "
            + "(scrolls sideways)\">\(table)</div>\n"
    }

    /// The diagrams of a product's recommended uploads, each with its template download, and the
    /// test artwork: links under `testArtworkBase` (the service's `/v1/test-artwork/`), or the
    /// command that writes it when the page is a file.
    static func templatesSection(_ product: Product, testArtworkBase: String?) -> String {
        var html = heading(templates) + "<p class=\"lead\">Keep logos and text inside the dashed safe area"
            + (product.isFullScreen ? "; nothing tappable under the red close zone" : "")
            + ". Each template is an SVG at the artwork's pixel size with these guides: open it in a design tool "
            + "and draw over it.</p>\n<div class=\"diagrams\">"
        for size in product.recommendedUploads {
            html += "<figure class=\"diagram\">\(svg(size, product: product, standalone: false))<figcaption>\(size) px · "
                + "<a download=\"template-\(product.rawValue)-\(size).svg\" href=\"data:image/svg+xml,"
                + "\(percentEncoded(svg(size, product: product, standalone: true)))\">template \(size) (SVG)</a></figcaption></figure>"
        }
        html += "</div>\n"
        // The test artwork is the banner's, whatever the page's product.
        let artwork = Product.banner.recommendedUploads
        if let base = testArtworkBase {
            html += "<p>Test artwork (banners, the three Retina sizes): " + artwork.map {
                "<a download href=\"\(base)\($0).png\">\($0).png</a>"
            }.joined(separator: ", ") + ".</p>\n"
        } else {
            html += "<p>Test artwork (banners, \(artwork.map(\.description).joined(separator: ", "))): "
                + "<code>creative-tool test-artwork</code> writes it; the service serves it at "
                + "<code>/v1/test-artwork/960x150.png</code> and the like.</p>\n"
        }
        return html
    }

    /// The guides of one artwork size: its outline, the safe area dashed, the close zone (full-screen
    /// products) in red, and its size written in the middle. `standalone`: a file of its own
    /// (namespace, pixel width and height, a white ground); else scaled to the page's width.
    static func svg(_ size: PixelSize, product: Product, standalone: Bool) -> String {
        let area = SafeArea(artwork: size)
        let stroke = max(2, min(size.width, size.height) / 100)
        let font = max(12, min(size.height / 6, size.width / 12))
        var svg = "<svg viewBox=\"0 0 \(size.width) \(size.height)\" role=\"img\" aria-label=\"\(size) artwork: safe area "
            + "\(area.x), \(area.y), \(area.width) × \(area.height)\""
            + (standalone ? " xmlns=\"http://www.w3.org/2000/svg\" width=\"\(size.width)\" height=\"\(size.height)\">"
                : " class=\"guide\" preserveAspectRatio=\"xMinYMin meet\">")
        // The outline inside the artwork's edge, as wide on every side.
        svg += "<rect x=\"\(stroke)\" y=\"\(stroke)\" width=\"\(size.width - 2 * stroke)\" height=\"\(size.height - 2 * stroke)\" fill=\"\(standalone ? "#ffffff" : "#eef2f8")\" "
            + "stroke=\"#5b6676\" stroke-width=\"\(stroke * 2)\"/>"
            + "<rect x=\"\(area.x)\" y=\"\(area.y)\" width=\"\(area.width)\" height=\"\(area.height)\" fill=\"#dfe9f8\" "
            + "stroke=\"#0b3d91\" stroke-width=\"\(stroke)\" stroke-dasharray=\"\(stroke * 4) \(stroke * 2)\"/>"
        if product.isFullScreen, let zone = CloseButton.zone(for: size, product: product) {
            svg += "<rect x=\"\(zone.x)\" y=\"\(zone.y)\" width=\"\(zone.width)\" height=\"\(zone.height)\" fill=\"#f7d4d4\" "
                + "stroke=\"#a3140f\" stroke-width=\"\(stroke)\"/>"
        }
        svg += "<text x=\"\(size.width / 2)\" y=\"\(size.height / 2)\" text-anchor=\"middle\" dominant-baseline=\"middle\" "
            + "font-family=\"sans-serif\" font-size=\"\(font)\" fill=\"#1b2330\">\(size) safe area</text></svg>"
        return svg
    }

    /// Percent-encoding for a `data:` URL in a double-quoted attribute: letters, digits and a few
    /// harmless marks stay, everything else (quotes, `<`, `#`, `%`, `/`, spaces) is `%XX`.
    static func percentEncoded(_ text: String) -> String {
        let kept = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=,:;".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            if kept.contains(byte) { out.append(byte) } else { out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]] }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Styles of these pieces.
    static let style = """
    .toc{background:#fff;border:1px solid #d9dee7;padding:10px 16px;margin:12px 0}.toc ol{margin:6px 0 0;padding-left:22px;columns:2 240px}
    .toc a,.diagram a,p a{color:#0b3d91}a:focus-visible,.scroll:focus-visible{outline:3px solid #b35c00;outline-offset:2px}
    .scroll{overflow-x:auto;max-width:100%}.hint{display:none;color:#3b4656;font-size:14px;margin:4px 0}
    .diagrams{display:flex;flex-wrap:wrap;gap:12px}.diagram{margin:0;background:#fff;border:1px solid #d9dee7;padding:10px;flex:1 1 300px;min-width:0}
    svg.guide{display:block;width:100%;height:auto;max-height:320px}
    @media (max-width:700px){.hint{display:block}}
    """
}
