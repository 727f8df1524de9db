/// Finds absolute `http://` and `https://` URLs in a script's string literals (quotes and
/// template literals), skipping comments. A heuristic, not a JavaScript parser: a regular
/// expression literal holding a quote can mislead it, and a URL built from pieces is not seen.
public enum ScriptScanner {
    /// The URLs (each literal that starts with the scheme), in order.
    public static func remoteURLs(in script: String) -> [String] {
        let chars = Array(script.unicodeScalars)
        var found: [String] = []
        var index = 0
        while index < chars.count {
            let c = chars[index]
            let next: Unicode.Scalar? = index + 1 < chars.count ? chars[index + 1] : nil
            if c == "/", next == "/" {
                while index < chars.count, chars[index] != "\n" { index += 1 }
            } else if c == "/", next == "*" {
                index += 2
                while index + 1 < chars.count, !(chars[index] == "*" && chars[index + 1] == "/") { index += 1 }
                index += 2
            } else if c == "\"" || c == "'" || c == "`" {
                index += 1
                var literal = ""
                while index < chars.count, chars[index] != c {
                    if chars[index] == "\\" { index += 1 }
                    if c != "`", index < chars.count, chars[index] == "\n" { break }
                    if index < chars.count { literal.unicodeScalars.append(chars[index]) }
                    index += 1
                }
                index += 1
                let lower = literal.lowercased()
                if lower.hasPrefix("http://") || lower.hasPrefix("https://") { found.append(literal) }
            } else {
                index += 1
            }
        }
        return found
    }
}
