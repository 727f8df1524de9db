import CreativeCore
@testable import CreativeImaging
import Foundation
import XCTest

/// `process` of a lone 320x50: every render is written, and each one enlarged more than 2x says
/// so (`upscaled_render` with its factor) in the manifest and on the preview page.
final class UpscaledRenderJobTests: XCTestCase {
    private func renders(_ result: JobResult) throws -> [[String: Any]] {
        let document = try JSONSerialization.jsonObject(with: Data(result.manifest.serialized().utf8)) as? [String: Any]
        return try XCTUnwrap(document?["renders"] as? [[String: Any]])
    }

    func testALone320x50IsRenderedEverywhereWithItsFactors() throws {
        let artwork = try TestArtwork.generate(PixelSize(width: 320, height: 50))
        let result = try CreativeJob.process(artwork, fileName: "std-320x50.png", settings: ProcessSettings(format: .fixed(.png)))
        let renders = try renders(result)
        XCTAssertEqual(renders.count, 28, "the rule: standard sizes are still rendered into anchored slots")
        var factors: [String: Double] = [:]
        for render in renders {
            let warnings = try XCTUnwrap(render["warnings"] as? [[String: Any]])
            guard let warning = warnings.first else { continue }
            XCTAssertEqual(warnings.count, 1)
            XCTAssertEqual(warning["code"] as? String, "upscaled_render")
            factors[try XCTUnwrap(render["file"] as? String)] = warning["factor"] as? Double
        }
        XCTAssertEqual(factors.count, 26)
        XCTAssertEqual(factors["ipad-pro-12-9-landscape-1366x90@2x.png"], 3.6)
        XCTAssertEqual(factors["iphone-15-portrait-393x61@3x.png"], 3.66)
        XCTAssertEqual(factors["iphone-15-plus-portrait-430x67@3x.png"], 4.02)
        XCTAssertNil(factors["iphone-se-portrait-320x50@2x.png"], "exactly 2x: no warning")
        let page = String(decoding: try XCTUnwrap(result.files.first { $0.name == PreviewPage.name }?.bytes), as: UTF8.self)
        XCTAssertTrue(page.contains(" · upscaled_render: enlarged 3.6x, looks blurred</figcaption>"), page)
        XCTAssertEqual(page.components(separatedBy: "upscaled_render: enlarged").count - 1, 26)
    }

    func testARetinaStripHasNoRenderWarning() throws {
        let artwork = try TestArtwork.generate(PixelSize(width: 2184, height: 270))
        let result = try CreativeJob.process(artwork, fileName: "a.png", settings: ProcessSettings(format: .fixed(.png)))
        for render in try renders(result) {
            XCTAssertEqual((render["warnings"] as? [Any])?.count, 0, "\(render["file"] ?? "")")
        }
    }

    func testTheSheetSummaryCountsTheEnlargedSlots() throws {
        let creative = PixelSize(width: 320, height: 50)
        let groups = PreviewSheet.groups(creative, product: .banner, campaign: [], scale: 1)
        let summary = PreviewSheet.summary(creative, groups: groups, warnings: [], bars: false)
        XCTAssertEqual(summary.dropFirst(2).first, "1 warning:")
        XCTAssertEqual(summary.last, "upscaled_render: enlarged more than 2x in 26 of 28 slots (up to 4.02x, "
                       + "iPhone 15 Plus portrait), which looks blurred: upload a larger size of the same shape")
    }
}
