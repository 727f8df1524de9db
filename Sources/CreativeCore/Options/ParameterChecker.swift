/// What a URL field accepts.
public enum URLRule: Sendable {
    /// An `http` or `https` URL with a host (images, icons, `carousel_cta_url`).
    case http
    /// An `https` URL with a host (takeover `Image_url`).
    case https
    /// Any absolute URL (`ctaUrl`, tap destinations): a scheme other than http(s) is a warning,
    /// since only the app's actions handler opens it.
    case destination

    /// What the field makes of a text: the URL when it can use it, else the code and the end of
    /// a sentence that starts with the field's name.
    public func check(_ text: String) -> URLVerdict {
        let url: URLReference
        switch URLReference.read(text) {
        case .problem(let problem): return .rejected(code: .invalidURL, reason: problem.reason)
        case .url(let read): url = read
        }
        switch self {
        case .http where !url.isHTTP:
            return .rejected(code: .urlSchemeNotAllowed,
                             reason: "must be an HTTP or HTTPS URL, not a '\(TextFormat.clipped(url.scheme, 20)):' URL")
        case .https where url.scheme != "https":
            return .rejected(code: .urlSchemeNotAllowed,
                             reason: "must be an HTTPS URL, not a '\(TextFormat.clipped(url.scheme, 20)):' URL")
        default:
            return .usable(url)
        }
    }
}

/// A URL field's verdict on a value.
public enum URLVerdict: Sendable, Equatable {
    /// The field can use the URL (warnings may still apply: ``URLReference/unencoded``, a scheme
    /// other than http(s) in a destination).
    case usable(URLReference)
    /// `invalid_url` or `url_scheme_not_allowed`, with the end of a sentence saying why.
    case rejected(code: LintCode, reason: String)
}

/// The checks every parameter format shares, over one split text, adding to one report:
/// splitting problems, required keys, text and URL values, aliases, unknown keys.
struct ParameterChecker {
    let parameters: TraffickingParameters
    /// Every key of the kind of parameters (companion or takeover), for suggestions.
    let vocabulary: [String]
    var report = CompanionLintReport()
    /// The given keys outside the vocabulary (first occurrences), each with the known key near it.
    private let unknown: [(entry: TraffickingParameters.Entry, near: String?)]

    init(_ text: String, vocabulary: [String]) {
        parameters = TraffickingParameters(text)
        self.vocabulary = vocabulary
        unknown = parameters.entries(notIn: Set(vocabulary)).map { ($0, KeySuggestion.nearest(to: $0.key, in: vocabulary)) }
    }

    /// `malformed_segment` for each segment that is not `key=value`, `duplicate_key` for each
    /// key given twice or more.
    mutating func splitting() {
        for bad in parameters.malformed {
            let message: String
            switch bad.reason {
            case .empty:
                message = "segment \(bad.segment) is empty (two commas in a row, or a comma at the start or end); "
                    + "remove the extra comma"
            case .noEquals:
                message = "segment \(bad.segment) '\(TextFormat.clipped(bad.text))' has no '='; write it as key=value "
                    + "(a comma inside a value would split it: the parameters cannot carry one)"
            case .emptyKey:
                message = "segment \(bad.segment) '\(TextFormat.clipped(bad.text))' has an empty key; write it as key=value"
            }
            report.add(LintIssue(.malformedSegment, segment: bad.segment, message))
        }
        for duplicate in parameters.duplicates {
            let places = duplicate.segments.prefix(5).map(String.init).joined(separator: ", ")
                + (duplicate.segments.count > 5 ? ", ..." : "")
            report.add(LintIssue(.duplicateKey, key: duplicate.key, segment: duplicate.segments.dropFirst().first,
                                 "\(quoted(duplicate.key)) is given \(duplicate.segments.count) times (segments \(places)); "
                                 + "the SDK rejects a creative with a repeated key: keep one"))
        }
    }

    /// The entry of a required key, or nil after `missing_key` (naming a given key that looks like it).
    mutating func required(_ key: String, _ what: String) -> TraffickingParameters.Entry? {
        if let entry = parameters.entry(key) { return entry }
        report.add(LintIssue(.missingKey, key: key, "\(key) is required: \(what)" + lookalike(of: [key])))
        return nil
    }

