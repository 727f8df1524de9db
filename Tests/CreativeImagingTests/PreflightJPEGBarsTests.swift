import CreativeCore
import CreativeTestSupport
import Foundation
@testable import CreativeImaging
import XCTest

/// `baked_in_bars` on black bars baked into a JPEG, the most common upload: the content's edge
/// rings into the bar's last lines and the halved chroma bleeds into them, most visibly near
/// black. Exports at quality 75-95 from two encoders: libjpeg through libvips (made here) and
/// ImageMagick (committed in TestImages/preflight-jpeg/, see its README.md). JPEGs without bars,
/// and plain backgrounds around a logo, keep giving none.
final class PreflightJPEGBarsTests: XCTestCase {
    static let qualities = [75, 80, 85, 90, 95]
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TestImages/preflight-jpeg")

    private func codes(_ bytes: [UInt8], _ name: String) -> Set<ValidationCode> {
        let report = Validator.validate(bytes, fileName: name)
        XCTAssertTrue(report.valid, "\(name): \(report.errors)")
        return Set(report.warnings.map(\.code))
    }

    func testBlackBarsInLibjpegExportsAreFound() throws {
        let sizes = PreflightCorpus.strips + [PixelSize(width: 728, height: 90), PixelSize(width: 300, height: 250)]
        for (index, size) in sizes.enumerated() {
            let letterboxed = try PreflightCorpus.bars(
                PreflightCorpus.photo(PixelSize(width: size.width, height: Int(Double(size.height) * 0.8)), seed: 120 + index),
                in: size, [0, 0, 0])
            let pillarboxed = try PreflightCorpus.bars(
                PreflightCorpus.photo(PixelSize(width: size.width * 3 / 4, height: size.height), seed: 130 + index),
                in: size, [0, 0, 0])
            for quality in Self.qualities {
                for (kind, image) in [("letterboxed", letterboxed), ("pillarboxed", pillarboxed)] {
                    let name = "photo \(kind) black \(size) q\(quality).jpg"
                    let bytes = try Fixtures.jpeg(image, [("Q", .int(quality))])
                    XCTAssertTrue(codes(bytes, name).contains(.bakedInBars), "\(name): bars missed")
                }
            }
        }
    }

    func testBlackBarsInImageMagickExportsAreFound() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".jpg") }.sorted()
        let barred = names.filter { $0.contains("boxed-black") }
        XCTAssertEqual(barred.count, 9, "three layouts at q75, q85 and q95: \(names)")
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent(name)))
            XCTAssertEqual(Array(bytes.prefix(3)), [0xFF, 0xD8, 0xFF], name)
            let found = codes(bytes, name).contains(.bakedInBars)
            XCTAssertEqual(found, barred.contains(name), "\(name): baked_in_bars \(found ? "found" : "missed")")
        }
    }

    func testJPEGsWithoutBarsGiveNone() throws {
        for (index, size) in PreflightCorpus.strips.enumerated() {
            let photo = try PreflightCorpus.photo(size, seed: 140 + index)
            let flat = try PreflightCorpus.flat(size, seed: index)
            // A plain background around a logo and a headline: no letterbox, whatever the edges.
            let white = try PreflightCorpus.whiteArt(size, border: true)
            let dark = try PreflightCorpus.whiteArt(size, border: false, dark: true)
            for quality in Self.qualities {
                for (kind, image) in [("photo", photo), ("flat art", flat), ("white art", white), ("dark art", dark)] {
                    let name = "\(kind) \(size) q\(quality).jpg"
                    let bytes = try Fixtures.jpeg(image, [("Q", .int(quality))])
                    XCTAssertFalse(codes(bytes, name).contains(.bakedInBars), "\(name): false baked_in_bars")
                }
            }
        }
    }
}
