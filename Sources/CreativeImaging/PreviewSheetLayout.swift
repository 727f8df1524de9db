import CreativeCore

extension PreviewSheet {
    /// Where everything of a banner or companion sheet goes: the title and the summary, then per
    /// group its heading and its slots, each under its caption, flowing left to right and onto
    /// the next line when the sheet's width is used up (served slots are wide and get a line
    /// each; the dimmed ones share lines).
    struct Layout {
        /// The sheet, margins included.
        let size: PixelSize
        /// Every lettered piece and its top-left corner.
        let text: [(VImage, (x: Int, y: Int))]
        /// The top-left corner of each row's slot, in the rows' order.
        let slots: [(x: Int, y: Int)]

        /// The lettering, the same at every scale, in three Pango calls: the title and the group
        /// headings (bold); one line per scale saying it, the summary (wrapped by words at
        /// ``PreviewSheet/summaryColumns``) and the served captions (ink); the dimmed captions
        /// (smaller, grey).
        struct Lettering {
            let title: VImage
            let headings: [VImage]
            let served: [VImage]
            let others: [VImage]
            /// The summary's lines, one under the other.
            let summary: [VImage]
            /// "Served slots at 2x points, ...", per scale of ``PreviewSheet/servedPointScales``.
            let scaleLines: [VImage]
            /// The line that ends a summary cut short to fit the sheet's pixels.
            let more: VImage

            init(_ groups: [Group], creative: PixelSize, product: Product, summary lines: [String]) throws(ImagingError) {
                try self.init(groups, title: "Preview of \(creative) (\(product.title.lowercased())) in every device slot",
                              creative: creative, summary: lines)
            }

            /// The lettering under `title`; captions shaped for `creative` (each row's own size when nil).
            init(_ groups: [Group], title heading: String, creative: PixelSize?, summary lines: [String]) throws(ImagingError) {
                let rows = groups.flatMap(\.rows)
                let bold = try lettering(lines: [heading]
                                         + groups.map(\.title), bold: true, pixels: rowLabelPixels + 2)
                title = bold[0]
                headings = Array(bold.dropFirst())
                let scales = servedPointScales.map { "Served slots at \(TextFormat.scale($0))x points, the others dimmed at half size." }
                let wrapped = lines.flatMap { TextFormat.wrap($0, columns: summaryColumns) }
                let inked = try lettering(lines: scales + [summaryCut] + wrapped + rows.filter(\.served).map { caption($0, creative: creative ?? $0.assignment.artwork) },
                                          pixels: rowLabelPixels)
                scaleLines = Array(inked.prefix(scales.count))
                more = inked[scales.count]
                summary = Array(inked.dropFirst(scales.count + 1).prefix(wrapped.count))
                served = Array(inked.dropFirst(scales.count + 1 + wrapped.count))
                others = try lettering(lines: rows.filter { !$0.served }.map { caption($0, creative: creative ?? $0.assignment.artwork) },
                                       colour: greyInk, pixels: labelPixels + 1)
            }
        }

        /// The layout of `groups` (drawn at ``PreviewSheet/servedPointScales``[`scaleIndex`]), with
        /// at most `summaryLines` of the summary (then the line that says there is more), its
        /// lines at least `minimumWidth` wide.
        init(_ groups: [Group], lettering: Lettering, scaleIndex: Int, summaryLines: Int? = nil,
             minimumWidth: Int = minimumTextWidth) throws(ImagingError) {
            let rows = groups.flatMap(\.rows)
            let width = max(minimumWidth, rows.map(\.canvas.width).max() ?? 0)
            let title = lettering.title, headings = lettering.headings
            let scaleLine = lettering.scaleLines[scaleIndex]
            var served = lettering.served[...], others = lettering.others[...]
            var text: [(VImage, (x: Int, y: Int))] = [(title, (margin, margin)), (scaleLine, (margin, margin + title.height + labelGap))]
            var slots: [(x: Int, y: Int)] = []
            var top = margin + title.height + labelGap + scaleLine.height
            var widest = max(width, title.width, scaleLine.width)
            let shown = summaryLines.map { $0 < lettering.summary.count ? Array(lettering.summary.prefix($0)) + [lettering.more] : nil }
            for line in (shown ?? nil) ?? lettering.summary {
                text.append((line, (margin, top)))
                top += line.height
                widest = max(widest, line.width)
            }
            for (group, heading) in zip(groups, headings) {
                top += groupGap
                text.append((heading, (margin, top)))
                top += heading.height
                widest = max(widest, heading.width)
                var x = 0, lineHeight = 0
                top += rowGap
                for row in group.rows {
                    guard let label = row.served ? served.popFirst() : others.popFirst() else {
                        throw .operationFailed("a preview caption is missing")
                    }
                    let itemWidth = max(label.width, row.canvas.width)
                    if x > 0 && x + itemWidth > width {
                        top += lineHeight + rowGap
                        x = 0
                        lineHeight = 0
                    }
                    text.append((label, (margin + x, top)))
                    slots.append((margin + x, top + label.height + labelGap))
                    lineHeight = max(lineHeight, label.height + labelGap + row.canvas.height)
                    widest = max(widest, x + itemWidth)
                    x += itemWidth + rowGap * 2
                }
                top += lineHeight
            }
            size = PixelSize(width: widest + 2 * margin, height: top + margin)
            self.text = text
            self.slots = slots
        }

        /// The layout of `groups` as ``init(_:lettering:scaleIndex:summaryLines:minimumWidth:)``,
        /// its lines widened (by half again, each time) while the sheet is taller than
        /// ``PreviewSheet/maximumSide`` (the shortest layout kept): a rectangle served in every
        /// inline slot is one slot a line at its natural width (861x17506 for 300x250).
        static func fitting(_ groups: [Group], lettering: Lettering, scaleIndex: Int,
                            summaryLines: Int? = nil) throws(ImagingError) -> Layout {
            var layout = try Layout(groups, lettering: lettering, scaleIndex: scaleIndex, summaryLines: summaryLines)
            var width = layout.size.width
            while layout.size.height > maximumSide && width < maximumSide {
                width = min(maximumSide, width * 3 / 2)
                let wider = try Layout(groups, lettering: lettering, scaleIndex: scaleIndex, summaryLines: summaryLines,
                                       minimumWidth: width - 2 * margin)
                if wider.size.height < layout.size.height { layout = wider }
            }
            return layout
        }
    }
}
