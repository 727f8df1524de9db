import CreativeCore
import CreativeImaging

/// Opening a creative named on the command line, with errors mapped to stable codes.
enum Inputs {
    /// Default read limit for render and select inputs (validation has its own `--max-bytes`).
    static let defaultRenderMaxBytes = 32 * 1024 * 1024

    /// Reads a file (or `-`) and opens it as an image source.
    static func openSource(_ path: String, maxBytes: Int, maxPixels: Int) throws(CLIError) -> ImageSource {
        let bytes = try readBytes(path, maxBytes: maxBytes)
        do {
            return try ImageSource(bytes: bytes, maxPixels: maxPixels)
        } catch {
            throw .imaging(error, file: path)
        }
    }

    /// Reads a file with the limit, mapping failures to `file_not_found` / `file_too_large`.
    static func readBytes(_ path: String, maxBytes: Int) throws(CLIError) -> [UInt8] {
        do {
            return try FileIO.read(path, limit: maxBytes)
        } catch {
            switch error {
            case .notFound(let message): throw .failed(code: "file_not_found", message: message)
            case .tooLarge(let size, _):
                throw .failed(code: "file_too_large",
                              message: "\(path): \(size) bytes or more, over the limit of \(maxBytes)")
            case .failed(let message): throw .failed(code: "io_error", message: message)
            }
        }
    }

    /// The `--max-pixels` option, default 50 megapixels.
    static func maxPixels(_ arguments: ParsedArguments) throws(CLIError) -> Int {
        try arguments.int("--max-pixels", in: 1...1_000_000_000) ?? Catalog.defaultMaxPixels
    }

    /// Writes an output file atomically, or to standard output for `-`.
    static func write(_ bytes: [UInt8], to path: String) throws(CLIError) {
        if path == "-" {
            guard Streams.write(1, bytes) else {
                throw .failed(code: "io_error", message: "cannot write to standard output")
            }
            return
        }
        do {
            try FileIO.writeAtomically(bytes, to: path)
        } catch {
            if case .failed(let message) = error { throw .failed(code: "io_error", message: message) }
            throw .failed(code: "io_error", message: "cannot write \(path)")
        }
    }
}
