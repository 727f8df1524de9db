import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import Foundation
import XCTest

/// Every render of `process` shows the content over exactly the rectangle its manifest entry
/// names: opaque from its first column to its last, the bars transparent. `auto` decides its
/// smallest render first from the whole decoded creative; fitted again into the content's
/// rectangle, the 2184x270 artwork rounded to 639 of its 640 columns, and the last column of the
/// iPhone SE render came out transparent.
final class ProcessContentEdgeTests: XCTestCase {
    func testEveryRenderIsOpaqueOverItsWholeContentRectangle() throws {
        let size = PixelSize(width: 2184, height: 270)
        let artwork = try XCTUnwrap(TestArtwork.embedded(size))
        for format in [FormatChoice.auto, .fixed(.webp), .fixed(.png)] {
            let result = try CreativeJob.process(artwork, fileName: "artwork.png", settings: ProcessSettings(format: format))
            let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.manifest.serialized().utf8)) as? [String: Any])
            let entries = try XCTUnwrap(manifest["renders"] as? [[String: Any]])
            XCTAssertEqual(entries.count, result.files.count - 2, "\(format): every render, the sheet and the page")
            for entry in entries {
                let name = try XCTUnwrap(entry["file"] as? String)
                let file = try XCTUnwrap(result.files.first { $0.name == name })
                let image = try PixelReader(encoded: file.bytes)
                let content = try XCTUnwrap(entry["content_pixels"] as? [String: Int])
                let position = try XCTUnwrap(entry["content_position_pixels"] as? [String: Int])
                let x = try XCTUnwrap(position["x"]), y = try XCTUnwrap(position["y"])
                let width = try XCTUnwrap(content["width"]), height = try XCTUnwrap(content["height"])
                XCTAssertEqual(image.bands, 4, "\(format) \(name): transparent bars")
                let middle = y + height / 2
                XCTAssertEqual(image[x, middle][3], 255, "\(format) \(name): first content column")
                XCTAssertEqual(image[x + width - 1, middle][3], 255, "\(format) \(name): last content column")
                XCTAssertEqual(image[x + width / 2, y][3], 255, "\(format) \(name): first content row")
                XCTAssertEqual(image[x + width / 2, y + height - 1][3], 255, "\(format) \(name): last content row")
                if y > 0 { XCTAssertEqual(image[x + width / 2, y - 1][3], 0, "\(format) \(name): the bar above") }
            }
        }
    }
}
