@testable import CreativeImaging
import XCTest

/// The Laplacian statistic of the enlargement check gives one value whatever the samples' layout:
/// opaque RGB (its own loop), the same pixels as RGBA with alpha 255, and as palette indices.
final class PreflightDetailTests: XCTestCase {
    /// Pixels of a fixed pseudo-random pattern: smooth ramps with noise, odd sizes (the sampled
    /// rows and columns end on a remainder).
    private func rgb(width: Int, height: Int) -> [UInt8] {
        var state: UInt32 = 2_463_534_242
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                state ^= state << 13; state ^= state >> 17; state ^= state << 5
                let noise = Int(state % 9) - 4
                let red = UInt8(clamping: x * 3 + noise), green = UInt8(clamping: y * 5 - noise)
                pixels += [red, green, UInt8(clamping: (x + y) * 2)]
            }
        }
        return pixels
    }

    func testOpaqueRGBGivesTheValueOfTheSameRGBA() throws {
        for (width, height) in [(37, 23), (64, 16), (5, 4), (2184, 9)] {
            let samples = rgb(width: width, height: height)
            var rgba: [UInt8] = []
            for start in stride(from: 0, to: samples.count, by: 3) {
                rgba += samples[start..<start + 3]
                rgba.append(255)
            }
            let opaque = PreflightPixels(width: width, height: height, bands: 3, rgba: samples).laplacianCorrelation()
            let withAlpha = PreflightPixels(width: width, height: height, bands: 4, rgba: rgba).laplacianCorrelation()
            XCTAssertNotNil(opaque)
            XCTAssertEqual(opaque, withAlpha, "\(width)x\(height)")
        }
    }

    func testOpaqueRGBGivesTheValueOfTheSamePaletteImage() throws {
        // Few colours: the pixels as indices into a palette of them.
        let (width, height) = (41, 19)
        var palette = [UInt8](repeating: 255, count: 256 * 4)
        var samples: [UInt8] = [], indices: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let index = (x / 3 + y * 7) % 200
                indices.append(UInt8(index))
                let colour: [UInt8] = [UInt8(index), UInt8(255 - index), UInt8((index * 7) % 256)]
                palette.replaceSubrange(index * 4..<index * 4 + 3, with: colour)
                samples += colour
            }
        }
        let opaque = PreflightPixels(width: width, height: height, bands: 3, rgba: samples).laplacianCorrelation()
        let indexed = PreflightPixels(width: width, height: height, indices: indices, palette: palette).laplacianCorrelation()
        XCTAssertNotNil(opaque)
        XCTAssertEqual(opaque, indexed)
    }

    func testTooSmallHasNoValue() {
        XCTAssertNil(PreflightPixels(width: 3, height: 8, bands: 3, rgba: [UInt8](repeating: 9, count: 72)).laplacianCorrelation())
    }
}
