import CreativeCore
import CreativeImaging
import Foundation
import CreativeTestSupport
import XCTest

/// `creative-tool prompt` through the built binary.
final class PromptCommandTests: XCTestCase {
    private let allowed = ["960x150", "1320x204", "2184x270", "320x50", "320x100", "300x250", "468x60", "728x90"]
    private let aspects = ["6.40:1", "6.47:1", "8.09:1", "6.40:1", "3.20:1", "1.20:1", "7.80:1", "8.09:1"]

    func testEveryAllowedSizeNamesItsExactPixelsAndAspect() throws {
        for (size, aspect) in zip(allowed, aspects) {
            let run = try Tool.run(["prompt", "--size", size, "--headline", "Fresh bread", "--cta", "Order"])
            XCTAssertEqual(run.status, 0, run.stderr)
            let parts = size.split(separator: "x")
            XCTAssertTrue(run.text.contains("exactly \(parts[0]) x \(parts[1]) pixels"), run.text)
            XCTAssertTrue(run.text.contains("aspect ratio \(aspect)"), run.text)
            XCTAssertFalse(run.text.contains("=="), "one size, no header: \(run.text)")
            XCTAssertTrue(run.text.hasSuffix(".\n"), run.text)
        }
    }

    func testDefaultIsOnePromptPerRetinaSize() throws {
        let run = try Tool.run(["prompt"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let headers = run.text.split(separator: "\n").filter { $0.hasPrefix("== ") }
        XCTAssertEqual(headers, ["== 960x150 (6.40:1) ==", "== 1320x204 (6.47:1) ==", "== 2184x270 (8.09:1) =="])
        XCTAssertEqual(run.text.components(separatedBy: "Flat digital advertising banner").count - 1, 3)
        XCTAssertTrue(run.text.contains("No text at all"), run.text)
    }

    func testHostileTextComesOutVerbatimAndChangesNothingElse() throws {
        let hostile = "{{headline}} }}{{ {{#text}}{{/brand}} \"quoted\" 'single' back\\slash\nnew line\r\n"
            + "$1 %s %@ ünïcødé 🚀"
        for size in ["960x150", "300x250"] {
            let common = ["prompt", "--size", size, "--headline", "Fresh bread", "--cta", "Order now"]
            let plain = try Tool.run(common + ["--brand", "PLAINBRAND"])
            let odd = try Tool.run(common + ["--brand", hostile])
            XCTAssertEqual(odd.status, 0, odd.stderr)
            XCTAssertTrue(odd.text.contains(hostile), odd.text)
            XCTAssertEqual(odd.text.replacing(hostile, with: "PLAINBRAND"), plain.text)

            let headline = try Tool.run(["prompt", "--size", size, "--brand", "PLAINBRAND", "--cta", "Order now",
                                         "--headline", hostile])
            XCTAssertTrue(headline.text.contains("\"\(hostile)\""), headline.text)
            XCTAssertEqual(headline.text.replacing(hostile, with: "Fresh bread"), plain.text)
        }
    }

    func testASizeThatIsNotAllowedIsAUsageErrorListingTheAllowedOnes() throws {
        for size in ["961x150", "100x100", "150x960"] {
            let run = try Tool.run(["prompt", "--size", size])
            XCTAssertEqual(run.status, 64, run.stderr)
            XCTAssertTrue(run.text.isEmpty, run.text)
            for allowedSize in allowed { XCTAssertTrue(run.stderr.contains(allowedSize), run.stderr) }
        }
        XCTAssertEqual(try Tool.run(["prompt", "--size", "wide"]).status, 64)
        XCTAssertEqual(try Tool.run(["prompt", "--size"]).status, 64)
        XCTAssertEqual(try Tool.run(["prompt", "960x150"]).status, 64)
        XCTAssertEqual(try Tool.run(["prompt", "--brand", "a", "--brand", "b"]).status, 64)
        XCTAssertEqual(try Tool.run(["prompt", "--font", "x"]).status, 64)
        let help = try Tool.run(["prompt", "--help"])
        XCTAssertTrue(help.status == 0 && help.text.contains("--headline") && help.text.contains("728x90"), help.text)
    }

    func testJSONIsOneObjectPerPromptPerLine() throws {
        let run = try Tool.run(["prompt", "--json", "--brand", "Acme \"Co\"\n{{cta}}", "--cta", "Go"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.text.split(separator: "\n")
        XCTAssertEqual(lines.count, 3)
        let objects = try lines.map { line in
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        XCTAssertEqual(objects.map { $0.sizeText("artwork_pixels") }, ["960x150", "1320x204", "2184x270"])
        for object in objects {
            XCTAssertEqual(Set(object.keys), ["schema_version", "tool_version", "product", "artwork_pixels", "aspect_ratio",
                                              "safe_area_pixels", "min_text_height_pixels", "prompt"])
            let artwork = try XCTUnwrap(object["artwork_pixels"] as? [String: Int])
            let width = try XCTUnwrap(artwork["width"]), height = try XCTUnwrap(artwork["height"])
            XCTAssertEqual(try XCTUnwrap(object["aspect_ratio"] as? Double), Double(width) / Double(height), accuracy: 1e-4)
            let area = try XCTUnwrap(object["safe_area_pixels"] as? [String: Int])
            XCTAssertEqual(Set(area.keys), ["x", "y", "width", "height"])
            XCTAssertEqual(area["x"]! * 2 + area["width"]!, width)
            XCTAssertEqual(area["y"]! * 2 + area["height"]!, height)
            XCTAssertGreaterThan(try XCTUnwrap(object["min_text_height_pixels"] as? Int), 0)
            let prompt = try XCTUnwrap(object["prompt"] as? String)
            XCTAssertTrue(prompt.contains("for Acme \"Co\"\n{{cta}},"), prompt)
            XCTAssertTrue(prompt.contains("aspect ratio \(BannerPrompt.aspectText(PixelSize(width: width, height: height)))"), prompt)
        }
        let one = try Tool.run(["prompt", "--json", "--size", "300x250"])
        XCTAssertTrue(one.text.contains(#""artwork_pixels":{"width":300,"height":250},"aspect_ratio":1.2,"#), one.text)
    }

    func testTheBinaryCarriesTheShippedTemplate() throws {
        let file = try String(contentsOf: Tool.packageRoot.appendingPathComponent("Prompts/banner.txt"), encoding: .utf8)
        XCTAssertEqual(BannerPrompts.template, file, "rebuild: the embedded Prompts/banner.txt is stale")
        // Run from a folder with no Prompts/ in it: the template comes from the binary.
        let folder = try Tool.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Tool.run(["prompt", "--size", "468x60"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.text, try BannerPrompts.render(size: PixelSize(width: 468, height: 60), product: .banner)[0].text + "\n")
    }
}
