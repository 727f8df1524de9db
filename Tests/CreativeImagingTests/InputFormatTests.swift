import CreativeCore
import Foundation
import CreativeTestSupport
@testable import CreativeImaging
import XCTest

/// Every kind of accepted input renders upright, 8-bit, sRGB; refused inputs get their code.
final class InputFormatTests: XCTestCase {
    static let pngSuite = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Corpus/pngsuite")

    private func renderPixels(_ bytes: [UInt8], _ canvas: PixelSize, format: FormatChoice = .fixed(.png)) throws -> PixelReader {
        let settings = try RenderSettings(canvas: canvas, format: format)
        let encoded = try Renderer.render(try ImageSource(bytes: bytes), settings: settings).bytes
        let image = try Fixtures.decode(encoded)
        XCTAssertTrue(image.isSRGB, "output interpretation")
        XCTAssertTrue(image.isEightBit)
        XCTAssertFalse(image.hasICCProfile, "metadata stripped")
        return try PixelReader(encoded: encoded)
    }

    func testEXIFOrientation6IsAppliedBeforeFitting() throws {
        // Stored 200x100, left red / right blue; orientation 6 shows it 100x200 with red on top.
        let stored = try Fixtures.split(200, 100, left: [255, 0, 0], right: [0, 0, 255])
        let jpeg = try Fixtures.jpeg(try stored.settingInt("orientation", 6))
        let source = try ImageSource(bytes: jpeg)
        XCTAssertEqual(source.orientation, 6)
        XCTAssertEqual(source.displayedSize, PixelSize(width: 100, height: 200))
        let pixels = try renderPixels(jpeg, PixelSize(width: 100, height: 200))
        XCTAssertTrue(pixels.isClose(50, 20, to: [255, 0, 0], tolerance: 24), "\(pixels[50, 20])")
        XCTAssertTrue(pixels.isClose(50, 180, to: [0, 0, 255], tolerance: 24), "\(pixels[50, 180])")
        XCTAssertEqual(pixels.opaqueBox()?.width, 100)
    }

    func testPNGWithEXIFOrientationRendersUprightAndReportsDisplayedSize() throws {
        let stored = try Fixtures.split(200, 100, left: [255, 0, 0], right: [0, 0, 255])
        // libvips writes no eXIf chunk from the orientation alone: borrow a JPEG's EXIF block.
        let exif = try XCTUnwrap(try Fixtures.decode(try Fixtures.jpeg(try stored.settingInt("orientation", 6)))
            .blobField("exif-data"))
        let tiff = Array(exif.starts(with: Array("Exif".utf8)) ? exif.dropFirst(6) : exif[...])
        let png = Fixtures.inserting(Fixtures.pngChunk("eXIf", tiff), before: "IDAT", in: try Fixtures.png(stored))
        let source = try ImageSource(bytes: png)
        XCTAssertEqual(source.orientation, 6, "libvips reads the PNG eXIf chunk")
        XCTAssertEqual(source.displayedSize, PixelSize(width: 100, height: 200))
        let pixels = try renderPixels(png, PixelSize(width: 50, height: 100))
        XCTAssertEqual(pixels.opaqueBox()?.width, 50, "not squashed")
        XCTAssertTrue(pixels.isClose(25, 10, to: [255, 0, 0, 255], tolerance: 8), "\(pixels[25, 10])")
        XCTAssertTrue(pixels.isClose(25, 90, to: [0, 0, 255, 255], tolerance: 8), "\(pixels[25, 90])")
    }

    func testCMYKJPEGIsConvertedToSRGB() throws {
        let cmyk = try Fixtures.cmykJPEG(try Fixtures.solid(64, 32, [200, 30, 30]))
        let source = try ImageSource(bytes: cmyk)
        XCTAssertEqual(source.header.bands, 4)
        let pixels = try renderPixels(cmyk, PixelSize(width: 64, height: 32))
        let centre = pixels[32, 16]
        XCTAssertEqual(pixels.bands, 4)
        XCTAssertGreaterThan(Int(centre[0]), 150, "red survives the CMYK round trip: \(centre)")
        XCTAssertLessThan(Int(centre[1]), 90)
    }

