/// Reads an image's pixel dimensions straight from its header bytes, before any decoder sees it.
///
/// This is how a decompression bomb (a small file whose header claims a huge canvas) is refused
/// without allocating anything: PNG IHDR, GIF logical screen, WebP VP8/VP8L/VP8X, JPEG SOFn.
/// Returns nil when the header is too short or malformed; the decoder then has the last word.
public enum HeaderProbe {
    /// Stored width and height (before EXIF orientation), or nil.
    public static func dimensions(_ bytes: [UInt8], format: ImageFormat) -> PixelSize? {
        switch format {
        case .png: png(bytes)
        case .gif: gif(bytes)
        case .webp: webp(bytes)
        case .jpeg: jpeg(bytes)
        }
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int? {
        guard offset >= 0, offset + count <= bytes.count else { return nil }
        return bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func littleEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int? {
        guard offset >= 0, offset + count <= bytes.count else { return nil }
        return bytes[offset..<offset + count].reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    private static func png(_ bytes: [UInt8]) -> PixelSize? {
        guard bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8),
              let width = bigEndian(bytes, 16, 4), let height = bigEndian(bytes, 20, 4) else { return nil }
        return PixelSize(width: width, height: height)
    }

    private static func gif(_ bytes: [UInt8]) -> PixelSize? {
        guard let width = littleEndian(bytes, 6, 2), let height = littleEndian(bytes, 8, 2) else { return nil }
        return PixelSize(width: width, height: height)
    }

    private static func webp(_ bytes: [UInt8]) -> PixelSize? {
        guard bytes.count >= 30 else { return nil }
        switch String(decoding: bytes[12..<16], as: UTF8.self) {
        case "VP8 ":
            guard let width = littleEndian(bytes, 26, 2), let height = littleEndian(bytes, 28, 2) else { return nil }
            return PixelSize(width: width & 0x3FFF, height: height & 0x3FFF)
        case "VP8L":
            guard bytes[20] == 0x2F, let bits = littleEndian(bytes, 21, 4) else { return nil }
            return PixelSize(width: (bits & 0x3FFF) + 1, height: (bits >> 14 & 0x3FFF) + 1)
        case "VP8X":
            guard let width = littleEndian(bytes, 24, 3), let height = littleEndian(bytes, 27, 3) else { return nil }
            return PixelSize(width: width + 1, height: height + 1)
        default:
            return nil
        }
    }

    private static func jpeg(_ bytes: [UInt8]) -> PixelSize? {
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }
            guard let length = bigEndian(bytes, offset + 2, 2), length >= 2 else { return nil }
            let isStartOfFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isStartOfFrame {
                guard let height = bigEndian(bytes, offset + 5, 2), let width = bigEndian(bytes, offset + 7, 2) else {
                    return nil
                }
                return PixelSize(width: width, height: height)
            }
            if marker == 0xDA || marker == 0xD9 { return nil }
            offset += 2 + length
        }
        return nil
    }
}
