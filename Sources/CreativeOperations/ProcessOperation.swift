import CreativeCore
import CreativeImaging

/// `process`'s job on one creative (`creative-tool process`, `POST /v1/process`, a worker's job,
/// and each creative of a campaign on the command line and in the worker): validated, rendered into
/// every device slot it is served in among its campaign, its preview drawn, and its manifest,
/// put together here once (``CreativeJob``). The surfaces write the files where they go (a folder
/// built whole, an answer, the store) and present the result.
public struct ProcessOperation: Sendable {
    /// The validation's limits (its product is the job's); the renders run within the same job limits.
    public let limits: ValidationLimits
    /// How the renders are written (the format, `auto`'s formats, the weight budget) and the
    /// campaign's other sizes: the creative is rendered only where it is served among them.
    public let settings: ProcessSettings

    public init(limits: ValidationLimits, settings: ProcessSettings = ProcessSettings()) {
        self.limits = limits
        self.settings = settings
    }

    /// The job a request asks for within `limits`, whose product is the request's.
    public init(_ request: ProcessRequest, limits: ValidationLimits) {
        self.init(limits: limits, settings: request.settings)
    }

    /// What the job gave: the result, the bytes of its `manifest.json`, and its files in the order
    /// they are written, the manifest last (the commit point of a folder or a stored job).
    public struct Output: Sendable {
        public let result: JobResult
        /// `manifest.json` as `process` writes it.
        public let manifest: [UInt8]

        init(_ result: JobResult) {
            self.result = result
            manifest = Array((result.manifest.serialized() + "\n").utf8)
        }

        /// The renders and the preview sheet (without bytes when the job wrote them out through a
        /// sink), then `manifest.json`.
        public var files: [(name: String, bytes: [UInt8])] {
            result.files.map { ($0.name, $0.bytes) } + [(JobResult.manifestName, manifest)]
        }
    }

    /// The job on a creative as a surface got it, named `name` in the report: a creative that could
    /// not be read whole is a rejected creative, its report saying why (``ValidateOperation``);
    /// `sink`, when given, takes each render and the preview as soon as it is done
    /// (``CreativeJob/process(_:limits:settings:approved:sheetCopy:writingTo:)``).
    /// - Throws: the imaging error of a valid creative that could not be rendered.
    public func run(_ input: CreativeInput, name: String, writingTo sink: JobFileSink? = nil) throws(ImagingError) -> Output {
        guard case .bytes(let bytes) = input else {
            return Output(CreativeJob.rejected(ValidateOperation.report(input, name: name, limits: limits), input: nil))
        }
        return Output(try CreativeJob.process(Upload(bytes, fileName: name), limits: limits, settings: settings,
                                              writingTo: sink))
    }

    /// The job on a creative a campaign approved (``CampaignOperation/approve(_:)``): the report
    /// and source its approval made (and the pixels it kept, if any) are the job's; nothing is read,
    /// validated or opened again, so the bytes approved are the bytes rendered. With `sheetCopy`,
    /// its result keeps the small copy of its decode the campaign's sheet draws it from
    /// (``JobResult/sheetCopy``).
    /// - Throws: the imaging error of a valid creative that could not be rendered.
    public func run(approved upload: Upload, sheetCopy: Bool = false,
                    writingTo sink: JobFileSink? = nil) throws(ImagingError) -> Output {
        Output(try CreativeJob.process(upload, limits: limits, settings: settings, approved: true, sheetCopy: sheetCopy,
                                       writingTo: sink))
    }

    /// The job on an upload a job holds (the service's body, its source opened once for the
    /// charge, ``memory(_:product:)``), its files kept in the output; one deadline covers the job
    /// and, when it fails, the report made for its rejection.
    /// - Throws: the failure as ``OperationError/rejection(_:upload:product:profiles:limits:)`` tells it.
    public func run(_ upload: Upload) throws(OperationError) -> Output {
        try limits.asJob { (limits) throws(OperationError) in
            do throws(ImagingError) {
                return Output(try CreativeJob.process(upload, limits: limits, settings: settings))
            } catch {
                throw .rejection(error, upload: upload, product: limits.product, limits: limits.job)
            }
        }
    }

    /// What the job on `source` is charged (``ProcessPlan``: its renders, its preview, within the
    /// limits' memory budget), from the header alone: `process --cost`.
    public func cost(_ source: ImageSource) -> JobCost {
        ProcessPlan(source, product: limits.product, settings: settings, memoryBudget: limits.job.memoryBudget).cost
    }

    /// The memory the job on `upload` holds at its peak, from the header alone (nothing is
    /// decoded): its validation's (``ValidateOperation/memory(_:product:profiles:)``), or its
    /// plan's with the most side by side when that is more (a surface caps it at its job budget,
    /// within which the job's own plan holds no more). 0 for what is refused without decoding.
    public static func memory(_ upload: Upload, product: Product) -> Int {
        ValidateOperation.memory(upload, product: product, profiles: []) { source in
            ProcessPlan(source, product: product, settings: ProcessSettings(), memoryBudget: .max / 4).cost.memory
        }
    }
}
