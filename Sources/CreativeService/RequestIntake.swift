import CMicroHTTPD
import CreativeCore
import CreativeImaging
#if canImport(Glibc)
import Glibc
#endif

/// What the access handler does with a request, step by step: strict framing and size checks at
/// the headers, the body against its route's limit and the memory budget, then the handler.
struct RequestIntake {
    let listener: Listener
    let connection: OpaquePointer
    let state: ConnectionState
    private var context: ServiceContext { listener.context }
    private var config: ServiceConfig { listener.context.config }

    init(listener: Listener, connection: OpaquePointer, state: ConnectionState) {
        self.listener = listener
        self.connection = connection
        self.state = state
    }

    /// Longest request target (path and query) in bytes; longer gets 414.
    static let maxTargetBytes = 8192
    /// Largest header section (`name: value\r\n` summed) in bytes; larger gets 431.
    static let maxHeaderBytes = 16384

    /// The first call: the headers are in, the body (if any) is not read yet.
    func headers(version: String) -> MHD_Result {
        listener.watch.enter(.handling, connection)
        let headers = connectionValues(connection, .HEADER_KIND)
        if let problem = state.targetProblem {
            return send(problem.response, closing: true)
        }
        if state.targetBytes > Self.maxTargetBytes {
            return send(ServiceError.uriTooLong(limit: Self.maxTargetBytes).response, closing: true)
        }
        if headers.bytes > Self.maxHeaderBytes {
            return send(ServiceError.headerFieldsTooLarge(limit: Self.maxHeaderBytes).response, closing: true)
        }
        if let problem = Self.framingProblem(headers.pairs, version: version) {
            return send(ServiceError.badRequest(problem).response, closing: true)
        }
        if let hosts = listener.hosts, case let host = value(headers.pairs, "host"), !hosts.allows(host) {
            state.label = listener.router.label(for: state.path)
            return answerAtEnd(ServiceError.hostNotAllowed(TextFormat.clipped(host ?? "", 100)).response,
                               headers: headers.pairs)
        }
        switch listener.router.resolve(method: state.method, path: state.path) {
        case .failure(let error):
            state.label = listener.router.label(for: state.path)
            return answerAtEnd(error.response, headers: headers.pairs)
        case .success(let route):
            state.route = route
            state.label = route.pattern
            state.limit = route.bodyLimit(uploads: config.maxBodyBytes, json: config.maxJSONBodyBytes)
            if route.needsAuth && !context.auth.allows(authorization: value(headers.pairs, "authorization")) {
                return answerAtEnd(ServiceError.unauthorized.response, headers: headers.pairs)
            }
            let length = value(headers.pairs, "content-length").flatMap { Int($0) }
            if let length, length > state.limit {
                return refuse(ServiceError.payloadTooLarge(limit: state.limit).response)
            }
            if route.takesBody, let length, length > 0 {
                guard take(length) else { return refuse(ServiceError.memoryBusy(retryAfter: 1).response) }
                listener.watch.holding(state.reserved, remaining: length, connection)
                state.body.reserveCapacity(length)
            }
            listener.watch.enter(.body, connection)
            return .YES
        }
    }

    /// A piece of the body.
    func body(_ data: UnsafePointer<CChar>?, count: Int) -> MHD_Result {
        listener.watch.received(count, connection)
        if state.refused {
            state.drained += count
            return state.drained > config.lingerBytes ? .NO : .YES
        }
        state.received += count
        if state.received > state.limit {
            // A body without Content-Length (chunked) passed the limit: answer now, drop the rest.
            return refuse(state.deferred ?? ServiceError.payloadTooLarge(limit: state.limit).response)
        }
        guard state.deferred == nil, state.route?.takesBody == true, let data else { return .YES }
        if state.received > state.reserved {
            // A chunked body grows: take budget in doubling steps, up to the route's limit.
            let target = min(state.limit, max(state.received, max(64 * 1024, state.reserved * 2)))
            guard take(target - state.reserved) else { return refuse(ServiceError.memoryBusy(retryAfter: 1).response) }
            listener.watch.holding(state.reserved, remaining: nil, connection)
        }
        data.withMemoryRebound(to: UInt8.self, capacity: count) { pointer in
            state.body.append(contentsOf: UnsafeBufferPointer(start: pointer, count: count))
        }
        return .YES
    }

