import CreativeCore

/// `creative-tool guidance` (being written).
enum GuidanceCommand: Subcommand {
    static let name = "guidance"
    static let summary = "(not yet available)"
    static let usage = "usage: creative-tool guidance"
    static let options: Set<String> = []
    static let flags: Set<String> = []

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        throw .failed(code: "not_available", message: "guidance is not available yet")
    }
}
