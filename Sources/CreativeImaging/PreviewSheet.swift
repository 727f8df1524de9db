import CreativeCore

/// One PNG showing a creative in every device slot of the table, each labelled with the
/// device, the slot and how much of it the creative fills. Slots are drawn at their size in
/// points by the same render pipeline as `render`, on a grey slot so the letterbox shows.
public enum PreviewSheet {
    static let margin = 16
    static let rowGap = 14
    /// Gap between a label and the slot under it: smaller than ``rowGap``, so each label reads
    /// as belonging to its own slot.
    static let labelGap = 4
    static let labelPixels = 15
    static let paper: [Double] = [255, 255, 255]
    static let slotGrey: [Double] = [214, 219, 227]
    static let ink: [Double] = [27, 35, 48]
    /// The outline of bars baked into the artwork (`baked_in_bars`).
    static let barMark: [Double] = [230, 30, 60]

    /// Draws the sheet for a decoded (upright, sRGB) creative of the given displayed size: every
    /// slot of the product (banners: anchored or inline; companions: each device's standard slot;
    /// interstitials: every screen, ``drawFullScreen``).
    public static func draw(_ decoded: VImage, creative: PixelSize, product: Product = .banner) throws(ImagingError) -> [UInt8] {
        if product.isFullScreen {
            return try drawFullScreen(decoded, creative: creative, product: product)
        }
        let slots = DevicePlan.slots(for: creative, product: product)
        let candidates = DevicePlan.competingSizes(with: creative, product: product)
        // Slots are small: scale once to the biggest slot content, then each slot from that
        // (one large reduction and many small ones cost far less than many large ones).
        let canvases = slots.map { canvasPoints($0, creative: creative) }
        let contents = canvases.map { Placement(source: creative, canvas: $0).content }
        let biggest = contents.max { $0.height < $1.height } ?? creative
        let previewSource = biggest.height < decoded.height
            ? try ScaleStep.thumbnail(decoded, to: biggest).materialized() : decoded
        let bars = Preflight.bars(decoded)
        let title = try lettering(lines: ["Preview of \(creative) in every device slot (slot in points; grey is letterbox"
                                          + (bars == nil ? ")" : "; red outlines bars baked into the artwork)")],
                                  bold: true)[0]
        var captions: [String] = []
        for (deviceSlot, canvas) in zip(slots, canvases) {
            let picked = DevicePlan.pick(candidates, for: deviceSlot, product: product)
            let pickNote = picked == creative ? "picked here" : "here \(picked.map(\.description) ?? "nothing") is picked"
            captions.append("\(deviceSlot.device.name) · \(deviceSlot.orientationName) · \(canvas) pt "
                            + "@\(TextFormat.scale(deviceSlot.slot.scale))x · fills "
                            + "\(TextFormat.percent(Placement(source: creative, canvas: canvas).fillShare, decimals: 1)) · \(pickNote)")
        }
        let labels = try lettering(lines: captions)
        // Layout: the title, then per slot its caption and the slot, top to bottom.
        var height = margin + title.height
        var width = title.width
        for (label, canvas) in zip(labels, canvases) {
            height += rowGap + label.height + labelGap + canvas.height
            width = max(width, label.width, canvas.width)
        }
        // One white canvas in memory; every piece is drawn into it in place.
        let sheet = try paperCanvas(PixelSize(width: width + 2 * margin, height: height + margin))
        try drawImage(title, on: sheet, x: margin, y: margin)
        var top = margin + title.height
        // Slots of one content size share one resample, flattened onto the slot grey by the
        // render steps (sRGB, 8-bit, alpha over the background).
        var contentBySize: [PixelSize: VImage] = [:]
        for (label, canvas) in zip(labels, canvases) {
            top += rowGap
            try drawImage(label, on: sheet, x: margin, y: top)
            top += label.height + labelGap
            let placement = Placement(source: previewSource.size, canvas: canvas)
            try drawRect(PixelRect(x: margin, y: top, width: canvas.width, height: canvas.height), ink: slotGrey, on: sheet)
            let content: VImage
            if let cached = contentBySize[placement.content] {
                content = cached
            } else {
                content = try Self.content(previewSource, size: placement.content, background: slotGrey)
                contentBySize[placement.content] = content
            }
            try drawImage(content, on: sheet, x: margin + placement.x, y: top + placement.y)
            if let bars {
                try markBars(bars, creative: creative, on: sheet, x: margin + placement.x, y: top + placement.y,
                             content: placement.content)
            }
            top += canvas.height
        }
        return try encodeSheet(sheet)
    }

    /// A large, throwaway picture: fast compression matters more than the last bytes.
    static func encodeSheet(_ sheet: VImage) throws(ImagingError) -> [UInt8] {
        try VipsOperation("pngsave_buffer").with("in", .image(sheet)).with("strip", .bool(true))
            .with("compression", .int(1)).bytes()
    }

