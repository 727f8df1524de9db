/// Names as the system hands them over (command-line arguments, paths): bytes that need not be
/// UTF-8, carried in a `String` without loss.
///
/// Valid UTF-8 decodes as usual. Every byte that is not part of valid UTF-8 becomes one scalar
/// of a private-use range, U+10FF80 + (byte - 0x80); `bytes(_:)` turns it back into that byte,
/// so a name like `lat\xe9.png` (Latin-1) opens the file it names. A name whose UTF-8 happens to
/// spell a scalar of that range is carried byte by byte too, so the round trip is always exact.
/// Output shows such bytes as `\xNN` (``TextFormat/escaped(_:)``, and JSON strings).
public enum PathBytes {
    private static let first: UInt32 = 0x10FF80

    /// The byte a carried scalar stands for, or nil for any other scalar.
    public static func rawByte(_ scalar: Unicode.Scalar) -> UInt8? {
        scalar.value >= first ? UInt8(scalar.value - first + 0x80) : nil
    }

    /// Bytes as text: UTF-8 where they are UTF-8, carried scalars for the rest.
    public static func string<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String where Bytes.Index == Int {
        var scalars = String.UnicodeScalarView()
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if let (scalar, length) = decode(bytes, at: index), rawByte(scalar) == nil {
                scalars.append(scalar)
                index += length
            } else {
                let byte = bytes[index]
                scalars.append(Unicode.Scalar(first + UInt32(max(byte, 0x80)) - 0x80) ?? "\u{FFFD}")
                index += 1
            }
        }
        return String(scalars)
    }

    /// A NUL-terminated C string (an argument, a path from the system) as text.
    public static func string(cString: UnsafePointer<CChar>) -> String {
        var length = 0
        while cString[length] != 0 { length += 1 }
        return UnsafeRawPointer(cString).withMemoryRebound(to: UInt8.self, capacity: length) { start in
            string(UnsafeBufferPointer(start: start, count: length))
        }
    }

    /// The bytes a text stands for: its UTF-8, with each carried scalar as its byte.
    public static func bytes(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let byte = rawByte(scalar) { out.append(byte) } else { out.append(contentsOf: String(scalar).utf8) }
        }
        return out
    }

    /// The offset of the first byte that does not begin a well-formed UTF-8 sequence (a stray,
    /// truncated, overlong or surrogate sequence), or nil when all of `bytes` is UTF-8.
    public static func firstInvalidUTF8<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int? where Bytes.Index == Int {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard let (_, length) = decode(bytes, at: index) else { return index - bytes.startIndex }
            index += length
        }
        return nil
    }

    /// The scalar of one well-formed UTF-8 sequence at `index` and its length, or nil (a stray,
    /// truncated, overlong or surrogate sequence).
    private static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes, at index: Int) -> (Unicode.Scalar, Int)?
        where Bytes.Index == Int {
        let lead = bytes[index]
        let length: Int, initial: UInt32, minimum: UInt32
        switch lead {
        case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF: (length, initial, minimum) = (2, UInt32(lead & 0x1F), 0x80)
        case 0xE0...0xEF: (length, initial, minimum) = (3, UInt32(lead & 0x0F), 0x800)
        case 0xF0...0xF4: (length, initial, minimum) = (4, UInt32(lead & 0x07), 0x10000)
        default: return nil
        }
        guard index + length <= bytes.endIndex else { return nil }
        var value = initial
        for offset in 1..<length {
            let next = bytes[index + offset]
            guard next & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(next & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
