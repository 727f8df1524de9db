import CreativeCore

/// Where a job writes each of its files as soon as it is done (`process` on the command line: a
/// file of the folder being built), so that no render waits in memory for the others. Called
/// from the job's parallel pieces, each time with another name.
public typealias JobFileSink = @Sendable (_ name: String, _ bytes: [UInt8]) throws(ImagingError) -> Void

/// One file the job produced.
public struct JobFile: Sendable {
    /// File name inside the output folder.
    public let name: String
    /// The file's bytes; empty when the job wrote the file out through a ``JobFileSink``.
    public let bytes: [UInt8]
    /// The file's size in bytes (also when ``bytes`` was written out).
    public let byteCount: Int
    /// Lower-case hex SHA-256 of `bytes`.
    public let sha256: String
    /// The image format the file is in; nil for the preview page (HTML, ``PreviewPage``).
    public let format: OutputFormat?
    /// How it was written (``EncodedRender/detail``).
    public let encoding: String

    /// A file of `bytes`, kept in memory, or written out first through `sink` and then not kept.
    init(name: String, bytes: [UInt8], sha256: String, format: OutputFormat?, encoding: String,
         writingTo sink: JobFileSink?) throws(ImagingError) {
        try sink?(name, bytes)
        self.name = name
        self.bytes = sink == nil ? bytes : []
        byteCount = bytes.count
        self.sha256 = sha256
        self.format = format
        self.encoding = encoding
    }

    /// How a server names its content: the image format's media type, or HTML's.
    public var mediaType: String { format?.mediaType ?? PreviewPage.mediaType }
}

/// A render `process` did not write: no encoding fits its weight budget.
public struct RefusedRender: Sendable {
    /// The slot's identifier (the file name it would have had, without its extension).
    public let slot: String
    /// Why (``ImagingError/overWeightBudget(format:smallest:budget:shortfall:)``).
    public let error: ImagingError
}

/// What `process` produced for one creative: the manifest and the files it lists.
public struct JobResult: Sendable {
    /// The validation report.
    public let report: ValidationReport
    /// The renders (one per device slot the creative is picked for), the preview sheet and the
    /// preview page (``PreviewPage``).
    public let files: [JobFile]
    /// `manifest.json`: the report, then each render, then the preview sheet.
    public let manifest: JSONValue
    /// The device slot of each render, in the order of ``files`` (which ends with the preview
    /// sheet and page).
    public var slots: [SlotAssignment] = []
    /// The renders that no encoding fits in their weight budget: listed in the manifest, not written.
    public var overWeightBudget: [RefusedRender] = []
    /// For a creative of a campaign, the small copy of its decode the campaign's sheet draws it
    /// from (``CampaignSheet/copy(_:campaign:product:)``); nil otherwise.
    public var sheetCopy: VImage?

    /// Name of the manifest file.
    public static let manifestName = "manifest.json"
    /// The preview sheet's name without its extension: `preview.png`, or `preview.jpg` for a sheet
    /// too heavy for PNG (``SheetFile``).
    public static let previewStem = "preview"
    /// Both names the preview sheet may have.
    public static let previewNames = PreviewSheet.fileNames(previewStem)

    /// The preview sheet, when the job drew one.
    public var preview: JobFile? { files.first { Self.previewNames.contains($0.name) } }
    /// The renders written, in the order of ``slots``.
    public var renders: [JobFile] { files.filter { $0.format != nil && !Self.previewNames.contains($0.name) } }
}

