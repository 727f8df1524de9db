import CreativeCore

/// One creative's `process` job as ordered steps over one context (the upload, its limits with
/// the deadline started, the settings, where files go): ``validate(approved:)``, ``charge(_:)``,
/// ``decode(_:_:)``, ``assignSlots(_:)``, ``render(_:slots:charged:report:)`` (the renders with
/// the preview sheet beside them) and ``manifest(_:slots:rendered:sheetCopy:)``. Each step takes
/// what the steps before it made; ``CreativeJob/process(_:limits:settings:approved:sheetCopy:writingTo:)``
/// runs them in that order, for a single job and for each creative of a campaign alike.
struct JobSteps {
    let upload: Upload
    /// The job's limits, its deadline started and bound (``ValidationLimits/asJob(_:)``).
    let limits: ValidationLimits
    let settings: ProcessSettings
    /// Whether the job keeps the small copy of its decode a campaign's sheet draws it from.
    let sheetCopy: Bool
    /// Where each file goes as soon as it is made (nil: kept in the result).
    let sink: JobFileSink?

    var product: Product { limits.product }
    var deadline: Deadline? { limits.job.startDeadline() }

    /// What validation gave: a valid creative and the source it opened, or the report of a rejected one.
    enum Validation {
        case valid(Validated)
        case rejected(ValidationReport)
    }

    /// A valid creative: its report and its source, opened once.
    struct Validated {
        let report: ValidationReport
        let source: ImageSource
    }

    /// 1. Validate: the upload's approval when a campaign made it (`approved`), else the
    ///    validator's, which opens the source once and records the report in the upload.
    func validate(approved: Bool) -> Validation {
        let (report, opened) = (approved ? upload.inspection : nil) ?? Validator.inspect(upload, limits: limits)
        guard report.valid, let source = opened else { return .rejected(report) }
        return .valid(Validated(report: report, source: source))
    }

    /// What the job was charged: its plan, and the limits each render's encoder works within.
    struct Charged {
        let plan: ProcessPlan
        let renderLimits: JobLimits
    }

    /// 2. Charge the job its peak before anything is decoded (``ProcessPlan``). A campaign's
    ///    creative holds its sheet copy beside the renders: planned within what is left of the budget.
    func charge(_ validated: Validated) throws(ImagingError) -> Charged {
        let source = validated.source
        let copyBytes = sheetCopy
            ? CampaignSheet.copyBytes(source.displayedSize, campaign: settings.campaign, product: product) : 0
        let plan = ProcessPlan(source, product: product, settings: settings,
                               memoryBudget: max(limits.job.memoryBudget - copyBytes, 0))
        var cost = plan.cost
        cost.decode = JobCost.adding(cost.decode, copyBytes)
        try limits.job.charge(cost)
        // What each render's encoder may hold, as the plan decided.
        var renderLimits = limits.job
        renderLimits.memoryBudget = plan.renderBudget
        return Charged(plan: plan, renderLimits: renderLimits)
    }

    /// The creative decoded once, and a campaign sheet's small copy of it.
    struct Decoded {
        let image: VImage
        let creative: PixelSize
        let sheetCopy: VImage?
        /// The renders' alpha band, as the job was charged for it.
        let alpha: JobCost.AlphaBand
    }

