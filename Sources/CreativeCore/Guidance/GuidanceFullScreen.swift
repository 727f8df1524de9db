/// Guidance for a full-screen product (interstitials): its sizes with their safe area and close
/// zone, the close button, and what every device and orientation shows. JSON, Markdown and HTML
/// are built from the same rows.
struct FullScreenGuidance: ProductGuidance {
    let guidance: Guidance
    let prompts: [RenderedPrompt]
    /// Where the HTML page links the test artwork (``GuidancePage/templatesSection(_:testArtworkBase:)``).
    var testArtworkBase: String?

    static let fitNote = "The ad is presented full screen. The artwork is shown whole (aspect fit, never stretched or "
        + "cropped) and centred in the screen's safe area, clear of the notch, Dynamic Island, home indicator and "
        + "system bars; the rest of the screen is letterbox. A portrait screen shows portrait artwork and a landscape "
        + "screen landscape artwork, the one closest in proportions to the safe area (ties in catalog order); with only "
        + "one orientation uploaded, it is letterboxed into the other."
    static var closeNote: String {
        "The close button appears after 2 seconds in the top-right corner of the safe area: a "
            + "\(CloseButton.sizePoints)x\(CloseButton.sizePoints) pt square (the MRAID close region), "
            + "\(CloseButton.insetPoints) pt from the safe area's top and right edges. Where the artwork reaches that corner the "
            + "button covers it: keep text and logos out of each size's close zone (artwork pixels, the union over every "
            + "device and orientation that shows the size)."
    }

    /// The slots that show a size.
    func slots(showing size: PixelSize) -> [SlotAssignment] { guidance.fullScreen.filter { $0.artwork == size } }

    var json: JSONValue {
        .object([
            ("product", .string(product.rawValue)),
            ("sizes", .array(product.entries.map { entry in
                .object(entry.jsonFields + [
                    ("orientation", .string(entry.size.height > entry.size.width ? "portrait" : "landscape")),
                    ("aspect_ratio", .double(entry.size.aspectRatio)),
                    ("purpose", .string(entry.purpose)),
                    ("served_slot_count", .int(slots(showing: entry.size).count)),
                    ("safe_area_pixels", SafeArea(artwork: entry.size).json),
                    ("close_zone_pixels", CloseButton.zone(over: slots(showing: entry.size)).map(\.json) ?? .null),
                    ("min_text_height_pixels", guidance.minTextPixels(for: entry.size).map { .int($0) } ?? .null),
                ])
            })),
            ("recommended_upload_pixels", .array(product.recommendedUploads.map(\.json))),
            ("fit", .object([("rule", .string(product.selectionRule.rawValue)), ("note", .string(Self.fitNote))])),
            ("close_button", .object([
                ("size_points", .int(CloseButton.sizePoints)),
                ("inset_points", .int(CloseButton.insetPoints)),
                ("corner", .string("top_right_of_safe_area")),
                ("appears_after_seconds", .int(2)),
                ("note", .string(Self.closeNote)),
            ])),
            ("slots", .array(guidance.fullScreen.map { assignment in
                .object(assignment.jsonFields + [
                    ("artwork_pixels", assignment.artwork.json),
                    ("letterbox_share", .double(1 - assignment.placement.fillShare)),
                    ("close_button_pixels", CloseButton.square(in: assignment.deviceSlot).json),
                ])
            })),
            ("formats", Guidance.formatsJSON),
        ])
    }

    private func zoneText(_ size: PixelSize) -> String {
        CloseButton.zone(over: slots(showing: size)).map { "\($0.x), \($0.y), \($0.width)x\($0.height)" } ?? "none"
    }

    private func insetsText(_ insets: Insets) -> String {
        "\(insets.top)/\(insets.left)/\(insets.bottom)/\(insets.right)"
    }

