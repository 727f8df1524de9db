/// Finds animation markers in the container bytes, without decoding: APNG's `acTL` chunk
/// (which must come before the first `IDAT`), animated WebP's VP8X flag or `ANIM` chunk, and a
/// GIF's second image descriptor, found by walking its blocks.
public enum AnimationProbe {
    /// True when the PNG carries an animation control chunk.
    public static func isAnimatedPNG(_ bytes: [UInt8]) -> Bool {
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            if type == "acTL" { return true }
            if type == "IDAT" || type == "IEND" { return false }
            let next = offset.addingReportingOverflow(12 + length)
            guard !next.overflow, length >= 0 else { return false }
            offset = next.partialValue
        }
        return false
    }

    /// True when the WebP declares animation.
    public static func isAnimatedWebP(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 21 else { return false }
        if String(decoding: bytes[12..<16], as: UTF8.self) == "VP8X", bytes[20] & 0x02 != 0 { return true }
        var offset = 12
        while offset + 8 <= bytes.count {
            let type = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            if type == "ANIM" || type == "ANMF" { return true }
            let length = bytes[offset + 4..<offset + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
            let next = offset.addingReportingOverflow(8 + length + (length & 1))
            guard !next.overflow else { return false }
            offset = next.partialValue
        }
        return false
    }

    /// True when the GIF holds more than one image (frame): its blocks are walked from the
    /// header to the trailer by their lengths (``HeaderProbe``'s walk, linear in the file's
    /// size), so any frame count is found without a decoder. libvips refuses a GIF of thousands
    /// of frames as damaged before it could say it moves.
    public static func isAnimatedGIF(_ bytes: [UInt8]) -> Bool {
        gifFrames(bytes) > 1
    }

    /// The images (frames) a GIF holds, counted by the same walk as ``isAnimatedGIF(_:)``.
    public static func gifFrames(_ bytes: [UInt8]) -> Int {
        HeaderProbe.gifWalk(bytes).images
    }
}