/// The per-creative job of the upload pipeline: validate; if valid, render into every device
/// slot the creative is picked for, decoding the source once, and draw the preview sheet.
public enum CreativeJob {
    /// Runs the job on bytes held in memory, for the product of `limits` (its sizes are accepted,
    /// its slots rendered). Rejected creatives give a result with no files.
    /// `limits.job` bounds the whole job: its memory budget is charged with its ``ProcessPlan``
    /// before the decode, and its deadline (from the start) stops the decode and the renders.
    /// - Throws: ``ImagingError`` only when a valid creative fails to render, or runs out of
    ///   budget or time (``ImagingError/overMemoryBudget(needed:budget:)``, ``ImagingError/timeout(seconds:)``).
    /// `format` is how every render is written (`auto` by default: the smallest encoding that
    /// keeps the quality target, named in the manifest), `autoFormats` what `auto` chooses among
    /// (nil: ``OutputFormat/autoDefault``).
    /// `campaign`: the campaign's other sizes (``DevicePlan/campaign(_:with:)``); the creative is
    /// rendered only into the slots where the ad server serves it among them.
    /// `weightBudget` decides each render's largest file from its size (``RenderWeightBudget``:
    /// the budget asked, or the profiles' weight for the size when stricter): each render is the
    /// best encoding that fits (``WeightBudgetSearch``); a render that cannot fit is listed in the
    /// manifest and in ``JobResult/overWeightBudget``, not written, and the other renders are.
    public static func process(_ bytes: [UInt8], fileName: String, limits: ValidationLimits = ValidationLimits(),
                               format: FormatChoice = .auto, autoFormats: Set<OutputFormat>? = nil,
                               campaign: [PixelSize] = [], weightBudget: RenderWeightBudget = RenderWeightBudget(),
                               writingTo sink: JobFileSink? = nil) throws(ImagingError) -> JobResult {
        try process(Upload(bytes, fileName: fileName), limits: limits, format: format, autoFormats: autoFormats,
                    campaign: campaign, weightBudget: weightBudget, writingTo: sink)
    }

    /// ``process(_:fileName:limits:format:)`` on an upload a job holds: its source is the one the
    /// upload opened, decoded once (by the validator's strict check, whose pixels the renders
    /// scale from, except a PNG's, which libpng checks); the report is recorded in the upload.
    /// With `sink`, each render and the preview are written through it as soon as each is
    /// encoded, and the result's files keep no bytes.
    /// `approved`: the upload was validated already (a campaign's approval, ``Upload/inspection``):
    /// its report and source are the job's, nothing is validated or opened again. The renders
    /// scale from the pixels its strict decode kept when the source still holds them; a campaign's
    /// approval lets them go, and the source is then decoded once for the renders.
    /// `sheetCopy`: the job keeps, in ``JobResult/sheetCopy``, the copy of its decode a campaign's
    /// sheet draws it from, and is charged for it.
    public static func process(_ upload: Upload, limits: ValidationLimits = ValidationLimits(),
                               format: FormatChoice = .auto, autoFormats: Set<OutputFormat>? = nil,
                               campaign: [PixelSize] = [], weightBudget: RenderWeightBudget = RenderWeightBudget(),
                               approved: Bool = false, sheetCopy: Bool = false,
                               writingTo sink: JobFileSink? = nil) throws(ImagingError) -> JobResult {
        // The job's deadline bound for the whole job (and on ParallelWork's workers): the searches'
        // encodes and the sheet's bands stop at it. Its renders' budget searches start where
        // another render's ended (BudgetFitGuesses).
        try limits.asJob { (limits) throws(ImagingError) in
            try BudgetFitGuesses.binding { () throws(ImagingError) in
                try processing(upload, limits: limits, format: format, autoFormats: autoFormats, campaign: campaign,
                               weightBudget: weightBudget, approved: approved, sheetCopy: sheetCopy, writingTo: sink)
            }
        }
    }

