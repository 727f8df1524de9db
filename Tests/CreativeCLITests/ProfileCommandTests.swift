import CreativeCore
import CreativeTestSupport
import Foundation
import XCTest

/// Platform profiles through the built binary (docs/profiles.md): `validate --profile` with the
/// exact codes and exit codes of each case the profiles were built for, `guidance --profile` in
/// every format, `profiles` and the usage errors.
final class ProfileCommandTests: ScratchFolderTestCase {
    private func write(_ bytes: [UInt8], _ name: String) throws -> String {
        try Data(bytes).write(to: folder.appendingPathComponent(name))
        return name
    }

    private func run(_ arguments: [String]) throws -> ToolRun { try Tool.run(arguments, in: folder) }

    /// The one report `validate --json` prints, with its exit status.
    private func validate(_ file: String, _ profiles: String) throws -> (status: Int32, report: [String: Any]) {
        let result = try run(["validate", file, "--profile", profiles, "--json"])
        XCTAssertEqual(result.stderr, "")
        return (result.status, try Fixtures.object(result.text))
    }

    /// `code profile` of each error (`-` without a profile).
    private func errors(_ report: [String: Any]) -> [String] {
        (report["errors"] as? [[String: Any]] ?? []).map { "\($0["code"] as? String ?? "?") \($0["profile"] as? String ?? "-")" }
    }

    private func solidPNG(_ width: Int, _ height: Int) throws -> [UInt8] {
        try Fixtures.save("pngsave_buffer", try Fixtures.split(width, height, left: [230, 40, 40], right: [40, 40, 230]))
    }

    func testGoogleAdsRefusesTheRetinaStripAndAHeavyRectangleAndTakesItsOwnSize() throws {
        let strip = try write(try solidPNG(960, 150), "strip.png")
        let refused = try validate(strip, "google-ads")
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(errors(refused.report), ["dimensions_not_allowed google-ads"])
        XCTAssertEqual(refused.report["profiles"] as? [String], ["google-ads"])
        XCTAssertEqual(refused.report["decoded"] as? Bool, false, "a size the profile refuses is not decoded")

        let heavyBytes = Fixtures.storedNoisePNG(300, 250)
        XCTAssertGreaterThan(heavyBytes.count, 153_600)
        let heavy = try validate(try write(heavyBytes, "heavy.png"), "google-ads")
        XCTAssertEqual(heavy.status, 1)
        XCTAssertEqual(errors(heavy.report), ["over_weight_limit google-ads"])
        let message = try XCTUnwrap((heavy.report["errors"] as? [[String: Any]])?.first?["message"] as? String)
        XCTAssertTrue(message.hasPrefix("google-ads: \(heavyBytes.count) bytes is over the limit of 153600 bytes;"), message)

        // 336x280: Google Ads takes it, the network's banner catalog does not.
        let rectangle = try write(try solidPNG(336, 280), "rectangle.png")
        let accepted = try validate(rectangle, "google-ads")
        XCTAssertEqual(accepted.status, 0, "\(accepted.report)")
        XCTAssertEqual(errors(accepted.report), [])
        XCTAssertEqual(accepted.report["decoded"] as? Bool, true)
        let network = try run(["validate", rectangle, "--json"])
        XCTAssertEqual(network.status, 1)
        XCTAssertEqual(errors(try Fixtures.object(network.text)), ["dimensions_not_allowed -"])
        XCTAssertEqual(try Fixtures.object(network.text)["profiles"] as? [String], ["network"])
    }

    func testIABLeanRefusesA64KBMobileBanner() throws {
        let bytes = Fixtures.storedNoisePNG(320, 50, channels: 4)
        XCTAssertGreaterThan(bytes.count, 64_000)
        let file = try write(bytes, "mobile.png")
        let lean = try validate(file, "iab-lean")
        XCTAssertEqual(lean.status, 1)
        XCTAssertEqual(errors(lean.report), ["over_weight_limit iab-lean"])
        let message = try XCTUnwrap((lean.report["errors"] as? [[String: Any]])?.first?["message"] as? String)
        XCTAssertTrue(message.contains("over the limit of 50000 bytes for 320x50"), message)
        XCTAssertEqual(try validate(file, "google-ads").status, 0, "within Google's 153,600 bytes")
        let both = try validate(file, "google-ads,iab-lean")
        XCTAssertEqual(errors(both.report), ["over_weight_limit iab-lean"])
        XCTAssertEqual(both.report["profiles"] as? [String], ["google-ads", "iab-lean"])
    }

