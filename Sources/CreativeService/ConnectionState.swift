/// One request in progress on a connection: where it goes, its body so far, and what was answered.
///
/// Created when the request line is in (MHD's URI-log callback), handed to MHD with
/// `Unmanaged.passRetained` once, and released exactly once in the request-completed callback.
final class ConnectionState {
    let started: Double
    /// Bytes of the request target as sent (path and query), for the 414 check.
    let targetBytes: Int
    /// The answer the target's screen decided (``TargetScreen``): given at the headers.
    var targetProblem: ServiceError?
    /// Where the target began in libmicrohttpd's read buffer (``TargetScreen/hidesNUL(target:version:screened:)``).
    var targetAddress: UnsafeRawPointer?
    /// Set at the first access-handler call (the headers are in).
    var headersDone = false
    var method = "?"
    var path = ""
    /// The matched route, nil when the request was refused at its headers.
    var route: Route?
    /// The route label for logs and metrics (the pattern, or `unmatched`).
    var label = Router.unmatched
    /// The body limit of the route (bytes).
    var limit = 0
    var body: [UInt8] = []
    /// An answer decided at the headers, sent once the body is read (and dropped).
    var deferred: Response?
    /// Body bytes seen, checked against the limit.
    var received = 0
    /// Bytes taken from the memory budget for this request (given back when it completes).
    var reserved = 0
    /// True once a refusal was written straight to the socket before the body was read; the rest
    /// of the body is then read and dropped (lingering close), up to a bound.
    var refused = false
    /// True when libmicrohttpd's own parser refused the request (``ParserRefusal``): logged and
    /// counted as a malformed request, answered with the service's JSON error.
    var parserRefused = false
    /// Bytes dropped after the refusal.
    var drained = 0
    /// Set once a response is queued or written.
    var status: Int?
    var bytesSent = 0
    var errorCode: String?
    var rejectionCodes: [String] = []

    init(targetBytes: Int, started: Double) {
        self.targetBytes = targetBytes
        self.started = started
    }

    /// Records what was answered.
    func answered(_ response: Response) {
        status = response.status
        bytesSent = response.stream?.size ?? response.body.count
        errorCode = response.errorCode
        rejectionCodes = response.rejectionCodes
    }
}

/// The path of a request target: origin form (`/healthz`) as it is, absolute form
/// (`http://host/healthz`, which a server must accept, RFC 9112 section 3.2.2) reduced to its path.
enum RequestTarget {
    static func path(_ target: String) -> String {
        let lower = target.prefix(8).lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return target }
        let afterScheme = target[target.index(target.startIndex, offsetBy: lower.hasPrefix("http://") ? 7 : 8)...]
        guard let slash = afterScheme.firstIndex(of: "/") else { return "/" }
        return String(afterScheme[slash...])
    }
}
