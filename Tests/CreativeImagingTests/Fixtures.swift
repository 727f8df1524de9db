import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging

/// The imaging tests' builders: encoders with the tests' defaults, corpus helpers.
extension Fixtures {
    /// A PNG without metadata (see ``Fixtures/save(_:_:_:)``); `keepingProfile` keeps the ICC
    /// profile, and only that.
    static func png(_ image: VImage, _ options: [(String, VipsArgument)] = [],
                    keepingProfile: Bool = false) throws -> [UInt8] {
        try save("pngsave_buffer", image, (keepingProfile ? [keepProfile] : []) + options)
    }

    /// The saver option that keeps the ICC profile: `keep=icc` from libvips 8.15, which replaced
    /// `strip`; before that, `strip=false` (8.14 writes eXIf once, so keeping all is harmless).
    static var keepProfile: (String, VipsArgument) { keep("icc") }

    /// The saver option that keeps the EXIF block, as ``keepProfile`` keeps the profile.
    static var keepEXIF: (String, VipsArgument) { keep("exif") }

    /// `keep=WHAT` from libvips 8.15; `strip=false` (keep everything) before it.
    private static func keep(_ what: String) -> (String, VipsArgument) {
        let version = VipsRuntime.version.split(separator: ".").compactMap { Int($0) }
        return version.lexicographicallyPrecedes([8, 15]) ? ("strip", .bool(false)) : ("keep", .flags(what))
    }

    static func jpeg(_ image: VImage, _ options: [(String, VipsArgument)] = []) throws -> [UInt8] {
        try save("jpegsave_buffer", image, options)
    }

    static func gif(_ image: VImage) throws -> [UInt8] { try save("gifsave_buffer", image) }

    static func webp(_ image: VImage, _ options: [(String, VipsArgument)] = []) throws -> [UInt8] {
        try save("webpsave_buffer", image, options)
    }
}

// MARK: - Validation corpus helpers

/// Builders for the validation corpus: byte-level PNG surgery, hand-made headers, noise, animations.
extension Fixtures {
    /// Every accepted size, in catalog order.
    static var allowedSizes: [PixelSize] { Product.banner.entries.map(\.size) }

    /// An 8-bit greyscale version of an image.
    static func grey(_ image: VImage) throws -> VImage {
        try VipsOperation("colourspace").with("in", .image(image)).with("space", .enumeration("b-w")).image()
    }

    /// A 16-bit RGB version of an image.
    static func sixteenBit(_ image: VImage) throws -> VImage {
        try VipsOperation("colourspace").with("in", .image(image)).with("space", .enumeration("rgb16")).image()
    }

    /// An image in every accepted format: (format, file extension, bytes).
    static func allFormats(_ image: VImage) throws -> [(format: ImageFormat, ext: String, bytes: [UInt8])] {
        [(.png, "png", try png(image)), (.jpeg, "jpg", try jpeg(image)), (.gif, "gif", try gif(image)),
         (.webp, "webp", try webp(image))]
    }

    // MARK: Bytes

    /// A copy with one byte XORed.
    static func flipping(_ bytes: [UInt8], at offset: Int, mask: UInt8 = 0xFF) -> [UInt8] {
        var copy = bytes
        copy[offset] ^= mask
        return copy
    }

    // MARK: PNG surgery

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Where a chunk sits in a PNG file.
    struct ChunkSpan {
        let type: String
        /// Offset of the length field.
        let start: Int
        let length: Int
        var dataStart: Int { start + 8 }
        var crcStart: Int { start + 8 + length }
        var end: Int { start + 12 + length }
    }

