/// Profiles as `profiles --json`, `guidance --profile` and people read them
/// (schemas/profiles.schema.json, docs/profiles.md).
extension PlatformProfile {
    /// `{"name", "title", "default", "rules": [...]}`.
    public var json: JSONValue {
        .object([("name", .string(name)), ("title", .string(title)), ("default", .bool(isDefault)),
                 ("rules", .array(rules.map(\.json)))])
    }

    /// The document `profiles --json` prints: every profile, in order.
    public static func listJSON(_ profiles: [PlatformProfile]) -> JSONValue {
        JSONContract.document(.object([("profiles", .array(profiles.map(\.json)))]))
    }
}

extension ProfileRule {
    /// `{"rule": "max_bytes", "bytes": 153600, "source": ..., "read": ..., "note": ...}`: the
    /// rule's own fields between its name and its source.
    public var json: JSONValue {
        let fields: [(String, JSONValue)]
        switch kind {
        case .sizes(let list, let minimum, let maximum):
            fields = [("sizes_pixels", list.map { .array($0.map(\.json)) } ?? .string("product")),
                      ("min_pixels", minimum?.json ?? .null), ("max_pixels", maximum?.json ?? .null)]
        case .formats(let formats):
            fields = [("formats", .array(formats.map { .string($0.rawValue) }))]
        case .maxBytes(let bytes):
            fields = [("bytes", bytes.map(JSONValue.int) ?? .null)]
        case .sizeBytes(let weights):
            fields = [("weights", .array(weights.map { .object([("size_pixels", $0.size.json), ("bytes", .int($0.bytes))]) }))]
        case .weightGuideline(let bytes):
            fields = [("bytes", .int(bytes))]
        case .colourSpace(let refused):
            fields = [("refused", .array(refused.map { .string($0.rawValue) }))]
        case .border(let required):
            fields = [("required", .bool(required))]
        case .animation(let limits):
            fields = [("allowed", .bool(limits.allowed)), ("max_seconds", limits.maxSeconds.map(JSONValue.double) ?? .null),
                      ("max_fps", limits.maxFramesPerSecond.map(JSONValue.double) ?? .null),
                      ("max_loops", limits.maxLoops.map(JSONValue.int) ?? .null)]
        }
        return .object([("rule", .string(kind.name))] + fields
                       + [("source", .string(source)), ("read", .string(read)), ("note", .optional(note))])
    }

    /// What the rule says, in a few words for people: `at most 153600 bytes`.
    public var summary: String {
        switch kind {
        case .sizes(let list, let minimum, let maximum):
            var text = list.map { $0.map(\.description).joined(separator: ", ") } ?? "the product's sizes"
            if let minimum { text += ", at least \(minimum)" }
            if let maximum { text += ", at most \(maximum)" }
            return text
        case .formats(let formats): return formats.map { $0.rawValue.uppercased() }.joined(separator: ", ")
        case .maxBytes(let bytes?): return "at most \(bytes) bytes"
        case .maxBytes(nil): return "none stated"
        case .sizeBytes(let weights): return weights.map { "\($0.size) \($0.bytes)" }.joined(separator: ", ") + " bytes"
        case .weightGuideline(let bytes): return "warning over \(bytes) bytes"
        case .colourSpace(let refused): return refused.map { $0.rawValue.uppercased() }.joined(separator: ", ") + " refused"
        case .border(let required): return required ? "a contrasting border on white or black edges" : "not required"
        case .animation(let limits):
            guard limits.allowed else { return "static only" }
            let parts = [limits.maxSeconds.map { "at most \(TextFormat.scale($0)) s" },
                         limits.maxFramesPerSecond.map { "\(TextFormat.scale($0)) fps" },
                         limits.maxLoops.map { "\($0) loops" }].compactMap { $0 }
            return parts.isEmpty ? "allowed" : parts.joined(separator: ", ")
        }
    }
}
