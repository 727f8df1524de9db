import CreativeCore
import CreativeImaging

/// `creative-tool process`: the upload pipeline's per-creative job.
enum ProcessCommand: Subcommand {
    static let name = "process"
    static let summary = "validate a creative, render it into every device slot it serves, write a manifest"
    static let usage = """
    usage: creative-tool process FILE --output-dir DIR [--json] [--max-bytes N] [--max-pixels N]
                                 [--timeout S] [--memory-budget MIB]
      FILE          the creative ('-' reads standard input)
      --output-dir  the folder to write; it appears whole or not at all, replacing an old one
      --json        print the manifest on standard output
    \(JobLimitOptions.usage)
    Valid: one PNG per device slot the creative is picked for, preview.png, manifest.json; exit 0.
    Rejected: only manifest.json with the validation report; exit 1.
    """
    static let options = Set<String>(["--output-dir", "--max-bytes", "--max-pixels"]).union(JobLimitOptions.names)
    static let flags: Set<String> = ["--json"]

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard arguments.positionals.count == 1 else { throw .usage("give exactly one FILE") }
        guard let directory = arguments.value("--output-dir"), !directory.isEmpty else {
            throw .usage("--output-dir DIR is required")
        }
        let path = arguments.positionals[0]
        let limits = ValidationLimits(
            maxBytes: try arguments.int("--max-bytes", in: 1...1 << 30) ?? Catalog.defaultMaxBytes,
            maxPixels: try Inputs.maxPixels(arguments), job: try JobLimitOptions.read(arguments))
        let result: JobResult
        switch readInput(path, limits: limits) {
        case .bytes(let bytes):
            do {
                result = try CreativeJob.process(bytes, fileName: path, limits: limits)
            } catch {
                throw .imaging(error, file: path)
            }
        case .unreadable(let report):
            result = CreativeJob.rejected(report)
        }
        let manifestText = result.manifest.serialized() + "\n"
        let files = result.files.map { ($0.name, $0.bytes) } + [(JobResult.manifestName, Array(manifestText.utf8))]
        do {
            try DirectoryWriter.write(files, to: directory)
        } catch {
            if case .failed(let message) = error { throw .failed(code: "io_error", message: message) }
            throw .failed(code: "io_error", message: "cannot write \(directory)")
        }
        if arguments.flag("--json") {
            Streams.out(manifestText)
        } else if result.report.valid {
            let renders = result.files.count - 1
            Streams.outLine("\(path): valid; wrote \(renders) render\(renders == 1 ? "" : "s"), "
                + "\(directory)/\(JobResult.previewName) and \(directory)/\(JobResult.manifestName)")
        } else {
            Streams.outLine(ValidateCommand.humanLine(result.report))
            Streams.outLine("wrote \(directory)/\(JobResult.manifestName) (report only)")
        }
        return result.report.valid ? ExitCode.success : ExitCode.failure
    }

    private enum Input {
        case bytes([UInt8])
        /// Missing, too large or unreadable: the validation report says which.
        case unreadable(ValidationReport)
    }

    private static func readInput(_ path: String, limits: ValidationLimits) -> Input {
        do {
            return .bytes(try FileIO.read(path, limit: limits.maxBytes))
        } catch {
            return .unreadable(ValidateCommand.validate(path, limits: limits))
        }
    }
}