    /// The whole request is in: run the handler on this connection's thread.
    func complete() -> MHD_Result {
        if state.refused { return .NO }  // answered already; closing ends the lingering read
        if state.status != nil { return .YES }
        if let deferred = state.deferred { return send(deferred) }
        guard let route = state.route else { return .NO }
        listener.watch.enter(.handling, connection)
        let request = Request(method: state.method, path: state.path,
                              query: Query(connectionValues(connection, .GET_ARGUMENT_KIND).pairs),
                              contentType: MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Type")
                                  .map { String(cString: $0) },
                              accept: MHD_lookup_connection_value(connection, .HEADER_KIND, "Accept").map { String(cString: $0) },
                              body: state.body)
        state.body = []
        // While the handler runs, the watch cancels its job when the client closes the
        // connection, and a stop cancels it at the drain limit.
        context.jobs.add(request.cancellation)
        listener.watch.watchJob(request.cancellation, connection)
        defer {
            listener.watch.watchJob(nil, connection)
            context.jobs.remove(request.cancellation)
        }
        let response: Response
        do {
            try request.query.check(route.parameters)
            response = try route.handler(request, context)
        } catch {
            response = error.response
        }
        return send(response)
    }

    /// Why the headers frame the request ambiguously (request smuggling's building blocks), or nil.
    static func framingProblem(_ headers: [(String, String)], version: String) -> String? {
        let lengths = headers.filter { $0.0.lowercased() == "content-length" }
        let encodings = headers.filter { $0.0.lowercased() == "transfer-encoding" }
        if lengths.count > 1 { return "Content-Length is given more than once" }
        if !encodings.isEmpty && !lengths.isEmpty { return "Content-Length and Transfer-Encoding together are ambiguous" }
        if encodings.count > 1 { return "Transfer-Encoding is given more than once" }
        if let encoding = encodings.first, encoding.1.trimmed.lowercased() != "chunked" {
            return "the only Transfer-Encoding accepted is chunked"
        }
        if let length = lengths.first, length.1.isEmpty || !length.1.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            return "Content-Length must be a decimal number"
        }
        let hosts = headers.filter { $0.0.lowercased() == "host" }.count
        if version == "HTTP/1.1" && hosts != 1 { return "an HTTP/1.1 request needs exactly one Host header" }
        if hosts > 1 { return "Host is given more than once" }
        return nil
    }

    /// An error decided at the headers (404, 405, 401) is answered once the body (within the small
    /// limit, dropped) is read: answering before it would make MHD close the connection, and a
    /// client still writing its body would get a reset instead of the answer.
    private func answerAtEnd(_ response: Response, headers: [(String, String)]) -> MHD_Result {
        state.deferred = response
        state.limit = config.maxJSONBodyBytes
        if let length = value(headers, "content-length").flatMap({ Int($0) }), length > state.limit {
            return refuse(response)
        }
        listener.watch.enter(.body, connection)
        return .YES
    }

    private func value(_ headers: [(String, String)], _ name: String) -> String? {
        headers.first { $0.0.lowercased() == name }?.1
    }

    /// Takes `bytes` more from the memory budget for this request's body.
    private func take(_ bytes: Int) -> Bool {
        guard context.budget.reserve(bytes, waitingUntil: monotonicSeconds() + config.budgetWait) else { return false }
        state.reserved += bytes
        return true
    }

    private func send(_ response: Response, closing: Bool = false) -> MHD_Result {
        CreativeService.send(response, on: connection, state: state, context: context, closing: closing)
    }

    /// Answers before (or in the middle of) the body, which MHD cannot do: the response is written
    /// to the socket directly with `Connection: close`, the sending side is shut, and the rest of
    /// the body is read and dropped for at most ``ServiceConfig/lingerSeconds`` seconds and
    /// ``ServiceConfig/lingerBytes`` bytes (lingering close, as nginx does), so a client that
    /// writes its whole body before reading still reads the answer instead of a reset.
    @discardableResult
    func refuse(_ response: Response) -> MHD_Result {
        state.answered(response)
        state.refused = true
        state.body = []
        context.budget.release(state.reserved)
        state.reserved = 0
        let bytes = Self.closingAnswer(response)
        let fd = creative_mhd_connection_fd(connection)
        guard fd >= 0 else { return .NO }
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            if sent <= 0 { return .NO }
            offset += sent
        }
        shutdown(fd, Int32(SHUT_WR))
        listener.watch.enter(.lingering, connection)
        return .YES
    }

    /// `response` as bytes on the wire, with `Connection: close`: what the service writes to a
    /// socket itself, past libmicrohttpd (a refusal before the body ends, a cut slow body).
    static func closingAnswer(_ response: Response) -> [UInt8] {
        var head = "HTTP/1.1 \(response.status) \(reason(response.status))\r\n"
        head += "Content-Type: \(response.contentType)\r\nContent-Length: \(response.body.count)\r\n"
        head += "X-Content-Type-Options: nosniff\r\nConnection: close\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        return Array((head + "\r\n").utf8) + response.body
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 431: "Request Header Fields Too Large"
        case 503: "Service Unavailable"
        default: "Error"
        }
    }
}

private extension String {
    var trimmed: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
