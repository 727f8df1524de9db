import CreativeCore
import Foundation
import CreativeTestSupport
@testable import CreativeImaging
import XCTest

/// Shorthands for the validation tests.
extension ValidationReport {
    var errorCodes: [ValidationCode] { errors.map(\.code) }
    var warningCodes: [ValidationCode] { warnings.map(\.code) }
    /// `errors; warnings` as codes, for assertion messages.
    var summary: String {
        "\(file): errors \(errors.map { "\($0.code.rawValue) (\($0.message))" }) "
            + "warnings \(warnings.map(\.code.rawValue))"
    }

    /// The JSON report parsed back the way a client would read it.
    func parsedJSON() throws -> [String: Any] {
        let data = Data(json.serialized().utf8)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}

/// The generated validation corpus (docs/reference.md, "Accepted artwork" and "validate"): every accepted size in every
/// format, wrong sizes, animations, refused formats, decompression bombs and PngSuite.
/// Damage is in ValidationDamageTests, warnings in ValidationWarningTests.
final class ValidationCorpusTests: XCTestCase {
    static let pngSuite = InputFormatTests.pngSuite

    // MARK: Accepted sizes

    func testEveryAcceptedSizeInEveryFormatIsValid() throws {
        XCTAssertEqual(Fixtures.allowedSizes.count, 8)
        for entry in Product.banner.entries {
            let size = entry.size
            let image = try Fixtures.split(size.width, size.height, left: [230, 40, 40], right: [40, 40, 230])
            for (format, ext, bytes) in try Fixtures.allFormats(image) {
                let report = Validator.validate(bytes, fileName: "banner-\(size).\(ext)")
                let what = "\(size) \(format)"
                XCTAssertTrue(report.valid, "\(what): \(report.summary)")
                XCTAssertEqual(report.errors, [], what)
                XCTAssertEqual(report.warnings, [], what)
                XCTAssertEqual(report.format, format, what)
                XCTAssertEqual(report.dimensions, size, what)
                XCTAssertEqual(report.bytes, bytes.count, what)
                XCTAssertEqual(report.catalogEntry, entry, what)

                let json = try report.parsedJSON()
                XCTAssertEqual(json["valid"] as? Bool, true, what)
                XCTAssertEqual(json["format"] as? String, format.rawValue, what)
                XCTAssertEqual(json["file_bytes"] as? Int, bytes.count, what)
                XCTAssertEqual(json.sizeText("size_pixels"), size.description, what)
                XCTAssertEqual(json["size_class"] as? String, entry.sizeClass.rawValue, what)
                XCTAssertEqual(json["shape"] as? String, size == PixelSize(width: 300, height: 250) ? "rectangle" : "strip",
                               what)
                XCTAssertEqual((json["errors"] as? [Any])?.count, 0, what)
                XCTAssertEqual((json["warnings"] as? [Any])?.count, 0, what)
            }
        }
    }

    func testSizeClassesAndShapesOfTheCatalog() throws {
        let adaptive = Product.banner.entries.filter { $0.sizeClass == .adaptive }.map(\.size.description)
        XCTAssertEqual(adaptive, ["960x150", "1320x204", "2184x270"])
        let rectangles = Product.banner.entries.filter { $0.shape == .rectangle }.map(\.size.description)
        XCTAssertEqual(rectangles, ["300x250"])
    }

    // MARK: Wrong sizes

    func testSizesOffByOnePixelAreNotAllowedAndNameTheNearest() throws {
        let cases: [(PixelSize, String)] = [
            (PixelSize(width: 961, height: 150), "960x150"),
            (PixelSize(width: 960, height: 151), "960x150"),
            (PixelSize(width: 959, height: 150), "960x150"),
            (PixelSize(width: 960, height: 149), "960x150"),
            (PixelSize(width: 321, height: 50), "320x50"),
            (PixelSize(width: 320, height: 101), "320x100"),
            (PixelSize(width: 300, height: 251), "300x250"),
            (PixelSize(width: 469, height: 60), "468x60"),
            (PixelSize(width: 728, height: 89), "728x90"),
            (PixelSize(width: 1321, height: 204), "1320x204"),
            (PixelSize(width: 2184, height: 271), "2184x270"),
        ]
        for (size, nearest) in cases {
            let image = try Fixtures.solid(size.width, size.height, [20, 120, 200])
            for (format, ext, bytes) in try Fixtures.allFormats(image) {
                let report = Validator.validate(bytes, fileName: "x.\(ext)")
                let what = "\(size) \(format)"
                XCTAssertFalse(report.valid, what)
                XCTAssertEqual(report.errorCodes, [.dimensionsNotAllowed], "\(what): \(report.summary)")
                XCTAssertEqual(report.warnings, [], what)
                XCTAssertEqual(report.dimensions, size, what)
                XCTAssertNil(report.catalogEntry, what)
                let message = report.errors.first?.message ?? ""
                XCTAssertTrue(message.contains("nearest are \(nearest)"), "\(what): \(message)")
                XCTAssertTrue(message.contains(size.description), message)
                let json = try report.parsedJSON()
                XCTAssertEqual(json.sizeText("size_pixels"), size.description, "its size, though not an accepted one: \(what)")
                XCTAssertTrue(json["size_class"] is NSNull, what)
                XCTAssertEqual(json["shape"] as? String, size.aspectRatio >= 2 ? "strip" : "rectangle", what)
            }
        }
    }

