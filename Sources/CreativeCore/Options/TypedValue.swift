/// Caller text read as a typed value: the one reading that command-line options (the CLI) and
/// query parameters (the service) share, so both accept the same text and say the same thing
/// about the rest. Each failure is ``CoreError/invalidNumber(_:)`` (a number) or
/// ``CoreError/invalidValue(_:)`` (a word) with a sentence that names the value and quotes the
/// text (cut to `quoteLimit` characters); the caller wraps it in its own error (a usage error, a
/// 400).
public enum TypedValue {
    /// A whole number within a range.
    public static func int(_ text: String, name: String, in range: ClosedRange<Int>,
                           quoteLimit: Int = .max) throws(CoreError) -> Int {
        guard let number = Int(text), range.contains(number) else {
            throw .invalidNumber("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), "
                                 + "not '\(TextFormat.clipped(text, quoteLimit))'")
        }
        return number
    }

    /// A finite number.
    public static func double(_ text: String, name: String, quoteLimit: Int = .max) throws(CoreError) -> Double {
        guard let number = Double(text), number.isFinite else {
            if let last = text.last, "xX".contains(last), let bare = Double(text.dropLast()), bare.isFinite {
                throw .invalidNumber("\(name) takes the number alone: drop the '\(last)', write \(text.dropLast())")
            }
            throw .invalidNumber("\(name) must be a number, not '\(TextFormat.clipped(text, quoteLimit))'")
        }
        return number
    }

    /// `true`/`1`/`yes` or `false`/`0`/`no`, in any case.
    public static func bool(_ text: String, name: String, quoteLimit: Int = .max) throws(CoreError) -> Bool {
        switch text.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw .invalidValue("\(name) must be true or false, not '\(TextFormat.clipped(text, quoteLimit))'")
        }
    }

    /// One of an enum's raw values, in any case. With `mistakenValues` (an option's declared
    /// mistakes, ``OptionDeclaration/mistakenValues``), a near miss also names the value meant.
    public static func choice<Choice: RawRepresentable & CaseIterable>(
        _ text: String, name: String, _ type: Choice.Type, quoteLimit: Int = .max, mistakenValues: [String: String]? = nil
    ) throws(CoreError) -> Choice where Choice.RawValue == String {
        guard let choice = Choice(rawValue: text.lowercased()) else {
            let names = Choice.allCases.map(\.rawValue)
            let meant = mistakenValues.flatMap { $0[text.lowercased()] ?? KeySuggestion.nearest(to: text, in: names) }
            throw .invalidValue("\(name) must be one of \(names.joined(separator: ", ")), not "
                                 + "'\(TextFormat.clipped(text, quoteLimit))'" + (meant.map { "; did you mean '\($0)'?" } ?? ""))
        }
        return choice
    }
}