    /// ``process(_:limits:format:autoFormats:campaign:weightBudget:writingTo:)`` with the job's
    /// deadline started and bound.
    private static func processing(_ upload: Upload, limits: ValidationLimits, format: FormatChoice,
                                   autoFormats: Set<OutputFormat>?, campaign: [PixelSize],
                                   weightBudget: RenderWeightBudget, approved: Bool, sheetCopy: Bool,
                                   writingTo sink: JobFileSink?) throws(ImagingError) -> JobResult {
        let deadline = limits.job.startDeadline()
        let (report, opened) = (approved ? upload.inspection : nil) ?? Validator.inspect(upload, limits: limits)
        guard report.valid, let source = opened else { return rejected(report, input: upload.bytes) }
        // Decoded once: upright, colour-managed, in memory; every render scales from it. A campaign's
        // creative holds its sheet copy beside the renders: planned within what is left of the budget.
        let copyBytes = sheetCopy ? CampaignSheet.copyBytes(source.displayedSize, campaign: campaign, product: limits.product) : 0
        let plan = ProcessPlan(source, product: limits.product, format: format, autoFormats: autoFormats,
                               campaign: campaign, memoryBudget: max(limits.job.memoryBudget - copyBytes, 0))
        var cost = plan.cost
        cost.decode = JobCost.adding(cost.decode, copyBytes)
        try limits.job.charge(cost)
        // What each render's encoder may hold, as the plan decided.
        var renderLimits = limits.job
        renderLimits.memoryBudget = plan.renderBudget
        let job = renderLimits
        let decoded = try DeadlineWatch.run(source.header, deadline: deadline) { () throws(ImagingError) in
            // Held as 8-bit sRGB, as every render ends: a 16-bit source would hold twice the bytes in
            // each render's scaled copy and in the sheet's, for no difference a render keeps.
            let whole = try ColourStep.srgb8(try ScaleStep.thumbnail(source, to: source.displayedSize, checked: true))
            if let kept = source.keptPixels, whole === kept { return kept }
            return try DeadlineWatch.run(whole, deadline: deadline) { () throws(ImagingError) in try whole.materialized() }
        }
        // What the strict decode kept is now `decoded` (or was copied into it): not held twice.
        source.releasePixels()
        let product = limits.product
        // A campaign's sheet draws the creative from a small copy of this decode, not from another.
        let copy = sheetCopy ? try CampaignSheet.copy(decoded, campaign: campaign, product: product) : nil
        let assignments = DevicePlan.assignments(for: source.displayedSize, campaign: campaign, product: product)
        var placements: [Placement] = []
        var slotsByPlacement: [Placement: [SlotAssignment]] = [:]
        for assignment in assignments {
            if slotsByPlacement[assignment.placement] == nil { placements.append(assignment.placement) }
            slotsByPlacement[assignment.placement, default: []].append(assignment)
        }
        let note = plan.autoLossless ? ProcessPlan.losslessNote : ""
        let slots = slotsByPlacement
        // Each render becomes the files of every slot it serves as soon as it is encoded: written
        // out through `sink`, when there is one, before the next render is made.
        let store = { @Sendable (placement: Placement, render: EncodedRender) throws(ImagingError) -> [JobFile] in
            let sha = Checksum.sha256(render.bytes)
            let encoding = note.isEmpty ? render.detail
                : render.detail.replacingSuffix(AutoEncoder.decidedNote, with: "") + note
            var files: [JobFile] = []
            for assignment in slots[placement] ?? [] {
                files.append(try JobFile(name: assignment.deviceSlot.identifier + "." + render.format.fileExtension,
                                         bytes: render.bytes, sha256: sha, format: render.format, encoding: encoding,
                                         writingTo: sink))
            }
            return files
        }
        // `auto` searches the smallest render first, alone (JobRenderPlan); where only lossless PNG
        // fits, it renders as `png` does (nothing to search or decide), with the note that says why.
        // The first search runs alone: beside the preview sheet it took the peak RSS of `process`
        // from 86-93 MB to 95-118 MB for no gain in time.
        let working: FormatChoice = plan.autoLossless ? .png : format
        let first = working == .auto ? placements.min(by: { $0.content.area < $1.content.area }) : nil
        var byPlacement: [Placement: [JobFile]] = [:]
        var refused: [Placement: ImagingError] = [:]
        var firstDecision: JobDecision?
        var firstRecipe: AutoRecipe?
        let renderer = JobRenderer(format: working, autoFormats: autoFormats, limits: job, weightBudget: weightBudget,
                                   alpha: ProcessPlan.alphaBand(source))
        if let first {
            try deadline?.check()
            do throws(ImagingError) {
                let (render, decision) = try renderer.render(decoded, at: first, start: nil)
                firstRecipe = render.recipe
                firstDecision = decision
                byPlacement[first] = try store(first, render)
            } catch .overWeightBudget(let format, let least, let budget, let shortfall) {
                refused[first] = .overWeightBudget(format: format, smallest: least, budget: budget, shortfall: shortfall)
            }
        }
        let creative = source.displayedSize
        let avifNamed = autoFormats?.contains(.avif) == true && EncoderFeatures.avif
        let renderPlan = JobRenderPlan(placements.filter { $0 != first }, creative: creative, first: firstDecision,
                                       firstPlacement: first, formatsVary: avifNamed)
        let firstClass = first.map { JobRenderPlan.scaleClass($0.content, of: creative) }
        let board = ClassDecisions(Set(renderPlan.steps.filter(\.checksClass).map(\.scaleClass) + (firstClass.map { [$0] } ?? [])))
        if let firstClass { board.publish(firstDecision, for: firstClass) }
        let sharedDecision = firstDecision?.isWide == true && !avifNamed ? firstDecision : nil
        let (startRecipe, steps) = (firstRecipe, renderPlan.steps)
        // The sheet and the renders run side by side while what they hold fits the job's charge
        // (PieceGate), the sheet first (the longest piece), then each class's check, then the
        // rest; a render waits for its class's decision before it takes its memory.
        let gate = PieceGate(capacity: plan.cost.output)
        let outcomes = ParallelWork.run(count: steps.count + 1) { index throws(ImagingError) -> JobPiece in
            if index == 0 {
                let sheet = try gate.run(holding: plan.sheetPieceBytes) { () throws(ImagingError) in
                    try PreviewSheet.draw(decoded, creative: creative, product: product, campaign: campaign,
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
                let decision = step.checksClass || working != .auto || avifNamed ? nil
                    : sharedDecision ?? (startRecipe == nil ? nil : board.decision(for: step.scaleClass))
                if let decision {
                    // A JPEG decision may search instead (JobRenderer.apply): charged as a search.
                    let bytes = decision.recipe.format == .jpeg ? plan.renderBytes : plan.appliedBytes
                    let render = try gate.run(holding: bytes) { () throws(ImagingError) in
                        try renderer.apply(decision, to: decoded, at: step.placement)
                    }
                    return .render(step.placement, try store(step.placement, render))
                }
                let (render, decided) = try gate.run(holding: plan.renderBytes) { () throws(ImagingError) in
                    try renderer.render(decoded, at: step.placement, start: startRecipe,
                                        searchesAVIF: avifNamed)
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
            case .render(let placement, let files): byPlacement[placement] = files
            case .refused(let placement, let error): refused[placement] = error
            }
        }
        var renders: [(SlotAssignment, JobFile)] = []
        for (placement, files) in byPlacement {
            for (assignment, file) in zip(slots[placement] ?? [], files) { renders.append((assignment, file)) }
        }
        // In the plan's order of slots, as before.
        let order = Dictionary(assignments.enumerated().map { ($1.deviceSlot, $0) }, uniquingKeysWith: { a, _ in a })
        renders.sort { (order[$0.0.deviceSlot] ?? 0) < (order[$1.0.deviceSlot] ?? 0) }
        let refusedEntries = assignments.compactMap { assignment in
            refused[assignment.placement].map { (assignment, $0) }
        }
        guard renders.count + refusedEntries.count == assignments.count, let preview = sheet else {
            throw .operationFailed("\(assignments.count - renders.count - refusedEntries.count) renders missing")
        }
        let closeZone: JSONValue? = product.isFullScreen
            ? CloseButton.zone(over: assignments).map(\.json) ?? .null : nil
        let overBudget = refusedEntries.map { RefusedRender(slot: $0.0.deviceSlot.identifier, error: $0.1) }
        let pageBytes = PreviewPage.html(creative: creative, product: product, renders: renders, sheet: preview)
        let page = try JobFile(name: PreviewPage.name, bytes: pageBytes, sha256: Checksum.sha256(pageBytes), format: nil,
                               encoding: "HTML", writingTo: sink)
        var result = JobResult(report: report, files: renders.map(\.1) + [preview, page],
                         manifest: manifest(report, input: upload.bytes, renders: renders, preview: preview, page: page,
                                           campaign: DevicePlan.campaign(source.displayedSize, with: campaign),
                                           closeZone: closeZone, refused: refusedEntries, weightBudget: weightBudget),
                         slots: renders.map(\.0), overWeightBudget: overBudget)
        result.sheetCopy = copy
        return result
    }

    /// What one parallel piece of a job made: the preview sheet, a render's files, or a render
    /// that no encoding fits in its weight budget.
    private enum JobPiece: Sendable {
        case sheet(JobFile)
        case render(Placement, [JobFile])
        case refused(Placement, ImagingError)
    }

    /// The result for a creative that was rejected (or could not be read): the report alone.
    /// `input` is the upload's bytes, which the manifest names by SHA-256; nil when the file could
    /// not be read whole (missing, over the size limit), whose `sha256` is then null.
    public static func rejected(_ report: ValidationReport, input: [UInt8]?) -> JobResult {
        JobResult(report: report, files: [], manifest: manifest(report, input: input, renders: [], preview: nil))
    }

    /// The marker a manifest starts with, naming the job that wrote it (`process`, whether the
    /// command line, the service or the worker ran it): `"written_by": "creative-tool process"`.
    public static let writtenBy = ("written_by", "creative-tool process")

    /// The manifest: ``writtenBy``, the version fields, the product, the source (`sha256` and
    /// `file_bytes` of `input`), the report, for full-screen products `close_zone_pixels` (the
    /// close zone in artwork pixels), each render, the preview sheet. Without `input` (a file not
    /// read whole), the source's `sha256` is null and its `file_bytes` the report's.
    /// A render over its weight budget (`refused`) is listed after the written ones, with a null
    /// `file` and its `over_weight_budget` (the code, the message, the smallest size reached).
    /// `weight_budget_bytes` is the budget asked and `weight_budget_profiles` the profiles named;
    /// each render says the budget it met (``AppliedWeightBudget/jsonFields``) and its `warnings`
    /// (``UpscaledRender``: the artwork enlarged more than 2x).
    static func manifest(_ report: ValidationReport, input: [UInt8]?, renders: [(SlotAssignment, JobFile)],
                         preview: JobFile?, page: JobFile? = nil, campaign: [PixelSize]? = nil, closeZone: JSONValue? = nil,
                         refused: [(SlotAssignment, ImagingError)] = [], weightBudget: RenderWeightBudget? = nil) -> JSONValue {
        // Each render's budget, from its canvas, and the profile whose weight it is.
        let budgetFields = { (assignment: SlotAssignment) -> [(String, JSONValue)] in
            weightBudget?.applied(to: assignment.placement.canvas).jsonFields ?? []
        }
        let sha256: JSONValue = input.map { .string(Checksum.sha256($0)) } ?? .null
        let sourceBytes: JSONValue = (input?.count ?? report.bytes).map { .int($0) } ?? .null
        var head: [(String, JSONValue)] = [(writtenBy.0, .string(writtenBy.1))]
        head += JSONContract.versionFields
        head += [
            ("product", .string(report.product.rawValue)),
            ("source", .object([("file", .string(report.file)), ("sha256", sha256), ("file_bytes", sourceBytes)])),
            ("report", report.json),
            // The sizes the ad server chooses among (this creative's first): null when rejected.
            ("campaign_pixels", campaign.map { .array($0.map(\.json)) } ?? .null),
        ]
        if report.product.isFullScreen { head.append(("close_zone_pixels", closeZone ?? .null)) }
        return .object(head + [
            ("weight_budget_bytes", weightBudget.map { .int($0.asked) } ?? .null),
            ("weight_budget_profiles", .array((weightBudget?.profiles ?? []).map { .string($0.name) })),
            ("renders", .array(renders.map { assignment, file in
                .object(assignment.jsonFields + [
                    ("file", .string(file.name)),
                    ("file_bytes", .int(file.byteCount)),
                    ("sha256", .string(file.sha256)),
                    ("format", file.format.map { .string($0.rawValue) } ?? .null),
                    ("encoding", .string(file.encoding)),
                ] + budgetFields(assignment) + [("warnings", UpscaledRender.warningsJSON(assignment))])
            } + refused.map { assignment, error in
                var smallest: JSONValue = .null
                if case .overWeightBudget(_, let least, _, _) = error { smallest = .int(least) }
                return .object(assignment.jsonFields + [
                    ("file", .null), ("file_bytes", .null), ("sha256", .null), ("format", .null), ("encoding", .null),
                ] + budgetFields(assignment) + [
                    ("warnings", UpscaledRender.warningsJSON(assignment)),
                    ("over_weight_budget", .object([("code", .string(error.code)), ("message", .string(error.message)),
                                                    ("smallest_bytes", smallest)])),
                ])
            })),
            ("preview", preview.map { sheet in
                .object([("file", .string(sheet.name)), ("file_bytes", .int(sheet.byteCount)), ("sha256", .string(sheet.sha256)),
                         ("format", sheet.format.map { .string($0.rawValue) } ?? .null),
                         ("page", page.map { .object([("file", .string($0.name)), ("file_bytes", .int($0.byteCount)),
                                                      ("sha256", .string($0.sha256))]) } ?? .null)])
            } ?? .null),
        ])
    }
}
