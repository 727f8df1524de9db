import CreativeCore
@testable import CreativeImaging

/// Images made in the tests, so no pile of binaries is committed.
enum Fixtures {
    /// A solid image; `alpha` adds an alpha band of that value.
    static func solid(_ width: Int, _ height: Int, _ rgb: [Double], alpha: Double? = nil) throws -> VImage {
        let bands = alpha == nil ? 3 : 4
        let black = try VipsOperation("black").with("width", .int(width)).with("height", .int(height))
            .with("bands", .int(bands)).image()
        let filled = try VipsOperation("linear").with("in", .image(black))
            .with("a", .doubles(Array(repeating: 1, count: bands)))
            .with("b", .doubles(rgb + (alpha.map { [$0] } ?? []))).with("uchar", .bool(true)).image()
        return try VipsOperation("copy").with("in", .image(filled)).with("interpretation", .enumeration("srgb")).image()
    }

    /// Left half one colour, right half another: shows rotations.
    static func split(_ width: Int, _ height: Int, left: [Double], right: [Double]) throws -> VImage {
        let leftPart = try solid(width / 2, height, left)
        let rightPart = try solid(width - width / 2, height, right)
        return try VipsOperation("insert").with("main", .image(leftPart)).with("sub", .image(rightPart))
            .with("x", .int(width / 2)).with("y", .int(0)).with("expand", .bool(true)).image()
    }

    static func png(_ image: VImage, _ options: [(String, VipsArgument)] = []) throws -> [UInt8] {
        try save("pngsave_buffer", image, options)
    }

    static func jpeg(_ image: VImage, _ options: [(String, VipsArgument)] = []) throws -> [UInt8] {
        try save("jpegsave_buffer", image, options)
    }

    static func gif(_ image: VImage) throws -> [UInt8] { try save("gifsave_buffer", image, []) }

    static func webp(_ image: VImage, _ options: [(String, VipsArgument)] = []) throws -> [UInt8] {
        try save("webpsave_buffer", image, options)
    }

    /// A CMYK JPEG (converted with libvips' built-in CMYK profile).
    static func cmykJPEG(_ image: VImage) throws -> [UInt8] {
        let cmyk = try VipsOperation("icc_export").with("in", .image(image))
            .with("output_profile", .string("cmyk")).image()
        return try jpeg(cmyk)
    }

    private static func save(_ saver: String, _ image: VImage, _ options: [(String, VipsArgument)]) throws -> [UInt8] {
        var operation = VipsOperation(saver).with("in", .image(image))
        for (name, value) in options { operation = operation.with(name, value) }
        return try operation.bytes()
    }

    /// Decodes encoded bytes (any accepted format) into an image, trusting the input.
    static func decode(_ bytes: [UInt8]) throws -> VImage {
        try ImageSource(bytes: bytes).header
    }
}

/// Reads pixels of an 8-bit image.
struct PixelReader {
    let width: Int
    let height: Int
    let bands: Int
    let bytes: [UInt8]

    init(_ image: VImage) throws {
        width = image.width
        height = image.height
        bands = image.bands
        bytes = try image.pixelBytes()
    }

    init(encoded: [UInt8]) throws {
        try self.init(Fixtures.decode(encoded))
    }

    /// The samples of one pixel.
    subscript(x: Int, y: Int) -> [UInt8] {
        let start = (y * width + x) * bands
        return Array(bytes[start..<start + bands])
    }

    /// The bounding box of pixels whose alpha is above zero: (x, y, width, height).
    func opaqueBox() -> (x: Int, y: Int, width: Int, height: Int)? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<height {
            for x in 0..<width where self[x, y][bands - 1] > 0 {
                minX = min(minX, x); maxX = max(maxX, x)
                minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return nil }
        return (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }

    /// True when the pixel is close to the expected samples (resampling and JPEG allow a little).
    func isClose(_ x: Int, _ y: Int, to expected: [UInt8], tolerance: Int = 8) -> Bool {
        let actual = self[x, y]
        guard actual.count >= expected.count else { return false }
        return zip(actual, expected).allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
    }
}
