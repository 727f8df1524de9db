#if canImport(Glibc)
import Glibc
#endif

/// How much of one Redis reply is read: larger parts are not read at all, only their declared size.
public struct ReplyLimits: Sendable, Equatable {
    /// Bytes one bulk string may have.
    public var bulkBytes: Int
    /// Bytes all bulk strings of the reply may have together.
    public var totalBytes: Int
    /// Elements one array may have.
    public var elements: Int

    public init(bulkBytes: Int, totalBytes: Int, elements: Int) {
        self.bulkBytes = bulkBytes
        self.totalBytes = totalBytes
        self.elements = elements
    }

    /// No limit (replies the worker and `enqueue` write themselves).
    public static let none = ReplyLimits(bulkBytes: .max, totalBytes: .max, elements: .max)
}

/// Reads one RESP2 reply from a socket, in 16 KiB reads, within ``ReplyLimits``: a bulk string or
/// array over them is decided from its header (`$67108864`), before any of it is read, and
/// becomes ``RedisValue/overLimit(declared:isArray:)``; the reply ends there (its arrays hold the
/// elements read before), and the connection must be closed (the rest is still on the wire).
/// So a job entry's 64 MiB field costs the reader at most its limits and one read, never the
/// field (hiredis's own reader buffers a whole reply, and copies it into its reply objects).
struct RedisReplyReader {
    private let fd: Int32
    private let limits: ReplyLimits
    private var buffer: [UInt8] = []
    private var position = 0
    private var total = 0
    /// Set once a part over the limits was met: the reply stops there.
    private(set) var stopped = false

    init(fd: Int32, limits: ReplyLimits) {
        self.fd = fd
        self.limits = limits
    }

    /// Longest header line (`*N`, `$N`, `:N`) or status line (`+OK`, `-ERR ...`) read.
    static let maxLineBytes = 64 << 10

    enum Failure: Error {
        /// The socket closed, timed out or failed, or the reply broke the protocol.
        case broken(String)
    }

    /// The next reply.
    mutating func reply() throws(Failure) -> RedisValue {
        let line = try readLine()
        guard let kind = line.first else { throw .broken("empty reply line") }
        let rest = String(decoding: line.dropFirst(), as: UTF8.self)
        switch kind {
        case UInt8(ascii: "+"): return .string(Array(line.dropFirst()))
        case UInt8(ascii: "-"): return .error(rest)
        case UInt8(ascii: ":"):
            guard let number = Int(rest) else { throw .broken("bad integer '\(rest)'") }
            return .integer(number)
        case UInt8(ascii: "$"):
            guard let count = Int(rest), count >= -1 else { throw .broken("bad bulk length '\(rest)'") }
            if count == -1 { return .null }
            if count > limits.bulkBytes || count > limits.totalBytes - total {
                stopped = true
                return .overLimit(declared: count, isArray: false)
            }
            total += count
            let bytes = try readBytes(count)
            guard try readBytes(2) == [13, 10] else { throw .broken("bulk string not ended by CRLF") }
            return .string(bytes)
        case UInt8(ascii: "*"):
            guard let count = Int(rest), count >= -1 else { throw .broken("bad array length '\(rest)'") }
            if count == -1 { return .null }
            if count > limits.elements {
                stopped = true
                return .overLimit(declared: count, isArray: true)
            }
            var values: [RedisValue] = []
            values.reserveCapacity(count)
            for _ in 0..<count {
                values.append(try reply())
                if stopped { break }
            }
            return .array(values)
        default:
            throw .broken("unknown reply type '\(String(decoding: [kind], as: UTF8.self))'")
        }
    }

    private mutating func readLine() throws(Failure) -> ArraySlice<UInt8> {
        // Bytes of the line already searched for its end (the last one again: a CR before the LF).
        var searched = 0
        while true {
            var index = position + searched
            while let end = buffer[index...].firstIndex(of: 10) {
                if end > position && buffer[end - 1] == 13 {
                    let line = buffer[position..<(end - 1)]
                    position = end + 1
                    return line
                }
                index = end + 1
            }
            guard buffer.count - position <= Self.maxLineBytes else { throw .broken("a reply line over \(Self.maxLineBytes) bytes") }
            searched = max(0, buffer.count - position - 1)
            try fill()  // moves the unread bytes to the buffer's start: `searched` counts from `position`
        }
    }

    private mutating func readBytes(_ count: Int) throws(Failure) -> [UInt8] {
        while buffer.count - position < count { try fill() }
        let bytes = Array(buffer[position..<(position + count)])
        position += count
        return bytes
    }

    /// Reads up to 16 KiB more (the socket's receive timeout applies), dropping what was consumed.
    private mutating func fill() throws(Failure) {
        if position > 0 {
            buffer.removeFirst(position)
            position = 0
        }
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return
            }
            if count < 0 && errno == EINTR { continue }
            if count == 0 { throw .broken("connection closed") }
            throw .broken(errno == EAGAIN || errno == EWOULDBLOCK ? "timed out" : String(cString: strerror(errno)))
        }
    }
}
