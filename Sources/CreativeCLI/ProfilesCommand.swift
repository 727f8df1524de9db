import CreativeCore

/// `creative-tool profiles`: the platform profiles built into the tool (``PlatformProfiles``),
/// with every rule, its source and when it was read.
enum ProfilesCommand: DeclaredCommand {
    static let name = "profiles"
    static let summary = "list the platform profiles (Google Ads, IAB LEAN, ...): their rules, sources and read dates"
    static let json = CommonOptions.json.with(help: "one JSON document (schemas/profiles.schema.json) instead of the table")
    static let declared = [json]
    static let help = CommandHelp(
        synopsis: ["[--json]"],
        notes: ["validate --profile and guidance --profile apply these rules; network is the default (docs/profiles.md)."],
        examples: ["--json"])

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard arguments.positionals.isEmpty else { throw .usage("unexpected argument '\(arguments.positionals[0])'") }
        if arguments.flag(json.flag) {
            try Streams.outLine(PlatformProfile.listJSON(PlatformProfiles.all).serialized())
        } else {
            try Streams.out(table(PlatformProfiles.all))
        }
        return ExitCode.success
    }

    /// Each profile: its name and title, then one row per rule (what it says, the source's note,
    /// the source and its read date), wrapped at 100 columns.
    static func table(_ profiles: [PlatformProfile]) -> String {
        let width = profiles.flatMap(\.rules).map(\.kind.name.count).max() ?? 0
        let indent = String(repeating: " ", count: width + 4)
        var lines: [String] = []
        for profile in profiles {
            lines.append("\(profile.name): \(profile.title)\(profile.isDefault ? " [default]" : "")")
            for rule in profile.rules {
                let label = "  " + rule.kind.name + String(repeating: " ", count: width + 2 - rule.kind.name.count)
                let texts = [rule.summary] + (rule.note.map { [$0] } ?? []) + ["\(rule.source) (read \(rule.read))"]
                for (index, text) in texts.enumerated() {
                    for (row, wrapped) in TextFormat.wrap(text, columns: 100 - indent.count).enumerated() {
                        lines.append((index == 0 && row == 0 ? label : indent) + wrapped)
                    }
                }
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }
}
