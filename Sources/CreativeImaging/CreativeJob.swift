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

/// What `process` produced for one creative: the manifest and the files it lists.
public struct JobResult: Sendable {
    /// The validation report.
    public let report: ValidationReport
    /// The renders (one per device slot the creative is picked for) and the preview sheet.
    public let files: [JobFile]
    /// `manifest.json`: the report, then each render, then the preview sheet.
    public let manifest: JSONValue

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
    public static func process(_ bytes: [UInt8], fileName: String, limits: ValidationLimits = ValidationLimits(),
                               format: FormatChoice = .auto) throws(ImagingError) -> JobResult {
        try process(Upload(bytes, fileName: fileName), limits: limits, format: format)
    }

    /// ``process(_:fileName:limits:format:)`` on an upload a job holds: its source is the one the
    /// upload opened, decoded once (by the validator's strict check, whose pixels the renders
    /// scale from, except a PNG's, which libpng checks); the report is recorded in the upload.
    public static func process(_ upload: Upload, limits: ValidationLimits = ValidationLimits(),
                               format: FormatChoice = .auto) throws(ImagingError) -> JobResult {
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
        // `auto` decides once, on the smallest render (the most detail per pixel, so the hardest
        // to compress: what keeps the target there keeps it in the larger ones); every other render
        // is then written the same way without measuring. The search runs alone: beside the preview
        // sheet it took the peak RSS of `process` from 86-93 MB to 95-118 MB for no gain in time.
        let smallest = format == .auto ? groups.min(by: { $0.0.area < $1.0.area })?.1.first : nil
        var byPlacement: [Placement: EncodedRender] = [:]
        var decided: AutoRecipe?
        if let smallest {
            try deadline?.check()
            let decision = try render(decoded, at: smallest, format: format, recipe: nil, limits: job)
            decided = decision.recipe
            // A smallest render over the search's size was searched on a smaller one: written again.
            byPlacement[smallest] = decision.searchedWhole ? decision.render
                : try render(decoded, at: smallest, format: format, recipe: decided, limits: job).render
        }
        let recipe = decided
        let note = plan.autoLossless ? ProcessPlan.losslessNote : ""
        // Work is grouped by content size: each group scales once and encodes each of its
        // placements once. Groups and the preview sheet run in parallel.
        let remaining = groups.map { content, placements in (content, placements.filter { byPlacement[$0] == nil }) }
            .filter { !$0.1.isEmpty }
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
            for placement in placements {
                encoded[placement] = try render(scaled, at: placement, format: format, recipe: recipe, limits: job).render
            }
            return .renders(encoded)
        }
        var sheet: [UInt8] = []
        for outcome in outcomes {
            switch try outcome.get() {
            case .sheet(let bytes): sheet = bytes
            case .renders(let encoded): byPlacement.merge(encoded) { a, _ in a }
            }
        }
        var checksums: [Placement: String] = [:]
        var renders: [(SlotAssignment, JobFile)] = []
        for assignment in assignments {
            let placement = assignment.placement
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
        return JobResult(report: report, files: renders.map(\.1) + [preview],
                         manifest: manifest(report, input: upload.bytes, renders: renders, preview: preview,
                                           closeZone: closeZone))
    }

    /// One render of `image` (the decoded creative, or already scaled to the placement's content)
    /// at `placement`: PNG with transparent bars, or `format`'s own, with the content where the
    /// placement puts it (centred in the canvas, or in a safe area). `auto` without a recipe on a
    /// canvas over ``AutoEncoder/searchMaxPixels`` searches a smaller render of the placement
    /// instead, and gives back that render (`searchedWhole` false) with its recipe.
    private static func render(_ image: VImage, at placement: Placement, format: FormatChoice, recipe: AutoRecipe?,
                               limits: JobLimits) throws(ImagingError) -> (render: EncodedRender, searchedWhole: Bool,
                                                                           recipe: AutoRecipe?) {
        guard var settings = try? RenderSettings(canvas: placement.canvas, format: format) else {
            throw .operationFailed("no render settings for \(placement.canvas)")
        }
        settings.area = placement.contentRect
        if format == .auto, recipe == nil, let sample = settings.searchSample() {
            let searched = try Encoder.encode(try Renderer.renderImage(decoded: image, settings: sample), format: format,
                                              content: sample.area, memoryBudget: limits.memoryBudget, forOneOfMany: true)
            return (searched, false, searched.recipe)
        }
        let encoded = try Encoder.encode(try Renderer.renderImage(decoded: image, settings: settings), format: format,
                                         content: placement.contentRect, memoryBudget: limits.memoryBudget,
                                         recipe: recipe, forOneOfMany: true)
        return (encoded, true, encoded.recipe)
    }

    /// What one parallel piece of a job made: the preview sheet, or a group's renders.
    private enum JobPiece: Sendable {
        case sheet([UInt8])
        case renders([Placement: EncodedRender])
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
    static func manifest(_ report: ValidationReport, input: [UInt8]?, renders: [(SlotAssignment, JobFile)],
                         preview: JobFile?, closeZone: JSONValue? = nil) -> JSONValue {
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
            ("renders", .array(renders.map { assignment, file in
                .object(assignment.jsonFields + [
                    ("file", .string(file.name)),
                    ("file_bytes", .int(file.bytes.count)),
                    ("sha256", .string(file.sha256)),
                    ("format", .string(file.format.rawValue)),
                    ("encoding", .string(file.encoding)),
                ])
            })),
            ("preview", preview.map { .object([("file", .string($0.name)), ("file_bytes", .int($0.bytes.count)),
                                               ("sha256", .string($0.sha256))]) } ?? .null),
        ])
    }
}
