/// The formats a render is written in, each described once by its ``Entry`` in ``entry``: its
/// names, endings, media type, size limit, what it can hold and whether `auto` may pick it.
/// Every list of formats the tool prints or reads (the options' help, `formats`' names, the
/// output endings, the refusals) is read from these entries; how each is written, probed and
/// charged is CreativeImaging's table of the same formats (``OutputFormat`` keys both).
public enum OutputFormat: String, Sendable, CaseIterable {
    case png, jpeg, webp
    /// AV1 in HEIF (libvips' `heifsave` with libaom): written only where the caller says its
    /// clients decode it (`--format avif`, or `avif` among `auto`'s ``RenderRequest/formats``).
    case avif

    /// The format's entry: the one place a format's names and rules are written.
    public var entry: Entry {
        switch self {
        case .png:
            Entry(displayName: "PNG", fileExtension: "png", mediaType: "image/png", lossless: true, keepsAlpha: true,
                  maxSide: PixelSize.maximumSide, auto: .byDefault, note: "lossless, the smallest exact PNG")
        case .jpeg:
            Entry(displayName: "JPEG", fileExtension: "jpg", aliases: ["jpg"], misspellings: ["jpe"],
                  mediaType: "image/jpeg", lossless: false, keepsAlpha: false, maxSide: 65_535, auto: .byDefault)
        case .webp:
            Entry(displayName: "WebP", fileExtension: "webp", mediaType: "image/webp", lossless: false, keepsAlpha: true,
                  maxSide: 16_383, auto: .byDefault)
        case .avif:
            Entry(displayName: "AVIF", fileExtension: "avif", mediaType: "image/avif", lossless: false, keepsAlpha: true,
                  maxSide: PixelSize.maximumSide, auto: .whenNamed,
                  autoNote: "add avif only where every client decodes it: Safari 16, Chrome 85, Android 12 and later")
        }
    }

    /// One format's names and rules (CreativeCore's half of its table entry).
    public struct Entry: Sendable {
        /// The format's name for people: `PNG`, `JPEG`, `WebP`.
        public let displayName: String
        /// The ending of the files the tool names (`jpg`).
        public let fileExtension: String
        /// Other names of the format, taken in `formats` and as an output name's ending (`jpg`).
        public var aliases: [String] = []
        /// Names `--format` does not take but answers with this format's (`jpe`: did you mean jpeg?).
        public var misspellings: [String] = []
        /// The HTTP media type.
        public let mediaType: String
        /// Whether every pixel is kept: a quality does not apply.
        public let lossless: Bool
        /// Whether it holds an alpha band (transparent bars); without one, bars are white by default.
        public let keepsAlpha: Bool
        /// The largest width or height, in pixels, a file of this format holds (WebP's header stores
        /// each side in 14 bits, JPEG's in 16; PNG and AVIF go far beyond the tool's canvas cap,
        /// ``PixelSize/maximumSide``).
        public let maxSide: Int
        /// Whether `auto` may pick it.
        public let auto: AutoUse
        /// What `--format`'s help says of it in brackets (nil: its name alone).
        public var note: String? = nil
        /// What `--formats`' help says of it in brackets (nil: nothing).
        public var autoNote: String? = nil
    }

    /// Whether `auto` may pick a format.
    public enum AutoUse: Sendable {
        /// Among the formats `auto` chooses when the caller names none (every phone and browser decodes it).
        case byDefault
        /// Only when `formats` names it (AVIF: older Android WebViews and Safari before 16 do not decode it).
        case whenNamed
        /// Never: written only when asked for by name.
        case never
    }

    /// The formats `auto` chooses among when the caller names none (``AutoUse/byDefault``).
    public static let autoDefault = Set(allCases.filter { $0.entry.auto == .byDefault })
    /// The formats `formats` may name, in the table's order.
    public static let autoChoices = allCases.filter { $0.entry.auto != .never }

    /// The formats every client decodes that keep transparent bars (`png`, `webp`): what a
    /// refusal of transparency suggests instead.
    public static let transparentDefaults = allCases.filter { $0.entry.auto == .byDefault && $0.entry.keepsAlpha }
    /// The lossy formats, which take a quality (`jpeg`, `webp`, `avif`).
    public static let lossy = allCases.filter { !$0.entry.lossless }
    /// The formats without an alpha band (`jpeg`), whose bars are white by default.
    public static let opaqueOnly = allCases.filter { !$0.entry.keepsAlpha }

