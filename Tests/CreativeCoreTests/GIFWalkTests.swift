@testable import CreativeCore
import XCTest

/// The GIF block walk behind the trailer, trailing-data and animation checks: it follows block
/// lengths, never searches bytes, and ends on any input.
final class GIFWalkTests: XCTestCase {
    private func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }

    /// A 320x50 GIF with a two-colour table and `frames` 1x1 images.
    private func gif(frames: Int) -> [UInt8] {
        var bytes = Array("GIF89a".utf8) + le16(320) + le16(50) + [0x80, 0, 0, 255, 0, 0, 0, 0, 255]
        for _ in 0..<frames {
            bytes += [0x2C] + le16(0) + le16(0) + le16(1) + le16(1) + [0x00, 0x02, 0x02, 0x44, 0x01, 0x00]
        }
        return bytes + [0x3B]
    }

    func testEveryFrameIsCountedAndTheTrailerFound() {
        for frames in [0, 1, 2, 20_001] {
            let bytes = gif(frames: frames)
            XCTAssertEqual(HeaderProbe.gifWalk(bytes), HeaderProbe.GIFWalk(images: frames, end: bytes.count), "\(frames)")
            XCTAssertEqual(AnimationProbe.isAnimatedGIF(bytes), frames > 1)
        }
    }

    func testTrailerBytesInsideBlocksAreData() {
        // An application extension whose data is all 0x3B, then one image.
        let head = Array(gif(frames: 0).dropLast())
        let bytes = head + [0x21, 0xFF, 4, 0x3B, 0x3B, 0x3B, 0x3B, 0] + Array(gif(frames: 1).dropFirst(head.count))
        XCTAssertEqual(HeaderProbe.gifWalk(bytes), HeaderProbe.GIFWalk(images: 1, end: bytes.count))
        XCTAssertNil(HeaderProbe.trailingData(bytes, format: .gif))
    }

    func testHostileBlocksEndTheWalkWithoutATrailer() {
        let head = Array(gif(frames: 0).dropLast())
        let cases: [(String, [UInt8])] = [
            ("a sub-block longer than the file", head + [0x21, 0xFE, 200, 1, 2, 3]),
            ("no block terminator", head + [0x21, 0xFE] + [UInt8](repeating: 1, count: 10_000)),
            ("only extension introducers", head + [UInt8](repeating: 0x21, count: 100_000)),
            ("an unknown block", head + [0x00, 0x3B]),
            ("an image descriptor cut short", head + [0x2C, 0, 0]),
            ("a colour table past the end", Array(gif(frames: 0).prefix(10)) + [0x87, 0, 0]),
        ]
        for (what, bytes) in cases {
            XCTAssertNil(HeaderProbe.gifWalk(bytes).end, what)
            XCTAssertNotNil(HeaderProbe.truncation(bytes, format: .gif), what)
        }
    }
}
