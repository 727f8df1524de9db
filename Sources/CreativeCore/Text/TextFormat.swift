/// Numbers and text as every output writes them (CLI lines, guidance, the preview sheet), once.
public enum TextFormat {
    /// A file size for people, as every output writes it: under 1000 bytes in bytes (`812 bytes`),
    /// else in kilobytes of 1000 bytes rounded to the nearest (`1985` -> `2 KB`, `3145728` ->
    /// `3,146 KB`). The try-it page rounds the same way.
    public static func kilobytes(_ bytes: Int) -> String {
        guard bytes >= 1000 else { return "\(bytes) bytes" }
        return grouped((bytes + 500) / 1000) + " KB"
    }

    /// A whole number with its thousands grouped: `153600` -> `153,600`.
    public static func grouped(_ number: Int) -> String {
        var digits = String(number.magnitude)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return (number < 0 ? "-" : "") + digits + grouped
    }

    /// A text cut into lines of at most `columns` characters at spaces (a longer word stays
    /// whole); no line for an empty text. Help, the man page and the preview sheet wrap with it.
    public static func wrap(_ text: String, columns: Int) -> [String] {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > columns {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + (line.isEmpty ? [] : [line])
    }

    /// A scale as written after `@`: `3` for whole scales, `2.625` otherwise.
    public static func scale(_ scale: Double) -> String {
        scale == scale.rounded() ? String(Int(scale)) : String(scale)
    }

    /// A share of 0...1 as a percentage with a fixed number of decimals: `99.57%`. Rounded once,
    /// the way every output rounds a share: to the four decimals JSON writes (``JSONValue``), then,
    /// for fewer, half up in whole numbers, so a page that reads the JSON's `0.9785` shows the
    /// `97.9%` the sheet shows for the exact 0.97849 (the try-it page's `pct` does the same).
    public static func percent(_ share: Double, decimals: Int = 2) -> String {
        guard decimals < 2 else { return decimal(share * 100, decimals: decimals) + "%" }
        let tenThousandths = Int((share * 10_000).rounded())
        let dropped = decimals <= 0 ? 100 : 10  // hundredths of a percent per unit written
        let units = (tenThousandths + dropped / 2) / dropped
        return decimal(Double(units) * Double(dropped) / 100, decimals: max(0, decimals)) + "%"
    }

    /// A non-negative number with a fixed number of decimals: `0.986`.
    public static func decimal(_ value: Double, decimals: Int) -> String {
        var unit = 1
        for _ in 0..<decimals { unit *= 10 }
        let scaled = Int((value * Double(unit)).rounded())
        guard decimals > 0 else { return "\(scaled)" }
        let fraction = String(scaled % unit)
        return "\(scaled / unit).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
    }

    /// `items` as a sentence lists them: `a`, `a or b`, `a, b or c` (`word` before the last).
    public static func listed(_ items: [String], _ word: String = "or") -> String {
        guard let last = items.last, items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(word) " + last
    }

    /// Caller text cut to `limit` characters (and `...`) before it goes into a message.
    public static func clipped(_ text: String, _ limit: Int = 64) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "..."
    }

    /// Text made safe inside HTML, XML or Pango markup: `& < > " '` as entities.
    public static func markupEscaped(_ text: String) -> String {
        replacing(text, ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"])
    }

    /// `text` with each character that `replacements` names written as its replacement (an
    /// escaper's table: markup entities, Prometheus labels, roff).
    public static func replacing(_ text: String, _ replacements: [Character: String]) -> String {
        var out = ""
        for character in text {
            if let replacement = replacements[character] { out += replacement } else { out.append(character) }
        }
        return out
    }

    /// Text for a terminal, one line: names and other caller text cannot start a new line, move
    /// the cursor or reorder what is shown. Line breaks and tabs become `\n`, `\r`, `\t`; other
    /// control characters (C0, DEL, C1) and bytes that are not UTF-8 (``PathBytes``) become `\xNN`;
    /// line and paragraph separators and bidirectional controls become `\u{NNNN}`; a backslash
    /// becomes `\\`, so every shown name stands for exactly one real one.
    public static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if let byte = PathBytes.rawByte(scalar) {
                out += "\\x" + hex(UInt32(byte), digits: 2)
                continue
            }
            switch scalar.value {
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x00...0x1F, 0x7F...0x9F: out += "\\x" + hex(scalar.value, digits: 2)
            case 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
                out += "\\u{" + hex(scalar.value, digits: 4) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
