import CreativeCore

/// A command whose options are declarations (``OptionDeclaration``): its flags, its `--help`
/// and its "did you mean" all come from them.
protocol DeclaredCommand {
    /// The word after `creative-tool`.
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// Every option the command line takes, in help order.
    static var declared: [OptionDeclaration] { get }
    /// The rest of the help: synopsis, operands, notes, examples, exit codes.
    static var help: CommandHelp { get }
    /// The words the first operand may be (`companion lint`), for completion; empty when it is a FILE.
    static var actions: [String] { get }
    /// Runs with parsed arguments; returns the exit code.
    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32
}

extension DeclaredCommand {
    static var actions: [String] { [] }
    /// The usage lines shown with `--help` and after a usage error.
    static var usage: String { help.text(command: name, options: declared) }
    /// Options that take a value, and flags that do not (besides `--help`).
    static var options: Set<String> { Set(declared.filter { !$0.isFlag }.map(\.flag)) }
    static var flags: Set<String> { Set(declared.filter(\.isFlag).map(\.flag)) }
    /// Options that may be given more than once.
    static var repeatable: Set<String> { Set(declared.filter(\.repeatable).map(\.flag)) }
    /// Flags people give by mistake, to the flag meant (`-o` -> `--output`).
    static var mistaken: [String: String] { CommandHelp.mistaken(declared) }
    /// The short spellings the command takes (`-o` for `--output`).
    static var short: [String: String] { CommandHelp.short(declared) }
}

/// The parts of a command's `--help` that are not options.
struct CommandHelp {
    /// Each usage line after `creative-tool NAME`.
    var synopsis: [String]
    /// Positional arguments and what they are.
    var operands: [(String, String)] = []
    /// Sentences after the options.
    var notes: [String] = []
    /// Whole command lines to copy.
    var examples: [String]
    /// What each exit code but 74 means for this command (``exitCodeText`` adds 74, the same for every command).
    var exitCodes = "0 success, 1 the job failed, 64 usage error"

    /// Every exit code of the command: its own, then 74 (``ExitCode/inputOutput``).
    var exitCodeText: String { exitCodes + ", " + ExitCode.inputOutputHelp }

    /// Width of the name column, and of the whole text.
    private static let column = 24, width = 100

    /// The whole help text.
    func text(command: String, options: [OptionDeclaration]) -> String {
        var lines = synopsis.enumerated().map { index, line in
            (index == 0 ? "usage: " : "       ") + "creative-tool \(command) \(line)"
        }
        for (name, meaning) in operands { lines += Self.row(name, meaning) }
        if !options.isEmpty { lines.append("options:") }
        for option in options {
            let spelled = Self.shortSpelling[option.flag].map { "\($0), \(option.flag)" } ?? option.flag
            let name = spelled + (option.placeholder.isEmpty ? "" : " \(option.placeholder)")
            let fallback = option.isFlag ? nil : option.defaultValue.map { " (default \($0))" }
            lines += Self.row(name, option.help + (fallback ?? ""))
        }
        lines += notes
        lines.append("examples:")
        lines += examples.map { "  creative-tool \(command) \($0)" }
        lines.append("exit codes: \(exitCodeText)")
        return lines.joined(separator: "\n")
    }

    /// `  NAME      text`, the text wrapped under itself.
    private static func row(_ name: String, _ text: String) -> [String] {
        var lines: [String] = []
        var line = "  " + name
        if line.count + 2 > column {
            lines.append(line)
            line = ""
        }
        line += String(repeating: " ", count: column - line.count)
        let wrapped = TextFormat.wrap(text, columns: width - column)
        lines.append(line + (wrapped.first ?? ""))
        return lines + wrapped.dropFirst().map { String(repeating: " ", count: column) + $0 }
    }

    /// The flags people give by mistake, to the flag meant: `--out` -> `--output`, and a
    /// choice's value given as a flag to the option with it (`--json` -> `--format json`).
    static func mistaken(_ options: [OptionDeclaration]) -> [String: String] {
        var map: [String: String] = [:]
        for option in options {
            if case .choice(let values) = option.kind {
                for value in values { map["--" + value] = "\(option.flag) \(value)" }
            }
        }
        for option in options {
            for name in option.mistakenNames { map[(name.count == 1 ? "-" : "--") + name] = option.flag }
        }
        return map
    }

    /// The one-letter spellings of the long options where people expect them, whichever of
    /// the long options a command takes: `-o` is `--output` (or `--output-dir`), `-v`
    /// `--verbose`, `-q` `--quiet` (`-h` is `--help`, for every command).
    static let shortSpelling = ["--output": "-o", "--output-dir": "-o", "--verbose": "-v", "--quiet": "-q"]

    /// The short spellings of the options a command declares, to the long ones.
    static func short(_ options: [OptionDeclaration]) -> [String: String] {
        var map: [String: String] = [:]
        for option in options { if let letter = shortSpelling[option.flag] { map[letter] = option.flag } }
        return map
    }
}
