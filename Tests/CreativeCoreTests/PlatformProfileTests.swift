import CreativeCore
import XCTest

/// The profile model's decisions: which sizes a profile accepts for a product, the weight for a
/// size (``PlatformProfile/weightBudget(for:)``, what the render side reads), the checks'
/// issues, and the `--profile` option's reading.
final class PlatformProfileTests: XCTestCase {
    private func profile(_ name: String) throws -> PlatformProfile { try XCTUnwrap(PlatformProfiles.named(name)) }
    private func size(_ width: Int, _ height: Int) -> PixelSize { PixelSize(width: width, height: height) }

    func testAProfilesOwnSizeListReplacesTheProducts() throws {
        let google = try profile("google-ads")
        XCTAssertTrue(google.accepts(size(336, 280), product: .banner), "Google's, not the banner catalog's")
        XCTAssertFalse(google.accepts(size(960, 150), product: .banner), "the banner catalog's, not Google's")
        XCTAssertEqual(google.acceptedSizes(for: .interstitial), google.acceptedSizes(for: .banner))
        XCTAssertFalse(ProfileChecks.accepts(size(336, 280), product: .banner, profiles: []), "no profile: the catalog")
        XCTAssertTrue(ProfileChecks.accepts(size(336, 280), product: .banner, profiles: [google]))
        XCTAssertFalse(ProfileChecks.accepts(size(336, 280), product: .banner, profiles: [google, try profile("network")]),
                       "every profile checked must accept it")
    }

    func testAProfileWithoutAListTakesTheProductsSizesWithinItsBounds() throws {
        XCTAssertEqual(try profile("dv360").acceptedSizes(for: .banner), Product.banner.sizes)
        XCTAssertEqual(try profile("microsoft").acceptedSizes(for: .banner), [], "every banner is under 703x368")
        XCTAssertEqual(try profile("microsoft").acceptedSizes(for: .interstitial),
                       [size(768, 1024), size(1024, 768), size(1080, 1920), size(1920, 1080)])
        let issue = try XCTUnwrap(ProfileChecks.dimensionsIssue(size(960, 150), profile: try profile("microsoft"), product: .banner))
        XCTAssertEqual(issue.message, "microsoft: 960x150 is not accepted: microsoft takes images of at least 703x368 pixels, "
                       + "and no banner size is")
    }

    func testTheWeightBudgetOfASize() throws {
        let lean = try profile("iab-lean")
        XCTAssertEqual(lean.weightBudget(for: size(320, 50)), 50_000)
        XCTAssertEqual(lean.weightBudget(for: size(960, 150)), 50_000, "3x of 320x50 weighs as 320x50")
        XCTAssertEqual(lean.weightBudget(for: size(640, 100)), 50_000, "2x of 320x50")
        XCTAssertEqual(lean.weightBudget(for: size(2184, 270)), 150_000, "3x of 728x90")
        XCTAssertEqual(lean.weightBudget(for: size(300, 250)), 150_000)
        XCTAssertNil(lean.weightBudget(for: size(1320, 204)), "440x68 is no IAB size: the caller's default applies")
        XCTAssertNil(lean.weightBudget(for: size(300, 600)), "not in the fixed-size table")
        XCTAssertEqual(try profile("google-ads").weightBudget(for: size(336, 280)), 153_600)
        XCTAssertNil(try profile("amazon-dsp").weightBudget(for: size(300, 250)))
        XCTAssertEqual([try profile("google-ads"), lean].weightBudget(for: size(320, 50)), 50_000, "the strictest")
        XCTAssertEqual([try profile("google-ads"), lean].weightBudget(for: size(1320, 204)), 153_600)
        XCTAssertNil([try profile("amazon-dsp")].weightBudget(for: size(320, 50)))
    }

