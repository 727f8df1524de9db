/// The RIFF container of a WebP file the encoder wrote, without the metadata libvips 8.14 adds.
///
/// libvips 8.14.1's WebP saver writes an `EXIF` chunk (186 bytes, made from the image's
/// resolution) in an extended (`VP8X`) file even with `strip` and no EXIF on the image; 8.15 and
/// later write none. A render carries no metadata, and the same render must be the same bytes on
/// either libvips series' structure: a lossless render is a simple `VP8L` file on both.
enum WebPContainer {
    /// `bytes` without `EXIF` and `XMP ` chunks. When what is left is one `VP8 ` or `VP8L` chunk
    /// after the `VP8X` header, the file is written in the simple format (no `VP8X`), as libwebp
    /// writes an image without metadata; else the `VP8X` flags lose the EXIF and XMP bits. Bytes
    /// that are not a well-formed RIFF WebP, or hold no such chunk, are returned as they are.
    static func strippingMetadata(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= 20, Array(bytes[0..<4]) == Array("RIFF".utf8), Array(bytes[8..<12]) == Array("WEBP".utf8)
        else { return bytes }
        var chunks: [(type: [UInt8], range: Range<Int>)] = []
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16
                | Int(bytes[offset + 7]) << 24
            let end = offset + 8 + size + (size & 1)
            guard end <= bytes.count || (end == bytes.count + 1 && size & 1 == 1) else { return bytes }
            chunks.append((Array(bytes[offset..<offset + 4]), offset..<min(end, bytes.count)))
            offset = end
        }
        guard offset >= bytes.count else { return bytes }
        let metadata = [Array("EXIF".utf8), Array("XMP ".utf8)]
        guard chunks.contains(where: { metadata.contains($0.type) }) else { return bytes }
        var kept = chunks.filter { !metadata.contains($0.type) }
        let images = [Array("VP8 ".utf8), Array("VP8L".utf8)]
        if kept.count == 2, kept[0].type == Array("VP8X".utf8), images.contains(kept[1].type) {
            kept.removeFirst()
        }
        var body: [UInt8] = Array("WEBP".utf8)
        for chunk in kept {
            var part = Array(bytes[chunk.range])
            if chunk.type == Array("VP8X".utf8), part.count > 8 { part[8] &= ~UInt8(0x0C) }
            body += part
        }
        let size = UInt32(body.count)
        return Array("RIFF".utf8) + [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF),
                                     UInt8(size >> 24 & 0xFF)] + body
    }
}
