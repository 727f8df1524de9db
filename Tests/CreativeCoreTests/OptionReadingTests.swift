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
        XCTAssertEqual(jpeg.settings.format, .jpeg)
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
            XCTAssertTrue("\(error)".contains("quality is for format jpeg or webp"), "\(error)")
        }
        XCTAssertThrowsError(try RenderRequest(Given(values: ["slot": "4000x100"]), maxCanvasPixels: 100_000)) { error in
            XCTAssertTrue("\(error)".contains("100000"), "\(error)")
        }
        let note = try RenderRequest(Given(values: ["slot": "320x50"])).note(forArtwork: PixelSize(width: 961, height: 150))
        XCTAssertTrue(note?.contains("validate would reject it (dimensions_not_allowed; nearest: 960x150") ?? false, note ?? "")
        XCTAssertNil(try RenderRequest(Given(values: ["slot": "320x50"])).note(forArtwork: PixelSize(width: 960, height: 150)))
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
