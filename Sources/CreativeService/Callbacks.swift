import CMicroHTTPD
import CMicroHTTPDLoader
import CreativeCore
import CreativeImaging
#if canImport(Glibc)
import Glibc
#endif

// The C callbacks MHD calls from its threads: plain functions (never closures in main.swift,
// which would belong to the main actor), recovering the listener from `cls` and the per-request
// state from `con_cls` with `Unmanaged`.

/// MHD's URI-log callback: the request line is in (headers not yet), and its query is not parsed
/// yet. Creates the request's state here, so that a request MHD itself refuses later (a header
/// section over its memory) still gets its completed callback, log line and metric, and screens
/// the target (``TargetScreen``: too long, too many parameters, a NUL in the path), cutting a
/// refused request's query before MHD stores it.
func creativeRequestStarted(
    _ cls: UnsafeMutableRawPointer?, _ uri: UnsafePointer<CChar>?, _ connection: OpaquePointer?
) -> UnsafeMutableRawPointer? {
    guard let cls else { return nil }
    let listener = Unmanaged<Listener>.fromOpaque(cls).takeUnretainedValue()
    let screened = uri.map { TargetScreen.screen($0) } ?? TargetScreen.Outcome(bytes: 0, problem: nil)
    let state = ConnectionState(targetBytes: screened.bytes, started: monotonicSeconds())
    state.targetProblem = screened.problem
    state.targetAddress = uri.map { UnsafeRawPointer($0) }
    if let uri { state.path = String(TextFormat.clipped(String(cString: uri), 200)) }
    listener.context.metrics.started()
    if let connection {
        listener.watch.attach(state, connection)
        creative_mhd_set_thread_connection(UnsafeMutableRawPointer(connection))
    }
    return Unmanaged.passRetained(state).toOpaque()
}

/// MHD's connection notification: hands each connection's socket to the deadline watch.
func creativeConnectionNotified(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ code: MHD_ConnectionNotificationCode
) {
    guard let cls, let connection else { return }
    let listener = Unmanaged<Listener>.fromOpaque(cls).takeUnretainedValue()
    if code == .CONNECTION_NOTIFY_STARTED {
        listener.watch.opened(connection, fd: creative_mhd_connection_fd(connection))
    } else if let orphan = listener.watch.closed(connection) {
        // MHD dropped this request without its completed callback: finish it here, and give
        // back the reference MHD held.
        finish(orphan, listener: listener, termination: .REQUEST_TERMINATED_WITH_ERROR)
        Unmanaged.passUnretained(orphan).release()
    }
}

/// MHD's access handler: called at the headers (first call), once per body chunk, and once more
/// with no data when the body is complete.
func creativeAccessHandler(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?, _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let conCls, let uploadDataSize else { return .NO }
    let listener = Unmanaged<Listener>.fromOpaque(cls).takeUnretainedValue()
    let state: ConnectionState
    if let existing = conCls.pointee {
        state = Unmanaged<ConnectionState>.fromOpaque(existing).takeUnretainedValue()
    } else {
        state = ConnectionState(targetBytes: url.map { strlen($0) } ?? 0, started: monotonicSeconds())
        conCls.pointee = Unmanaged.passRetained(state).toOpaque()
        listener.context.metrics.started()
        listener.watch.attach(state, connection)
    }
    if !state.headersDone {
        state.headersDone = true
        if state.targetProblem == nil,
           TargetScreen.hidesNUL(target: state.targetAddress, version: version, screened: state.targetBytes) {
            state.targetProblem = .invalidPath
        }
        state.method = method.map { String(cString: $0) } ?? "GET"
        state.path = RequestTarget.path(url.map { String(cString: $0) } ?? "/")
        return RequestIntake(listener: listener, connection: connection, state: state)
            .headers(version: version.map { String(cString: $0) } ?? "")
    }
    let intake = RequestIntake(listener: listener, connection: connection, state: state)
    let size = uploadDataSize.pointee
    if size > 0 {
        defer { uploadDataSize.pointee = 0 }
        return intake.body(uploadData, count: size)
    }
    return intake.complete()
}

/// MHD's request-completed callback: releases the state (the one `release` of its
/// `passRetained`) after ``finish(_:listener:termination:)``.
func creativeRequestCompleted(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ termination: MHD_RequestTerminationCode
) {
    guard let cls, let conCls, let pointer = conCls.pointee else { return }
    conCls.pointee = nil
    let state = Unmanaged<ConnectionState>.fromOpaque(pointer).takeRetainedValue()
    let listener = Unmanaged<Listener>.fromOpaque(cls).takeUnretainedValue()
    if let connection { listener.watch.detach(connection) }
    finish(state, listener: listener, termination: termination)
}

