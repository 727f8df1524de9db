import CreativeCore
import CreativeImaging

/// `creative-tool validate`: checks uploads and reports every problem with a stable code.
enum ValidateCommand: Subcommand {
    static let name = "validate"
    static let summary = "check uploaded creatives: format, size, damage, animation, colour, weight, pre-flight"
    static let usage = """
    usage: creative-tool validate FILE... [--json] [--max-bytes N] [--max-pixels N]
                                  [--product \(Product.names)] [--timeout S] [--memory-budget MIB] [--no-preflight]
      FILE          a creative; '-' reads standard input
      --json        one JSON report per file, one per line, on standard output
      --max-bytes   largest accepted file (default 2097152, 2 MiB)
      --max-pixels  largest accepted width x height, from the header (default 50000000)
      --product     whose sizes are accepted: banner (default), interstitial or companion
      --no-preflight  skip the pre-flight checks of the pixels (baked_in_bars,
                    edge_without_border, upscaled_artwork, mostly_empty)
    \(JobLimitOptions.usage)
    exit: 0 when every file is valid, 1 when any is rejected, 64 on usage errors
    """
    static let options = Set<String>(["--max-bytes", "--max-pixels", "--product"]).union(JobLimitOptions.names)
    static let flags: Set<String> = ["--json", "--no-preflight"]

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard !arguments.positionals.isEmpty else { throw .usage("give at least one FILE") }
        if arguments.positionals.filter({ $0 == "-" }).count > 1 {
            throw .usage("standard input ('-') can be read only once")
        }
        var limits = ValidationLimits(
            maxBytes: try arguments.int("--max-bytes", in: 1...1 << 30) ?? Catalog.defaultMaxBytes,
            maxPixels: try Inputs.maxPixels(arguments), job: try JobLimitOptions.read(arguments),
            product: try Inputs.product(arguments))
        limits.preflight = !arguments.flag("--no-preflight")
        let json = arguments.flag("--json")
        var allValid = true
        for path in arguments.positionals {
            let report = validate(path, limits: limits)
            allValid = allValid && report.valid
            if json {
                try Streams.outLine(report.json.serialized())
            } else {
                try Streams.outEscaped(humanLine(report))
            }
        }
        return allValid ? ExitCode.success : ExitCode.failure
    }

    /// Reads and validates one file; unreadable files become reports too.
    static func validate(_ path: String, limits: ValidationLimits) -> ValidationReport {
        do {
            let bytes = try FileIO.read(path, limit: limits.maxBytes)
            return Validator.validate(bytes, fileName: path, limits: limits)
        } catch {
            return report(for: error, path: path, limits: limits)
        }
    }

    /// The report for a file that could not be read whole: over the limit (validated from its
    /// head), missing, not a regular file, or unreadable.
    static func report(for failure: FileIO.ReadFailure, path: String, limits: ValidationLimits) -> ValidationReport {
        var report = ValidationReport(file: path, product: limits.product)
        switch failure {
        case .tooLarge(let size, let head):
            return Validator.validate(head, fileName: path, limits: limits, totalBytes: size)
        case .notAFile(let message):
            report.add(.notAFile, "\(message); give a regular file, or '-' and the bytes on standard input")
        case .notFound(let message), .failed(let message):
            report.add(.fileNotFound, "\(message); check the path")
        }
        return report
    }

    /// One line for people: verdict, what the file is, and each problem with its fix. For
    /// standard input the byte count is what was read (reading stops past the limit), said so.
    /// The caller escapes it (``Streams/outEscaped(_:)``).
    static func humanLine(_ report: ValidationReport) -> String {
        var what: [String] = []
        if let dimensions = report.dimensions { what.append(dimensions.description) }
        if let format = report.format { what.append(format.rawValue.uppercased()) }
        if let bundle = report.bundle {
            what.append("HTML5 bundle of \(bundle.files) files\(bundle.entry.map { ", entry \($0)" } ?? "")")
        }
        if let bytes = report.bytes {
            if report.file == "-" {
                what.append("\(bytes) bytes read from standard input")
            } else {
                what.append(bytes >= 1000 ? "\(bytes / 1000) KB" : "\(bytes) bytes")
            }
        }
        var line = "\(report.file): \(report.valid ? "valid" : "REJECTED")"
        if !what.isEmpty { line += " (\(what.joined(separator: ", ")))" }
        let issues = report.errors.map { "error \($0.code.rawValue): \($0.message)" }
            + report.warnings.map { "warning \($0.code.rawValue): \($0.message)" }
        if !issues.isEmpty { line += " - " + issues.joined(separator: "; ") }
        return line
    }
}
