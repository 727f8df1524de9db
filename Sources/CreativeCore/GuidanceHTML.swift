/// Guidance as one self-contained HTML page: inline CSS, one small inline script (the Copy
/// buttons of the prompts, ``PromptSection``), no outside requests.
struct GuidanceHTML {
    let guidance: Guidance
    let prompts: [RenderedPrompt]

    init(_ guidance: Guidance, prompts: [RenderedPrompt] = []) {
        self.guidance = guidance
        self.prompts = prompts
    }

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
    @media (max-width:700px){main{padding:12px}table{display:block;overflow-x:auto}}
    """ + PromptSection.style

    func render() -> String {
        var html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
            + "<title>Banner artwork guidance</title><style>\(GuidanceHTML.style)</style></head><body><main>\n"
        html += "<h1>Banner artwork guidance</h1>\n<p class=\"lead\">\(TextFormat.markupEscaped(Guidance.coverageNote))</p>\n"
        html += "<h2>Upload these</h2>\n<div class=\"cards\">"
        for size in Catalog.adaptiveSizes {
            let entry = Catalog.entry(for: size)
            html += "<div class=\"card\"><b>\(size) px</b><br><span class=\"muted\">\(BannerPrompt.aspectText(size)) · "
                + "\(TextFormat.markupEscaped(entry?.purpose ?? ""))</span><br>shown in \(guidance.slots(servedBy: size).count) "
                + "of \(guidance.anchored.count) device slots</div>"
        }
        html += "</div>\n<h2>Accepted sizes</h2>\n<table><tr><th>size (px)</th><th>class</th><th class=\"num\">aspect</th>"
            + "<th>what it is</th></tr>"
        for entry in Catalog.entries {
            html += "<tr><td>\(entry.size)</td><td>\(entry.sizeClass.rawValue)</td><td class=\"num\">"
                + "\(BannerPrompt.aspectText(entry.size))</td><td>\(TextFormat.markupEscaped(entry.purpose))</td></tr>"
        }
        html += "</table>\n<h2>Safe area and text size</h2>\n<p class=\"lead\">\(TextFormat.markupEscaped(Guidance.safeAreaNote))</p>\n"
            + "<table><tr><th>size (px)</th><th>safe area (x, y, width × height)</th><th class=\"num\">smallest text (px)</th></tr>"
        for entry in Catalog.entries {
            let area = SafeArea(artwork: entry.size)
            let text = guidance.minTextPixels(for: entry.size).map(String.init) ?? "-"
            html += "<tr><td>\(entry.size)</td><td>\(area.x), \(area.y), \(area.width) × \(area.height)</td>"
                + "<td class=\"num\">\(text)</td></tr>"
        }
        html += "</table>\n<h2>Anchored slots by device</h2>\n<p class=\"lead\">Slot height: <code>floor(width × 50 / 320)"
            + "</code>, 50 to 90 pt, at most 15% of the screen height. The bar shows where the artwork sits across the slot's width.</p>\n"
        html += table(guidance.anchored)
        html += "<h2>Inline slots</h2>\n<p class=\"lead\">\(TextFormat.markupEscaped(Guidance.inlineNote)) Max height: "
            + "\(guidance.inlineMaxHeight) pt.</p>\n" + table(guidance.inline)
        html += "<h2>Formats and weight</h2>\n<p class=\"lead\">\(TextFormat.markupEscaped(Guidance.formatsNote)) Keep files under "
            + "\(Catalog.weightGuidelineBytes / 1000) KB; files over 2 MiB are refused.</p>\n"
        return html + PromptSection(prompts).render() + "</main></body></html>\n"
    }

    private func table(_ assignments: [SlotAssignment]) -> String {
        var html = "<table><tr><th>device</th><th>orientation</th><th>slot (pt)</th><th>scale</th><th>slot (px)</th>"
            + "<th>artwork</th><th>shown at (px)</th><th class=\"num\">fills</th><th></th></tr>"
        for assignment in assignments {
            let slot = assignment.deviceSlot
            let placement = assignment.placement
            let left = Double(placement.x) / Double(placement.canvas.width) * 100
            let width = Double(placement.content.width) / Double(placement.canvas.width) * 100
            html += "<tr><td>\(TextFormat.markupEscaped(slot.device.name))</td><td>\(slot.orientation.rawValue)</td>"
                + "<td>\(slot.slot.points)</td><td>@\(TextFormat.scale(slot.slot.scale))x</td><td>\(placement.canvas)</td>"
                + "<td>\(assignment.artwork)</td><td>\(placement.content)</td>"
                + "<td class=\"num\">\(TextFormat.percent(placement.fillShare))</td>"
                + "<td><span class=\"slot\"><i style=\"left:\(Int(left.rounded()))%;width:\(Int(width.rounded()))%\"></i></span></td></tr>"
        }
        return html + "</table>\n"
    }
}
