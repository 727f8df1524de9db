import CPNGCheck
import CreativeCore

/// A strict structural check of a whole PNG through libpng: signature, IHDR, every chunk's
/// CRC (ancillary ones included), the complete IDAT stream, IEND, nothing after it.
/// libpng's setjmp/longjmp error handling stays inside the C function `cpng_check`. Also the
/// zlib-only checks: the IDAT stream's Adler-32, and the copy of a PNG decoders are given.
public enum PNGStructure {
    /// What the check found.
    public struct Result: Sendable {
        /// The first error or warning text when the file is damaged; nil when sound.
        public let damage: String?
        /// Bits per sample from IHDR (0 when unreadable).
        public let bitDepth: Int
        /// The decoded rows of a sound 8-bit RGB or RGBA PNG, or a palette PNG's indices and
        /// palette, when asked for.
        var pixels: PreflightPixels? = nil
    }

    /// Reads the PNG completely (rows are read and dropped; nothing is kept).
    public static func check(_ bytes: [UInt8], maxPixels: Int) -> Result {
        check(bytes, maxPixels: maxPixels, keeping: nil)
    }

    /// Reads the PNG completely and, when `keeping` is its size and it is 8-bit RGB or RGBA or a
    /// palette image (IHDR's depth and colour type), keeps its rows for the pre-flight checks: a
    /// palette image's as indices, one byte a pixel, with its palette. The check is the same.
    static func check(_ bytes: [UInt8], maxPixels: Int, keeping size: PixelSize?) -> Result {
        var result = cpng_check_result()
        // IHDR's data starts at byte 16: width, height, bit depth (24), colour type (25).
        let bands = bytes.count <= 25 ? 0 : bytes[25] == 3 ? 1 : bytes[24] != 8 ? 0 : bytes[25] == 2 ? 3 : bytes[25] == 6 ? 4 : 0
        let count = size != nil && bands > 0 ? (size?.area ?? 0) * bands : 0
        // libpng writes every byte of a buffer it keeps; on failure it is dropped.
        var pixels = [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        let sound = bytes.withUnsafeBufferPointer { buffer in
            pixels.withUnsafeMutableBufferPointer { kept in
                cpng_check_pixels(buffer.baseAddress, buffer.count, UInt64(max(0, maxPixels)),
                                  kept.isEmpty ? nil : kept.baseAddress, kept.count, &result) == 1
            }
        }
        let message = withUnsafeBytes(of: result.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        var kept: PreflightPixels?
        if sound && result.kept == 1, let size {
            kept = bands == 1
                ? PreflightPixels(width: size.width, height: size.height, indices: pixels,
                                  palette: withUnsafeBytes(of: result.palette) { Array($0) })
                : PreflightPixels(width: size.width, height: size.height, bands: bands, rgba: pixels)
        }
        return Result(damage: sound ? nil : (message.isEmpty ? "libpng error" : message),
                      bitDepth: Int(result.bit_depth), pixels: kept)
    }

    /// libpng's strict read of the chunks before the image data (``check(_:maxPixels:)``'s first
    /// step, with its settings): a damaged colour profile (an `iCCP` that does not inflate or is
    /// no ICC profile), PLTE, tRNS, sRGB, cHRM, gAMA. The damage found, or nil. Costs those
    /// chunks only: no row is read.
    public static func headerDamage(_ bytes: [UInt8]) -> String? {
        var result = cpng_check_result()
        let sound = bytes.withUnsafeBufferPointer { buffer in
            cpng_header_check(buffer.baseAddress, buffer.count, &result) == 1
        }
        guard !sound else { return nil }
        let message = withUnsafeBytes(of: result.message) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
        return message.isEmpty ? "libpng error" : message
    }

    /// The IDAT zlib stream inflated into a small scratch buffer and checked as libpng's strict
    /// read checks it: its Adler-32, the size it inflates to (what IHDR's image needs, no more
    /// and no less), no compressed data after its end. The damage found, or nil. Costs an
    /// inflate, no unfiltering and no image memory.
    /// - Throws: ``ImagingError/timeout(seconds:)`` when the deadline passes first,
    ///   ``ImagingError/cancelled(_:)`` when the deadline's cancellation is raised.
    public static func idatStreamDamage(_ bytes: [UInt8], deadline: Deadline? = nil) throws(ImagingError) -> String? {
        var message = [CChar](repeating: 0, count: 256)
        let outcome = bytes.withUnsafeBufferPointer { buffer in
            cpng_idat_stream_check(buffer.baseAddress, buffer.count, deadline?.endNanoseconds ?? 0,
                                   deadline?.cancellation?.flag, &message, message.count)
        }
        if outcome == 2, let deadline { throw deadline.expiry }
        return outcome == 1 ? nil : String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Largest colour profile an `iCCP` chunk may declare: 1 MiB (sRGB's is 3 KB; decoders
    /// allocate the declared size, up to 50 MB in libvips, and inflate into it).
    public static let maxPNGProfileBytes = 1 << 20

    /// The PNG a decoder is given (``PNGChunks/decoderCopy(_:dropping:)``, and without an
    /// over-large `iCCP`), and sentences naming what was left out that the user could miss.
    public static func decoderCopy(_ bytes: [UInt8]) -> ([UInt8], [String]) {
        var dropping: Set<String> = []
        var notes: [String] = []
        if let profile = PNGChunks.chunks(bytes).first(where: { $0.name == "iCCP" }) {
            let declared = bytes[profile.data].withUnsafeBufferPointer { buffer in
                cpng_iccp_profile_size(buffer.baseAddress, buffer.count)
            }
            if declared > Int64(maxPNGProfileBytes) {
                dropping.insert("iCCP")
                notes.append("the colour profile claims \(declared) bytes, over the cap of \(maxPNGProfileBytes); "
                             + "it was ignored and the image is taken as sRGB")
            }
        }
        let copy = PNGChunks.decoderCopy(bytes, dropping: dropping)
        let text = copy.dropped.filter(PNGChunks.textChunks.contains)
        if !text.isEmpty {
            notes.append("text chunks (\(text.joined(separator: ", "))) were ignored, not decompressed or kept")
        }
        return (copy.bytes, notes)
    }
}
