import CreativeCore
import XCTest

/// Options given by name, as a query gives them (for the tests of the requests' reading).
struct Given: OptionSource {
    let values: [String: String]
    func given(_ option: OptionDeclaration) -> String? { values[option.name] }
    func every(_ option: OptionDeclaration) -> [String] { given(option).map { [$0] } ?? [] }
    func spelling(_ option: OptionDeclaration) -> String { option.name }
}

/// The one reading of options both the command line and the service use.
final class OptionReadingTests: XCTestCase {

    func testSizesAndDurationsTakeSuffixes() throws {
        let range = 1...(1 << 40)
        XCTAssertEqual(try Quantity.bytes("64M", name: "m", in: range, bareUnit: 1), 64 << 20)
        XCTAssertEqual(try Quantity.bytes("1G", name: "m", in: range, bareUnit: 1), 1 << 30)
        XCTAssertEqual(try Quantity.bytes("512KiB", name: "m", in: range, bareUnit: 1), 512 << 10)
        XCTAssertEqual(try Quantity.bytes("2mb", name: "m", in: range, bareUnit: 1), 2 << 20)
        XCTAssertEqual(try Quantity.bytes("64", name: "m", in: range, bareUnit: 1 << 20), 64 << 20, "bare MiB")
        XCTAssertEqual(try Quantity.bytes("1000", name: "m", in: range, bareUnit: 1), 1000, "bare bytes")
        for bad in ["", "M", "-1M", "1.5G", "64Q", "1T", "99999999999G"] {
            XCTAssertThrowsError(try Quantity.bytes(bad, name: "--memory-budget", in: range, bareUnit: 1), bad) { error in
                guard case .invalidNumber? = error as? CoreError else { return XCTFail("\(bad): \(error)") }
            }
        }
        XCTAssertEqual(try Quantity.seconds("10s", name: "t", in: 0...100), 10)
        XCTAssertEqual(try Quantity.seconds("500ms", name: "t", in: 0...100), 0.5)
        XCTAssertEqual(try Quantity.seconds("1.5", name: "t", in: 0...100), 1.5)
        XCTAssertEqual(try Quantity.seconds("2m", name: "t", in: 0...1000), 120)
        for bad in ["", "s", "10x", "2h", "101", "-1s"] {
            XCTAssertThrowsError(try Quantity.seconds(bad, name: "t", in: 0...100), bad) { error in
                guard case .invalidNumber? = error as? CoreError else { return XCTFail("\(bad): \(error)") }
            }
        }
        XCTAssertEqual(Quantity.describe(bytes: 80 << 20), "80M")
        XCTAssertEqual(Quantity.describe(bytes: 1000), "1000")
    }

    /// The message a reading throws, nil when it reads.
    private func message<Value>(_ read: () throws(CoreError) -> Value) -> String? {
        do { _ = try read(); return nil } catch { return error.description }
    }

    func testTypedReadersKeepTheirRangesAndSentences() throws {
        let quality = RenderRequest.quality
        XCTAssertEqual(quality.kind, .integer(1...100), "the declaration's kind is made from the typed range")
        XCTAssertEqual(quality.range, 1...100)
        XCTAssertEqual(try Given(values: ["quality": "80"]).int(quality), 80)
        XCTAssertNil(try Given(values: [:]).int(quality))
        XCTAssertEqual(message { () throws(CoreError) in try Given(values: ["quality": "101"]).int(quality) },
                       "quality must be a whole number from 1 to 100, not '101'")
        XCTAssertEqual(message { () throws(CoreError) in try Given(values: ["quality": "101"]).int(quality) },
                       message { () throws(CoreError) in try TypedValue.int("101", name: "quality", in: 1...100, quoteLimit: 64) })

        let budget = ProcessRequest.weightBudget
        XCTAssertEqual(budget.kind, .byteSize(RenderSettings.weightBudgetRange), "with(help:) keeps the kind")
        XCTAssertEqual(budget.range, RenderSettings.weightBudgetRange)
        XCTAssertEqual(try Given(values: ["weight_budget": "40K"]).bytes(budget), 40 << 10)
        XCTAssertEqual(message { () throws(CoreError) in try Given(values: ["weight_budget": "2G"]).bytes(budget) },
                       "weight_budget must be a size from 1K to 1G (for example 64M or 1G), not '2G'")

        let mib = ByteSizeOption("memory_budget", 1 << 20...1 << 40, help: "memory", bareUnit: 1 << 20)
        XCTAssertEqual(try Given(values: ["memory_budget": "64"]).bytes(mib), 64 << 20, "a bare number counts the bare unit")

        let wait = DurationOption("idle_timeout", 1...3600, help: "idle").with(help: "how long to wait")
        XCTAssertEqual(wait.kind, .duration(1...3600))
        XCTAssertEqual(wait.help, "how long to wait")
        XCTAssertEqual(try Given(values: ["idle_timeout": "90s"]).seconds(wait), 90)
        XCTAssertEqual(message { () throws(CoreError) in try Given(values: ["idle_timeout": "2h"]).seconds(wait) },
                       "idle_timeout must be a duration from 1 s to 3600 s (for example 10s or 500ms), not '2h'")
        let above = DurationOption("timeout", Double.leastNonzeroMagnitude...86_400, help: "deadline")
        XCTAssertEqual(message { () throws(CoreError) in try Given(values: ["timeout": "0"]).seconds(above) },
                       "timeout must be a duration above 0 to 86400 s (for example 10s or 500ms), not '0'")

        let given = Given(values: ["effort": "4"])
        XCTAssertTrue(given.has(RenderRequest.effort))
        XCTAssertEqual(given.firstGiven([RenderRequest.lossless, RenderRequest.effort])?.name, "effort")
        XCTAssertEqual(given.spelling(RenderRequest.effort), "effort")
    }

