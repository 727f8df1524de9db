import CreativeCore
import CreativeImaging
import CreativeOperations

/// Why a command stopped; each case has its exit code.
public enum CLIError: Error, Equatable, Sendable {
    /// The command line is wrong (unknown flag, bad `WxH`, missing argument): exit 64.
    case usage(String)
    /// The job failed or the creative was rejected; `code` is the stable error code: exit 1, or 74
    /// when the code is an input or output problem (``ExitCode/inputOutputCodes``).
    case failed(code: String, message: String)

    /// The process exit code.
    public var exitCode: Int32 {
        switch self {
        case .usage: ExitCode.usage
        case .failed(let code, _): ExitCode.inputOutputCodes.contains(code) ? ExitCode.inputOutput : ExitCode.failure
        }
    }

    /// Runs `read`, the reading of an operation's options: each ``CoreError`` is a usage error with its sentence.
    static func reading<Value>(_ read: () throws(CoreError) -> Value) throws(CLIError) -> Value {
        do { return try read() } catch { throw .usage(error.description) }
    }

    /// A failure carrying an imaging error's code and message.
    static func imaging(_ error: ImagingError, file: String? = nil) -> CLIError {
        .failed(code: error.code, message: (file.map { "\($0): " } ?? "") + error.message)
    }

    /// An operation's failure as the command line says it: the imaging error's code and message
    /// after the file's name; a render without the artwork it needs, or a request the file cannot
    /// meet, is a usage error.
    static func operation(_ error: OperationError, file: String? = nil) -> CLIError {
        switch error {
        case .needsArtwork(let product): .usage("give at least one FILE (the \(product) artwork)")
        case .invalidRequest(let message): .usage(message)
        case .rejected(let error, _), .stopped(let error), .fault(let error, _): .imaging(error, file: file)
        }
    }
}

/// The exit codes of docs/commands.md, "Exit codes" (every command's `--help` lists its own).
public enum ExitCode {
    /// Success; for validation, every creative valid.
    public static let success: Int32 = 0
    /// A creative was rejected or the job failed.
    public static let failure: Int32 = 1
    /// `fix` wrote the file, but warnings of the artwork itself remain for the designer (pre-flight
    /// findings the source already had, such as a white edge without a border).
    public static let artworkWarnings: Int32 = 2
    /// The command line was wrong.
    public static let usage: Int32 = 64
    /// An input or output problem, not the creative's: a file missing or unreadable, a folder where a
    /// file is wanted, an output that cannot be written (sysexits' EX_IOERR).
    public static let inputOutput: Int32 = 74
    /// The error codes of input and output problems: exit ``inputOutput``.
    public static let inputOutputCodes: Set<String> = [
        "file_not_found", "not_a_file", "io_error", "output_is_input", "output_dir_not_ours",
    ]
    /// Every exit code and what it means, for the reference (docs/commands.md, the man page).
    static let table: [(Int32, String)] = [
        (success, "success (validate: every file valid; fix: written, and it validates with no warning)"),
        (failure, "a creative was rejected (validate's report, with its codes, on standard output) or the job "
            + "failed (its code on standard error)"),
        (artworkWarnings, "fix wrote the file, but warnings of the artwork itself remain (a pre-flight finding the "
            + "source already had, such as a white edge without a border): each is said, for the designer to fix"),
        (usage, "usage error: one line naming the fix, then where the help is"),
        (inputOutput, "a file cannot be read or written, whatever the creative: file_not_found, not_a_file (a folder "
            + "where a file is wanted), io_error (unreadable, an output that cannot be written, standard output "
            + "closed), output_is_input, output_dir_not_ours; a script can tell it from a rejection"),
    ]
    /// The exit codes' line of the overview (`creative-tool --help`).
    static let overview = "0 success, 1 creative rejected or job failed, 2 fix wrote the file but the artwork's own "
        + "warnings remain, 64 usage error, 74 a file cannot be read or written"
    /// What every command's help says of 74.
    static let inputOutputHelp = "74 a file cannot be read or written (file_not_found, not_a_file, io_error, "
        + "output_is_input, output_dir_not_ours)"
}
