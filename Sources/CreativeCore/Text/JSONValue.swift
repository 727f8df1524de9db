/// A JSON value whose objects keep their key order, so reports print fields in the documented order.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.serialized() == rhs.serialized()
    }

    /// Compact JSON text on one line.
    public func serialized() -> String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .double(let value):
            if value.isFinite {
                // Four decimals are enough for ratios and shares, and stable across platforms.
                // Always with a decimal point (`1.0`, not `1`), so a number field has one JSON
                // type whatever its value.
                let rounded = (value * 10_000).rounded() / 10_000
                out += rounded == rounded.rounded() && abs(rounded) < 1e15
                    ? String(Int(rounded)) + ".0" : String(rounded)
            } else {
                out += "null"
            }
        case .string(let value): JSONValue.writeString(value, to: &out)
        case .array(let values):
            out += "["
            for (i, value) in values.enumerated() {
                if i > 0 { out += "," }
                value.write(to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (i, (key, value)) in fields.enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            if let byte = PathBytes.rawByte(scalar) {
                // A byte of a name that is not UTF-8 (PathBytes): the text `\xNN`.
                let hex = String(byte, radix: 16)
                out += "\\\\x" + String(repeating: "0", count: 2 - hex.count) + hex
                continue
            }
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension JSONValue {
    /// A string, or null when nil.
    public static func optional(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
}

/// The published shape of every JSON output (schemas/ holds one JSON Schema per output):
/// a size is `{"width", "height"}` under a key naming its unit (`slot_points`, `content_pixels`),
/// a position `{"x", "y"}`, a rectangle both; counts and lengths are named apart
/// (`max_pixel_count`, `file_bytes`); and every top-level document begins with
/// `schema_version` and `tool_version`.
public enum JSONContract {
    /// The version of the shapes; raised whenever a field is renamed, removed or changes type.
    public static let schemaVersion = 2

    /// The two fields every top-level document carries: `schema_version`, `tool_version`.
    public static var versionFields: [(String, JSONValue)] {
        [("schema_version", .int(schemaVersion)), ("tool_version", .string(BuildInfo.version))]
    }

    /// `value` as a top-level document: an object gets ``versionFields`` first unless it has
    /// them already (a manifest, which puts its `written_by` marker before them); anything
    /// else is returned as it is.
    public static func document(_ value: JSONValue) -> JSONValue {
        guard case .object(let fields) = value, !fields.contains(where: { $0.0 == "schema_version" }) else { return value }
        return .object(versionFields + fields)
    }

    /// `{"x": x, "y": y}`.
    public static func position(x: Int, y: Int) -> JSONValue { .object([("x", .int(x)), ("y", .int(y))]) }
}

extension PixelSize {
    /// `{"width": ..., "height": ...}`, in the unit the key holding it names.
    public var json: JSONValue { .object([("width", .int(width)), ("height", .int(height))]) }
}
