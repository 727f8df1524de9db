/// What the first bytes of a file say it is.
public enum SniffedFormat: Sendable, Equatable {
    /// One of the accepted upload formats.
    case accepted(ImageFormat)
    /// A known image or document format that is not accepted (SVG, PDF, BMP, TIFF, HEIF, ...).
    case unsupported(String)
    /// Nothing recognisable as an image.
    case notAnImage
}

/// The accepted upload formats (static only).
public enum ImageFormat: String, Sendable, CaseIterable {
    case png, jpeg, gif, webp

    /// File name extensions that match the format.
    public var extensions: [String] {
        switch self {
        case .png: ["png"]
        case .jpeg: ["jpg", "jpeg", "jpe"]
        case .gif: ["gif"]
        case .webp: ["webp"]
        }
    }

    /// Identifies a file from its first bytes, never its name.
    public static func sniff<Bytes: Collection>(_ bytes: Bytes) -> SniffedFormat where Bytes.Element == UInt8 {
        let head = Array(bytes.prefix(64))
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && Array(head[offset..<offset + magic.count]) == magic
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .accepted(.png) }
        if starts([0xFF, 0xD8, 0xFF]) { return .accepted(.jpeg) }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .accepted(.gif) }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .accepted(.webp) }
        if starts(Array("%PDF".utf8)) { return .unsupported("PDF") }
        if starts(Array("BM".utf8)) && head.count >= 14 { return .unsupported("BMP") }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A])
            || starts([0x49, 0x49, 0x2B, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2B]) {
            return .unsupported("TIFF")
        }
        if starts(Array("ftyp".utf8), at: 4) {
            let brand = String(decoding: head.dropFirst(8).prefix(4), as: UTF8.self)
            return .unsupported(brand.hasPrefix("avi") ? "AVIF" : "HEIF/ISO media (\(brand))")
        }
        if starts([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20]) || starts([0xFF, 0x4F, 0xFF, 0x51]) {
            return .unsupported("JPEG 2000")
        }
        if starts([0xFF, 0x0A]) || starts([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) {
            return .unsupported("JPEG XL")
        }
        if starts(Array("8BPS".utf8)) { return .unsupported("PSD") }
        if starts([0x00, 0x00, 0x01, 0x00]) { return .unsupported("ICO") }
        if starts([0x76, 0x2F, 0x31, 0x01]) { return .unsupported("OpenEXR") }
        if looksLikeSVG(head: bytes.prefix(4096)) { return .unsupported("SVG") }
        return .notAnImage
    }

    /// True for text that opens with an XML declaration, comment or doctype leading to `<svg`.
    private static func looksLikeSVG<Bytes: Collection>(head: Bytes) -> Bool where Bytes.Element == UInt8 {
        let text = String(decoding: head, as: UTF8.self).lowercased()
        let trimmed = text.drop { $0 == "\u{feff}" || $0.isWhitespace }
        guard trimmed.hasPrefix("<") else { return false }
        return trimmed.contains("<svg")
    }
}
