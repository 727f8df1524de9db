import CreativeCore
import CreativeImaging
import CreativeOperations

/// Why a command stopped; each case has its exit code.
public enum CLIError: Error, Equatable, Sendable {
    /// The command line is wrong (unknown flag, bad `WxH`, missing argument): exit 64.
    case usage(String)
    /// The job failed or the creative was rejected; `code` is the stable error code: exit 1.
    case failed(code: String, message: String)

    /// The process exit code.
    public var exitCode: Int32 {
        switch self {
        case .usage: ExitCode.usage
        case .failed: ExitCode.failure
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

/// The exit codes of docs/reference.md, "Commands" (every command's `--help` lists its own).
public enum ExitCode {
    /// Success; for validation, every creative valid.
    public static let success: Int32 = 0
    /// A creative was rejected or the job failed.
    public static let failure: Int32 = 1
    /// The command line was wrong.
    public static let usage: Int32 = 64
}
