import CreativeCore

/// The man page `creative-tool.1` (roff, man macros): the commands, their options, examples and
/// exit codes, from the same declarations as `--help`.
enum ReferenceManPage {
    /// The date of the manual's version (``BuildInfo/version``); it moves with the version.
    static let date = "2026-12-01"

    static func document() -> String {
        var lines = [
            ".\\\" Written by 'creative-tool help --format man'; do not edit: scripts/generate-docs.sh rewrites it.",
            ".TH CREATIVE\\-TOOL 1 \(date) \"creative-tool \(BuildInfo.version)\" \"User Commands\"",
            ".SH NAME",
            "creative\\-tool \\- check, render and size ad creatives and serve them over HTTP",
            ".SH SYNOPSIS",
            ".B creative\\-tool",
            ".I command",
            "[\\fIoptions\\fR]",
            ".br",
            ".B creative\\-tool",
            "\\fIcommand\\fR \\fB\\-\\-help\\fR | \\fBhelp\\fR \\fIcommand\\fR | \\fB\\-\\-version\\fR",
            ".SH DESCRIPTION",
            text("The image worker of an ad network: it checks uploaded creatives, renders them aspect-fit "
                 + "(letterboxed, never stretched or cropped) into slots, writes the public test artwork, gives "
                 + "sizing guidance and an AI banner prompt, and serves the same operations over HTTP."),
            ".PP",
            text("Errors are one line with a stable code on standard error; what a command answers (validate's "
                 + "report, --json, a render to '-') goes to standard output. Sizes take K, M, G (powers of 1024), "
                 + "durations ms, s, m. An option marked 'query' is the same parameter of the command's HTTP route."),
            ".SH COMMANDS",
        ]
        for command in CommandLineTool.subcommands { lines += section(command) }
        lines += [
            ".SH EXIT STATUS",
        ]
        for (code, meaning) in ExitCode.table { lines += [".TP", "\(code)", text(meaning)] }
        lines += [
            ".SH ENVIRONMENT",
            ".TP", ".B CREATIVE_PORT", text("serve's port when --port is not given"),
            ".TP", ".B CREATIVE_ADMIN_PORT", text("serve's admin port (health, metrics) when --admin-port is not given"),
            ".TP", ".B AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN",
            text("worker and enqueue: the store's credentials; without them the profile of the shared credentials file"),
            ".TP", ".B AWS_PROFILE, AWS_SHARED_CREDENTIALS_FILE, AWS_CONFIG_FILE",
            text("the profile (default 'default') and the files read for it (default ~/.aws/credentials, ~/.aws/config)"),
            ".TP", ".B AWS_REGION, AWS_DEFAULT_REGION",
            text("the store's region, else the profile's region, else us-east-1"),
            ".SH SEE ALSO",
            text("docs/commands.md (this reference), docs/reference.md (the manual) and openapi.yaml (the HTTP "
                 + "contract) in the source repository."),
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func section(_ command: any DeclaredCommand.Type) -> [String] {
        let help = command.help
        var lines = [".SS \(command.name)", text(command.summary), ".PP", ".nf"]
        lines += help.synopsis.map { verbatim("creative-tool \(command.name) \($0)") }
        lines.append(".fi")
        for (name, meaning) in help.operands { lines += [".TP", ".I \(name)", text(meaning)] }
        for option in command.declared {
            let tag = "\\fB" + escaped(option.flag) + "\\fR" + (option.placeholder.isEmpty ? "" : " \\fI" + escaped(option.placeholder) + "\\fR")
            lines += [".TP", tag, text(option.help + "."), text(details(option))]
        }
        let notes = CommandReference.notes(help)
        if !notes.isEmpty { lines += [".PP"] + Array(notes.map { [text($0)] }.joined(separator: [".br"])) }
        lines += [".PP", "Examples:", ".RS", ".nf"]
        lines += help.examples.map { verbatim("creative-tool \(command.name) \($0)") }
        lines += [".fi", ".RE", ".PP", text("Exit codes: \(help.exitCodeText).")]
        return lines
    }

    /// `(integer, 1 to 100; default 85; query quality)`.
    private static func details(_ option: OptionDeclaration) -> String {
        var parts = [CommandReference.kind(option)]
        let range = CommandReference.range(option)
        if !range.isEmpty { parts[0] += " " + range }
        let unit = CommandReference.unit(option)
        if !unit.isEmpty { parts.append(unit) }
        let fallback = CommandReference.defaultValue(option)
        if !fallback.isEmpty { parts.append("default " + fallback) }
        if !option.products.isEmpty { parts.append("for " + CommandReference.products(option)) }
        if option.surfaces.contains(.query) { parts.append("query " + option.name) }
        if option.repeatable { parts.append("may be given more than once") }
        return "(" + parts.joined(separator: "; ") + ")"
    }

    /// Text: backslashes and dashes escaped, wrapped at 78 columns of source (roff fills it
    /// again), a line's leading `.` or `'` kept as text.
    private static func text(_ line: String) -> String {
        TextFormat.wrap(escaped(line), columns: 78).map { $0.first == "." || $0.first == "'" ? "\\&" + $0 : $0 }.joined(separator: "\n")
    }

    /// A line of a no-fill block, kept as one line.
    private static func verbatim(_ line: String) -> String {
        let body = escaped(line)
        return body.first == "." || body.first == "'" ? "\\&" + body : body
    }

    private static func escaped(_ line: String) -> String {
        TextFormat.replacing(line, ["\\": "\\e", "-": "\\-"])
    }
}
