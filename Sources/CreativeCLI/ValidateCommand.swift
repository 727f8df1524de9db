import CreativeCore
import CreativeImaging
import CreativeOperations

/// `creative-tool validate`: checks uploads and reports every problem with a stable code.
enum ValidateCommand: DeclaredCommand {
    static let name = "validate"
    static let summary = "check uploaded creatives: format, size, damage, animation, colour, weight, pre-flight"
    static let maxBytes = JobLimitOptions.maxBytes(default: Catalog.defaultMaxBytes)
    static let json = CommonOptions.json.with(help: "one JSON report per file, one per line, on standard output")
    static let declared = ValidateRequest.options.on(.commandLine)
        + [json, JobLimitOptions.quiet, maxBytes.declaration, JobLimitOptions.maxPixels.declaration] + JobLimitOptions.declared
    static let help = CommandHelp(
        synopsis: ["FILE... [--product P] [--profile P[,Q]] [--json] [--no-preflight] [--max-bytes SIZE] [--max-pixels N]"],
        operands: [("FILE", "a creative (PNG, JPEG, GIF, WebP, or an HTML5 bundle as a zip); '-' reads standard input")],
        notes: ["--profile checks each platform's upload rules (creative-tool profiles lists them); a profile with",
                "its own size list accepts that list instead of the product's. Each error names its profile."],
        examples: ["banner-960x150.png", "--product interstitial --json takeover.png",
                   "--profile google-ads,iab-lean rectangle-300x250.jpg"],
        exitCodes: "0 every file is valid, 1 any is rejected (each file read), 64 usage error")

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard !arguments.positionals.isEmpty else { throw .usage("give at least one FILE") }
        if arguments.positionals.filter({ $0 == "-" }).count > 1 {
            throw .usage("standard input ('-') can be read only once")
        }
        let limits = try validationLimits(arguments)
        let wantsJSON = arguments.flag(json.flag)
        var allValid = true, allRead = true
        for path in arguments.positionals {
            let report = validate(path, limits: limits)
            allValid = allValid && report.valid
            allRead = allRead && !unread(report)
            if wantsJSON {
                try Streams.outJSON(report.json)
            } else if !arguments.flag(JobLimitOptions.quiet.flag) {
                try Streams.outEscaped(humanLine(report))
            }
        }
        if !allRead { return ExitCode.inputOutput }
        return allValid ? ExitCode.success : ExitCode.failure
    }

    /// Whether the report is of a file that could not be read at all (missing, unreadable, a folder):
    /// the path is wrong, not the creative (exit 74, "cannot be read").
    static func unread(_ report: ValidationReport) -> Bool {
        report.errors.contains { $0.code == .fileNotFound || $0.code == .notAFile }
    }

    /// The limits a validation (also `process`'s) is run within: `--max-bytes`, `--max-pixels`,
    /// the job's limits, the product and `--no-preflight`.
    /// `checkingProfiles`: whether `--profile`'s platforms' rules are checked (validate's); `process`
    /// reads its `--profile` as the renders' weight budgets and checks the upload against the product's.
    static func validationLimits(_ arguments: ParsedArguments, checkingProfiles: Bool = true) throws(CLIError) -> ValidationLimits {
        let job = try JobLimitOptions.read(arguments)
        return try CLIError.reading { () throws(CoreError) in
            ValidateOperation.limits(try ValidateRequest(arguments),
                                     maxBytes: try arguments.bytes(maxBytes) ?? Catalog.defaultMaxBytes,
                                     maxPixels: try arguments.int(JobLimitOptions.maxPixels) ?? Catalog.defaultMaxPixels,
                                     job: job, checkingProfiles: checkingProfiles)
        }
    }

    /// Reads and validates one file; unreadable files become reports too (``ValidateOperation``).
    static func validate(_ path: String, limits: ValidationLimits) -> ValidationReport {
        ValidateOperation.report(.read(path, limit: limits.maxBytes), name: path, limits: limits)
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
                what.append(TextFormat.kilobytes(bytes))
            }
        }
        var line = "\(report.file): \(report.valid ? "valid" : unread(report) ? "cannot be read" : "REJECTED")"
        if !report.profiles.isEmpty { line += " for \(report.profileNames.joined(separator: ", "))" }
        if !what.isEmpty { line += " (\(what.joined(separator: ", ")))" }
        let issues = report.errors.map { "error \($0.code.rawValue): \($0.message)" }
            + report.warnings.map { "warning \($0.code.rawValue): \($0.message)" }
        if !issues.isEmpty { line += " - " + issues.joined(separator: "; ") }
        return line
    }
}
