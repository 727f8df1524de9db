import XCTest
@testable import CreativeCore

/// docs/reference.md, "Accepted artwork": PNG, JPEG, GIF and WebP are accepted; other image formats are
/// `unsupported_format`; anything else is `not_an_image`. Decided from bytes, never the name.
final class FormatSniffTests: XCTestCase {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Magic bytes followed by some filler so that length checks are not what decides.
    private func file(_ magic: [UInt8], padTo length: Int = 64) -> [UInt8] {
        magic + [UInt8](repeating: 0, count: max(0, length - magic.count))
    }

    private func assertUnsupported(_ data: [UInt8], _ label: String? = nil,
                                   file: StaticString = #filePath, line: UInt = #line) {
        let result = ImageFormat.sniff(data)
        guard case .unsupported(let name) = result else {
            return XCTFail("expected unsupported, got \(result)", file: file, line: line)
        }
        if let label { XCTAssertEqual(name, label, file: file, line: line) }
    }

    // MARK: accepted

    func testPNG() {
        XCTAssertEqual(ImageFormat.sniff(file([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])), .accepted(.png))
    }

    func testJPEG() {
        XCTAssertEqual(ImageFormat.sniff(file([0xFF, 0xD8, 0xFF, 0xE0])), .accepted(.jpeg))   // JFIF
        XCTAssertEqual(ImageFormat.sniff(file([0xFF, 0xD8, 0xFF, 0xE1])), .accepted(.jpeg))   // Exif
        XCTAssertEqual(ImageFormat.sniff(file([0xFF, 0xD8, 0xFF, 0xDB])), .accepted(.jpeg))   // raw
    }

    func testGIF() {
        XCTAssertEqual(ImageFormat.sniff(file(bytes("GIF87a"))), .accepted(.gif))
        XCTAssertEqual(ImageFormat.sniff(file(bytes("GIF89a"))), .accepted(.gif))
        XCTAssertEqual(ImageFormat.sniff(file(bytes("GIF88a"))), .notAnImage)
    }

    func testWebP() {
        let webp = bytes("RIFF") + [0x24, 0, 0, 0] + bytes("WEBPVP8 ")
        XCTAssertEqual(ImageFormat.sniff(file(webp)), .accepted(.webp))
        // A RIFF that is not WebP (WAV audio) is not an image.
        let wav = bytes("RIFF") + [0x24, 0, 0, 0] + bytes("WAVEfmt ")
        XCTAssertEqual(ImageFormat.sniff(file(wav)), .notAnImage)
    }

