import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import XCTest

/// Where a file ends: bytes appended after a JPEG's EOI, a GIF's trailer or a WebP's RIFF size
/// are damage, as data after a PNG's IEND is; a GIF's frames are counted by walking its blocks.
final class ContainerEndTests: XCTestCase {
    /// What a zip's local file header starts with, and a little more: the polyglot case.
    private let zipTail: [UInt8] = [0x50, 0x4B, 0x03, 0x04] + Array("payload.js".utf8) + [UInt8](repeating: 0, count: 20)

    /// A GIF of `frames` 1x1 images on a 320x50 screen (a two-colour table), each with a
    /// graphic control extension, optionally a comment block first.
    static func gif(frames: Int, comment: [UInt8]? = nil) -> [UInt8] {
        var bytes = Array("GIF89a".utf8) + Fixtures.le16(320) + Fixtures.le16(50) + [0x80, 0, 0]
            + [255, 0, 0, 0, 0, 255]
        if let comment { bytes += [0x21, 0xFE, UInt8(comment.count)] + comment + [0] }
        let frame: [UInt8] = [0x21, 0xF9, 0x04, 0x00, 0x0A, 0x00, 0x00, 0x00]
            + [0x2C] + Fixtures.le16(0) + Fixtures.le16(0) + Fixtures.le16(1) + Fixtures.le16(1) + [0x00]
            + [0x02, 0x02, 0x44, 0x01, 0x00]  // LZW: clear, index 0, end
        bytes.reserveCapacity(bytes.count + frames * frame.count + 1)
        for _ in 0..<frames { bytes += frame }
        return bytes + [0x3B]
    }

    private func stills() throws -> [(name: String, bytes: [UInt8])] {
        let image = try Fixtures.split(320, 50, left: [200, 30, 30], right: [30, 30, 200])
        return [("j.jpg", try Fixtures.jpeg(image)), ("g.gif", try Fixtures.gif(image)),
                ("w.webp", try Fixtures.webp(image)), ("l.webp", try Fixtures.webp(image, [("lossless", .bool(true))])),
                ("p.png", try Fixtures.png(image))]
    }

    func testBytesAppendedAfterTheEndOfAnyFormatAreCorrupt() throws {
        for (name, bytes) in try stills() {
            XCTAssertTrue(Validator.validate(bytes, fileName: name).valid, name)
            for (what, tail) in [("a zip", zipTail), ("one zero byte", [0]), ("a second copy", bytes)] {
                let report = Validator.validate(bytes + tail, fileName: name)
                XCTAssertEqual(report.errorCodes, [.corruptImage], "\(name) + \(what): \(report.summary)")
                XCTAssertTrue(report.warnings.isEmpty, "\(name) + \(what): \(report.summary)")
                XCTAssertTrue(report.errors.first?.message.contains("after") ?? false, "\(name): \(report.summary)")
            }
        }
    }

    func testTheEndIsFoundByTheWalkAndNamesTheBytesAfterIt() throws {
        let image = try Fixtures.split(320, 50, left: [200, 30, 30], right: [30, 30, 200])
        let jpeg = try Fixtures.jpeg(image), webp = try Fixtures.webp(image)
        XCTAssertNil(HeaderProbe.trailingData(jpeg, format: .jpeg))
        XCTAssertEqual(HeaderProbe.trailingData(jpeg + zipTail, format: .jpeg),
                       "\(zipTail.count) bytes of data after the end-of-image marker")
        XCTAssertNil(HeaderProbe.trailingData(webp, format: .webp))
        XCTAssertEqual(HeaderProbe.trailingData(webp + [0, 0], format: .webp),
                       "2 bytes of data after the end its RIFF header declares")
        // A trailer byte (0x3B) inside a block is data, not the end: the blocks are walked.
        let gif = Self.gif(frames: 1, comment: Array("a;b;c".utf8))
        XCTAssertNil(HeaderProbe.trailingData(gif, format: .gif))
        XCTAssertTrue(Validator.validate(gif, fileName: "c.gif").errorCodes.isEmpty)
        XCTAssertEqual(HeaderProbe.trailingData(gif + [0x3B], format: .gif), "1 byte of data after the GIF trailer")
        // A cut stays a cut (truncation), whatever follows.
        XCTAssertNil(HeaderProbe.trailingData(Array(jpeg.dropLast(2)), format: .jpeg))
        XCTAssertNotNil(HeaderProbe.endDamage(Array(jpeg.dropLast(2)), format: .jpeg))
    }

    func testRendersRefuseAppendedBytesToo() throws {
        let settings = try RenderSettings(canvas: PixelSize(width: 160, height: 25))
        for (name, bytes) in try stills() {
            XCTAssertNoThrow(try Renderer.render(try ImageSource(bytes: bytes), settings: settings), name)
            XCTAssertThrowsError(try Renderer.render(try ImageSource(bytes: bytes + zipTail), settings: settings), name) {
                XCTAssertEqual(($0 as? ImagingError)?.code, "corrupt_image", "\(name): \($0)")
            }
        }
    }

    /// libvips refused a well-formed GIF of 20,001 frames as damaged ("Excessive number of
    /// frames"): the block walk says `animated`, and libvips decodes nothing.
    func testAGIFOfAnyFrameCountIsAnimatedWithoutADecode() {
        XCTAssertTrue(Validator.validate(Self.gif(frames: 1), fileName: "one.gif").errorCodes.isEmpty)
        for frames in [2, 20_001] {
            let gif = Self.gif(frames: frames)
            XCTAssertTrue(AnimationProbe.isAnimatedGIF(gif))
            let report = Validator.validate(gif, fileName: "many.gif")
            XCTAssertEqual(report.errorCodes, [.animated], "\(frames) frames: \(report.summary)")
            XCTAssertFalse(report.decoded)
            XCTAssertEqual(report.dimensions, PixelSize(width: 320, height: 50))
            // The walk also finds damage at the end: a cut, bytes after the trailer.
            XCTAssertEqual(Validator.validate(gif + zipTail, fileName: "z.gif").errorCodes, [.animated, .corruptImage])
            XCTAssertEqual(Validator.validate(Array(gif.dropLast()), fileName: "c.gif").errorCodes,
                           [.animated, .corruptImage])
        }
        // Another size of the catalog's: both errors.
        var odd = Self.gif(frames: 3)
        odd.replaceSubrange(6..<8, with: Fixtures.le16(321))
        XCTAssertEqual(Set(Validator.validate(odd, fileName: "o.gif").errorCodes), [.animated, .dimensionsNotAllowed])
    }
}
