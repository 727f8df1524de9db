import CreativeCore
@testable import CreativeImaging

/// Images for the end-to-end tests, made with libvips in the test process.
enum Fixtures {
    /// A solid blue PNG, without metadata (see the imaging tests' `Fixtures.png` for why).
    static func pngSolid(_ width: Int, _ height: Int, compression: Int = 6) throws -> [UInt8] {
        let black = try VipsOperation("black").with("width", .int(width)).with("height", .int(height))
            .with("bands", .int(3)).image()
        let blue = try VipsOperation("linear").with("in", .image(black)).with("a", .doubles([1, 1, 1]))
            .with("b", .doubles([0, 0, 255])).with("uchar", .bool(true)).image()
        return try VipsOperation("pngsave_buffer").with("in", .image(blue)).with("strip", .bool(true))
            .with("compression", .int(compression)).bytes()
    }

    /// A PNG signature and an IHDR claiming a size, with a valid CRC, then IEND.
    static func pngHeaderOnly(width: Int, height: Int) -> [UInt8] {
        func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
        let body = Array("IHDR".utf8) + be32(width) + be32(height) + [8, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + body + be32(Int(crc32(body)))
            + be32(0) + Array("IEND".utf8) + be32(Int(crc32(Array("IEND".utf8))))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

/// Pixel access to a decoded image.
struct PixelReaderCLI {
    let width: Int, height: Int, bands: Int
    let bytes: [UInt8]

    init(_ image: VImage) throws {
        width = image.width; height = image.height; bands = image.bands
        bytes = try image.pixelBytes()
    }

    subscript(x: Int, y: Int) -> [UInt8] {
        let start = (y * width + x) * bands
        return Array(bytes[start..<start + bands])
    }

    func opaqueBox() -> (x: Int, y: Int, width: Int, height: Int)? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<height {
            for x in 0..<width where self[x, y][bands - 1] > 0 {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? nil : (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }
}

// MARK: - Validation inputs

extension Fixtures {
    /// A left/right two-colour image encoded by a libvips saver (`png`, `jpeg`, `gif`, `webp`),
    /// without metadata (see `pngSolid`).
    static func encoded(_ width: Int, _ height: Int, _ format: String,
                        options: [(String, VipsArgument)] = []) throws -> [UInt8] {
        let left = try solid(width / 2, height, [230, 40, 40])
        let right = try solid(width - width / 2, height, [40, 40, 230])
        let image = try VipsOperation("insert").with("main", .image(left)).with("sub", .image(right))
            .with("x", .int(width / 2)).with("y", .int(0)).with("expand", .bool(true)).image()
        var saver = VipsOperation("\(format)save_buffer").with("in", .image(image)).with("strip", .bool(true))
        for (name, value) in options { saver = saver.with(name, value) }
        return try saver.bytes()
    }

    /// A solid sRGB image.
    static func solid(_ width: Int, _ height: Int, _ rgb: [Double]) throws -> VImage {
        let black = try VipsOperation("black").with("width", .int(width)).with("height", .int(height))
            .with("bands", .int(3)).image()
        let filled = try VipsOperation("linear").with("in", .image(black)).with("a", .doubles([1, 1, 1]))
            .with("b", .doubles(rgb)).with("uchar", .bool(true)).image()
        return try VipsOperation("copy").with("in", .image(filled)).with("interpretation", .enumeration("srgb")).image()
    }
}
