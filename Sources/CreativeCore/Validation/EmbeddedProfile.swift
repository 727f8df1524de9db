/// An image file with its embedded ICC colour profile left out, for a decoder that must not see
/// it (``ICCProfileProbe`` refused it): PNG `iCCP`, JPEG `APP2 ICC_PROFILE` segments (every one
/// of a profile split over several), WebP `ICCP` (and the VP8X flag that announces it). The
/// pixels are untouched; the image is then taken as sRGB. Only container structure is walked:
/// segment and chunk lengths, never entropy-coded or compressed data.
public enum EmbeddedProfile {
    /// `bytes` without their colour profile, or the bytes as given when there is none or the
    /// container cannot be walked (the decoder then reports the damage).
    public static func removed(from bytes: [UInt8], format: ImageFormat) -> [UInt8] {
        switch format {
        case .png: PNGChunks.decoderCopy(bytes, dropping: ["iCCP"]).bytes
        case .jpeg: jpegWithoutProfile(bytes) ?? bytes
        case .webp: webpWithoutProfile(bytes) ?? bytes
        case .gif: bytes
        }
    }

    private static let jpegProfileSignature = Array("ICC_PROFILE\u{0}".utf8)

    /// The segments before the first scan copied except APP2 `ICC_PROFILE`, then the rest as is.
    private static func jpegWithoutProfile(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var copy = Array(bytes[0..<2])
        copy.reserveCapacity(bytes.count)
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF { copy.append(0xFF); offset += 1; continue }
            if marker == 0xDA || marker == 0xD9 { break }  // the scans: copied whole below
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { return nil }
            let segment = bytes[offset..<offset + 2 + length]
            if !(marker == 0xE2 && segment.dropFirst(4).starts(with: jpegProfileSignature)) { copy += segment }
            offset += 2 + length
        }
        copy += bytes[offset...]
        return copy
    }

    /// The RIFF chunks copied except `ICCP`, with the VP8X ICC flag cleared and the RIFF size
    /// made right.
    private static func webpWithoutProfile(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 12 else { return nil }
        var copy = Array(bytes[0..<12])
        var offset = 12
        while offset + 8 <= bytes.count {
            let name = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let length = bytes[offset + 4..<offset + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
            let end = min(bytes.count, offset + 8 + length + (length & 1))
            guard offset + 8 + length <= bytes.count else { return nil }
            if name == "VP8X", length >= 1 {
                var chunk = Array(bytes[offset..<end])
                chunk[8] &= ~0x20  // the ICC profile flag
                copy += chunk
            } else if name != "ICCP" {
                copy += bytes[offset..<end]
            }
            offset = end
        }
        let size = copy.count - 8
        copy.replaceSubrange(4..<8, with: (0..<4).map { UInt8(truncatingIfNeeded: size >> ($0 * 8)) })
        return copy
    }
}
