import CreativeCore
import CreativeFleet
import CreativeImaging
import CreativeService

/// The worker's job: exactly `process`'s (``ProcessJob``), with the worker's limits and each
/// entry's product and format.
struct ProcessJobRunner: JobRunner {
    /// The limits `process` reads (``ValidateCommand/validationLimits(_:)``); the product is each job's.
    let limits: ValidationLimits
    /// The product and format of entries that name none.
    let defaultProduct: Product
    let defaultFormat: FormatChoice
    /// The weight budget and profiles of entries that name none (`worker --weight-budget`, `--profile`).
    var defaultBudget = RenderWeightBudget()

    func settings(product: String?, format: String?, with: String?, weightBudget: String?,
                  profile: String?) throws(FleetError) -> JobSettings {
        let chosenProduct: Product
        if let product, !product.isEmpty {
            guard let named = Product(rawValue: product) else {
                throw .badJob("product '\(TextFormat.clipped(product))' is not one of \(Product.names)")
            }
            chosenProduct = named
        } else {
            chosenProduct = defaultProduct
        }
        let chosenFormat: FormatChoice
        if let format, !format.isEmpty {
            guard let named = FormatChoice(rawValue: format) else {
                throw .badJob("format '\(TextFormat.clipped(format))' is not one of "
                    + FormatChoice.allCases.map(\.rawValue).joined(separator: ", "))
            }
            chosenFormat = named
        } else {
            chosenFormat = defaultFormat
        }
        let campaign: [PixelSize]
        do throws(CoreError) {
            campaign = try ProcessRequest.campaignSizes(with, product: chosenProduct, spelling: ProcessRequest.with.name)
        } catch {
            throw .badJob(error.description)
        }
        // Read as process reads --weight-budget and --profile (an empty field is no field); a
        // field the entry does not give is the worker's.
        let budget: RenderWeightBudget
        do throws(CoreError) {
            let fields = EntryFields(fields: [ProcessRequest.weightBudget.name: weightBudget, ProcessRequest.profile.name: profile])
            let read = try RenderRequest.weightBudgets(fields, weightBudget: ProcessRequest.weightBudget)
            budget = RenderWeightBudget(asked: fields.has(ProcessRequest.weightBudget) ? read.asked : defaultBudget.asked,
                                        profiles: fields.has(ProcessRequest.profile) ? read.profiles : defaultBudget.profiles)
        } catch {
            throw .badJob(error.description)
        }
        // Everything that can change the answer: the tool, its JSON shapes, its libvips, and the
        // job's settings. The folder is named by the schema version, so a manifest of another
        // shape is never taken for this one's answer.
        let fingerprint = "creative-tool \(BuildInfo.version); schema \(JSONContract.schemaVersion); "
            + "libvips \(VipsRuntime.version); "
            + "product \(chosenProduct.rawValue); format \(chosenFormat.rawValue); weight-budget \(budget.asked)"
            + (budget.profiles.isEmpty ? "" : "; profile \(budget.profiles.names)") + "; max-bytes \(limits.maxBytes); "
            + "max-pixels \(limits.maxPixels); memory-budget \(limits.job.memoryBudget); "
            + "timeout \(limits.job.timeout.map { String($0) } ?? "none")"
            + (campaign.isEmpty ? "" : "; with " + campaign.map(\.description).joined(separator: ","))
        var settings = JobSettings(product: chosenProduct, format: chosenFormat, maxBytes: limits.maxBytes,
                                   version: "v\(JSONContract.schemaVersion)-" + Checksum.sha256(Array(fingerprint.utf8)).prefix(16))
        settings.campaign = campaign
        settings.weightBudget = budget
        return settings
    }

    func run(_ input: JobInput, source: String, settings: JobSettings) -> Result<JobOutput, JobFailure> {
        var limits = self.limits
        limits.product = settings.product
        let read: Result<[UInt8], FileIO.ReadFailure> = switch input {
        case .bytes(let bytes): .success(bytes)
        case .tooLarge(let size, let head): .failure(.tooLarge(size: size, head: head))
        }
        do {
            let output = try ProcessJob.run(read, name: source, limits: limits, format: settings.format,
                                            campaign: settings.campaign, weightBudget: settings.weightBudget)
            let report = output.result.report
            // The renders and the preview with the checksums the job computed, the manifest last.
            let files = output.result.files.map { file in
                JobOutputFile(name: file.name, bytes: file.bytes, sha256: file.sha256, contentType: file.format.mediaType)
            } + [JobOutputFile(name: JobResult.manifestName, bytes: Array(output.manifestText.utf8), sha256: nil,
                               contentType: GuidanceFormat.json.mediaType)]
            // A render over its weight budget is named in the job's line by its code (the manifest lists it).
            let overBudget = output.result.overWeightBudget.isEmpty ? [] : [ImagingError.overWeightBudgetCode]
            return .success(JobOutput(valid: report.valid, codes: report.errors.map(\.code.rawValue) + overBudget,
                                      files: files))
        } catch {
            // As `process` reports it: the code, and the message after the source's name.
            return .failure(JobFailure(code: error.code, message: "\(source): \(error.message)"))
        }
    }

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

/// A job entry's fields as an ``OptionSource``, so the worker reads `weight_budget` and `profile`
/// as `process` reads its flags (the same ranges, the same did-you-mean); an empty field is none.
private struct EntryFields: OptionSource {
    let fields: [String: String?]

    func given(_ option: OptionDeclaration) -> String? {
        guard let value = fields[option.name] ?? nil, !value.isEmpty else { return nil }
        return value
    }

    func every(_ option: OptionDeclaration) -> [String] { given(option).map { [$0] } ?? [] }

    func spelling(_ option: OptionDeclaration) -> String { option.name }
}
