import CreativeCore
import CreativeImaging

/// Validation (`creative-tool validate`, `POST /v1/validate`, and the first part of every
/// `process` job in the CLI, the service and the worker): the limits a request asks for, the
/// memory the job is charged, and the report, whatever the surface got, a file that could not be
/// read whole included. The surfaces only present the report (a line or JSON and the exit code, a
/// status, a result entry).
public enum ValidateOperation {
    /// The limits a validation is run within: the request's product, pre-flight and (when
    /// `checkingProfiles`) platform profiles, with the caller's caps. `process` reads its
    /// `--profile` as the renders' weight budgets and checks the upload against the product's
    /// rules: it passes `checkingProfiles: false`.
    public static func limits(_ request: ValidateRequest, maxBytes: Int = Catalog.defaultMaxBytes,
                              maxPixels: Int = Catalog.defaultMaxPixels, job: JobLimits,
                              checkingProfiles: Bool = true) -> ValidationLimits {
        var limits = ValidationLimits(maxBytes: maxBytes, maxPixels: maxPixels, job: job, product: request.product)
        limits.preflight = request.preflight
        if checkingProfiles { limits.profiles = request.profiles }
        return limits
    }

    /// The report of a creative as a surface got it, named `name`. One that could not be read
    /// whole is a report too: over the limit, validated from its head (`file_too_large` and
    /// whatever the header shows); not a regular file (`not_a_file`); missing or unreadable
    /// (`file_not_found`).
    public static func report(_ input: CreativeInput, name: String, limits: ValidationLimits) -> ValidationReport {
        var report = ValidationReport(file: name, product: limits.product, profiles: limits.profiles)
        switch input {
        case .bytes(let bytes):
            return Validator.validate(bytes, fileName: name, limits: limits)
        case .tooLarge(let size, let head):
            return Validator.validate(head, fileName: name, limits: limits, totalBytes: size)
        case .notAFile(let message):
            report.add(.notAFile, "\(message); give a regular file, or '-' and the bytes on standard input")
        case .unreadable(let message):
            report.add(.fileNotFound, "\(message); check the path")
        }
        return report
    }

    /// The report of an upload a job holds (the service's body): made on the source the upload
    /// opened for the job's charge (``memory(_:product:profiles:)``), and kept in it for a
    /// failed job's rejection (``OperationError/rejection(_:upload:product:profiles:limits:)``).
    public static func report(_ upload: Upload, limits: ValidationLimits) -> ValidationReport {
        Validator.validate(upload, limits: limits)
    }

    /// The memory a validation of `upload` holds at its peak, from its header alone (nothing is
    /// decoded, ``JobCost``): the strict decode's and the pre-flight checks', for a size the
    /// product (or every profile asked) accepts. A bundle: the budget its images are checked
    /// within. 0 for what cannot be opened or is not a size accepted: such a creative is refused
    /// without decoding.
    public static func memory(_ upload: Upload, product: Product,
                              profiles: [PlatformProfile] = []) -> Int {
        memory(upload, product: product, profiles: profiles) { _ in 0 }
    }

    /// ``memory(_:product:profiles:)``, or what `then` says the rest of the job holds on the
    /// decoded source when that is more (`process`'s renders). A bundle's renders are its
    /// static version's, made after the bundle's check has let its files go: the more of the
    /// check's budget and what `then` says of the static version (an HTML5 bundle on
    /// `/v1/process` was charged 16 MiB for a job of about 72 MiB).
    static func memory(_ upload: Upload, product: Product, profiles: [PlatformProfile],
                       then: (ImageSource) -> Int) -> Int {
        guard !upload.bytes.isEmpty else { return 0 }
        if Validator.isBundle(upload.bytes) {
            // The static version is checked as a banner of the product (its size the product's).
            guard let still = Validator.bundleStaticSource(upload.bytes),
                  ProfileChecks.accepts(still.displayedSize, product: product, profiles: []) else { return JobCost.bundleCheck }
            return max(JobCost.bundleCheck, then(still))
        }
        guard case .success(let source) = upload.source(),
              ProfileChecks.accepts(source.displayedSize, product: product, profiles: profiles) else { return 0 }
        return max(JobCost.validate(source).memory, then(source))
    }
}
