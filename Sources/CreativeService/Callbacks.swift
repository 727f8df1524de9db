import CMicroHTTPD
import CreativeCore
#if canImport(Glibc)
import Glibc
#endif

// The C callbacks MHD calls from its connection threads: plain functions (never closures in
// main.swift, which would belong to the main actor), recovering the shared context from `cls`
// and the per-request state from `con_cls` with `Unmanaged`.

/// MHD's access handler: called at the headers (with `*con_cls == nil`), once per body chunk,
/// and once more with no data when the body is complete.
func creativeAccessHandler(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?, _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let conCls, let uploadDataSize else { return .NO }
    let context = Unmanaged<ServiceContext>.fromOpaque(cls).takeUnretainedValue()

    guard let existing = conCls.pointee else {
        // First call: the headers are in, the body (if any) is not read yet.
        let methodText = method.map { String(cString: $0) } ?? "GET"
        let pathText = url.map { String(cString: $0) } ?? "/"
        let state = ConnectionState(method: methodText, path: pathText, label: Router.unmatched,
                                    started: monotonicSeconds())
        conCls.pointee = Unmanaged.passRetained(state).toOpaque()
        context.metrics.started()
        switch context.router.resolve(method: methodText, path: pathText) {
        case .failure(let error):
            state.label = context.router.label(for: pathText)
            return send(error.response, on: connection, state: state, context: context)
        case .success(let route):
            state.route = route
            state.label = route.pattern
            if route.needsAuth && !context.auth.allows(authorization: header(connection, "Authorization")) {
                return send(ServiceError.unauthorized.response, on: connection, state: state, context: context)
            }
            if let length = header(connection, "Content-Length").flatMap({ Int($0) }),
               length > context.config.maxBodyBytes {
                return send(ServiceError.payloadTooLarge(limit: context.config.maxBodyBytes).response,
                            on: connection, state: state, context: context)
            }
            if route.takesBody, let length = header(connection, "Content-Length").flatMap({ Int($0) }), length > 0 {
                state.body.reserveCapacity(length)
            }
            return .YES
        }
    }

    let state = Unmanaged<ConnectionState>.fromOpaque(existing).takeUnretainedValue()
    let size = uploadDataSize.pointee
    if size > 0 {
        defer { uploadDataSize.pointee = 0 }
        if state.status != nil { return .YES }  // answered already: drop the rest
        state.received += size
        if state.received > context.config.maxBodyBytes {
            // A body without Content-Length (chunked) grew past the limit: keep none of it and
            // answer 413 at its end (MHD cannot answer mid-body); past a hard cap, hang up.
            state.body = []
            state.tooLarge = true
            return state.received > context.config.maxBodyBytes &+ discardAllowance ? .NO : .YES
        }
        if state.route?.takesBody == true, let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: size) { pointer in
                state.body.append(contentsOf: UnsafeBufferPointer(start: pointer, count: size))
            }
        }
        return .YES
    }
    if state.status != nil { return .YES }
    guard let route = state.route else { return .NO }
    if state.tooLarge {
        return send(ServiceError.payloadTooLarge(limit: context.config.maxBodyBytes).response,
                    on: connection, state: state, context: context)
    }

    // The whole request is in: run the handler on this connection's thread.
    let request = Request(method: state.method, path: state.path, query: arguments(connection),
                          contentType: header(connection, "Content-Type"), body: state.body)
    state.body = []
    let response: Response
    do {
        response = try route.handler(request, context)
    } catch {
        response = error.response
    }
    return send(response, on: connection, state: state, context: context)
}

/// MHD's request-completed callback: releases the state (the one `release` of its
/// `passRetained`), records metrics and writes the log line.
func creativeRequestCompleted(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ termination: MHD_RequestTerminationCode
) {
    guard let cls, let conCls, let pointer = conCls.pointee else { return }
    conCls.pointee = nil
    let state = Unmanaged<ConnectionState>.fromOpaque(pointer).takeRetainedValue()
    let context = Unmanaged<ServiceContext>.fromOpaque(cls).takeUnretainedValue()
    let seconds = monotonicSeconds() - state.started
    let completed = termination == .REQUEST_TERMINATED_COMPLETED_OK
    let status = completed ? state.status : nil
    let outcome: String
    switch termination {
    case .REQUEST_TERMINATED_COMPLETED_OK: outcome = "completed"
    case .REQUEST_TERMINATED_TIMEOUT_REACHED: outcome = "timeout"
    case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: outcome = "shutdown"
    case .REQUEST_TERMINATED_CLIENT_ABORT: outcome = "client_abort"
    case .REQUEST_TERMINATED_READ_ERROR: outcome = "read_error"
    default: outcome = "error"
    }
    context.metrics.finished(route: state.label, method: metricMethod(state.method), status: status,
                             seconds: seconds, errorCode: completed ? state.errorCode : nil,
                             rejectionCodes: completed ? state.rejectionCodes : [])
    context.log.request(method: state.method, route: state.label, path: state.path, status: state.status,
                        bytes: state.bytesSent, seconds: seconds, errorCode: state.errorCode, outcome: outcome)
}

/// Bytes of an over-limit chunked body read (and dropped) past the limit before hanging up.
private let discardAllowance = 64 * 1024 * 1024

/// Known methods keep their name as a metric label; anything else is `other`.
private func metricMethod(_ method: String) -> String {
    ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"].contains(method) ? method : "other"
}

/// Queues a response (copying the body) and records it on the state.
private func send(_ response: Response, on connection: OpaquePointer, state: ConnectionState,
                  context: ServiceContext) -> MHD_Result {
    var body = response.body
    let created = body.withUnsafeMutableBytes { buffer in
        MHD_create_response_from_buffer(buffer.count, buffer.baseAddress, .RESPMEM_MUST_COPY)
    }
    guard let created else { return .NO }
    defer { MHD_destroy_response(created) }
    _ = MHD_add_response_header(created, "Content-Type", response.contentType)
    _ = MHD_add_response_header(created, "X-Content-Type-Options", "nosniff")
    for (name, value) in response.headers { _ = MHD_add_response_header(created, name, value) }
    if context.isDraining { _ = MHD_add_response_header(created, "Connection", "close") }
    let queued = MHD_queue_response(connection, UInt32(response.status), created)
    if queued == .YES { state.answered(response) }
    return queued
}

/// A request header, or nil.
private func header(_ connection: OpaquePointer, _ name: String) -> String? {
    MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
}

/// Collects query arguments through MHD's iterator.
private final class ArgumentBox {
    var pairs: [(String, String)] = []
}

private func collectArgument(
    _ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ keySize: Int,
    _ value: UnsafePointer<CChar>?, _ valueSize: Int
) -> MHD_Result {
    guard let cls else { return .NO }
    let box = Unmanaged<ArgumentBox>.fromOpaque(cls).takeUnretainedValue()
    func text(_ pointer: UnsafePointer<CChar>?, _ count: Int) -> String {
        guard let pointer else { return "" }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }
    box.pairs.append((text(key, keySize), text(value, valueSize)))
    return .YES
}

private func arguments(_ connection: OpaquePointer) -> Query {
    let box = ArgumentBox()
    withExtendedLifetime(box) {
        _ = MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, collectArgument,
                                        Unmanaged.passUnretained(box).toOpaque())
    }
    return Query(box.pairs)
}
