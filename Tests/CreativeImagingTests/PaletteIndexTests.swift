import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import XCTest

/// A palette PNG whose pixels use an index past the end of its PLTE is damaged: libpng reads
/// it without an error and decoders show black. Every row's indices are checked, in libpng's
/// strict read, whether the rows are kept for the pre-flight checks or not.
final class PaletteIndexTests: XCTestCase {
    /// A palette PNG made byte by byte: `entries` grey PLTE entries, `depth`-bit indices from
    /// `index(x, y)`, Adam7-interlaced or not, the zlib stream in stored blocks (no compressor
    /// of the code under test is involved).
    static func palettePNG(width: Int, height: Int, depth: Int, entries: Int, interlaced: Bool = false,
                           padding: UInt8 = 0, index: (Int, Int) -> Int) -> [UInt8] {
        // Adam7: (x start, y start, x step, y step) of each pass; one pass when not interlaced.
        let passes = interlaced ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var raw: [UInt8] = []
        for (x0, y0, dx, dy) in passes {
            let columns = Array(stride(from: x0, to: width, by: dx)), rows = Array(stride(from: y0, to: height, by: dy))
            guard !columns.isEmpty else { continue }
            let perByte = 8 / depth
            for y in rows {
                var packed = [UInt8](repeating: 0, count: (columns.count + perByte - 1) / perByte)
                for (i, x) in columns.enumerated() {
                    packed[i / perByte] |= UInt8(index(x, y) << (8 - depth * (i % perByte + 1)))
                }
                // The bits after the last sample of a row: not pixels.
                let used = columns.count % perByte
                if used != 0 { packed[packed.count - 1] |= padding & UInt8((1 << (8 - depth * used)) - 1) }
                raw += [0] + packed
            }
        }
        let header = Fixtures.be32(width) + Fixtures.be32(height) + [UInt8(depth), 3, 0, 0, interlaced ? 1 : 0]
        let palette = (0..<entries).flatMap { entry -> [UInt8] in
            let level = UInt8(entry * 255 / max(1, entries - 1))
            return [level, level, level]
        }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Fixtures.pngChunk("IHDR", header)
            + Fixtures.pngChunk("PLTE", palette) + Fixtures.pngChunk("IDAT", storedZlib(raw)) + Fixtures.pngChunk("IEND", [])
    }

    /// A zlib stream of stored (uncompressed) deflate blocks, with its Adler-32.
    static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let last: UInt8 = offset + count == data.count ? 1 : 0
            out += [last] + Fixtures.le16(count) + Fixtures.le16(count ^ 0xFFFF) + data[offset..<offset + count]
            offset += count
        } while offset < data.count
        var a = 1, b = 0
        for byte in data {
            a = (a + Int(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + Fixtures.be32(b << 16 | a)
    }

    func testAnIndexPastThePLTEIsCorruptAtEveryDepthInterlacedOrNot() {
        for depth in [1, 2, 4, 8] {
            let entries = (1 << depth) - 1
            for interlaced in [false, true] {
                let what = "\(depth)-bit, \(interlaced ? "interlaced" : "not interlaced")"
                // Every entry in use, in stripes; the one bad pixel is the last of the last row.
                let sound = Self.palettePNG(width: 320, height: 50, depth: depth, entries: entries,
                                            interlaced: interlaced) { x, _ in x % entries }
                XCTAssertNil(PNGStructure.check(sound, maxPixels: 1 << 20).damage, what)
                XCTAssertEqual(Validator.validate(sound, fileName: "p.png").errorCodes, [], what)
                for bad in Set([entries, (1 << depth) - 1]) {
                    let png = Self.palettePNG(width: 320, height: 50, depth: depth, entries: entries,
                                              interlaced: interlaced) { x, y in x == 319 && y == 49 ? bad : x % entries }
                    let expected = "palette index \(bad) is past the end of the PLTE (\(entries) \(entries == 1 ? "entry" : "entries"))"
                    // Rows read and dropped (a render's check, a size the catalog does not accept) ...
                    XCTAssertEqual(PNGStructure.check(png, maxPixels: 1 << 20).damage, expected, what)
                    // ... and rows kept for the pre-flight checks (the validator's strict decode).
                    let report = Validator.validate(png, fileName: "p.png")
                    XCTAssertEqual(report.errorCodes, [.corruptImage], "\(what), index \(bad): \(report.summary)")
                    XCTAssertTrue(report.errors.first?.message.contains(expected) ?? false, report.summary)
                    XCTAssertTrue(report.decoded)
                }
            }
        }
    }

    func testAFullPaletteAndThePaddingBitsOfARowAreFine() {
        // 256 entries: every 8-bit index is in the palette.
        let full = Self.palettePNG(width: 320, height: 50, depth: 8, entries: 256) { x, _ in x % 256 }
        XCTAssertNil(PNGStructure.check(full, maxPixels: 1 << 20).damage)
        // Rows of 3 two-bit samples end in 2 padding bits, here set to 11 (index 3 of a 2-entry
        // palette): padding is not a pixel.
        for interlaced in [false, true] {
            let padded = Self.palettePNG(width: 3, height: 5, depth: 2, entries: 2, interlaced: interlaced,
                                         padding: 0xFF) { x, y in (x + y) % 2 }
            XCTAssertNil(PNGStructure.check(padded, maxPixels: 1 << 20).damage, "interlaced: \(interlaced)")
        }
    }
}
