import CreativeCore
import CreativeImaging

/// Images and bytes made in the tests, shared by the imaging and the end-to-end test targets
/// (each extends it with its own builders), so no pile of binaries is committed.
public enum Fixtures {
    /// Whether `bytes` are an AVIF file: an ISO BMFF `ftyp` box whose brand is `avif`.
    public static func isAVIF(_ bytes: [UInt8]) -> Bool {
        bytes.count > 12 && Array(bytes[4..<12]) == Array("ftypavif".utf8)
    }

    /// A solid 8-bit sRGB image; `alpha` adds an alpha band of that value.
    public static func solid(_ width: Int, _ height: Int, _ rgb: [Double], alpha: Double? = nil) throws -> VImage {
        let bands = alpha == nil ? 3 : 4
        let black = try VipsOperation("black").with("width", .int(width)).with("height", .int(height))
            .with("bands", .int(bands)).image()
        let filled = try VipsOperation("linear").with("in", .image(black))
            .with("a", .doubles(Array(repeating: 1, count: bands)))
            .with("b", .doubles(rgb + (alpha.map { [$0] } ?? []))).with("uchar", .bool(true)).image()
        return try VipsOperation("copy").with("in", .image(filled)).with("interpretation", .enumeration("srgb")).image()
    }

    /// Left half one colour, right half another: shows rotations and placement.
    public static func split(_ width: Int, _ height: Int, left: [Double], right: [Double]) throws -> VImage {
        let leftPart = try solid(width / 2, height, left)
        let rightPart = try solid(width - width / 2, height, right)
        return try VipsOperation("insert").with("main", .image(leftPart)).with("sub", .image(rightPart))
            .with("x", .int(width / 2)).with("y", .int(0)).with("expand", .bool(true)).image()
    }

    /// Encodes with a libvips saver (`pngsave_buffer`, `jpegsave_buffer`, ...) and its options.
    /// PNGs keep no metadata unless the options say `strip` or `keep`: libvips 8.16 writes an
    /// EXIF block into every PNG that keeps metadata, and Debian 12's libpng 1.6.39 then writes
    /// that eXIf chunk twice (before and after IDAT), which strict readers rightly refuse.
    /// Tests that need eXIf insert one chunk themselves.
    public static func save(_ saver: String, _ image: VImage, _ options: [(String, VipsArgument)] = []) throws -> [UInt8] {
        var operation = VipsOperation(saver).with("in", .image(image))
        if saver == "pngsave_buffer" && !options.contains(where: { $0.0 == "strip" || $0.0 == "keep" }) {
            operation = operation.with("strip", .bool(true))
        }
        for (name, value) in options { operation = operation.with(name, value) }
        return try operation.bytes()
    }

    /// Decodes encoded bytes (any accepted format) into an image, trusting the input.
    public static func decode(_ bytes: [UInt8]) throws -> VImage {
        try ImageSource(bytes: bytes).header
    }

    // MARK: Bytes

    public static func be16(_ value: Int) -> [UInt8] { [8, 0].map { UInt8((value >> $0) & 0xFF) } }
    public static func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
    public static func le16(_ value: Int) -> [UInt8] { [0, 8].map { UInt8((value >> $0) & 0xFF) } }
    public static func le24(_ value: Int) -> [UInt8] { [0, 8, 16].map { UInt8((value >> $0) & 0xFF) } }
    public static func le32(_ value: Int) -> [UInt8] { [0, 8, 16, 24].map { UInt8((value >> $0) & 0xFF) } }

