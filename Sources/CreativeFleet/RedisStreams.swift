/// One stream entry: its ID and its fields, in order.
public struct StreamEntry: Sendable, Equatable {
    public let id: String
    public let fields: [(String, String)]
    /// Why the rest of the entry was not read (a field or the field list over the read's
    /// ``ReplyLimits``: ``JobFieldLimits/entryLimits``), naming the part; nil when it was read whole.
    public let unread: String?

    public init(id: String, fields: [(String, String)], unread: String? = nil) {
        self.id = id
        self.fields = fields
        self.unread = unread
    }

    /// The first value of `name`, or nil.
    public subscript(_ name: String) -> String? { fields.first { $0.0 == name }?.1 }

    public static func == (a: StreamEntry, b: StreamEntry) -> Bool {
        a.id == b.id && a.fields.map(\.0) == b.fields.map(\.0) && a.fields.map(\.1) == b.fields.map(\.1)
            && a.unread == b.unread
    }
}

/// The Redis Streams commands the worker and `enqueue` use, on one connection.
extension RedisConnection {
    /// `XADD STREAM * FIELD VALUE...`: the new entry's ID.
    @discardableResult
    public func add(to stream: String, _ fields: [(String, String)]) throws(FleetError) -> String {
        let reply = try run(["XADD", stream, "*"] + fields.flatMap { [$0.0, $0.1] })
        guard let id = reply.text else { throw .queueError("XADD answered \(reply)") }
        return id
    }

    /// `XGROUP CREATE STREAM GROUP 0 MKSTREAM`: the group reads the stream from its start, so jobs
    /// added before any worker ran are not missed. An existing group is left as it is.
    public func createGroup(_ group: String, on stream: String) throws(FleetError) {
        let reply = try send(["XGROUP", "CREATE", stream, group, "0", "MKSTREAM"].map { Array($0.utf8) })
        if case .error(let message) = reply, !message.hasPrefix("BUSYGROUP") {
            throw .queueError("XGROUP CREATE: \(message)")
        }
    }

    /// `XREADGROUP ... STREAMS STREAM >`: at most `count` new entries for `consumer`, waiting up to
    /// `blockSeconds` for one.
    public func readNew(_ stream: String, group: String, consumer: String, count: Int,
                        blockSeconds: Double) throws(FleetError) -> [StreamEntry] {
        let reply = try run(["XREADGROUP", "GROUP", group, consumer, "COUNT", String(count),
                             "BLOCK", String(Int(blockSeconds * 1000)), "STREAMS", stream, ">"],
                            blockSeconds: blockSeconds, limits: JobFieldLimits.readLimits(entries: count))
        guard let streams = reply.elements, let first = streams.first?.elements, first.count == 2 else { return [] }
        return RedisConnection.entries(first[1])
    }

    /// `XREAD ... STREAMS STREAM AFTER`: entries after the ID `after`, waiting up to `blockSeconds`.
    public func read(_ stream: String, after: String, count: Int, blockSeconds: Double) throws(FleetError) -> [StreamEntry] {
        let reply = try run(["XREAD", "COUNT", String(count), "BLOCK", String(Int(blockSeconds * 1000)),
                             "STREAMS", stream, after], blockSeconds: blockSeconds)
        guard let streams = reply.elements, let first = streams.first?.elements, first.count == 2 else { return [] }
        return RedisConnection.entries(first[1])
    }

    /// `XAUTOCLAIM`: entries pending longer than `minIdleSeconds` (their consumer died or stalled),
    /// now `consumer`'s, scanning from `cursor`; and the cursor to go on from (`0-0`: the scan
    /// wrapped). Entries deleted from the stream meanwhile are dropped from the pending list by Redis.
    public func claimIdle(_ stream: String, group: String, consumer: String, minIdleSeconds: Double,
                          cursor: String, count: Int) throws(FleetError) -> (entries: [StreamEntry], cursor: String) {
        let reply = try run(["XAUTOCLAIM", stream, group, consumer, String(Int(minIdleSeconds * 1000)), cursor,
                             "COUNT", String(count)], limits: JobFieldLimits.readLimits(entries: count))
        guard let parts = reply.elements, parts.count >= 2, let next = parts[0].text else {
            throw .queueError("XAUTOCLAIM answered \(reply)")
        }
        return (RedisConnection.entries(parts[1]), next)
    }

