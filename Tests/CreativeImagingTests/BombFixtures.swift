import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging

/// Decompression and CPU bombs, made byte by byte in a few milliseconds: headers of small real
/// files patched to claim 7000x7000, and zlib streams of zeros written as deflate blocks.
extension Fixtures {
    static let bombSize = PixelSize(width: 7000, height: 7000)

    // MARK: Headers patched to a size

    /// A PNG whose IHDR claims `size` (CRC made right); the pixel data stays the small file's.
    static func claiming(_ size: PixelSize, png: [UInt8]) -> [UInt8] {
        let header = pngChunk(png, "IHDR")
        var copy = png
        copy.replaceSubrange(header.dataStart..<header.dataStart + 8, with: be32(size.width) + be32(size.height))
        let body = Array(copy[header.start + 4..<header.crcStart])
        copy.replaceSubrange(header.crcStart..<header.end, with: be32(Int(crc32(body))))
        return copy
    }

    /// A JPEG whose start-of-frame claims `size`.
    static func claiming(_ size: PixelSize, jpeg: [UInt8]) -> [UInt8] {
        var copy = jpeg
        var offset = 2
        while offset + 9 < copy.count, copy[offset] == 0xFF {
            let marker = copy[offset + 1]
            let length = Int(copy[offset + 2]) << 8 | Int(copy[offset + 3])
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                copy.replaceSubrange(offset + 5..<offset + 9, with: be16(size.height) + be16(size.width))
                return copy
            }
            offset += 2 + length
        }
        preconditionFailure("no start of frame")
    }

    /// A lossless WebP whose VP8L header (and VP8X canvas, when there is one) claims `size`;
    /// the alpha and version bits are kept.
    static func claiming(_ size: PixelSize, losslessWebP webp: [UInt8]) -> [UInt8] {
        var copy = webp
        var offset = 12
        while offset + 8 <= copy.count {
            let name = String(decoding: copy[offset..<offset + 4], as: UTF8.self)
            let length = copy[offset + 4..<offset + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
            if name == "VP8X" {
                copy.replaceSubrange(offset + 12..<offset + 18, with: le24(size.width - 1) + le24(size.height - 1))
            } else if name == "VP8L" {
                let header = offset + 9
                let old = copy[header..<header + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
                let bits = (old & ~0x0FFF_FFFF) | (size.width - 1) | (size.height - 1) << 14
                copy.replaceSubrange(header..<header + 4, with: le32(bits))
                return copy
            }
            offset += 8 + length + (length & 1)
        }
        preconditionFailure("no VP8L chunk")
    }

    /// A JPEG with its last scan (SOS segment and entropy-coded data) repeated until it has `scans`.
    static func withScans(_ scans: Int, jpeg: [UInt8]) -> [UInt8] {
        var starts: [Int] = []
        var offset = 2
        while offset + 3 < jpeg.count {
            guard jpeg[offset] == 0xFF else { offset += 1; continue }
            let marker = jpeg[offset + 1]
            if marker == 0xD9 { break }
            if marker == 0x00 || marker == 0xFF || (0xD0...0xD7).contains(marker) { offset += 2; continue }
            if marker == 0xDA { starts.append(offset) }
            offset += 2 + (Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3]))
        }
        guard let last = starts.last, let end = jpeg.lastIndex(of: 0xD9).map({ $0 - 1 }), scans >= starts.count else {
            preconditionFailure("no scan to repeat")
        }
        let scan = Array(jpeg[last..<end])
        return Array(jpeg[..<end]) + Array([[UInt8]](repeating: scan, count: scans - starts.count).joined())
            + [0xFF, 0xD9]
    }

    // MARK: zlib streams of zeros

    /// A zlib stream that inflates to `prefix` then `zeros` zero bytes: a stored block for the
    /// prefix, then one dynamic-Huffman block of a literal 0 and length-258 copies at distance 1,
    /// two bits each (about 1030:1, what zlib -9 reaches on zeros).
    static func zlibZeros(_ zeros: Int, prefix: [UInt8] = []) -> [UInt8] {
        var bits = BitWriter()
        if !prefix.isEmpty {
            bits.write(0, count: 1)  // not final
            bits.write(0, count: 2)  // stored
            bits.alignToByte()
            bits.bytes += le16(prefix.count) + le16(prefix.count ^ 0xFFFF) + prefix
        }
        bits.write(1, count: 1)  // final
        bits.write(2, count: 2)  // dynamic Huffman
        bits.write(29, count: 5)  // HLIT: 286 literal/length codes
        bits.write(0, count: 5)  // HDIST: 1 distance code
        bits.write(14, count: 4)  // HCLEN: 18 code-length codes
        // Code-length code lengths in the format's order 16,17,18,0,8,7,9,6,10,5,11,4,12,3,13,2,14,1:
        // 18 (a run of zeros) gets 1 bit, lengths 1 and 2 get 2 bits each.
        for length in [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2] { bits.write(length, count: 3) }
        // Canonical codes: 18 -> 0, 1 -> 10, 2 -> 11.
        func lengthTwo() { bits.writeCode(0b11, count: 2) }
        func lengthOne() { bits.writeCode(0b10, count: 2) }
        func zeroRun(_ run: Int) { bits.writeCode(0, count: 1); bits.write(run - 11, count: 7) }
        // Literal/length lengths: 0 -> 2, 1...255 -> none, 256 -> 2, 257...284 -> none, 285 -> 1.
        lengthTwo(); zeroRun(138); zeroRun(117); lengthTwo(); zeroRun(28); lengthOne()
        lengthOne()  // the one distance code (distance 1): 1 bit
        // Codes: 285 -> 0, literal 0 -> 10, end of block -> 11; distance 1 -> 0.
        var left = zeros
        if left > 0 { bits.writeCode(0b10, count: 2); left -= 1 }
        bits.writeZeroBits(left / 258 * 2)  // each copy is code 0 then distance code 0
        left %= 258
        for _ in 0..<left { bits.writeCode(0b10, count: 2) }
        bits.writeCode(0b11, count: 2)
        bits.alignToByte()
        // Adler-32: over the prefix, then zeros leave `a` alone and add it to `b` each time.
        var a = 1, b = 0
        for byte in prefix { a = (a + Int(byte)) % 65521; b = (b + a) % 65521 }
        b = (b + a * (zeros % 65521)) % 65521
        return [0x78, 0xDA] + bits.bytes + be32(b << 16 | a)
    }

    /// A `zTXt` chunk whose text inflates to `size` zero bytes.
    static func zTXtBomb(inflating size: Int) -> [UInt8] {
        pngChunk("zTXt", Array("Comment".utf8) + [0, 0] + zlibZeros(size))
    }

    /// An `iCCP` chunk whose profile declares `declared` bytes (and inflates to that many).
    static func iCCPClaiming(_ declared: Int) -> [UInt8] {
        pngChunk("iCCP", Array("huge".utf8) + [0, 0] + zlibZeros(declared - 4, prefix: be32(declared)))
    }
}

/// Bits packed the way deflate packs them: fields from their low bit, Huffman codes from their high bit.
struct BitWriter {
    var bytes: [UInt8] = []
    private var current: UInt8 = 0
    private var used = 0

    mutating func write(_ value: Int, count: Int) {
        for index in 0..<count { push(value >> index & 1) }
    }

    mutating func writeCode(_ code: Int, count: Int) {
        for index in stride(from: count - 1, through: 0, by: -1) { push(code >> index & 1) }
    }

    /// Many zero bits at once (whole zero bytes in the middle).
    mutating func writeZeroBits(_ count: Int) {
        var left = count
        while left > 0 && used > 0 { push(0); left -= 1 }
        bytes += [UInt8](repeating: 0, count: left / 8)
        for _ in 0..<left % 8 { push(0) }
    }

    mutating func alignToByte() {
        if used > 0 { bytes.append(current); current = 0; used = 0 }
    }

    private mutating func push(_ bit: Int) {
        current |= UInt8(bit) << used
        used += 1
        if used == 8 { alignToByte() }
    }
}
