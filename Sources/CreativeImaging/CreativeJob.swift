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
/// slot the creative is picked for, decoding the source once, and draw the preview sheet. The
/// job's steps, in order, are ``JobSteps``'.
public enum CreativeJob {
    /// Runs the job on bytes held in memory, for the product of `limits` (its sizes are accepted,
    /// its slots rendered). Rejected creatives give a result with no files.
    /// `limits.job` bounds the whole job: its memory budget is charged with its ``ProcessPlan``
    /// before the decode, and its deadline (from the start) stops the decode and the renders.
    /// - Throws: ``ImagingError`` only when a valid creative fails to render, or runs out of
    ///   budget or time (``ImagingError/overMemoryBudget(needed:budget:)``, ``ImagingError/timeout(seconds:)``).
    /// `settings` (``ProcessSettings``):
    /// - its `format` is how every render is written (`auto` by default: the smallest encoding that
    ///   keeps the quality target, named in the manifest), its `autoFormats` what `auto` chooses
    ///   among (nil: ``OutputFormat/autoDefault``);
    /// - its `campaign` is the campaign's other sizes (``DevicePlan/campaign(_:with:)``): the
    ///   creative is rendered only into the slots where the ad server serves it among them;
    /// - its `weightBudget` decides each render's largest file from its size (``RenderWeightBudget``:
    ///   the budget asked, or the profiles' weight for the size when stricter): each render is the
    ///   best encoding that fits (``WeightBudgetSearch``); a render that cannot fit is listed in the
    ///   manifest and in ``JobResult/overWeightBudget``, not written, and the other renders are.
    public static func process(_ bytes: [UInt8], fileName: String, limits: ValidationLimits = ValidationLimits(),
                               settings: ProcessSettings = ProcessSettings(),
                               writingTo sink: JobFileSink? = nil) throws(ImagingError) -> JobResult {
        try process(Upload(bytes, fileName: fileName), limits: limits, settings: settings, writingTo: sink)
    }

    /// ``process(_:fileName:limits:settings:writingTo:)`` on an upload a job holds: its source is
    /// the one the upload opened, decoded once (by the validator's strict check, whose pixels the
    /// renders scale from, except a PNG's, which libpng checks); the report is recorded in the upload.
    /// With `sink`, each render and the preview are written through it as soon as each is
    /// encoded, and the result's files keep no bytes.
    /// `approved`: the upload was validated already (a campaign's approval, ``Upload/inspection``):
    /// its report and source are the job's, nothing is validated or opened again. The renders
    /// scale from the pixels its strict decode kept when the source still holds them; a campaign's
    /// approval lets them go, and the source is then decoded once for the renders.
    /// `sheetCopy`: the job keeps, in ``JobResult/sheetCopy``, the copy of its decode a campaign's
    /// sheet draws it from, and is charged for it.
    public static func process(_ upload: Upload, limits: ValidationLimits = ValidationLimits(),
                               settings: ProcessSettings = ProcessSettings(), approved: Bool = false,
                               sheetCopy: Bool = false, writingTo sink: JobFileSink? = nil) throws(ImagingError) -> JobResult {
        // The job's deadline bound for the whole job (and on ParallelWork's workers): the searches'
        // encodes and the sheet's bands stop at it. Its renders' budget searches start where
        // another render's ended (BudgetFitGuesses).
        try limits.asJob { (limits) throws(ImagingError) in
            try BudgetFitGuesses.binding { () throws(ImagingError) in
                let job = JobSteps(upload: upload, limits: limits, settings: settings, sheetCopy: sheetCopy, sink: sink)
                let validated: JobSteps.Validated
                switch job.validate(approved: approved) {
                case .valid(let valid): validated = valid
                case .rejected(let report): return rejected(report, input: upload.bytes)
                }
                let charged = try job.charge(validated)
                let decoded = try job.decode(validated, charged)
                let slots = job.assignSlots(validated)
                let rendered = try job.render(decoded, slots: slots, charged: charged, report: validated.report)
                return try job.manifest(validated, slots: slots, rendered: rendered, sheetCopy: decoded.sheetCopy)
            }
        }
    }

    /// The result for a creative that was rejected (or could not be read): the report alone.
    /// `input` is the upload's bytes, which the manifest names by SHA-256; nil when the file could
    /// not be read whole (missing, over the size limit), whose `sha256` is then null.
    public static func rejected(_ report: ValidationReport, input: [UInt8]?) -> JobResult {
        JobResult(report: report, files: [], manifest: manifest(report, input: input, renders: [], preview: nil))
    }
}
