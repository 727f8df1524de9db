import CreativeCore

/// One file the job produced.
public struct JobFile: Sendable {
    /// File name inside the output folder.
    public let name: String
    public let bytes: [UInt8]
    /// Lower-case hex SHA-256 of `bytes`.
    public let sha256: String
    /// The format the file is in.
    public let format: OutputFormat
    /// How it was written (``EncodedRender/detail``).
    public let encoding: String
}

/// A render `process` did not write: no encoding fits its weight budget.
public struct RefusedRender: Sendable {
    /// The slot's identifier (the file name it would have had, without its extension).
    public let slot: String
    /// Why (``ImagingError/overWeightBudget(format:smallest:budget:)``).
    public let error: ImagingError
}

/// What `process` produced for one creative: the manifest and the files it lists.
public struct JobResult: Sendable {
    /// The validation report.
    public let report: ValidationReport
    /// The renders (one per device slot the creative is picked for) and the preview sheet.
    public let files: [JobFile]
    /// `manifest.json`: the report, then each render, then the preview sheet.
    public let manifest: JSONValue
    /// The renders that no encoding fits in their weight budget: listed in the manifest, not written.
    public var overWeightBudget: [RefusedRender] = []

    /// Name of the manifest file.
    public static let manifestName = "manifest.json"
    /// Name of the preview sheet.
    public static let previewName = "preview.png"
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
    /// keeps the quality target, named in the manifest).
    /// `weightBudget` is every render's largest file (nil: none): each is the best encoding that
    /// fits (``WeightBudgetSearch``); a render that cannot fit is listed in the manifest and in
    /// ``JobResult/overWeightBudget``, not written, and the other renders are.
    public static func process(_ bytes: [UInt8], fileName: String, limits: ValidationLimits = ValidationLimits(),
                               format: FormatChoice = .auto,
                               weightBudget: Int? = RenderSettings.defaultWeightBudget) throws(ImagingError) -> JobResult {
        try process(Upload(bytes, fileName: fileName), limits: limits, format: format, weightBudget: weightBudget)
    }

    /// ``process(_:fileName:limits:format:)`` on an upload a job holds: its source is the one the
    /// upload opened, decoded once (by the validator's strict check, whose pixels the renders
    /// scale from, except a PNG's, which libpng checks); the report is recorded in the upload.
    public static func process(_ upload: Upload, limits: ValidationLimits = ValidationLimits(),
                               format: FormatChoice = .auto,
                               weightBudget: Int? = RenderSettings.defaultWeightBudget) throws(ImagingError) -> JobResult {
        var limits = limits
        limits.job = limits.job.started()
        let deadline = limits.job.startDeadline()
        let (report, opened) = Validator.inspect(upload, limits: limits)
        guard report.valid, let source = opened else { return rejected(report, input: upload.bytes) }
        // Decoded once: upright, colour-managed, in memory; every render scales from it.
        let plan = ProcessPlan(source, product: limits.product, format: format, memoryBudget: limits.job.memoryBudget)
        try limits.job.charge(plan.cost)
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
        let assignments = DevicePlan.assignments(for: source.displayedSize, product: product)
        var placementsByContent: [PixelSize: [Placement]] = [:]
        var contentOrder: [PixelSize] = []
        for assignment in assignments {
            let placement = assignment.placement
            if placementsByContent[placement.content] == nil { contentOrder.append(placement.content) }
            if !(placementsByContent[placement.content] ?? []).contains(placement) {
                placementsByContent[placement.content, default: []].append(placement)
            }
        }
        let groups = contentOrder.map { ($0, placementsByContent[$0] ?? []) }
        // `auto` decides each render, the smallest first (the most detail per pixel): its quality is
        // where every other render's search starts, so most take one or two encodes. The first
        // search runs alone: beside the preview sheet it took the peak RSS of `process` from
        // 86-93 MB to 95-118 MB for no gain in time.
        let smallest = format == .auto ? groups.min(by: { $0.0.area < $1.0.area })?.1.first : nil
        var byPlacement: [Placement: EncodedRender] = [:]
        var refused: [Placement: ImagingError] = [:]
        var firstQuality: Int?
        let renderer = JobRenderer(format: format, limits: job, weightBudget: weightBudget)
        if let smallest {
            try deadline?.check()
            do throws(ImagingError) {
                let decision = try renderer.render(decoded, at: smallest, start: nil)
                firstQuality = decision.recipe?.quality
                byPlacement[smallest] = decision
            } catch .overWeightBudget(let format, let least, let budget) {
                refused[smallest] = .overWeightBudget(format: format, smallest: least, budget: budget)
            }
        }
        let start = firstQuality
        let note = plan.autoLossless ? ProcessPlan.losslessNote : ""
        // Work is grouped by content size: each group scales once and encodes each of its
        // placements once. Groups and the preview sheet run in parallel.
        let remaining = groups.map { content, placements in
            (content, placements.filter { byPlacement[$0] == nil && refused[$0] == nil })
        }.filter { !$0.1.isEmpty }
        let outcomes = ParallelWork.run(count: remaining.count + 1, width: plan.width) { index throws(ImagingError) -> JobPiece in
            // The sheet is the longest piece: first, so the groups share the other core with it.
            if index == 0 {
                return .sheet(try PreviewSheet.draw(decoded, creative: source.displayedSize, product: product,
                                                    warnings: report.warnings))
            }
            try deadline?.check()
            let (content, placements) = remaining[index - 1]
            let scaled = try ScaleStep.thumbnail(decoded, to: content).materialized()
            var encoded: [Placement: EncodedRender] = [:]
            var over: [Placement: ImagingError] = [:]
            for placement in placements {
                do throws(ImagingError) {
                    encoded[placement] = try renderer.render(scaled, at: placement, start: start)
                } catch .overWeightBudget(let format, let least, let budget) {
                    over[placement] = .overWeightBudget(format: format, smallest: least, budget: budget)
                }
            }
            return .renders(encoded, over)
        }
        var sheet: [UInt8] = []
        for outcome in outcomes {
            switch try outcome.get() {
            case .sheet(let bytes): sheet = bytes
            case .renders(let encoded, let over):
                byPlacement.merge(encoded) { a, _ in a }
                refused.merge(over) { a, _ in a }
            }
        }
        var checksums: [Placement: String] = [:]
        var renders: [(SlotAssignment, JobFile)] = []
        var overBudget: [RefusedRender] = []
        for assignment in assignments {
            let placement = assignment.placement
            if let error = refused[placement] {
                overBudget.append(RefusedRender(slot: assignment.deviceSlot.identifier, error: error))
                continue
            }
            guard let render = byPlacement[placement] else { throw .operationFailed("no render for \(placement.canvas)") }
            let sha = checksums[placement] ?? Checksum.sha256(render.bytes)
            checksums[placement] = sha
            renders.append((assignment, JobFile(name: assignment.deviceSlot.identifier + "." + render.format.fileExtension,
                                                bytes: render.bytes, sha256: sha, format: render.format,
                                                encoding: note.isEmpty ? render.detail
                                                    : render.detail.replacingSuffix(AutoEncoder.decidedNote, with: "") + note)))
        }
        let preview = JobFile(name: JobResult.previewName, bytes: sheet, sha256: Checksum.sha256(sheet), format: .png,
                              encoding: "PNG")
        let closeZone: JSONValue? = product.isFullScreen
            ? CloseButton.zone(over: assignments).map(\.json) ?? .null : nil
        let refusedEntries = assignments.compactMap { assignment in
            refused[assignment.placement].map { (assignment, $0) }
        }
        return JobResult(report: report, files: renders.map(\.1) + [preview],
                         manifest: manifest(report, input: upload.bytes, renders: renders, preview: preview,
                                           closeZone: closeZone, refused: refusedEntries, weightBudget: weightBudget),
                         overWeightBudget: overBudget)
    }