    /// How many times the pending entry `id` was delivered (`XPENDING STREAM GROUP ID ID 1`);
    /// 0 when it is not pending.
    public func deliveries(of id: String, stream: String, group: String) throws(FleetError) -> Int {
        let reply = try run(["XPENDING", stream, group, id, id, "1"])
        guard let row = reply.elements?.first?.elements, row.count == 4, case .integer(let count) = row[3] else { return 0 }
        return count
    }

    /// Entries delivered and not acknowledged (`XPENDING STREAM GROUP`).
    public func pendingCount(_ stream: String, group: String) throws(FleetError) -> Int {
        guard case .integer(let count) = try run(["XPENDING", stream, group]).elements?.first else { return 0 }
        return count
    }

    /// The group's lag: entries added and not yet delivered (`XINFO GROUPS`, Redis 7); nil when
    /// Redis does not know it.
    public func lag(_ stream: String, group: String) throws(FleetError) -> Int? {
        for info in try run(["XINFO", "GROUPS", stream]).elements ?? [] {
            let pairs = info.elements ?? []
            var fields: [String: RedisValue] = [:]
            for index in stride(from: 0, to: pairs.count - 1, by: 2) {
                if let name = pairs[index].text { fields[name] = pairs[index + 1] }
            }
            guard fields["name"]?.text == group else { continue }
            if case .integer(let lag) = fields["lag"] { return lag }
            return nil
        }
        return nil
    }

    /// `XCLAIM STREAM GROUP CONSUMER 0 ID... [IDLE MS] JUSTID`: keeps entries `consumer`'s and sets
    /// their idle time (0: a heartbeat for work in progress; the visibility timeout: a release,
    /// so another worker claims them at once). The delivery count is not changed.
    public func setIdle(_ ids: [String], stream: String, group: String, consumer: String,
                        idleSeconds: Double) throws(FleetError) {
        guard !ids.isEmpty else { return }
        try run(["XCLAIM", stream, group, consumer, "0"] + ids + ["IDLE", String(Int(idleSeconds * 1000)), "JUSTID"])
    }

    /// Runs `commands` in one `MULTI`/`EXEC` transaction: all of them or none.
    public func transaction(_ commands: [[String]]) throws(FleetError) {
        try run(["MULTI"])
        do throws(FleetError) {
            for command in commands { try run(command) }
        } catch {
            _ = try? run(["DISCARD"])
            throw error
        }
        let reply = try run(["EXEC"])
        for value in reply.elements ?? [] {
            if case .error(let message) = value { throw .queueError("in a transaction: \(message)") }
        }
    }

    /// The entries of an `XREADGROUP`, `XREAD`, `XRANGE` or `XAUTOCLAIM` list. An entry whose
    /// field list or a field was over the read's limits (``RedisValue/overLimit(declared:isArray:)``)
    /// keeps the fields read before it and says what was not read (``StreamEntry/unread``); the
    /// list ends with it.
    static func entries(_ value: RedisValue) -> [StreamEntry] {
        (value.elements ?? []).compactMap { item in
            guard let parts = item.elements, parts.count == 2, let id = parts[0].text else { return nil }
            if case .overLimit(let count, true) = parts[1] {
                return StreamEntry(id: id, fields: [], unread: JobFieldLimits.tooManyFields(count / 2))
            }
            let flat = parts[1].elements ?? []
            var fields: [(String, String)] = []
            for index in stride(from: 0, to: flat.count, by: 2) {
                let name = flat[index]
                let value = index + 1 < flat.count ? flat[index + 1] : RedisValue.null
                if case .overLimit(let bytes, _) = name {
                    return StreamEntry(id: id, fields: fields, unread: JobFieldLimits.nameTooLong(bytes))
                }
                if case .overLimit(let bytes, _) = value {
                    return StreamEntry(id: id, fields: fields, unread: JobFieldLimits.valueTooLong(name.text ?? "", bytes))
                }
                guard index + 1 < flat.count else { break }
                fields.append((name.text ?? "", value.text ?? ""))
            }
            return StreamEntry(id: id, fields: fields)
        }
    }
}

extension RedisConnection {
    /// The ID of the stream's newest entry (`XREVRANGE STREAM + - COUNT 1`), `0-0` when it has none.
    public func lastID(of stream: String) throws(FleetError) -> String {
        RedisConnection.entries(try run(["XREVRANGE", stream, "+", "-", "COUNT", "1"])).first?.id ?? "0-0"
    }
}
