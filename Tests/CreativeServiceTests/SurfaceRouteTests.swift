import CreativeCore
import CreativeImaging
import Foundation
import CreativeTestSupport
import XCTest
@testable import CreativeService

/// The routes read the same declarations as the command line: the same slots (`WxH@Nx`, a
/// device for every product), the same answers, the same "did you mean".
final class SurfaceRouteTests: ServerTestCase {
    private func png(_ width: Int, _ height: Int) throws -> [UInt8] { try Fixture.bluePNG(width, height) }

    /// `creative-tool render FILE ARGUMENTS --output -`: the bytes written.
    private func cliRender(_ artwork: [UInt8], _ arguments: [String]) throws -> [UInt8] {
        guard FileManager.default.isExecutableFile(atPath: Fixture.binary.path) else {
            throw Fixture.BinaryMissing()
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("surface-\(UUID().uuidString).png")
        try Data(artwork).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = Fixture.binary
        process.arguments = ["render", file.path, "--output", "-"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let bytes = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(arguments)")
        return bytes
    }

    func testSlotsWithTheirScaleAndBannerDevicesGiveTheCommandLinesAnswer() throws {
        let artwork = try png(960, 150)
        let cases: [(query: String, arguments: [String], size: PixelSize)] = [
            ("slot=390x61@3x", ["--slot", "390x61@3x"], PixelSize(width: 1170, height: 183)),
            ("device=iPhone%2015", ["--device", "iPhone 15"], PixelSize(width: 1179, height: 183)),
            ("device=iPhone%2015&orientation=landscape&format=jpeg", ["--device", "iPhone 15", "--orientation", "landscape",
                                                                      "--format", "jpeg"], PixelSize(width: 2556, height: 174)),
        ]
        for (query, arguments, size) in cases {
            let answer = HTTPClient.request(port, "POST", "/v1/render?\(query)", body: artwork)
            XCTAssertEqual(answer.status, 200, query)
            XCTAssertEqual(try ImageSource(bytes: answer.body).displayedSize, size, query)
            XCTAssertEqual(answer.body, try cliRender(artwork, arguments), "\(query): the same bytes as the CLI")
        }
        let slot = HTTPClient.request(port, "GET", "/v1/slot?device=iPhone%2015")
        XCTAssertEqual(slot.status, 200)
        XCTAssertEqual(JSONShapes.size(slot.json?["slot_pixels"]), "1179x183")
        XCTAssertEqual(JSONShapes.size(slot.json?["slot_points"]), "393x61")
    }

    func testASizeValidateWouldRejectIsNotedInAHeader() throws {
        let odd = HTTPClient.request(port, "POST", "/v1/render?slot=320x50", body: try png(961, 150))
        XCTAssertEqual(odd.status, 200)
        XCTAssertTrue(odd.headers["x-creative-note"]?.contains("961x150 is not an accepted size") ?? false, "\(odd.headers)")
        let accepted = HTTPClient.request(port, "POST", "/v1/render?slot=320x50", body: try png(960, 150))
        XCTAssertNil(accepted.headers["x-creative-note"])
        XCTAssertTrue(odd.headers["x-creative-note"]?.contains("(dimensions_not_allowed; nearest: 960x150") ?? false,
                      "\(odd.headers)")
    }

    /// `lossless` and `effort` are the CLI's `--lossless` and `--effort` (and `o.webp[lossless]`):
    /// the same bytes; only with WebP.
    func testLosslessAndEffortAreTheCommandLinesOptions() throws {
        let artwork = try png(960, 150)
        for (query, arguments) in [("format=webp&lossless=true", ["--format", "webp", "--lossless"]),
                                   ("format=webp&effort=6&quality=70", ["--format", "webp", "--effort", "6", "--quality", "70"])] {
            let answer = HTTPClient.request(port, "POST", "/v1/render?slot=320x50&\(query)", body: artwork)
            XCTAssertEqual(answer.status, 200, query)
            XCTAssertEqual(answer.body, try cliRender(artwork, ["--slot", "320x50"] + arguments), query)
        }
        let lossless = HTTPClient.request(port, "POST", "/v1/render?slot=320x50&format=webp&lossless=true", body: artwork)
        XCTAssertEqual(Array(lossless.body[12..<16]), Array("VP8L".utf8))
        XCTAssertEqual(lossless.headers["x-creative-encoding"], "WebP lossless, effort 4")
        let png = HTTPClient.request(port, "POST", "/v1/render?slot=320x50&format=png&lossless=true", body: artwork)
        XCTAssertEqual(png.status, 400)
    }

    /// `profile=` on `/v1/render` is `render --profile`: the same budget, the same bytes, and the
    /// budget with its profile in headers; what cannot fit is refused by both.
    func testAProfilesWeightBudgetGivesTheCommandLinesBytes() throws {
        let noise = Fixtures.storedNoisePNG(960, 150)
        // A photograph's statistics: over 50,000 bytes at the default quality, above the quality
        // floor lowered to fit (noise is under it wherever it fits).
        let photo = Fixtures.storedPhotoPNG(960, 150)
        for format in ["jpeg", "webp", "auto"] {
            let answer = HTTPClient.request(port, "POST", "/v1/render?slot=320x50@3x&format=\(format)&profile=iab-lean",
                                            body: photo)
            XCTAssertEqual(answer.status, 200, "\(format): \(answer.text)")
            XCTAssertLessThanOrEqual(answer.body.count, 50_000, format)
            XCTAssertEqual(answer.headers["x-creative-weight-budget"], "50000", format)
            XCTAssertEqual(answer.headers["x-creative-weight-budget-profile"], "iab-lean", format)
            XCTAssertEqual(answer.body, try cliRender(photo, ["--slot", "320x50@3x", "--format", format, "--profile", "iab-lean"]),
                           format)
        }
        let wide = HTTPClient.request(port, "POST", "/v1/render?slot=390x61@3x&format=jpeg&profile=iab-lean", body: noise)
        XCTAssertEqual(wide.headers["x-creative-weight-budget"], "153600", "no IAB size: the default budget")
        XCTAssertNil(wide.headers["x-creative-weight-budget-profile"])
        let refused = HTTPClient.request(port, "POST", "/v1/render?slot=320x50@3x&format=webp&profile=iab-lean", body: noise)
        XCTAssertEqual(refused.status, 422, refused.text)
        XCTAssertEqual(refused.errorCode, "over_weight_budget", refused.text)
        // The photograph's palette under the floor: refused, naming the WebP that fits, measured.
        let posterised = HTTPClient.request(port, "POST", "/v1/render?slot=320x50@3x&format=png&profile=iab-lean", body: photo)
        XCTAssertEqual(posterised.status, 422, posterised.text)
        XCTAssertEqual(posterised.errorCode, "over_weight_budget", posterised.text)
        XCTAssertTrue(posterised.text.contains("WebP fits at"), posterised.text)
        let mistyped = HTTPClient.request(port, "POST", "/v1/render?slot=320x50&profile=iab-laen", body: noise)
        XCTAssertEqual(mistyped.status, 400, mistyped.text)
        XCTAssertTrue(mistyped.text.contains("did you mean 'iab-lean'?"), mistyped.text)
    }

    /// An animated GIF and a PNG over 2 MiB render, with validate's code in `X-Creative-Note`.
    func testWhatValidateWouldRejectIsNotedWithItsCode() throws {
        var stack = try Fixtures.solid(960, 150, [255, 0, 0])
        stack = try VipsOperation("join").with("in1", .image(stack)).with("in2", .image(try Fixtures.solid(960, 150, [0, 0, 255])))
            .with("direction", .enumeration("vertical")).image()
        let gif = try Fixtures.save("gifsave_buffer", try stack.settingInt("page-height", 150))
        let animated = HTTPClient.request(port, "POST", "/v1/render?slot=320x50", body: gif)
        XCTAssertEqual(animated.status, 200)
        XCTAssertEqual(animated.headers["x-creative-note"], "validate would reject it (animated): animated GIF is not "
                       + "accepted; upload one still frame (HTML5 ads are made in the ad editor)")
        let art = try png(960, 150)
        let heavy = Array(art[0..<33]) + Fixtures.pngChunk("tEXt", Array("Comment".utf8) + [0]
            + [UInt8](repeating: 0x41, count: 3 * 1024 * 1024)) + Array(art[33...])
        let large = HTTPClient.request(port, "POST", "/v1/render?slot=320x50", body: heavy)
        XCTAssertEqual(large.status, 200)
        XCTAssertTrue(large.headers["x-creative-note"]?.hasPrefix("validate would reject it (file_too_large): ") ?? false,
                      "\(large.headers)")
    }

    func testMistakesNameTheFix() throws {
        let cases = [("/v1/render?slot=320x50&format=jpg", "did you mean 'jpeg'?"),
                     ("/v1/render?slot=320x50&formt=png", "did you mean 'format'?"),
                     ("/v1/render?device=iPhone15", "did you mean 'iPhone 15'?"),
                     ("/v1/render?slot=320x50&product=intersitial", "did you mean 'interstitial'?"),
                     ("/v1/render?slot=320x50@3x&scale=2", "give the scale once")]
        for (path, fix) in cases {
            let answer = HTTPClient.request(port, "POST", path, body: [])
            XCTAssertEqual(answer.status, 400, path)
            XCTAssertTrue(message(answer).contains(fix), "\(path): \(message(answer))")
        }
        // A format the render does not write names the formats it does, and no other short word.
        let gif = HTTPClient.request(port, "POST", "/v1/render?slot=320x50&format=gif", body: [])
        XCTAssertEqual(gif.status, 400)
        XCTAssertTrue(message(gif).contains("format must be one of png, jpeg, webp, avif, auto, not 'gif'"), message(gif))
        XCTAssertFalse(message(gif).contains("did you mean"), message(gif))
        let select = HTTPClient.request(port, "POST", "/v1/select",
                                        body: Array(#"{"width": 390, "height": 61, "scale": 3, "candidates": ["960x150", "1320x204"]}"#.utf8))
        XCTAssertEqual(select.status, 200)
        XCTAssertEqual(JSONShapes.size(select.json?["slot_pixels"]), "1170x183")
        let typo = HTTPClient.request(port, "POST", "/v1/select", body: Array(#"{"widht": 390, "candidates": ["960x150"]}"#.utf8))
        XCTAssertEqual(typo.status, 400)
        XCTAssertTrue(message(typo).contains("did you mean 'width'?"), message(typo))
    }

    private func message(_ answer: HTTPResult) -> String {
        (answer.json?["error"] as? [String: Any])?["message"] as? String ?? ""
    }

    func testTheRoutesAllowExactlyTheirDeclaredParameters() throws {
        for route in Router.service.routes where !route.pattern.contains("{") {
            for name in route.parameters.queryNames.sorted() {
                let answer = HTTPClient.request(port, route.method, "\(route.pattern)?\(name)=zzz", body: [])
                XCTAssertFalse(message(answer).contains("unknown query parameter"), "\(route.pattern) \(name): \(message(answer))")
            }
            let unknown = HTTPClient.request(port, route.method, "\(route.pattern)?not_declared=1", body: [])
            XCTAssertEqual(unknown.status, 400, route.pattern)
            XCTAssertTrue(message(unknown).contains("unknown query parameter 'not_declared'"), message(unknown))
        }
    }
}
