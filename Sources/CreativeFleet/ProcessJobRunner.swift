import CreativeCore
import CreativeImaging
import CreativeOperations

/// The worker's job: exactly `process`'s (``ProcessOperation``, which the command line and the
/// service run), with the worker's limits and each entry's options read through
/// ``ProcessRequest/jobFields`` (``JobFields``).
public struct ProcessJobRunner: Sendable {
    /// The limits `process` reads (its `--max-bytes`, `--max-pixels`, `--timeout`,
    /// `--memory-budget`); the product is each job's.
    public let limits: ValidationLimits
    /// The worker's `--memory-budget` when it gave one; nil: each job's product's default
    /// (``JobLimits/defaultMemoryBudget(for:)``).
    public let jobMemoryBudget: Int?
    /// The worker's own text for each job option (its `--product`, `--format`...), by option
    /// name: what an entry that names none gets.
    public let defaults: [String: String]

    public init(limits: ValidationLimits, defaults: [String: String], jobMemoryBudget: Int? = nil) {
        self.limits = limits
        self.defaults = defaults
        self.jobMemoryBudget = jobMemoryBudget
    }

    /// The memory budget of a job of `product`.
    func memoryBudget(_ product: Product) -> Int {
        jobMemoryBudget ?? JobLimits.defaultMemoryBudget(for: product)
    }

    /// The settings of an entry's job options (`product`, `format`, `formats`, `with`, `weight_budget`, `profile`),
    /// read as `process` reads its options.
    /// - Throws: ``FleetError/badJob(_:)`` with `process`'s own sentence for a wrong value, and
    ///   for a job field given twice or misspelled (``JobFields/check()``).
    func settings(_ entry: StreamEntry) throws(FleetError) -> JobSettings {
        let fields = JobFields(entry: entry, defaults: defaults)
        try fields.check()
        let request: ProcessRequest
        do throws(CoreError) { request = try ProcessRequest(fields) } catch {
            throw .badJob(TextFormat.clipped(error.description, 300))
        }
        // Everything that can change the answer: the tool, its JSON shapes, its libvips, and the
        // job's settings. The folder is named by the schema version, so a manifest of another
        // shape is never taken for this one's answer.
        let process = request.settings
        let fingerprint = "creative-tool \(BuildInfo.version); schema \(JSONContract.schemaVersion); "
            + "libvips \(VipsRuntime.version); "
            + "product \(request.product.rawValue); format \(process.format.rawValue); weight-budget \(process.weightBudget.asked)"
            + (process.autoFormats.map { "; formats " + OutputFormat.allCases.filter($0.contains).map(\.rawValue).joined(separator: ",") } ?? "")
            + (process.weightBudget.profiles.isEmpty ? "" : "; profile \(process.weightBudget.profiles.names)") + "; "
            + "max-bytes \(limits.maxBytes); max-pixels \(limits.maxPixels); memory-budget \(memoryBudget(request.product)); "
            + "timeout \(limits.job.timeout.map { String($0) } ?? "none")"
            + (process.campaign.isEmpty ? "" : "; with " + process.campaign.map(\.description).joined(separator: ","))
        return JobSettings(product: request.product, process: process, maxBytes: limits.maxBytes,
                           version: "v\(JSONContract.schemaVersion)-" + Checksum.sha256(Array(fingerprint.utf8)).prefix(16))
    }

    /// The limits of one job: the worker's, for the job's product (its memory budget too).
    func limits(_ settings: JobSettings) -> ValidationLimits {
        var limits = self.limits
        limits.product = settings.product
        limits.job.memoryBudget = memoryBudget(settings.product)
        return limits
    }

    /// The validation codes of a result for its result entry, `over_weight_budget` after them
    /// when a render could not fit (the manifest lists which).
    static func codes(_ result: JobResult) -> [String] {
        result.report.errors.map(\.code.rawValue) + (result.overWeightBudget.isEmpty ? [] : [ImagingError.overWeightBudgetCode])
    }

    /// Runs the job of one source. `source` names the input (its `s3://` address) in the report.
    /// - Returns: the files to write (the manifest last), or the failure's code and message (a
    ///   job that ran out of time or memory: a result, not retried).
    func run(_ input: JobInput, source: String, settings: JobSettings) -> Result<JobOutput, JobFailure> {
        do {
            // Validated, rendered where it is served among the settings' `with`, its preview drawn; a
            // source over `--max-bytes` is a rejected creative (its report from its head).
            let output = try ProcessOperation(limits: limits(settings), settings: settings.process)
                .run(CreativeInput(input), name: source)
            let result = output.result
            // The renders and the preview with the checksums the job computed, the manifest last.
            let files = result.files.map { file in
                JobOutputFile(name: file.name, bytes: file.bytes, sha256: file.sha256, contentType: file.mediaType)
            } + [JobOutputFile(name: JobResult.manifestName, bytes: output.manifest, sha256: nil,
                               contentType: GuidanceFormat.json.mediaType)]
            return .success(JobOutput(valid: result.report.valid, codes: Self.codes(result), files: files))
        } catch {
            // As `process` reports it: the code, and the message after the source's name.
            return .failure(JobFailure(code: error.code, message: "\(source): \(error.message)"))
        }
    }

    /// Whether an existing manifest is of a valid creative, and its error codes; nil when it
    /// cannot be read as one.
    func summary(ofManifest bytes: [UInt8]) -> (valid: Bool, codes: [String])? {
        guard let manifest = try? JSONParser.parse(bytes, maxDepth: 16, maxValues: 1 << 20),
              case .object(let fields) = manifest,
              case .object(let report)? = fields.first(where: { $0.0 == "report" })?.1,
              case .bool(let valid)? = report.first(where: { $0.0 == "valid" })?.1 else { return nil }
        var codes: [String] = []
        if case .array(let errors)? = report.first(where: { $0.0 == "errors" })?.1 {
            for case .object(let issue) in errors {
                if case .string(let code)? = issue.first(where: { $0.0 == "code" })?.1 { codes.append(code) }
            }
        }
        return (valid, codes)
    }
}
