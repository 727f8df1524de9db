import CreativeCore
import CreativeImaging

/// `creative-tool process`: the upload pipeline's per-creative job.
enum ProcessCommand: DeclaredCommand {
    static let name = "process"
    static let summary = "validate a creative, render it into every device slot it serves, write a manifest"
    static let outputDirectory = OptionDeclaration(
        "output_dir", .text(maxLength: 4096), placeholder: "DIR",
        help: "the folder to write; it appears whole or not at all. An existing folder is replaced only when empty "
            + "or written by an earlier process run, and never when it holds the input (else exit 1, "
            + "output_dir_not_ours, nothing changed)", surfaces: .commandLine, mistakenNames: ["output", "o", "out"])
    static let json = CommonOptions.json.with(help: "print the manifest on standard output")
    static let declared = ProcessRequest.options.on(.commandLine)
        + [outputDirectory, json, RenderCommand.cost.with(help: "print what the job would be charged (JSON, as "
                                                          + "render --cost) and write nothing"),
           JobLimitOptions.verbose, ValidateCommand.maxBytes, JobLimitOptions.maxPixels] + JobLimitOptions.declared
    static let help = CommandHelp(
        synopsis: ["FILE --output-dir DIR [--product P] [--format F] [--json] [--cost] [options]"],
        operands: [("FILE", "the creative ('-' reads standard input)")],
        notes: ["Valid: one file per device slot the creative is picked for, preview.png, manifest.json; exit 0.",
                "Rejected: only manifest.json with the validation report; exit 1."],
        examples: ["banner-960x150.png --output-dir out/banner", "--product interstitial takeover.png --output-dir out/t --json"],
        exitCodes: "0 valid and written, 1 rejected (manifest.json holds the report) or the job failed, 64 usage error")

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let timer = StageTimer(command: name, enabled: arguments.flag(JobLimitOptions.verbose.flag))
        guard arguments.positionals.count == 1 else { throw .usage("give exactly one FILE") }
        let request = try CLIError.reading { () throws(CoreError) in try ProcessRequest(arguments) }
        if arguments.flag(RenderCommand.cost.flag) { return try printCost(arguments, request: request) }
        guard let directory = arguments.value(outputDirectory.flag), !directory.isEmpty else {
            throw .usage("--output-dir DIR is required")
        }
        let path = arguments.positionals[0]
        let limits = try ValidateCommand.validationLimits(arguments)
        let format = request.format
        // Before any work: a folder that is not process's own is refused, whatever the input.
        let target = try DirectoryWriter.target(directory, input: path)
        let read = Result(catching: { () throws(FileIO.ReadFailure) in try FileIO.read(path, limit: limits.maxBytes) })
        let output: ProcessJob.Output
        do throws(ImagingError) {
            output = try ProcessJob.run(read, name: path, limits: limits, format: format,
                                    weightBudget: request.weightBudget)
        } catch {
            throw .imaging(error, file: path)
        }
        let (result, manifestText) = (output.result, output.manifestText)
        try DirectoryWriter.write(output.files, to: target, input: path)
        if arguments.flag("--json") {
            try Streams.out(manifestText)
        } else if result.report.valid {
            let renders = result.files.count - 1
            let warnings = result.report.warnings.map { "warning \($0.code.rawValue): \($0.message)" }
            try Streams.outEscaped("\(path): valid; wrote \(renders) render\(renders == 1 ? "" : "s"), "
                + "\(directory)/\(JobResult.previewName) and \(directory)/\(JobResult.manifestName) "
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

    /// `--cost`: the plan's charge for FILE (``ProcessPlan``); nothing is decoded or written.
    private static func printCost(_ arguments: ParsedArguments, request: ProcessRequest) throws(CLIError) -> Int32 {
        let limits = try ValidateCommand.validationLimits(arguments)
        let source = try Inputs.openSource(arguments.positionals[0], maxBytes: limits.maxBytes, maxPixels: limits.maxPixels)
        let plan = ProcessPlan(source, product: request.product, format: request.format, memoryBudget: limits.job.memoryBudget)
        try Streams.outJSON(plan.cost.json(limits: limits.job))
        return ExitCode.success
    }
}
