import CreativeCore

extension PreviewSheet {
    /// Sheet pixels per screen point, best first: 1x, every screen at its size in points (the
    /// renders beside it, laid out by ``PreviewPage``, show each at its true pixel density); two
    /// thirds for a sheet whose file would outgrow its room (content as busy as noise), which then
    /// shrinks rather than fails.
    public static let screenPointScales = [1.0, 2.0 / 3.0]
    /// The least room a full-screen sheet's file is given (it is written into its room, never
    /// grown; `process` gives it more where the job's charge holds more, ``ProcessPlan/sheetFileRoom``).
    /// A sheet is PNG where that fits ``fileLimit(_:)`` (flat art), else JPEG (a photograph at 1x:
    /// 2278x12304, about 1.8 MB); uniform noise's JPEG, about 1.5 bytes a pixel, is under this room
    /// at 1x, and its PNG (3 bytes a pixel) at two thirds.
    public static let fullScreenFileRoom = 48 << 20
    /// Widest row of screens before the next row starts, in sheet pixels at 2x.
    static let rowWidth = 4500
    /// Height of the artwork shown with its close zone at the top of the sheet at 2x, at most.
    static let artworkHeight = 1080
    static let insetShade: [Double] = [120, 128, 140]
    static let closeRed: [Double] = [220, 30, 30]
    /// The summary of a full-screen sheet: lines of at most this many characters, at most
    /// ``fullScreenSummaryLines`` of them (then a line saying the manifest has every warning).
    static let fullScreenSummaryColumns = 150
    static let fullScreenSummaryLines = 11

    /// The sheet of a full-screen product: the artwork with its close zone outlined, then every
    /// device screen in both orientations at its proportions, the safe-area insets shaded, the
    /// artwork fitted in the safe area, and the close button's square outlined; at the first of
    /// ``screenPointScales`` whose file fits ``fileLimit(_:)``, else at the smallest, within `fileRoom` bytes.
    static func drawFullScreen(_ decoded: VImage, creative: PixelSize, product: Product, campaign: [PixelSize],
                               warnings: [ValidationIssue] = [], fileRoom: Int) throws(ImagingError) -> SheetFile {
        for (index, scale) in screenPointScales.enumerated() {
            let sheet = try fullScreenSheet(decoded, creative: creative, product: product, campaign: campaign,
                                            warnings: warnings, scale: scale)
            let file = try SheetFile(sheet, within: min(fileRoom, fileLimit(product)))
            // A JPEG over the limit is drawn smaller; at the smallest scale it is kept within the room.
            let last = index == screenPointScales.count - 1
            if file.bytes.count <= fileLimit(product) || (last && file.bytes.count <= fileRoom) { return file }
        }
        // Never reached: at two thirds, the most any sheet's file can take is under the least room (a test checks).
        throw .operationFailed("the preview sheet's file is over \(fileRoom) bytes at every scale")
    }

