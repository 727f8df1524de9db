import CreativeCore
import CreativeImaging

/// `creative-tool guidance`: sizing guidance for advertisers, from the one catalog and device table.
enum GuidanceCommand: Subcommand {
    static let name = "guidance"
    static let summary = "sizing guidance for advertisers (json, markdown or html)"
    static let usage = """
    usage: creative-tool guidance [--format json|markdown|html] [--product \(Product.names)]
                                  [--brand T] [--headline T] [--cta T] [--colors T]
      --format   json (default, for the dashboard backend), markdown, or html (one self-contained
                 page that ends with the AI prompt of every accepted size, each with a Copy button)
      --product  banner (default), interstitial (sizes with safe area and close zone, every screen)
                 or companion (sizes, the standard slot of every device and what it shows)
      --brand T, --headline T, --cta T, --colors T
                 fill the html page's prompts as `prompt` does; left out, they show as [brand],
                 [headline], [call to action] and [colours]
    """
    static let options: Set<String> = ["--format", "--product", "--brand", "--headline", "--cta", "--colors"]
    static let flags: Set<String> = []

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard arguments.positionals.isEmpty else { throw .usage("unexpected argument '\(arguments.positionals[0])'") }
        let format = try arguments.choice("--format", GuidanceFormat.self) ?? .json
        let product = try Inputs.product(arguments)
        let texts = ["--brand", "--headline", "--cta", "--colors"]
        if format != .html, let given = texts.first(where: { arguments.value($0) != nil }) {
            throw .usage("\(given) fills the prompts of --format html")
        }
        var prompts: [RenderedPrompt] = []
        if format == .html {
            do {
                prompts = try BannerPrompts.guidance(product: product, brand: arguments.value("--brand"),
                                                     headline: arguments.value("--headline"),
                                                     cta: arguments.value("--cta"), colors: arguments.value("--colors"))
            } catch {
                throw .failed(code: "template_error", message: error.description)
            }
        }
        try Streams.out(Guidance(product: product).render(format, prompts: prompts))
        return ExitCode.success
    }
}
