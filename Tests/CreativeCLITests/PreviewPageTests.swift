import CreativeCore
@testable import CreativeImaging
import CreativeTestSupport
import Foundation
import XCTest

/// What `process` leaves for a person to look at: `preview.html`, the renders themselves at their
/// size in points, and a preview sheet that opens (at most 2 MB for a banner, no side over
/// 16,383 px): PNG for flat art, JPEG for a photograph.
final class PreviewPageTests: ScratchFolderTestCase {
    private func manifest(_ out: URL) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json")))
            as? [String: Any])
    }

    private func sheetSize(_ bytes: [UInt8]) throws -> PixelSize {
        try ImageSource(bytes: bytes).header.size
    }

    func testAPhotographsSheetIsAJPEGUnderTwoMegabytesAndThePageShowsEveryRenderAtItsPoints() throws {
        let input = folder.appendingPathComponent("photo-2184x270.jpg")
        try Data(try Fixtures.save("jpegsave_buffer", try Fixtures.photograph(2184, 270), [("Q", .int(90))])).write(to: input)
        let out = folder.appendingPathComponent("out")
        let run = try Tool.run(["process", input.path, "--output-dir", out.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(String(decoding: run.stdout, as: UTF8.self).contains("\(out.path)/preview.jpg, \(out.path)/preview.html"))
        let manifest = try manifest(out)
        let preview = try XCTUnwrap(manifest["preview"] as? [String: Any])
        XCTAssertEqual(preview["file"] as? String, "preview.jpg")
        XCTAssertEqual(preview["format"] as? String, "jpeg")
        let sheet = [UInt8](try Data(contentsOf: out.appendingPathComponent("preview.jpg")))
        XCTAssertEqual(sheet.count, preview["file_bytes"] as? Int)
        XCTAssertLessThanOrEqual(sheet.count, 2_000_000)
        XCTAssertEqual(try ImageSource(bytes: sheet).format, .jpeg)
        let size = try sheetSize(sheet)
        XCTAssertLessThanOrEqual(max(size.width, size.height), 16383)
        XCTAssertGreaterThan(size.height, 28 * 100, "every slot at 2x points")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("preview.png").path))

        // The page: one image per render, each the render's file at its slot's size in points.
        let pageEntry = try XCTUnwrap(preview["page"] as? [String: Any])
        XCTAssertEqual(pageEntry["file"] as? String, "preview.html")
        let pageBytes = [UInt8](try Data(contentsOf: out.appendingPathComponent("preview.html")))
        XCTAssertEqual(pageBytes.count, pageEntry["file_bytes"] as? Int)
        XCTAssertEqual(Checksum.sha256(pageBytes), pageEntry["sha256"] as? String)
        let page = String(decoding: pageBytes, as: UTF8.self)
        XCTAssertTrue(page.hasPrefix("<!DOCTYPE html>"))
        XCTAssertFalse(page.contains("<script"), "a static page")
        XCTAssertTrue(page.contains("<a href=\"preview.jpg\">"))
        let renders = try XCTUnwrap(manifest["renders"] as? [[String: Any]])
        XCTAssertEqual(renders.count, 28)
        XCTAssertEqual(page.components(separatedBy: "<img ").count - 1, renders.count)
        for render in renders {
            let file = try XCTUnwrap(render["file"] as? String)
            let pixels = try XCTUnwrap(render["slot_pixels"] as? [String: Int])
            let scale = try XCTUnwrap(render["scale"] as? Double)
            let width = PreviewPage.points(pixels["width"] ?? 0, scale), height = PreviewPage.points(pixels["height"] ?? 0, scale)
            XCTAssertTrue(page.contains("<img src=\"\(file)\" style=\"width:\(width)px;height:\(height)px\""), file)
        }
        // 390x61 pt at 3x is 1170x183 px: shown at 390x61 CSS pixels.
        XCTAssertTrue(page.contains("src=\"iphone-15-portrait-393x61@3x.webp\" style=\"width:393px;height:61px\""))

        // The folder is process's own: a second run replaces it.
        let again = try Tool.run(["process", input.path, "--output-dir", out.path])
        XCTAssertEqual(again.status, 0, again.stderr)
    }

    func testFlatArtsSheetStaysAPNG() throws {
        let out = folder.appendingPathComponent("flat")
        let artwork = Tool.packageRoot.appendingPathComponent("TestImages/test-artwork-960x150.png").path
        let run = try Tool.run(["process", artwork, "--output-dir", out.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let preview = try XCTUnwrap(try manifest(out)["preview"] as? [String: Any])
        XCTAssertEqual(preview["file"] as? String, "preview.png")
        XCTAssertEqual(preview["format"] as? String, "png")
        let sheet = [UInt8](try Data(contentsOf: out.appendingPathComponent("preview.png")))
        XCTAssertLessThanOrEqual(sheet.count, 2_000_000)
        XCTAssertEqual(try sheetSize(sheet), PixelSize(width: 2780, height: 4672), "every slot at 2x points")
        let page = String(decoding: try Data(contentsOf: out.appendingPathComponent("preview.html")), as: UTF8.self)
        XCTAssertTrue(page.contains("<a href=\"preview.png\">"))
    }
}