    func markdown() -> String {
        var lines: [String] = [
            "# \(product.title) artwork guidance", "", Self.fitNote, "",
            "## Accepted sizes", "",
            "| size (px) | class | aspect | what it is | safe area (x, y, width x height) | close zone (x, y, width x height) | slots served |",
            "|---|---|---|---|---|---|---|",
        ]
        for entry in product.entries {
            let area = SafeArea(artwork: entry.size)
            lines.append("| \(entry.size) | \(entry.sizeClass.rawValue) | \(BannerPrompt.aspectText(entry.size)) | \(entry.purpose) | "
                         + "\(area.x), \(area.y), \(area.width)x\(area.height) | \(zoneText(entry.size)) | "
                         + "\(slots(showing: entry.size).count) |")
        }
        lines += ["", "## Close button", "", Self.closeNote, "",
                  "## Screens by device", "",
                  "| device | orientation | screen (pt) | insets (pt, top/left/bottom/right) | safe area (pt) | scale | screen (px) | artwork shown | shown at (px) | fills |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        for assignment in guidance.fullScreen {
            let slot = assignment.deviceSlot
            lines.append("| \(slot.device.name) | \(slot.orientation.rawValue) | \(slot.screenPoints) | \(insetsText(slot.insets)) | "
                         + "\(slot.slot.points) | @\(TextFormat.scale(slot.slot.scale))x | \(assignment.placement.canvas) | "
                         + "\(assignment.artwork) | \(UpscaledRender.shownText(assignment)) | \(TextFormat.percent(assignment.placement.fillShare)) |")
        }
        lines += Guidance.formatsMarkdown
        return lines.joined(separator: "\n")
    }

    func html() -> String {
        let title = "\(product.title) artwork guidance"
        let sizes = GuidancePage.Section(id: "sizes", title: "Accepted sizes")
        let close = GuidancePage.Section(id: "close", title: "Close button")
        let screens = GuidancePage.Section(id: "screens", title: "Screens by device")
        var html = Guidance.htmlHead(title: title, sections: [sizes, GuidancePage.templates, close, screens], prompts: prompts)
        html += "<p class=\"lead\">\(TextFormat.markupEscaped(Self.fitNote))</p>\n"
        html += GuidancePage.heading(sizes)
        var table = "<table><tr><th>size (px)</th><th>class</th><th class=\"num\">aspect</th>"
            + "<th>what it is</th><th>safe area (x, y, width × height)</th><th>close zone (x, y, width × height)</th>"
            + "<th class=\"num\">slots served</th></tr>"
        for entry in product.entries {
            let area = SafeArea(artwork: entry.size)
            table += "<tr><td>\(entry.size)</td><td>\(entry.sizeClass.rawValue)</td><td class=\"num\">"
                + "\(BannerPrompt.aspectText(entry.size))</td><td>\(TextFormat.markupEscaped(entry.purpose))</td>"
                + "<td>\(area.x), \(area.y), \(area.width) × \(area.height)</td><td>\(zoneText(entry.size))</td>"
                + "<td class=\"num\">\(slots(showing: entry.size).count)</td></tr>"
        }
        html += GuidancePage.scrolling(table + "</table>", label: sizes.title)
            + GuidancePage.templatesSection(product, testArtworkBase: testArtworkBase)
            + GuidancePage.heading(close) + "<p class=\"lead\">\(TextFormat.markupEscaped(Self.closeNote))</p>\n"
            + GuidancePage.heading(screens)
        table = "<table><tr><th>device</th><th>orientation</th><th>screen (pt)</th>"
            + "<th>insets (pt, top/left/bottom/right)</th><th>safe area (pt)</th><th>scale</th><th>screen (px)</th>"
            + "<th>artwork</th><th>shown at (px)</th><th class=\"num\">fills</th></tr>"
        for assignment in guidance.fullScreen {
            let slot = assignment.deviceSlot
            table += "<tr><td>\(TextFormat.markupEscaped(slot.device.name))</td><td>\(slot.orientation.rawValue)</td>"
                + "<td>\(slot.screenPoints)</td><td>\(insetsText(slot.insets))</td><td>\(slot.slot.points)</td>"
                + "<td>@\(TextFormat.scale(slot.slot.scale))x</td><td>\(assignment.placement.canvas)</td>"
                + "<td>\(assignment.artwork)</td><td>\(UpscaledRender.shownText(assignment))</td>"
                + "<td class=\"num\">\(TextFormat.percent(assignment.placement.fillShare))</td></tr>"
        }
        return html + GuidancePage.scrolling(table + "</table>", label: screens.title) + Guidance.formatsHTMLTail()
    }
}