    func testRotatedSizesAreNotAllowedAndSaySo() throws {
        for size in [PixelSize(width: 150, height: 960), PixelSize(width: 90, height: 728),
                     PixelSize(width: 250, height: 300), PixelSize(width: 50, height: 320)] {
            let png = try Fixtures.png(try Fixtures.solid(size.width, size.height, [0, 0, 0]))
            let report = Validator.validate(png, fileName: "r.png")
            XCTAssertEqual(report.errorCodes, [.dimensionsNotAllowed], report.summary)
            let message = report.errors.first?.message ?? ""
            XCTAssertTrue(message.contains("turned on its side"), message)
            XCTAssertTrue(message.contains("\(size.height)x\(size.width)"), "the upright size is among the nearest: \(message)")
            XCTAssertEqual(try report.parsedJSON()["shape"] as? String, "rectangle", "\(size) is under 2:1")
        }
    }

    func testWrongSizeThatIsAlsoDamagedGetsBothCodes() throws {
        let image = try Fixtures.noise(961, 150)
        // PNG: one byte flipped inside IDAT (the header is sound, the pixels are not).
        let png = try Fixtures.png(image)
        let idat = Fixtures.pngChunk(png, "IDAT")
        let flipped = Fixtures.flipping(png, at: idat.dataStart + idat.length / 2)
        // JPEG, GIF, WebP: cut in the middle of the pixel data.
        let jpeg = try Fixtures.jpeg(image)
        let gif = try Fixtures.gif(image)
        let webp = try Fixtures.webp(image)
        let cases: [(String, [UInt8])] = [
            ("x.png", flipped), ("x.png", Array(png.prefix(png.count / 2))),
            ("x.jpg", Array(jpeg.prefix(jpeg.count / 2))), ("x.gif", Array(gif.prefix(gif.count / 2))),
            ("x.webp", Array(webp.prefix(webp.count / 2))),
        ]
        for (name, bytes) in cases {
            let report = Validator.validate(bytes, fileName: name)
            XCTAssertEqual(Set(report.errorCodes), [.corruptImage, .dimensionsNotAllowed], report.summary)
            XCTAssertEqual(report.dimensions, PixelSize(width: 961, height: 150), report.summary)
        }
    }

    func testWrongSizeThatIsAlsoAnimatedGetsBothCodes() throws {
        let frames = try Fixtures.frames(961, 150)
        for (name, bytes) in [("a.gif", try Fixtures.gif(frames)), ("a.webp", try Fixtures.webp(frames)),
                              ("a.png", Fixtures.apng(from: try Fixtures.png(try Fixtures.solid(961, 150, [1, 2, 3]))))] {
            let report = Validator.validate(bytes, fileName: name)
            XCTAssertEqual(Set(report.errorCodes), [.animated, .dimensionsNotAllowed], report.summary)
            XCTAssertEqual(report.dimensions, PixelSize(width: 961, height: 150), report.summary)
        }
    }

    // MARK: Animation

