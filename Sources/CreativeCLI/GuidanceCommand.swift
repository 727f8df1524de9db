import CreativeCore

/// `creative-tool guidance`: sizing guidance for advertisers, from the one catalog and device table.
enum GuidanceCommand: Subcommand {
    static let name = "guidance"
    static let summary = "sizing guidance for advertisers (json, markdown or html)"
    static let usage = """
    usage: creative-tool guidance [--format json|markdown|html] [--product \(Product.names)]
      --format   json (default, for the dashboard backend), markdown, or html (one self-contained page)
      --product  banner (default), interstitial (sizes with safe area and close zone, every screen)
                 or companion (sizes, the standard slot of every device and what it shows)
    """
    static let options: Set<String> = ["--format", "--product"]
    static let flags: Set<String> = []

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard arguments.positionals.isEmpty else { throw .usage("unexpected argument '\(arguments.positionals[0])'") }
        let format = try arguments.choice("--format", GuidanceFormat.self) ?? .json
        try Streams.out(Guidance(product: try Inputs.product(arguments)).render(format))
        return ExitCode.success
    }
}
