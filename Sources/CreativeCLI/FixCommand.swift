import CreativeCore
import CreativeImaging
import CreativeOperations

/// `creative-tool fix`: an upload-ready file from one that almost passes. The options and their rules
/// are ``FixRequest``'s, the work ``FixOperation``'s; this reads the file, writes the result and says each change.
enum FixCommand: DeclaredCommand {
    static let name = "fix"
    static let summary = "write an upload-ready file from one that almost passes (near-miss size, weight, colour, "
        + "animation, metadata)"
    static let output = JobLimitOptions.output.with(
        help: "the file to write (required); '-' for standard output. Its extension (.png, .jpg, .jpeg, .gif, .webp) "
            + "is the format written, converting the input (a --format that disagrees, or another ending, is a "
            + "usage error; no ending: the input's format where it fits the weight, else JPEG). Never one "
            + "of the inputs (output_is_input), also through a link; a regular file is replaced atomically")
    static let json = CommonOptions.json.with(help: "print what was written and every change as one JSON object")
    static let maxBytes = JobLimitOptions.maxBytes(default: Inputs.defaultRenderMaxBytes)
    static let declared = FixRequest.options.on(.commandLine) + [output, json, maxBytes.declaration, JobLimitOptions.maxPixels.declaration]
        + JobLimitOptions.declared
    static let help = CommandHelp(
        synopsis: ["FILE --output PATH [--size WxH] [--product P] [--frame N] [--format F] [--json]"],
        operands: [("FILE", "a PNG, JPEG, GIF or WebP that almost passes validate; '-' reads standard input")],
        notes: ["A near-miss size a few pixels off loses or gains lines where its edge repeats itself (else nearest",
                "pixels, else a resample): the edges stay crisp. A pre-flight warning the input has too (a white",
                "edge without a border, baked-in bars) is the artwork's: the file is written, the warning said, exit 2."],
        examples: ["banner-961x150.png --output banner-960x150.png",
                   "heavy-2184x270.png --output banner-2184x270.jpg",
                   "animated-728x90.gif --output still-728x90.png",
                   "cmyk-728x90.jpg --output banner-728x90.jpg --json",
                   "animated-728x90.gif --frame 1 --output still-728x90.gif"],
        exitCodes: "0 written (it validates with no warning), 1 refused (its code on standard error; nothing written), "
            + "2 written, but warnings of the artwork itself remain (each said, for the designer), "
            + "64 usage error (also a --frame the animation does not have)")

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard arguments.positionals.count == 1, let input = arguments.positionals.first else {
            throw .usage("give one FILE")
        }
        let (request, output) = try CLIError.reading { () throws(CoreError) in
            let output = try arguments.text(Self.output)
            return (try FixRequest(arguments, outputName: output), output)
        }
        guard let output else { throw .usage("give --output PATH: fix never replaces its input") }
        let wantsJSON = arguments.flag(json.flag)
        if wantsJSON, output == "-" { throw .usage("--json and --output - both write standard output; name a file") }
        let (readLimit, maxPixels) = try CLIError.reading { () throws(CoreError) in
            (try arguments.bytes(maxBytes) ?? Inputs.defaultRenderMaxBytes,
             try arguments.int(JobLimitOptions.maxPixels) ?? Catalog.defaultMaxPixels)
        }
        let limits = try JobLimitOptions.read(arguments)
        try OutputFile.refuseInput(output, inputs: [input], writer: "fix")
        let upload = Upload(try Inputs.readBytes(input, maxBytes: readLimit), fileName: input)
        let fixed: FixedUpload
        do throws(OperationError) {
            fixed = try FixOperation(request, maxPixels: maxPixels).run(upload, outputName: output, limits: limits)
        } catch {
            throw .operation(error, file: input)
        }
        // Again just before writing: the output may have come to be the input meanwhile.
        try OutputFile.refuseInput(output, inputs: [input], writer: "fix")
        let toStandardOutput = try Inputs.write(fixed.bytes, to: output)
        let status = fixed.remaining.isEmpty ? ExitCode.success : ExitCode.artworkWarnings
        if wantsJSON {
            try Streams.outJSON(fixed.json(input: input, file: output))
            return status
        }
        for line in lines(fixed, output: output) {
            if toStandardOutput { Streams.errEscaped("creative-tool fix: " + line) } else { try Streams.outEscaped(line) }
        }
        return status
    }

    /// What `fix` says: the file written, each change, then each warning of the artwork that remains.
    static func lines(_ fixed: FixedUpload, output: String) -> [String] {
        let verdict = fixed.remaining.isEmpty ? "valid with no warning"
            : "valid; the artwork's own warnings remain for the designer"
        return ["wrote \(output): \(fixed.size) \(fixed.format.rawValue.uppercased()), \(fixed.bytes.count) bytes, \(verdict)"]
            + fixed.changes.map { "  \($0.kind.rawValue): \($0.message)" }
            + fixed.remaining.map { "  remains \($0.code.rawValue): \($0.message)" }
    }
}
