import CreativeCore
import CreativeImaging

/// Why an operation gave no result, decided here once for every surface: each presents a case
/// its own way (the CLI: the code and `FILE: message`, exit 1 or 64; the service: a status, with
/// the report when there is one; the worker: its result entry).
public enum OperationError: Error, Sendable {
    /// The render needs artwork and none was given (a full screen fits the artwork in its safe
    /// area, which no test artwork is made for): refused before any work. The surface says how
    /// to give it (a FILE, the body).
    case needsArtwork(Product)
    /// The request cannot be met for this creative, a mistake of the caller's rather than the
    /// creative's (`fix`'s frame the animation does not have, an output name of another format):
    /// refused before any work. The surface says it as a usage error (the CLI's exit 64, HTTP 400).
    case invalidRequest(String)
    /// The creative is refused: it could not be opened, decoded or rendered within the limits,
    /// or no encoding fits its weight budget. `report` is its validation report, naming every
    /// problem; nil when the caller gave no bytes to report on (artwork it opened itself, or none).
    case rejected(ImagingError, report: ValidationReport?)
    /// The job ran past its deadline (`timeout`) or was cancelled (`cancelled`): no report.
    case stopped(ImagingError)
    /// The tool's own failure (`render_failed`) on input that validates cleanly, or on its
    /// built-in test artwork: `message` is the sentence a surface shows for it.
    case fault(ImagingError, message: String)

    /// The imaging error behind the failure; nil for ``needsArtwork(_:)`` and ``invalidRequest(_:)``.
    public var imagingError: ImagingError? {
        switch self {
        case .needsArtwork, .invalidRequest: nil
        case .rejected(let error, _), .stopped(let error), .fault(let error, _): error
        }
    }

    /// The validation report of a rejected creative, when there is one.
    public var report: ValidationReport? {
        if case .rejected(_, let report) = self { return report }
        return nil
    }

    /// The failure of an imaging error on an upload a job holds: stopped without a report past
    /// the deadline or on a cancellation; else rejected with the report, the one the job already
    /// made or one made now on the job's own source within `limits` (what is left of the job's
    /// deadline), against `product`'s sizes and `profiles`' rules, as the job was asked.
    /// A processing failure on a creative that validates cleanly is the tool's fault.
    public static func rejection(_ error: ImagingError, upload: Upload, product: Product, profiles: [PlatformProfile] = [],
                                 limits: JobLimits) -> OperationError {
        switch error {
        case .timeout, .cancelled: return .stopped(error)
        default: break
        }
        var checks = ValidationLimits(maxBytes: max(upload.bytes.count, 1), job: limits, product: product)
        checks.profiles = profiles
        let report = upload.report ?? Validator.validate(upload, limits: checks)
        if report.valid, case .operationFailed = error {
            return .fault(error, message: error.message)
        }
        return .rejected(error, report: report)
    }
}
