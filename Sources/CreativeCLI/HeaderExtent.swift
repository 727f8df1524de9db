import CreativeCore

/// Whether the first bytes of a file hold its whole header, as libvips reads it for the size
/// and the EXIF orientation, so a candidate's displayed size can be known without the rest.
enum HeaderExtent {
    /// How much of each candidate is read for its header.
    static let probeBytes = 256 * 1024

    /// The EXIF orientation libvips would read, when `head` holds everything it reads for it;
    /// nil when the header may reach past `head` (the caller then reads the whole file).
    /// PNG: the chunks before the first IDAT (an `eXIf` there is left to libvips). JPEG: the
    /// segments up to the first scan. WebP: no `EXIF` chunk announced (it sits at the end). GIF: 1.
    static func orientation(_ head: [UInt8], format: ImageFormat) -> Int? {
        switch format {
        case .gif: return 1
        case .webp:
            let extended = head.count > 20 && Array(head[12..<16]) == Array("VP8X".utf8)
            return extended && head[20] & 0x08 != 0 ? nil : 1
        case .png: return pngHeaderEnd(head) ? 1 : nil
        case .jpeg: return jpegHeaderEnd(head) ? HeaderProbe.orientation(head, format: .jpeg) : nil
        }
    }

    /// True when the chunks up to the first IDAT are in `head` and none of them is `eXIf`.
    private static func pngHeaderEnd(_ head: [UInt8]) -> Bool {
        var offset = 8
        while offset + 8 <= head.count {
            let length = head[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: head[offset + 4..<offset + 8], as: UTF8.self)
            if type == "IDAT" { return true }
            if type == "eXIf" { return false }
            offset += 12 + length
        }
        return false
    }

    /// True when the segments up to the first start of scan are in `head`.
    private static func jpegHeaderEnd(_ head: [UInt8]) -> Bool {
        var offset = 2
        while offset + 4 <= head.count {
            guard head[offset] == 0xFF else { return false }
            let marker = head[offset + 1]
            if marker == 0xFF { offset += 1; continue }
            if marker == 0xDA { return true }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }
            offset += 2 + (Int(head[offset + 2]) << 8 | Int(head[offset + 3]))
        }
        return false
    }
}
