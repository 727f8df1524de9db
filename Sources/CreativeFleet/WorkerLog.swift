import CreativeCore
#if canImport(Glibc)
import Glibc
#endif

/// The worker's log: one JSON object a line on standard error, each beginning with its `event`
/// and the `consumer` (docs/worker.md, "Options"). The worker's own events (`started`,
/// `queue_error`, `draining`, `stopped`) say `message`; each job adds one line when it ends:
/// `job` (its result published), `job_pending` (a store error left it for another delivery) or
/// `dead_lettered`.
enum WorkerLog {
    /// Writes one line: `event`, `consumer`, then `fields`. One `write` a line, so lines of the
    /// worker's threads never interleave.
    static func write(_ event: String, consumer: String, _ fields: [(String, JSONValue)]) {
        let line = JSONValue.object([("event", .string(event)), ("consumer", .string(consumer))] + fields)
            .serialized() + "\n"
        _ = line.utf8CString.withUnsafeBufferPointer { Glibc.write(2, $0.baseAddress, $0.count - 1) }
    }

    /// A job's line when its result is published: the entry, the caller's id, the status, the
    /// codes, whether an earlier manifest answered it, what it wrote (the manifest, or a
    /// campaign's `campaign.json`), the seconds from taking it to publishing, and for `failed`
    /// the message.
    static func jobFields(entry: String, id: String, status: String, codes: [String], cached: Bool,
                          written: (String, String), seconds: Double, message: String) -> [(String, JSONValue)] {
        [("entry", .string(entry)), ("id", .string(id)), ("status", .string(status)),
         ("codes", .array(codes.map { .string($0) })), ("cached", .bool(cached)),
         (written.0, written.1.isEmpty ? .null : .string(written.1)), ("seconds", .double(seconds))]
            + (message.isEmpty ? [] : [("message", .string(message))])
    }
}
