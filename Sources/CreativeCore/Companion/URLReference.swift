/// An absolute URL read by the generic syntax of RFC 3986 (section 3):
/// `scheme ":" ["//" [userinfo "@"] host [":" port]] path ["?" query] ["#" fragment]`.
///
/// CreativeCore imports no Foundation (its only import is the C library, for `log`), so this is
/// the one small URL reader of the project, in place of `URLComponents`. It reads a URL's parts
/// by the grammar, never by a pattern: the scheme (letters, then letters, digits, `+ - .`), the
/// authority after `//` up to the first `/ ? #`, the host (a registered name, or an IP literal in
/// brackets) and the port (digits, at most 65535). It refuses whitespace and control characters
/// anywhere, and `%` not followed by two hex digits. Characters RFC 3986 wants percent-encoded
/// (non-ASCII, `" < > \ ^ ` { | }`) are not refused: ``unencoded`` names the first one, for a
/// warning. One pass over the scalars: linear in the length of the text. Reading never throws:
/// a text that is not a URL is a finding (``Problem``) for a report, not a failure.
public struct URLReference: Sendable, Equatable {
    /// The scheme, in lower case (schemes are case-insensitive).
    public let scheme: String
    /// The host (without brackets for an IP literal), or nil when there is no `//` authority.
    public let host: String?
    /// The port, when one is written.
    public let port: Int?
    /// The first character that RFC 3986 allows only percent-encoded, if any.
    public let unencoded: Character?

    /// True for `http` and `https`.
    public var isHTTP: Bool { scheme == "http" || scheme == "https" }

    /// Why text is not an absolute URL.
    public enum Problem: Sendable, Equatable {
        /// No text at all.
        case empty
        /// A space, tab, line break or other whitespace, at this character position (from 1).
        case whitespace(position: Int)
        /// A control character, at this character position (from 1).
        case control(position: Int)
        /// No `scheme:` in front: a relative reference or a bare host name.
        case noScheme
        /// `%` not followed by two hex digits, at this character position (from 1).
        case badPercent(position: Int)
        /// An `http`/`https` URL without `//host`, or with an empty host.
        case noHost
        /// A host with a character a host cannot have, or an IP literal that is not one.
        case badHost(String)
        /// A port that is not digits, or over 65535.
        case badPort(String)

        /// What is wrong, as the end of a sentence that starts with the field's name.
        public var reason: String {
            switch self {
            case .empty: "is empty"
            case .whitespace(let position): "has whitespace at character \(position); a URL cannot contain spaces (write %20)"
            case .control(let position): "has a control character at character \(position)"
            case .noScheme: "is not an absolute URL: it needs a scheme such as https://"
            case .badPercent(let position): "has '%' not followed by two hex digits at character \(position)"
            case .noHost: "has no host: write it as https://host/path"
            case .badHost(let host): "has an invalid host '\(TextFormat.clipped(host))'"
            case .badPort(let port): "has an invalid port '\(TextFormat.clipped(port))' (digits, at most 65535)"
            }
        }
    }

    /// What reading a text as a URL gives: the URL, or why it is not one.
    public enum Reading: Sendable, Equatable {
        /// An absolute URL.
        case url(URLReference)
        /// Not one, and why.
        case problem(Problem)
    }

