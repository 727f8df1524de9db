import CreativeCore

/// `creative-tool prompt` (being written).
enum PromptCommand: Subcommand {
    static let name = "prompt"
    static let summary = "(not yet available)"
    static let usage = "usage: creative-tool prompt"
    static let options: Set<String> = []
    static let flags: Set<String> = []

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        throw .failed(code: "not_available", message: "prompt is not available yet")
    }
}
