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

    /// Draws the sheet for a decoded (upright, sRGB) creative of the given displayed size.
    public static func draw(_ decoded: VImage, creative: PixelSize) throws(ImagingError) -> [UInt8] {
        let slots = creative.shape == .strip ? DevicePlan.anchoredSlots() : DevicePlan.inlineSlots()
        let candidates = DevicePlan.competingSizes(with: creative)
        // Slots are small: scale once to the biggest slot content, then each slot from that
        // (one large reduction and many small ones cost far less than many large ones).
        let contents = slots.map { Placement(source: creative, canvas: canvasPoints($0, creative: creative)).content }
        let biggest = contents.max { $0.height < $1.height } ?? creative
        let previewSource = biggest.height < decoded.height
            ? try ScaleStep.thumbnail(decoded, to: biggest).materialized() : decoded
        let title = try lettering(lines: ["Preview of \(creative) in every device slot (slot in points; grey is letterbox)"],
                                  bold: true)[0]
        var captions: [String] = []
        for deviceSlot in slots {
            let canvas = canvasPoints(deviceSlot, creative: creative)
            let picked = pickedArtwork(deviceSlot, candidates: candidates)
            let pickNote = picked == creative ? "picked here" : "here \(picked.map(\.description) ?? "nothing") is picked"
            captions.append("\(deviceSlot.device.name) · \(deviceSlot.orientation.rawValue) · \(canvas) pt "
                            + "@\(scaleText(deviceSlot.slot.scale))x · fills "
                            + "\(percent(Placement(source: creative, canvas: canvas).fillShare)) · \(pickNote)")
        }
        let labels = try lettering(lines: captions)
        // Each piece with the gap above it; slots of one content size share one resample.
        var pieces: [(VImage, Int)] = [(title, 0)]
        var scaledByContent: [PixelSize: VImage] = [:]
        for (index, deviceSlot) in slots.enumerated() {
            pieces.append((labels[index], rowGap))
            let canvas = canvasPoints(deviceSlot, creative: creative)
            let content = Placement(source: previewSource.size, canvas: canvas).content
            let scaled: VImage
            if let cached = scaledByContent[content] {
                scaled = cached
            } else {
                scaled = try ScaleStep.thumbnail(previewSource, to: content).materialized()
                scaledByContent[content] = scaled
            }
            guard let settings = try? RenderSettings(canvas: canvas, format: .png) else { continue }
            let rendered = try Renderer.renderImage(decoded: scaled, settings: settings)
            pieces.append((try flatten(rendered, onto: slotGrey), labelGap))
        }
        // Top to bottom, left-aligned on white, each piece at its own height: every piece is
        // computed once into memory and drawn into one white canvas held in memory.
        var tops: [Int] = []
        var height = margin
        var width = 0
        for (piece, gap) in pieces {
            height += gap
            tops.append(height)
            height += piece.height
            width = max(width, piece.width)
        }
        let sheet = try solid(PixelSize(width: width + 2 * margin, height: height + margin), paper).materialized()
        for ((piece, _), top) in zip(pieces, tops) {
            try VipsOperation("draw_image").with("image", .image(sheet)).with("sub", .image(try piece.materialized()))
                .with("x", .int(margin)).with("y", .int(top)).execute()
        }
        // A large, throwaway picture: fast compression matters more than the last bytes.
        return try VipsOperation("pngsave_buffer").with("in", .image(sheet)).with("strip", .bool(true))
            .with("compression", .int(1)).bytes()
    }

    /// The slot in points: anchored slots as they are; inline views as tall as the fitted ad.
    static func canvasPoints(_ deviceSlot: DeviceSlot, creative: PixelSize) -> PixelSize {
        guard deviceSlot.sizing == .inline else { return deviceSlot.slot.points }
        return SlotMath.fit(creative, into: deviceSlot.slot.points)
    }

    static func pickedArtwork(_ deviceSlot: DeviceSlot, candidates: [PixelSize]) -> PixelSize? {
        let pixels = deviceSlot.slot.pixels
        let mode: SelectionMode = deviceSlot.sizing == .inline ? .inline : .adaptive
        guard let result = try? Selection.select(candidates, mode: mode, width: pixels.width, height: pixels.height)
        else { return nil }
        return candidates[result.winner]
    }

    private static func flatten(_ image: VImage, onto colour: [Double]) throws(ImagingError) -> VImage {
        let flat = try VipsOperation("flatten").with("in", .image(image)).with("background", .doubles(colour)).image()
        return try VipsOperation("cast").with("in", .image(flat)).with("format", .enumeration("uchar")).image()
    }

    private static func solid(_ size: PixelSize, _ colour: [Double]) throws(ImagingError) -> VImage {
        let black = try VipsOperation("black").with("width", .int(size.width)).with("height", .int(size.height))
            .with("bands", .int(3)).image()
        return try VipsOperation("linear").with("in", .image(black)).with("a", .doubles([1, 1, 1]))
            .with("b", .doubles(colour)).with("uchar", .bool(true)).image()
    }

    /// Dark text on white, one 3-band image per line. All lines are laid out by Pango in one
    /// call (same font on every line, so every line has the same pitch) and cut apart.
    private static func lettering(lines: [String], bold: Bool = false) throws(ImagingError) -> [VImage] {
        let escaped = lines.map { line in
            line.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
                .replacing("\n", with: " ")
        }
        let mask = try VipsOperation("text").with("text", .string(escaped.joined(separator: "\n")))
            .with("font", .string("DejaVu Sans\(bold ? " Bold" : "") \(labelPixels)px")).with("dpi", .int(72))
            .image()
        let block = try VipsOperation("ifthenelse").with("cond", .image(mask))
            .with("in1", .image(try solid(mask.size, ink))).with("in2", .image(try solid(mask.size, paper)))
            .with("blend", .bool(true)).image().materialized()
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

    private static func percent(_ share: Double) -> String {
        let tenths = Int((share * 1000).rounded())
        return "\(tenths / 10).\(tenths % 10)%"
    }

    private static func scaleText(_ scale: Double) -> String {
        scale == scale.rounded() ? String(Int(scale)) : String(scale)
    }
}
