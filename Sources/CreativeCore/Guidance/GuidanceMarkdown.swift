/// A strip product's (a banner's) guidance as a Markdown document.
struct GuidanceMarkdown {
    let guidance: Guidance

    init(_ guidance: Guidance) { self.guidance = guidance }

    func render() -> String {
        var lines: [String] = [
            "# \(guidance.product.title) artwork guidance", "",
            guidance.coverageNote, "",
            "## Accepted sizes", "",
            "| size (px) | class | aspect | what it is | anchored slots served |",
            "|---|---|---|---|---|",
        ]
        for entry in guidance.product.entries {
            lines.append("| \(entry.size) | \(entry.sizeClass.rawValue) | \(BannerPrompt.aspectText(entry.size)) | "
                         + "\(entry.purpose) | \(guidance.slots(servedBy: entry.size).count) |")
        }
        lines += ["", "## Safe area and text size", "", Guidance.safeAreaNote, "",
                  "| size (px) | safe area (x, y, width x height) | smallest text (px) |", "|---|---|---|"]
        for entry in guidance.product.entries {
            let area = SafeArea(artwork: entry.size)
            let text = guidance.minTextPixels(for: entry.size).map(String.init) ?? "-"
            lines.append("| \(entry.size) | \(area.x), \(area.y), \(area.width)x\(area.height) | \(text) |")
        }
        lines += ["", "## Anchored slots by device", "",
                  "Slot height by the SDK's own rule: `floor(width x 50 / 320)`, 50 to 90 pt, at most 15% of the screen height.", "",
                  "| device | orientation | slot (pt) | scale | slot (px) | artwork shown | shown at (px) | fills |",
                  "|---|---|---|---|---|---|---|---|"]
        lines += guidance.anchored.map(row)
        lines += ["", "## Inline slots", "", guidance.inlineNote + " Max height: \(guidance.inlineMaxHeight) pt.", "",
                  "| device | orientation | view (pt) | scale | view (px) | artwork shown | shown at (px) | fills |",
                  "|---|---|---|---|---|---|---|---|"]
        lines += guidance.inline.map(row)
        lines += Guidance.formatsMarkdown
        return lines.joined(separator: "\n")
    }

    private func row(_ assignment: SlotAssignment) -> String {
        let slot = assignment.deviceSlot
        return "| \(slot.device.name) | \(slot.orientation.rawValue) | \(slot.slot.points) | "
            + "@\(TextFormat.scale(slot.slot.scale))x | \(assignment.placement.canvas) | \(assignment.artwork) | "
            + "\(UpscaledRender.shownText(assignment)) | \(TextFormat.percent(assignment.placement.fillShare)) |"
    }
}
