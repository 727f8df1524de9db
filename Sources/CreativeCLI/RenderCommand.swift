import CreativeCore
import CreativeImaging
import CreativeOperations
#if canImport(Glibc)
import Glibc
#endif

/// `creative-tool render`: aspect-fit, letterboxed render of a creative into a slot. The
/// options and their rules are ``RenderRequest``'s, the render ``RenderOperation``'s; this reads
/// the files, runs the operation, writes the file and says what it wrote.
enum RenderCommand: DeclaredCommand {
    static let name = "render"
    static let summary = "render a creative (or the test artwork) aspect-fit into a slot"
    static let cost = OptionDeclaration(
        "cost", .toggle, help: "print what the job would be charged (JSON: peak memory, decode and output parts, "
            + "sample bytes decoded, the limits) and render nothing", defaultValue: "false", surfaces: .commandLine)
    static let maxBytes = JobLimitOptions.maxBytes(default: Inputs.defaultRenderMaxBytes)
    static let json = CommonOptions.json.with(help: "print what was written as one JSON object instead of the line")
    static let declared = RenderRequest.options.on(.commandLine)
        + [JobLimitOptions.output, json, cost, JobLimitOptions.verbose, JobLimitOptions.quiet, maxBytes.declaration,
           JobLimitOptions.maxPixels.declaration]
        + JobLimitOptions.declared
    static let help = CommandHelp(
        synopsis: ["[FILE...] --slot WxH[@Nx] [options]", "[FILE...] --device NAME [--orientation O] [--product P] [options]"],
        operands: [("FILE", "PNG, JPEG, GIF, WebP or an HTML5 bundle; '-' reads standard input. With several files the "
                    + "product's selection rule picks one (a note names it and why); with none, the built-in test artwork")],
        examples: ["banner.png --slot 390x61@3x --output banner-390x61@3x.png",
                   "banner.png --device \"iPhone 15\" --output banner.jpg --quality 80",
                   "takeover.png --product interstitial --device \"iPad Air\" --orientation landscape --json"],
        exitCodes: "0 rendered, 1 the creative could not be read or rendered (its code on standard error), 64 usage error")

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        var timer = StageTimer(command: name, enabled: arguments.flag(JobLimitOptions.verbose.flag))
        let (request, output) = try CLIError.reading { () throws(CoreError) in try read(arguments) }
        let wantsJSON = arguments.flag(json.flag)
        if wantsJSON, output == "-" { throw .usage("--json and --output - both write standard output; name a file") }
        // No FILE: standard input when it is not a terminal (`cat banner.png | creative-tool render ...`).
        let files = arguments.positionals
        let (readLimit, maxPixels) = try CLIError.reading { () throws(CoreError) in
            (try arguments.bytes(maxBytes) ?? Inputs.defaultRenderMaxBytes,
             try arguments.int(JobLimitOptions.maxPixels) ?? Catalog.defaultMaxPixels)
        }
        let limits = try JobLimitOptions.read(arguments)
        let inputs = files.isEmpty ? ["-"] : files
        if let output {
            try OutputFile.refuseTerminal(output)
            try OutputFile.refuseInput(output, inputs: inputs)
        }
        let picked = try RenderSources.pick(files, request: request, maxBytes: readLimit, maxPixels: maxPixels)
        let operation: RenderOperation
        do throws(OperationError) {
            operation = try RenderOperation(request, input: picked.map { .opened($0.source) } ?? .none)
        } catch {
            throw .operation(error)
        }
        let artwork: RenderOperation.Artwork
        do throws(ImagingError) { artwork = try operation.open().get() } catch { throw .imaging(error) }
        let source = artwork.source
        let stem = picked?.stem ?? "test-artwork-\(source.displayedSize)"
        timer.stage("open")
        if arguments.flag(cost.flag) {
            try Streams.outJSON(operation.cost(artwork, memoryBudget: limits.memoryBudget).json(limits: limits))
            return ExitCode.success
        }
        let quiet = arguments.flag(JobLimitOptions.quiet.flag)
        for note in notes(picked, source: source, artwork.notes) where !quiet {
            Streams.errEscaped("creative-tool render: note: \(note)")
        }
        if timer.enabled {
            // Before the long stage, so a render of minutes does not look stuck.
            Streams.errLine("creative-tool render: rendering \(request.settings.canvas) px (\(request.settings.format.rawValue))")
        }
        let rendered: RenderOperation.Rendered
        switch operation.run(.success(artwork), limits: limits) {
        case .success(let done): rendered = done
        case .failure(let failure):
            if case .overWeightBudget? = failure.imagingError, let profile = request.weightBudget.profile, !quiet {
                Streams.errEscaped("creative-tool render: note: the weight budget of \(request.weightBudget.bytes) bytes is "
                                   + "\(profile)'s weight for \(request.settings.canvas) (--profile); --weight-budget only lowers it")
            }
            throw .operation(failure, file: stem)
        }
        let encoded = rendered.encoded
        timer.stage("render")
        let path = OutputFile.path(output, defaultStem: request.defaultStem(stem), format: encoded.format)
        // Again just before writing: a default name, or a name that came to be an input meanwhile.
        try OutputFile.refuseInput(path, inputs: inputs)
        try OutputFile.makeParentFolders(of: path)
        let toStandardOutput = try Inputs.write(encoded.bytes, to: path)
        timer.stage("write")
        timer.finish()
        let placement = rendered.placement
        if wantsJSON {
            try Streams.outJSON(RenderAnswer.json(request, input: picked?.path, rendered: rendered, path: path))
        } else if !toStandardOutput, !quiet {
            try Streams.outEscaped("wrote \(path): \(request.settings.canvas) px (\(request.targetDescription)), "
                + "\(rendered.artwork) artwork shown at \(placement.content) from (\(placement.x),\(placement.y)), "
                + "\(encoded.bytes.count) bytes, \(encoded.detail)")
        }
        return ExitCode.success
    }

    /// The render asked for and the file it is written to: `--output o.jpg[Q=60]` is `o.jpg`,
    /// its brackets read as the flags they stand for (``OutputName``); a folder's name is where
    /// the default name goes.
    private static func read(_ arguments: ParsedArguments) throws(CoreError) -> (RenderRequest, String?) {
        guard let given = try arguments.text(JobLimitOptions.output) else { return (try RenderRequest(arguments), nil) }
        let name = try OutputName(parsing: given)
        let options = name.options(over: arguments)
        try options.checkAgreement(RenderRequest.options.options)
        // A folder names no format: the render goes inside it under its default name (OutputFile.path).
        let folder = OutputFile.isFolder(name.path)
        return (try RenderRequest(options, outputName: folder ? nil : name.path), name.path)
    }

    /// What standard error says before the render: the test artwork stands in, the file picked
    /// among several and why, and the operation's notes on a size that `validate` would reject.
    private static func notes(_ picked: RenderSources.Picked?, source: ImageSource, _ rejections: [String]) -> [String] {
        var notes: [String] = []
        if picked == nil {
            let piped = isatty(0) == 1 ? "" : "; standard input gave no bytes"
            notes.append("no FILE given: rendering the built-in test artwork (\(source.displayedSize))\(piped)")
        }
        if let choice = picked?.choice { notes.append(choice) }
        return notes + rejections
    }

    /// A file name without folders and extension (`render` for standard input).
    static func stem(of path: String) -> String {
        if path == "-" { return "render" }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}

