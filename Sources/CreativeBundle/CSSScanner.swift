/// Finds the URLs a style sheet loads: every `url(...)` (quoted or not) and every `@import`
/// (a string or a `url()`). Comments are skipped and CSS escapes (`\` + hex or a character)
/// are decoded. A small scanner of CSS's tokens for these two forms, not a CSS parser: Debian
/// ships no CSS library to use instead.
public enum CSSScanner {
    /// The URLs in the order they appear.
    public static func urls(in css: String) -> [String] {
        var found: [String] = []
        let chars = Array(css.unicodeScalars)
        var index = 0
        func at(_ offset: Int) -> Unicode.Scalar? { index + offset < chars.count ? chars[index + offset] : nil }
        /// True when a lower-case ASCII word starts at `index`, in any case.
        func matches(_ word: [UInt32]) -> Bool {
            guard index + word.count <= chars.count else { return false }
            for (offset, letter) in word.enumerated() {
                let value = chars[index + offset].value
                let lower = (0x41...0x5A).contains(value) ? value | 0x20 : value
                if lower != letter { return false }
            }
            return true
        }
        let urlOpen = "url(".unicodeScalars.map(\.value), importRule = "@import".unicodeScalars.map(\.value)
        func skipSpace() { while let c = at(0), c.properties.isWhitespace { index += 1 } }
        /// A quoted string starting at `index` (the quote), escapes decoded.
        func quoted() -> String {
            let quote = chars[index]
            index += 1
            var text = ""
            while let c = at(0), c != quote, c != "\n" {
                if c == "\\" { index += 1; text.unicodeScalars.append(contentsOf: escape()); continue }
                text.unicodeScalars.append(c)
                index += 1
            }
            index += 1
            return text
        }
        /// An escape after its backslash: up to six hex digits (and one space), or the character.
        func escape() -> [Unicode.Scalar] {
            var hex = ""
            while hex.count < 6, let c = at(0), c.properties.isASCIIHexDigit { hex.unicodeScalars.append(c); index += 1 }
            if hex.isEmpty {
                guard let c = at(0) else { return [] }
                index += 1
                return c == "\n" ? [] : [c]
            }
            if let c = at(0), c.properties.isWhitespace { index += 1 }
            return [UInt32(hex, radix: 16).flatMap(Unicode.Scalar.init) ?? "\u{FFFD}"]
        }
        /// The inside of `url(` up to `)`.
        func urlBody() -> String {
            skipSpace()
            if let c = at(0), c == "\"" || c == "'" {
                let text = quoted()
                while let c = at(0), c != ")" { index += 1 }
                index += 1
                return text
            }
            var text = ""
            while let c = at(0), c != ")" {
                if c == "\\" { index += 1; text.unicodeScalars.append(contentsOf: escape()); continue }
                text.unicodeScalars.append(c)
                index += 1
            }
            index += 1
            return text.trimmingSpace()
        }
        while index < chars.count {
            let c = chars[index]
            if c == "/", at(1) == "*" {
                index += 2
                while index < chars.count, !(chars[index] == "*" && at(1) == "/") { index += 1 }
                index += 2
            } else if c == "\"" || c == "'" {
                _ = quoted()
            } else if c == "\\" {
                index += 1
                _ = escape()
            } else if matches(urlOpen), index == 0 || !isNameCharacter(chars[index - 1]) {
                index += 4
                found.append(urlBody())
            } else if matches(importRule) {
                index += 7
                skipSpace()
                if let c = at(0), c == "\"" || c == "'" {
                    found.append(quoted())
                } else if matches(urlOpen) {
                    index += 4
                    found.append(urlBody())
                }
            } else {
                index += 1
            }
        }
        return found
    }

    private static func isNameCharacter(_ c: Unicode.Scalar) -> Bool {
        c.properties.isAlphabetic || c.properties.numericType != nil || c == "-" || c == "_"
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
