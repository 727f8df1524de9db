import CreativeCore

/// One picture (``SheetFile``: a PNG, or a JPEG) showing a creative in every device slot of the product, for a person deciding from
/// pictures: a summary at the top (where it is served, the worst and best fill, each warning
/// written out), then the slots grouped by device class and orientation, each labelled with the
/// device, the slot and its fill. Slots the creative is served in are drawn at
/// ``servedPointScale`` sheet pixels per point by the same render pipeline as `render`, on a grey
/// slot so the letterbox shows; slots where another size is served are dimmed, at 1x, and say
/// which size is served there.
public enum PreviewSheet {
    static let margin = 24
    static let rowGap = 18
    /// Gap between a label and the slot under it: smaller than ``rowGap``, so each label reads
    /// as belonging to its own slot.
    static let labelGap = 6
    /// Space above a group's heading.
    static let groupGap = 34
    static let labelPixels = 15
    /// Text size of the banner and companion sheet (drawn at 2x points).
    static let rowLabelPixels = 22
    /// The summary wraps at the widest slot, or at this width when the slots are narrower.
    static let minimumTextWidth = 800
    /// The summary's lines break before this many characters (about ``minimumTextWidth`` at 22 px).
    static let summaryColumns = 64
    /// The longest side a sheet may have: WebP's limit, and many viewers' (every catalog size's
    /// sheet is within it).
    public static let maximumSide = 16383
    static let paper: [Double] = [255, 255, 255]
    static let slotGrey: [Double] = [214, 219, 227]
    static let ink: [Double] = [27, 35, 48]
    /// The outline of bars baked into the artwork (`baked_in_bars`).
    static let barMark: [Double] = [230, 30, 60]

    /// Draws the sheet for a decoded (upright, sRGB) creative of the given displayed size: every
    /// slot of the product (banners: anchored or inline; companions: each device's standard slot;
    /// interstitials: every screen, ``drawFullScreen``), each served by this creative or, named,
    /// by another size of `campaign` (the campaign's other sizes). `warnings`: the validation
    /// report's, written out in the summary. `fileRoom`: the most bytes an interstitial sheet's
    /// file may take (``ProcessPlan/sheetFileRoom``; at least ``fullScreenFileRoom``).
    public static func draw(_ decoded: VImage, creative: PixelSize, product: Product,
                            campaign: [PixelSize] = [], warnings: [ValidationIssue] = [],
                            fileRoom: Int = fullScreenFileRoom) throws(ImagingError) -> SheetFile {
        if product.isFullScreen {
            return try drawFullScreen(decoded, creative: creative, product: product, campaign: campaign, warnings: warnings,
                                      fileRoom: max(fileRoom, fullScreenFileRoom))
        }
        let bars = Preflight.bars(decoded)
        // Captions and summary do not depend on the scale: lettered once, laid out per scale.
        let plain = Self.groups(creative, product: product, campaign: campaign, scale: 1)
        let lettering = try Layout.Lettering(plain, creative: creative, product: product,
                                             summary: Self.summary(creative, groups: plain, warnings: warnings, bars: bars != nil))
        return try drawRows(lettering: lettering, product: product, images: [creative: decoded],
                            marks: bars.map { (creative, $0) }) { scale in
            Self.groups(creative, product: product, campaign: campaign, scale: scale)
        }
    }

