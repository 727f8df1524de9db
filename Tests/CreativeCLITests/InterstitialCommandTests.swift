import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import Foundation
import XCTest

/// `--product interstitial` through the built binary: validate, slot, render, prompt, guidance, process.
final class InterstitialCommandTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws { folder = try Tool.scratch() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private let sizes = ["320x480", "768x1024", "480x320", "1024x768", "1080x1920", "1920x1080"]

    private func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    private func artwork(_ size: String) throws -> String { try Fixtures.solidArtwork(size, in: folder) }

    private func object(_ text: String) throws -> [String: Any] { try Fixtures.object(text) }

    func testValidateAcceptsExactlyTheSixSizes() throws {
        let files = try sizes.map(artwork)
        let run = try Tool.run(["validate", "--product", "interstitial", "--json"] + files)
        XCTAssertEqual(run.status, 0, run.text)
        let reports = try run.text.split(separator: "\n").map { try object(String($0)) }
        XCTAssertEqual(reports.map { $0.sizeText("size_pixels") }, sizes)

        let banner = try artwork("320x50")
        let rejected = try Tool.run(["validate", "--product", "interstitial", "--json", banner])
        XCTAssertEqual(rejected.status, 1)
        let report = try object(rejected.text)
        let errors = try XCTUnwrap(report["errors"] as? [[String: String]])
        XCTAssertEqual(errors.map { $0["code"] }, ["dimensions_not_allowed"])
        XCTAssertTrue(errors[0]["message"]?.contains("the nearest are 320x480 or 480x320") == true, "\(errors)")

        // Without --product: banners, as before.
        let unchanged = try Tool.run(["validate", "--json", files[0]])
        XCTAssertEqual(unchanged.status, 1)
        XCTAssertTrue(unchanged.text.contains("\"code\":\"dimensions_not_allowed\""), unchanged.text)
        XCTAssertEqual(try Tool.run(["validate", banner]).status, 0)
        XCTAssertEqual(try Tool.run(["validate", "--product", "video", banner]).status, 64)
    }