    func testASlotCarriesItsScale() throws {
        let slot = RenderRequest.slot
        let three = try XCTUnwrap(try Given(values: ["slot": "390x61@3x"]).slot(slot))
        XCTAssertEqual(three.points, PixelSize(width: 390, height: 61))
        XCTAssertEqual(three.scale, 3)
        XCTAssertEqual(try Given(values: ["slot": "390x61@2.625"]).slot(slot)?.scale, 2.625)
        XCTAssertNil(try Given(values: ["slot": "390x61"]).slot(slot)?.scale)
        for bad in ["390x61@", "390x61@x", "390x61@5x", "390x61@0.5x", "@3x", "390@3x"] {
            XCTAssertThrowsError(try Given(values: ["slot": bad]).slot(slot), bad) { error in
                switch error as? CoreError {
                case .invalidSize?, .invalidScale?: break
                default: XCTFail("\(bad): \(error)")
                }
            }
        }
    }

    func testTheRenderRulesLiveInTheRequest() throws {
        let banner = try RenderRequest(Given(values: ["device": "iPhone 15"]))
        XCTAssertEqual(banner.settings.canvas, PixelSize(width: 1179, height: 183))
        let jpeg = try RenderRequest(Given(values: ["slot": "320x50"]), outputName: "a.JPG")
        XCTAssertEqual(jpeg.settings.format, .fixed(.jpeg))
        XCTAssertEqual(jpeg.settings.background, .white)
        XCTAssertThrowsError(try RenderRequest(Given(values: ["slot": "320x50", "format": "webp"]), outputName: "a.png")) { error in
            XCTAssertTrue("\(error)".contains("a.png"), "\(error)")
        }
        XCTAssertThrowsError(try RenderRequest(Given(values: ["device": "iPhone 15", "slot": "320x50"]))) { error in
            XCTAssertTrue("\(error)".contains("slot or device, not both"), "\(error)")
        }
        XCTAssertThrowsError(try RenderRequest(Given(values: ["orientation": "landscape"]))) { error in
            XCTAssertTrue("\(error)".contains("orientation needs device"), "\(error)")
        }
        XCTAssertThrowsError(try RenderRequest(Given(values: ["product": "companion", "device": "iPhone 15",
                                                                "orientation": "landscape"]))) { error in
            XCTAssertTrue("\(error)".contains("orientation"), "\(error)")
        }
        XCTAssertThrowsError(try RenderRequest(Given(values: ["slot": "320x50", "quality": "80"])), "png takes no quality") { error in
            XCTAssertTrue("\(error)".contains("quality is for format jpeg, webp or avif"), "\(error)")
        }
        XCTAssertThrowsError(try RenderRequest(Given(values: ["slot": "4000x100"]), maxCanvasPixels: 100_000)) { error in
            XCTAssertTrue("\(error)".contains("100000"), "\(error)")
        }
        let note = try RenderRequest(Given(values: ["slot": "320x50"])).note(forArtwork: PixelSize(width: 961, height: 150))
        XCTAssertTrue(note?.contains("validate would reject it (dimensions_not_allowed; nearest: 960x150") ?? false, note ?? "")
        XCTAssertNil(try RenderRequest(Given(values: ["slot": "320x50"])).note(forArtwork: PixelSize(width: 960, height: 150)))
    }

