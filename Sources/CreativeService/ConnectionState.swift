/// One request in progress on a connection: where it goes, its body so far, and what was answered.
///
/// Created at the first access-handler call, handed to MHD with `Unmanaged.passRetained` once, and
/// released exactly once in the request-completed callback (which MHD calls for every request
/// whose handler it called, answered or aborted).
final class ConnectionState {
    let started: Double
    let method: String
    let path: String
    /// The matched route, nil when the request was refused at its headers.
    var route: Route?
    /// The route label for logs and metrics (the pattern, or `unmatched`).
    var label: String
    var body: [UInt8] = []
    /// Body bytes seen (kept or discarded), checked against the limit.
    var received = 0
    /// True once a body without Content-Length went over the limit (413 at its end).
    var tooLarge = false
    /// Set once a response is queued.
    var status: Int?
    var bytesSent = 0
    var errorCode: String?
    var rejectionCodes: [String] = []

    init(method: String, path: String, label: String, started: Double) {
        self.method = method
        self.path = path
        self.label = label
        self.started = started
    }

    /// Records what was answered.
    func answered(_ response: Response) {
        status = response.status
        bytesSent = response.body.count
        errorCode = response.errorCode
        rejectionCodes = response.rejectionCodes
    }
}
