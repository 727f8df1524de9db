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
    /// How every creative's renders are written; its `campaign` is the sizes uploaded before
    /// (`with`): the creatives are rendered only where they win among them too.
    public let settings: ProcessSettings
    /// The sizes uploaded before (``ProcessSettings/campaign``).
    var with: [PixelSize] { settings.campaign }

    public init(limits: ValidationLimits, settings: ProcessSettings = ProcessSettings()) {
        // The deadline starts here; the approval and every creative's job keep it (``ValidationLimits/asJob(_:)``).
        self.limits = limits.asJob { started in started }
        self.settings = settings
    }

    /// The campaign a request asks for within `limits`, whose product is the request's.
    public init(_ request: ProcessRequest, limits: ValidationLimits) {
        self.init(limits: limits, settings: request.settings)
    }

    /// The creatives as approved, before any is rendered: each one's name as the caller gave
    /// it, its folder inside the campaign's (``CampaignJob/folderNames(_:)``), its report, and
    /// the creative itself as it was read and validated, which its render uses.
    public struct Approval: Sendable {
        public let files: [String]
        /// Each creative's folder name, unique in the campaign.
        public let names: [String]
        public let reports: [ValidationReport]
        /// The campaign's sizes: each valid creative's, then `with`'s (``CampaignJob/sizes(valid:with:)``).
        public let sizes: [PixelSize]
        /// Each creative as approved: its bytes, the source they opened and its report
        /// (``Upload/inspection``), without pixels but the first creative's, which its render, the
        /// campaign's first, scales from; nil for one not read whole.
        public let creatives: [Upload?]
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

    /// Validates each creative of `inputs`, named `files`, once: read as the surface got it
    /// (each input is asked for once), opened and validated here; its render uses the bytes,
    /// source and report approved (``run(_:sheet:sink:keep:done:)``). One not read whole is reported as
    /// ``ValidateOperation/report(_:name:limits:)`` tells it.
    public func approve(_ files: [String], inputs: (Int) -> CreativeInput) -> Approval {
        let read = files.indices.map(inputs)
        return approve(files) { index in
            guard case .bytes(let bytes) = read[index] else { return nil }
            return Upload(bytes, fileName: files[index])
        } unread: { ValidateOperation.report(read[$0], name: files[$0], limits: limits) }
    }

    /// Validates each of `uploads` (the service's parts, their sources already opened for the
    /// charge, ``memory(_:product:sheet:)``), once, named by their file names.
    public func approve(_ uploads: [Upload]) -> Approval {
        approve(uploads.map(\.fileName)) { uploads[$0] } unread: { _ in ValidationReport(file: "", product: limits.product) }
    }

    /// Approves each creative: `upload(index)` is its bytes as read, or nil for one not read
    /// whole, whose report `unread(index)` makes. Each is opened and validated once; the pixels
    /// its strict decode kept for its pre-flight checks are let go as soon as its report is made,
    /// so the approval holds the campaign's bytes and one decode at a time, never every creative's
    /// pixels (16 interstitials held +293 MB against a 142.7 MiB charge): the render decodes the
    /// approved bytes once more (``memory(_:product:sheet:)``). The first creative, rendered
    /// first, is approved last and keeps its decode, which its render then scales from: it is
    /// decoded once (the campaign's sizes need every report before any creative is rendered).
    private func approve(_ files: [String], upload: (Int) -> Upload?,
                         unread: (Int) -> ValidationReport) -> Approval {
        let creatives = files.indices.map(upload)
        var reports: [ValidationReport?] = Array(repeating: nil, count: files.count)
        for index in Array(files.indices.dropFirst()) + files.indices.prefix(1) {
            guard let creative = creatives[index] else {
                reports[index] = unread(index)
                continue
            }
            reports[index] = Validator.inspect(creative, limits: limits).report
            if index != 0 { creative.releasePixels() }
        }
        let made = reports.map { $0 ?? ValidationReport(file: "", product: limits.product) }
        return Approval(files: files, names: CampaignJob.folderNames(files), reports: made,
                        sizes: CampaignJob.sizes(valid: made, with: with), creatives: creatives)
    }

    /// What a campaign of `uploads` holds at its peak, from the headers alone: its bytes (the
    /// caller's), one creative's job at a time (approved, then rendered), the largest's
    /// (``ProcessOperation/memory(_:product:)``), and beside it the small copy each rendered
    /// size keeps for the sheet (``CampaignSheet/copyBytes(_:campaign:product:)``, bounded as if
    /// each were alone) when the campaign draws its sheet (`sheet`); no approval keeps its pixels.
    public static func memory(_ uploads: [Upload], product: Product, sheet: Bool = true) -> Int {
        var job = 0, copies = 0
        var sizes: Set<PixelSize> = []
        for upload in uploads {
            let memory = ProcessOperation.memory(upload, product: product)
            // A size the product refuses is not decoded: no job, no copy.
            guard memory > 0 else { continue }
            job = max(job, memory)
            guard sheet else { continue }
            let opened = Validator.isBundle(upload.bytes) ? Validator.bundleStaticSource(upload.bytes) : try? upload.source().get()
            // One creative a size is rendered (the others fail `duplicate_size`): one copy a size.
            guard let size = opened?.displayedSize, sizes.insert(size).inserted else { continue }
            let bytes = CampaignSheet.copyBytes(size, campaign: [size], product: product)
            copies = copies > Int.max - bytes ? Int.max : copies + bytes
        }
        return job > Int.max - copies ? Int.max : job + copies
    }

    /// Runs each valid creative's `process` job among the campaign's sizes, one after the other
    /// (a second creative of a size already served fails, ``CampaignJob/run(files:reports:with:job:done:)``),
    /// on the creative as approved: nothing is read, validated or opened again
    /// (``ProcessOperation/run(approved:sheetCopy:writingTo:)``).
    /// - `sink(index, folder)`: where its files go as they are done; nil keeps them in its output.
    /// - `keep(index, output)`: takes a creative's finished job (writes its manifest, uploads its
    ///   files); what it throws fails that creative.
    /// - `done`: hears each member as soon as it is done.
    /// - `sheet`: the campaign's sheet will be drawn (``sheet(_:writingTo:)``): each creative's job
    ///   keeps the small copy of its decode the sheet draws it from, and the next creatives' jobs
    ///   are planned within what those copies leave of the budget.
    ///
    /// A creative whose job was stopped (past the deadline, or cancelled: the deadline is the
    /// campaign's, so the rest would stop too) or whose output could not be kept stops the
    /// campaign: the creatives after it fail `cancelled`, and ``Outcome/stopped`` names it.
    public func run(_ approval: Approval, sheet: Bool = true, sink: (Int, String) -> JobFileSink?,
                    keep: (Int, ProcessOperation.Output) throws(ImagingError) -> Void,
                    done: (CampaignMember) -> Void = { _ in }) -> Outcome {
        var stopped: (index: Int, error: ImagingError)?
        // The sheet copies the creatives rendered so far keep: each next job is planned within what they leave.
        var held = 0
        let members = CampaignJob.run(files: approval.files, reports: approval.reports, with: with, job: { index, sizes in
            guard stopped == nil else { return .failure(.cancelled("an earlier creative's job was stopped")) }
            var limits = self.limits
            limits.job.memoryBudget = max(limits.job.memoryBudget - held, 0)
            var settings = self.settings
            settings.campaign = sizes
            let operation = ProcessOperation(limits: limits, settings: settings)
            do throws(ImagingError) {
                guard let creative = approval.creatives[index] else {
                    let rejected = ProcessOperation.Output(CreativeJob.rejected(approval.reports[index], input: nil))
                    do throws(ImagingError) { try keep(index, rejected) } catch {
                        stopped = (index, error)
                        throw error
                    }
                    return .success(rejected.result)
                }
                let output = try operation.run(approved: creative, sheetCopy: sheet, writingTo: sink(index, approval.names[index]))
                if let copy = output.result.sheetCopy { held += (copy.size.pixelCount ?? 0) * copy.bands }
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

    /// `campaign.png` from the small copy each rendered creative's job made from its decode
    /// (``JobResult/sheetCopy``): nothing is read or decoded again. Written through `sink` when
    /// given, else kept in the file; nil when no creative was rendered.
    /// - Throws: ``ImagingError`` when the sheet is over the budget or past the deadline.
    public func sheet(_ outcome: Outcome, writingTo sink: JobFileSink? = nil) throws(ImagingError) -> JobFile? {
        let creatives = CampaignJob.sheetCreatives(outcome.members)
        guard !creatives.isEmpty else { return nil }
        return try CampaignSheet.draw(creatives, campaign: outcome.approval.sizes, product: limits.product,
                                      limits: limits, writingTo: sink)
    }

    /// `campaign.json` of the outcome, naming `sheet` (nil: none was drawn).
    public func json(_ outcome: Outcome, sheet: JobFile?) -> JSONValue {
        CampaignJob.json(product: limits.product, members: outcome.members, with: with, sheet: sheet)
    }
}
