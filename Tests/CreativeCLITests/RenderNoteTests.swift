import CreativeCore
import CreativeImaging
import CreativeTestSupport
import Foundation
import XCTest

/// `render` renders what `validate` rejects (it is a preview), but says so on standard error,
/// with validate's code: an animated GIF, a file over 2 MiB, a size the catalog lacks.
final class RenderNoteTests: ScratchFolderTestCase {
    /// A 960x150 GIF of three frames.
    static func animatedGIF() throws -> [UInt8] {
        var stack = try Fixtures.solid(960, 150, [255, 0, 0])
        for index in 1..<3 {
            let frame = try Fixtures.solid(960, 150, [0, Double(80 * index), 255])
            stack = try VipsOperation("join").with("in1", .image(stack)).with("in2", .image(frame))
                .with("direction", .enumeration("vertical")).image()
        }
        return try Fixtures.save("gifsave_buffer", try stack.settingInt("page-height", 150))
    }

    /// The 960x150 test artwork with a 3 MB text chunk after its header: a valid PNG over the limit.
    static func heavyPNG() throws -> [UInt8] {
        let art = [UInt8](try Data(contentsOf: Tool.artwork960x150))
        let filler = Array("Comment".utf8) + [0] + [UInt8](repeating: 0x41, count: 3 * 1024 * 1024)
        return Array(art[0..<33]) + Fixtures.pngChunk("tEXt", filler) + Array(art[33...])
    }

    private func render(_ bytes: [UInt8], _ name: String) throws -> ToolRun {
        try Data(bytes).write(to: folder.appendingPathComponent(name))
        return try Tool.run(["render", name, "--slot", "390x61", "--output", "o.png", "--json"], in: folder)
    }

    func testRenderSaysWhatValidateWouldRejectWithTheCode() throws {
        let heavy = try Self.heavyPNG()
        XCTAssertGreaterThan(heavy.count, 3 * 1024 * 1024)
        let cases: [([UInt8], String, String)] = [
            (try Self.animatedGIF(), "a.gif", "validate would reject it (animated): animated GIF is not accepted; "
                + "upload one still frame (HTML5 ads are made in the ad editor)"),
            (heavy, "heavy.png", "validate would reject it (file_too_large): \(heavy.count) bytes is over the "
                + "limit of 2097152 bytes; export it smaller (the guideline is 150 KB (153,600 bytes))"),
        ]
        for (bytes, name, note) in cases {
            let run = try render(bytes, name)
            let validate = try Tool.run(["validate", name], in: folder)
            XCTAssertEqual(validate.status, 1, "\(name): validate rejects it")
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.stderr, "creative-tool render: note: \(note)\n")
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any])
            XCTAssertEqual(json["note"] as? String, note)
        }
        let accepted = try render([UInt8](try Data(contentsOf: Tool.artwork960x150)), "ok.png")
        XCTAssertEqual(accepted.stderr, "", "an accepted creative gets no note")
        let wrongSize = try Tool.run(["render", "a.gif", "--slot", "390x61", "--output", "p.png", "--product", "companion"],
                                     in: folder)
        XCTAssertTrue(wrongSize.stderr.contains("note: validate would reject it (animated)"), wrongSize.stderr)
    }

    /// A 320x50 rendered into the iPad Pro 12.9's landscape slot is enlarged 3.6x: written, and said.
    func testAnEnlargedRenderSaysItsFactor() throws {
        let small = try TestArtwork.generate(PixelSize(width: 320, height: 50))
        try Data(small).write(to: folder.appendingPathComponent("std-320x50.png"))
        let run = try Tool.run(["render", "std-320x50.png", "--device", "iPad Pro 12.9", "--orientation", "landscape",
                                "--output", "pro.png", "--json"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let sentence = "upscaled_render: the 320x50 artwork is enlarged 3.6x to 1152x180 in this slot (more than 2x "
            + "looks blurred): upload a larger size of the same shape for it"
        XCTAssertEqual(run.stderr, "creative-tool render: note: \(sentence)\n")
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any])
        XCTAssertEqual(json["note"] as? String, sentence)
        let warnings = try XCTUnwrap(json["warnings"] as? [[String: Any]])
        XCTAssertEqual(warnings.count, 1)
        XCTAssertEqual(warnings.first?["code"] as? String, "upscaled_render")
        XCTAssertEqual(warnings.first?["factor"] as? Double, 3.6)
        let phone = try Tool.run(["render", "std-320x50.png", "--device", "iPhone SE", "--output", "se.png", "--json"],
                                 in: folder)
        XCTAssertEqual(phone.stderr, "", "2x is no warning")
        let plain = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(phone.stdout)) as? [String: Any])
        XCTAssertEqual((plain["warnings"] as? [Any])?.count, 0)
    }
}
