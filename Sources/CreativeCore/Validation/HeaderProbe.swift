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

    /// The EXIF orientation (1...8) of a JPEG (APP1 `Exif`) or WebP (`EXIF` chunk); 1 when absent
    /// or unreadable. It gives the displayed size of a file that is never decoded (over a cap).
    public static func orientation(_ bytes: [UInt8], format: ImageFormat) -> Int {
        let exif: ArraySlice<UInt8>?
        switch format {
        case .jpeg: exif = jpegExif(bytes)
        case .webp: exif = webpExif(bytes)
        case .png, .gif: exif = nil
        }
        guard let exif, let value = tiffOrientation(Array(exif)), (1...8).contains(value) else { return 1 }
        return value
    }

    private static let exifPrefix = Array("Exif\u{0}\u{0}".utf8)

    private static func jpegExif(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }
            if marker == 0xDA || marker == 0xD9 { return nil }
            guard let length = bigEndian(bytes, offset + 2, 2), length >= 2 else { return nil }
            let start = offset + 4, end = offset + 2 + length
            if marker == 0xE1, end <= bytes.count, bytes[start..<end].starts(with: exifPrefix) {
                return bytes[start + exifPrefix.count..<end]
            }
            offset = end
        }
        return nil
    }

    private static func webpExif(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        var offset = 12
        while offset + 8 <= bytes.count, let length = littleEndian(bytes, offset + 4, 4) {
            let start = offset + 8
            if Array(bytes[offset..<offset + 4]) == Array("EXIF".utf8) {
                guard start + length <= bytes.count else { return nil }
                let exif = bytes[start..<start + length]
                return exif.starts(with: exifPrefix) ? exif.dropFirst(exifPrefix.count) : exif
            }
            offset = start + length + (length & 1)
        }
        return nil
    }

    /// Tag 0x0112 (a SHORT) of a TIFF structure's first IFD.
    private static func tiffOrientation(_ tiff: [UInt8]) -> Int? {
        guard tiff.count >= 8, tiff[0] == tiff[1], tiff[0] == 0x49 || tiff[0] == 0x4D else { return nil }
        let little = tiff[0] == 0x49
        func read(_ offset: Int, _ count: Int) -> Int? {
            little ? littleEndian(tiff, offset, count) : bigEndian(tiff, offset, count)
        }
        guard read(2, 2) == 42, let ifd = read(4, 4), let entries = read(ifd, 2) else { return nil }
        for index in 0..<entries {
            let entry = ifd + 2 + index * 12
            guard let tag = read(entry, 2) else { return nil }
            if tag == 0x0112 { return read(entry + 2, 2) == 3 ? read(entry + 8, 2) : nil }
        }
        return nil
    }

    /// Why a JPEG or GIF ends early, or nil when its end marker is there. libjpeg (through
    /// libvips) stops once it has the last row and never reads on to EOI, and the GIF decoder
    /// does not need the trailer, so a file cut by a byte or two decodes "cleanly"; this walk of
    /// the container finds the cut. PNG and WebP readers check their own ends (nil for them).
    public static func truncation(_ bytes: [UInt8], format: ImageFormat) -> String? {
        switch format {
        case .jpeg:
            // An EOI before any scan is no image data at all: a cut too.
            let walk = JPEGWalk(bytes)
            return walk.end == nil || walk.scans == 0 ? "truncated: no end-of-image marker after the image data" : nil
        case .gif:
            return gifWalk(bytes).end == nil ? "truncated: the file ends before the GIF trailer" : nil
        case .png, .webp:
            return nil
        }
    }

    /// What follows the end of a JPEG (its EOI marker, found by the segment walk), a GIF (its
    /// trailer, found by walking the blocks) or a WebP (its RIFF size), described, or nil when
    /// the file ends there. Decoders stop at the end and never look further, so anything
    /// appended (a zip, a script, a second image) would pass unseen; PNG's `data after IEND`
    /// is the same finding (``PNGChunks/damage(_:)``, nil here).
    public static func trailingData(_ bytes: [UInt8], format: ImageFormat) -> String? {
        let end: Int?, what: String
        switch format {
        case .jpeg: (end, what) = (JPEGWalk(bytes).end, "the end-of-image marker")
        case .gif: (end, what) = (gifWalk(bytes).end, "the GIF trailer")
        case .webp: (end, what) = (webpEnd(bytes), "the end its RIFF header declares")
        case .png: return nil
        }
        guard let end, end < bytes.count else { return nil }
        let extra = bytes.count - end
        return "\(extra) \(extra == 1 ? "byte" : "bytes") of data after \(what)"
    }

    /// ``truncation(_:format:)``, else ``trailingData(_:format:)``: whether the file ends
    /// exactly where its container does.
    public static func endDamage(_ bytes: [UInt8], format: ImageFormat) -> String? {
        truncation(bytes, format: format) ?? trailingData(bytes, format: format)
    }

    /// The number of scans (SOS markers) in a JPEG, counted by the same walk as its end: a
    /// progressive JPEG is decoded once per scan, so the count bounds its decoding time.
    public static func jpegScans(_ bytes: [UInt8]) -> Int {
        JPEGWalk(bytes).scans
    }

    /// Most scans a JPEG may have: 500, the limit libjpeg-turbo's own fuzz targets set
    /// (`TJPARAM_SCANLIMIT`) against progressive scan bombs. Encoders write about 10.
    public static let maxJPEGScans = 500

    /// Where a WebP ends by its RIFF header: 8 bytes of header, then the size it declares.
    private static func webpEnd(_ bytes: [UInt8]) -> Int? {
        littleEndian(bytes, 4, 4).map { 8 + $0 }
    }

    /// True for a progressive (or lossless-progressive) JPEG: SOF2, SOF6, SOF10 or SOF14. Its
    /// decoder keeps every DCT coefficient of the whole image until the last scan.
    public static func isProgressiveJPEG(_ bytes: [UInt8]) -> Bool {
        guard let marker = jpegFrame(bytes)?.marker else { return false }
        return [0xC2, 0xC6, 0xCA, 0xCE].contains(marker)
    }

    /// True when libjpeg keeps every DCT coefficient of the whole image until the last scan: a
    /// progressive JPEG, or any JPEG one of whose scans (SOS) lacks a component of the frame
    /// (a baseline file coding each component in its own scan).
    public static func jpegHoldsCoefficients(_ bytes: [UInt8], walk: JPEGWalk? = nil) -> Bool {
        isProgressiveJPEG(bytes) || (walk ?? JPEGWalk(bytes)).scanLacksAComponent
    }

    /// True for an Adam7-interlaced PNG (IHDR's interlace byte): it cannot be decoded row by row.
    public static func isInterlacedPNG(_ bytes: [UInt8]) -> Bool {
        png(bytes) != nil && bytes.count > 28 && bytes[28] != 0
    }

    /// True when a WebP holds a lossless (VP8L) image: libwebp decodes those whole, at full size,
    /// even when asked for a smaller one.
    public static func isLosslessWebP(_ bytes: [UInt8]) -> Bool {
        webpChunk(bytes, "VP8L")
    }

    /// True when a lossy WebP has an alpha plane (VP8X flag): decoded whole, one byte a pixel.
    public static func webpHasAlpha(_ bytes: [UInt8]) -> Bool {
        bytes.count > 20 && String(decoding: bytes[12..<16], as: UTF8.self) == "VP8X" && bytes[20] & 0x10 != 0
    }

    private static func webpChunk(_ bytes: [UInt8], _ name: String) -> Bool {
        var offset = 12
        let wanted = Array(name.utf8)
        while offset + 8 <= bytes.count, let length = littleEndian(bytes, offset + 4, 4) {
            if Array(bytes[offset..<offset + 4]) == wanted { return true }
            offset += 8 + length + (length & 1)
        }
        return false
    }

    /// What a walk of a GIF's blocks found: the image descriptors (frames) met, and the offset
    /// just past the trailer (nil when the walk ends without one: a cut or a broken block).
    struct GIFWalk: Equatable {
        var images = 0
        var end: Int?
    }

    /// Walks GIF blocks (extensions and images, each a chain of sub-blocks skipped by their
    /// lengths, never searched for a byte) up to the trailer (0x3B). Every step moves forward by
    /// at least one byte, so the walk is linear in the file's size whatever it holds.
    static func gifWalk(_ bytes: [UInt8]) -> GIFWalk {
        var walk = GIFWalk()
        guard bytes.count >= 13 else { return walk }
        var offset = 13
        if bytes[10] & 0x80 != 0 { offset += 3 << (Int(bytes[10] & 0x07) + 1) }
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x3B:
                walk.end = offset + 1
                return walk
            case 0x21:
                offset += 2
            case 0x2C:
                guard offset + 10 <= bytes.count else { return walk }
                walk.images += 1
                let packed = bytes[offset + 9]
                offset += 10
                if packed & 0x80 != 0 { offset += 3 << (Int(packed & 0x07) + 1) }
                offset += 1  // LZW minimum code size
            default:
                return walk
            }
            // The sub-blocks: a length byte, that many bytes, until a zero length.
            while true {
                guard offset < bytes.count else { return walk }
                let length = Int(bytes[offset])
                offset += 1 + length
                if length == 0 { break }
            }
        }
        return walk
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
        jpegFrame(bytes)?.size
    }

    /// The first start-of-frame segment: its marker and the size it declares.
    private static func jpegFrame(_ bytes: [UInt8]) -> (marker: UInt8, size: PixelSize)? {
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }
            guard let length = bigEndian(bytes, offset + 2, 2), length >= 2 else { return nil }
            if JPEGWalk.isStartOfFrame(marker) {
                guard let height = bigEndian(bytes, offset + 5, 2), let width = bigEndian(bytes, offset + 7, 2) else {
                    return nil
                }
                return (marker, PixelSize(width: width, height: height))
            }
            if marker == 0xDA || marker == 0xD9 { return nil }
            offset += 2 + length
        }
        return nil
    }
}
