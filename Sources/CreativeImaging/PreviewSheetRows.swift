import CreativeCore

extension PreviewSheet {
    /// Sheet pixels per point in a slot the creative is served in, best first: Retina (2x) so
    /// its sharpness can be judged. Every catalog size's banner and companion sheet fits the
    /// pixels `process` is charged for at 2x (``ProcessPlan/sheetPixels(_:)``); the smaller steps
    /// are there for a sheet that would not, which then shrinks rather than fails.
    public static let servedPointScales = [2.0, 1.75, 1.5, 1.25, 1.0]
    /// Sheet pixels per point in a slot where another size is served: a dimmed reminder, small.
    public static let otherPointScale = 0.5
    /// Share of the artwork's colour kept in a dimmed row (the rest is paper).
    static let dimmedShare = 0.35
    static let greyInk: [Double] = [74, 84, 100]

    /// One row of the sheet: a slot of the product's plan with what is served there.
    struct Row {
        let assignment: SlotAssignment
        let served: Bool
        /// Whether the caption names the size served (a campaign's sheet, where several are).
        var named = false
        /// The slot on the sheet, in sheet pixels (points x the row's scale).
        let canvas: PixelSize
        let placement: Placement
    }

    /// A group of rows: one device class and orientation, in the sheet's order.
    struct Group {
        let title: String
        let rows: [Row]
    }

    /// The plan's slots as rows, grouped phones then tablets, portrait then landscape; slots
    /// served drawn at `scale` sheet pixels per point.
    static func groups(_ creative: PixelSize, product: Product, campaign: [PixelSize],
                       scale servedScale: Double) -> [Group] {
        groups(DevicePlan.plan(with: creative, campaign: campaign, product: product), creative: creative,
               scale: servedScale)
    }

    /// The rows of `plan` in groups: with `creative`, its sheet (the slots it is served in drawn
    /// at `servedScale`, the others dimmed; every slot shaped for it); without, a campaign's
    /// (every slot drawn with the size served there, named in its caption).
    static func groups(_ plan: [SlotAssignment], creative: PixelSize?, scale servedScale: Double) -> [Group] {
        let rows = plan.map { assignment -> Row in
            let served = creative.map { assignment.artwork == $0 } ?? true
            let shape = creative ?? assignment.artwork
            let points = canvasPoints(assignment.deviceSlot, creative: shape)
            let scale = served ? servedScale : otherPointScale
            let canvas = PixelSize(width: Int((Double(points.width) * scale).rounded()),
                                   height: Int((Double(points.height) * scale).rounded()))
            return Row(assignment: assignment, served: served, named: creative == nil, canvas: canvas,
                       placement: Placement(source: shape, canvas: canvas))
        }
        let order: [(DeviceClass, String, String)] = [
            (.phone, "portrait", "Phones, portrait"), (.phone, "landscape", "Phones, landscape"),
            (.tablet, "portrait", "Tablets, portrait"), (.tablet, "landscape", "Tablets, landscape"),
            (.phone, "any", "Phones"), (.tablet, "any", "Tablets"),
        ]
        return order.compactMap { deviceClass, orientation, title in
            let here = rows.filter {
                $0.assignment.deviceSlot.device.deviceClass == deviceClass && $0.assignment.deviceSlot.orientationName == orientation
            }
            guard !here.isEmpty else { return nil }
            return Group(title: "\(title): served in \(here.filter(\.served).count) of \(here.count)", rows: here)
        }
    }

    /// The summary at the top, in words: where it is served, the worst and best fill, what the
    /// marks mean, and each warning of the validation report written out.
    static func summary(_ creative: PixelSize, groups: [Group], warnings: [ValidationIssue], bars: Bool) -> [String] {
        let rows = groups.flatMap(\.rows)
        let served = rows.filter(\.served)
        func named(_ row: Row) -> String {
            let slot = row.assignment.deviceSlot
            return slot.device.name + (slot.sizing == .standard ? "" : " " + slot.orientationName)
        }
        let (first, written) = servedAndWarnings("Served in \(served.count) of \(rows.count) device slots.",
                                                 fills: served.map { (named($0), $0.assignment.placement.fillShare) },
                                                 warnings: warnings, servedSlots: served.map { (named($0), $0.assignment) })
        return [first, "Grey: letterbox" + (bars ? "; red outlines: bars baked into the artwork." : ".")] + written
    }

    /// What both sheets' summaries say: `opening`, then the worst and best fill and where, and
    /// the warnings (their count, then each written out): the validation report's, then
    /// `upscaled_render` when a slot served enlarges the artwork more than 2x (``UpscaledRender``).
    static func servedAndWarnings(_ opening: String, fills: [(name: String, share: Double)],
                                  warnings: [ValidationIssue],
                                  servedSlots: [(name: String, assignment: SlotAssignment)]) -> (served: String, warnings: [String]) {
        var served = opening
        if let worst = fills.min(by: { $0.share < $1.share }), let best = fills.max(by: { $0.share < $1.share }) {
            served += " Worst fill \(TextFormat.percent(worst.share, decimals: 1)) (\(worst.name)), best "
                + "\(TextFormat.percent(best.share, decimals: 1)) (\(best.name))."
        }
        let lines = warnings.map { "\($0.code.rawValue): \($0.message)" } + (UpscaledRender.summary(servedSlots).map { [$0] } ?? [])
        let count = lines.isEmpty ? "No warnings." : "\(lines.count) warning\(lines.count == 1 ? "" : "s"):"
        return (served, [count] + lines)
    }

    /// The last line of a summary cut short.
    static let summaryCut = "... and more: every warning is in manifest.json."

    /// The caption of a row: the slot, its fill and whether this creative is served there
    /// (short for a dimmed row: it is lettered smaller and several share a line).
    static func caption(_ row: Row, creative: PixelSize) -> String {
        let slot = row.assignment.deviceSlot
        let points = canvasPoints(slot, creative: creative)
        let name = slot.device.name + (slot.sizing == .standard ? "" : " " + slot.orientationName)
        guard row.served else { return "\(name) · \(points) pt: \(row.assignment.artwork) is served here" }
        return "\(name) · \(points) pt @\(TextFormat.scale(slot.slot.scale))x · fills "
            + "\(TextFormat.percent(row.assignment.placement.fillShare, decimals: 1)) · "
            + (row.named ? "\(row.assignment.artwork) " : "") + "served here"
    }

    /// A dimmed copy of a 3-band piece: `dimmedShare` of its colour over paper.
    static func dimmed(_ piece: VImage, held: Bool = true) throws(ImagingError) -> VImage {
        let image = try VipsOperation("linear").with("in", .image(piece)).with("a", .doubles([dimmedShare]))
            .with("b", .doubles([255 * (1 - dimmedShare)])).with("uchar", .bool(true)).image()
        return held ? try image.materialized() : image
    }
}
