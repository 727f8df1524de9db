/// The stable codes of a trafficking-parameter lint report; callers switch on them.
public enum LintCode: String, Sendable, CaseIterable {
    // Errors: any one rejects the creative (the SDK would refuse it).
    /// The text is over ``TraffickingInput/maxBytes``.
    case inputTooLarge = "input_too_large"
    /// The text is empty.
    case emptyInput = "empty_input"
    /// The text holds a NUL byte.
    case nulCharacter = "nul_character"
    /// The text is not UTF-8.
    case invalidUTF8 = "invalid_utf8"
    /// A segment without `=`, with an empty key, or empty.
    case malformedSegment = "malformed_segment"
    /// A key given more than once.
    case duplicateKey = "duplicate_key"
    /// Both aliases of a key (`icon`/`Icon`, `campaign`/`campaign name`) with different values.
    case aliasMismatch = "alias_mismatch"
    /// Neither format's shape (carousel, custom CTA; for takeovers: webview, takeoverAds).
    case unknownFormat = "unknown_format"
    /// A required key is absent.
    case missingKey = "missing_key"
    /// A key that must have a value has an empty one.
    case emptyValue = "empty_value"
    /// A value that must be a URL is not one.
    case invalidURL = "invalid_url"
    /// A URL whose scheme the field does not allow (`javascript:` where http(s) is required).
    case urlSchemeNotAllowed = "url_scheme_not_allowed"
    /// `carousel_images` has more than 20 entries.
    case tooManyImages = "too_many_images"
    /// `carousel_images` has no usable HTTP(S) URL.
    case noUsableImage = "no_usable_image"
    /// `carousel_cta_text` without `carousel_cta_url`, or the other way round.
    case unpairedCTA = "unpaired_cta"
    /// `companion_schema_version` other than `1`.
    case unsupportedSchemaVersion = "unsupported_schema_version"
    /// A text field (`bannerTitle`, `carousel_title`, ...) holding a control character: a line
    /// break, an escape, any C0 or C1 control, DEL, or a line or paragraph separator.
    case controlCharacter = "control_character"
    /// A text field holding a bidirectional control (U+061C, U+200E, U+200F, U+202A-U+202E,
    /// U+2066-U+2069), which reorders how the text shows.
    case bidiControl = "bidi_control"
    // Warnings: reported, never a reason to reject.
    /// A key the format does not know (the message names the near known key, if any).
    case unknownKey = "unknown_key"
    /// A known key of another format (a carousel key in a custom CTA): ignored.
    case keyNotUsed = "key_not_used"
    /// `ad_type` other than `carousel` in companion parameters: read as a custom CTA.
    case adTypeIgnored = "ad_type_ignored"
    /// A `carousel_images` entry the SDK skips (blank, not a URL, not http(s)).
    case unusableImage = "unusable_image"
    /// A `carousel_images_urls` entry that is not a URL: its image gets no tap destination.
    case unusableDestination = "unusable_destination"
    /// More `carousel_images_urls` entries than images.
    case extraDestinations = "extra_destinations"
    /// A destination with a scheme other than http(s): opened only by the app's actions handler.
    case appHandledURL = "app_handled_url"
    /// An optional text that is empty or only spaces.
    case blankValue = "blank_value"
    /// A URL with characters RFC 3986 wants percent-encoded (spaces excepted: those are errors).
    case urlNotEncoded = "url_not_encoded"
    /// More problems than a report lists (``CompanionLintReport/maxListed``); in errors or warnings.
    case tooManyProblems = "too_many_problems"

    /// True for the warning codes.
    public var isWarning: Bool {
        switch self {
        case .unknownKey, .keyNotUsed, .adTypeIgnored, .unusableImage, .unusableDestination, .extraDestinations,
             .appHandledURL, .blankValue, .urlNotEncoded, .tooManyProblems: true
        default: false
        }
    }
}

/// One problem: its code, where it is (a key, a segment, an entry of a `$` list) and what to do.
public struct LintIssue: Sendable, Equatable {
    /// The stable code.
    public let code: LintCode
    /// The key it is about, or nil (a malformed segment, the input as a whole).
    public let key: String?
    /// The segment's position among the comma-separated segments (from 1), when it is about one.
    public let segment: Int?
    /// The entry's position in a `$`-separated list (from 1), when it is about one.
    public let index: Int?
    /// A sentence for people: what is wrong and what to do.
    public let message: String

    public init(_ code: LintCode, key: String? = nil, segment: Int? = nil, index: Int? = nil, _ message: String) {
        self.code = code
        self.key = key
        self.segment = segment
        self.index = index
        self.message = message
    }

    /// `{"code", "key", "segment", "index", "message"}`, every field present (null when it does not apply).
    public var json: JSONValue {
        .object([("code", .string(code.rawValue)), ("key", .optional(key)),
                 ("segment", segment.map { .int($0) } ?? .null), ("index", index.map { .int($0) } ?? .null),
                 ("message", .string(message))])
    }
}

/// What linting trafficking parameters found: the JSON report of `creative-tool companion lint`
/// and `POST /v1/companion/lint`.
public struct CompanionLintReport: Sendable {
    /// Most errors (and, separately, warnings) a report lists; the rest are counted in one
    /// last `too_many_problems` entry, so a hostile text cannot make a huge report.
    public static let maxListed = 100

    /// The format the parameters have: `carousel`, `custom_cta`; for takeover metadata
    /// `in_video`, `contextual`, `ads_under_a_tab`; nil when neither shape.
    public var format: String?
    /// The normalised values in the format's order: aliases resolved, defaults applied,
    /// `$` lists as arrays.
    public var fields: [(String, JSONValue)] = []
    /// Every error found, in the order found (the JSON lists at most ``maxListed``).
    public private(set) var errors: [LintIssue] = []
    /// Every warning found, in the order found.
    public private(set) var warnings: [LintIssue] = []

    public init() {}

    /// Valid when no error was found; warnings never reject.
    public var valid: Bool { errors.isEmpty }

    /// Adds an issue to errors or warnings by its code.
    public mutating func add(_ issue: LintIssue) {
        if issue.code.isWarning { warnings.append(issue) } else { errors.append(issue) }
    }

    /// True when an issue with the code was recorded.
    public func has(_ code: LintCode) -> Bool {
        errors.contains { $0.code == code } || warnings.contains { $0.code == code }
    }

    /// The value of a normalised field, or nil.
    public func field(_ name: String) -> JSONValue? { fields.first { $0.0 == name }?.1 }

    /// The errors as reports show them: at most ``maxListed``, then one `too_many_problems` entry.
    public var listedErrors: [LintIssue] { Self.listed(errors, noun: "errors") }

    /// The warnings as reports show them, cut like ``listedErrors``.
    public var listedWarnings: [LintIssue] { Self.listed(warnings, noun: "warnings") }

    /// `{"valid", "format", "fields", "errors", "warnings"}`, the lists as ``listedErrors`` cuts them.
    public var json: JSONValue {
        .object([("valid", .bool(valid)), ("format", .optional(format)), ("fields", .object(fields)),
                 ("errors", .array(listedErrors.map(\.json))), ("warnings", .array(listedWarnings.map(\.json)))])
    }

    private static func listed(_ issues: [LintIssue], noun: String) -> [LintIssue] {
        guard issues.count > maxListed else { return issues }
        return Array(issues.prefix(maxListed)) + [
            LintIssue(.tooManyProblems, "\(issues.count - maxListed) more \(noun) are not listed "
                      + "(\(issues.count) in all); fix the ones above first"),
        ]
    }
}
