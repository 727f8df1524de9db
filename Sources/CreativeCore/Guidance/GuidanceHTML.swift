/// A strip product's (a banner's) guidance as one self-contained HTML page: inline CSS, one small inline script (the Copy
/// buttons of the prompts, ``PromptSection``), no outside requests.
struct GuidanceHTML {
    let guidance: Guidance
    let prompts: [RenderedPrompt]
    /// Where the page links the test artwork (``GuidancePage/templatesSection(_:testArtworkBase:)``).
    let testArtworkBase: String?

    init(_ guidance: Guidance, prompts: [RenderedPrompt] = [], testArtworkBase: String? = nil) {
        self.guidance = guidance
        self.prompts = prompts
        self.testArtworkBase = testArtworkBase
    }

    static let upload = GuidancePage.Section(id: "upload", title: "Upload these")
    static let sizes = GuidancePage.Section(id: "sizes", title: "Accepted sizes")
    static let safeArea = GuidancePage.Section(id: "safe-area", title: "Safe area and text size")
    static let anchored = GuidancePage.Section(id: "anchored", title: "Anchored slots by device")
    static let inline = GuidancePage.Section(id: "inline", title: "Inline slots")

    static let style = """
    body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b2330;margin:0;background:#f6f8fb}
    main{max-width:1080px;margin:0 auto;padding:24px}
    h1{font-size:26px;margin:0 0 8px}h2{font-size:19px;margin:32px 0 8px}
    p.lead{color:#3b4656;max-width:70ch}
    table{border-collapse:collapse;width:100%;background:#fff;border:1px solid #d9dee7;font-size:14px}
    th,td{padding:6px 10px;border-bottom:1px solid #e7ebf1;text-align:left;white-space:nowrap}
    th{background:#eef2f8;font-weight:600}.num{text-align:right;font-variant-numeric:tabular-nums}
    .slot{display:inline-block;background:#d9dee7;vertical-align:middle;position:relative;height:14px;width:120px}
    .slot i{position:absolute;top:0;bottom:0;background:#0b3d91}
    .cards{display:flex;flex-wrap:wrap;gap:12px}.card{background:#fff;border:1px solid #d9dee7;padding:12px 16px;flex:1 1 280px}
    .card b{font-size:18px}.muted{color:#5b6676}
    @media (max-width:700px){main{padding:12px}}
    """ + PromptSection.style + GuidancePage.style

    func render() -> String {
        let product = guidance.product
        var html = Guidance.htmlHead(title: "\(product.title) artwork guidance", sections: [
            Self.upload, GuidancePage.templates, Self.sizes, Self.safeArea, Self.anchored, Self.inline,
        ], prompts: prompts)
        html += "<p class=\"lead\">\(TextFormat.markupEscaped(guidance.coverageNote))</p>\n"
        html += GuidancePage.heading(Self.upload) + "<div class=\"cards\">"
        for size in product.recommendedUploads {
            let entry = product.entry(for: size)
            html += "<div class=\"card\"><b>\(size) px</b><br><span class=\"muted\">\(BannerPrompt.aspectText(size)) · "
                + "\(TextFormat.markupEscaped(entry?.purpose ?? ""))</span><br>shown in \(guidance.slots(servedBy: size).count) "
                + "of \(guidance.anchored.count) device slots</div>"
        }
        html += "</div>\n" + GuidancePage.templatesSection(product, testArtworkBase: testArtworkBase)
        var table = "<table><tr><th>size (px)</th><th>class</th><th class=\"num\">aspect</th><th>what it is</th></tr>"
        for entry in product.entries {
            table += "<tr><td>\(entry.size)</td><td>\(entry.sizeClass.rawValue)</td><td class=\"num\">"
                + "\(BannerPrompt.aspectText(entry.size))</td><td>\(TextFormat.markupEscaped(entry.purpose))</td></tr>"
        }
        html += GuidancePage.heading(Self.sizes) + GuidancePage.scrolling(table + "</table>", label: Self.sizes.title)
            + GuidancePage.heading(Self.safeArea) + "<p class=\"lead\">\(TextFormat.markupEscaped(Guidance.safeAreaNote))</p>\n"
        table = "<table><tr><th>size (px)</th><th>safe area (x, y, width × height)</th><th class=\"num\">smallest text (px)</th></tr>"
        for entry in product.entries {
            let area = SafeArea(artwork: entry.size)
            let text = guidance.minTextPixels(for: entry.size).map(String.init) ?? "-"
            table += "<tr><td>\(entry.size)</td><td>\(area.x), \(area.y), \(area.width) × \(area.height)</td>"
                + "<td class=\"num\">\(text)</td></tr>"
        }
        html += GuidancePage.scrolling(table + "</table>", label: Self.safeArea.title)
            + GuidancePage.heading(Self.anchored) + "<p class=\"lead\">Slot height: <code>floor(width × 50 / 320)"
            + "</code>, 50 to 90 pt, at most 15% of the screen height. The bar shows where the artwork sits across the slot's width.</p>\n"
        html += GuidancePage.scrolling(slotTable(guidance.anchored), label: Self.anchored.title)
        html += GuidancePage.heading(Self.inline) + "<p class=\"lead\">\(TextFormat.markupEscaped(guidance.inlineNote)) Max height: "
            + "\(guidance.inlineMaxHeight) pt.</p>\n" + GuidancePage.scrolling(slotTable(guidance.inline), label: Self.inline.title)
        return html + Guidance.formatsHTMLTail()
    }

    private func slotTable(_ assignments: [SlotAssignment]) -> String {
        var html = "<table><tr><th>device</th><th>orientation</th><th>slot (pt)</th><th>scale</th><th>slot (px)</th>"
            + "<th>artwork</th><th>shown at (px)</th><th class=\"num\">fills</th><th></th></tr>"
        for assignment in assignments {
            let slot = assignment.deviceSlot
            let placement = assignment.placement
            let left = Double(placement.x) / Double(placement.canvas.width) * 100
            let width = Double(placement.content.width) / Double(placement.canvas.width) * 100
            html += "<tr><td>\(TextFormat.markupEscaped(slot.device.name))</td><td>\(slot.orientation.rawValue)</td>"
                + "<td>\(slot.slot.points)</td><td>@\(TextFormat.scale(slot.slot.scale))x</td><td>\(placement.canvas)</td>"
                + "<td>\(assignment.artwork)</td><td>\(UpscaledRender.shownText(assignment))</td>"
                + "<td class=\"num\">\(TextFormat.percent(placement.fillShare))</td>"
                + "<td><span class=\"slot\"><i style=\"left:\(Int(left.rounded()))%;width:\(Int(width.rounded()))%\"></i></span></td></tr>"
        }
        return html + "</table>"
    }
}
