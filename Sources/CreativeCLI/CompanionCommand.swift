import CreativeCore

/// `creative-tool companion lint`: checks a companion creative's trafficking parameters (or
/// takeover metadata) by the player SDK's rules, before the ad reaches a device.
enum CompanionCommand: DeclaredCommand {
    static let name = "companion"
    static let summary = "lint companion trafficking parameters (carousel, custom CTA) or takeover metadata"
    static let file = OptionDeclaration(
        "file", .text(maxLength: 4096), placeholder: "F", help: "read the parameters from a file ('-' is standard input)",
        surfaces: .commandLine)
    static let json = CommonOptions.json.with(help: "print the JSON report on standard output")
    static let declared = CompanionLintRequest.options.on(.commandLine) + [file, json]
    static let actions = ["lint"]
    static let help = CommandHelp(
        synopsis: ["lint [TEXT | - | --file F] [--takeover] [--json]"],
        operands: [("TEXT", "the parameters, comma-separated key=value (quote them for the shell; put -- before a "
                    + "TEXT that starts with '-')"), ("-", "read them from standard input")],
        notes: ["At most \(TraffickingInput.maxBytes) bytes; one line break at the end is ignored."],
        examples: ["lint 'ad_type=carousel,carousel_banner=https://cdn.example/banner.png,brand_icon=https://cdn.example/icon.png,"
                   + "carousel_title=Spring,carousel_description=,carousel_images=https://cdn.example/a.png$https://cdn.example/b.png'",
                   "lint --takeover --file takeover.txt --json"],
        exitCodes: "0 valid, 1 rejected, 64 usage error")

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard let action = arguments.positionals.first else { throw .usage("missing action: companion lint") }
        guard action == "lint" else { throw .usage("unknown action '\(action)'; the action is lint") }
        let rest = arguments.positionals.dropFirst()
        let file = arguments.value(file.flag)
        guard rest.count + (file == nil ? 0 : 1) == 1 else {
            throw .usage(rest.count > 1 ? "give the parameters as one argument (quote them)"
                         : "give the parameters: TEXT, '-' (standard input) or --file F")
        }
        let kind = try CLIError.reading { () throws(CoreError) in try CompanionLintRequest(arguments) }.kind
        let report: CompanionLintReport
        if let path = file ?? (rest.first == "-" ? "-" : nil) {
            report = try lintFile(path, kind: kind)
        } else {
            report = CompanionLint.lint(PathBytes.bytes(rest.first ?? ""), kind: kind)
        }
        if arguments.flag(json.flag) {
            try Streams.outJSON(report.json)
        } else {
            for line in humanLines(report) { try Streams.outEscaped(line) }
        }
        return report.valid ? ExitCode.success : ExitCode.failure
    }

    /// The report of a file's (or standard input's) text; a file over the limit is reported as
    /// `input_too_large` without being read, one that cannot be read is a failure.
    private static func lintFile(_ path: String, kind: CompanionLint.Kind) throws(CLIError) -> CompanionLintReport {
        do {
            return CompanionLint.lint(try FileIO.read(path, limit: TraffickingInput.maxBytes), kind: kind)
        } catch {
            if case .tooLarge(let size, _) = error { return CompanionLint.rejected(.tooLarge(bytes: size)) }
            throw Inputs.failure(error, path: path, maxBytes: TraffickingInput.maxBytes)
        }
    }

    /// The verdict, each problem on its line, then the normalised fields. The caller escapes each
    /// line (``Streams/outEscaped(_:)``).
    static func humanLines(_ report: CompanionLintReport) -> [String] {
        var lines = ["\(report.valid ? "valid" : "REJECTED"): \(report.format ?? "unknown format")"]
        for (kind, issues) in [("error", report.listedErrors), ("warning", report.listedWarnings)] {
            for issue in issues {
                let place = [issue.key, issue.index.map { "entry \($0)" }, issue.segment.map { "segment \($0)" }]
                    .compactMap { $0 }.joined(separator: ", ")
                lines.append("  \(kind) \(issue.code.rawValue)\(place.isEmpty ? "" : " (\(place))"): \(issue.message)")
            }
        }
        if !report.fields.isEmpty { lines.append("fields:") }
        for (name, value) in report.fields {
            switch value {
            case .array(let items):
                for (offset, item) in items.enumerated() {
                    if case .string(let text) = item { lines.append("  \(name)[\(offset + 1)] = \(text)") }
                }
            case .string(let text): lines.append("  \(name) = \(text)")
            default: lines.append("  \(name) = \(value.serialized())")
            }
        }
        return lines
    }
}