    /// What one parallel piece of a job made: the preview sheet, or a group's renders.
    private enum JobPiece: Sendable {
        case sheet([UInt8])
        case renders([Placement: EncodedRender], [Placement: ImagingError])
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
    static func manifest(_ report: ValidationReport, input: [UInt8]?, renders: [(SlotAssignment, JobFile)],
                         preview: JobFile?, closeZone: JSONValue? = nil,
                         refused: [(SlotAssignment, ImagingError)] = [], weightBudget: Int? = nil) -> JSONValue {
        let sha256: JSONValue = input.map { .string(Checksum.sha256($0)) } ?? .null
        let sourceBytes: JSONValue = (input?.count ?? report.bytes).map { .int($0) } ?? .null
        var head: [(String, JSONValue)] = [(writtenBy.0, .string(writtenBy.1))]
        head += JSONContract.versionFields
        head += [
            ("product", .string(report.product.rawValue)),
            ("source", .object([("file", .string(report.file)), ("sha256", sha256), ("file_bytes", sourceBytes)])),
            ("report", report.json),
        ]
        if report.product.isFullScreen { head.append(("close_zone_pixels", closeZone ?? .null)) }
        return .object(head + [
            ("weight_budget_bytes", weightBudget.map { .int($0) } ?? .null),
            ("renders", .array(renders.map { assignment, file in
                .object(assignment.jsonFields + [
                    ("file", .string(file.name)),
                    ("file_bytes", .int(file.bytes.count)),
                    ("sha256", .string(file.sha256)),
                    ("format", .string(file.format.rawValue)),
                    ("encoding", .string(file.encoding)),
                ])
            } + refused.map { assignment, error in
                var smallest: JSONValue = .null
                if case .overWeightBudget(_, let least, _) = error { smallest = .int(least) }
                return .object(assignment.jsonFields + [
                    ("file", .null), ("file_bytes", .null), ("sha256", .null), ("format", .null), ("encoding", .null),
                    ("over_weight_budget", .object([("code", .string(error.code)), ("message", .string(error.message)),
                                                    ("smallest_bytes", smallest)])),
                ])
            })),
            ("preview", preview.map { .object([("file", .string($0.name)), ("file_bytes", .int($0.bytes.count)),
                                               ("sha256", .string($0.sha256))]) } ?? .null),
        ])
    }
}