    /// Draws the rows `groupsAt` gives at the largest of ``servedPointScales`` whose sheet fits the
    /// charge (``ProcessPlan/sheetPixels(_:)``) and whose file fits ``fileLimit(_:)`` (a PNG always
    /// does; a JPEG of busy art may not: text-heavy art's at 2x took 4.0 MB, so it is drawn at the
    /// next scale down; at 1x it is kept whatever it weighs), under `lettering`, each slot showing
    /// the image of the size served there (`images`; a slot whose size has none stays grey).
    /// `marks`: the baked-in bars of one creative, outlined where it is served.
    static func drawRows(lettering: Layout.Lettering, product: Product, images: [PixelSize: VImage],
                         marks: (PixelSize, BarInsets)? = nil,
                         groupsAt: (Double) -> [Group]) throws(ImagingError) -> SheetFile {
        func fits(_ layout: Layout) -> Bool { (layout.size.pixelCount ?? Int.max) <= ProcessPlan.sheetPixels(product) }
        var chosen: (groups: [Group], layout: Layout)?
        var chosenIndex = 0
        for (index, scale) in servedPointScales.enumerated() {
            let groups = groupsAt(scale)
            let layout = try Layout.fitting(groups, lettering: lettering, scaleIndex: index)
            chosen = (groups, layout)
            chosenIndex = index
            if fits(layout) { break }
        }
        // Still over at 1x (a long list of warnings): the summary is cut short until it fits.
        if let (groups, layout) = chosen, !fits(layout) {
            for lines in stride(from: lettering.summary.count - 1, through: 0, by: -1) {
                let shorter = try Layout.fitting(groups, lettering: lettering, scaleIndex: servedPointScales.count - 1,
                                                 summaryLines: lines)
                chosen = (groups, shorter)
                if fits(shorter) { break }
            }
        }
        guard var (groups, layout) = chosen else { throw .operationFailed("no preview sheet layout") }
        while true {
            let file = try drawSheet(groups, layout: layout, images: images, marks: marks, product: product)
            let last = chosenIndex == servedPointScales.count - 1
            if file.format == .png || file.bytes.count <= fileLimit(product) || last { return file }
            // A JPEG's bytes follow its pixels: the next try is the largest scale whose sheet, at
            // these bytes a pixel, would take nine tenths of the limit (else 1x), not each step.
            let scale = servedPointScales[chosenIndex], over = Double(file.bytes.count) / (0.9 * Double(fileLimit(product)))
            chosenIndex = servedPointScales.indices.first { $0 > chosenIndex && (scale / servedPointScales[$0]) * (scale / servedPointScales[$0]) >= over }
                ?? servedPointScales.count - 1
            groups = groupsAt(servedPointScales[chosenIndex])
            layout = try Layout.fitting(groups, lettering: lettering, scaleIndex: chosenIndex)
        }
    }

    /// The sheet of `groups` laid out as `layout`, as ``drawRows(lettering:product:images:marks:groupsAt:)``
    /// draws it, in its file (``SheetFile``).
    private static func drawSheet(_ groups: [Group], layout: Layout, images: [PixelSize: VImage],
                                  marks: (PixelSize, BarInsets)?, product: Product) throws(ImagingError) -> SheetFile {
        let rows = groups.flatMap(\.rows)
        // Slots are small: scale each image once to the biggest slot content it gets, then each
        // slot from that (one large reduction and many small ones cost far less than many large ones).
        var previewSources: [PixelSize: VImage] = [:]
        for (size, image) in images {
            let biggest = rows.filter { $0.assignment.artwork == size || images.count == 1 }.map(\.placement.content)
                .max { $0.height < $1.height } ?? size
            previewSources[size] = biggest.height < image.height ? try ScaleStep.thumbnail(image, to: biggest).materialized() : image
        }
        // The pieces laid on white paper, painted into the PNG a band at a time.
        let sheet = SheetCanvas(layout.size)
        for (piece, at) in layout.text { drawImage(piece, on: sheet, x: at.x, y: at.y) }
        // Slots of one content size share one resample, flattened onto the slot grey by the
        // render steps (sRGB, 8-bit, alpha over the background); dimmed ones once more.
        var contentBySize: [ContentKey: VImage] = [:]
        var dimmedBySize: [ContentKey: VImage] = [:]
        let dimmedGrey = slotGrey.map { $0 * dimmedShare + 255 * (1 - dimmedShare) }
        for (row, at) in zip(rows, layout.slots) {
            drawRect(PixelRect(x: at.x, y: at.y, width: row.canvas.width, height: row.canvas.height),
                         ink: row.served ? slotGrey : dimmedGrey, on: sheet)
            // A creative's own sheet shows it in every row; a campaign's, the size served there.
            guard let previewSource = images.count == 1 ? previewSources.values.first : previewSources[row.assignment.artwork]
            else { continue }
            let placement = Placement(source: previewSource.size, canvas: row.canvas)
            let key = ContentKey(source: previewSource.size, content: placement.content)
            var content: VImage
            if let cached = contentBySize[key] {
                content = cached
            } else {
                content = try Self.content(previewSource, size: placement.content, background: slotGrey)
                contentBySize[key] = content
            }
            if !row.served {
                if let cached = dimmedBySize[key] {
                    content = cached
                } else {
                    content = try dimmed(content)
                    dimmedBySize[key] = content
                }
            }
            drawImage(content, on: sheet, x: at.x + placement.x, y: at.y + placement.y)
            if let (creative, bars) = marks, row.served {
                markBars(bars, creative: creative, on: sheet, x: at.x + placement.x, y: at.y + placement.y,
                             content: placement.content)
            }
        }
        return try SheetFile(sheet, within: fileLimit(product))
    }