    /// `formats`: what `auto` chooses among, read once for render, process and the worker.
    func testFormatsNamesWhatAutoChoosesAmong() throws {
        XCTAssertNil(try RenderRequest(Given(values: ["slot": "320x50", "format": "auto"])).settings.autoFormats,
                     "not given: the default set, without AVIF")
        XCTAssertEqual(OutputFormat.autoDefault, [.png, .jpeg, .webp])
        XCTAssertEqual(RenderRequest.formats.defaultValue, "png,jpeg,webp")
        let both = try RenderRequest(Given(values: ["slot": "320x50", "format": "auto", "formats": " WebP, avif "]))
        XCTAssertEqual(both.settings.autoFormats, [.webp, .avif])
        XCTAssertEqual(both.settings.background, .transparent)
        XCTAssertEqual(try RenderRequest(Given(values: ["slot": "320x50", "format": "auto", "formats": "jpg"])).settings.background,
                       .white, "JPEG alone: white bars")
        XCTAssertEqual(try ProcessRequest(Given(values: ["formats": "avif,webp"])).settings.autoFormats, [.webp, .avif],
                       "process is auto by default")
        XCTAssertNil(try ProcessRequest(Given(values: [:])).settings.autoFormats)
        let alone = try RenderRequest(Given(values: ["slot": "320x50", "formats": "webp,avif"]))
        XCTAssertEqual(alone.settings.format, .auto, "formats alone asks for auto")
        XCTAssertEqual(alone.settings.autoFormats, [.webp, .avif])
        let aloneNamed = try RenderRequest(Given(values: ["slot": "320x50", "formats": "webp,avif"]), outputName: "b.avif")
        XCTAssertEqual(aloneNamed.settings.format, .auto)
        XCTAssertEqual(aloneNamed.settings.autoFormats, [.avif], "auto narrowed to the name's format")
        XCTAssertThrowsError(try RenderRequest(Given(values: ["slot": "320x50", "formats": "webp"]), outputName: "b.avif")) {
            XCTAssertTrue("\($0)".contains("output 'b.avif' is AVIF, which formats does not name"), "\($0)")
        }
        let named = try RenderRequest(Given(values: ["slot": "320x50", "format": "auto", "formats": "webp,avif"]),
                                      outputName: "banner.avif")
        XCTAssertEqual(named.settings.autoFormats, [.avif], "the name narrows auto to its format")
        XCTAssertEqual(try RenderRequest(Given(values: ["slot": "320x50"]), outputName: "b.avif").settings.format, .fixed(.avif))
        let refusals: [([String: String], String?, String)] = [
            (["formats": "webp,gif"], nil, "must name formats of png, jpeg, webp, avif, not 'gif'"),
            (["formats": "webp,avfi"], nil, "did you mean 'avif'?"),
            (["formats": "webp,,avif"], nil, "has an empty name"),
            (["formats": "webp,WEBP"], nil, "names 'webp' twice"),
            (["formats": "webp", "format": "webp"], nil, "formats is for format auto, not webp"),
            (["formats": "webp"], "banner.avif", "output 'banner.avif' is AVIF, which formats does not name"),
        ]
        for (values, output, message) in refusals {
            var given = ["slot": "320x50", "format": "auto"]
            given.merge(values) { _, new in new }
            XCTAssertThrowsError(try RenderRequest(Given(values: given), outputName: output), "\(values)") { error in
                XCTAssertTrue("\(error)".contains(message), "\(error)")
            }
        }
        XCTAssertThrowsError(try ProcessRequest(Given(values: ["format": "png", "formats": "png"]))) { error in
            XCTAssertTrue("\(error)".contains("formats is for format auto, not png"), "\(error)")
        }
    }

    func testNearMissesNameTheValueMeant() {
        XCTAssertThrowsError(try Given(values: ["format": "jpg"]).choice(RenderRequest.format, FormatChoice.self)) { error in
            XCTAssertTrue("\(error)".contains("did you mean 'jpeg'?"), "\(error)")
        }
        XCTAssertEqual(try Given(values: ["device": "ipad air"]).device(CommonOptions.device)?.name, "iPad Air",
                       "device names in any case")
        XCTAssertThrowsError(try Given(values: ["device": "iPad Aire"]).device(CommonOptions.device)) { error in
            XCTAssertTrue("\(error)".contains("did you mean 'iPad Air'?"), "\(error)")
        }
    }
}
