/// Compact zlib streams of zeros, for decompression bombs and large images made in microseconds.
extension Fixtures {
    // MARK: zlib streams of zeros

    /// A zlib stream that inflates to `prefix` then `zeros` zero bytes: a stored block for the
    /// prefix, then one dynamic-Huffman block of a literal 0 and length-258 copies at distance 1,
    /// two bits each (about 1030:1, what zlib -9 reaches on zeros).
    public static func zlibZeros(_ zeros: Int, prefix: [UInt8] = []) -> [UInt8] {
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

    /// A valid PNG of `width` x `height` whose rows are all zeros (filter 0), however large: its
    /// IDAT is ``zlibZeros(_:prefix:)``. `colourType` 0 (grey), 2 (RGB), 4 (grey and alpha) or 6 (RGBA).
    public static func zeroPNG(width: Int, height: Int, depth: UInt8 = 8, colourType: UInt8 = 6, interlaced: Bool = false) -> [UInt8] {
        let bands = [0: 1, 2: 3, 4: 2, 6: 4][Int(colourType)] ?? 4
        let bits = bands * Int(depth)
        var raw = 0
        if interlaced {
            for (x0, y0, dx, dy) in [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)] {
                let columns = (width - x0 + dx - 1) / dx, rows = (height - y0 + dy - 1) / dy
                if columns > 0 && rows > 0 { raw += rows * (1 + (columns * bits + 7) / 8) }
            }
        } else {
            raw = height * (1 + (width * bits + 7) / 8)
        }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + pngChunk("IHDR", be32(width) + be32(height) + [depth, colourType, 0, 0, interlaced ? 1 : 0])
            + pngChunk("IDAT", zlibZeros(raw)) + pngChunk("IEND", [])
    }
}

/// Bits packed the way deflate packs them: fields from their low bit, Huffman codes from their high bit.
public struct BitWriter {
    public var bytes: [UInt8] = []

    public init() {}
    private var current: UInt8 = 0
    private var used = 0

    public mutating func write(_ value: Int, count: Int) {
        for index in 0..<count { push(value >> index & 1) }
    }

    public mutating func writeCode(_ code: Int, count: Int) {
        for index in stride(from: count - 1, through: 0, by: -1) { push(code >> index & 1) }
    }

    /// Many zero bits at once (whole zero bytes in the middle).
    public mutating func writeZeroBits(_ count: Int) {
        var left = count
        while left > 0 && used > 0 { push(0); left -= 1 }
        bytes += [UInt8](repeating: 0, count: left / 8)
        for _ in 0..<left % 8 { push(0) }
    }

    public mutating func alignToByte() {
        if used > 0 { bytes.append(current); current = 0; used = 0 }
    }

    private mutating func push(_ bit: Int) {
        current |= UInt8(bit) << used
        used += 1
        if used == 8 { alignToByte() }
    }
}
