import CreativeCore

/// `creative-tool serve` (being written).
enum ServeCommand: Subcommand {
    static let name = "serve"
    static let summary = "(not yet available)"
    static let usage = "usage: creative-tool serve"
    static let options: Set<String> = []
    static let flags: Set<String> = []

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        throw .failed(code: "not_available", message: "serve is not available yet")
    }
}
