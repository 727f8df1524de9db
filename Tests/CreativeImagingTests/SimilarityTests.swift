import CreativeCore
@testable import CreativeImaging
import XCTest

/// The SSIM `auto` and the quality floor measure by (``Similarity``, summed in C) is
/// scikit-image's, to the sixth decimal, on a JPEG of the test artwork (TestImages/similarity,
/// whose README gives the figures and how they were computed).
final class SimilarityTests: XCTestCase {
    private func images() throws -> (VImage, VImage) {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("TestImages")
        func load(_ path: String) throws -> VImage {
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(path)))
            return try VipsOperation("pngload_buffer").with("buffer", .bytes(bytes)).image().materialized()
        }
        return (try load("test-artwork-960x150.png"), try load("similarity/test-artwork-jpeg-q30.png"))
    }

    func testTheMeanOverRGBIsScikitImages() throws {
        let (artwork, jpeg) = try images()
        XCTAssertEqual(try Similarity.ssim(artwork, jpeg), 0.9567983704822489, accuracy: 1e-6)
        XCTAssertEqual(try Similarity.ssim(artwork, artwork), 1, accuracy: 1e-12)
    }

    func testLumaAndChromaAreScikitImages() throws {
        let (artwork, jpeg) = try images()
        let score = try Similarity.Perceptual(artwork, area: nil).score(jpeg)
        XCTAssertEqual(score.luma, 0.9811082298188771, accuracy: 1e-6)
        XCTAssertEqual(score.chroma, 0.9495118280480092, accuracy: 1e-6)
        XCTAssertEqual(try Similarity.lumaSSIM(artwork, jpeg, area: nil), 0.9811082298188771, accuracy: 1e-6)
    }

    /// A plane summed in several strips (as a full screen is) gives the same mean as in one.
    func testStripsSumToTheWholePlanesMean() throws {
        let (artwork, jpeg) = try images()
        let x = try Similarity.prepared(artwork, area: nil).materialized()
        let y = try Similarity.prepared(jpeg, area: nil).materialized()
        let whole = try Similarity.mean(x: x, y: y)
        let strips = try Similarity.mean(x: x, y: y, stripSamples: 960 * 3 * 16)
        XCTAssertEqual(strips, whole, accuracy: 1e-12)
        XCTAssertEqual(whole, 0.9567983704822489, accuracy: 1e-6)
    }

    /// Over an area, only the area counts: the artwork beside white bars scores as the artwork alone.
    func testOnlyTheAreaIsScored() throws {
        let (artwork, jpeg) = try images()
        func barred(_ image: VImage) throws -> VImage {
            try VipsOperation("embed").with("in", .image(image)).with("x", .int(40)).with("y", .int(0))
                .with("width", .int(1040)).with("height", .int(150)).with("extend", .enumeration("white")).image()
                .materialized()
        }
        let area = PixelRect(x: 40, y: 0, width: 960, height: 150)
        XCTAssertEqual(try Similarity.ssim(try barred(artwork), try barred(jpeg), area: area), 0.9567983704822489,
                       accuracy: 1e-6)
    }
}
