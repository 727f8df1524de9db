import CreativeCore
import XCTest

/// Each render's weight budget (``RenderWeightBudget``): the strictest of the budget asked (150K
/// when none is) and every profile's weight for the render's size in pixels, with the profile named.
final class RenderWeightBudgetTests: XCTestCase {
    private func profile(_ name: String) throws -> PlatformProfile { try XCTUnwrap(PlatformProfiles.named(name)) }
    private func size(_ width: Int, _ height: Int) -> PixelSize { PixelSize(width: width, height: height) }

    func testTheStrictestOfTheBudgetAskedAndTheProfilesApplies() throws {
        let lean = try profile("iab-lean")
        let byDefault = RenderWeightBudget(profiles: [lean])
        XCTAssertEqual(byDefault.applied(to: size(960, 150)), AppliedWeightBudget(bytes: 50_000, profile: "iab-lean"),
                       "320x50 at 3x weighs as 320x50")
        XCTAssertEqual(byDefault.applied(to: size(640, 100)), AppliedWeightBudget(bytes: 50_000, profile: "iab-lean"))
        XCTAssertEqual(byDefault.applied(to: size(1170, 183)), AppliedWeightBudget(bytes: 153_600, profile: nil),
                       "no IAB size: the default budget, nobody's rule")
        XCTAssertEqual(byDefault.applied(to: size(970, 250)), AppliedWeightBudget(bytes: 153_600, profile: nil),
                       "LEAN's 250,000 bytes for 970x250 does not loosen the default")
        XCTAssertEqual(RenderWeightBudget(asked: 1 << 20, profiles: [lean]).applied(to: size(970, 250)),
                       AppliedWeightBudget(bytes: 250_000, profile: "iab-lean"), "a budget asked above the profile's weight")
        XCTAssertEqual(RenderWeightBudget(asked: 20 * 1024, profiles: [lean]).applied(to: size(960, 150)),
                       AppliedWeightBudget(bytes: 20_480, profile: nil), "a budget asked below the profile's weight wins")
        XCTAssertEqual(RenderWeightBudget(profiles: [try profile("google-ads"), lean]).applied(to: size(960, 150)),
                       AppliedWeightBudget(bytes: 50_000, profile: "iab-lean"), "the strictest of several")
        XCTAssertEqual(RenderWeightBudget(profiles: [try profile("google-ads")]).applied(to: size(1170, 183)),
                       AppliedWeightBudget(bytes: 153_600, profile: "google-ads"), "Google's 150 KB is the default: its rule")
        XCTAssertEqual(RenderWeightBudget(profiles: [try profile("network")]).applied(to: size(1170, 183)),
                       AppliedWeightBudget(bytes: 153_600, profile: nil), "the network's 2 MiB upload limit is no budget")
        XCTAssertEqual(RenderWeightBudget().applied(to: size(960, 150)), AppliedWeightBudget(bytes: 153_600, profile: nil))
    }

    func testARenderRequestReadsItsBudgetFromTheProfile() throws {
        let lean = try RenderRequest(Given(values: ["slot": "320x50@3x", "profile": "iab-lean"]))
        XCTAssertEqual(lean.settings.weightBudget, 50_000)
        XCTAssertEqual(lean.weightBudget, AppliedWeightBudget(bytes: 50_000, profile: "iab-lean"))
        let asked = try RenderRequest(Given(values: ["slot": "320x50@3x", "profile": "iab-lean", "weight_budget": "1M"]))
        XCTAssertEqual(asked.settings.weightBudget, 50_000, "a larger budget asked does not lift the profile's weight")
        let wide = try RenderRequest(Given(values: ["slot": "390x61@3x", "profile": "iab-lean"]))
        XCTAssertEqual(wide.settings.weightBudget, RenderSettings.defaultWeightBudget)
        XCTAssertThrowsError(try RenderRequest(Given(values: ["slot": "320x50", "profile": "iab-laen"]))) { error in
            XCTAssertTrue("\(error)".contains("did you mean 'iab-lean'?"), "\(error)")
        }
        let process = try ProcessRequest(Given(values: ["profile": "google-ads,iab-lean", "weight_budget": "100K"]))
        XCTAssertEqual(process.settings.weightBudget.asked, 102_400)
        XCTAssertEqual(process.settings.weightBudget.profiles.names, "google-ads,iab-lean")
        XCTAssertEqual(process.settings.weightBudget.applied(to: size(640, 100)).bytes, 50_000)
        XCTAssertThrowsError(try ProcessRequest(Given(values: ["profile": "iab-lean,iab-lean"]))) { error in
            XCTAssertTrue("\(error)".contains("iab-lean"), "\(error)")
        }
    }
}