    /// The chunks of a well-formed PNG, in file order.
    static func pngChunks(_ png: [UInt8]) -> [ChunkSpan] {
        var spans: [ChunkSpan] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
            spans.append(ChunkSpan(type: type, start: offset, length: length))
            offset += 12 + length
        }
        return spans
    }

    /// The first chunk of a type; fails the caller's expectations loudly when absent.
    static func pngChunk(_ png: [UInt8], _ type: String) -> ChunkSpan {
        guard let span = pngChunks(png).first(where: { $0.type == type }) else {
            preconditionFailure("no \(type) chunk")
        }
        return span
    }

    /// Inserts whole chunks before the first chunk of a type.
    static func inserting(_ chunks: [UInt8], before type: String, in png: [UInt8]) -> [UInt8] {
        let at = pngChunk(png, type).start
        return Array(png[..<at]) + chunks + Array(png[at...])
    }

    /// The size an encoded PNG's IHDR says (nil when it is not a PNG), read without decoding.
    static func pngSize(_ png: [UInt8]) -> PixelSize? {
        guard png.count >= 24, Array(png[12..<16]) == Array("IHDR".utf8) else { return nil }
        func be32(_ at: Int) -> Int { png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return PixelSize(width: be32(16), height: be32(20))
    }

    /// A PNG with a `tEXt` chunk (valid CRC) before IDAT.
    static func pngWithText(_ png: [UInt8]) -> [UInt8] {
        inserting(pngChunk("tEXt", Array("Comment\u{0}made in the tests".utf8)), before: "IDAT", in: png)
    }

    /// A well-formed two-frame APNG made from a still PNG: acTL and fcTL before IDAT (frame 0 is
    /// the default image), then a second fcTL and an fdAT carrying the same compressed pixels.
    static func apng(from png: [UInt8]) -> [UInt8] {
        let header = pngChunk(png, "IHDR")
        let width = Array(png[header.dataStart..<header.dataStart + 4])
        let height = Array(png[header.dataStart + 4..<header.dataStart + 8])
        let idat = pngChunks(png).filter { $0.type == "IDAT" }.flatMap { Array(png[$0.dataStart..<$0.crcStart]) }
        func frameControl(_ sequence: Int) -> [UInt8] {
            pngChunk("fcTL", be32(sequence) + width + height + be32(0) + be32(0) + be16(1) + be16(10) + [0, 0])
        }
        let actl = pngChunk("acTL", be32(2) + be32(0))
        var out = Array(png[..<header.end]) + actl + frameControl(0)
        out += pngChunk("IDAT", idat) + frameControl(1) + pngChunk("fdAT", be32(2) + idat)
        return out + pngChunk("IEND", [])
    }

    /// A PNG signature and an IHDR claiming a size (valid CRC), a tiny IDAT that is not the
    /// claimed image, and IEND: a decompression bomb's header.
    static func pngBomb(width: Int, height: Int) -> [UInt8] {
        pngSignature + pngChunk("IHDR", be32(width) + be32(height) + [8, 2, 0, 0, 0])
            + pngChunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + pngChunk("IEND", [])
    }

    /// A baseline JPEG start: SOI, a SOF0 claiming a size, then EOI; no tables, no scan.
    static func jpegBomb(width: Int, height: Int) -> [UInt8] {
        let components: [UInt8] = [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        return [0xFF, 0xD8, 0xFF, 0xC0] + be16(8 + components.count) + [8] + be16(height) + be16(width)
            + components + [0xFF, 0xD9]
    }

    /// A GIF89a whose logical screen and only frame claim a size, with a token LZW body.
    static func gifBomb(width: Int, height: Int) -> [UInt8] {
        Array("GIF89a".utf8) + le16(width) + le16(height) + [0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
            + [0x2C] + le16(0) + le16(0) + le16(width) + le16(height) + [0]
            + [2, 2, 0x4C, 0x01, 0] + [0x3B]
    }

    /// A WebP with a VP8X header claiming a canvas, and a token VP8L chunk.
    static func webpVP8XBomb(width: Int, height: Int) -> [UInt8] {
        let vp8x = Array("VP8X".utf8) + le32(10) + [0, 0, 0, 0] + le24(width - 1) + le24(height - 1)
        let vp8l = Array("VP8L".utf8) + le32(6) + [0x2F, 0, 0, 0, 0, 0]
        let body = Array("WEBP".utf8) + vp8x + vp8l
        return Array("RIFF".utf8) + le32(body.count) + body
    }

    /// A lossless WebP whose VP8L header claims a size (14 bits a side, so at most 16384).
    static func webpVP8LBomb(width: Int, height: Int) -> [UInt8] {
        let bits = (width - 1) | (height - 1) << 14
        let vp8l = Array("VP8L".utf8) + le32(10) + [0x2F] + le32(bits) + [0, 0, 0, 0, 0]
        let body = Array("WEBP".utf8) + vp8l
        return Array("RIFF".utf8) + le32(body.count) + body
    }
}
