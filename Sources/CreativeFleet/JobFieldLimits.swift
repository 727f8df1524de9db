/// The sizes a job entry's fields may have, checked when the worker reads the entry and before
/// anything is done with it: a 64 MiB `id` took the worker from 25 MB to 363 MB, uncharged, and
/// was copied into the results stream. An entry over them is answered `failed` with `bad_job`
/// and a message naming the field; the field itself is never copied into the result.
enum JobFieldLimits {
    /// Bytes a field may have, by name: `id` as `enqueue --id` allows (1024 characters, up to
    /// 4 bytes each), `source` an S3 address (`s3://`, a bucket of 63, `/`, a key of 1024 bytes:
    /// S3's own limit), `sources` as many addresses as a campaign job takes
    /// (``CampaignSources/maxFieldBytes``), `product` and `format` a name; any other field 1 KiB.
    static func maxBytes(of field: String) -> Int {
        switch field {
        case "id": 4096
        case "source": 5 + 63 + 1 + 1024
        case "sources": CampaignSources.maxFieldBytes
        case "product", "format": 64
        default: 1024
        }
    }

    /// Most fields an entry may have: 32 (`enqueue` writes at most 4).
    static let maxFields = 32
    /// Most bytes all the names and values together may have: 24 KiB (a campaign's 16 sources
    /// at their limit, an `id` at its own, and the other fields).
    static let maxEntryBytes = 24 << 10

    /// What the worker reads of `entries` job entries at most (`XREADGROUP`, `XAUTOCLAIM`): a
    /// field, and all of them together, up to twice the largest entry accepted, and twice as
    /// many names and values as fields accepted. A longer field is refused from its declared
    /// length, before any of it is read: a 64 MiB field took the worker to 223 MB (hiredis
    /// buffered the reply whole, then copied it twice); the reader holds at most these bytes.
    static func readLimits(entries: Int) -> ReplyLimits {
        ReplyLimits(bulkBytes: 2 * maxEntryBytes, totalBytes: max(1, entries) * 2 * maxEntryBytes + 4096,
                    elements: max(4 * maxFields, entries))
    }

    static func tooManyFields(_ count: Int) -> String { "the job has \(count) fields, over the limit of \(maxFields)" }

    static func nameTooLong(_ bytes: Int) -> String {
        "a field name has \(bytes) bytes, over the limit of \(maxBytes(of: ""))"
    }

    /// A field over its own limit, or (within it) past what the entry may hold in all.
    static func valueTooLong(_ name: String, _ bytes: Int) -> String {
        let limit = maxBytes(of: name)
        if bytes > limit { return "field '\(name)' has \(bytes) bytes, over the limit of \(limit)" }
        return "the job's fields have more than \(maxEntryBytes) bytes in all, over the limit of \(maxEntryBytes)"
    }

    /// The first limit `entry` breaks, described (naming the field), or nil.
    static func problem(_ entry: StreamEntry) -> String? {
        if let unread = entry.unread { return unread }
        if entry.fields.count > maxFields { return tooManyFields(entry.fields.count) }
        for (name, value) in entry.fields {
            if name.utf8.count > maxBytes(of: "") { return nameTooLong(name.utf8.count) }
            if value.utf8.count > maxBytes(of: name) { return valueTooLong(name, value.utf8.count) }
        }
        let total = entry.fields.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count }
        if total > maxEntryBytes { return "the job's fields have \(total) bytes in all, over the limit of \(maxEntryBytes)" }
        return nil
    }

    /// `entry` with only the fields within their limits (what a result may copy).
    static func withinLimits(_ entry: StreamEntry) -> StreamEntry {
        StreamEntry(id: entry.id, fields: entry.fields.filter { name, value in
            name.utf8.count <= maxBytes(of: "") && value.utf8.count <= maxBytes(of: name)
        })
    }
}
