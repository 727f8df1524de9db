import CreativeCore
import CreativeImaging

/// The root command: reads the subcommand, runs it, maps errors to exit codes.
public enum CommandLineTool {
    /// The tool's version.
    public static let version = BuildInfo.version

    static var subcommands: [any DeclaredCommand.Type] {
        [
            ValidateCommand.self, RenderCommand.self, SlotCommand.self, SelectCommand.self,
            TestArtworkCommand.self, GuidanceCommand.self, PromptCommand.self, ProcessCommand.self, FixCommand.self,
            CompanionCommand.self, ProfilesCommand.self, ServeCommand.self, WorkerCommand.self, EnqueueCommand.self,
        ]
    }

    /// Runs the tool with the arguments after the program name; returns the exit code.
    public static func main(_ arguments: [String]) -> Int32 {
        guard let first = arguments.first else {
            Streams.errLine("creative-tool: missing command (\(subcommands.map { $0.name }.joined(separator: ", ")))")
            Streams.errLine("see 'creative-tool --help'")
            return ExitCode.usage
        }
        if first == "--help" || first == "-h" || first == "help" {
            guard let topic = arguments.dropFirst().first else { return printed(overview + "\n", command: nil) }
            if topic == "--format" { return reference(Array(arguments.dropFirst(2))) }
            // `help --help`, `help help`: help's own help is the overview.
            if topic == "--help" || topic == "-h" || topic == "help" { return printed(overview + "\n", command: nil) }
            return help(topic)
        }
        if first == "--version" || first == "-v" || first == "-V" {
            let library = VipsRuntime.libraryPath.map { ", \($0)" } ?? ""
            return printed("creative-tool \(version) (libvips \(VipsRuntime.version)\(library))\n", command: nil)
        }
        guard let command = subcommands.first(where: { $0.name == first }) else { return unknownCommand(first) }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            return printed(command.usage + "\n", command: command.name)
        }
        let (options, flags, repeatable, mistaken) = (command.options, command.flags, command.repeatable, command.mistaken)
        do {
            let parsed = try ParsedArguments(rest, options: options, flags: flags, repeatable: repeatable, mistaken: mistaken,
                                             short: command.short)
            try UsageHints.checkSplitValues(parsed)
            return try command.run(parsed)
        } catch {
            switch error {
            case .usage(let message):
                // What is wrong and where to read on: the error must not scroll away under the help.
                Streams.errEscaped("creative-tool \(command.name): \(message)")
                Streams.errLine("see 'creative-tool \(command.name) --help'")
            case .failed(let code, let message):
                Streams.errEscaped("creative-tool \(command.name): \(code): \(message)")
            }
            return error.exitCode
        }
    }

    /// `help COMMAND`: that command's help.
    private static func help(_ topic: String) -> Int32 {
        guard let command = subcommands.first(where: { $0.name == topic }) else { return unknownCommand(topic) }
        return printed(command.usage + "\n", command: command.name)
    }

    /// `help --format markdown|man|bash|zsh`: the reference of every command (``CommandReference``).
    private static func reference(_ rest: [String]) -> Int32 {
        let names = CommandReference.Format.allCases.map(\.rawValue).joined(separator: ", ")
        guard rest.count == 1, let format = CommandReference.Format(rawValue: rest[0]) else {
            let formats = CommandReference.Format.allCases.map(\.rawValue)
            let meant = rest.first.flatMap { UsageHints.nearest($0, in: formats, also: ["md": "markdown", "roff": "man"]) }
            Streams.errEscaped("creative-tool help: --format takes one of \(names)"
                               + (meant.map { "; did you mean '\($0)'?" } ?? ""))
            return ExitCode.usage
        }
        return printed(CommandReference.text(format), command: "help")
    }

    /// A word that is no command: the nearest command, and where the list is.
    private static func unknownCommand(_ word: String) -> Int32 {
        let names = subcommands.map { $0.name }
        let known = word.hasPrefix("-") ? ["--help", "--version"] : names
        let meant = KeySuggestion.nearest(to: word, in: known).map { "; did you mean '\($0)'?" } ?? ""
        Streams.errEscaped("creative-tool: unknown command '\(TextFormat.clipped(word))'\(meant)")
        Streams.errLine("see 'creative-tool --help' (commands: \(names.joined(separator: ", ")))")
        return ExitCode.usage
    }

    /// Prints help or version text: exit 0, or 1 with a message when standard output refuses it.
    private static func printed(_ text: String, command: String?) -> Int32 {
        do {
            try Streams.out(text)
            return ExitCode.success
        } catch {
            if case .failed(let code, let message) = error {
                Streams.errEscaped("creative-tool\(command.map { " " + $0 } ?? ""): \(code): \(message)")
            }
            return error.exitCode
        }
    }

    /// The arguments after the program name, each as its exact bytes (``PathBytes``): a file
    /// name that is not UTF-8 still opens the file it names.
    public static func arguments() -> [String] {
        (1..<Int(CommandLine.argc)).compactMap { index in
            CommandLine.unsafeArgv[index].map { PathBytes.string(cString: $0) }
        }
    }

    static var overview: String {
        var rows: [(String, String)] = []
        for command in subcommands { rows.append((command.name, command.summary)) }
        let width = rows.reduce(0) { max($0, $1.0.count) }
        let lines = rows.map { name, summary in
            "  " + name + String(repeating: " ", count: width - name.count + 2) + summary
        }
        return """
        usage: creative-tool <command> [options]   (creative-tool help <command> for details)

        commands:
        \(lines.joined(separator: "\n"))

        exit codes: \(ExitCode.overview)
        reference: creative-tool help --format markdown|man|bash|zsh (every command's options; man page; completion)
        """
    }
}