    /// The PNG/zlib CRC-32, written out bit by bit: an oracle independent of the code under test.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// One PNG chunk: length, type, data, CRC over type and data.
    public static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(data.count) + body + be32(Int(crc32(body)))
    }

    /// A CMYK JPEG (converted with libvips' built-in CMYK profile).
    public static func cmykJPEG(_ image: VImage) throws -> [UInt8] {
        let cmyk = try VipsOperation("icc_export").with("in", .image(image)).with("output_profile", .string("cmyk")).image()
        return try save("jpegsave_buffer", cmyk)
    }

    /// A PNG of random 8-bit pixels (xorshift from a fixed seed) in stored, uncompressed deflate
    /// blocks: as heavy as its pixels, `height x (1 + width x channels)` bytes and about 80 more,
    /// whatever the encoder. `channels` 3 is RGB, 4 RGBA.
    public static func storedNoisePNG(_ width: Int, _ height: Int, channels: Int = 3, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
        var state = seed | 1
        var rows: [UInt8] = []
        for _ in 0..<height {
            rows.append(0)
            for _ in 0..<width * channels {
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                rows.append(UInt8(truncatingIfNeeded: state >> 24))
            }
        }
        return storedPNG(width, height, channels: channels, rows: rows)
    }

    /// A photograph's statistics as an RGB PNG, in stored deflate blocks: smooth detail at two
    /// scales (random values on grids of 40 and 10 pixels, interpolated), tinted per channel, and
    /// a grain of +-4 levels; the same bytes every run. Heavier than 50,000 bytes as JPEG or WebP
    /// at the default quality at 960x150, it keeps the quality floor (luma SSIM 0.900) there when
    /// lowered to fit, where ``storedNoisePNG(_:_:channels:seed:)`` does not.
    public static func storedPhotoPNG(_ width: Int, _ height: Int, seed: UInt64 = 0x2545_F491_4F6C_DD1D) -> [UInt8] {
        var state = seed | 1
        func random() -> Double {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Double(state >> 11) / Double(1 << 53)
        }
        var field = [Double](repeating: 0, count: width * height)
        for (cell, amplitude) in [(40, 60.0), (10, 30.0), (3, 30.0)] {
            let columns = width / cell + 2, rowsOfGrid = height / cell + 2
            let grid = (0..<(columns * rowsOfGrid)).map { _ in (random() - 0.5) * 2 * amplitude }
            for y in 0..<height {
                let gy = y / cell, ty = Double(y % cell) / Double(cell)
                for x in 0..<width {
                    let gx = x / cell, tx = Double(x % cell) / Double(cell)
                    let top = grid[gy * columns + gx] * (1 - tx) + grid[gy * columns + gx + 1] * tx
                    let bottom = grid[(gy + 1) * columns + gx] * (1 - tx) + grid[(gy + 1) * columns + gx + 1] * tx
                    field[y * width + x] += top * (1 - ty) + bottom * ty
                }
            }
        }
        var rows: [UInt8] = []
        rows.reserveCapacity(height * (1 + width * 3))
        for y in 0..<height {
            rows.append(0)
            for x in 0..<width {
                for (gain, base) in [(1.0, 120.0), (0.85, 130.0), (0.7, 150.0)] {
                    let value = base + gain * field[y * width + x] + (random() - 0.5) * 56
                    rows.append(UInt8(max(0, min(255, value.rounded()))))
                }
            }
        }
        return storedPNG(width, height, channels: 3, rows: rows)
    }

    /// A PNG of filtered `rows` (each a filter byte and its samples) in stored deflate blocks.
    private static func storedPNG(_ width: Int, _ height: Int, channels: Int, rows: [UInt8]) -> [UInt8] {
        var zlib: [UInt8] = [0x78, 0x01], offset = 0
        while offset < rows.count {
            let count = min(65_535, rows.count - offset)
            zlib += [offset + count == rows.count ? 1 : 0] + le16(count) + le16(count ^ 0xFFFF) + rows[offset..<offset + count]
            offset += count
        }
        var a = 1, b = 0
        for byte in rows { a = (a + Int(byte)) % 65_521; b = (b + a) % 65_521 }
        zlib += be32(b << 16 | a)
        let header = be32(width) + be32(height) + [8, channels == 4 ? 6 : 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + pngChunk("IHDR", header) + pngChunk("IDAT", zlib)
            + pngChunk("IEND", [])
    }
}

/// Reads pixels of an 8-bit image.
public struct PixelReader {
    public let width: Int
    public let height: Int
    public let bands: Int
    public let bytes: [UInt8]

    public init(_ image: VImage) throws {
        width = image.width
        height = image.height
        bands = image.bands
        bytes = try image.pixelBytes()
    }

    /// A PNG or WebP as a browser shows it: RGBA, whether it was written with an alpha band,
    /// a `tRNS` colour key, a palette or as plain RGB (renders drop what they do not need).
    /// JPEG keeps its three bands.
    public init(encoded: [UInt8]) throws {
        var image = try Fixtures.decode(encoded)
        let isJPEG = encoded.starts(with: [0xFF, 0xD8])
        if !isJPEG, image.bands == 3 {
            image = try VipsOperation("bandjoin_const").with("in", .image(image)).with("c", .doubles([255])).image()
        }
        try self.init(image)
    }

    /// The samples of one pixel.
    public subscript(x: Int, y: Int) -> [UInt8] {
        let start = (y * width + x) * bands
        return Array(bytes[start..<start + bands])
    }

    /// The bounding box of pixels whose alpha is above zero: (x, y, width, height).
    public func opaqueBox() -> (x: Int, y: Int, width: Int, height: Int)? {
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
    public func isClose(_ x: Int, _ y: Int, to expected: [UInt8], tolerance: Int = 8) -> Bool {
        let actual = self[x, y]
        guard actual.count >= expected.count else { return false }
        return zip(actual, expected).allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
    }
}