    /// One resample of a sheet: which image, at which content size.
    private struct ContentKey: Hashable {
        let source: PixelSize
        let content: PixelSize
    }

    /// Fills (or, with `fill` false, outlines one pixel wide) a rectangle of the sheet.
    static func drawRect(_ rect: PixelRect, ink: [Double], fill: Bool = true, on sheet: SheetCanvas) {
        sheet.rect(rect, ink: ink, fill: fill)
    }

    /// The creative at a content size, flattened onto an opaque colour by the render steps: held
    /// in memory, or with `held` false the pipeline that computes it (as the sheet asks for rows).
    static func content(_ source: VImage, size: PixelSize, background: [Double],
                        held: Bool = true) throws(ImagingError) -> VImage {
        guard let settings = try? RenderSettings(canvas: size, format: .fixed(.png),
                                                 background: .color(red: UInt8(background[0]), green: UInt8(background[1]),
                                                                    blue: UInt8(background[2]))) else {
            throw .operationFailed("no preview settings for \(size)")
        }
        let image = try Renderer.renderImage(decoded: source, settings: settings)
        return held ? try image.materialized() : image
    }

    /// The slot in points: anchored slots as they are; inline views as tall as the fitted ad.
    static func canvasPoints(_ deviceSlot: DeviceSlot, creative: PixelSize) -> PixelSize {
        guard deviceSlot.sizing == .inline else { return deviceSlot.slot.points }
        return SlotMath.fit(creative, into: deviceSlot.slot.points)
    }

    /// Outlines each baked-in bar of the creative where its content was drawn at (x, y).
    private static func markBars(_ bars: BarInsets, creative: PixelSize, on sheet: SheetCanvas, x: Int, y: Int,
                                 content: PixelSize) {
        let sx = Double(content.width) / Double(creative.width), sy = Double(content.height) / Double(creative.height)
        let rectangles = [(0, 0, creative.width, bars.top), (0, creative.height - bars.bottom, creative.width, bars.bottom),
                          (0, 0, bars.left, creative.height), (creative.width - bars.right, 0, bars.right, creative.height)]
        for (left, top, width, height) in rectangles where width > 0 && height > 0 {
            let x0 = Int((Double(left) * sx).rounded()), y0 = Int((Double(top) * sy).rounded())
            let x1 = Int((Double(left + width) * sx).rounded()), y1 = Int((Double(top + height) * sy).rounded())
            drawRect(PixelRect(x: x + x0, y: y + y0, width: max(1, x1 - x0), height: max(1, y1 - y0)), ink: barMark,
                     fill: false, on: sheet)
        }
    }

    /// Lays `piece` on the sheet at (x, y).
    static func drawImage(_ piece: VImage, on sheet: SheetCanvas, x: Int, y: Int) {
        sheet.draw(piece, x: x, y: y)
    }

    /// Dark text (or `colour`) on white, one 3-band image per line, `pixels` tall. All lines are
    /// laid out by Pango in one call (same font on every line, so every line has the same pitch)
    /// and cut apart.
    static func lettering(lines: [String], bold: Bool = false, colour: [Double] = ink,
                          pixels: Int = labelPixels) throws(ImagingError) -> [VImage] {
        guard !lines.isEmpty else { return [] }
        let escaped = lines.map { TextFormat.markupEscaped($0).replacing("\n", with: " ") }
        let block = try inked(text: escaped.joined(separator: "\n"), bold: bold, colour: colour, pixels: pixels)
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

    /// Pango-laid text (markup already escaped), ink over paper by coverage, per band:
    /// paper + (ink - paper) * mask / 255.
    private static func inked(text: String, bold: Bool, colour: [Double], pixels: Int) throws(ImagingError) -> VImage {
        let mask = try VipsOperation("text").with("text", .string(text))
            .with("font", .string("DejaVu Sans\(bold ? " Bold" : "") \(pixels)px")).with("dpi", .int(72)).image()
        return try VipsOperation("linear").with("in", .image(mask))
            .with("a", .doubles(zip(colour, paper).map { ($0 - $1) / 255 })).with("b", .doubles(paper))
            .with("uchar", .bool(true)).image().materialized()
    }
}