    func testGreySixteenBitPaletteInterlacedPNGs() throws {
        let colour = try Fixtures.solid(40, 20, [10, 200, 60])
        let grey = try VipsOperation("colourspace").with("in", .image(colour)).with("space", .enumeration("b-w")).image()
        let sixteen = try VipsOperation("colourspace").with("in", .image(colour)).with("space", .enumeration("rgb16")).image()
        let cases: [(String, [UInt8])] = [
            ("grey", try Fixtures.png(grey)),
            ("16-bit", try Fixtures.png(sixteen)),
            ("palette", try Fixtures.png(colour, [("palette", .bool(true))])),
            ("interlaced", try Fixtures.png(colour, [("interlace", .bool(true))])),
        ]
        for (name, bytes) in cases {
            let pixels = try renderPixels(bytes, PixelSize(width: 40, height: 40))
            XCTAssertEqual(pixels.bands, 4, name)
            XCTAssertEqual(pixels.opaqueBox()?.height, 20, name)
            if name != "grey" {
                XCTAssertTrue(pixels.isClose(20, 20, to: [10, 200, 60, 255], tolerance: 6), "\(name): \(pixels[20, 20])")
            }
        }
    }

    func testStaticGIFAndWebP() throws {
        let colour = try Fixtures.solid(60, 20, [0, 0, 255])
        for bytes in [try Fixtures.gif(colour), try Fixtures.webp(colour, [("lossless", .bool(true))])] {
            let pixels = try renderPixels(bytes, PixelSize(width: 30, height: 30))
            XCTAssertEqual(pixels.opaqueBox()?.height, 10)
            XCTAssertTrue(pixels.isClose(15, 15, to: [0, 0, 255, 255], tolerance: 4), "\(pixels[15, 15])")
        }
    }