    func testAnimationsInEveryAnimatedFormatAreRefused() throws {
        for size in [PixelSize(width: 320, height: 50), PixelSize(width: 300, height: 250)] {
            let frames = try Fixtures.frames(size.width, size.height, count: 3)
            let still = try Fixtures.png(try Fixtures.solid(size.width, size.height, [255, 0, 0]))
            let cases: [(String, [UInt8])] = [
                ("a.png", Fixtures.apng(from: still)), ("a.gif", try Fixtures.gif(frames)), ("a.webp", try Fixtures.webp(frames)),
            ]
            for (name, bytes) in cases {
                let report = Validator.validate(bytes, fileName: name)
                XCTAssertEqual(report.errorCodes, [.animated], "\(size) \(report.summary)")
                XCTAssertEqual(report.dimensions, size, "one frame's size is reported: \(report.summary)")
                XCTAssertTrue(report.errors.first?.message.contains("still frame") ?? false, report.summary)
            }
            // The APNG is otherwise a sound PNG: without its animation chunks it is valid.
            XCTAssertTrue(Validator.validate(still, fileName: "s.png").valid)
            XCTAssertNil(PNGStructure.check(Fixtures.apng(from: still), maxPixels: 1 << 30).damage)
        }
    }

    // MARK: Not images, refused formats, empty, too large