    /// 3. Decode once: upright, colour-managed, 8-bit sRGB, in memory; every render scales from it.
    func decode(_ validated: Validated, _ charged: Charged) throws(ImagingError) -> Decoded {
        let source = validated.source
        let deadline = deadline
        let decoded = try DeadlineWatch.run(source.header, deadline: deadline) { () throws(ImagingError) in
            // Held as 8-bit sRGB, as every render ends: a 16-bit source would hold twice the bytes in
            // each render's scaled copy and in the sheet's, for no difference a render keeps.
            let whole = try ColourStep.srgb8(try ScaleStep.thumbnail(source, to: source.displayedSize, checked: true))
            if let kept = source.keptPixels, whole === kept { return kept }
            return try DeadlineWatch.run(whole, deadline: deadline) { () throws(ImagingError) in try whole.materialized() }
        }
        // What the strict decode kept is now `decoded` (or was copied into it): not held twice.
        source.releasePixels()
        // A campaign's sheet draws the creative from a small copy of this decode, not from another.
        let copy = sheetCopy ? try CampaignSheet.copy(decoded, campaign: settings.campaign, product: product) : nil
        return Decoded(image: decoded, creative: source.displayedSize, sheetCopy: copy, alpha: ProcessPlan.alphaBand(source))
    }

    /// The device slots the creative is served in, grouped by the render each takes.
    struct Slots {
        /// In the plan's order.
        let assignments: [SlotAssignment]
        /// Each distinct placement once, in the order of its first slot.
        let placements: [Placement]
        let byPlacement: [Placement: [SlotAssignment]]
    }

    /// 4. Assign the slots: where the ad server serves the creative among its campaign's sizes.
    func assignSlots(_ validated: Validated) -> Slots {
        let assignments = DevicePlan.assignments(for: validated.source.displayedSize, campaign: settings.campaign,
                                                 product: product)
        var placements: [Placement] = []
        var byPlacement: [Placement: [SlotAssignment]] = [:]
        for assignment in assignments {
            if byPlacement[assignment.placement] == nil { placements.append(assignment.placement) }
            byPlacement[assignment.placement, default: []].append(assignment)
        }
        return Slots(assignments: assignments, placements: placements, byPlacement: byPlacement)
    }

    /// 6. The manifest and the preview page, the renders in the plan's order of slots.
    func manifest(_ validated: Validated, slots: Slots, rendered: Rendered,
                  sheetCopy: VImage?) throws(ImagingError) -> JobResult {
        var renders: [(SlotAssignment, JobFile)] = []
        for (placement, files) in rendered.files {
            for (assignment, file) in zip(slots.byPlacement[placement] ?? [], files) { renders.append((assignment, file)) }
        }
        let order = Dictionary(slots.assignments.enumerated().map { ($1.deviceSlot, $0) }, uniquingKeysWith: { a, _ in a })
        renders.sort { (order[$0.0.deviceSlot] ?? 0) < (order[$1.0.deviceSlot] ?? 0) }
        let refusedEntries = slots.assignments.compactMap { assignment in
            rendered.refused[assignment.placement].map { (assignment, $0) }
        }
        guard renders.count + refusedEntries.count == slots.assignments.count, let preview = rendered.sheet else {
            throw .operationFailed("\(slots.assignments.count - renders.count - refusedEntries.count) renders missing")
        }
        let creative = validated.source.displayedSize
        let closeZone: JSONValue? = product.isFullScreen
            ? CloseButton.zone(over: slots.assignments).map(\.json) ?? .null : nil
        let overBudget = refusedEntries.map { RefusedRender(slot: $0.0.deviceSlot.identifier, error: $0.1) }
        let pageBytes = PreviewPage.html(creative: creative, product: product, renders: renders, sheet: preview)
        let page = try JobFile(name: PreviewPage.name, bytes: pageBytes, sha256: Checksum.sha256(pageBytes), format: nil,
                               encoding: "HTML", writingTo: sink)
        var result = JobResult(report: validated.report, files: renders.map(\.1) + [preview, page],
                               manifest: CreativeJob.manifest(validated.report, input: upload.bytes, renders: renders,
                                                              preview: preview, page: page,
                                                              campaign: DevicePlan.campaign(creative, with: settings.campaign),
                                                              closeZone: closeZone, refused: refusedEntries,
                                                              weightBudget: settings.weightBudget),
                               slots: renders.map(\.0), overWeightBudget: overBudget)
        result.sheetCopy = sheetCopy
        return result
    }
}
