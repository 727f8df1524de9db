import CreativeCore
import CreativeImaging

/// The options of the command line alone (the service takes these from its configuration):
/// the job's limits, the files read and written, how much is said.
enum JobLimitOptions {
    static let timeout = DurationOption(
        "timeout", Double.leastNonzeroMagnitude...86_400, placeholder: "S",
        help: "the job's deadline: stop a job that runs longer (code timeout; 10s, 500ms, 2m; a bare number is seconds)",
        defaultValue: "none", surfaces: .commandLine)
    static let memoryBudget = ByteSizeOption(
        "memory_budget", 1 << 20...1 << 40, placeholder: "SIZE",
        help: "most memory the job may hold at its peak (decode, resampling window, canvas, encoders), charged "
            + "from the header before any work (code too_many_pixels; 64M, 1G; a bare number is MiB)",
        defaultValue: Product.defaultsText({ Quantity.describe(bytes: $0.jobDefaults.memoryBudget) },
                                           name: { "--product \($0)" }),
        surfaces: .commandLine, bareUnit: 1 << 20)
    static let maxPixels = IntegerOption(
        "max_pixels", 1...1_000_000_000, placeholder: "N",
        help: "largest accepted width x height in pixels, from the header", defaultValue: "\(Catalog.defaultMaxPixels)",
        surfaces: .commandLine)
    static let verbose = OptionDeclaration(
        "verbose", .toggle, help: "print each stage's time on standard error", defaultValue: "false",
        surfaces: .commandLine, mistakenNames: ["v"])
    static let quiet = OptionDeclaration(
        "quiet", .toggle, help: "print nothing but what is asked for (--json) and errors: no notes, no 'wrote' line; "
            + "the exit code says how it went", defaultValue: "false", surfaces: .commandLine)
    static let output = OptionDeclaration(
        "output", .text(maxLength: 4096), placeholder: "PATH|-",
        help: "file to write (default NAME-WxH@Sx.EXT here; a folder, one that exists or a name ending in /, gets that name "
            + "inside it); '-' for standard output (not a terminal: "
            + "exit 64). Its extension (\(RenderRequest.knownExtensions)) is the format, another one is a usage error unless "
            + "--format is given; with --format auto it narrows the choice to that format. Save options may follow "
            + "in brackets as libvips writes them: o.jpg[Q=60], o.webp[lossless], o.webp[effort=6] (the flags "
            + "--quality, --lossless, --effort). Missing parent folders are created. A regular "
            + "file (also through a link) is replaced atomically, never one of the inputs (output_is_input); a FIFO, "
            + "a device or /dev/stdout is written directly",
        surfaces: .commandLine, mistakenNames: ["o", "out"])

    /// `--max-bytes SIZE`, the largest file read, with its default.
    static func maxBytes(default bytes: Int) -> ByteSizeOption {
        ByteSizeOption("max_bytes", 1...1 << 30, placeholder: "SIZE",
                       help: "largest file read (2M, 512K; a bare number is bytes)",
                       defaultValue: Quantity.describe(bytes: bytes), surfaces: .commandLine)
    }

    /// The job's limits, for each command's declarations.
    static let declared = [timeout.declaration, memoryBudget.declaration]

    /// The limits the options give; defaults: no deadline, the budget of the job's `--product`
    /// (``JobLimits/defaultMemoryBudget(for:)``).
    static func read(_ arguments: ParsedArguments) throws(CLIError) -> JobLimits {
        try CLIError.reading { () throws(CoreError) in
            let product = try CommonOptions.product(arguments)
            return JobLimits(memoryBudget: try arguments.bytes(memoryBudget) ?? JobLimits.defaultMemoryBudget(for: product),
                             timeout: try arguments.seconds(timeout))
        }
    }
}
