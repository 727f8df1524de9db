import CreativeCore
import CreativeImaging

/// `creative-tool prompt`: the copyable AI image-generator prompt for banner artwork, from the
/// template embedded from `Prompts/banner.txt` and the numbers of the one catalog and device plan.
enum PromptCommand: Subcommand {
    static let name = "prompt"
    static let summary = "the copyable AI image-generator prompt for banner artwork"
    static let usage = """
    usage: creative-tool prompt [--size WxH] [--brand T] [--headline T] [--cta T] [--colors T] [--json]
                                [--product \(Product.names)]
      --size WxH     an accepted size (default: one prompt per Retina size: \(sizesText(Catalog.adaptiveSizes));
                     interstitials: one per interstitial size)
      --product      banner (default), companion (one prompt per recommended companion size)
                     or interstitial (the prompt also keeps the close button's
                     corner clear, in exact pixels)
      --brand T      the advertiser's name (the prompt leaves room for the logo; it never draws it)
      --headline T   the headline, to appear verbatim
      --cta T        the call to action, to appear verbatim on a button
      --colors T     the palette, in words or hex (for example "navy #0b3d91 and white")
      --json         one JSON object per prompt per line: size, width, height, aspect,
                     safe_area {x, y, width, height}, min_text_px, prompt (interstitials:
                     close_zone {x, y, width, height} before prompt)
    Text is inserted exactly as given. Without --headline and --cta the prompt asks for no text at all.
    accepted sizes: \(sizesText(Catalog.entries.map(\.size)))
    interstitial sizes: \(sizesText(Product.interstitial.sizes))
    companion sizes: \(sizesText(Product.companion.sizes))
    """
    static let options: Set<String> = ["--size", "--brand", "--headline", "--cta", "--colors", "--product"]
    static let flags: Set<String> = ["--json"]

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard arguments.positionals.isEmpty else { throw .usage("unexpected argument '\(arguments.positionals[0])'") }
        let size = try arguments.size("--size")
        let product = try Inputs.product(arguments)
        let prompts: [RenderedPrompt]
        do {
            prompts = try BannerPrompts.render(size: size, brand: arguments.value("--brand"),
                                               headline: arguments.value("--headline"),
                                               cta: arguments.value("--cta"), colors: arguments.value("--colors"),
                                               product: product)
        } catch {
            switch error {
            case .templateError(let message):
                throw .failed(code: "template_error", message: message)
            default:
                throw .usage("--size: \(error)")
            }
        }
        if arguments.flag("--json") {
            for prompt in prompts { try Streams.outLine(prompt.json.serialized()) }
        } else if prompts.count == 1 {
            try Streams.out(prompts[0].text + "\n")
        } else {
            try Streams.out(prompts.map { prompt in
                "== \(prompt.size) (\(prompt.facts.aspect)) ==\n\(prompt.text)\n"
            }.joined(separator: "\n"))
        }
        return ExitCode.success
    }

    private static func sizesText(_ sizes: [PixelSize]) -> String {
        sizes.map(\.description).joined(separator: ", ")
    }
}
