import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import Foundation
import XCTest

/// `--product companion` through the built binary: validate, select, slot, render, prompt,
/// guidance and process into the standard slots of iPhones and iPads.
final class CompanionProductCommandTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws { folder = try Tool.scratch() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private let sizes = ["320x50", "640x100", "960x150", "728x90", "1456x180", "2184x270"]

    private func artwork(_ size: String) throws -> String { try Fixtures.solidArtwork(size, in: folder) }

    private func object(_ text: String) throws -> [String: Any] { try Fixtures.object(text) }

    private func pixels(_ url: URL) throws -> PixelReader {
        try PixelReader(encoded: [UInt8](Data(contentsOf: url)))
    }

    func testValidateAcceptsExactlyTheSixSizes() throws {
        let files = try sizes.map(artwork)
        let run = try Tool.run(["validate", "--product", "companion", "--json"] + files)
        XCTAssertEqual(run.status, 0, run.text)
        let reports = try run.text.split(separator: "\n").map { try object(String($0)) }
        XCTAssertEqual(reports.map { $0.sizeText("size_pixels") }, sizes)
        XCTAssertEqual(reports.map { $0["size_class"] as? String }, ["standard", "retina", "retina", "standard", "retina", "retina"])

        let rectangle = try artwork("300x250")
        let rejected = try Tool.run(["validate", "--product", "companion", "--json", rectangle])
        XCTAssertEqual(rejected.status, 1)
        let errors = try XCTUnwrap(try object(rejected.text)["errors"] as? [[String: String]])
        XCTAssertEqual(errors.map { $0["code"] }, ["dimensions_not_allowed"])
        XCTAssertTrue(errors[0]["message"]?.contains("not an accepted companion size (it is a banner size: give --product banner, product=banner over HTTP); the nearest are 320x50 or 640x100") == true,
                      "\(errors)")
        // Sizes of the other products are refused, and the @2x sizes are not banner sizes.
        for other in ["1320x204", "320x480"] {
            XCTAssertEqual(try Tool.run(["validate", "--product", "companion", try artwork(other)]).status, 1, other)
        }
        XCTAssertEqual(try Tool.run(["validate", files[1]]).status, 1)
        XCTAssertEqual(try Tool.run(["validate", rectangle]).status, 0)
    }

    func testSelectAndSlot() throws {
        let select = try Tool.run(["select", "--product", "companion", "--width", "640", "--height", "100", "--json"] + sizes)
        XCTAssertEqual(select.status, 0, select.stderr)
        let result = try object(select.text)
        XCTAssertEqual(result["slot_mode"] as? String, "standard_slot")
        XCTAssertEqual((result["winner"] as? [String: Any])?.sizeText("size_pixels"), "640x100")
        XCTAssertEqual(try Tool.run(["select", "--product", "companion", "--mode", "adaptive", "--width", "640",
                                     "--height", "100", "960x150"]).status, 64)

        let slot = try Tool.run(["slot", "--product", "companion", "--device", "iPad Air", "--json"])
        XCTAssertEqual(slot.status, 0, slot.stderr)
        let json = try object(slot.text)
        XCTAssertEqual(json.sizeText("slot_points"), "728x90")
        XCTAssertEqual(json.sizeText("slot_pixels"), "1456x180")
        XCTAssertEqual(json["device_class"] as? String, "tablet")
        let text = try Tool.run(["slot", "--product", "companion", "--device", "iPhone 15"])
        XCTAssertTrue(text.text.hasPrefix("320x50 pt @3x = 960x150 px, companion standard slot"), text.text)
        XCTAssertEqual(try Tool.run(["slot", "--product", "companion", "--width", "390"]).status, 64)
        XCTAssertEqual(try Tool.run(["slot", "--product", "companion"]).status, 64)
    }

