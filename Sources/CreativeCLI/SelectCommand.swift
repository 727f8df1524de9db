import CreativeCore
import CreativeImaging

/// `creative-tool select`: which candidate the ad server serves for a request.
enum SelectCommand: Subcommand {
    static let name = "select"
    static let summary = "pick the creative the ad server serves for a slot"
    static let usage = """
    usage: creative-tool select --width PX [--height PX] [--mode adaptive|inline|legacy|full_screen|standard_slot]
                                [--product \(Product.names)] CANDIDATE... [--json]
      --width PX    screen (slot) width in pixels
      --height PX   banner height (adaptive) or max height (inline) in pixels; for
                    interstitials the safe area's height
      --mode        adaptive (default with --height), inline, or legacy (default without);
                    interstitials: full_screen (the only one); companions: standard_slot
      --product     banner (default), interstitial, or companion (mode standard_slot: the
                    closest aspect ratio, then the sharpest artwork that needs no upscaling)
      CANDIDATE     an image file or a size WxH
    """
    static let options: Set<String> = ["--width", "--height", "--mode", "--max-pixels", "--product"]
    static let flags: Set<String> = ["--json"]

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard let width = try arguments.int("--width", in: 1...100_000) else { throw .usage("--width PX is required") }
        let height = try arguments.int("--height", in: 1...100_000)
        let product = try Inputs.product(arguments)
        let modes = SelectionMode.modes(for: product)
        let mode = try arguments.choice("--mode", SelectionMode.self)
            ?? (modes.contains(.adaptive) ? (height == nil ? .legacy : .adaptive) : modes[0])
        guard modes.contains(mode) else {
            throw .usage("--mode for \(product) must be one of \(modes.map(\.rawValue).joined(separator: ", "))")
        }
        if mode != .legacy && height == nil { throw .usage("--mode \(mode.rawValue) needs --height PX") }
        guard !arguments.positionals.isEmpty else { throw .usage("give at least one CANDIDATE (a file or WxH)") }
        let maxPixels = try Inputs.maxPixels(arguments)
        var sizes: [PixelSize] = []
        for candidate in arguments.positionals {
            sizes.append(try size(of: candidate, maxPixels: maxPixels))
        }
        let result: SelectionResult
        do {
            result = try Selection.select(sizes, mode: mode, width: width, height: height, product: product)
        } catch {
            throw .failed(code: "no_eligible_creative", message: error.description)
        }
        let names = arguments.positionals
        if arguments.flag("--json") {
            try Streams.outLine(SizingJSON.selection(result, names: names).serialized())
        } else {
            let request = height.map { "\(width)x\($0) px" } ?? "\(width) px wide"
            try Streams.outEscaped("\(mode.rawValue) request \(request): serves \(names[result.winner]) (\(sizes[result.winner]))")
            for (rank, ranked) in result.ranking.enumerated() {
                let score = ranked.eligible ? scoreText(ranked.score, mode: mode) : "excluded"
                let note = ranked.note.map { " (\($0))" } ?? ""
                try Streams.outEscaped("  \(rank + 1). \(names[ranked.index]) \(ranked.size): \(score)\(note)")
            }
        }
        return ExitCode.success
    }

    private static func scoreText(_ score: Double, mode: SelectionMode) -> String {
        switch mode {
        case .adaptive, .fullScreen, .standardSlot: "aspect distance \(JSONValue.double(score).serialized())"
        case .inline: "shown area \(Int(score)) px"
        case .legacy: "width \(Int(score)) px"
        }
    }

    /// A `WxH` candidate, or the displayed size of an image file.
    private static func size(of candidate: String, maxPixels: Int) throws(CLIError) -> PixelSize {
        if let size = try? PixelSize(parsing: candidate) { return size }
        if candidate.contains("x"), candidate.allSatisfy({ $0.isNumber || $0 == "x" || $0 == "-" }) {
            do { return try PixelSize(parsing: candidate) } catch { throw .usage(error.description) }
        }
        if candidate == "-" {
            return try Inputs.openSource(candidate, maxBytes: Inputs.defaultRenderMaxBytes, maxPixels: maxPixels)
                .displayedSize
        }
        return try Inputs.headerSize(candidate, maxBytes: Inputs.defaultRenderMaxBytes, maxPixels: maxPixels)
    }
}