    /// Fills (or, with `fill` false, outlines one pixel wide) a rectangle of the memory image `sheet`, in place.
    static func drawRect(_ rect: PixelRect, ink: [Double], fill: Bool = true, on sheet: VImage) throws(ImagingError) {
        try VipsOperation("draw_rect").with("image", .image(sheet)).with("ink", .doubles(ink))
            .with("left", .int(rect.x)).with("top", .int(rect.y)).with("width", .int(rect.width))
            .with("height", .int(rect.height)).with("fill", .bool(fill)).execute()
    }

    /// The creative at a content size, flattened onto an opaque colour by the render steps.
    static func content(_ source: VImage, size: PixelSize, background: [Double]) throws(ImagingError) -> VImage {
        guard let settings = try? RenderSettings(canvas: size, format: .png,
                                                 background: .color(red: UInt8(background[0]), green: UInt8(background[1]),
                                                                    blue: UInt8(background[2]))) else {
            throw .operationFailed("no preview settings for \(size)")
        }
        return try Renderer.renderImage(decoded: source, settings: settings).materialized()
    }

    /// The slot in points: anchored slots as they are; inline views as tall as the fitted ad.
    static func canvasPoints(_ deviceSlot: DeviceSlot, creative: PixelSize) -> PixelSize {
        guard deviceSlot.sizing == .inline else { return deviceSlot.slot.points }
        return SlotMath.fit(creative, into: deviceSlot.slot.points)
    }

    /// Outlines each baked-in bar of the creative where its content was drawn at (x, y).
    private static func markBars(_ bars: BarInsets, creative: PixelSize, on sheet: VImage, x: Int, y: Int,
                                 content: PixelSize) throws(ImagingError) {
        let sx = Double(content.width) / Double(creative.width), sy = Double(content.height) / Double(creative.height)
        let rectangles = [(0, 0, creative.width, bars.top), (0, creative.height - bars.bottom, creative.width, bars.bottom),
                          (0, 0, bars.left, creative.height), (creative.width - bars.right, 0, bars.right, creative.height)]
        for (left, top, width, height) in rectangles where width > 0 && height > 0 {
            let x0 = Int((Double(left) * sx).rounded()), y0 = Int((Double(top) * sy).rounded())
            let x1 = Int((Double(left + width) * sx).rounded()), y1 = Int((Double(top + height) * sy).rounded())
            try VipsOperation("draw_rect").with("image", .image(sheet)).with("ink", .doubles(barMark))
                .with("left", .int(x + x0)).with("top", .int(y + y0)).with("width", .int(max(1, x1 - x0)))
                .with("height", .int(max(1, y1 - y0))).with("fill", .bool(false)).execute()
        }
    }

    /// Draws `piece` into the memory image `sheet` at (x, y), in place.
    static func drawImage(_ piece: VImage, on sheet: VImage, x: Int, y: Int) throws(ImagingError) {
        try VipsOperation("draw_image").with("image", .image(sheet)).with("sub", .image(piece))
            .with("x", .int(x)).with("y", .int(y)).execute()
    }

    /// A white 8-bit sRGB image in memory, to draw into: black, then filled in place
    /// (`linear` over millions of pixels would cost tens of milliseconds).
    static func paperCanvas(_ size: PixelSize) throws(ImagingError) -> VImage {
        let black = try VipsOperation("black").with("width", .int(size.width)).with("height", .int(size.height))
            .with("bands", .int(3)).image()
        let canvas = try VipsOperation("copy").with("in", .image(black))
            .with("interpretation", .enumeration("srgb")).image().materialized()
        try drawRect(PixelRect(size), ink: paper, on: canvas)
        return canvas
    }

    /// Dark text on white, one 3-band image per line. All lines are laid out by Pango in one
    /// call (same font on every line, so every line has the same pitch) and cut apart.
    static func lettering(lines: [String], bold: Bool = false) throws(ImagingError) -> [VImage] {
        let escaped = lines.map { TextFormat.markupEscaped($0).replacing("\n", with: " ") }
        let mask = try VipsOperation("text").with("text", .string(escaped.joined(separator: "\n")))
            .with("font", .string("DejaVu Sans\(bold ? " Bold" : "") \(labelPixels)px")).with("dpi", .int(72))
            .image()
        // Ink over paper by coverage, per band: paper + (ink - paper) * mask / 255.
        let block = try VipsOperation("linear").with("in", .image(mask))
            .with("a", .doubles(zip(ink, paper).map { ($0 - $1) / 255 })).with("b", .doubles(paper))
            .with("uchar", .bool(true)).image().materialized()
        let pitch = Double(block.height) / Double(lines.count)
        var images: [VImage] = []
        for index in lines.indices {
            let top = Int((Double(index) * pitch).rounded())
            let bottom = min(block.height, Int((Double(index + 1) * pitch).rounded()))
            images.append(try VipsOperation("extract_area").with("input", .image(block))
                .with("left", .int(0)).with("top", .int(top))
                .with("width", .int(block.width)).with("height", .int(max(1, bottom - top))).image())
        }
        return images
    }
}