    /// The full-screen sheet laid out at `scale` sheet pixels per screen point (text, artwork and
    /// rows in proportion: at 2x three times their size at two thirds), its contents not yet computed.
    static func fullScreenSheet(_ decoded: VImage, creative: PixelSize, product: Product, campaign: [PixelSize],
                                warnings: [ValidationIssue], scale: Double) throws(ImagingError) -> SheetCanvas {
        // The layout's measures are given at 2x.
        let factor = scale / 2
        let rowWidth = Int((Double(Self.rowWidth) * factor).rounded())
        let artworkHeight = Int((Double(Self.artworkHeight) * factor).rounded())
        let pixels = scale >= 1 ? rowLabelPixels : labelPixels
        let plan = DevicePlan.plan(with: creative, campaign: campaign, product: product)
        let zone = CloseButton.zone(over: plan.filter { $0.artwork == creative })
        let size = scale >= 1 ? "at their size in points" : "at two thirds of their size in points"
        let title = try lettering(lines: ["\(product.title) preview of \(creative) on every screen, \(size) "
                                          + "(shaded: safe-area insets; red: the close button)"], bold: true, pixels: pixels + 2)[0]
        // The artwork and its close zone.
        let shown = Placement(source: creative, canvas: PixelSize(width: rowWidth, height: artworkHeight)).content
        let zoneText = zone.map { "close zone \($0.x),\($0.y) \($0.width)x\($0.height) px of the artwork (red): "
            + "the button covers it on some screen that shows this size" } ?? "the close button covers this artwork on no screen"
        // Each screen: its geometry on the sheet and two caption lines.
        struct Screen {
            let assignment: SlotAssignment
            let size: PixelSize
            let area: PixelRect
            let button: PixelRect
            let placement: Placement
        }
        let screens: [Screen] = plan.map { assignment in
            let slot = assignment.deviceSlot
            let size = slot.screen(atScale: scale), area = slot.safeArea(atScale: scale)
            return Screen(assignment: assignment, size: size, area: area,
                          button: CloseButton.square(in: slot, scale: scale),
                          placement: Placement(source: creative, canvas: size, area: area))
        }
        // Lines lettered together share the widest one's width: the zone's long line goes alone.
        var captions: [String] = []
        for screen in screens {
            let slot = screen.assignment.deviceSlot
            let picked = screen.assignment.artwork == creative ? "picked here" : "\(screen.assignment.artwork) picked here"
            let fill = DevicePlan.fullScreenPlacement(creative, in: slot).fillShare
            captions.append("\(slot.device.name) · \(slot.orientation.rawValue)")
            captions.append("fills \(TextFormat.percent(fill, decimals: 1)) · \(picked)")
        }
        var labels = try lettering(lines: captions, pixels: pixels)
        labels.insert(try lettering(lines: [zoneText], pixels: pixels)[0], at: 0)
        // The summary in words: where it is served, the worst and best fill, every warning.
        let served = screens.filter { $0.assignment.artwork == creative }
        let fills = served.map { screen in
            let slot = screen.assignment.deviceSlot
            return (name: "\(slot.device.name) \(slot.orientation.rawValue)",
                    share: DevicePlan.fullScreenPlacement(creative, in: slot).fillShare)
        }
        let (first, written) = servedAndWarnings(
            "Served on \(served.count) of \(screens.count) screens; dimmed: another size is served there.",
            fills: fills, warnings: warnings,
            servedSlots: served.map { ("\($0.assignment.deviceSlot.device.name) \($0.assignment.deviceSlot.orientation.rawValue)", $0.assignment) })
        var summaryLines = ([first] + written).flatMap { TextFormat.wrap($0, columns: fullScreenSummaryColumns) }
        if summaryLines.count > fullScreenSummaryLines {
            summaryLines = summaryLines.prefix(fullScreenSummaryLines - 1) + [summaryCut]
        }
        let summary = try lettering(lines: summaryLines, pixels: pixels)
        let summaryHeight = summary.reduce(0) { $0 + $1.height }
        // Layout: title, summary, the artwork and its caption, then the screens in rows.
        var top = margin + title.height + labelGap + summaryHeight + rowGap
        let artworkTop = top
        top += shown.height + labelGap
        let zoneLabelTop = top
        top += labels[0].height
        var width = max(title.width, shown.width, labels[0].width, summary.map(\.width).max() ?? 0)
        var positions: [(x: Int, y: Int)] = []
        var x = 0, rowHeight = 0
        top += rowGap
        for (index, screen) in screens.enumerated() {
            let caption = labels[1 + 2 * index].height + labels[2 + 2 * index].height
            let itemWidth = max(screen.size.width, labels[1 + 2 * index].width, labels[2 + 2 * index].width)
            if x > 0 && x + itemWidth > rowWidth {
                top += rowHeight + rowGap
                x = 0
                rowHeight = 0
            }
            positions.append((margin + x, top))
            x += itemWidth + 2 * rowGap
            width = max(width, x)
            rowHeight = max(rowHeight, caption + labelGap + screen.size.height)
        }
        top += rowHeight
        let sheet = SheetCanvas(PixelSize(width: width + 2 * margin, height: top + margin))
        drawImage(title, on: sheet, x: margin, y: margin)
        var lineTop = margin + title.height + labelGap
        for line in summary {
            drawImage(line, on: sheet, x: margin, y: lineTop)
            lineTop += line.height
        }
        drawImage(try content(decoded, size: shown, background: slotGrey), on: sheet, x: margin, y: artworkTop)
        if let zone {
            let kx = Double(shown.width) / Double(creative.width), ky = Double(shown.height) / Double(creative.height)
            let left = Int((Double(zone.x) * kx).rounded(.down)), upper = Int((Double(zone.y) * ky).rounded(.down))
            let outline = PixelRect(x: margin + left, y: artworkTop + upper,
                                    width: max(2, Int((Double(zone.x + zone.width) * kx).rounded(.up)) - left),
                                    height: max(2, Int((Double(zone.y + zone.height) * ky).rounded(.up)) - upper))
            outlineRect(outline, on: sheet)
        }
        drawImage(labels[0], on: sheet, x: margin, y: zoneLabelTop)
        var contentBySize: [PixelSize: VImage] = [:]
        var dimmedBySize: [PixelSize: VImage] = [:]
        func dim(_ colour: [Double]) -> [Double] { colour.map { $0 * dimmedShare + 255 * (1 - dimmedShare) } }
        for (index, (screen, position)) in zip(screens, positions).enumerated() {
            let isServed = screen.assignment.artwork == creative
            let first = labels[1 + 2 * index], second = labels[2 + 2 * index]
            drawImage(first, on: sheet, x: position.x, y: position.y)
            drawImage(second, on: sheet, x: position.x, y: position.y + first.height)
            let originX = position.x, originY = position.y + first.height + second.height + labelGap
            // The screen in letterbox grey, the insets shaded over it, the artwork in the safe area.
            drawRect(PixelRect(x: originX, y: originY, width: screen.size.width, height: screen.size.height),
                         ink: isServed ? insetShade : dim(insetShade), on: sheet)
            drawRect(PixelRect(x: originX + screen.area.x, y: originY + screen.area.y,
                                   width: screen.area.width, height: screen.area.height),
                         ink: isServed ? slotGrey : dim(slotGrey), on: sheet)
            let placement = screen.placement
            var picture: VImage
            if let cached = contentBySize[placement.content] {
                picture = cached
            } else {
                // Held once per content size (at 1x, all of a sheet's contents take 8 to 20 MB),
                // so the saver's threads copy pixels rather than each rescale the decode.
                picture = try content(decoded, size: placement.content, background: slotGrey)
                contentBySize[placement.content] = picture
            }
            if !isServed {
                if let cached = dimmedBySize[placement.content] {
                    picture = cached
                } else {
                    picture = try dimmed(picture)
                    dimmedBySize[placement.content] = picture
                }
            }
            drawImage(picture, on: sheet, x: originX + placement.x, y: originY + placement.y)
            outlineRect(PixelRect(x: originX + screen.button.x, y: originY + screen.button.y,
                                      width: screen.button.width, height: screen.button.height), on: sheet)
        }
        return sheet
    }

    /// A red outline two pixels wide, inside the rectangle.
    private static func outlineRect(_ rect: PixelRect, on sheet: SheetCanvas) {
        drawRect(rect, ink: closeRed, fill: false, on: sheet)
        guard rect.width > 2, rect.height > 2 else { return }
        drawRect(PixelRect(x: rect.x + 1, y: rect.y + 1, width: rect.width - 2, height: rect.height - 2),
                     ink: closeRed, fill: false, on: sheet)
    }
}
