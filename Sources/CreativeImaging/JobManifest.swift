import CreativeCore

extension CreativeJob {
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