    func testAdManagerRefusesACMYKJPEG() throws {
        let cmyk = try Fixtures.cmykJPEG(try Fixtures.split(300, 250, left: [230, 40, 40], right: [40, 40, 230]))
        let file = try write(cmyk, "cmyk.jpg")
        let manager = try validate(file, "google-ad-manager")
        XCTAssertEqual(manager.status, 1)
        XCTAssertTrue(errors(manager.report).contains("cmyk_not_allowed google-ad-manager"), "\(manager.report)")
        let human = try run(["validate", file, "--profile", "google-ad-manager"])
        XCTAssertEqual(human.status, 1)
        XCTAssertTrue(human.text.hasPrefix("cmyk.jpg: REJECTED for google-ad-manager (300x250, JPEG"), human.text)
        XCTAssertTrue(human.text.contains("error cmyk_not_allowed: google-ad-manager: CMYK colour is refused"), human.text)
    }

    func testAnUnknownProfileIsAUsageErrorThatNamesTheOneMeant() throws {
        let file = try write(try solidPNG(320, 50), "a.png")
        let typo = try run(["validate", file, "--profile", "google-adz"])
        XCTAssertEqual(typo.status, 64)
        XCTAssertEqual(typo.text, "")
        XCTAssertTrue(typo.stderr.contains("did you mean 'google-ads'?"), typo.stderr)
        XCTAssertEqual(try run(["validate", file, "--profile", "iab-lean,"]).status, 64)
        XCTAssertEqual(try run(["guidance", "--profile", "dv36"]).status, 64)
        let two = try run(["guidance", "--profile", "google-ads,iab-lean"])
        XCTAssertEqual(two.status, 64)
        XCTAssertTrue(two.stderr.contains("names one profile for guidance"), two.stderr)
        XCTAssertEqual(try run(["profiles", "google-ads"]).status, 64)
    }

    func testGuidanceForGoogleAdsListsItsSizesInEveryFormat() throws {
        let json = try run(["guidance", "--profile", "google-ads"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let document = try Fixtures.object(json.text)
        let sizes = (document["sizes"] as? [[String: Any]] ?? []).compactMap { $0["size_pixels"] as? [String: Int] }
            .map { "\($0["width"] ?? 0)x\($0["height"] ?? 0)" }
        XCTAssertEqual(sizes.count, 20)
        XCTAssertTrue(sizes.contains("336x280"))
        XCTAssertFalse(sizes.contains("960x150"))
        XCTAssertEqual((document["sizes"] as? [[String: Any]])?.first?["max_bytes"] as? Int, 153_600)
        for format in ["markdown", "html"] {
            let text = try run(["guidance", "--profile", "google-ads", "--format", format]).text
            XCTAssertTrue(text.contains("336x280"), format)
            XCTAssertFalse(text.contains("960x150"), format)
            XCTAssertTrue(text.contains("153600 bytes"), format)
            XCTAssertTrue(text.contains("https://support.google.com/google-ads/answer/1722096"), format)
        }
        let lean = try run(["guidance", "--profile", "iab-lean", "--format", "markdown"]).text
        XCTAssertTrue(lean.contains("| 320x50 | strip | 6.40:1 | 50000 bytes | yes |"), lean)
        XCTAssertTrue(lean.contains("| 960x150 | strip | 6.40:1 | 50000 bytes | yes |"), "3x of 320x50: \(lean)")
        XCTAssertEqual(try run(["guidance", "--profile", "network"]).text, try run(["guidance"]).text)
    }

    func testProfilesListsEveryRuleWithItsSource() throws {
        let table = try run(["profiles"])
        XCTAssertEqual(table.status, 0)
        XCTAssertTrue(table.text.hasPrefix("network: "), table.text)
        XCTAssertTrue(table.text.contains("  max_bytes         at most 153600 bytes\n"), table.text)
        let json = try run(["profiles", "--json"])
        XCTAssertEqual(json.status, 0)
        let profiles = try XCTUnwrap(try Fixtures.object(json.text)["profiles"] as? [[String: Any]])
        XCTAssertEqual(profiles.compactMap { $0["name"] as? String }, PlatformProfiles.names)
        for profile in profiles {
            for rule in profile["rules"] as? [[String: Any]] ?? [] {
                XCTAssertFalse((rule["source"] as? String ?? "").isEmpty, "\(profile["name"] ?? "") \(rule)")
                XCTAssertNotNil(rule["read"] as? String)
            }
        }
    }
}
