@testable import CreativeCore
import Foundation
import XCTest

/// The platform profiles as data (`Profiles/*.json`, embedded in the binary): every file reads
/// strictly, every rule has its source and read date, the binary holds exactly the folder's
/// files, and the strict reading refuses what a careless edit would write.
final class PlatformProfileDataTests: XCTestCase {
    /// The repository's top folder, from this file's path.
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func testEveryEmbeddedFileReadsAndTheDefaultComesFirst() throws {
        let profiles = try PlatformProfiles.load().get()
        XCTAssertEqual(profiles.map(\.name), ["network", "google-ads", "google-ad-manager", "dv360", "cm360", "iab-lean",
                                              "trade-desk", "amazon-dsp", "microsoft"])
        XCTAssertEqual(PlatformProfiles.all, profiles)
        XCTAssertTrue(PlatformProfiles.network.isDefault)
        // The names come from the file names, the default profile from its file alone: the same.
        XCTAssertEqual(PlatformProfiles.names, profiles.map(\.name))
        XCTAssertEqual(PlatformProfiles.network, profiles.first)
        XCTAssertEqual(PlatformProfiles.named("google-ads"), profiles[1])
        XCTAssertNil(PlatformProfiles.named("Network"))
    }

    func testTheBinaryHoldsExactlyTheFilesOfTheProfilesFolder() throws {
        let folder = root.appendingPathComponent("Profiles")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertEqual(files, PlatformProfiles.names.map { $0 + ".json" }.sorted(),
                       "a file in Profiles/ needs its #embed line in Sources/CProfileData/profiles.c")
        for name in files {
            let onDisk = try ProfileFile.read(Array(try Data(contentsOf: folder.appendingPathComponent(name))))
            XCTAssertEqual(PlatformProfiles.named(onDisk.name), onDisk, "\(name): the binary's copy is the file's")
        }
    }

