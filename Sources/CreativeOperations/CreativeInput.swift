/// A creative as a surface got it, before any operation looks at it: its bytes, or why it does
/// not have them whole. The command line gets it from a file read with its limit, the worker from
/// a size-capped GET, the service from the request body (always whole: the body limit is checked
/// before reading). Every operation takes this one shape, so the report of a creative that could
/// not be read is made in one place (``ValidateOperation/report(_:name:limits:)``).
public enum CreativeInput: Sendable, Equatable {
    /// The whole file, object or body.
    case bytes([UInt8])
    /// Over the read limit: the size (for a stream, the bytes read before stopping) and the first
    /// bytes, enough to sniff the format and read the header.
    case tooLarge(size: Int, head: [UInt8])
    /// A folder, FIFO, device or socket, not a regular file: the reader's sentence.
    case notAFile(String)
    /// Missing or unreadable: the reader's sentence.
    case unreadable(String)
}
