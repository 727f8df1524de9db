import CreativeCore
import CreativeImaging
import CreativeOperations

/// `creative-tool process`: the upload pipeline's per-creative job (``ProcessOperation``), written
/// as a folder that appears whole or not at all.
enum ProcessCommand: DeclaredCommand {
    static let name = "process"
    static let summary = "validate a creative, render it into every device slot it serves, write a manifest"
    static let outputDirectory = OptionDeclaration(
        "output_dir", .text(maxLength: 4096), placeholder: "DIR",
        help: "the folder to write; it appears whole or not at all. An existing folder is replaced only when empty "
            + "or written by an earlier process run, and never when it holds the input (else exit 74, "
            + "output_dir_not_ours, nothing changed). Missing parent folders are created, as render --output "
            + "creates them; nothing is created for an input that cannot be read (file_not_found, exit 74)", surfaces: .commandLine, mistakenNames: ["output", "o", "out"])
    static let json = CommonOptions.json.with(help: "print the manifest on standard output")
    static let declared = ProcessRequest.options.on(.commandLine)
        + [outputDirectory, json, RenderCommand.cost.with(help: "print what the job would be charged (JSON, as "
                                                          + "render --cost) and write nothing"),
           JobLimitOptions.verbose, JobLimitOptions.quiet, ValidateCommand.maxBytes.declaration,
           JobLimitOptions.maxPixels.declaration] + JobLimitOptions.declared
    static let help = CommandHelp(
        synopsis: ["FILE --output-dir DIR [--with WxH,...] [--product P] [--format F] [--json] [--cost] [options]",
                   "FILE FILE... | FOLDER --output-dir DIR [--with WxH,...] [--json] [options]"],
        operands: [("FILE", "the creative ('-' reads standard input)"),
                   ("FILE FILE... | FOLDER", "several creatives (or a folder's image files: hidden files and other extensions are left out) as one campaign")],
        notes: ["The ad server serves a campaign's approved creatives only: a creative is rendered into the slots "
                    + "where it wins among the campaign's sizes (--with names those uploaded before); alone, into "
                    + "every slot it is eligible for.",
                "Valid: one file per device slot the creative is served in, the preview sheet (preview.png, or preview.jpg "
                    + "over 2 MB as PNG), preview.html (the renders at their size in points), manifest.json; exit 0.",
                "Rejected: only manifest.json with the validation report; exit 1.",
                "A campaign: DIR/NAME/ for each creative (as above), DIR/campaign.json (each device slot, the "
                    + "creative served there, its fill and weight) and DIR/campaign.png (or .jpg); the others are done when one "
                    + "is rejected or fails (past --timeout or when its files cannot be written, the rest are "
                    + "cancelled); a second creative of a size is not rendered (duplicate_size: the first given is "
                    + "kept, and its line says so); a progress line on a terminal; exit 1 when any was rejected or failed."],
        examples: ["banner-960x150.png --output-dir out/banner", "banner-960x150.png --with 1320x204,2184x270 --output-dir out/b",
                   "banner-960x150.png banner-1320x204.png banner-2184x270.png --output-dir out/campaign",
                   "--product interstitial takeover.png --output-dir out/t --json"],
        exitCodes: "0 valid and written, 1 rejected (manifest.json holds the report) or the job failed, 64 usage error")

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        var timer = StageTimer(command: name, enabled: arguments.flag(JobLimitOptions.verbose.flag))
        guard !arguments.positionals.isEmpty else { throw .usage("give a FILE (or several, or a folder)") }
        let request = try CLIError.reading { () throws(CoreError) in try ProcessRequest(arguments) }
        if arguments.positionals.count > 1 || FileIO.isDirectory(arguments.positionals[0]) {
            return try ProcessCampaign.run(arguments, request: request, timer: timer)
        }
        if arguments.flag(RenderCommand.cost.flag) { return try printCost(arguments, request: request) }
        guard let directory = arguments.value(outputDirectory.flag), !directory.isEmpty else {
            throw .usage("--output-dir DIR is required")
        }
        let path = arguments.positionals[0]
        let limits = try ValidateCommand.validationLimits(arguments, checkingProfiles: false)
        // Before any work: a folder that is not process's own is refused, whatever the input.
        let target = try DirectoryWriter.target(directory, input: path)
        let read = Result(catching: { () throws(FileIO.ReadFailure) in try FileIO.read(path, limit: limits.maxBytes) })
        // An input that cannot be read (a mistyped path, a folder) creates nothing; one over
        // the limit is a rejected creative, and its report is written.
        if case .failure(let failure) = read, !failure.isTooLarge {
            throw Inputs.failure(failure, path: path, maxBytes: limits.maxBytes)
        }
        timer.stage("read")
        // Each render goes into the folder being built as soon as it is done, not held to the end.
        let partial = try DirectoryWriter.begin(target)
        let output: ProcessOperation.Output
        do throws(ImagingError) {
            let sink = DirectoryWriter.sink(into: partial)
            output = try ProcessOperation(request, limits: limits).run(CreativeInput(read), name: path, writingTo: sink)
            try sink(JobResult.manifestName, output.manifest)
        } catch {
            DirectoryWriter.abandon(partial)
            throw .imaging(error, file: path)
        }
        timer.stage("validate, render and preview")
        let result = output.result
        try DirectoryWriter.commit(partial, input: path)
        timer.stage("write")
        if arguments.flag("--json") {
            try Streams.outBytes(output.manifest)
        } else if arguments.flag(JobLimitOptions.quiet.flag) {
            // The exit code says it; the folder holds the rest.
        } else if result.report.valid {
            let renders = result.renders.count
            let upscaled = UpscaledRender.summary(result.slots.map { ($0.deviceSlot.identifier, $0) })
            let warnings = result.report.warnings.map { "warning \($0.code.rawValue): \($0.message)" }
                + (upscaled.map { ["warning " + $0] } ?? [])
            try Streams.outEscaped("\(path): valid; wrote \(renders) render\(renders == 1 ? "" : "s"), "
                + "\(directory)/\(result.preview?.name ?? JobResult.previewNames[0]), \(directory)/\(PreviewPage.name) and \(directory)/\(JobResult.manifestName) "
                + "in \(StageTimer.milliseconds(timer.elapsed))" + overBudgetNote(result)
                + (warnings.isEmpty ? "" : " - " + warnings.joined(separator: "; ")))
        } else {
            try Streams.outEscaped(ValidateCommand.humanLine(result.report))
            try Streams.outEscaped("wrote \(directory)/\(JobResult.manifestName) (report only)")
        }
        timer.finish()
        // A render over its weight budget fails the job (the others are written).
        return result.report.valid && result.overWeightBudget.isEmpty ? ExitCode.success : ExitCode.failure
    }

    /// `; 2 renders over the weight budget of 153600 bytes, not written (over_weight_budget: ...)`, or
    /// nothing when every render fits.
    static func overBudgetNote(_ result: JobResult) -> String {
        guard let first = result.overWeightBudget.first else { return "" }
        let count = result.overWeightBudget.count
        return "; \(count) render\(count == 1 ? "" : "s") over the weight budget, not written ("
            + result.overWeightBudget.map(\.slot).joined(separator: ", ") + "; \(first.error.code): \(first.error.message))"
    }

    /// `--cost`: the job's charge for FILE (``ProcessOperation/cost(_:)``); nothing is decoded or written.
    private static func printCost(_ arguments: ParsedArguments, request: ProcessRequest) throws(CLIError) -> Int32 {
        let limits = try ValidateCommand.validationLimits(arguments, checkingProfiles: false)
        let source = try Inputs.openSource(arguments.positionals[0], maxBytes: limits.maxBytes, maxPixels: limits.maxPixels)
        try Streams.outJSON(ProcessOperation(request, limits: limits).cost(source).json(limits: limits.job))
        return ExitCode.success
    }
}
