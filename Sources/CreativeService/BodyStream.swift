import CMicroHTTPD

/// A response body made as libmicrohttpd sends it, block by block, from parts already in memory:
/// no copy of the whole body is made. Its size is known before the first byte (Content-Length).
/// The parts stay in memory until libmicrohttpd frees the response (its last byte sent, or the
/// connection closed): `hold` keeps them charged against the process-wide budget until then.
final class BodyStream: Sendable {
    /// The parts, in order; each is sent as it is.
    let parts: [[UInt8]]
    /// Where each part starts in the body.
    private let starts: [Int]
    /// The body's size in bytes.
    let size: Int
    /// The budget's bytes the parts are charged, given back when the stream is freed.
    let hold: BudgetHold?

    /// The body of `parts`; `hold(size)` charges them (nil: not charged).
    init(parts: [[UInt8]], hold: (Int) -> BudgetHold? = { _ in nil }) {
        self.parts = parts
        var starts: [Int] = [], offset = 0
        for part in parts {
            starts.append(offset)
            offset += part.count
        }
        self.starts = starts
        size = offset
        self.hold = hold(offset)
    }

    /// Copies up to `count` bytes of the body from `position` into `buffer`; the number copied
    /// (0 only at the end).
    func read(at position: Int, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        guard position < size, count > 0 else { return 0 }
        // The last part starting at or before the position.
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        var copied = 0, index = low, offset = position - starts[low]
        while copied < count, index < parts.count {
            let part = parts[index]
            let take = min(count - copied, part.count - offset)
            if take > 0 {
                part.withUnsafeBytes { source in
                    (buffer + copied).copyMemory(from: source.baseAddress! + offset, byteCount: take)
                }
                copied += take
            }
            index += 1
            offset = 0
        }
        return copied
    }
}

/// A libmicrohttpd response that pulls its body from `stream` (retained until MHD frees it: then
/// its parts, and its hold on the budget, are let go).
func streamedResponse(_ stream: BodyStream) -> OpaquePointer? {
    let context = Unmanaged.passRetained(stream).toOpaque()
    let response = MHD_create_response_from_callback(UInt64(stream.size), 64 * 1024, { context, position, buffer, count in
        guard let context, let buffer else { return -2 }
        let stream = Unmanaged<BodyStream>.fromOpaque(context).takeUnretainedValue()
        let copied = stream.read(at: Int(position), into: UnsafeMutableRawPointer(buffer), count: count)
        // -1: the end of the body (MHD_CONTENT_READER_END_OF_STREAM).
        return copied > 0 ? copied : -1
    }, context, { context in
        if let context { Unmanaged<BodyStream>.fromOpaque(context).release() }
    })
    if response == nil { Unmanaged<BodyStream>.fromOpaque(context).release() }
    return response
}
