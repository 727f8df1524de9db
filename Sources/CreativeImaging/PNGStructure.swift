import CPNGCheck

/// A strict structural check of a whole PNG through libpng: signature, IHDR, every chunk's
/// CRC (ancillary ones included), the complete IDAT stream, IEND, nothing after it.
/// libpng's setjmp/longjmp error handling stays inside the C function `cpng_check`.
public enum PNGStructure {
    /// What the check found.
    public struct Result: Sendable {
        /// The first error or warning text when the file is damaged; nil when sound.
        public let damage: String?
        /// Bits per sample from IHDR (0 when unreadable).
        public let bitDepth: Int
    }

    /// Reads the PNG completely (rows are read and dropped; nothing is kept).
    public static func check(_ bytes: [UInt8], maxPixels: Int) -> Result {
        var result = cpng_check_result()
        let sound = bytes.withUnsafeBufferPointer { buffer in
            cpng_check(buffer.baseAddress, buffer.count, UInt64(max(0, maxPixels)), &result) == 1
        }
        let message = withUnsafeBytes(of: result.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return Result(damage: sound ? nil : (message.isEmpty ? "libpng error" : message),
                      bitDepth: Int(result.bit_depth))
    }

    /// The IDAT zlib stream inflated into a small scratch buffer and its Adler-32 checked; the
    /// damage found, or nil. Costs an inflate, no unfiltering and no image memory.
    /// - Throws: ``ImagingError/timeout(seconds:)`` when the deadline passes first.
    public static func idatStreamDamage(_ bytes: [UInt8], deadline: Deadline? = nil) throws(ImagingError) -> String? {
        var message = [CChar](repeating: 0, count: 256)
        let outcome = bytes.withUnsafeBufferPointer { buffer in
            cpng_idat_stream_check(buffer.baseAddress, buffer.count, deadline?.endNanoseconds ?? 0, &message, message.count)
        }
        if outcome == 2, let deadline { throw .timeout(seconds: deadline.seconds) }
        return outcome == 1 ? nil : String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
