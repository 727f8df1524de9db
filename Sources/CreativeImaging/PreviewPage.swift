import CreativeCore

/// `preview.html`: the renders themselves, each laid out at its size in points (the slot, or for
/// an inline slot the fitted ad, or for a full-screen product the whole screen), so a browser on a
/// screen of the render's density shows every pixel of it 1:1, where the preview sheet beside it
/// shows the slots at a sheet's scale. One static page, no script, no other file than the
/// renders it names; grouped by device, in the order of the renders.
public enum PreviewPage {
    /// The page's file name, beside the renders.
    public static let name = "preview.html"
    /// How a server names the page's content.
    public static let mediaType = "text/html; charset=utf-8"

    /// The page for `renders` (each render's slot and file) of a `creative` of `product`, with a
    /// link to the preview sheet when there is one. Render names are the tool's own (letters,
    /// digits, `-`, `@`, `.`), and are escaped all the same.
    public static func html(creative: PixelSize, product: Product, renders: [(SlotAssignment, JobFile)],
                            sheet: JobFile?) -> [UInt8] {
        let title = "\(creative) \(product.title.lowercased()) in every device slot at its size in points"
        var body = "<h1>\(escaped(title))</h1>\n"
        body += "<p>Each render is shown at its size in points: on a screen of the same pixel density (2x, 3x), "
            + "at 100% zoom, you see its pixels 1:1, as the phone shows them. Grey: the slot around the artwork."
        if let sheet { body += " The <a href=\"\(attribute(sheet.name))\">preview sheet</a> shows every slot on one page." }
        body += "</p>\n"
        var device = ""
        for (assignment, file) in renders {
            let slot = assignment.deviceSlot
            if slot.device.name != device {
                if !device.isEmpty { body += "</section>\n" }
                device = slot.device.name
                body += "<section><h2>\(escaped(device))</h2>\n"
            }
            let canvas = assignment.placement.canvas
            let width = points(canvas.width, slot.slot.scale), height = points(canvas.height, slot.slot.scale)
            let caption = "\(slot.orientationName) · \(slot.sizing.slotMode) \(width)x\(height) pt @\(TextFormat.scale(slot.slot.scale))x"
                + " · fills \(TextFormat.percent(assignment.placement.fillShare, decimals: 1))"
                + " · \(file.format?.rawValue.uppercased() ?? "") \(TextFormat.kilobytes(file.byteCount))"
                + (UpscaledRender(assignment).map { " · \(UpscaledRender.code): enlarged \($0.factorText), looks blurred" } ?? "")
            body += "<figure><img src=\"\(attribute(file.name))\" style=\"width:\(width)px;height:\(height)px\" "
                + "alt=\"\(attribute(slot.identifier))\"><figcaption>\(escaped(caption))</figcaption></figure>\n"
        }
        if !device.isEmpty { body += "</section>\n" }
        let page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escaped(title))</title>
            <style>
            body{font:14px/1.4 system-ui,sans-serif;color:#1b2330;background:#fff;margin:24px}
            section{display:flex;flex-wrap:wrap;gap:18px 36px;align-items:flex-start}
            h2{flex-basis:100%;font-size:16px;margin:24px 0 0}
            figure{margin:0}
            img{display:block;background:#d6dbe3;image-rendering:auto}
            figcaption{font-size:12px;color:#4a5568;margin-top:4px}
            </style></head><body>
            \(body)</body></html>

            """
        return Array(page.utf8)
    }

    private static func escaped(_ text: String) -> String { TextFormat.markupEscaped(text) }

    /// Pixels at `scale` as CSS pixels (points), to two decimals at most: `390`, `137.14`.
    static func points(_ pixels: Int, _ scale: Double) -> String {
        var text = TextFormat.decimal(Double(pixels) / scale, decimals: 2)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// A file name as an attribute value: percent-encoded where a URL would read it otherwise
    /// (`%`, `#`, `?`, spaces, quotes), then escaped.
    private static func attribute(_ name: String) -> String {
        let encoded = name.utf8.map { byte -> String in
            let scalar = Unicode.Scalar(byte)
            let keep = byte < 0x80 && (scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar))
                || "-_.@~+,=".unicodeScalars.contains(scalar))
            return keep ? String(Character(scalar)) : "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
        }.joined()
        return escaped(encoded)
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