/// The end of a request, answered or not: gives back its memory budget, records metrics and
/// writes the log line.
private func finish(_ state: ConnectionState, listener: Listener, termination: MHD_RequestTerminationCode) {
    let context = listener.context
    context.budget.release(state.reserved)
    state.reserved = 0
    let seconds = monotonicSeconds() - state.started
    let completed = termination == .REQUEST_TERMINATED_COMPLETED_OK || state.refused
    // A request libmicrohttpd's parser refused counts as malformed (no status in the metrics),
    // whatever the service answered for it.
    let status = completed && !state.parserRefused ? state.status : nil
    let outcome: String
    switch termination {
    case _ where state.parserRefused: outcome = "malformed_request"
    case _ where state.refused: outcome = "refused_early"
    case .REQUEST_TERMINATED_COMPLETED_OK: outcome = "completed"
    case .REQUEST_TERMINATED_TIMEOUT_REACHED: outcome = "timeout"
    case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: outcome = "shutdown"
    case .REQUEST_TERMINATED_CLIENT_ABORT: outcome = "client_abort"
    case .REQUEST_TERMINATED_READ_ERROR: outcome = "read_error"
    case _ where !state.headersDone: outcome = "malformed_request"
    default: outcome = "error"
    }
    context.metrics.finished(route: state.label, method: metricMethod(state.method), status: status,
                             seconds: seconds, errorCode: completed ? state.errorCode : nil,
                             rejectionCodes: completed ? state.rejectionCodes : [],
                             malformed: outcome == "malformed_request")
    context.log.request(method: state.method, route: state.label, path: state.path, status: state.status,
                        bytes: state.bytesSent, seconds: seconds, errorCode: state.errorCode, outcome: outcome)
}

/// The smallest answer body charged against the budget while it is sent (``send(_:on:state:context:closing:)``).
let heldAnswerBytes = 256 << 10

/// Known methods keep their name as a metric label; anything else is `other`.
private func metricMethod(_ method: String) -> String {
    ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"].contains(method) ? method : "other"
}

/// Queues a response (copying a small body) and records it on the state. `closing` adds
/// `Connection: close` (MHD then closes after the answer, reading nothing more). A body of
/// ``heldAnswerBytes`` or more (a JSON answer with its renders inline) is sent from where it is,
/// charged against the process-wide budget until libmicrohttpd frees it, as a zip answer is.
func send(_ response: Response, on connection: OpaquePointer, state: ConnectionState,
          context: ServiceContext, closing: Bool = false) -> MHD_Result {
    var body = response.body
    let budget = context.budget
    let stream = response.stream ?? (body.count < heldAnswerBytes ? nil : BodyStream(parts: [body]) { bytes in
        budget.take(bytes)
        return BudgetHold(budget: budget, bytes: bytes)
    })
    let created = stream.map(streamedResponse) ?? body.withUnsafeMutableBytes { buffer in
        MHD_create_response_from_buffer(buffer.count, buffer.baseAddress, .RESPMEM_MUST_COPY)
    }
    guard let created else { return .NO }
    defer { MHD_destroy_response(created) }
    _ = MHD_add_response_header(created, "Content-Type", response.contentType)
    _ = MHD_add_response_header(created, "X-Content-Type-Options", "nosniff")
    for (name, value) in response.headers { _ = MHD_add_response_header(created, name, value) }
    if closing || context.isDraining { _ = MHD_add_response_header(created, "Connection", "close") }
    let queued = MHD_queue_response(connection, UInt32(response.status), created)
    if queued == .YES { state.answered(response) }
    return queued
}

/// Values of one kind (headers or query arguments) through MHD's iterator, with their sizes.
private final class ValueBox {
    var pairs: [(String, String)] = []
    var bytes = 0
}

private func collectValue(
    _ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ keySize: Int,
    _ value: UnsafePointer<CChar>?, _ valueSize: Int
) -> MHD_Result {
    guard let cls else { return .NO }
    let box = Unmanaged<ValueBox>.fromOpaque(cls).takeUnretainedValue()
    func text(_ pointer: UnsafePointer<CChar>?, _ count: Int) -> String {
        guard let pointer else { return "" }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }
    box.pairs.append((text(key, keySize), text(value, valueSize)))
    box.bytes += keySize + valueSize + 4
    return .YES
}

/// Every value of `kind` on the connection, in order, and their size as sent (`name: value\r\n`).
func connectionValues(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> (pairs: [(String, String)], bytes: Int) {
    let box = ValueBox()
    withExtendedLifetime(box) {
        _ = MHD_get_connection_values_n(connection, kind, collectValue, Unmanaged.passUnretained(box).toOpaque())
    }
    return (box.pairs, box.bytes)
}
