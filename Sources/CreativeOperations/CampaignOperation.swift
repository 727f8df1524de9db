import CreativeCore
import CreativeImaging

/// `process` of several creatives as one campaign (`creative-tool process a.png b.png --output-dir
/// DIR`, `POST /v1/campaign`, a worker's job with `sources`), put together here once: every
/// creative is validated first (the campaign is what is approved), each valid one is then run
/// as ``ProcessOperation`` among the campaign's sizes (``CampaignJob``), its contact sheet is
/// drawn, and `campaign.json` is made. The surfaces read the creatives, write each one's files
/// where they go (a folder built whole, nowhere, the store) and present the outcome.
public struct CampaignOperation: Sendable {
    /// Each creative's validation limits (the product is the campaign's); the renders run within
    /// the same job limits, under one deadline started when the operation is made: the campaign's,
    /// which every creative's job keeps (it restarted for each: 8 banner sizes under a 6 s
    /// deadline ran 16 s of CPU).
    public let limits: ValidationLimits
    public let format: FormatChoice
    /// For `auto`, the formats it chooses among (nil: ``OutputFormat/autoDefault``).
    public let autoFormats: Set<OutputFormat>?
    /// Sizes uploaded before (`with`): the creatives are rendered only where they win among them too.
    public let with: [PixelSize]
    /// Every render's weight budget.
    public let weightBudget: RenderWeightBudget

    public init(limits: ValidationLimits, format: FormatChoice = .auto, autoFormats: Set<OutputFormat>? = nil,
                with: [PixelSize] = [], weightBudget: RenderWeightBudget = RenderWeightBudget()) {
        var limits = limits
        limits.job = limits.job.started()
        self.limits = limits
        self.format = format
        self.autoFormats = autoFormats
        self.with = with
        self.weightBudget = weightBudget
    }

    /// The campaign a request asks for (its format, `with` and weight budget) within `limits`,
    /// whose product is the request's.
    public init(_ request: ProcessRequest, limits: ValidationLimits) {
        self.init(limits: limits, format: request.format, autoFormats: request.autoFormats, with: request.with,
                  weightBudget: request.weightBudget)
    }

    /// The creatives as approved, before any is rendered: each one's name as the caller gave
    /// it, its folder inside the campaign's (``CampaignJob/folderNames(_:)``) and its report.
    public struct Approval: Sendable {
        public let files: [String]
        /// Each creative's folder name, unique in the campaign.
        public let names: [String]
        public let reports: [ValidationReport]
        /// The campaign's sizes: each valid creative's, then `with`'s (``CampaignJob/sizes(valid:with:)``).
        public let sizes: [PixelSize]
    }

    /// What the campaign gave: each creative's outcome, in order, and the creative that stopped
    /// it, if one did.
    public struct Outcome: Sendable {
        public let approval: Approval
        public let members: [CampaignMember]
        /// The creative (its index) whose job was stopped or whose files could not be kept, and
        /// why; the creatives after it were not run.
        public let stopped: (index: Int, error: ImagingError)?

        /// How many creatives were rendered.
        public var rendered: Int { members.filter(\.rendered).count }
    }

    /// Validates the creatives named `files`: `report(index)` makes one's report
    /// (``ValidateOperation``, on what the surface holds).
    public func approve(_ files: [String], report: (Int) -> ValidationReport) -> Approval {
        let reports = files.indices.map(report)
        return Approval(files: files, names: CampaignJob.folderNames(files), reports: reports,
                        sizes: CampaignJob.sizes(valid: reports, with: with))
    }

    /// Validates each creative of `inputs`, named `files` (``ValidateOperation/report(_:name:limits:)``).
    public func approve(_ files: [String], inputs: (Int) -> CreativeInput) -> Approval {
        approve(files) { ValidateOperation.report(inputs($0), name: files[$0], limits: limits) }
    }

    /// Runs each valid creative's `process` job among the campaign's sizes, one after the other
    /// (a second creative of a size already served fails, ``CampaignJob/run(files:reports:with:job:done:)``).
    /// - `input(index)`: the creative again (a surface may read it again rather than hold every creative).
    /// - `sink(index, folder)`: where its files go as they are done; nil keeps them in its output.
    /// - `keep(index, output)`: takes a creative's finished job (writes its manifest, uploads its
    ///   files); what it throws fails that creative.
    /// - `done`: hears each member as soon as it is done.
    ///
    /// A creative whose job was stopped (past the deadline, or cancelled: the deadline is the
    /// campaign's, so the rest would stop too) or whose output could not be kept stops the
    /// campaign: the creatives after it fail `cancelled`, and ``Outcome/stopped`` names it.
    public func run(_ approval: Approval, input: (Int) -> CreativeInput, sink: (Int, String) -> JobFileSink?,
                    keep: (Int, ProcessOperation.Output) throws(ImagingError) -> Void,
                    done: (CampaignMember) -> Void = { _ in }) -> Outcome {
        var stopped: (index: Int, error: ImagingError)?
        let members = CampaignJob.run(files: approval.files, reports: approval.reports, with: with, job: { index, sizes in
            guard stopped == nil else { return .failure(.cancelled("an earlier creative's job was stopped")) }
            let operation = ProcessOperation(limits: limits, format: format, autoFormats: autoFormats, campaign: sizes,
                                             weightBudget: weightBudget)
            do throws(ImagingError) {
                let output = try operation.run(input(index), name: approval.files[index],
                                               writingTo: sink(index, approval.names[index]))
                do throws(ImagingError) { try keep(index, output) } catch {
                    stopped = (index, error)
                    throw error
                }
                return .success(output.result)
            } catch {
                switch error {
                case .timeout, .cancelled: stopped = stopped ?? (index, error)
                default: break
                }
                return .failure(error)
            }
        }, done: done)
        return Outcome(approval: approval, members: members, stopped: stopped)
    }

    /// `campaign.png` from each rendered creative's bytes (`bytes(index)`; nil skips it), written
    /// through `sink` when given, else kept in the file; nil when no creative was rendered.
    /// - Throws: ``ImagingError`` when a creative cannot be decoded again, or the sheet is over the budget.
    public func sheet(_ outcome: Outcome, bytes: (Int) -> [UInt8]?, writingTo sink: JobFileSink? = nil) throws(ImagingError) -> JobFile? {
        let creatives = CampaignJob.sheetCreatives(outcome.members, bytes: bytes)
        guard !creatives.isEmpty else { return nil }
        return try CampaignSheet.draw(creatives, campaign: outcome.approval.sizes, product: limits.product,
                                      limits: limits, writingTo: sink)
    }

    /// `campaign.json` of the outcome, naming `sheet` (nil: none was drawn).
    public func json(_ outcome: Outcome, sheet: JobFile?) -> JSONValue {
        CampaignJob.json(product: limits.product, members: outcome.members, with: with, sheet: sheet)
    }
}
