import CreativeCore

/// One change `fix` made, said on its own line.
public struct FixChange: Sendable, Equatable {
    /// What kind of change, a stable code (docs/reference.md, "fix").
    public enum Kind: String, Sendable, CaseIterable {
        /// An animated GIF or WebP: one frame kept as the still image (an animated PNG: its default image).
        case frameKept = "frame_kept"
        /// EXIF orientation applied to the pixels.
        case rotated
        /// CMYK, greyscale or another colour profile converted to sRGB.
        case convertedToSRGB = "converted_to_srgb"
        /// 16 bits a sample written as 8.
        case depthReduced = "depth_reduced"
        /// A near-miss size resized to the accepted size.
        case resized
        /// Bars baked into the artwork cropped, the artwork inside kept (`baked_in_bars`).
        case barsCropped = "bars_cropped"
        /// EXIF, XMP, IPTC, an sRGB profile or comments left out.
        case metadataStripped = "metadata_stripped"
        /// A 1 px contrasting border on edges that blend into an app's background (`edge_without_border`).
        case borderAdded = "border_added"
        /// Written in another format (`--format`).
        case formatChanged = "format_changed"
        /// Over the weight: re-encoded to fit.
        case weightReduced = "weight_reduced"
        /// Written again in its format, within the weight (every fixed file is re-encoded).
        case reencoded
    }

    public let kind: Kind
    /// For people: what was changed, from what to what.
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// `{"code", "message"}`.
    public var json: JSONValue { .object([("code", .string(kind.rawValue)), ("message", .string(message))]) }
}

/// The upload-ready file `fix` made, checked by the validator before it is handed back: valid, with no
/// warning but the artwork's own (``remaining``), which the fix could not change.
public struct FixedUpload: Sendable {
    /// The file's bytes.
    public let bytes: [UInt8]
    public let format: ImageFormat
    /// Its size in pixels: an accepted size of the product.
    public let size: PixelSize
    /// The input's size as displayed.
    public let inputSize: PixelSize
    /// The input's size in bytes.
    public let inputBytes: Int
    /// Every change, in the order made.
    public let changes: [FixChange]
    /// How the file was encoded, for people (`JPEG quality 78`).
    public let encoding: String
    /// The validator's report on the file (valid; its warnings are ``remaining``).
    public let report: ValidationReport
    /// The artwork's own warnings the file still has (pre-flight findings the source has too, such as a
    /// white edge without a border): for the designer to fix. Empty when it validates with no warning.
    public let remaining: [ValidationIssue]

    /// Every field; `remaining` defaults to none.
    public init(bytes: [UInt8], format: ImageFormat, size: PixelSize, inputSize: PixelSize, inputBytes: Int,
                changes: [FixChange], encoding: String, report: ValidationReport, remaining: [ValidationIssue] = []) {
        self.bytes = bytes
        self.format = format
        self.size = size
        self.inputSize = inputSize
        self.inputBytes = inputBytes
        self.changes = changes
        self.encoding = encoding
        self.report = report
        self.remaining = remaining
    }

    /// The media type the file is served as.
    public var mediaType: String { "image/\(format.rawValue)" }

    /// `fix --json` and `POST /v1/fix` with `Accept: application/json` (schemas/fix.schema.json):
    /// `file` is the path written (nil over HTTP, where `base64` carries the bytes instead).
    public func json(input: String?, file: String?, base64: String? = nil) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("input", input.map(JSONValue.string) ?? .null),
            ("file", file.map(JSONValue.string) ?? .null),
            ("product", .string(report.product.rawValue)),
            ("format", .string(format.rawValue)),
            ("pixels", size.json),
            ("input_pixels", inputSize.json),
            ("file_bytes", .int(bytes.count)),
            ("input_bytes", .int(inputBytes)),
            ("encoding", .string(encoding)),
            ("changes", .array(changes.map(\.json))),
            ("valid", .bool(report.valid)),
            ("warnings", .array(remaining.map(\.json))),
        ]
        if let base64 { fields.append(("base64", .string(base64))) }
        return .object(fields)
    }
}
