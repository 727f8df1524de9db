import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import XCTest

/// WebP renders carry no metadata on either libvips series: libvips 8.14.1 writes an `EXIF` chunk
/// in a `VP8X` file even with `strip`, which ``WebPContainer`` takes out (a lossless render is then
/// a simple `VP8L` file, as 8.15 and later write it).
final class WebPContainerTests: XCTestCase {
    private func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let size = payload.count
        return Array(type.utf8) + [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), 0, 0] + payload + (size & 1 == 1 ? [0] : [])
    }

    private func riff(_ chunks: [UInt8]) -> [UInt8] {
        let size = chunks.count + 4
        return Array("RIFF".utf8) + [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), 0, 0] + Array("WEBP".utf8) + chunks
    }

    /// The chunk types of a WebP file, in order.
    private func types(_ bytes: [UInt8]) -> [String] {
        var found: [String] = []
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16
            found.append(String(decoding: bytes[offset..<offset + 4], as: UTF8.self))
            offset += 8 + size + (size & 1)
        }
        return found
    }

    func testMetadataChunksAreTakenOut() {
        let header = chunk("VP8X", [0x08 | 0x10, 0, 0, 0, 63, 1, 0, 49, 0, 0])
        let lossless = chunk("VP8L", [0x2F, 1, 2, 3, 4])
        let simple = WebPContainer.strippingMetadata(riff(header + lossless + chunk("EXIF", Array(repeating: 7, count: 186))))
        XCTAssertEqual(simple, riff(lossless), "one image chunk left: the simple format")
        // Lossy with an alpha chunk: the extended header stays, without its EXIF and XMP bits.
        let alpha = chunk("ALPH", [0, 9, 9]), lossy = chunk("VP8 ", [1, 2, 3, 4])
        let extended = WebPContainer.strippingMetadata(riff(header + alpha + lossy + chunk("XMP ", [1, 2])))
        XCTAssertEqual(types(extended), ["VP8X", "ALPH", "VP8 "])
        XCTAssertEqual(extended[20], 0x10, "the alpha flag kept, the EXIF flag cleared")
        XCTAssertEqual(Int(extended[4]) | Int(extended[5]) << 8, extended.count - 8, "the RIFF size follows")
        // Nothing to take out, or not a WebP: the bytes as they are.
        let clean = riff(lossless)
        XCTAssertEqual(WebPContainer.strippingMetadata(clean), clean)
        XCTAssertEqual(WebPContainer.strippingMetadata(Array("RIFF....WEBPVP8L".utf8)), Array("RIFF....WEBPVP8L".utf8))
        let truncated = Array(riff(header + lossless + chunk("EXIF", [1, 2, 3, 4])).dropLast(3))
        XCTAssertEqual(WebPContainer.strippingMetadata(truncated), truncated, "a chunk running past the end: left alone")
    }

    func testEveryWebPRenderIsWithoutMetadata() throws {
        let image = try Fixtures.split(320, 50, left: [200, 30, 30], right: [30, 30, 200])
        let lossless = try Encoder.encode(image, EncodeRequest(format: .fixed(.webp), weightBudget: nil, webp: Encoder.WebPChoice(lossless: true)))
        XCTAssertEqual(types(lossless.bytes), ["VP8L"], "lossless: a simple VP8L file")
        for quality in [50, 90] {
            let lossy = try Encoder.encode(image, EncodeRequest(format: .fixed(.webp), quality: quality, weightBudget: nil))
            XCTAssertFalse(types(lossy.bytes).contains("EXIF"), "\(types(lossy.bytes))")
            XCTAssertFalse(types(lossy.bytes).contains("XMP "), "\(types(lossy.bytes))")
        }
        XCTAssertEqual(try ImageSource(bytes: lossless.bytes).displayedSize, PixelSize(width: 320, height: 50),
                       "still a WebP the loader reads")
    }
}
