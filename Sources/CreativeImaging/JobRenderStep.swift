import CreativeCore

extension JobSteps {
    /// What the render step made: each placement's files, the renders no encoding fits in their
    /// weight budget, and the preview sheet.
    struct Rendered {
        let files: [Placement: [JobFile]]
        let refused: [Placement: ImagingError]
        let sheet: JobFile?
    }

    /// What one parallel piece of the render step made: the preview sheet, a render's files, or a
    /// render that no encoding fits in its weight budget.
    private enum Piece: Sendable {
        case sheet(JobFile)
        case render(Placement, [JobFile])
        case refused(Placement, ImagingError)
    }

    /// 5. Render every placement, with the preview sheet drawn beside the renders.
    ///
    /// `auto` searches the smallest render first, alone (``JobRenderPlan``); where only lossless
    /// PNG fits, it renders as `png` does (nothing to search or decide), with the note that says
    /// why. The first search runs alone: beside the preview sheet it took the peak RSS of `process`
    /// from 86-93 MB to 95-118 MB for no gain in time. Then the sheet and the renders run side by
    /// side while what they hold fits the job's charge (``PieceGate``), the sheet first (the
    /// longest piece), then each scale class's check, then the rest; a render waits for its
    /// class's decision before it takes its memory. Each render becomes the files of every slot it
    /// serves as soon as it is encoded: written out through `sink`, when there is one.
    func render(_ decoded: Decoded, slots: Slots, charged: Charged,
                report: ValidationReport) throws(ImagingError) -> Rendered {
        let plan = charged.plan
        let note = plan.autoLossless ? ProcessPlan.losslessNote : ""
        let (byPlacement, sink) = (slots.byPlacement, sink)
        let store = { @Sendable (placement: Placement, render: EncodedRender) throws(ImagingError) -> [JobFile] in
            let sha = Checksum.sha256(render.bytes)
            let encoding = note.isEmpty ? render.detail
                : render.detail.replacingSuffix(AutoEncoder.decidedNote, with: "") + note
            var files: [JobFile] = []
            for assignment in byPlacement[placement] ?? [] {
                files.append(try JobFile(name: assignment.deviceSlot.identifier + "." + render.format.fileExtension,
                                         bytes: render.bytes, sha256: sha, format: render.format, encoding: encoding,
                                         writingTo: sink))
            }
            return files
        }
        var working = settings
        if plan.autoLossless { working.format = .fixed(.png) }
        let renderer = JobRenderer(settings: working, limits: charged.renderLimits, alpha: decoded.alpha)
        let (image, creative, deadline) = (decoded.image, decoded.creative, deadline)
        let first = working.format == .auto ? slots.placements.min(by: { $0.content.area < $1.content.area }) : nil
        var files: [Placement: [JobFile]] = [:]
        var refused: [Placement: ImagingError] = [:]
        var firstDecision: JobDecision?
        var firstRecipe: AutoRecipe?
        if let first {
            try deadline?.check()
            do throws(ImagingError) {
                let (render, decision) = try renderer.render(image, at: first, start: nil)
                firstRecipe = render.recipe
                firstDecision = decision
                files[first] = try store(first, render)
            } catch .overWeightBudget(let format, let least, let budget, let shortfall) {
                refused[first] = .overWeightBudget(format: format, smallest: least, budget: budget, shortfall: shortfall)
            }
        }
        let avifNamed = settings.autoFormats?.contains(.avif) == true && OutputFormat.avif.isWritable
        let renderPlan = JobRenderPlan(slots.placements.filter { $0 != first }, creative: creative, first: firstDecision,
                                       firstPlacement: first, formatsVary: avifNamed)
        let firstClass = first.map { JobRenderPlan.scaleClass($0.content, of: creative) }
        let board = ClassDecisions(Set(renderPlan.steps.filter(\.checksClass).map(\.scaleClass) + (firstClass.map { [$0] } ?? [])))
        if let firstClass { board.publish(firstDecision, for: firstClass) }
        let sharedDecision = firstDecision?.isWide == true && !avifNamed ? firstDecision : nil
        let (startRecipe, steps, format) = (firstRecipe, renderPlan.steps, working.format)
        let (product, campaign) = (product, settings.campaign)
        let gate = PieceGate(capacity: plan.cost.output)
        let outcomes = ParallelWork.run(count: steps.count + 1) { index throws(ImagingError) -> Piece in
            if index == 0 {
                let sheet = try gate.run(holding: plan.sheetPieceBytes) { () throws(ImagingError) in
                    try PreviewSheet.draw(image, creative: creative, product: product, campaign: campaign,
                                          warnings: report.warnings, fileRoom: plan.sheetFileRoom)
                }
                return .sheet(try JobFile(name: PreviewSheet.fileName(JobResult.previewStem, sheet), bytes: sheet.bytes,
                                          sha256: Checksum.sha256(sheet.bytes), format: sheet.format,
                                          encoding: sheet.encoding, writingTo: sink))
            }
            let step = steps[index - 1]
            var published = false
            defer { if step.checksClass, !published { board.publish(nil, for: step.scaleClass) } }
            try deadline?.check()
            do throws(ImagingError) {
                let decision = step.checksClass || format != .auto || avifNamed ? nil
                    : sharedDecision ?? (startRecipe == nil ? nil : board.decision(for: step.scaleClass))
                if let decision {
                    // A JPEG decision may search instead (JobRenderer.apply): charged as a search.
                    let bytes = decision.recipe.format == .jpeg ? plan.renderBytes : plan.appliedBytes
                    let render = try gate.run(holding: bytes) { () throws(ImagingError) in
                        try renderer.apply(decision, to: image, at: step.placement)
                    }
                    return .render(step.placement, try store(step.placement, render))
                }
                let (render, decided) = try gate.run(holding: plan.renderBytes) { () throws(ImagingError) in
                    try renderer.render(image, at: step.placement, start: startRecipe, searchesAVIF: avifNamed)
                }
                if step.checksClass {
                    board.publish(decided, for: step.scaleClass)
                    published = true
                }
                return .render(step.placement, try store(step.placement, render))
            } catch .overWeightBudget(let format, let least, let budget, let shortfall) {
                return .refused(step.placement,
                                .overWeightBudget(format: format, smallest: least, budget: budget, shortfall: shortfall))
            }
        }
        var sheet: JobFile?
        for outcome in outcomes {
            switch try outcome.get() {
            case .sheet(let file): sheet = file
            case .render(let placement, let made): files[placement] = made
            case .refused(let placement, let error): refused[placement] = error
            }
        }
        return Rendered(files: files, refused: refused, sheet: sheet)
    }
}