    func testSniffWorksOnAnyByteCollection() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        XCTAssertEqual(ImageFormat.sniff(png[...]), .accepted(.png))
        XCTAssertEqual(ImageFormat.sniff(ContiguousArray(png)), .accepted(.png))
        // Exactly the magic and nothing else still identifies the format.
        XCTAssertEqual(ImageFormat.sniff(Array(png.prefix(8))), .accepted(.png))
        XCTAssertEqual(ImageFormat.sniff([0xFF, 0xD8, 0xFF] as [UInt8]), .accepted(.jpeg))
    }

    func testTruncatedMagicIsNotAnImage() {
        XCTAssertEqual(ImageFormat.sniff([0x89, 0x50, 0x4E, 0x47] as [UInt8]), .notAnImage)
        XCTAssertEqual(ImageFormat.sniff([0xFF, 0xD8] as [UInt8]), .notAnImage)
        XCTAssertEqual(ImageFormat.sniff(bytes("GIF8")), .notAnImage)
        XCTAssertEqual(ImageFormat.sniff(bytes("RIFF")), .notAnImage)
    }

    // MARK: unsupported

    func testPDF() {
        assertUnsupported(file(bytes("%PDF-1.7\n")), "PDF")
    }

    func testBMP() {
        assertUnsupported(file(bytes("BM") + [0x36, 0x10, 0, 0]), "BMP")
    }

    func testTIFFBothByteOrders() {
        assertUnsupported(file([0x49, 0x49, 0x2A, 0x00, 0x08, 0, 0, 0]), "TIFF")   // little-endian
        assertUnsupported(file([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 0x08]), "TIFF")   // big-endian
        assertUnsupported(file([0x49, 0x49, 0x2B, 0x00]), "TIFF")                  // BigTIFF
        assertUnsupported(file([0x4D, 0x4D, 0x00, 0x2B]), "TIFF")
    }

    func testHEIFAndAVIF() {
        assertUnsupported(file([0, 0, 0, 0x18] + bytes("ftypheic") + [0, 0, 0, 0] + bytes("mif1heic")))
        assertUnsupported(file([0, 0, 0, 0x18] + bytes("ftypmif1")))
        assertUnsupported(file([0, 0, 0, 0x1C] + bytes("ftypavif")), "AVIF")
        assertUnsupported(file([0, 0, 0, 0x1C] + bytes("ftypavis")), "AVIF")
        let heic = ImageFormat.sniff(file([0, 0, 0, 0x18] + bytes("ftypheic")))
        XCTAssertEqual(heic, .unsupported("HEIF/ISO media (heic)"))
    }

    func testOtherKnownFormats() {
        assertUnsupported(file(bytes("8BPS") + [0, 1]), "PSD")
        assertUnsupported(file([0x00, 0x00, 0x01, 0x00, 0x01, 0x00]), "ICO")
        assertUnsupported(file([0xFF, 0x0A]), "JPEG XL")
        assertUnsupported(file([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20]), "JPEG XL")
        assertUnsupported(file([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20]), "JPEG 2000")
        assertUnsupported(file([0xFF, 0x4F, 0xFF, 0x51]), "JPEG 2000")
    }

    func testSVGVariants() {
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="960" height="150"></svg>"#
        assertUnsupported(bytes(svg), "SVG")
        assertUnsupported(bytes(#"<?xml version="1.0" encoding="UTF-8"?>"# + "\n" + svg), "SVG")
        assertUnsupported([0xEF, 0xBB, 0xBF] + bytes(svg), "SVG")                           // UTF-8 BOM
        assertUnsupported([0xEF, 0xBB, 0xBF] + bytes("<?xml version=\"1.0\"?>\n" + svg), "SVG")
        assertUnsupported(bytes("\n\n   " + svg), "SVG")                                   // leading whitespace
        assertUnsupported(bytes("<!-- made by hand -->\n" + svg), "SVG")
        assertUnsupported(bytes(#"<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">"# + "\n" + svg), "SVG")
        assertUnsupported(bytes("<SVG WIDTH=\"10\"></SVG>"), "SVG")                         // any case
    }

    func testTextThatMentionsSVGIsNotSVG() {
        XCTAssertEqual(ImageFormat.sniff(bytes("please render <svg> for me")), .notAnImage)
        XCTAssertEqual(ImageFormat.sniff(bytes("<?xml version=\"1.0\"?><root/>")), .notAnImage)
    }

    // MARK: not an image

    func testNotAnImage() {
        XCTAssertEqual(ImageFormat.sniff([UInt8]()), .notAnImage)
        XCTAssertEqual(ImageFormat.sniff(bytes("hello, this is a text file\n")), .notAnImage)
        XCTAssertEqual(ImageFormat.sniff(bytes("{\"width\": 960, \"height\": 150}")), .notAnImage)
        XCTAssertEqual(ImageFormat.sniff([UInt8](repeating: 0, count: 100)), .notAnImage)
        XCTAssertEqual(ImageFormat.sniff(bytes("BM")), .notAnImage, "two letters are not a bitmap")
        // Deterministic pseudo-random bytes (a fixed LCG) never starting with a known magic.
        var state: UInt32 = 12_345
        let noise = (0..<512).map { _ -> UInt8 in
            state = state &* 1_103_515_245 &+ 12_345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
        XCTAssertEqual(ImageFormat.sniff(noise), .notAnImage)
    }

    func testExtensions() {
        XCTAssertEqual(ImageFormat.jpeg.extensions, ["jpg", "jpeg", "jpe"])
        XCTAssertEqual(ImageFormat.png.extensions, ["png"])
        XCTAssertEqual(ImageFormat.allCases, [.png, .jpeg, .gif, .webp])
    }
}
