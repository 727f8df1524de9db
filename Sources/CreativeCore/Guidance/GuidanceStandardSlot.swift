/// Guidance for a product with a fixed standard slot per device class (companions): its sizes,
/// the slot rule, the selection rule, and what the standard slot of every device shows. JSON,
/// Markdown and HTML are built from the same rows.
struct StandardSlotGuidance: ProductGuidance {
    let guidance: Guidance
    let prompts: [RenderedPrompt]
    /// Where the HTML page links the test artwork (``GuidancePage/templatesSection(_:testArtworkBase:)``).
    var testArtworkBase: String?

    /// The slot per device class, for people: `phone 320x50 pt, tablet 728x90 pt`.
    var slotText: String {
        [DeviceClass.phone, .tablet].compactMap { deviceClass in
            product.standardSlotPoints[deviceClass].map { "\(deviceClass.rawValue) \($0) pt" }
        }.joined(separator: ", ")
    }

    var slotNote: String {
        "Every device has one fixed slot for its class (\(slotText)) at the device's scale, the same in portrait and "
            + "landscape. Upload \(product.recommendedUploads.map(\.description).joined(separator: " and ")): together "
            + "they fill every slot of the table without upscaling."
    }

    static let fitNote = "For each slot the ad server picks the approved artwork whose aspect ratio is closest to the "
        + "slot's (|ln(r/r')|); among equally close, the sharpest that needs no upscaling (the smallest that is at least "
        + "the slot's pixel size), else the largest; then catalog order. It is shown whole (aspect fit): never stretched, "
        + "never cropped; the rest of the slot is letterbox."

    /// The slots that show a size.
    func slots(showing size: PixelSize) -> [SlotAssignment] { guidance.standard.filter { $0.artwork == size } }

    var json: JSONValue {
        .object([
            ("product", .string(product.rawValue)),
            ("sizes", .array(product.entries.map { entry in
                .object(entry.jsonFields + [
                    ("aspect_ratio", .double(entry.size.aspectRatio)),
                    ("purpose", .string(entry.purpose)),
                    ("retina_of_pixels", entry.retinaOf?.json ?? .null),
                    ("served_slot_count", .int(slots(showing: entry.size).count)),
                    ("safe_area_pixels", SafeArea(artwork: entry.size).json),
                    ("min_text_height_pixels", guidance.minTextPixels(for: entry.size).map { .int($0) } ?? .null),
                ])
            })),
            ("recommended_upload_pixels", .array(product.recommendedUploads.map(\.json))),
            ("slot", .object([
                ("rule", .string(product.slotRule.rawValue)),
                ("slot_points", .object([DeviceClass.phone, .tablet].compactMap { deviceClass in
                    product.standardSlotPoints[deviceClass].map { (deviceClass.rawValue, $0.json) }
                })),
                ("note", .string(slotNote)),
            ])),
            ("fit", .object([("rule", .string(product.selectionRule.rawValue)), ("note", .string(Self.fitNote))])),
            ("slots", .array(guidance.standard.map { assignment in
                .object(assignment.jsonFields + [
                    ("device_class", .string(assignment.deviceSlot.device.deviceClass.rawValue)),
                    ("artwork_pixels", assignment.artwork.json),
                    ("letterbox_share", .double(1 - assignment.placement.fillShare)),
                ])
            })),
            ("formats", Guidance.formatsJSON),
        ])
    }

    /// One row per device: device, class, slot (pt), scale, slot (px), artwork, shown at, fills.
    private func deviceRows() -> [[String]] {
        guidance.standard.map { assignment in
            let slot = assignment.deviceSlot
            return [slot.device.name, slot.device.deviceClass.rawValue, slot.slot.points.description,
                    "@\(TextFormat.scale(slot.slot.scale))x", assignment.placement.canvas.description,
                    assignment.artwork.description, UpscaledRender.shownText(assignment),
                    TextFormat.percent(assignment.placement.fillShare)]
        }
    }

    /// One row per size: size, class, aspect, what it is, safe area, smallest text, slots served.
    private func sizeRows() -> [[String]] {
        product.entries.map { entry in
            let area = SafeArea(artwork: entry.size)
            return [entry.size.description, entry.sizeClass.rawValue, BannerPrompt.aspectText(entry.size), entry.purpose,
                    "\(area.x), \(area.y), \(area.width)x\(area.height)", guidance.minTextPixels(for: entry.size).map(String.init) ?? "-",
                    String(slots(showing: entry.size).count)]
        }
    }

    private static let sizeHeader = ["size (px)", "class", "aspect", "what it is", "safe area (x, y, width x height)",
                                     "smallest text (px)", "slots served"]
    private static let deviceHeader = ["device", "class", "slot (pt)", "scale", "slot (px)", "artwork shown",
                                       "shown at (px)", "fills"]

    func markdown() -> String {
        func table(_ header: [String], _ rows: [[String]]) -> [String] {
            ["| " + header.joined(separator: " | ") + " |", "|" + String(repeating: "---|", count: header.count)]
                + rows.map { "| " + $0.joined(separator: " | ") + " |" }
        }
        var lines = ["# \(product.title) artwork guidance", "", slotNote, "", Self.fitNote, "", "## Accepted sizes", ""]
        lines += table(Self.sizeHeader, sizeRows())
        lines += ["", "## Standard slot by device", ""] + table(Self.deviceHeader, deviceRows())
        return (lines + Guidance.formatsMarkdown).joined(separator: "\n")
    }

    func html() -> String {
        func table(_ header: [String], _ rows: [[String]], _ section: GuidancePage.Section) -> String {
            GuidancePage.heading(section) + GuidancePage.scrolling("<table><tr>"
                + header.map { "<th>\(TextFormat.markupEscaped($0))</th>" }.joined() + "</tr>"
                + rows.map { "<tr>" + $0.map { "<td>\(TextFormat.markupEscaped($0))</td>" }.joined() + "</tr>" }.joined()
                + "</table>", label: section.title)
        }
        let sizes = GuidancePage.Section(id: "sizes", title: "Accepted sizes")
        let devices = GuidancePage.Section(id: "devices", title: "Standard slot by device")
        return Guidance.htmlHead(title: "\(product.title) artwork guidance", sections: [sizes, GuidancePage.templates, devices], prompts: prompts)
            + "<p class=\"lead\">\(TextFormat.markupEscaped(slotNote))</p>\n"
            + "<p class=\"lead\">\(TextFormat.markupEscaped(Self.fitNote))</p>\n"
            + table(Self.sizeHeader, sizeRows(), sizes)
            + GuidancePage.templatesSection(product, testArtworkBase: testArtworkBase)
            + table(Self.deviceHeader, deviceRows(), devices)
            + Guidance.formatsHTMLTail()
    }
}
