@testable import CreativeCore
import XCTest

/// The chunk walk renders run before libvips: lengths, CRCs, IEND, nothing after it.
final class PNGChunksTests: XCTestCase {
    private func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        func be32(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> UInt32($0)) & 0xFF) } }
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(CRC32.checksum(body[...]))
    }

    private var png: [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0])
            + chunk("IDAT", [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])
            + chunk("IEND", [])
    }

    func testCRCMatchesTheKnownValue() {
        // The CRC of "IEND" with no data, as in every PNG.
        XCTAssertEqual(CRC32.checksum(Array("IEND".utf8)[...]), 0xAE42_6082)
        // The standard check value of CRC-32 (ISO 3309): "123456789".
        XCTAssertEqual(CRC32.checksum(Array("123456789".utf8)[...]), 0xCBF4_3926)
        // A slice that does not start at index 0.
        XCTAssertEqual(CRC32.checksum(Array("xx123456789".utf8)[2...]), 0xCBF4_3926)
    }

    func testSoundFileHasNoDamage() {
        XCTAssertNil(PNGChunks.damage(png))
        XCTAssertNil(PNGChunks.overrun(png))
    }

    func testTheDecoderCopyLeavesOutOnlyUnusedChunks() {
        // Nothing to leave out: the bytes themselves, and nothing named.
        let plain = PNGChunks.decoderCopy(png)
        XCTAssertEqual(plain.bytes, png)
        XCTAssertEqual(plain.dropped, [])
        // Text and an unknown ancillary chunk are left out, once each by name, in file order;
        // what follows IEND is kept as it is.
        let signature = Array(png[0..<8]), ihdr = chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0])
        let idat = chunk("IDAT", [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]), iend = chunk("IEND", [])
        let text = chunk("tEXt", Array("a\0b".utf8)), private_ = chunk("prVt", [1, 2, 3]), gamma = chunk("gAMA", [0, 0, 0xB1, 0x8F])
        let full = signature + ihdr + text + gamma + private_ + idat + text + iend + [7, 7]
        let copy = PNGChunks.decoderCopy(full)
        XCTAssertEqual(copy.bytes, signature + ihdr + gamma + idat + iend + [7, 7])
        XCTAssertEqual(copy.dropped, ["tEXt", "prVt"])
        // A chunk asked to be dropped goes too, even one decoders use.
        XCTAssertEqual(PNGChunks.decoderCopy(full, dropping: ["gAMA"]).bytes, signature + ihdr + idat + iend + [7, 7])
    }

    func testEachKindOfDamageIsNamed() {
        var flipped = png
        flipped[8 + 12 + 12 + 10] ^= 0x01  // a byte of IDAT's data
        XCTAssertEqual(PNGChunks.damage(flipped), "IDAT: CRC error")
        XCTAssertNil(PNGChunks.overrun(flipped), "lengths alone are fine")
        XCTAssertEqual(PNGChunks.damage(png + [0]), "data after IEND")
        XCTAssertEqual(PNGChunks.damage(Array(png.dropLast(12))), "truncated: the file ends before IEND")
        XCTAssertNotNil(PNGChunks.damage(Array(png.dropLast(1))))
        XCTAssertNotNil(PNGChunks.overrun(Array(png.dropLast(1))), "IEND without its whole CRC")
    }
}
