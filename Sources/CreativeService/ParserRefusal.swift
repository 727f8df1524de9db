import CMicroHTTPD
import CMicroHTTPDLoader
import CreativeCore
#if canImport(Glibc)
import Glibc
#endif

/// Requests libmicrohttpd's own parser refuses before the service sees their headers, answered
/// with the service's JSON error instead of libmicrohttpd's HTML page.
///
/// libmicrohttpd 0.9.75 checks `Content-Length` (a plain decimal number that fits 64 bits),
/// chunk size lines (hexadecimal within 64 bits) and the header section's size (its
/// per-connection memory) itself, and answers a refusal with its own page. For a refused
/// `Content-Length` it even sends its status line and headers twice (its state machine builds
/// the header block again after its error answer), so the client reads two answers. Its only
/// sign to the application is the error log line written just before it queues that answer,
/// on the refused connection's own thread: `creative_mhd_log` (CMicroHTTPDLoader) passes that
/// line's status here. The service writes its own answer straight to the socket, with
/// `Connection: close`, and shuts the sending side, so libmicrohttpd's answer fails to send and
/// the connection closes after the one JSON answer.
///
/// On the data plane and the admin listener alike: each runs one thread per connection, so the
/// thread names the connection.
enum ParserRefusal {
    /// The error the service answers for libmicrohttpd's `status`, given the log line before
    /// it (what it refused) and whether the headers had reached the service (then only the
    /// chunked body's framing is left for libmicrohttpd to refuse). `maxBodyBytes` is the route's
    /// limit once known, else the largest.
    static func error(status: Int, detail: String, inBody: Bool, maxBodyBytes: Int) -> ServiceError {
        let lower = detail.lowercased()
        switch status {
        case 413:
            return .payloadTooLarge(limit: maxBodyBytes)
        case 414:
            return .uriTooLong(limit: RequestIntake.maxTargetBytes)
        case 431:
            return .headerFieldsTooLarge(limit: RequestIntake.maxHeaderBytes)
        default:
            if lower.contains("content-length") { return .badRequest("Content-Length must be a decimal number") }
            if inBody || lower.contains("chunk") { return .badRequest("the chunked body is malformed") }
            return .badRequest("the request is malformed")
        }
    }
}

/// The refusal handler `creative_mhd_log` calls (a plain C callback): answers the request on
/// this thread's connection once, with the service's JSON error (``ParserRefusal``).
func creativeParserRefused(_ cls: UnsafeMutableRawPointer?, _ status: UInt32, _ detail: UnsafePointer<CChar>?) {
    guard let cls, let raw = creative_mhd_thread_connection() else { return }
    let listener = Unmanaged<Listener>.fromOpaque(cls).takeUnretainedValue()
    let connection = OpaquePointer(raw)
    // No request in progress (refused before its line came) or already answered: MHD's own.
    guard let state = listener.watch.request(on: connection), state.status == nil, !state.refused else { return }
    let error = ParserRefusal.error(status: Int(status), detail: detail.map { String(cString: $0) } ?? "", inBody: state.headersDone,
                                    maxBodyBytes: state.limit > 0 ? state.limit : listener.context.config.maxBodyBytes)
    state.parserRefused = true
    RequestIntake(listener: listener, connection: connection, state: state).refuse(error.response)
}
