import CreativeCore
import Foundation
import CreativeTestSupport
@testable import CreativeImaging
import XCTest

/// Damaged files: truncations, flipped bytes, bad CRCs, data after the end; every one is
/// `corrupt_image` (or `not_an_image` when not even the signature is left), never valid.
///
/// Leak check of the strict PNG reader (optional, about 20 s; not part of the suite). Valgrind
/// 3.19 cannot read Swift 6's default DWARF 5, so build with DWARF 4 into a folder of its own:
///   swift build --build-tests --build-path .build-vg -Xswiftc -dwarf-version=4 -Xcc -gdwarf-4
///   valgrind --leak-check=full --errors-for-leak-kinds=definite .build-vg/debug/creative-toolPackageTests.xctest \
///     CreativeImagingTests.ValidationDamageTests/testEveryByteFlipOfASmallPNGIsDamage
/// Last run (libpng 1.6.39, libvips 8.14.1): no invalid reads or writes; the only "definitely lost"
/// blocks are XCTest's own (80 bytes, the same for one test or thousands of damaged reads),
/// nothing allocated by libpng or cpng_check.
final class ValidationDamageTests: XCTestCase {
    /// A detailed image of an accepted size, so cuts land in pixel data and not only headers.
    private func corpus() throws -> [(ext: String, bytes: [UInt8])] {
        let image = try Fixtures.noise(320, 100, seed: 7)
        return [("png", try Fixtures.png(image)), ("jpg", try Fixtures.jpeg(image)), ("gif", try Fixtures.gif(image)),
                ("webp", try Fixtures.webp(image)), ("webp", try Fixtures.webp(image, [("lossless", .bool(true))])),
                ("png", try Fixtures.png(image, [("interlace", .bool(true))])),
                ("jpg", try Fixtures.jpeg(image, [("interlace", .bool(true))]))]
    }

    /// Asserts that damaged bytes are rejected: `not_an_image` when the signature is gone,
    /// otherwise `corrupt_image` and nothing else (the size is an accepted one).
    private func assertDamaged(_ bytes: [UInt8], _ name: String, _ what: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        let report = Validator.validate(bytes, fileName: name)
        XCTAssertFalse(report.valid, "\(what): \(report.summary)", file: file, line: line)
        if ImageFormat.sniff(bytes) == .notAnImage {
            XCTAssertEqual(report.errorCodes, [.notAnImage], "\(what): \(report.summary)", file: file, line: line)
        } else {
            XCTAssertEqual(report.errorCodes, [.corruptImage], "\(what): \(report.summary)", file: file, line: line)
            XCTAssertFalse(report.errors.first?.message.isEmpty ?? true, file: file, line: line)
        }
    }

    func testTruncationsAtManyOffsetsAreRejected() throws {
        for (ext, bytes) in try corpus() {
            XCTAssertTrue(Validator.validate(bytes, fileName: "whole.\(ext)").valid, "the uncut \(ext) is valid")
            let n = bytes.count
            let cuts = Set([1, 2, 3, 5, 7, 11, 16, 24, 33, 40, 64, n / 10, n / 4, n / 2, n * 9 / 10, n - 12, n - 2, n - 1])
            for cut in cuts.sorted() where cut > 0 && cut < n {
                assertDamaged(Array(bytes.prefix(cut)), "cut.\(ext)", "\(ext) of \(n) bytes cut to \(cut)")
            }
        }
    }

