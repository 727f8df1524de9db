import CreativeCore
@testable import CreativeImaging
import CreativeTestSupport
import XCTest

/// `fix` of a creative with bars baked into it (`baked_in_bars`): the bars are cropped and the
/// artwork inside is fixed to the accepted size of its shape, so the app letterboxes it itself;
/// where no accepted size has its shape, nothing is cropped and the warning stays.
final class FixBarsTests: XCTestCase {
    /// The 960x150 test artwork enlarged to `content` and set between black bars on a 2184x270 canvas.
    private func barred(_ content: PixelSize) throws -> [UInt8] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("TestImages")
        let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent("test-artwork-960x150.png")))
        let artwork = try VipsOperation("pngload_buffer").with("buffer", .bytes(bytes)).image()
        let scaled = try ScaleStep.thumbnail(artwork, to: content)
        let canvas = try VipsOperation("embed").with("in", .image(try ColourStep.srgb8(scaled)))
            .with("x", .int((2184 - content.width) / 2)).with("y", .int((270 - content.height) / 2))
            .with("width", .int(2184)).with("height", .int(270)).with("extend", .enumeration("black")).image()
        return try Fixtures.png(canvas)
    }

    private func codes(_ bytes: [UInt8]) -> [String] {
        Validator.validate(bytes, fileName: "fixed.png").warnings.map(\.code.rawValue)
    }

    func testBarsAroundArtOfAnAcceptedShapeAreCroppedAndTheArtworkFixedToIt() throws {
        let upload = try barred(PixelSize(width: 1728, height: 270))
        XCTAssertTrue(codes(upload).contains("baked_in_bars"))
        let fixed = try Fixer.fix(try ImageSource(bytes: upload), request: FixRequest(), format: .png, outputName: "fixed.png")
        XCTAssertEqual(fixed.size, PixelSize(width: 960, height: 150), "the largest accepted 6.4:1 size not enlarging it")
        XCTAssertEqual(fixed.changes.map(\.kind), [.barsCropped, .resized, .reencoded])
        XCTAssertEqual(fixed.changes[0].message, "bars baked into the artwork cropped (228 px left, 228 px right): the "
                       + "1728x270 artwork inside them kept, for the app to letterbox (baked_in_bars)")
        XCTAssertFalse(codes(fixed.bytes).contains("baked_in_bars"))
        XCTAssertFalse(fixed.remaining.contains { $0.code == .bakedInBars })
        XCTAssertNil(Preflight.bars(try ImageSource(bytes: fixed.bytes).header), "no bar left in the pixels")
    }

    func testBarsAroundArtOfNoAcceptedShapeStay() throws {
        // 1500x270 is 5.56:1: no banner size is within 1% of it.
        XCTAssertNil(FixBars.target(for: PixelSize(width: 1500, height: 270), request: FixRequest()))
        let upload = try barred(PixelSize(width: 1500, height: 270))
        XCTAssertTrue(codes(upload).contains("baked_in_bars"))
        let fixed = try Fixer.fix(try ImageSource(bytes: upload), request: FixRequest(), format: .png, outputName: "fixed.png")
        XCTAssertEqual(fixed.size, PixelSize(width: 2184, height: 270))
        XCTAssertFalse(fixed.changes.contains { $0.kind == .barsCropped })
        XCTAssertTrue(fixed.remaining.contains { $0.code == .bakedInBars })
    }

    /// The target: the largest accepted size of the artwork's shape that does not enlarge it,
    /// else the smallest of that shape; `--size` when it has the shape.
    func testTheTargetIsTheLargestOfTheShapeNotEnlargingIt() {
        XCTAssertEqual(FixBars.target(for: PixelSize(width: 1728, height: 270), request: FixRequest()),
                       PixelSize(width: 960, height: 150))
        XCTAssertEqual(FixBars.target(for: PixelSize(width: 300, height: 47), request: FixRequest()),
                       PixelSize(width: 320, height: 50))
        XCTAssertEqual(FixBars.target(for: PixelSize(width: 1320, height: 204), request: FixRequest()),
                       PixelSize(width: 1320, height: 204))
    }
}