    func testSlotPrintsTheSafeAreaAndInsets() throws {
        let run = try Tool.run(["slot", "--product", "interstitial", "--device", "iPhone 15", "--orientation", "portrait", "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let slot = try object(run.text)
        XCTAssertEqual(slot.sizeText("screen_pixels"), "1179x2556")
        XCTAssertEqual(slot.sizeText("safe_area_points"), "393x759")
        XCTAssertEqual(JSONShapes.size(slot["safe_area_pixels"]), "1179x2277")
        XCTAssertEqual(slot["insets_points"] as? [String: Int], ["top": 59, "left": 0, "bottom": 34, "right": 0])
        let text = try Tool.run(["slot", "--product", "interstitial", "--device", "iPhone 15"])
        XCTAssertTrue(text.text.hasPrefix("393x759 pt @3x = 1179x2277 px"), text.text)
        XCTAssertEqual(try Tool.run(["slot", "--product", "interstitial", "--device", "Nokia"]).status, 64)
        XCTAssertEqual(try Tool.run(["slot", "--width", "390", "--device", "iPhone 15"]).status, 64)
    }

    /// The must-hold: the whole screen in pixels, the artwork aspect fit and centred in the safe
    /// area, transparent bars everywhere else.
    func testRenderFillsTheSafeAreaOfTheWholeScreen() throws {
        let tall = try write(try Fixtures.pngSolid(1080, 1920), "tall.png")
        let run = try Tool.run(["render", tall, "--product", "interstitial", "--device", "iPhone 15",
                                "--orientation", "portrait", "--output", "out.png"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let pixels = try PixelReader(encoded: [UInt8](Data(contentsOf: folder.appendingPathComponent("out.png"))))
        XCTAssertEqual([pixels.width, pixels.height], [1179, 2556])
        // Safe area: y 59..818 pt = 177..2454 px (2277 tall); 1080x1920 fits its width: 1179x2096,
        // centred: y = 177 + (2277 - 2096) / 2 = 267.
        let box = try XCTUnwrap(pixels.opaqueBox())
        XCTAssertEqual([box.x, box.y, box.width, box.height], [0, 267, 1179, 2096])
        XCTAssertTrue(pixels.isClose(589, 1300, to: [0, 0, 255, 255]))
        XCTAssertEqual(pixels[589, 266][3], 0)
        XCTAssertEqual(pixels[589, 267 + 2096][3], 0)

        // Landscape artwork on a portrait screen is letterboxed into the safe area.
        let wide = try write(try Fixtures.pngSolid(1920, 1080), "wide.png")
        XCTAssertEqual(try Tool.run(["render", wide, "--product", "interstitial", "--device", "iPhone 15",
                                     "--output", "w.png"], in: folder).status, 0)
        let letterboxed = try PixelReader(encoded: [UInt8](Data(contentsOf: folder.appendingPathComponent("w.png"))))
        let wideBox = try XCTUnwrap(letterboxed.opaqueBox())
        // 1179 wide: 1179 x 663 (1080 * 1179 / 1920 = 663.2), y = 177 + (2277 - 663) / 2 = 984.
        XCTAssertEqual([wideBox.x, wideBox.y, wideBox.width, wideBox.height], [0, 984, 1179, 663])

        // Several files: the landscape screen picks the landscape artwork.
        let picked = try Tool.run(["render", tall, wide, "--product", "interstitial", "--device", "iPhone 15",
                                   "--orientation", "landscape", "--output", "l.png"], in: folder)
        XCTAssertEqual(picked.status, 0, picked.stderr)
        XCTAssertTrue(picked.text.contains("1920x1080 artwork"), picked.text)
        XCTAssertTrue(picked.text.contains("2556x1179 px"), picked.text)
        // --slot keeps working for any size.
        XCTAssertEqual(try Tool.run(["render", tall, "--slot", "320x480", "--output", "s.png"], in: folder).status, 0)
    }

    func testPromptNamesTheCloseZoneInPixels() throws {
        let run = try Tool.run(["prompt", "--product", "interstitial", "--size", "1080x1920", "--headline", "Play", "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let prompt = try object(run.text)
        let zone = try XCTUnwrap(prompt["close_zone_pixels"] as? [String: Int])
        let expected = try XCTUnwrap(CloseButton.zone(for: PixelSize(width: 1080, height: 1920), product: .interstitial))
        XCTAssertEqual(zone, ["x": expected.x, "y": expected.y, "width": expected.width, "height": expected.height])
        let text = try XCTUnwrap(prompt["prompt"] as? String)
        XCTAssertTrue(text.contains("\(expected.width) x \(expected.height) pixel rectangle whose top-left corner is at "
                                    + "x \(expected.x), y \(expected.y)"), text)
        XCTAssertEqual(try Tool.run(["prompt", "--product", "interstitial", "--size", "960x150"]).status, 64)
    }

    /// With a landscape size in the campaign (`--with 1920x1080`), a portrait interstitial is
    /// rendered into the portrait screens only, and its close zone is the button's over those.
    func testProcessRendersEveryScreenThatPicksTheArtworkAndWritesTheCloseZone() throws {
        let tall = try artwork("1080x1920")
        let out = folder.appendingPathComponent("out")
        let run = try Tool.run(["process", tall, "--product", "interstitial", "--with", "1920x1080",
                                "--output-dir", out.path, "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let manifest = try object(run.text)
        XCTAssertEqual(manifest["product"] as? String, "interstitial")
        let picked = DevicePlan.assignments(for: PixelSize(width: 1080, height: 1920),
                                            campaign: [PixelSize(width: 1920, height: 1080)], product: .interstitial)
        let zone = try XCTUnwrap(manifest["close_zone_pixels"] as? [String: Int])
        let expected = try XCTUnwrap(CloseButton.zone(over: picked))
        XCTAssertEqual(zone, ["x": expected.x, "y": expected.y, "width": expected.width, "height": expected.height])
        let renders = try XCTUnwrap(manifest["renders"] as? [[String: Any]])
        XCTAssertEqual(renders.count, Devices.all.count)
        XCTAssertEqual(renders.count, picked.count)
        XCTAssertTrue(renders.allSatisfy { $0["orientation"] as? String == "portrait" })
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: out.path))
        XCTAssertEqual(names, Set(renders.compactMap { $0["file"] as? String } + ["preview.png", "preview.html", "manifest.json"]))
        let iPhone15 = try XCTUnwrap(renders.first { $0["device"] as? String == "iPhone 15" })
        let file = try XCTUnwrap(iPhone15["file"] as? String)
        let image = try ImageSource(bytes: [UInt8](Data(contentsOf: out.appendingPathComponent(file)))).header
        XCTAssertEqual(image.size, PixelSize(width: 1179, height: 2556))
        XCTAssertEqual([iPhone15.position("content_position_pixels")?[0], iPhone15.position("content_position_pixels")?[1]], [0, 267])
        // Rejected for banners, and a banner size is rejected for interstitials.
        let rejected = try Tool.run(["process", try artwork("960x150"), "--product", "interstitial",
                                     "--output-dir", folder.appendingPathComponent("r").path])
        XCTAssertEqual(rejected.status, 1)
    }

    func testEveryInterstitialSizeIsProcessedInEveryFormatAtTheDefaultBudget() throws {
        // Each size alone is served on every screen, the 2048x2732 iPad Pro 12.9 included: in JPEG
        // it was charged 84-86 MiB (the scaled content held for one placement, and a 16-bit
        // decode's held copy), over the default 80 MiB, and refused with too_many_pixels; in WebP
        // (transparent bars) 114.6-131.7 MiB. Interstitials' default budget is 144 MiB.
        for size in sizes {
            let file = try artwork(size)
            for format in ["jpeg", "png", "auto", "webp"] {
                let cost = try Tool.run(["process", file, "--product", "interstitial", "--format", format, "--cost",
                                         "--output-dir", folder.appendingPathComponent("c").path])
                XCTAssertEqual(cost.status, 0, cost.stderr)
                let charge = try object(cost.text)
                XCTAssertEqual(charge["accepted"] as? Bool, true, "\(size) \(format): \(cost.text)")
            }
        }
        let out = folder.appendingPathComponent("jpeg")
        let run = try Tool.run(["process", try artwork("768x1024"), "--product", "interstitial", "--format", "jpeg",
                                "--output-dir", out.path, "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let renders = try XCTUnwrap(try object(run.text)["renders"] as? [[String: Any]])
        XCTAssertEqual(renders.count, Devices.all.count * 2, "every screen in both orientations")
        XCTAssertTrue(renders.allSatisfy { ($0["file"] as? String)?.hasSuffix(".jpg") == true })
        let iPad = try XCTUnwrap(renders.first { $0["device"] as? String == "iPad Pro 12.9" && $0["orientation"] as? String == "portrait" })
        let file = try XCTUnwrap(iPad["file"] as? String)
        XCTAssertTrue(file.hasSuffix(".jpg"), file)
        let header = try ImageSource(bytes: [UInt8](Data(contentsOf: out.appendingPathComponent(file)))).header
        XCTAssertEqual(header.size, PixelSize(width: 2048, height: 2732))
    }

    func testTheHeaviestUploadsOfAnInterstitialSizeFitItsDefaultBudgetInEveryFormat() throws {
        // A JPEG of noise near the 2 MiB upload limit and a 16-bit PNG: the most a 1920x1080 upload
        // decodes into (131.7 and 131.4 MiB in WebP, 81.7 and 81.4 in JPEG before; 80 MiB refused them).
        try VipsRuntime.start()
        let noise = try VipsOperation("cast").with("in", .image(try Fixtures.colourNoise(1920, 1080, mean: 128, sigma: 60, seed: 7)))
            .with("format", .enumeration("uchar")).image()
        let jpeg = try Fixtures.save("jpegsave_buffer", try VipsOperation("copy").with("in", .image(noise))
            .with("interpretation", .enumeration("srgb")).image(), [("Q", .int(80))])
        XCTAssertLessThanOrEqual(jpeg.count, Catalog.defaultMaxBytes)
        XCTAssertGreaterThan(jpeg.count, 1 << 20)
        let files = [("noise.jpg", jpeg), ("deep.png", Fixtures.zeroPNG(width: 1920, height: 1080, depth: 16, colourType: 2))]
        for (name, bytes) in files {
            let file = folder.appendingPathComponent(name)
            try Data(bytes).write(to: file)
            for format in ["jpeg", "png", "auto", "webp"] {
                let cost = try Tool.run(["process", file.path, "--product", "interstitial", "--format", format, "--cost",
                                         "--output-dir", folder.appendingPathComponent("c").path])
                XCTAssertEqual(cost.status, 0, cost.stderr)
                let charge = try object(cost.text)
                XCTAssertEqual(charge["accepted"] as? Bool, true, "\(name) \(format): \(cost.text)")
                XCTAssertEqual(charge["memory_budget_bytes"] as? Int, JobDefaults.fullScreenMemoryBudget)
            }
        }
        // A banner keeps the 80 MiB default.
        let banner = try Tool.run(["process", try Fixtures.solidArtwork("960x150", in: folder), "--cost",
                                   "--output-dir", folder.appendingPathComponent("b").path])
        XCTAssertEqual(try object(banner.text)["memory_budget_bytes"] as? Int, JobLimits.defaultMemoryBudget)
    }

    func testTheLargestScreenInWebPFitsATightBudgetWithThePlainYUVConversion() throws {
        let file = try artwork("768x1024")
        let render = ["render", file, "--product", "interstitial", "--device", "iPad Pro 12.9", "--format", "webp",
                      "--background", "white", "--json"]
        // The sharp RGB to YUV conversion's buffers (11 bytes a pixel over 5.6 MP) do not fit 80 MiB
        // beside the encoder: the plain conversion is written, and the encoding line says why.
        let plain = try Tool.run(render + ["--memory-budget", "80M", "--output", folder.appendingPathComponent("plain.webp").path])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        let plainJSON = try object(plain.text)
        XCTAssertEqual(plainJSON["format"] as? String, "webp")
        XCTAssertTrue((plainJSON["encoding"] as? String)?.hasSuffix(Encoder.plainYUVNote) == true, plain.text)
        let header = try ImageSource(bytes: [UInt8](Data(contentsOf: folder.appendingPathComponent("plain.webp")))).header
        XCTAssertEqual(header.size, PixelSize(width: 2048, height: 2732))
        // Within a budget that holds it (interstitials' default), the sharp conversion, with no note.
        let sharp = try Tool.run(render + ["--output", folder.appendingPathComponent("sharp.webp").path])
        XCTAssertEqual(sharp.status, 0, sharp.stderr)
        XCTAssertEqual(try object(sharp.text)["encoding"] as? String, "WebP quality 85")
    }

    func testGuidanceForInterstitials() throws {
        let run = try Tool.run(["guidance", "--product", "interstitial"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let document = try object(run.text)
        let listed = try XCTUnwrap(document["sizes"] as? [[String: Any]])
        XCTAssertEqual(listed.map { $0.sizeText("size_pixels") }, sizes)
        XCTAssertTrue(listed.allSatisfy { $0["close_zone_pixels"] is [String: Int] && $0["safe_area_pixels"] is [String: Int] })
        XCTAssertEqual(try Tool.run(["guidance", "--product", "interstitial", "--format", "html"]).status, 0)
    }

    /// A photograph-like 1080x1920 JPEG: colour fields of noise at three scales (40, 8 and 1
    /// pixels a sample, the last a camera's grain), as bench/photo.py draws one.
    private func photoJPEG() throws -> String {
        var sum: VImage?
        for (seed, scale, sigma, gains) in [(3, 40, 45.0, [1.0, 0.6, 0.2]), (5, 40, 45.0, [0.2, 0.6, 1.0]),
                                            (7, 8, 20.0, [1.0, 0.9, 0.75]), (9, 1, 3.0, [1.0, 1.0, 1.0])] {
            var noise = try VipsOperation("gaussnoise").with("width", .int(1080 / scale)).with("height", .int(1920 / scale))
                .with("sigma", .double(sigma)).with("mean", .double(0)).with("seed", .int(seed)).image()
            if scale > 1 {
                noise = try VipsOperation("resize").with("in", .image(noise)).with("scale", .double(Double(scale)))
                    .with("kernel", .enumeration("cubic")).image()
            }
            let layer = try VipsOperation("linear").with("in", .image(noise)).with("a", .doubles(gains))
                .with("b", .doubles([0, 0, 0])).image()
            sum = try sum.map { try VipsOperation("add").with("left", .image($0)).with("right", .image(layer)).image() } ?? layer
        }
        let lifted = try VipsOperation("linear").with("in", .image(try XCTUnwrap(sum))).with("a", .doubles([1]))
            .with("b", .doubles([128])).with("uchar", .bool(true)).image()
        let srgb = try VipsOperation("copy").with("in", .image(lifted)).with("interpretation", .enumeration("srgb")).image()
        return try write(try VipsOperation("jpegsave_buffer").with("in", .image(srgb)).with("Q", .int(90)).bytes(),
                         "interstitial-1080x1920.jpg")
    }

    /// Issue 52, point 1: a photo interstitial rendered to PNG at the default 150K budget was
    /// posterised to a 4-colour palette, exit 0. Now refused over_weight_budget (exit 1, nothing
    /// written), naming the WebP that fits, which `--format webp` then writes at that size.
    func testAPhotoInterstitialIsNotPosterisedToFitThePNGBudget() throws {
        let input = try photoJPEG()
        let output = folder.appendingPathComponent("screen.png")
        let render = ["render", input, "--product", "interstitial", "--device", "iPhone 15"]
        let run = try Tool.run(render + ["--output", output.path])
        XCTAssertEqual(run.status, 1, run.text + run.stderr)
        XCTAssertTrue(run.stderr.contains("over_weight_budget"), run.stderr)
        XCTAssertTrue(run.stderr.contains("under the quality floor of 0.900")
                          || run.stderr.contains("no PNG of this render fits"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "nothing written")
        // "WebP fits at N KB (B bytes: WebP quality Q, ...)": measured, so --format webp writes B bytes.
        let named = try XCTUnwrap(run.stderr.range(of: #"WebP fits at [0-9,]+ KB \(([0-9]+) bytes: WebP quality [0-9]+"#,
                                                   options: .regularExpression), run.stderr)
        let bytes = try XCTUnwrap(Int(run.stderr[named].split(separator: "(")[1].split(separator: " ")[0]))
        XCTAssertLessThanOrEqual(bytes, 153_600)
        let webp = folder.appendingPathComponent("screen.webp")
        let fitted = try Tool.run(render + ["--format", "webp", "--output", webp.path])
        XCTAssertEqual(fitted.status, 0, fitted.stderr)
        XCTAssertEqual(try Data(contentsOf: webp).count, bytes, fitted.text)
    }
}