    /// Decoders stop once they have the last row, so a JPEG without EOI or a GIF without its
    /// trailer decodes; the validator walks the container to find the cut.
    func testCutsThatRemoveOnlyTheEndMarkerAreCorrupt() throws {
        let image = try Fixtures.split(320, 50, left: [255, 0, 0], right: [0, 0, 255])
        let jpeg = try Fixtures.jpeg(image)
        XCTAssertEqual(Array(jpeg.suffix(2)), [0xFF, 0xD9])
        // An APP segment holding an EOI of its own (as an EXIF thumbnail does) is skipped by its length.
        let thumbnail = [0xFF, 0xE1] + Fixtures.be16(2 + 8) + Array("Thumb".utf8) + [0, 0xFF, 0xD9]
        let withThumbnail = Array(jpeg.prefix(2)) + thumbnail + Array(jpeg.dropFirst(2))
        let gif = try Fixtures.gif(image)
        let animated = try Fixtures.gif(try Fixtures.frames(320, 50, count: 3))
        XCTAssertEqual(gif.last, 0x3B)
        for (name, bytes) in [("j.jpg", jpeg), ("t.jpg", withThumbnail), ("g.gif", gif), ("a.gif", animated)] {
            let whole = Validator.validate(bytes, fileName: name)
            XCTAssertFalse(whole.has(.corruptImage), whole.summary)
            for cut in 1...2 {
                let report = Validator.validate(Array(bytes.dropLast(cut)), fileName: name)
                XCTAssertTrue(report.has(.corruptImage), "\(name) less \(cut): \(report.summary)")
                XCTAssertFalse(report.valid)
            }
        }
        XCTAssertTrue(Validator.validate(withThumbnail, fileName: "t.jpg").valid)
        let format = ImageFormat.jpeg
        XCTAssertNil(HeaderProbe.truncation(jpeg + [0, 0, 0, 0], format: format), "data after EOI is not a cut")
        XCTAssertNotNil(HeaderProbe.truncation(Array(withThumbnail.prefix(thumbnail.count + 40)), format: format),
                        "the thumbnail's EOI is not the image's")
        XCTAssertNotNil(HeaderProbe.truncation([0xFF, 0xD8, 0xFF, 0xD9], format: format), "no scan")
        XCTAssertNil(HeaderProbe.truncation(gif, format: .gif))
        XCTAssertNotNil(HeaderProbe.truncation(Array(gif.prefix(12)), format: .gif))
    }

    func testCutInsideTheSignatureIsNotAnImage() throws {
        for (ext, bytes) in try corpus() {
            let magic = ext == "webp" ? 12 : ext == "gif" ? 6 : ext == "jpg" ? 3 : 8
            for cut in 1..<magic {
                let report = Validator.validate(Array(bytes.prefix(cut)), fileName: "sig.\(ext)")
                XCTAssertEqual(report.errorCodes, [.notAnImage], "\(ext) cut to \(cut): \(report.summary)")
            }
        }
    }

    func testFlippedBytesInsideIDATAreCorrupt() throws {
        let png = try Fixtures.png(try Fixtures.noise(320, 50, seed: 3))
        let idat = Fixtures.pngChunk(png, "IDAT")
        for fraction in [0.0, 0.1, 0.5, 0.9] {
            let offset = idat.dataStart + Int(Double(idat.length - 1) * fraction)
            for mask: UInt8 in [0x01, 0x10, 0xFF] {
                var flipped = Fixtures.flipping(png, at: offset, mask: mask)
                assertDamaged(flipped, "f.png", "IDAT byte \(offset) ^ \(mask), CRC wrong")
                // The same flip with its CRC made right again: now zlib or the filters must catch it.
                let body = Array(flipped[idat.start + 4..<idat.crcStart])
                flipped.replaceSubrange(idat.crcStart..<idat.end, with: Fixtures.be32(Int(Fixtures.crc32(body))))
                assertDamaged(flipped, "f.png", "IDAT byte \(offset) ^ \(mask), CRC fixed")
                XCTAssertNotNil(PNGStructure.check(flipped, maxPixels: 1 << 30).damage)
            }
        }
    }

    func testBadCRCsInCriticalAndAncillaryChunksAreCorrupt() throws {
        let png = Fixtures.pngWithText(try Fixtures.png(try Fixtures.split(320, 50, left: [255, 0, 0], right: [0, 0, 255])))
        XCTAssertTrue(Validator.validate(png, fileName: "t.png").valid, "the tEXt chunk itself is fine")
        for type in ["IHDR", "tEXt", "IDAT", "IEND"] {
            let chunk = Fixtures.pngChunk(png, type)
            assertDamaged(Fixtures.flipping(png, at: chunk.crcStart + 3, mask: 0x01), "c.png", "\(type) CRC")
            // A changed data byte (CRC left as it was) is the same damage seen from the other side.
            if chunk.length > 0 {
                assertDamaged(Fixtures.flipping(png, at: chunk.dataStart + chunk.length - 1, mask: 0x20), "c.png",
                              "\(type) data")
            }
            let check = PNGStructure.check(Fixtures.flipping(png, at: chunk.crcStart), maxPixels: 1 << 30)
            XCTAssertNotNil(check.damage, type)
        }
        let text = Fixtures.pngChunk(png, "tEXt")
        let report = Validator.validate(Fixtures.flipping(png, at: text.crcStart), fileName: "c.png")
        XCTAssertTrue(report.errors.first?.message.contains("CRC") ?? false, report.summary)
    }

