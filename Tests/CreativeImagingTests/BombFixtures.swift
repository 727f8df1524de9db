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

    /// A `zTXt` chunk whose text inflates to `size` zero bytes.
    static func zTXtBomb(inflating size: Int) -> [UInt8] {
        pngChunk("zTXt", Array("Comment".utf8) + [0, 0] + zlibZeros(size))
    }

    /// An `iCCP` chunk whose profile declares `declared` bytes (and inflates to that many).
    static func iCCPClaiming(_ declared: Int) -> [UInt8] {
        pngChunk("iCCP", Array("huge".utf8) + [0, 0] + zlibZeros(declared - 4, prefix: be32(declared)))
    }
}
