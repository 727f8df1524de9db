/// Every failure of the worker's store, queue and job handling, with a stable code.
public enum FleetError: Error, Sendable, CustomStringConvertible, Equatable {
    /// A bad option or address (`bad_option`): fix the command line.
    case badOption(String)
    /// No usable AWS credentials (`no_credentials`).
    case noCredentials(String)
    /// The store could not be reached, timed out or answered 5xx/429 (`store_unavailable`): retried.
    case storeUnavailable(String)
    /// The store refused the request (`store_refused`, a 4xx other than 404, e.g. a bad signature).
    case storeRefused(status: Int, String)
    /// The object does not exist (`not_found`).
    case notFound(String)
    /// Redis could not be reached or the connection broke (`queue_unavailable`): reconnected.
    case queueUnavailable(String)
    /// Redis answered an error (`queue_error`).
    case queueError(String)
    /// A job entry that cannot be run as given (`bad_job`): missing or malformed fields.
    case badJob(String)
    /// A job's source names no object it may read (`bad_source`): a bucket, a prefix, or a key
    /// with a `.` or `..` segment (``S3Location/objectProblem``). Answered, never retried.
    case badSource(String)

    /// The stable code.
    public var code: String {
        switch self {
        case .badOption: "bad_option"
        case .noCredentials: "no_credentials"
        case .storeUnavailable: "store_unavailable"
        case .storeRefused: "store_refused"
        case .notFound: "not_found"
        case .queueUnavailable: "queue_unavailable"
        case .queueError: "queue_error"
        case .badJob: "bad_job"
        case .badSource: "bad_source"
        }
    }

    /// Whether trying again later may succeed (network and server trouble).
    public var isTransient: Bool {
        switch self {
        case .storeUnavailable, .queueUnavailable: true
        default: false
        }
    }

    /// What happened, without the code.
    public var message: String {
        switch self {
        case .badOption(let text), .noCredentials(let text), .storeUnavailable(let text), .notFound(let text),
             .queueUnavailable(let text), .queueError(let text), .badJob(let text), .badSource(let text):
            text
        case .storeRefused(let status, let text): "HTTP \(status): \(text)"
        }
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