    func testDataAfterIENDIsCorrupt() throws {
        let png = try Fixtures.png(try Fixtures.solid(320, 50, [0, 128, 0]))
        let cases: [(String, [UInt8])] = [
            ("one zero byte", png + [0]),
            ("text", png + Array("<script>alert(1)</script>".utf8)),
            ("a whole chunk", png + Fixtures.pngChunk("tEXt", Array("k\u{0}v".utf8))),
            ("a second PNG", png + png),
        ]
        for (what, bytes) in cases {
            assertDamaged(bytes, "after.png", what)
            XCTAssertEqual(PNGStructure.check(bytes, maxPixels: 1 << 30).damage, "data after IEND", what)
        }
    }

    func testStrictCheckOfSoundPNGsOfEveryKind() throws {
        let colour = try Fixtures.split(40, 20, left: [10, 200, 60], right: [200, 10, 60])
        let cases: [(String, [UInt8], Int)] = [
            ("rgb", try Fixtures.png(colour), 8),
            ("rgba", try Fixtures.png(try Fixtures.solid(40, 20, [1, 2, 3], alpha: 128)), 8),
            ("grey", try Fixtures.png(try Fixtures.grey(colour)), 8),
            ("16-bit", try Fixtures.png(try Fixtures.sixteenBit(colour)), 16),
            ("palette", try Fixtures.png(colour, [("palette", .bool(true))]), 8),
            ("interlaced", try Fixtures.png(colour, [("interlace", .bool(true))]), 8),
            ("tEXt", Fixtures.pngWithText(try Fixtures.png(colour)), 8),
        ]
        for (name, bytes, depth) in cases {
            let check = PNGStructure.check(bytes, maxPixels: 1 << 30)
            XCTAssertNil(check.damage, name)
            XCTAssertEqual(check.bitDepth, depth, name)
        }
        XCTAssertEqual(PNGStructure.check(cases[0].1, maxPixels: 799).damage, "too many pixels")
        XCTAssertEqual(PNGStructure.check([], maxPixels: 10).damage, "not a PNG signature")
    }

    /// Every single-byte change of a small PNG (signature, lengths, types, data, CRCs) is found:
    /// every byte of a PNG is covered by the signature check, a length, or a CRC. Thousands of
    /// damaged reads also show that libpng's longjmp error path does not crash.
    func testEveryByteFlipOfASmallPNGIsDamage() throws {
        let png = Fixtures.pngWithText(try Fixtures.png(try Fixtures.noise(24, 12, seed: 11)))
        XCTAssertNil(PNGStructure.check(png, maxPixels: 1 << 20).damage)
        var reads = 0
        var missed: [String] = []
        for offset in png.indices {
            for mask: UInt8 in [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0xFF] {
                let damaged = Fixtures.flipping(png, at: offset, mask: mask)
                reads += 1
                if PNGStructure.check(damaged, maxPixels: 1 << 20).damage == nil {
                    missed.append("offset \(offset) ^ \(mask)")
                }
            }
        }
        for cut in 0..<png.count {
            reads += 1
            if PNGStructure.check(Array(png.prefix(cut)), maxPixels: 1 << 20).damage == nil { missed.append("cut \(cut)") }
        }
        XCTAssertGreaterThan(reads, 5000)
        XCTAssertEqual(missed, [], "damage not seen")
    }

    /// The whole validator on every byte flip of a small PNG: never valid, never a crash.
    func testValidatorNeverAcceptsAFlippedPNG() throws {
        let png = try Fixtures.png(try Fixtures.noise(320, 50, seed: 5), [("compression", .int(9))])
        let stride = max(1, png.count / 600)
        for offset in Swift.stride(from: 0, to: png.count, by: stride) {
            let report = Validator.validate(Fixtures.flipping(png, at: offset), fileName: "v.png")
            XCTAssertFalse(report.valid, "offset \(offset): \(report.summary)")
            let allowed: Set<ValidationCode> = [.notAnImage, .corruptImage, .tooManyPixels, .dimensionsNotAllowed]
            XCTAssertTrue(Set(report.errorCodes).isSubset(of: allowed), "offset \(offset): \(report.summary)")
            XCTAssertTrue(report.has(.corruptImage) || report.has(.notAnImage) || report.has(.tooManyPixels),
                          "offset \(offset): \(report.summary)")
        }
    }
}
