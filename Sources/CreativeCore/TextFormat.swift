/// Numbers and text as every output writes them (CLI lines, guidance, the preview sheet), once.
public enum TextFormat {
    /// A scale as written after `@`: `3` for whole scales, `2.625` otherwise.
    public static func scale(_ scale: Double) -> String {
        scale == scale.rounded() ? String(Int(scale)) : String(scale)
    }

    /// A share of 0...1 as a percentage with a fixed number of decimals: `99.57%`.
    public static func percent(_ share: Double, decimals: Int = 2) -> String {
        var unit = 1
        for _ in 0..<decimals { unit *= 10 }
        let scaled = Int((share * 100 * Double(unit)).rounded())
        guard decimals > 0 else { return "\(scaled)%" }
        let fraction = String(scaled % unit)
        return "\(scaled / unit).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)%"
    }

    /// Caller text cut to `limit` characters (and `...`) before it goes into a message.
    public static func clipped(_ text: String, _ limit: Int = 64) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "..."
    }

    /// Text made safe inside HTML, XML or Pango markup: `& < > " '` as entities.
    public static func markupEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