    /// Several files: the companion rule picks the one for the slot; one file is letterboxed.
    func testRenderPicksByTheCompanionRule() throws {
        let phone = try artwork("960x150"), tablet = try artwork("2184x270")
        let run = try Tool.run(["render", phone, tablet, "--product", "companion", "--slot", "728x90", "--scale", "2",
                                "--output", "t.png"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.text.contains("2184x270 artwork shown at 1456x180 from (0,0)"), run.text)
        // --device: the device's standard slot instead of --slot and --scale.
        let device = try Tool.run(["render", phone, tablet, "--product", "companion", "--device", "iPhone SE",
                                   "--output", "d.png"], in: folder)
        XCTAssertEqual(device.status, 0, device.stderr)
        XCTAssertTrue(device.text.contains("640x100 px (slot 320x50 pt @2x, iPhone SE), 960x150 artwork shown at 640x100"), device.text)
        XCTAssertEqual(try Tool.run(["render", phone, "--product", "companion", "--device", "iPhone SE", "--scale", "3"],
                                    in: folder).status, 64)
        let letterboxed = try Tool.run(["render", phone, "--product", "companion", "--slot", "728x90", "--scale", "2",
                                        "--output", "l.png"], in: folder)
        XCTAssertEqual(letterboxed.status, 0, letterboxed.stderr)
        let image = try pixels(folder.appendingPathComponent("l.png"))
        XCTAssertEqual([image.width, image.height], [1456, 180])
        let box = try XCTUnwrap(image.opaqueBox())
        // 960x150 in 1456x180: scale 180/150, 1152x180 at x = (1456 - 1152) / 2 = 152.
        XCTAssertEqual([box.x, box.y, box.width, box.height], [152, 0, 1152, 180])
    }

    /// The must-hold: one upload is rendered into the standard slot of every iPhone, Android
    /// phone and iPad, each file exactly the slot's pixels with the content where the manifest says.
    func testProcessRendersTheIPhoneAndIPadStandardSlots() throws {
        let devices = ["iPhone SE", "iPhone 8", "iPhone 14", "iPhone 15", "iPhone 11", "iPhone 13 Pro Max",
                       "iPhone 15 Plus", "iPad mini", "iPad 9th gen", "iPad Air", "iPad Pro 11", "iPad Pro 12.9",
                       "Android phone", "Android Pixel"]
        let expected: [String: [String: (size: [Int], content: [Int])]] = [
            "960x150": [
                "iphone-se-standard-320x50@2x.png": ([640, 100], [0, 0, 640, 100]),
                "iphone-15-standard-320x50@3x.png": ([960, 150], [0, 0, 960, 150]),
                // 840x131 px: scale 131/150, content 838x131 centred at x 1.
                "android-pixel-standard-320x50@2.625x.png": ([840, 131], [1, 0, 838, 131]),
                // 6.4:1 artwork in the iPad's 8.09:1 slot: 1152x180, centred at x 152.
                "ipad-air-standard-728x90@2x.png": ([1456, 180], [152, 0, 1152, 180]),
            ],
            "2184x270": [
                "ipad-air-standard-728x90@2x.png": ([1456, 180], [0, 0, 1456, 180]),
                "ipad-pro-12-9-standard-728x90@2x.png": ([1456, 180], [0, 0, 1456, 180]),
                // 8.09:1 artwork in the iPhone's 6.4:1 slot: 960x119, centred at y 15.
                "iphone-15-standard-320x50@3x.png": ([960, 150], [0, 15, 960, 119]),
            ],
        ]
        for (size, files) in expected {
            let out = folder.appendingPathComponent(size)
            // Lossless renders: the pixel geometry is what is checked.
            let run = try Tool.run(["process", try artwork(size), "--product", "companion", "--format", "png",
                                    "--output-dir", out.path, "--json"])
            XCTAssertEqual(run.status, 0, run.stderr)
            let manifest = try object(run.text)
            XCTAssertEqual(manifest["product"] as? String, "companion")
            XCTAssertNil(manifest["close_zone_pixels"])
            let renders = try XCTUnwrap(manifest["renders"] as? [[String: Any]])
            XCTAssertEqual(renders.compactMap { $0["device"] as? String }, devices, size)
            XCTAssertTrue(renders.allSatisfy { $0["slot_mode"] as? String == "standard_slot" && $0["orientation"] as? String == "any" })
            for (file, want) in files {
                let image = try pixels(out.appendingPathComponent(file))
                XCTAssertEqual([image.width, image.height], want.size, file)
                let box = try XCTUnwrap(image.opaqueBox())
                XCTAssertEqual([box.x, box.y, box.width, box.height], want.content, file)
                let render = try XCTUnwrap(renders.first { $0["file"] as? String == file })
                XCTAssertEqual([render.position("content_position_pixels")?[0], render.position("content_position_pixels")?[1]], [want.content[0], want.content[1]], file)
                XCTAssertEqual(render.sizeText("content_pixels"), "\(want.content[2])x\(want.content[3])", file)
            }
        }
        // A banner-only size is rejected for companions.
        XCTAssertEqual(try Tool.run(["process", try artwork("1320x204"), "--product", "companion",
                                     "--output-dir", folder.appendingPathComponent("r").path]).status, 1)
    }

    func testGuidanceAndPrompt() throws {
        let run = try Tool.run(["guidance", "--product", "companion"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let document = try object(run.text)
        XCTAssertEqual(document["product"] as? String, "companion")
        XCTAssertEqual((document["sizes"] as? [[String: Any]])?.map { $0.sizeText("size_pixels") }, sizes)
        XCTAssertEqual((document["recommended_upload_pixels"] as? [Any])?.map(JSONShapes.size), ["960x150", "2184x270"])
        XCTAssertEqual(((document["slot"] as? [String: Any])?["slot_points"] as? [String: Any])?.mapValues(JSONShapes.size),
                       ["phone": "320x50", "tablet": "728x90"])
        XCTAssertEqual((document["fit"] as? [String: Any])?["rule"] as? String, "aspect_ratio_then_sharpest")
        XCTAssertEqual((document["slots"] as? [Any])?.count, Devices.all.count)
        for format in ["markdown", "html"] {
            let page = try Tool.run(["guidance", "--product", "companion", "--format", format])
            XCTAssertEqual(page.status, 0, page.stderr)
            XCTAssertTrue(page.text.contains("Companion artwork guidance"), format)
            XCTAssertTrue(page.text.contains("iPad Pro 12.9"), format)
        }

        let prompts = try Tool.run(["prompt", "--product", "companion", "--json"])
        XCTAssertEqual(prompts.status, 0, prompts.stderr)
        let lines = try prompts.text.split(separator: "\n").map { try object(String($0)) }
        XCTAssertEqual(lines.map { $0.sizeText("artwork_pixels") }, ["960x150", "2184x270"])
        XCTAssertTrue(lines.allSatisfy { $0["close_zone_pixels"] == nil && $0["product"] as? String == "companion" })
        XCTAssertEqual(try Tool.run(["prompt", "--product", "companion", "--size", "640x100"]).status, 0)
        XCTAssertEqual(try Tool.run(["prompt", "--product", "companion", "--size", "1320x204"]).status, 64)
    }

    /// Adding the companion product changes no banner or interstitial output: SHA-256 of what the
    /// commands printed (and, for `process`, of each render's and the preview's checksum) before
    /// companions existed. Guidance HTML and the validation report are left out: other work changes them.
    /// The render and `process` checksums were taken again when PNG renders moved to the content-
    /// chosen writer (smallest exact colour type, filters by content).
    /// The JSON checksums were taken again when the outputs moved to schema version 2 (sizes as
    /// objects, the version fields, which include the tool's version), and the prompts' once more
    /// when the template said "a screenshot of one" instead of "of a {{kind}}" ("of a interstitial ad").
    /// Guidance's were taken again when the weight guideline became 153,600 bytes and its slot tables
    /// marked the slots enlarging the artwork more than 2x (`upscaled_render`): with those two
    /// changes undone, the new outputs hash to the old checksums.
    func testBannerAndInterstitialOutputsAreUnchanged() throws {
        let expected: [([String], String)] = [
            (["guidance", "--product", "banner", "--format", "json"], "a5d0d72cc87275fa6b745e5adaef174474ec0d92f302e5a06e759e68d407ab36"),
            (["guidance", "--product", "banner", "--format", "markdown"], "eda0cb4c2c48ab73b59835a2b0f0c8b4c4f88de8e5c36794a5259663e2571713"),
            (["prompt", "--product", "banner", "--json"], "e25ae7ea4bb5bd54ccf37f54acf2b5cf950ce6634c1976329c4a3d640bc81f4c"),
            (["guidance", "--product", "interstitial", "--format", "json"], "99df0e269dcc5d53859219409f875c2a75fa562258670abc9c7dcece9b29096f"),
            (["guidance", "--product", "interstitial", "--format", "markdown"], "10115dcdd7255623065db1183125abcb5d9f878d7222b0b3e10d00f606faa45c"),
            (["prompt", "--product", "interstitial", "--json"], "1e3ea04f1743ddebfd264e5e8e5489dca83eff7c6ef22049cb5b7b5a17ae0312"),
            (["select", "--width", "1179", "--height", "184", "--json", "960x150", "1320x204", "2184x270", "320x50", "300x250"],
             "14453894f46986042ca61ab27f15b9a3a51a376d74607e355d5b6b170c164538"),
            (["render", "--slot", "390x61", "--scale", "3", "--output", "-"], "2d95d56b23bc70390d2e3edffee26d9e3ba09019d206382a3b4b5e13c24f4ef3"),
        ]
        for (arguments, sha) in expected {
            let run = try Tool.run(arguments)
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(Checksum.sha256(run.stdout), sha, arguments.joined(separator: " "))
        }
        let out = folder.appendingPathComponent("banner")
        // Lossless: `auto` (the default) decides by SSIM, which may differ in the last digits
        // between libvips versions. In the campaign of the three Retina sizes, as these
        // checksums were taken (a creative alone is served in every anchored slot).
        let run = try Tool.run(["process", Tool.artwork960x150.path, "--with", "1320x204,2184x270", "--format", "png",
                                "--output-dir", out.path, "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let manifest = try object(run.text)
        let renders = try XCTUnwrap(manifest["renders"] as? [[String: Any]])
        let preview = try XCTUnwrap(manifest["preview"] as? [String: Any])
        // The preview by its pixels: its PNG's bytes follow the sheet's encoder, which is not what this guards.
        XCTAssertNotNil(preview["sha256"] as? String)
        let sheet = try Fixtures.decode(Array(try Data(contentsOf: out.appendingPathComponent("preview.png"))))
        let listing = renders.map { "\($0["file"] as? String ?? "") \($0["sha256"] as? String ?? "")\n" }.joined()
            + "preview.png pixels \(Checksum.sha256(try sheet.pixelBytes()))\n"
        // Downscaled renders and the preview differ in the last bits between libvips 8.14 (liborc)
        // and 8.15+ (Highway), so each series has its checksum (8.16's stands for 8.15-8.17). The
        // wheel's 8.18 draws the preview's text with its own FreeType and HarfBuzz (the sheet is one
        // pixel taller; looked at beside 8.14's: the same sheet, glyphs a shade apart). Taken again
        // when the sheet moved to 2x points with a summary (8.14 and 8.18; 8.15-8.17's predates it),
        // and again when the preview came to be listed by its pixels.
        let expectedBySeries = [
            "8.14.": "fa4738fd719368969c077d2c592589145f1e1459edaf4fea7d5c7a21fe46267e",
            "8.18.": "50c5328700d51a5053138ac8ed1d4c6a25da6db17c1858031f7661cefaa237cd",
        ]
        let expectedListing = expectedBySeries.first { VipsRuntime.version.hasPrefix($0.key) }?.value
            ?? "9cb679024de58fe4240b8f8c29c701e26a63a1a4c1d9b86b6f27be0f226412c6"
        XCTAssertEqual(Checksum.sha256(Array(listing.utf8)), expectedListing, "libvips \(VipsRuntime.version)")
    }
}
