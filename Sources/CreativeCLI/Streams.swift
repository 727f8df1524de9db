import CreativeCore
#if canImport(Glibc)
import Glibc
#endif

/// Writes to standard output and standard error without buffering surprises.
///
/// Every write to standard output is checked: a full disk (`> /dev/full`), a closed pipe or any
/// other refusal stops the command with `io_error` and exit 74, never a silent success.
public enum Streams {
    /// Writes text to standard output as it is (JSON, documents, prompts).
    /// - Throws: ``CLIError/failed(code:message:)`` with `io_error` when the write fails.
    public static func out(_ text: String) throws(CLIError) { try outBytes(Array(text.utf8)) }

    /// Writes a line to standard output as it is (a JSON object per line).
    public static func outLine(_ text: String) throws(CLIError) { try out(text + "\n") }

    /// Writes one JSON document on a line: `value` with `schema_version` and `tool_version` first
    /// (``JSONContract/document(_:)``), as every `--json` output is published.
    public static func outJSON(_ value: JSONValue) throws(CLIError) {
        try outLine(JSONContract.document(value).serialized())
    }

    /// Writes one line of human text to standard output, escaped (``TextFormat/escaped(_:)``):
    /// a name in it cannot forge another line or reach the terminal as a control sequence.
    public static func outEscaped(_ line: String) throws(CLIError) { try out(TextFormat.escaped(line) + "\n") }

    /// Writes bytes to standard output (an image for `--output -`).
    public static func outBytes(_ bytes: [UInt8]) throws(CLIError) {
        guard write(1, bytes) else {
            throw .failed(code: "io_error", message: "cannot write to standard output: \(String(cString: strerror(errno)))")
        }
    }

    /// Writes a line to standard error as it is (usage text). Messages with caller text in them
    /// go through ``errEscaped(_:)``.
    public static func errLine(_ text: String) { write(2, Array((text + "\n").utf8)) }

    /// Writes one line to standard error, escaped like ``outEscaped(_:)``.
    public static func errEscaped(_ line: String) { errLine(TextFormat.escaped(line)) }

    /// Writes bytes to a descriptor, retrying partial writes.
    /// - Returns: false when the descriptor refuses them (a closed pipe, a full disk); `errno` says why.
    @discardableResult
    public static func write(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress, buffer.count)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
