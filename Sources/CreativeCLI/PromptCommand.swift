import CreativeCore
import CreativeImaging

/// `creative-tool prompt`: the copyable AI image-generator prompt for banner artwork, from the
/// template embedded from `Prompts/banner.txt` and the numbers of the one catalog and device plan.
enum PromptCommand: DeclaredCommand {
    static let name = "prompt"
    static let summary = "the copyable AI image-generator prompt for banner artwork"
    static let declared = PromptRequest.options.on(.commandLine) + [CommonOptions.json.with(
        help: "one JSON document per prompt per line (schemas/prompt.schema.json): product, artwork_pixels, "
            + "aspect_ratio, safe_area_pixels, min_text_height_pixels, prompt (interstitials: close_zone_pixels "
            + "before prompt)")]
    static let help = CommandHelp(
        synopsis: ["[--size WxH] [--product P] [--brand T] [--headline T] [--cta T] [--colors T] [--json]"],
        notes: ["Text is inserted exactly as given. Without --headline and --cta the prompt asks for no text at all.",
                "Interstitial prompts also keep the close button's corner clear, in exact pixels."]
            // Each product's sizes; the default product's are the plain "accepted sizes".
            + Product.allCases.map { "\($0.isDefault ? "accepted" : $0.rawValue) sizes: \(sizesText($0.sizes))" },
        examples: ["--size 960x150 --brand Acme --headline \"Summer sale\" --cta \"Shop now\"",
                   "--product interstitial --json"])

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard arguments.positionals.isEmpty else { throw .usage("unexpected argument '\(arguments.positionals[0])'") }
        let request = try CLIError.reading { () throws(CoreError) in try PromptRequest(arguments) }
        let prompts: [RenderedPrompt]
        do {
            prompts = try request.prompts()
        } catch {
            switch error {
            case .templateError(let message):
                throw .failed(code: "template_error", message: message)
            default:
                throw .usage("--size: \(error)")
            }
        }
        if arguments.flag("--json") {
            for prompt in prompts { try Streams.outJSON(prompt.json) }
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