    func testNotImagesAndRefusedFormats() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let random = (0..<4096).map { _ -> UInt8 in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state >> 32)
        }
        XCTAssertEqual(ImageFormat.sniff(random), .notAnImage, "the seed gives no magic number")
        let svg = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"320\" height=\"50\"><rect width=\"320\" height=\"50\"/></svg>\n".utf8)
        let cases: [(String, [UInt8], ValidationCode)] = [
            ("random.png", random, .notAnImage),
            ("notes.txt", Array("Banner copy: Buy now!\nSecond line\n".utf8), .notAnImage),
            ("banner.svg", svg, .unsupportedFormat),
            ("bare.svg", Array("<svg viewBox=\"0 0 320 50\"></svg>".utf8), .unsupportedFormat),
            ("banner.pdf", Array("%PDF-1.7\n%\u{00e2}\u{00e3}\n1 0 obj\n<<>>\nendobj\n".utf8), .unsupportedFormat),
            ("banner.bmp", Array("BM".utf8) + [UInt8](repeating: 0, count: 60), .unsupportedFormat),
            ("banner.tif", [0x4D, 0x4D, 0x00, 0x2A] + [UInt8](repeating: 0, count: 60), .unsupportedFormat),
            ("banner.avif", [0, 0, 0, 0x1C] + Array("ftypavif".utf8) + [UInt8](repeating: 0, count: 40), .unsupportedFormat),
            ("banner.heic", [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [UInt8](repeating: 0, count: 40), .unsupportedFormat),
            ("empty.png", [], .emptyFile),
            ("png-signature-only.png", Array(Fixtures.pngSignature.prefix(5)), .notAnImage),
        ]
        for (name, bytes, code) in cases {
            let report = Validator.validate(bytes, fileName: name)
            XCTAssertEqual(report.errorCodes, [code], report.summary)
            XCTAssertEqual(report.warnings, [], report.summary)
            XCTAssertNil(report.format, name)
            XCTAssertNil(report.dimensions, name)
            XCTAssertEqual(report.bytes, bytes.count, name)
            let json = try report.parsedJSON()
            XCTAssertEqual(json["valid"] as? Bool, false, name)
            XCTAssertTrue(json["format"] is NSNull && json["size_pixels"] is NSNull && json["shape"] is NSNull, name)
        }
        let pdf = Validator.validate(Array("%PDF-1.4\n".utf8), fileName: "a.pdf")
        XCTAssertTrue(pdf.errors.first?.message.contains("PDF") ?? false, pdf.summary)
    }

    func testFileTooLargeIsDecidedFromTheSizeAndStillReadsTheHeader() throws {
        let png = try Fixtures.png(try Fixtures.split(320, 50, left: [1, 2, 3], right: [4, 5, 6]))
        XCTAssertGreaterThan(png.count, 100)
        let small = Validator.validate(png, fileName: "b.png", limits: ValidationLimits(maxBytes: 100))
        XCTAssertEqual(small.errorCodes, [.fileTooLarge], small.summary)
        XCTAssertEqual(small.format, .png)
        XCTAssertEqual(small.dimensions, PixelSize(width: 320, height: 50))
        XCTAssertTrue(small.errors[0].message.contains("limit of 100 bytes"), small.summary)

        // Only the beginning was read; the real size comes separately (as the CLI does for big files).
        let wrongSize = try Fixtures.png(try Fixtures.noise(961, 150))
        let head = Array(wrongSize.prefix(4096))
        let big = Validator.validate(head, fileName: "big.png", totalBytes: 3_000_000)
        XCTAssertEqual(big.errorCodes, [.fileTooLarge, .dimensionsNotAllowed], big.summary)
        XCTAssertEqual(big.bytes, 3_000_000)
        XCTAssertEqual(big.dimensions, PixelSize(width: 961, height: 150))
        XCTAssertFalse(big.has(.corruptImage), "a cut head is not decoded: \(big.summary)")
        XCTAssertEqual(try big.parsedJSON()["file_bytes"] as? Int, 3_000_000)

        // Exactly at the limit is accepted.
        XCTAssertTrue(Validator.validate(png, fileName: "b.png", limits: ValidationLimits(maxBytes: png.count)).valid)

        // Too large and not an image: both reported.
        let text = Validator.validate(Array("hello".utf8), fileName: "t.txt", totalBytes: 5_000_000)
        XCTAssertEqual(text.errorCodes, [.fileTooLarge, .notAnImage], text.summary)
    }

    // MARK: Decompression bombs

    func testDecompressionBombsAreRefusedFromTheHeaderWithoutDecoding() throws {
        let cases: [(String, [UInt8], PixelSize)] = [
            ("bomb.png", Fixtures.pngBomb(width: 100_000, height: 100_000), PixelSize(width: 100_000, height: 100_000)),
            ("wide.png", Fixtures.pngBomb(width: 1_000_000, height: 51), PixelSize(width: 1_000_000, height: 51)),
            ("bomb.jpg", Fixtures.jpegBomb(width: 65000, height: 65000), PixelSize(width: 65000, height: 65000)),
            ("bomb.gif", Fixtures.gifBomb(width: 65535, height: 65535), PixelSize(width: 65535, height: 65535)),
            ("bomb.webp", Fixtures.webpVP8XBomb(width: 16383, height: 16383), PixelSize(width: 16383, height: 16383)),
            ("vp8l.webp", Fixtures.webpVP8LBomb(width: 16384, height: 16384), PixelSize(width: 16384, height: 16384)),
        ]
        let clock = ContinuousClock()
        for (name, bytes, claimed) in cases {
            var report: ValidationReport!
            let elapsed = clock.measure { report = Validator.validate(bytes, fileName: name) }
            // The bodies are tokens that no decoder would accept: had anything been decoded,
            // corrupt_image would be among the errors.
            XCTAssertEqual(report.errorCodes, [.tooManyPixels, .dimensionsNotAllowed], "\(report.summary) in \(elapsed)")
            XCTAssertEqual(report.dimensions, claimed, name)
            XCTAssertTrue(report.errors[0].message.contains("nothing was decoded"), report.summary)
            XCTAssertTrue(report.errors[0].message.contains("\(claimed)"), report.summary)
        }
    }

    func testThePixelCapIsInclusive() throws {
        let png = try Fixtures.png(try Fixtures.solid(320, 50, [9, 9, 9]))
        XCTAssertTrue(Validator.validate(png, fileName: "c.png", limits: ValidationLimits(maxPixels: 16000)).valid)
        let over = Validator.validate(png, fileName: "c.png", limits: ValidationLimits(maxPixels: 15999))
        XCTAssertEqual(over.errorCodes, [.tooManyPixels], over.summary)
        for (name, bytes) in try Fixtures.allFormats(try Fixtures.solid(320, 50, [9, 9, 9])).map({ ("c.\($0.ext)", $0.bytes) }) {
            let report = Validator.validate(bytes, fileName: name, limits: ValidationLimits(maxPixels: 15999))
            XCTAssertEqual(report.errorCodes, [.tooManyPixels], report.summary)
        }
    }

    // MARK: PngSuite

    func testPngSuite() throws {
        let folder = Self.pngSuite
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }.sorted()
        XCTAssertGreaterThan(files.count, 170)
        var broken = 0
        for name in files {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
            let report = Validator.validate(bytes, fileName: name)
            if name.hasPrefix("x") {
                broken += 1
                XCTAssertFalse(report.valid, report.summary)
                XCTAssertTrue(report.has(.corruptImage) || report.has(.notAnImage), report.summary)
            } else {
                XCTAssertEqual(report.errorCodes, [.dimensionsNotAllowed], report.summary)
                XCTAssertEqual(report.format, .png, name)
                XCTAssertNotNil(report.dimensions, name)
            }
        }
        XCTAssertGreaterThanOrEqual(broken, 14)
    }
}
