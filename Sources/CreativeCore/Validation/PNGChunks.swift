/// A walk over a PNG's chunks that checks every CRC, without decompressing anything.
///
/// libvips (through libpng) reports a bad chunk CRC only as a warning, and for IDAT only after
/// the last row, which can come after the pixels were taken; renders therefore walk the chunks
/// first. The validator goes further and decodes the whole stream with libpng.
public enum PNGChunks {
    /// The first problem found: a chunk running past the end, a bad CRC, a missing IEND or
    /// data after it. Nil when every chunk is whole and its CRC right.
    public static func damage(_ bytes: [UInt8]) -> String? {
        walk(bytes, checkingCRC: true)
    }

    /// The first chunk (up to IEND) whose declared length runs past the end of the bytes,
    /// described, or nil: only lengths are read. libpng allocates a chunk's declared length
    /// before reading it, so this runs before libpng sees the file.
    public static func overrun(_ bytes: [UInt8]) -> String? {
        walk(bytes, checkingCRC: false)
    }

    /// The chunks a decoder needs (docs/cost-model.md: never inflate what is not used).
    /// Critical chunks and the ancillary ones that change pixels or their meaning stay;
    /// text (`tEXt`, `zTXt`, `iTXt`) and every other ancillary chunk are dropped, so neither
    /// libpng nor libvips inflates or stores them.
    public static let decodedChunks: Set<String> = ["IHDR", "PLTE", "IDAT", "IEND", "tRNS", "gAMA", "cHRM",
                                                     "sRGB", "iCCP", "sBIT", "bKGD", "pHYs", "eXIf"]
    /// The text chunks whose presence the validator reports as `metadata_dropped`.
    public static let textChunks: Set<String> = ["tEXt", "zTXt", "iTXt"]

    /// What ``decoderCopy(_:dropping:)`` made.
    public struct DecoderCopy: Sendable {
        /// The PNG to hand to a decoder.
        public let bytes: [UInt8]
        /// The names of the chunks left out, once each, in file order.
        public let dropped: [String]
    }

    /// The bytes with only the chunks a decoder needs (``decodedChunks``, and any unknown
    /// critical chunk, which decoders must refuse), minus the chunks named in `dropping`. Chunks
    /// are copied whole, CRC included; whatever follows IEND or cannot be walked is kept as it
    /// is, so damage still reaches the decoder. No chunk is decompressed.
    public static func decoderCopy(_ bytes: [UInt8], dropping: Set<String> = []) -> DecoderCopy {
        guard bytes.count >= 8 else { return DecoderCopy(bytes: bytes, dropped: []) }
        let walked = chunks(bytes)
        func kept(_ chunk: Chunk) -> Bool {
            let critical = chunk.name.first.map { $0.isUppercase } ?? true
            return (decodedChunks.contains(chunk.name) || critical) && !dropping.contains(chunk.name)
        }
        var dropped: [String] = []
        for chunk in walked where !kept(chunk) && !dropped.contains(chunk.name) {
            dropped.append(chunk.name)
        }
        // Nothing left out (the common case): the bytes themselves, not a copy.
        guard !dropped.isEmpty else { return DecoderCopy(bytes: bytes, dropped: []) }
        var copy = Array(bytes[0..<8])
        copy.reserveCapacity(bytes.count)
        for chunk in walked where kept(chunk) {
            copy += bytes[chunk.range]
        }
        copy += bytes[(walked.last?.range.upperBound ?? 8)...]
        return DecoderCopy(bytes: copy, dropped: dropped)
    }

    /// One whole chunk: its name, its bytes from the length field to the CRC, and its data.
    public struct Chunk: Sendable {
        public let name: String
        public let range: Range<Int>
        public let data: Range<Int>
    }

    /// The whole chunks from the signature up to and including IEND, in order; the walk stops
    /// at a chunk that runs past the end.
    public static func chunks(_ bytes: [UInt8]) -> [Chunk] {
        var found: [Chunk] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard length <= bytes.count - offset - 12 else { break }
            let name = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            found.append(Chunk(name: name, range: offset..<offset + 12 + length, data: offset + 8..<offset + 8 + length))
            offset += 12 + length
            if name == "IEND" { break }
        }
        return found
    }

    private static func walk(_ bytes: [UInt8], checkingCRC: Bool) -> String? {
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let typeRange = offset + 4..<offset + 8
            let name = String(decoding: bytes[typeRange], as: UTF8.self)
            guard length <= bytes.count - offset - 12 else {
                return "the \(name) chunk claims \(length) bytes, past the end of the file"
            }
            let stored = bytes[offset + 8 + length..<offset + 12 + length].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard !checkingCRC || CRC32.checksum(bytes[offset + 4..<offset + 8 + length]) == stored else {
                return "\(name): CRC error"
            }
            offset += 12 + length
            if name == "IEND" {
                return offset == bytes.count || !checkingCRC ? nil : "data after IEND"
            }
        }
        return checkingCRC ? "truncated: the file ends before IEND" : nil
    }
}