/// `render --json`: what was written, one object.
enum RenderAnswer {
    /// The notes in one string (`; ` between), null for none.
    static func note(_ notes: [String]) -> JSONValue { notes.isEmpty ? .null : .string(notes.joined(separator: "; ")) }

    /// `input`: the file read (`-` for standard input), nil for the test artwork.
    static func json(_ request: RenderRequest, input: String?, rendered: RenderOperation.Rendered, path: String) -> JSONValue {
        .object([
            ("file", .string(path)),
            ("input", input.map(JSONValue.string) ?? .null),
            ("product", .string(request.product.rawValue)),
            ("target", .string(request.targetDescription)),
            ("canvas_pixels", request.settings.canvas.json),
            ("artwork_pixels", rendered.artwork.json),
            ("content_pixels", rendered.placement.content.json),
            ("content_position_pixels", JSONContract.position(x: rendered.placement.x, y: rendered.placement.y)),
            ("format", .string(rendered.encoded.format.rawValue)),
            ("file_bytes", .int(rendered.encoded.bytes.count)),
            ("encoding", .string(rendered.encoded.detail)),
        ] + request.weightBudget.jsonFields + [
            ("note", Self.note(rendered.notes)),
            ("warnings", .array(UpscaledRender(artwork: rendered.artwork, shown: rendered.placement.content).map { [$0.json] } ?? [])),
        ])
    }
}
