import CreativeCore
@testable import CreativeImaging
import CreativeTestSupport
import XCTest

/// `fix` of artwork whose edges blend into an app's background: the 1 px border the warning asks
/// for is drawn, and the file validates with no warning (or, under a profile that requires a
/// border, with no error).
final class FixBorderTests: XCTestCase {
    private func fix(_ image: VImage, _ request: FixRequest = FixRequest()) throws -> FixedUpload {
        let source = try ImageSource(bytes: try Fixtures.png(image))
        return try Fixer.fix(source, request: request, format: .png, outputName: "fixed.png")
    }

    private func edgeCodes(_ bytes: [UInt8], _ limits: ValidationLimits = ValidationLimits()) -> [String] {
        let report = Validator.validate(bytes, fileName: "fixed.png", limits: limits)
        return (report.errors + report.warnings).map(\.code.rawValue)
    }

    func testNearWhiteEdgesGetALightGreyBorder() throws {
        let art = try PreflightCorpus.whiteArt(PixelSize(width: 960, height: 150), border: false)
        XCTAssertEqual(edgeCodes(try Fixtures.png(art)), ["edge_without_border"])
        let fixed = try fix(art)
        XCTAssertEqual(fixed.changes.map(\.kind), [.borderAdded, .reencoded])
        XCTAssertEqual(fixed.changes[0].message, "a 1 px #c0c0c0 border drawn on the outermost line: the edges blended "
                       + "into an app's background (edge_without_border)")
        XCTAssertEqual(fixed.remaining, [])
        XCTAssertEqual(edgeCodes(fixed.bytes), [])
        let pixels = try PixelReader(encoded: fixed.bytes)
        for (x, y) in [(0, 0), (959, 149), (0, 75), (480, 0), (480, 149), (959, 75)] {
            XCTAssertTrue(pixels.isClose(x, y, to: [192, 192, 192], tolerance: 0), "\(x),\(y): \(pixels[x, y])")
        }
        XCTAssertTrue(pixels.isClose(1, 1, to: [255, 255, 255], tolerance: 0), "the artwork inside is kept")
    }

    func testNearBlackEdgesGetAMidGreyBorder() throws {
        let art = try PreflightCorpus.whiteArt(PixelSize(width: 960, height: 150), border: false, dark: true)
        XCTAssertEqual(edgeCodes(try Fixtures.png(art)), ["edge_without_border"])
        let fixed = try fix(art)
        XCTAssertEqual(fixed.changes.first?.kind, .borderAdded)
        XCTAssertTrue(fixed.changes.first?.message.hasPrefix("a 1 px #808080 border") ?? false, "\(fixed.changes)")
        XCTAssertEqual(edgeCodes(fixed.bytes), [])
    }

    func testAProfileThatRequiresABorderIsFixedByIt() throws {
        let manager = try XCTUnwrap(PlatformProfiles.named("google-ad-manager"))
        let art = try PreflightCorpus.whiteArt(PixelSize(width: 728, height: 90), border: false)
        var limits = ValidationLimits()
        limits.profiles = [manager]
        XCTAssertEqual(edgeCodes(try Fixtures.png(art), limits), ["border_required", "edge_without_border"])
        let fixed = try fix(art, FixRequest(profiles: [manager]))
        XCTAssertEqual(fixed.changes.first?.kind, .borderAdded)
        XCTAssertEqual(edgeCodes(fixed.bytes, limits), [])
    }

    func testArtworkWithABorderIsLeftAlone() throws {
        let art = try PreflightCorpus.whiteArt(PixelSize(width: 960, height: 150), border: true)
        XCTAssertFalse(try fix(art).changes.contains { $0.kind == .borderAdded })
    }
}
