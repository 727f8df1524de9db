import CreativeCore
import CreativeImaging

/// `creative-tool select`: which candidate the ad server serves for a request.
enum SelectCommand: DeclaredCommand {
    static let name = "select"
    static let summary = "pick the creative the ad server serves for a slot"
    static let declared = SelectRequest.options.on(.commandLine) + [JobLimitOptions.maxPixels.declaration, CommonOptions.json]
    static let help = CommandHelp(
        synopsis: ["--width PX [--height PX] [--mode M] [--product P] CANDIDATE... [--json]",
                   "--width PT [--height PT] --scale N CANDIDATE... [--json]"],
        operands: [("CANDIDATE", "an image file (its size from the header) or a size WxH in pixels")],
        examples: ["--width 1170 --height 183 960x150 1320x204 2184x270",
                   "--width 390 --height 61 --scale 3 banner-960.png banner-1320.png",
                   "--product companion --width 960 --height 150 --mode standard_slot 640x100 960x150"],
        exitCodes: "0 a candidate was picked, 1 none is eligible (no_eligible_creative) or a file failed, 64 usage error")

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let request = try CLIError.reading { () throws(CoreError) in try SelectRequest(arguments) }
        guard !arguments.positionals.isEmpty else { throw .usage("give at least one CANDIDATE (a file or WxH)") }
        let maxPixels = try CLIError.reading { () throws(CoreError) in
            try arguments.int(JobLimitOptions.maxPixels) ?? Catalog.defaultMaxPixels
        }
        var sizes: [PixelSize] = []
        for candidate in arguments.positionals {
            sizes.append(try size(of: candidate, maxPixels: maxPixels))
        }
        let hint = request.hint(for: sizes, widthSpelling: SelectRequest.width.flag, scaleSpelling: SelectRequest.scale.flag)
        let result: SelectionResult
        do {
            result = try request.select(sizes)
        } catch {
            throw .failed(code: "no_eligible_creative", message: error.description + (hint.map { " (\($0))" } ?? ""))
        }
        let names = arguments.positionals
        if arguments.flag(CommonOptions.json.flag) {
            try Streams.outJSON(SizingJSON.selection(result, names: names))
            return ExitCode.success
        }
        let mode = request.mode
        let asked = request.height.map { "\(request.width)x\($0) px" } ?? "\(request.width) px wide"
        try Streams.outEscaped("\(mode.rawValue) request \(asked): serves \(names[result.winner]) (\(sizes[result.winner]))")
        for (rank, ranked) in result.ranking.enumerated() {
            let score = ranked.eligible ? scoreText(ranked.score, mode: mode) : "excluded"
            let note = ranked.note.map { " (\($0))" } ?? ""
            try Streams.outEscaped("  \(rank + 1). \(names[ranked.index]) \(ranked.size): \(score)\(note)")
        }
        if let hint { Streams.errEscaped("creative-tool select: note: \(hint)") }
        return ExitCode.success
    }

    private static func scoreText(_ score: Double, mode: SelectionMode) -> String {
        switch mode {
        case .anchored, .fullScreen, .standardSlot: "aspect distance \(JSONValue.double(score).serialized())"
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
