/// How a URL found in a bundle file fares in the locked web view, where only the bundle's own
/// files load (from a private scheme) and every `http` and `https` load is blocked.
public enum ReferenceVerdict: Sendable, Equatable {
    /// Loads: a bundle file, a `data:` URI, a fragment, or a link's `javascript:` click handler.
    case loads
    /// A remote or other-scheme URL: blocked on devices (`remote_resource_blocked`).
    case blocked(String)
    /// `javascript:` outside a link's `href` (`javascript_url`).
    case javascript
    /// A relative path to a file the bundle does not hold (`missing_file`): the resolved path.
    case missing(String)
}

/// Resolves URLs against a bundle's file names.
public enum BundleReference {
    /// The verdict on one URL written in the file at `from` (a bundle path), read as the WHATWG
    /// URL parser reads it (``parsed(_:)``).
    public static func verdict(_ url: String, from: String, isLink: Bool, files: Set<String>) -> ReferenceVerdict {
        let trimmed = parsed(url)
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return .loads }
        let start = trimmed.unicodeScalars.prefix(2)
        if start.count == 2, start.allSatisfy({ $0 == "/" || $0 == "\\" }) {
            return .blocked("protocol-relative URL loads over http(s)")
        }
        if let scheme = scheme(of: trimmed) {
            switch scheme {
            case "data": return .loads
            case "javascript": return isLink ? .loads : .javascript
            case "http", "https": return .blocked("\(scheme): loads are blocked in the ad's web view")
            default: return .blocked("\(scheme): URLs do not load in the ad's web view")
            }
        }
        guard let path = resolve(trimmed, from: from) else { return .missing(trimmed) }
        if path.isEmpty { return .loads }
        return files.contains(path) ? .loads : .missing(path)
    }

    /// The URL as the WHATWG URL parser starts reading it: leading and trailing C0 controls and
    /// spaces dropped, and every ASCII tab, LF and CR inside removed (so `ht\ttps:` is `https:`).
    /// Other white space trimmed too, as HTML does for attribute values.
    static func parsed(_ url: String) -> String {
        var text = ""
        text.unicodeScalars.append(contentsOf: url.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" })
        let scalars = Array(text.unicodeScalars)
        func isTrimmed(_ c: Unicode.Scalar) -> Bool { c.value <= 0x20 || c.properties.isWhitespace }
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
              let last = scalars.lastIndex(where: { !isTrimmed($0) }) else { return "" }
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars[first...last])
        return result
    }

    /// The lower-case scheme of an absolute URL, or nil for a relative one.
    static func scheme(of url: String) -> String? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let candidate = url[..<colon]
        guard let first = candidate.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
              candidate.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
                                                                    || $0 == "+" || $0 == "-" || $0 == ".") })
        else { return nil }
        return candidate.lowercased()
    }

    /// The bundle path a relative URL names (query and fragment dropped, percent-escapes
    /// decoded, `.` and `..` applied), `""` for the document itself, or nil when it leaves the bundle.
    static func resolve(_ url: String, from: String) -> String? {
        let pathPart = url.prefix { $0 != "?" && $0 != "#" }
        if pathPart.isEmpty { return "" }
        let decoded = percentDecoded(String(pathPart))
        let joined = decoded.hasPrefix("/") ? String(decoded.dropFirst()) : EntryName.folder(from) + decoded
        var parts: [Substring] = []
        for part in joined.split(separator: "/", omittingEmptySubsequences: false) {
            switch part {
            case ".", "": continue
            case "..": if parts.popLast() == nil { return nil }
            default: parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
               let value = UInt8(String(decoding: utf8[index + 1...index + 2], as: UTF8.self), radix: 16) {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
