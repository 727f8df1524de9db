import CreativeCore
import CreativeImaging
import CreativeOperations

/// Opening a creative named on the command line, with errors mapped to stable codes.
enum Inputs {
    /// Default read limit for render and select inputs (validation has its own `--max-bytes`).
    static let defaultRenderMaxBytes = 32 * 1024 * 1024

    /// Reads a file (or `-`) and opens it as an image source (an HTML5 bundle: its static version).
    static func openSource(_ path: String, maxBytes: Int, maxPixels: Int) throws(CLIError) -> ImageSource {
        let bytes = try readBytes(path, maxBytes: maxBytes)
        do {
            return try Validator.renderSource(bytes, fileName: path, maxPixels: maxPixels)
        } catch {
            throw .imaging(error, file: path)
        }
    }

    /// Reads a file with the limit, mapping failures to their codes (``failure(_:path:maxBytes:)``).
    static func readBytes(_ path: String, maxBytes: Int) throws(CLIError) -> [UInt8] {
        do {
            return try FileIO.read(path, limit: maxBytes)
        } catch {
            throw failure(error, path: path, maxBytes: maxBytes)
        }
    }

    /// A read failure as a CLI failure: `file_not_found`, `not_a_file`, `file_too_large`, `io_error`.
    static func failure(_ error: FileIO.ReadFailure, path: String, maxBytes: Int) -> CLIError {
        switch error {
        case .notFound(let message): .failed(code: "file_not_found", message: message)
        case .notAFile(let message): .failed(code: "not_a_file", message: message)
        case .tooLarge(let size, _):
            .failed(code: ValidationCode.fileTooLarge.rawValue, message: path == "-"
                ? "standard input: more than \(maxBytes) bytes (stopped after reading \(size)), over the limit"
                : "\(path): \(size) bytes, over the limit of \(maxBytes)")
        case .failed(let message): .failed(code: "io_error", message: message)
        }
    }

    /// The displayed size of a candidate file, read from its header: only its first bytes are
    /// read when the header is whole in them, so choosing among many big files never holds them.
    /// The format is sniffed and the pixel cap checked as ``openSource(_:maxBytes:maxPixels:)``
    /// does; a file whose header reaches past those bytes is read whole, once, and let go.
    static func headerSize(_ path: String, maxBytes: Int, maxPixels: Int) throws(CLIError) -> PixelSize {
        let probe: (head: [UInt8], size: Int)
        do {
            probe = try FileIO.readHead(path, count: HeaderExtent.probeBytes, limit: maxBytes)
        } catch {
            throw failure(error, path: path, maxBytes: maxBytes)
        }
        if Validator.isBundle(probe.head) {
            return try openSource(path, maxBytes: maxBytes, maxPixels: maxPixels).displayedSize
        }
        guard probe.head.count < probe.size, case .accepted(let format) = ImageFormat.sniff(probe.head) else {
            // The whole file, or bytes that are no accepted image: the source says what it is.
            do { return try ImageSource(bytes: probe.head, maxPixels: maxPixels).displayedSize } catch {
                throw .imaging(error, file: path)
            }
        }
        guard let stored = HeaderProbe.dimensions(probe.head, format: format),
              let orientation = HeaderExtent.orientation(probe.head, format: format) else {
            return try openSource(path, maxBytes: maxBytes, maxPixels: maxPixels).displayedSize
        }
        if stored.exceeds(pixelCap: maxPixels) {
            throw .imaging(.tooManyPixels(width: stored.width, height: stored.height, cap: maxPixels), file: path)
        }
        return orientation >= 5 ? PixelSize(width: stored.height, height: stored.width) : stored
    }

    /// One of several candidates of a choice: its displayed size (``headerSize(_:maxBytes:maxPixels:)``;
    /// standard input is opened whole, and its source kept, since it cannot be read twice).
    struct Candidate {
        let size: PixelSize
        /// The opened source of standard input; nil for a file (only the winner is opened).
        let source: ImageSource?
    }

    /// A candidate of a choice among several files, or nil when it is over the read limit: such
    /// a file drops out of the choice, with a note on standard error naming it and why, instead
    /// of failing the command. Every other failure fails it, as for a single file.
    static func candidate(_ path: String, maxBytes: Int, maxPixels: Int) throws(CLIError) -> Candidate? {
        do {
            if path == "-" {
                let source = try openSource(path, maxBytes: maxBytes, maxPixels: maxPixels)
                return Candidate(size: source.displayedSize, source: source)
            }
            return Candidate(size: try headerSize(path, maxBytes: maxBytes, maxPixels: maxPixels), source: nil)
        } catch {
            guard case .failed(let code, let message) = error, code == ValidationCode.fileTooLarge.rawValue else { throw error }
            Streams.errEscaped("creative-tool render: note: \(code): \(message); left out of the choice")
            return nil
        }
    }

    /// Writes an output (``FileIO/writeOutput(_:to:)``), or to standard output for `-`.
    /// - Returns: true when the bytes went to standard output (`-`, `/dev/stdout`, `/dev/fd/1`).
    @discardableResult
    static func write(_ bytes: [UInt8], to path: String) throws(CLIError) -> Bool {
        if path == "-" {
            try Streams.outBytes(bytes)
            return true
        }
        do {
            return try FileIO.writeOutput(bytes, to: path) == 1
        } catch {
            if case .failed(let message) = error { throw .failed(code: "io_error", message: message) }
            throw .failed(code: "io_error", message: "cannot write \(path)")
        }
    }
}

extension CreativeInput {
    /// A file (or `-`) as an operation takes it: its bytes, read with the limit
    /// (``FileIO/read(_:limit:)``), or why they could not be read whole.
    static func read(_ path: String, limit: Int) -> CreativeInput {
        CreativeInput(Result(catching: { () throws(FileIO.ReadFailure) in try FileIO.read(path, limit: limit) }))
    }

    /// The outcome of a read as an operation's input: a missing file and one that could not be
    /// read are both `unreadable` (the report says `file_not_found` for either).
    init(_ read: Result<[UInt8], FileIO.ReadFailure>) {
        switch read {
        case .success(let bytes): self = .bytes(bytes)
        case .failure(.tooLarge(let size, let head)): self = .tooLarge(size: size, head: head)
        case .failure(.notAFile(let message)): self = .notAFile(message)
        case .failure(.notFound(let message)), .failure(.failed(let message)): self = .unreadable(message)
        }
    }
}