    /// A required text: `missing_key` when absent, `empty_value` when empty (with `nonEmpty`).
    mutating func requiredText(_ key: String, _ what: String, nonEmpty: Bool) -> String? {
        guard let entry = required(key, what) else { return nil }
        if nonEmpty && entry.value.isEmpty {
            report.add(LintIssue(.emptyValue, key: key, segment: entry.segment, "\(key) is empty: \(what)"))
        } else if nonEmpty && entry.value.unicodeScalars.allSatisfy(\.properties.isWhitespace) {
            report.add(LintIssue(.blankValue, key: key, segment: entry.segment,
                                 "\(key) is only spaces: it shows as blank"))
        }
        return entry.value
    }

    /// A required URL: `missing_key`, `empty_value`, then the rule's checks.
    mutating func requiredURL(_ key: String, _ what: String, rule: URLRule) -> String? {
        guard let entry = required(key, what) else { return nil }
        url(entry, rule: rule, what: what)
        return entry.value
    }

    /// The checks of one URL value: `empty_value`, `invalid_url` or `url_scheme_not_allowed`;
    /// warnings `app_handled_url` and `url_not_encoded`.
    mutating func url(_ entry: TraffickingParameters.Entry, key: String? = nil, rule: URLRule, what: String) {
        let key = key ?? entry.key
        guard !entry.value.isEmpty else {
            report.add(LintIssue(.emptyValue, key: key, segment: entry.segment, "\(key) is empty: \(what)"))
            return
        }
        switch rule.check(entry.value) {
        case .rejected(let code, let reason):
            report.add(LintIssue(code, key: key, segment: entry.segment, "\(key) '\(TextFormat.clipped(entry.value))' \(reason)"))
        case .usable(let url):
            urlWarnings(url, key: key, segment: entry.segment, index: nil, value: entry.value)
        }
    }

    /// `app_handled_url` for a destination that is not http(s), `url_not_encoded` for characters to encode.
    mutating func urlWarnings(_ url: URLReference, key: String, segment: Int, index: Int?, value: String) {
        let place = index.map { "\(key) entry \($0)" } ?? key
        if !url.isHTTP {
            report.add(LintIssue(.appHandledURL, key: key, segment: segment, index: index,
                                 "\(place) '\(TextFormat.clipped(value))' is a '\(TextFormat.clipped(url.scheme, 20)):' URL: "
                                 + "without the app's CompanionActions handler the SDK opens only HTTP and HTTPS destinations"))
        }
        if let character = url.unencoded {
            report.add(LintIssue(.urlNotEncoded, key: key, segment: segment, index: index,
                                 "\(place) has '\(character)', which a URL carries percent-encoded (RFC 3986); "
                                 + "encode it (%XX) so every client reads the same address"))
        }
    }

    /// The entry of a key that has two spellings, resolved: `alias_mismatch` when both are given
    /// with different values. Returns the first spelling given, or nil when neither is.
    mutating func alias(_ names: [String], as name: String) -> TraffickingParameters.Entry? {
        let given = names.compactMap { parameters.entry($0) }
        if given.count > 1 && Set(given.map(\.value)).count > 1 {
            report.add(LintIssue(.aliasMismatch, key: name, segment: given[1].segment,
                                 "\(names.map(quoted).joined(separator: " and ")) are both given with different values; "
                                 + "the SDK rejects that: give one of them, or the same value in both"))
        }
        return given.first
    }

    /// `unknown_key` for keys outside the vocabulary (naming the near known key), and
    /// `key_not_used` for known keys outside `used` (a key of the other format), with `note`.
    mutating func unknownKeys(used: Set<String>, notUsedNote: String) {
        var issues = parameters.entries(notIn: used.union(unknown.map(\.entry.key))).map { entry in
            LintIssue(.keyNotUsed, key: entry.key, segment: entry.segment, "\(quoted(entry.key)) \(notUsedNote); it is ignored")
        }
        for (entry, near) in unknown {
            issues.append(LintIssue(.unknownKey, key: entry.key, segment: entry.segment,
                                    "\(quoted(entry.key)) is not a known key; it is ignored"
                                    + (near.map { ". Did you mean \($0)? Keys are case-sensitive" } ?? "")))
        }
        for issue in issues.sorted(by: { $0.segment ?? 0 < $1.segment ?? 0 }) { report.add(issue) }
    }

    /// ` ('bannertitle' in segment 2 looks like it ...)` when a given unknown key is near one of `keys`.
    func lookalike(of keys: [String]) -> String {
        guard let (entry, _) = unknown.first(where: { $0.near.map(keys.contains) ?? false }) else { return "" }
        return " (\(quoted(entry.key)) in segment \(entry.segment) looks like it: keys are case-sensitive)"
    }

    /// A key or value in quotes, cut to 64 characters.
    func quoted(_ text: String) -> String { "'\(TextFormat.clipped(text))'" }
}
