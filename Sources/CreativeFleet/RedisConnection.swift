import CHiredis
#if canImport(Glibc)
import Glibc
#endif

/// One Redis reply.
public indirect enum RedisValue: Sendable, Equatable {
    /// A bulk or status string.
    case string([UInt8])
    case integer(Int)
    case array([RedisValue])
    case null
    /// A bulk string (`isArray` false, `declared` bytes) or an array (`declared` elements) over
    /// the read's ``ReplyLimits``: not read. The reply ends at it.
    case overLimit(declared: Int, isArray: Bool)
    /// An error reply (`ERR ...`, `BUSYGROUP ...`).
    case error(String)

    /// The string as UTF-8 text, or nil when not a string.
    public var text: String? {
        if case .string(let bytes) = self { return String(decoding: bytes, as: UTF8.self) }
        return nil
    }

    /// The elements, or nil when not an array.
    public var elements: [RedisValue]? {
        if case .array(let values) = self { return values }
        return nil
    }
}

/// Where Redis is: `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]`.
public struct RedisAddress: Sendable, Equatable {
    public let host: String
    public let port: Int
    public let user: String?
    public let password: String?
    public let database: Int

    /// - Throws: ``FleetError/badOption(_:)`` for anything but a `redis://` URL.
    public init(parsing url: String) throws(FleetError) {
        guard url.hasPrefix("redis://") else { throw .badOption("--redis '\(url)' must be redis://HOST[:PORT][/DB]") }
        var rest = Substring(url.dropFirst(8))
        var user: String?, password: String?
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                user = credentials[..<colon].isEmpty ? nil : String(credentials[..<colon])
                password = String(credentials[credentials.index(after: colon)...])
            } else {
                password = String(credentials)
            }
        }
        let hostPort = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(hostPort.count).drop { $0 == "/" }
        var host = String(hostPort), port = 6379
        if let colon = hostPort.lastIndex(of: ":"), !hostPort.hasSuffix("]") {
            guard let number = Int(hostPort[hostPort.index(after: colon)...]), (1...65535).contains(number) else {
                throw .badOption("--redis '\(url)': the port must be 1-65535")
            }
            host = String(hostPort[..<colon])
            port = number
        }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw .badOption("--redis '\(url)' names no host") }
        guard path.isEmpty || Int(path) != nil else { throw .badOption("--redis '\(url)': the database must be a number") }
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        database = Int(path) ?? 0
    }
}

/// A Redis connection through hiredis, reconnected on the next command after it broke.
/// One owner of its `redisContext` (freed on a break and in `deinit`): use one per thread.
public final class RedisConnection: @unchecked Sendable {
    public let address: RedisAddress
    /// Seconds to connect, and for any command's answer beyond its own blocking time.
    private let timeout: Double
    private var context: UnsafeMutablePointer<redisContext>?

    public init(address: RedisAddress, timeout: Double = 5) {
        self.address = address
        self.timeout = timeout
    }

    deinit { disconnect() }

    /// Closes the connection (the next command opens a new one).
    public func disconnect() {
        if let context { redisFree(context) }
        context = nil
    }

    /// Runs one command. `blockSeconds`: how long it may block in Redis (`BLOCK`), added to the
    /// answer's deadline.
    /// - Throws: ``FleetError/queueUnavailable(_:)`` when Redis cannot be reached or the
    ///   connection broke (it is closed), ``FleetError/queueError(_:)`` for an error reply.
    @discardableResult
    public func run(_ arguments: [String], blockSeconds: Double = 0, limits: ReplyLimits = .none) throws(FleetError) -> RedisValue {
        let reply = try send(arguments.map { Array($0.utf8) }, blockSeconds: blockSeconds, limits: limits)
        if case .error(let message) = reply { throw .queueError("\(arguments.first ?? ""): \(message)") }
        return reply
    }

