import CreativeCore

/// `docs/commands.md`: every command with its usage, operands, options (kind, unit, range,
/// default, products, query name, help), notes, examples and exit codes.
enum ReferenceMarkdown {
    static func document() -> String {
        var lines = [
            "# Command reference",
            "",
            "<!-- Written by `creative-tool help --format markdown`; do not edit: scripts/generate-docs.sh rewrites it. -->",
            "",
            "Every command of `creative-tool`, written from the options each command declares (the same",
            "declarations give its `--help`, the man page [creative-tool.1](creative-tool.1) and the shell",
            "completions in [completions/](completions/)); `make test` fails when this page is stale.",
            "An option whose query column names a parameter is the same option of the command's HTTP route",
            "([openapi.yaml](../openapi.yaml)). Sizes take `K`, `M`, `G` (powers of 1024), durations `ms`, `s`, `m`.",
            "",
            "`creative-tool --version` names the tool and the libvips it loaded; `creative-tool help COMMAND`",
            "is `creative-tool COMMAND --help`.",
            "",
            "| command | what it does |",
            "|---|---|",
        ]
        for command in CommandLineTool.subcommands {
            lines.append("| [\(command.name)](#\(command.name)) | \(cell(command.summary)) |")
        }
        lines += ["", "## Exit codes", "", "The same for every command (each command's section says what 1 means for it):",
                  "", "| code | meaning |", "|---|---|"]
        lines += ExitCode.table.map { "| \($0.0) | \(cell($0.1)) |" }
        for command in CommandLineTool.subcommands { lines += section(command) }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func section(_ command: any DeclaredCommand.Type) -> [String] {
        let help = command.help
        var lines = ["", "## \(command.name)", "", capitalised(command.summary) + ".", "", "```sh"]
        lines += help.synopsis.map { "creative-tool \(command.name) \($0)" }
        lines.append("```")
        if !help.operands.isEmpty {
            lines += ["", "| operand | meaning |", "|---|---|"]
            lines += help.operands.map { "| `\($0.0)` | \(cell($0.1)) |" }
        }
        if !command.declared.isEmpty {
            lines += ["", "| option | kind | values | unit | default | products | query | meaning |",
                      "|---|---|---|---|---|---|---|---|"]
            lines += command.declared.map(row)
        }
        let notes = CommandReference.notes(help)
        // A backslash at the end of a line breaks it where --help does.
        if !notes.isEmpty {
            lines.append("")
            lines += notes.enumerated().map { index, note in escaped(note) + (index < notes.count - 1 ? "\\" : "") }
        }
        lines += ["", "Examples:", "", "```sh"]
        lines += help.examples.map { "creative-tool \(command.name) \($0)" }
        lines += ["```", "", "Exit codes: \(escaped(help.exitCodeText))."]
        return lines
    }

    private static func row(_ option: OptionDeclaration) -> String {
        let query = option.surfaces.contains(.query) ? "`\(option.name)`" : ""
        let cells = [code(CommandReference.spelling(option)), CommandReference.kind(option),
                     cell(CommandReference.range(option)), cell(CommandReference.unit(option)),
                     code(CommandReference.defaultValue(option)), CommandReference.products(option), query,
                     cell(option.help) + (option.repeatable ? " (may be given more than once)" : "")]
        return "| " + cells.joined(separator: " | ") + " |"
    }

    /// Text for a table cell: `|` escaped, `<` kept as text.
    private static func cell(_ text: String) -> String {
        escaped(text).replacing("|", with: "\\|")
    }

    private static func code(_ text: String) -> String {
        text.isEmpty ? "" : "`" + text.replacing("|", with: "\\|") + "`"
    }

    private static func escaped(_ text: String) -> String {
        text.replacing("<", with: "&lt;")
    }

    private static func capitalised(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}
