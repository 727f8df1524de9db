import CreativeCore

/// `creative-tool process` (being written).
enum ProcessCommand: Subcommand {
    static let name = "process"
    static let summary = "(not yet available)"
    static let usage = "usage: creative-tool process"
    static let options: Set<String> = []
    static let flags: Set<String> = []

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        throw .failed(code: "not_available", message: "process is not available yet")
    }
}