    /// The reply to one command as it came, error replies included. With `limits`, the reply is
    /// read by ``RedisReplyReader`` within them: a part over them is
    /// ``RedisValue/overLimit(declared:isArray:)``, never read, and the connection is then closed.
    public func send(_ arguments: [[UInt8]], blockSeconds: Double = 0,
                     limits: ReplyLimits = .none) throws(FleetError) -> RedisValue {
        let context = try connected()
        setTimeout(context, timeout + blockSeconds)
        var lengths = arguments.map(\.count)
        let copies = arguments.map { bytes -> UnsafeMutablePointer<CChar> in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, bytes.count))
            bytes.withUnsafeBytes { raw in
                if let base = raw.baseAddress { UnsafeMutableRawPointer(copy).copyMemory(from: base, byteCount: bytes.count) }
            }
            return copy
        }
        defer { copies.forEach { $0.deallocate() } }
        var pointers: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) }
        if limits != .none { return try sendBounded(context, &pointers, &lengths, limits: limits) }
        let raw = redisCommandArgv(context, Int32(arguments.count), &pointers, &lengths)
        guard let raw else {
            let reason = errorText(context)
            disconnect()
            throw .queueUnavailable("\(address.host):\(address.port): \(reason)")
        }
        defer { freeReplyObject(raw) }
        return RedisConnection.value(raw.assumingMemoryBound(to: redisReply.self))
    }

    /// Writes the command with hiredis, then reads its reply with ``RedisReplyReader``.
    private func sendBounded(_ context: UnsafeMutablePointer<redisContext>, _ pointers: inout [UnsafePointer<CChar>?],
                             _ lengths: inout [Int], limits: ReplyLimits) throws(FleetError) -> RedisValue {
        var done: Int32 = 0
        guard redisAppendCommandArgv(context, Int32(pointers.count), &pointers, &lengths) == REDIS_OK else {
            let reason = errorText(context)
            disconnect()
            throw .queueUnavailable("\(address.host):\(address.port): \(reason)")
        }
        while done == 0 {
            guard redisBufferWrite(context, &done) == REDIS_OK else {
                let reason = errorText(context)
                disconnect()
                throw .queueUnavailable("\(address.host):\(address.port): \(reason)")
            }
        }
        var reader = RedisReplyReader(fd: context.pointee.fd, limits: limits)
        do throws(RedisReplyReader.Failure) {
            let value = try reader.reply()
            // The rest of a reply cut at a part over the limits is still on the wire.
            if reader.stopped { disconnect() }
            return value
        } catch {
            disconnect()
            guard case .broken(let reason) = error else { throw .queueUnavailable("\(address.host):\(address.port)") }
            throw FleetError.queueUnavailable("\(address.host):\(address.port): \(reason)")
        }
    }

    private func connected() throws(FleetError) -> UnsafeMutablePointer<redisContext> {
        if let context { return context }
        let whole = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        guard let opened = redisConnectWithTimeout(address.host, Int32(address.port), whole) else {
            throw .queueUnavailable("\(address.host):\(address.port): cannot allocate a connection")
        }
        if opened.pointee.err != 0 {
            let reason = errorText(opened)
            redisFree(opened)
            throw .queueUnavailable("\(address.host):\(address.port): \(reason)")
        }
        context = opened
        if let password = address.password {
            try run(["AUTH"] + (address.user.map { [$0] } ?? []) + [password])
        }
        if address.database != 0 { try run(["SELECT", String(address.database)]) }
        return opened
    }

    private func setTimeout(_ context: UnsafeMutablePointer<redisContext>, _ seconds: Double) {
        let value = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
        _ = redisSetTimeout(context, value)
    }

    private func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
        let text = withUnsafeBytes(of: context.pointee.errstr) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "connection lost" : text
    }

    private static func value(_ reply: UnsafeMutablePointer<redisReply>) -> RedisValue {
        let node = reply.pointee
        func bytes() -> [UInt8] {
            guard let str = node.str else { return [] }
            return Array(UnsafeRawBufferPointer(start: str, count: Int(node.len)))
        }
        switch node.type {
        case REDIS_REPLY_STRING, REDIS_REPLY_STATUS: return .string(bytes())
        case REDIS_REPLY_INTEGER: return .integer(Int(node.integer))
        case REDIS_REPLY_ERROR: return .error(String(decoding: bytes(), as: UTF8.self))
        case REDIS_REPLY_ARRAY:
            var values: [RedisValue] = []
            for index in 0..<Int(node.elements) {
                if let element = node.element[index] { values.append(value(element)) } else { values.append(.null) }
            }
            return .array(values)
        default: return .null
        }
    }
}
