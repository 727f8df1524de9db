import CreativeCore

/// The parsed command line of one subcommand: positional arguments, options with values, flags.
///
/// Accepts `--name value`, `--name=value`, boolean `--flag`, `-` as a positional (standard
/// input or output), and `--` to end options. Anything starting with `-` that the command
/// does not declare is a usage error.
public struct ParsedArguments: Sendable {
    public private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    /// The operands that came right after an option's value (`--device iPhone 15` leaves `15`
    /// after `--device`), for messages that say what was meant.
    private var wordsAfter: [String: [String]] = [:]

    /// Reads `arguments` against the options (which take a value) and flags (which do not);
    /// the options in `repeatable` may be given more than once (``values(_:)``). `short` names
    /// the short spellings (`-o` for `--output`). An unknown option names the one meant: from
    /// `mistaken` (`--out` -> `--output`), else the nearest name.
    /// - Throws: ``CLIError/usage(_:)`` for an unknown option, a missing value, or a repeated option.
    public init(_ arguments: [String], options: Set<String>, flags: Set<String>,
                repeatable: Set<String> = [], mistaken: [String: String] = [:],
                short: [String: String] = [:]) throws(CLIError) {
        var index = 0
        var onlyPositionals = false
        var lastWithValue: String?
        while index < arguments.count {
            var argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") || Self.isNegativeNumber(argument) {
                positionals.append(argument)
                if let lastWithValue { wordsAfter[lastWithValue, default: []].append(argument) }
                continue
            }
            lastWithValue = nil
            if let long = short[argument] { argument = long }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if flags.contains(name) {
                guard inlineValue == nil else { throw .usage("\(name) takes no value") }
                self.flags.insert(name)
            } else if options.contains(name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw .usage("\(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                guard values[name] == nil || repeatable.contains(name) else { throw .usage("\(name) is given twice") }
                values[name, default: []].append(value)
                lastWithValue = name
            } else {
                let meant = mistaken[name] ?? KeySuggestion.nearest(to: name, in: (options.union(flags)).sorted())
                throw .usage("unknown option \(TextFormat.clipped(name))" + (meant.map { "; did you mean \($0)?" } ?? ""))
            }
        }
    }

    private static func isNegativeNumber(_ text: String) -> Bool {
        text.count > 1 && text.dropFirst().allSatisfy { $0.isNumber || $0 == "." || $0 == "x" }
    }

    /// True when the flag was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The value of an option, or nil.
    public func value(_ name: String) -> String? { values[name]?.first }

    /// The operands given right after the option's value, in order (`15` of `--device iPhone 15`).
    public func words(after name: String) -> [String] { wordsAfter[name] ?? [] }

    /// Every value of a repeatable option, in order (empty when not given).
    public func values(_ name: String) -> [String] { values[name] ?? [] }
}

/// The command line as an operation's options: the flag of each declaration.
extension ParsedArguments: OptionSource {
    public func given(_ option: OptionDeclaration) -> String? {
        guard option.isFlag else { return value(option.flag) }
        return flag(option.flag) ? String(option.defaultValue != "true") : nil
    }

    public func every(_ option: OptionDeclaration) -> [String] { values(option.flag) }

    public func spelling(_ option: OptionDeclaration) -> String { option.flag }
}
