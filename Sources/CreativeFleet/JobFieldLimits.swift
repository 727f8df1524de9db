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

    /// The first limit `entry` breaks, described (naming the field), or nil.
    static func problem(_ entry: StreamEntry) -> String? {
        if entry.fields.count > maxFields {
            return "the job has \(entry.fields.count) fields, over the limit of \(maxFields)"
        }
        for (name, value) in entry.fields {
            if name.utf8.count > maxBytes(of: "") {
                return "a field name has \(name.utf8.count) bytes, over the limit of \(maxBytes(of: ""))"
            }
            let limit = maxBytes(of: name)
            if value.utf8.count > limit { return "field '\(name)' has \(value.utf8.count) bytes, over the limit of \(limit)" }
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
