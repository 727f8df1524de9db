/// The quality a JPEG was saved at, estimated from its luminance quantisation table (DQT, table 0):
/// libjpeg and most encoders scale the IJG standard table by the quality, so the table's sum over
/// the standard's gives the scale back (quality q < 50 scales by 5000 / q percent, else by
/// 200 - 2q). `fix` keeps a JPEG's quality with it (``estimate(_:)``): a near-miss JPEG saved at
/// quality 80 is not re-encoded at 92, which made it heavier than it came.
public enum JPEGQuality {
    /// The IJG standard luminance table (JPEG Annex K), summed: the order of its 64 entries does
    /// not matter to a sum, so a table read in zig-zag order compares as it is.
    static let standardLuminance = [
        16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
        14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
        18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
        49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
    ]

    /// The estimated quality, 1 to 100; nil when the file has no readable luminance table.
    public static func estimate(_ bytes: [UInt8]) -> Int? {
        guard let table = luminanceTable(bytes), table.count == 64 else { return nil }
        // Quality 100 makes every entry 1, which the sum cannot tell from 99.
        if table.allSatisfy({ $0 == 1 }) { return 100 }
        let scale = Double(table.reduce(0, +)) * 100 / Double(standardLuminance.reduce(0, +))
        let quality = scale <= 100 ? (200 - scale) / 2 : 5000 / scale
        return min(100, max(1, Int(quality.rounded())))
    }

    /// Table 0 of the first DQT segment that holds it, as 64 values (8- or 16-bit), or nil.
    static func luminanceTable(_ bytes: [UInt8]) -> [Int]? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }
            // Tables come before the first scan: stop there (or at an image's end).
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { return nil }
            if marker == 0xDB {
                var cursor = offset + 4
                while cursor < offset + 2 + length {
                    let wide = bytes[cursor] >> 4 != 0, id = bytes[cursor] & 0x0F
                    let size = wide ? 128 : 64
                    guard cursor + 1 + size <= offset + 2 + length else { return nil }
                    let values = (0..<64).map { index in
                        wide ? Int(bytes[cursor + 1 + 2 * index]) << 8 | Int(bytes[cursor + 2 + 2 * index])
                            : Int(bytes[cursor + 1 + index])
                    }
                    if id == 0 { return values }
                    cursor += 1 + size
                }
            }
            offset += 2 + length
        }
        return nil
    }
}
