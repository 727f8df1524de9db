/// Sizes and durations as people write them: `64M`, `1G`, `512K`, `134217728`; `10s`, `500ms`,
/// `2m`, `1.5`. The one reading of every byte-size and duration option of every command, `serve`
/// and the service, so one flag name has one meaning everywhere.
public enum Quantity {
    /// Bytes: a whole number with an optional `K`, `M` or `G` (1024, 1024², 1024³; `KB`, `MiB`
    /// and lower case too); a bare number counts `bareUnit` bytes.
    /// - Throws: ``CoreError/invalidNumber(_:)`` naming the option, the forms and the range.
    public static func bytes(_ text: String, name: String, in range: ClosedRange<Int>, bareUnit: Int) throws(CoreError) -> Int {
        var digits = Substring(text.lowercased())
        for ending in ["ib", "b"] where digits.hasSuffix(ending) && digits.count > ending.count {
            digits = digits.dropLast(ending.count)
            break
        }
        var unit = bareUnit
        if let last = digits.last, let shift = ["k": 10, "m": 20, "g": 30][String(last)] {
            unit = 1 << shift
            digits = digits.dropLast()
        }
        let (count, overflow) = (Int(digits) ?? -1).multipliedReportingOverflow(by: unit)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), Int(digits) != nil, !overflow, range.contains(count) else {
            throw .invalidNumber("\(name) must be a size from \(describe(bytes: range.lowerBound)) to "
                                 + "\(describe(bytes: range.upperBound)) (for example 64M or 1G), not '\(TextFormat.clipped(text))'")
        }
        return count
    }

    /// Seconds: a number with an optional `ms`, `s` or `m`; a bare number is seconds.
    /// - Throws: ``CoreError/invalidNumber(_:)`` naming the option, the forms and the range.
    public static func seconds(_ text: String, name: String, in range: ClosedRange<Double>) throws(CoreError) -> Double {
        var number = Substring(text.lowercased())
        var unit = 1.0
        for (ending, factor) in [("ms", 0.001), ("s", 1.0), ("m", 60.0)] where number.hasSuffix(ending) {
            number = number.dropLast(ending.count)
            unit = factor
            break
        }
        guard let value = Double(number), value.isFinite, range.contains(value * unit) else {
            let lowest = range.lowerBound < 0.001 ? "above 0" : "from \(TextFormat.scale(range.lowerBound)) s"
            throw .invalidNumber("\(name) must be a duration \(lowest) to "
                                 + "\(TextFormat.scale(range.upperBound)) s (for example 10s or 500ms), not '\(TextFormat.clipped(text))'")
        }
        return value * unit
    }

    /// `64M`, `1G`, `512K` or a count of bytes, the shortest exact form.
    public static func describe(bytes: Int) -> String {
        for (shift, suffix) in [(30, "G"), (20, "M"), (10, "K")] where bytes >= 1 << shift && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift)\(suffix)"
        }
        return "\(bytes)"
    }
}