    func testEveryRuleNamesItsSourceAndWhenItWasRead() throws {
        for profile in PlatformProfiles.all {
            XCTAssertFalse(profile.rules.isEmpty, profile.name)
            for rule in profile.rules {
                let what = "\(profile.name) \(rule.kind.name)"
                XCTAssertTrue(ProfileFile.isDate(rule.read), "\(what): read \(rule.read)")
                if profile.isDefault {
                    // The network's own rules are stated by this project's documents.
                    XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent(rule.source).path), what)
                } else {
                    XCTAssertTrue(rule.source.hasPrefix("https://") && rule.source.count > 12, "\(what): \(rule.source)")
                }
            }
        }
    }

    func testTheNetworkProfileIsTheProductsOwnRules() throws {
        let network = PlatformProfiles.network
        XCTAssertNil(network.sizeList, "the product's sizes")
        for product in Product.allCases { XCTAssertEqual(network.acceptedSizes(for: product), product.sizes) }
        XCTAssertEqual(network.formats, ImageFormat.allCases)
        XCTAssertEqual(network.maxBytes, Catalog.defaultMaxBytes)
        XCTAssertEqual(network.maxBytes, 2_097_152)
        XCTAssertEqual(network.weightGuideline, Catalog.weightGuidelineBytes)
        XCTAssertEqual(network.animation?.allowed, false)
    }

    func testThePlatformsFiguresAreThoseTheirPagesGive() throws {
        let google = try XCTUnwrap(PlatformProfiles.named("google-ads"))
        XCTAssertEqual(google.maxBytes, 153_600, "Google's 150 KB is 150 KiB")
        XCTAssertEqual(google.sizeList?.count, 20)
        XCTAssertEqual(google.formats, [.gif, .jpeg, .png])
        XCTAssertEqual(google.animation, AnimationLimits(allowed: true, maxSeconds: 30, maxFramesPerSecond: 5))
        let manager = try XCTUnwrap(PlatformProfiles.named("google-ad-manager"))
        XCTAssertEqual(manager.refusedColourSpaces, [.cmyk])
        XCTAssertTrue(manager.requiresBorder)
        let lean = try XCTUnwrap(PlatformProfiles.named("iab-lean"))
        XCTAssertEqual(lean.sizeWeights.count, 15)
        XCTAssertEqual(lean.sizeWeights.first { $0.size == PixelSize(width: 320, height: 50) }?.bytes, 50_000)
        XCTAssertEqual(try XCTUnwrap(PlatformProfiles.named("dv360")).maximumSize, PixelSize(width: 4000, height: 4000))
        XCTAssertEqual(try XCTUnwrap(PlatformProfiles.named("cm360")).maxBytes, 9_500_000)
        XCTAssertEqual(try XCTUnwrap(PlatformProfiles.named("microsoft")).minimumSize, PixelSize(width: 703, height: 368))
        let amazon = try XCTUnwrap(PlatformProfiles.named("amazon-dsp"))
        XCTAssertNil(amazon.maxBytes, "no Amazon page states a limit")
        XCTAssertNotNil(amazon.rule("max_bytes")?.note, "and the profile says so")
        XCTAssertEqual(amazon.animation?.maxLoops, 3)
        XCTAssertEqual(try XCTUnwrap(PlatformProfiles.named("trade-desk")).maxBytes, 150_000)
    }

    // MARK: The strict reading

    private let good = """
        {"name": "x", "title": "X", "rules": [
          {"rule": "max_bytes", "bytes": 1000, "source": "https://example.com/a", "read": "2026-12"}]}
        """

    private func reading(_ text: String) -> Result<PlatformProfile, CoreError> {
        Result { () throws(CoreError) in try ProfileFile.read(Array(text.utf8)) }
    }

    private func assertRefused(_ text: String, _ expected: String, line: UInt = #line) {
        guard case .failure(let error) = reading(text) else { return XCTFail("read: \(text)", line: line) }
        XCTAssertTrue(error.description.contains(expected), error.description, line: line)
    }

    func testAGoodFileReads() throws {
        let profile = try reading(good).get()
        XCTAssertEqual(profile.maxBytes, 1000)
        XCTAssertEqual(profile.rules.first?.source, "https://example.com/a")
    }

    func testMistakesAreRefusedWithWhatIsWrong() {
        let rule = #""rule": "max_bytes", "bytes": 1000"#
        func file(_ rules: String, name: String = "x") -> String {
            #"{"name": "\#(name)", "title": "X", "rules": [\#(rules)]}"#
        }
        assertRefused(file(#"{\#(rule), "read": "2026-12"}"#), "needs \"source\"")
        assertRefused(file(#"{\#(rule), "source": "https://example.com"}"#), "needs \"read\"")
        assertRefused(file(#"{\#(rule), "source": "https://e.com", "read": "December 2026"}"#), "is not YYYY-MM")
        assertRefused(file(#"{\#(rule), "source": "https://e.com", "read": "2026-13"}"#), "is not YYYY-MM")
        assertRefused(file(#"{\#(rule), "source": "http://e.com", "read": "2026-12"}"#), "neither https")
        assertRefused(file(#"{\#(rule), "source": "https://e.com", "read": "2026-12", "bites": 5}"#), "unknown field 'bites'")
        assertRefused(file(#"{\#(rule), "bytes": 5, "source": "https://e.com", "read": "2026-12"}"#), "'bytes' twice")
        assertRefused(file(#"{\#(rule), "source": "https://e.com", "read": "2026-12"}, {\#(rule), "source": "https://e.com", "read": "2026-12"}"#),
                      "a second 'max_bytes' rule")
        assertRefused(file(#"{"rule": "max_bytes", "bytes": null, "source": "https://e.com", "read": "2026-12"}"#),
                      "needs a note")
        assertRefused(file(#"{"rule": "sizes", "sizes": ["300x25O"], "source": "https://e.com", "read": "2026-12"}"#), "300x25O")
        assertRefused(file(#"{"rule": "formats", "formats": ["bmp"], "source": "https://e.com", "read": "2026-12"}"#),
                      "unknown format 'bmp'")
        assertRefused(file(#"{"rule": "weight", "bytes": 5, "source": "https://e.com", "read": "2026-12"}"#), "a rule needs")
        assertRefused(file(""), "at least one rule")
        assertRefused(file(#"{\#(rule), "source": "https://e.com", "read": "2026-12"}"#, name: "Google Ads"), "lower case")
        assertRefused(#"{"name": "x", "title": "X", "rules": [], "extra": 1}"#, "unknown field 'extra'")
        assertRefused("{", "expected a key")
    }
}