    /// The file name extension.
    public var fileExtension: String { entry.fileExtension }
    /// The HTTP media type.
    public var mediaType: String { entry.mediaType }
    /// The format's name for people: `PNG`, `JPEG`, `WebP`.
    public var displayName: String { entry.displayName }
    /// The format's name with its note, as `--format`'s help lists it: `png (lossless, the smallest exact PNG)`.
    public var helpName: String { entry.note.map { "\(rawValue) (\($0))" } ?? rawValue }
    /// The largest width or height, in pixels, a file of this format holds.
    public var maxSide: Int { entry.maxSide }
    /// The endings of an output name that name this format (`jpg`, `jpeg`), the file extension first.
    public var endings: [String] {
        var endings = [entry.fileExtension]
        for name in [rawValue] + entry.aliases where !endings.contains(name) { endings.append(name) }
        return endings
    }

    /// The format a name or alias names (`jpeg`, `jpg`, in any case), or nil.
    public init?(name: String) {
        let lowered = name.lowercased()
        guard let found = Self.allCases.first(where: { $0.rawValue == lowered || $0.entry.aliases.contains(lowered) }) else {
            return nil
        }
        self = found
    }

    /// The format an output name's ending names (``endings``: `.png`, `.jpg`, `.jpeg`, ... in any
    /// case), or nil: another ending, none (`-`, `/dev/stdout`, `out.d/banner`).
    public init?(fileName path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        let ending = path[path.index(after: dot)...].lowercased()
        guard let found = Self.allCases.first(where: { $0.endings.contains(ending) }) else { return nil }
        self = found
    }

    /// The ending of a file name after its last dot (`gif` of `o.gif`), nil when the last
    /// part of the path has none or starts with its only dot (`-`, `out.d/banner`, `.hidden`).
    public static func fileExtension(of path: String) -> String? {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ending = name[name.index(after: dot)...]
        return ending.isEmpty ? nil : String(ending)
    }
}

/// The format a caller asks for: one of the ``OutputFormat``s, or `auto`, the smallest file of
/// several encodings that meets the quality target (the encoder decides; the render says which).
public enum FormatChoice: Sendable, Hashable, RawRepresentable, CaseIterable {
    /// This format, written as asked.
    case fixed(OutputFormat)
    /// The smallest of several encodings that meets the quality target.
    case auto

    /// Every choice: the formats in their table's order, then `auto`.
    public static var allCases: [FormatChoice] { OutputFormat.allCases.map(FormatChoice.fixed) + [.auto] }

    /// The choice named `png`, `jpeg`, ..., `auto` (a format's own name, not an alias), or nil.
    public init?(rawValue: String) {
        if rawValue == Self.autoName {
            self = .auto
        } else if let format = OutputFormat(rawValue: rawValue) {
            self = .fixed(format)
        } else {
            return nil
        }
    }

    /// The choice's name: the format's, or `auto`.
    public var rawValue: String {
        switch self {
        case .fixed(let format): format.rawValue
        case .auto: Self.autoName
        }
    }

    private static let autoName = "auto"

    /// The one format asked for, or nil for `auto`.
    public var fixed: OutputFormat? {
        if case .fixed(let format) = self { return format }
        return nil
    }
    /// Whether the format can keep transparent bars (`auto` then picks among those that can).
    public var supportsAlpha: Bool { fixed?.entry.keepsAlpha ?? true }
    /// Whether `--quality` applies: the lossy formats.
    public var takesQuality: Bool { qualityRefusal == nil }
    /// Why a quality does not apply to this format (`png is lossless`), nil when it does: the
    /// CLI and the service refuse `quality` with it, each naming its own flag.
    public var qualityRefusal: String? {
        switch self {
        case .fixed(let format): format.entry.lossless ? "\(format.rawValue) is lossless" : nil
        case .auto: "auto picks its own quality"
        }
    }

    /// The background used when the caller gives none: transparent where possible, else white.
    public var defaultBackground: Background { supportsAlpha ? .transparent : .white }

    /// The background when the caller gives none, for `auto` among `autoFormats` (nil: its
    /// default set): white where only formats without alpha may be written, else ``defaultBackground``.
    public func defaultBackground(among autoFormats: Set<OutputFormat>?) -> Background {
        guard self == .auto, let autoFormats, !autoFormats.isEmpty else { return defaultBackground }
        return autoFormats.contains(where: \.entry.keepsAlpha) ? defaultBackground : .white
    }
}