    func testEveryValidPngSuiteFileRenders() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.pngSuite.path)
            .filter { $0.hasSuffix(".png") && !$0.hasPrefix("x") }
        XCTAssertGreaterThan(files.count, 150)
        for name in files {
            let bytes = try [UInt8](Data(contentsOf: Self.pngSuite.appendingPathComponent(name)))
            let source = try ImageSource(bytes: bytes)
            let settings = try RenderSettings(canvas: PixelSize(width: 96, height: 48))
            let encoded = try Renderer.render(source, settings: settings).bytes
            let image = try Fixtures.decode(encoded)
            XCTAssertEqual(image.size, PixelSize(width: 96, height: 48), name)
            XCTAssertTrue(image.isEightBit && image.isSRGB, name)
        }
    }

    func testCorruptPngSuiteFilesAreRefused() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.pngSuite.path)
            .filter { $0.hasSuffix(".png") && $0.hasPrefix("x") }
        for name in files {
            let bytes = try [UInt8](Data(contentsOf: Self.pngSuite.appendingPathComponent(name)))
            let settings = try RenderSettings(canvas: PixelSize(width: 32, height: 32))
            XCTAssertThrowsError(try Renderer.render(try ImageSource(bytes: bytes), settings: settings), name) { error in
                let code = (error as? ImagingError)?.code ?? "\(error)"
                XCTAssertTrue(["corrupt_image", "not_an_image"].contains(code), "\(name): \(error)")
            }
        }
    }

    /// libvips reports a bad IDAT CRC only as a warning at the end of the stream, racing the
    /// last rows: without the structural check first, some renders of this file succeeded.
    func testBadIDATChecksumIsRefusedEveryTime() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.pngSuite.appendingPathComponent("xcsn0g01.png")))
        let settings = try RenderSettings(canvas: PixelSize(width: 32, height: 32))
        for attempt in 0..<40 {
            XCTAssertThrowsError(try Renderer.render(try ImageSource(bytes: bytes), settings: settings), "\(attempt)") {
                XCTAssertEqual(($0 as? ImagingError)?.code, "corrupt_image")
            }
        }
    }

    func testRefusedFormatsAndBombs() throws {
        let svg = Array("<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)
        let cases: [([UInt8], String)] = [
            (svg, "unsupported_format"),
            (Array("%PDF-1.4\n".utf8), "unsupported_format"),
            (Array("BM".utf8) + [UInt8](repeating: 0, count: 60), "unsupported_format"),
            ([0x49, 0x49, 0x2A, 0x00] + [UInt8](repeating: 0, count: 60), "unsupported_format"),
            (Array("hello, world\n".utf8), "not_an_image"),
            ([], "empty_file"),
            (Fixtures.pngBomb(width: 100_000, height: 100_000), "too_many_pixels"),
        ]
        for (bytes, code) in cases {
            XCTAssertThrowsError(try ImageSource(bytes: bytes)) { error in
                XCTAssertEqual((error as? ImagingError)?.code, code)
            }
        }
    }

    func testTruncatedFilesAreCorrupt() throws {
        let colour = try Fixtures.split(300, 200, left: [255, 0, 0], right: [0, 255, 0])
        for bytes in [try Fixtures.png(colour, [("compression", .int(0))]), try Fixtures.jpeg(colour)] {
            let cut = Array(bytes.prefix(bytes.count / 2))
            XCTAssertThrowsError(try Renderer.render(try ImageSource(bytes: cut),
                                                     settings: RenderSettings(canvas: PixelSize(width: 30, height: 20)))) {
                XCTAssertEqual(($0 as? ImagingError)?.code, "corrupt_image", "\($0)")
            }
        }
    }

    /// Renders decode while the encoder pulls rows through. Damage that only the decoder can
    /// see (chunk CRCs right, the compressed data wrong) still ends as corrupt_image, never as
    /// a render (or a render_failed): the failure is checked against a strict decode.
    func testDamageOnlyTheDecoderSeesIsCorruptImage() throws {
        let png = try Fixtures.png(try Fixtures.noise(320, 50, seed: 3))
        let idat = Fixtures.pngChunk(png, "IDAT")
        let settings = try RenderSettings(canvas: PixelSize(width: 160, height: 25))
        for fraction in [0.0, 0.1, 0.5, 0.9] {
            let offset = idat.dataStart + Int(Double(idat.length - 1) * fraction)
            for mask: UInt8 in [0x01, 0x10, 0xFF] {
                var flipped = Fixtures.flipping(png, at: offset, mask: mask)
                let body = Array(flipped[idat.start + 4..<idat.crcStart])
                flipped.replaceSubrange(idat.crcStart..<idat.end, with: Fixtures.be32(Int(Fixtures.crc32(body))))
                XCTAssertThrowsError(try Renderer.render(try ImageSource(bytes: flipped), settings: settings),
                                     "IDAT byte \(offset) ^ \(mask)") {
                    XCTAssertEqual(($0 as? ImagingError)?.code, "corrupt_image", "\($0)")
                }
            }
        }
        let jpeg = try Fixtures.jpeg(try Fixtures.noise(320, 50, seed: 4))
        // A stretch of entropy-coded data cut out of the middle: the EOI marker still ends the file.
        let scrambled = Array(jpeg[..<(jpeg.count / 2)] + jpeg[(jpeg.count / 2 + 400)...])
        XCTAssertNil(HeaderProbe.truncation(scrambled, format: .jpeg))
        XCTAssertThrowsError(try Renderer.render(try ImageSource(bytes: scrambled), settings: settings)) {
            XCTAssertEqual(($0 as? ImagingError)?.code, "corrupt_image", "\($0)")
        }
    }
}
