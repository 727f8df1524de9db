import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import XCTest

/// The validator with platform profiles (`validate --profile`): the rules that need the pixels
/// (CMYK, the border rule as an error) and the decode decided by the profiles' sizes.
final class ProfileValidationTests: XCTestCase {
    private func limits(_ names: String...) throws -> ValidationLimits {
        var limits = ValidationLimits()
        limits.profiles = try names.map { name in try XCTUnwrap(PlatformProfiles.named(name)) }
        return limits
    }

    private func codes(_ issues: [ValidationIssue]) -> [String] { issues.map { "\($0.code.rawValue) \($0.profile ?? "-")" } }

    func testABorderlessWhiteEdgeIsAnErrorWhereThePlatformRequiresABorder() throws {
        let size = PixelSize(width: 300, height: 250)
        let bare = try Fixtures.save("pngsave_buffer", try PreflightCorpus.whiteArt(size, border: false))
        let tradeDesk = Validator.validate(bare, fileName: "white.png", limits: try limits("trade-desk", "google-ads"))
        XCTAssertEqual(codes(tradeDesk.errors), ["border_required trade-desk"], "Google Ads asks for no border")
        XCTAssertEqual(codes(tradeDesk.warnings), ["edge_without_border -"])
        let error = try XCTUnwrap(tradeDesk.errors.first)
        XCTAssertFalse(error.regions.isEmpty, "the edges are marked")
        XCTAssertEqual(error.regions, tradeDesk.warnings.first?.regions)
        XCTAssertTrue(Validator.validate(bare, fileName: "white.png").valid, "the network warns only")

        let framed = try Fixtures.save("pngsave_buffer", try PreflightCorpus.whiteArt(size, border: true))
        XCTAssertEqual(codes(Validator.validate(framed, fileName: "framed.png", limits: try limits("trade-desk")).errors), [])
    }

    func testCMYKIsRefusedByAdManagerAndOnlyWarnedOfByTheNetwork() throws {
        let cmyk = try Fixtures.cmykJPEG(try Fixtures.split(300, 250, left: [230, 40, 40], right: [40, 40, 230]))
        let manager = Validator.validate(cmyk, fileName: "cmyk.jpg", limits: try limits("google-ad-manager"))
        XCTAssertTrue(codes(manager.errors).contains("cmyk_not_allowed google-ad-manager"), "\(manager.errors)")
        XCTAssertTrue(manager.has(.notSRGB))
        let network = Validator.validate(cmyk, fileName: "cmyk.jpg")
        XCTAssertFalse(network.has(.cmykNotAllowed))
        XCTAssertTrue(network.has(.notSRGB))
    }

    func testOnlyASizeEveryProfileAcceptsIsDecoded() throws {
        let rectangle = try Fixtures.save("pngsave_buffer", try Fixtures.split(336, 280, left: [230, 40, 40], right: [40, 40, 230]))
        let google = Validator.validate(rectangle, fileName: "r.png", limits: try limits("google-ads"))
        XCTAssertTrue(google.valid, "\(google.errors)")
        XCTAssertTrue(google.decoded, "a size Google Ads accepts is checked whole")
        XCTAssertEqual(google.profileNames, ["google-ads"])
        let both = Validator.validate(rectangle, fileName: "r.png", limits: try limits("google-ads", "network"))
        XCTAssertEqual(codes(both.errors), ["dimensions_not_allowed network"])
        XCTAssertFalse(both.decoded, "the network does not accept it: it is not decoded")
    }

    func testAWebPIsRefusedByAPlatformThatTakesNone() throws {
        let webp = try Fixtures.save("webpsave_buffer", try Fixtures.split(300, 250, left: [230, 40, 40], right: [40, 40, 230]))
        let report = Validator.validate(webp, fileName: "a.webp", limits: try limits("google-ads", "amazon-dsp"))
        XCTAssertEqual(codes(report.errors), ["format_not_allowed google-ads"])
        XCTAssertEqual(report.errors.first?.message, "google-ads: WEBP is not accepted; export it as GIF, JPEG, PNG")
    }
}
