import CreativeCore
import CreativeImaging

/// `creative-tool guidance`: sizing guidance for advertisers, from the one catalog and device
/// table; options and rules are ``GuidanceRequest``'s.
enum GuidanceCommand: DeclaredCommand {
    static let name = "guidance"
    static let summary = "sizing guidance for advertisers (json, markdown or html)"
    static let declared = GuidanceRequest.options.on(.commandLine)
    static let help = CommandHelp(
        synopsis: ["[--format json|markdown|html] [--product P] [--brand T] [--headline T] [--cta T] [--colors T]",
                   "--profile P [--format json|markdown|html] [--product P]"],
        notes: ["The texts fill the html page's prompts as `prompt` does; left out, they show as [brand], [headline],",
                "[call to action] and [colours].",
                "--profile: one platform's sizes with their weights, its rules and their sources (no prompts)."],
        examples: ["--format markdown", "--product interstitial --format html --brand Acme > guidance.html",
                   "--profile google-ads --format markdown"])

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard arguments.positionals.isEmpty else { throw .usage("unexpected argument '\(arguments.positionals[0])'") }
        let request = try CLIError.reading { () throws(CoreError) in try GuidanceRequest(arguments) }
        let prompts: [RenderedPrompt]
        do { prompts = try request.prompts() } catch { throw .failed(code: "template_error", message: error.description) }
        try Streams.out(Guidance(product: request.product).render(request.format, prompts: prompts, profile: request.profile))
        return ExitCode.success
    }
}