    func testEachIssueNamesItsProfile() throws {
        let google = try profile("google-ads")
        let heavy = try XCTUnwrap(ProfileChecks.weightIssue(bytes: 153_601, size: size(300, 250), profile: google))
        XCTAssertEqual(heavy.code, .overWeightLimit)
        XCTAssertEqual(heavy.profile, "google-ads")
        XCTAssertTrue(heavy.message.hasPrefix("google-ads: 153601 bytes is over the limit of 153600 bytes;"), heavy.message)
        XCTAssertNil(ProfileChecks.weightIssue(bytes: 153_600, size: size(300, 250), profile: google), "the limit is inclusive")
        let lean = try XCTUnwrap(ProfileChecks.weightIssue(bytes: 65_536, size: size(320, 50), profile: try profile("iab-lean")))
        XCTAssertTrue(lean.message.contains("over the limit of 50000 bytes for 320x50"), lean.message)
        XCTAssertEqual(ProfileChecks.formatIssue(.webp, profile: google)?.code, .formatNotAllowed)
        XCTAssertNil(ProfileChecks.formatIssue(.png, profile: google))
        XCTAssertNil(ProfileChecks.formatIssue(.webp, profile: try profile("amazon-dsp")), "no format list: every format")
        XCTAssertEqual(ProfileChecks.cmykIssue(profile: try profile("google-ad-manager"))?.code, .cmykNotAllowed)
        XCTAssertNil(ProfileChecks.cmykIssue(profile: google))
        let edge = ValidationIssue(.edgeWithoutBorder, "white edge", regions: [PixelRect(x: 0, y: 0, width: 300, height: 2)])
        let border = try XCTUnwrap(ProfileChecks.borderIssue(edge, profile: try profile("trade-desk")))
        XCTAssertEqual(border.code, .borderRequired)
        XCTAssertEqual(border.regions, edge.regions)
        XCTAssertNil(ProfileChecks.borderIssue(edge, profile: google), "Google Ads asks for no border")
        let wrong = try XCTUnwrap(ProfileChecks.dimensionsIssue(size(960, 150), profile: google, product: .banner))
        XCTAssertEqual(wrong.code, .dimensionsNotAllowed)
        XCTAssertTrue(wrong.message.hasPrefix("google-ads: 960x150 is not a size google-ads accepts; the nearest are "
                                              + "930x180 or 980x120."), wrong.message)
    }

    func testTheProfileOptionReadsAListAndNamesTheProfileMeant() throws {
        XCTAssertNil(try CommonOptions.profiles(Given(values: [:])))
        XCTAssertEqual(try CommonOptions.profiles(Given(values: ["profile": "google-ads,IAB-LEAN"]))?.map(\.name),
                       ["google-ads", "iab-lean"])
        for (text, expected) in [("google-adz", "did you mean 'google-ads'?"), ("google-ads,", "has an empty name"),
                                 ("iab-lean,iab-lean", "names 'iab-lean' twice"), ("facebook", "not 'facebook'")] {
            XCTAssertThrowsError(try CommonOptions.profiles(Given(values: ["profile": text])), text) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(text): \(error)")
            }
        }
        XCTAssertThrowsError(try GuidanceRequest(Given(values: ["profile": "google-ads,iab-lean"]))) { error in
            XCTAssertTrue("\(error)".contains("names one profile for guidance"), "\(error)")
        }
        XCTAssertEqual(try ValidateRequest(Given(values: ["profile": "cm360"])).profiles.map(\.name), ["cm360"])
        XCTAssertEqual(try ValidateRequest(Given(values: [:])).profiles, [], "the default: the product's own checks")
    }

    func testAPlatformsGuidanceListsItsSizesAndWeights() throws {
        let google = try XCTUnwrap(PlatformProfiles.named("google-ads"))
        let json = Guidance(product: .banner).render(.json, profile: google)
        XCTAssertTrue(json.contains(#"{"size_pixels":{"width":336,"height":280},"shape":"rectangle","aspect_ratio":1.2,"max_bytes":153600,"size_class":null}"#), json)
        XCTAssertFalse(json.contains(#""width":960,"height":150"#), json)
        let network = Guidance(product: .banner).render(.markdown, profile: PlatformProfiles.network)
        XCTAssertEqual(network, Guidance(product: .banner).render(.markdown), "network is the network's own guidance")
    }
}
