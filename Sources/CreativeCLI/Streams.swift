#if canImport(Glibc)
import Glibc
#endif

/// Writes to standard output and standard error without buffering surprises.
public enum Streams {
    /// Writes text to standard output.
    public static func out(_ text: String) { write(1, Array(text.utf8)) }
    /// Writes a line to standard output.
    public static func outLine(_ text: String) { out(text + "\n") }
    /// Writes a line to standard error.
    public static func errLine(_ text: String) { write(2, Array((text + "\n").utf8)) }

    /// Writes bytes to a descriptor, retrying partial writes.
    /// - Returns: false when the descriptor refuses them (a closed pipe).
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
