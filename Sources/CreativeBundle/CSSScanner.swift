/// Finds the URLs a style sheet loads: every `url(...)` (quoted or not), every string argument of
/// `image-set()`, `-webkit-image-set()`, `image()` and `src()`, and every `@import` (a string or a
/// `url()`). Read as a browser reads CSS: line ends normalised, comments skipped, and escapes
/// (`\` with up to six hex digits and one optional white space, or `\` and a character; a
/// backslash and a newline in a string continues it) decoded inside names and strings, so
/// `u\72l(`, `\55 RL(` and `@\69mport` are the function and the rule. Function and rule names
/// are compared in any case. A small scanner of CSS's tokens for these forms, not a CSS parser:
/// Debian ships no CSS library to use instead.
public enum CSSScanner {
    /// Functions whose quoted string arguments are URLs (their `url()` arguments are found anyway).
    static let stringURLFunctions: Set<String> = ["image-set", "-webkit-image-set", "image", "src"]

    /// The URLs in the order they appear.
    public static func urls(in css: String) -> [String] {
        var reader = CSSReader(css)
        return reader.urls()
    }
}

/// The scanner's cursor over one style sheet's preprocessed code points.
private struct CSSReader {
    private let chars: [Unicode.Scalar]
    private var index = 0

    /// CSS's input preprocessing: CR LF, CR and FF become LF; NUL becomes U+FFFD.
    init(_ css: String) {
        var chars: [Unicode.Scalar] = []
        chars.reserveCapacity(css.unicodeScalars.count)
        var previousCR = false
        for c in css.unicodeScalars {
            defer { previousCR = c == "\r" }
            switch c {
            case "\n" where previousCR: continue
            case "\r", "\u{C}": chars.append("\n")
            case "\0": chars.append("\u{FFFD}")
            default: chars.append(c)
            }
        }
        self.chars = chars
    }

    private func at(_ offset: Int) -> Unicode.Scalar? { index + offset < chars.count ? chars[index + offset] : nil }

    mutating func urls() -> [String] {
        var found: [String] = []
        // Parenthesis depth, and the depths at which a string is a URL (inside `image-set(` ...).
        var depth = 0
        var stringURLDepths: [Int] = []
        while let c = at(0) {
            if c == "/", at(1) == "*" {
                skipComment()
            } else if c == "\"" || c == "'" {
                let text = quoted()
                if stringURLDepths.last == depth { found.append(text) }
            } else if c == "@", startsName(at: 1) {
                index += 1
                if name().lowercased() == "import" {
                    skipSpaceAndComments()
                    if let quote = at(0), quote == "\"" || quote == "'" { found.append(quoted()) }
                }
            } else if startsName(at: 0) {
                let function = name().lowercased()
                guard at(0) == "(" else { continue }
                index += 1
                if function == "url" {
                    found.append(urlBody())
                } else {
                    depth += 1
                    if CSSScanner.stringURLFunctions.contains(function) { stringURLDepths.append(depth) }
                }
            } else if c == "(" {
                depth += 1
                index += 1
            } else if c == ")" {
                if stringURLDepths.last == depth { stringURLDepths.removeLast() }
                depth = max(0, depth - 1)
                index += 1
            } else {
                index += 1
            }
        }
        return found
    }

    /// True when a name (an identifier, or the rest of a number) starts at `offset`: a name
    /// character, or a backslash that is an escape (not before a newline or the end).
    private func startsName(at offset: Int) -> Bool {
        guard let c = at(offset) else { return false }
        if c == "\\" { return at(offset + 1).map { $0 != "\n" } ?? false }
        return Self.isNameCharacter(c)
    }

    private static func isNameCharacter(_ c: Unicode.Scalar) -> Bool {
        c.value >= 0x80 || c == "-" || c == "_" || ("a"..."z").contains(c) || ("A"..."Z").contains(c)
            || ("0"..."9").contains(c)
    }

    private static func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" }

    /// A name from `index`, escapes decoded.
    private mutating func name() -> String {
        var text = ""
        while startsName(at: 0), let c = at(0) {
            index += 1
            if c == "\\" { text.unicodeScalars.append(escape()) } else { text.unicodeScalars.append(c) }
        }
        return text
    }

    /// An escape after its backslash (which is not before a newline): up to six hex digits and
    /// one optional white space, or the character itself.
    private mutating func escape() -> Unicode.Scalar {
        var value: UInt32 = 0, digits = 0
        while digits < 6, let c = at(0), c.properties.isASCIIHexDigit, let digit = UInt32(String(c), radix: 16) {
            value = value * 16 + digit
            digits += 1
            index += 1
        }
        guard digits > 0 else {
            guard let c = at(0) else { return "\u{FFFD}" }
            index += 1
            return c
        }
        if let c = at(0), Self.isSpace(c) { index += 1 }
        guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return scalar
    }

    private mutating func skipComment() {
        index += 2
        while let c = at(0), !(c == "*" && at(1) == "/") { index += 1 }
        index += 2
    }

    private mutating func skipSpaceAndComments() {
        while let c = at(0) {
            if Self.isSpace(c) { index += 1 } else if c == "/", at(1) == "*" { skipComment() } else { return }
        }
    }

    /// A quoted string starting at `index` (the quote), escapes decoded and escaped newlines
    /// dropped; it ends at its quote, an unescaped newline or the end.
    private mutating func quoted() -> String {
        let quote = chars[index]
        index += 1
        var text = ""
        while let c = at(0), c != quote, c != "\n" {
            index += 1
            guard c == "\\" else { text.unicodeScalars.append(c); continue }
            if at(0) == "\n" { index += 1 } else if at(0) != nil { text.unicodeScalars.append(escape()) }
        }
        if at(0) == quote { index += 1 }
        return text
    }

    /// The inside of `url(` up to `)`: a quoted string, or the unquoted URL with escapes decoded
    /// (an escaped newline, which makes it invalid, is dropped: the rest is still checked).
    private mutating func urlBody() -> String {
        skipSpaceAndComments()
        if let c = at(0), c == "\"" || c == "'" {
            let text = quoted()
            while let c = at(0), c != ")" { index += 1 }
            index += 1
            return text
        }
        var text = ""
        while let c = at(0), c != ")" {
            index += 1
            guard c == "\\" else { text.unicodeScalars.append(c); continue }
            if at(0) == "\n" { index += 1 } else { text.unicodeScalars.append(escape()) }
        }
        index += 1
        return text.trimmingSpace()
    }
}

extension StringProtocol {
    /// The text without leading and trailing white space.
    func trimmingSpace() -> String {
        let scalars = Array(unicodeScalars)
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[first...last])
        return text
    }
}
