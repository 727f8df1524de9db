import CreativeCore
import CreativeImaging

/// `creative-tool process`: the upload pipeline's per-creative job.
enum ProcessCommand: Subcommand {
    static let name = "process"
    static let summary = "validate a creative, render it into every device slot it serves, write a manifest"
    static let usage = """
    usage: creative-tool process FILE --output-dir DIR [--json] [--cost] [--max-bytes N] [--max-pixels N]
                                 [--product \(Product.names)] [--format auto|png|webp|jpeg]
                                 [--timeout S] [--memory-budget MIB]
      FILE          the creative ('-' reads standard input)
      --output-dir  the folder to write; it appears whole or not at all. An existing folder is
                    replaced only when empty or written by an earlier process run, and never
                    when it holds the input (else exit 1, output_dir_not_ours, nothing changed)
      --json        print the manifest on standard output
      --cost        print what the job would be charged (JSON, as render --cost) and write nothing
      --product     banner (default), companion (the standard slot of every device the
                    artwork is picked for) or interstitial: every device screen and orientation the
                    artwork is picked for, and the close zone in the manifest
      --format      how the renders are written: auto (default: the smallest of PNG, palette PNG
                    and WebP that keeps SSIM >= 0.98, named in the manifest), png (lossless),
                    webp or jpeg (quality 85; JPEG bars are white)
    \(JobLimitOptions.usage)
    Valid: one file per device slot the creative is picked for, preview.png, manifest.json; exit 0.
    Rejected: only manifest.json with the validation report; exit 1.
    """
    static let options = Set<String>(["--output-dir", "--max-bytes", "--max-pixels", "--product", "--format"])
        .union(JobLimitOptions.names)
    static let flags: Set<String> = ["--json", "--cost"]

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard arguments.positionals.count == 1 else { throw .usage("give exactly one FILE") }
        if arguments.flag("--cost") { return try printCost(arguments) }
        guard let directory = arguments.value("--output-dir"), !directory.isEmpty else {
            throw .usage("--output-dir DIR is required")
        }
        let path = arguments.positionals[0]
        let limits = try ProcessJob.limits(arguments)
        let format = try arguments.choice("--format", FormatChoice.self) ?? .auto
        // Before any work: a folder that is not process's own is refused, whatever the input.
        let target = try DirectoryWriter.target(directory, input: path)
        let read = Result(catching: { () throws(FileIO.ReadFailure) in try FileIO.read(path, limit: limits.maxBytes) })
        let output = try ProcessJob.run(read, name: path, limits: limits, format: format)
        let (result, manifestText) = (output.result, output.manifestText)
        try DirectoryWriter.write(output.files, to: target, input: path)
        if arguments.flag("--json") {
            try Streams.out(manifestText)
        } else if result.report.valid {
            let renders = result.files.count - 1
            try Streams.outEscaped("\(path): valid; wrote \(renders) render\(renders == 1 ? "" : "s"), "
                + "\(directory)/\(JobResult.previewName) and \(directory)/\(JobResult.manifestName)")
        } else {
            try Streams.outEscaped(ValidateCommand.humanLine(result.report))
            try Streams.outEscaped("wrote \(directory)/\(JobResult.manifestName) (report only)")
        }
        return result.report.valid ? ExitCode.success : ExitCode.failure
    }

    /// `--cost`: the plan's charge for FILE (``ProcessPlan``); nothing is decoded or written.
    private static func printCost(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let path = arguments.positionals[0]
        let limits = try JobLimitOptions.read(arguments)
        let source = try Inputs.openSource(path, maxBytes: try arguments.int("--max-bytes", in: 1...1 << 30)
                                            ?? Catalog.defaultMaxBytes, maxPixels: try Inputs.maxPixels(arguments))
        let plan = ProcessPlan(source, product: try Inputs.product(arguments),
                               format: try arguments.choice("--format", FormatChoice.self) ?? .auto,
                               memoryBudget: limits.memoryBudget)
        try Streams.outLine(plan.cost.json(limits: limits).serialized())
        return ExitCode.success
    }
}
