import CreativeCore
#if canImport(Glibc)
import Glibc
#endif

/// One JSON line per request on standard error: time, method, route, path, status, bytes, duration.
/// Headers are never logged, so neither is the token. Lines go through ``LogSink``: a request
/// thread never waits for standard error.
public struct RequestLog: Sendable {
    /// Whether lines are written (tests may turn them off).
    let enabled: Bool
    let sink: LogSink

    public init(enabled: Bool = true, sink: LogSink = .standardError) {
        self.enabled = enabled
        self.sink = sink
    }

    func request(method: String, route: String, path: String, status: Int?, bytes: Int,
                 seconds: Double, errorCode: String?, outcome: String) {
        guard enabled else { return }
        var fields: [(String, JSONValue)] = [
            ("time", .string(RequestLog.timestamp())),
            ("method", .string(String(method.prefix(16)))),
            ("route", .string(route)),
            ("path", .string(TextFormat.clipped(path, 200))),
            ("status", status.map { .int($0) } ?? .null),
            ("bytes", .int(bytes)),
            ("duration_ms", .double(seconds * 1000)),
        ]
        if let errorCode { fields.append(("error", .string(errorCode))) }
        if outcome != "completed" { fields.append(("outcome", .string(outcome))) }
        write(.object(fields))
    }

    /// A line about the service itself (listening, draining, stopped).
    public func event(_ name: String, _ extra: [(String, JSONValue)] = []) {
        guard enabled else { return }
        write(.object([("time", .string(RequestLog.timestamp())), ("event", .string(name))] + extra))
    }

    private func write(_ value: JSONValue) {
        sink.append(value.serialized())
    }

    /// UTC time as `2025-01-31T12:34:56.789Z`.
    static func timestamp() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        var seconds = spec.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))."
            + "\(pad(Int32(spec.tv_nsec / 1_000_000), 3))Z"
    }
}