    private init(scheme: String, host: String?, port: Int?, unencoded: Character?) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.unencoded = unencoded
    }

    /// Reads `text` as an absolute URL.
    public static func read(_ text: String) -> Reading {
        guard !text.isEmpty else { return .problem(.empty) }
        let scalars = Array(text.unicodeScalars)
        var unencoded: Character?
        for (offset, scalar) in scalars.enumerated() {
            if scalar.properties.isWhitespace { return .problem(.whitespace(position: offset + 1)) }
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { return .problem(.control(position: offset + 1)) }
            if scalar == "%" {
                guard offset + 2 < scalars.count, isHexDigit(scalars[offset + 1]), isHexDigit(scalars[offset + 2])
                else { return .problem(.badPercent(position: offset + 1)) }
            }
            if unencoded == nil && !isAllowed(scalar) { unencoded = Character(scalar) }
        }
        // scheme ":" — the first ":" before any "/ ? #"; the scheme's own grammar.
        guard let colon = scalars.firstIndex(where: { $0 == ":" || $0 == "/" || $0 == "?" || $0 == "#" }),
              scalars[colon] == ":", colon > 0, isLetter(scalars[0]),
              scalars[1..<colon].allSatisfy({ isLetter($0) || isDigit($0) || "+-.".unicodeScalars.contains($0) })
        else { return .problem(.noScheme) }
        let scheme = string(scalars[..<colon]).lowercased()
        let needsHost = scheme == "http" || scheme == "https"

        let rest = scalars[(colon + 1)...]
        guard rest.starts(with: "//".unicodeScalars) else {
            return needsHost ? .problem(.noHost) : .url(URLReference(scheme: scheme, host: nil, port: nil, unencoded: unencoded))
        }
        let authorityStart = rest.startIndex + 2
        let authorityEnd = rest[authorityStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var authority = rest[authorityStart..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[(at + 1)...] }
        switch hostAndPort(authority) {
        case .problem(let problem): return .problem(problem)
        case .parts(let host, let port):
            if needsHost && host.isEmpty { return .problem(.noHost) }
            return .url(URLReference(scheme: scheme, host: host, port: port, unencoded: unencoded))
        }
    }

    private enum Authority {
        case parts(host: String, port: Int?)
        case problem(Problem)
    }

    /// The host and port of an authority without its userinfo.
    private static func hostAndPort(_ authority: ArraySlice<Unicode.Scalar>) -> Authority {
        var hostPart = authority
        var portPart: ArraySlice<Unicode.Scalar>?
        if authority.first == "[" {
            guard let close = authority.firstIndex(of: "]") else { return .problem(.badHost(string(authority))) }
            hostPart = authority[(authority.startIndex + 1)..<close]
            let after = authority[(close + 1)...]
            if !after.isEmpty {
                guard after.first == ":" else { return .problem(.badHost(string(authority))) }
                portPart = after.dropFirst()
            }
            guard !hostPart.isEmpty, hostPart.allSatisfy({ isHexDigit($0) || $0 == ":" || $0 == "." }) else {
                return .problem(.badHost(string(hostPart)))
            }
        } else {
            if let colon = authority.firstIndex(of: ":") {
                hostPart = authority[..<colon]
                portPart = authority[(colon + 1)...]
            }
            // reg-name = *( unreserved / pct-encoded / sub-delims ); characters beyond ASCII
            // (an internationalised name) are left to the `unencoded` warning.
            guard hostPart.allSatisfy({ $0.value > 0x7F || isUnreserved($0) || $0 == "%"
                                        || "!$&'()*+,;=".unicodeScalars.contains($0) }) else {
                return .problem(.badHost(string(hostPart)))
            }
        }
        var port: Int?
        if let portPart, !portPart.isEmpty {
            guard portPart.count <= 5, portPart.allSatisfy(isDigit), let number = Int(string(portPart)), number <= 65_535
            else { return .problem(.badPort(string(portPart))) }
            port = number
        }
        return .parts(host: string(hostPart), port: port)
    }

    private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        String(String.UnicodeScalarView(scalars))
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    private static func isHexDigit(_ scalar: Unicode.Scalar) -> Bool {
        isDigit(scalar) || ("a"..."f").contains(scalar) || ("A"..."F").contains(scalar)
    }

    private static func isUnreserved(_ scalar: Unicode.Scalar) -> Bool {
        isLetter(scalar) || isDigit(scalar) || "-._~".unicodeScalars.contains(scalar)
    }

    /// Unreserved, reserved (`: / ? # [ ] @ ! $ & ' ( ) * + , ; =`) or `%` (checked separately).
    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        isUnreserved(scalar) || ":/?#[]@!$&'()*+,;=%".unicodeScalars.contains(scalar)
    }
}
