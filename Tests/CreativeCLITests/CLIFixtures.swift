import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import Foundation
import XCTest

/// Images for the end-to-end tests, made with libvips in the test process.
extension Fixtures {
    /// A solid blue PNG.
    static func pngSolid(_ width: Int, _ height: Int, compression: Int = 6) throws -> [UInt8] {
        try save("pngsave_buffer", try solid(width, height, [0, 0, 255]), [("compression", .int(compression))])
    }

    /// A solid blue PNG of a size `WxH` written into a folder as `aWxH.png`; its path.
    static func solidArtwork(_ size: String, in folder: URL) throws -> String {
        let parsed = try PixelSize(parsing: size)
        let url = folder.appendingPathComponent("a\(size).png")
        try Data(try pngSolid(parsed.width, parsed.height)).write(to: url)
        return url.path
    }

    /// One JSON object printed by the tool.
    static func object(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// A PNG signature and an IHDR claiming a size, with a valid CRC, then IEND.
    static func pngHeaderOnly(width: Int, height: Int) -> [UInt8] {
        let body = Array("IHDR".utf8) + be32(width) + be32(height) + [8, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + body + be32(Int(crc32(body)))
            + be32(0) + Array("IEND".utf8) + be32(Int(crc32(Array("IEND".utf8))))
    }
}

// MARK: - Validation inputs

extension Fixtures {
    /// A left/right two-colour image encoded by a libvips saver (`png`, `jpeg`, `gif`, `webp`).
    static func encoded(_ width: Int, _ height: Int, _ format: String,
                        options: [(String, VipsArgument)] = []) throws -> [UInt8] {
        try save("\(format)save_buffer", try split(width, height, left: [230, 40, 40], right: [40, 40, 230]), options)
    }
}
