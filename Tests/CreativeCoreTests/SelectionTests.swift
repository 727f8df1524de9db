import XCTest
@testable import CreativeCore

/// docs/reference.md, "render", "slot" and "select": adaptive, inline and legacy selection, with tie-breaks.
final class SelectionTests: XCTestCase {
    private func size(_ width: Int, _ height: Int) -> PixelSize { PixelSize(width: width, height: height) }

    private func winner(_ candidates: [PixelSize], _ mode: SelectionMode, width: Int, height: Int?,
                        file: StaticString = #filePath, line: UInt = #line) -> PixelSize? {
        do {
            let result = try Selection.select(candidates, mode: mode, width: width, height: height, product: .banner)
            return candidates[result.winner]
        } catch {
            XCTFail("unexpected \(error)", file: file, line: line)
            return nil
        }
    }

    private func assertThrows(_ candidates: [PixelSize], _ mode: SelectionMode, width: Int, height: Int?,
                              _ expected: (CoreError) -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try Selection.select(candidates, mode: mode, width: width, height: height, product: .banner),
                             file: file, line: line) { error in
            guard let core = error as? CoreError, expected(core) else {
                return XCTFail("unexpected error \(error)", file: file, line: line)
            }
        }
    }

    private let designCandidates = [
        PixelSize(width: 960, height: 150), PixelSize(width: 1320, height: 204),
        PixelSize(width: 2184, height: 270), PixelSize(width: 300, height: 250),
    ]

    // MARK: adaptive

    func testAdaptiveDesignExample() throws {
        let result = try Selection.select(designCandidates, mode: .anchored, width: 1170, height: 183, product: .banner)
        XCTAssertEqual(result.winner, 0)
        XCTAssertEqual(result.mode, .anchored)
        XCTAssertEqual(result.width, 1170)
        XCTAssertEqual(result.height, 183)
        // Strips ranked by |ln(ratio / slot ratio)|, then the rectangle excluded at the end.
        XCTAssertEqual(result.ranking.map(\.size), [size(960, 150), size(1320, 204), size(2184, 270), size(300, 250)])
        XCTAssertEqual(result.ranking.map(\.eligible), [true, true, true, false])
        XCTAssertEqual(result.ranking[0].score, abs(log((960.0 / 150) / (1170.0 / 183))), accuracy: 1e-12)
        XCTAssertEqual(result.ranking[3].note, "rectangle: inline slots only")
    }

    func testAdaptivePicksClosestAspectRatio() {
        // Leaderboard-shaped slot (8.09) -> 2184x270.
        XCTAssertEqual(winner(designCandidates, .anchored, width: 2184, height: 270), size(2184, 270))
        XCTAssertEqual(winner(designCandidates, .anchored, width: 1456, height: 180), size(2184, 270))
        // 440x68 slot at 3x -> 1320x204.
        XCTAssertEqual(winner(designCandidates, .anchored, width: 1320, height: 204), size(1320, 204))
        // A tall slot (ratio 2) still gets the least-letterboxed strip, never the rectangle.
        XCTAssertEqual(winner(designCandidates, .anchored, width: 600, height: 300), size(960, 150))
    }

    func testAdaptiveUsesLogDistanceNotLinearDifference() {
        // Slot ratio 4. 2:1 is |ln 0.5| = 0.693 away; 7:1 is |ln 1.75| = 0.560 away.
        // A linear difference would pick 2:1 (2 vs 3); least letterbox picks 7:1.
        XCTAssertEqual(winner([size(200, 100), size(700, 100)], .anchored, width: 400, height: 100), size(700, 100))
    }

    func testAdaptiveTieEqualRatioPrefersLargerWidth() {
        XCTAssertEqual(winner([size(320, 50), size(960, 150)], .anchored, width: 1170, height: 183), size(960, 150))
        XCTAssertEqual(winner([size(960, 150), size(320, 50)], .anchored, width: 1170, height: 183), size(960, 150))
    }

    func testAdaptiveTieSameSizeFallsToInputOrder() throws {
        let result = try Selection.select([size(960, 150), size(960, 150)], mode: .anchored, width: 1170, height: 183, product: .banner)
        XCTAssertEqual(result.winner, 0)
        XCTAssertEqual(result.ranking.map(\.index), [0, 1])
    }

    func testAdaptiveRankingBreaksRatioTiesByWidth() throws {
        // 1000x125 and 2000x250 both match the 8:1 slot exactly; the wider ranks first.
        let result = try Selection.select([size(1000, 125), size(960, 150), size(2000, 250)],
                                          mode: .anchored, width: 800, height: 100, product: .banner)
        XCTAssertEqual(result.ranking.map(\.size), [size(2000, 250), size(1000, 125), size(960, 150)])
        XCTAssertEqual(result.winner, 2)
    }

    func testAdaptiveRejectsAllRectangles() {
        assertThrows([size(300, 250), size(320, 200)], .anchored, width: 1170, height: 183) {
            if case .noEligibleCandidate = $0 { return true }
            return false
        }
    }

    // MARK: inline

    func testInlineDesignExample() throws {
        let result = try Selection.select(designCandidates, mode: .inline, width: 1170, height: 750, product: .banner)
        XCTAssertEqual(designCandidates[result.winner], size(300, 250))
        XCTAssertTrue(result.ranking.allSatisfy(\.eligible))
        // 300x250 fitted to 900x750; 960x150 to 1170x183; 1320x204 to 1170x181; 2184x270 to 1170x145.
        XCTAssertEqual(result.ranking.map(\.score), [900.0 * 750, 1170.0 * 183, 1170.0 * 181, 1170.0 * 145])
    }

    func testInlineShortBoxPrefersStrip() {
        // 390x100 at 1x: 300x250 fits as 120x100 (12000); 960x150 as 390x61 (23790).
        XCTAssertEqual(winner(designCandidates, .inline, width: 390, height: 100), size(960, 150))
    }

    func testInlineTiePrefersLargerSourceWidth() {
        XCTAssertEqual(winner([size(320, 50), size(960, 150)], .inline, width: 1170, height: 750), size(960, 150))
        XCTAssertEqual(winner([size(300, 250), size(600, 500)], .inline, width: 300, height: 250), size(600, 500))
    }

    func testInlineTieSameWidthUsesCatalogOrderThenInputOrder() throws {
        // In a 1x1 box both fit as 1x1 and both are 320 wide: the catalog size wins whatever the input order.
        let result = try Selection.select([size(320, 51), size(320, 50)], mode: .inline, width: 1, height: 1, product: .banner)
        XCTAssertEqual(result.winner, 1)
        let twins = try Selection.select([size(320, 51), size(320, 51)], mode: .inline, width: 1, height: 1, product: .banner)
        XCTAssertEqual(twins.winner, 0)
    }

    // MARK: legacy

    func testLegacyWidestStripThatFits() throws {
        let result = try Selection.select(designCandidates, mode: .legacy, width: 1170, height: 183, product: .banner)
        XCTAssertEqual(designCandidates[result.winner], size(960, 150))
        XCTAssertNil(result.height, "legacy ignores the height")
        XCTAssertEqual(winner(designCandidates, .legacy, width: 1320, height: nil), size(1320, 204))
        XCTAssertEqual(winner(designCandidates, .legacy, width: 3000, height: nil), size(2184, 270))
        XCTAssertEqual(winner(Product.banner.entries.map(\.size), .legacy, width: 750, height: nil), size(728, 90))
    }

    func testLegacyNoneFitsTakesNarrowest() {
        XCTAssertEqual(winner(designCandidates, .legacy, width: 320, height: nil), size(960, 150))
        XCTAssertEqual(winner([size(2184, 270), size(1320, 204)], .legacy, width: 100, height: nil),
                       size(1320, 204))
    }

    func testLegacyExcludesRectanglesEvenWhenTheyFit() throws {
        // 300x250 fits 320 wide but is a rectangle; the too-wide strip wins.
        let result = try Selection.select([size(300, 250), size(960, 150)], mode: .legacy, width: 320, height: nil, product: .banner)
        XCTAssertEqual(result.winner, 1)
        XCTAssertEqual(result.ranking.last?.eligible, false)
        XCTAssertEqual(result.ranking.first?.note, "wider than the screen")
        assertThrows([size(300, 250)], .legacy, width: 320, height: nil) {
            if case .noEligibleCandidate = $0 { return true }
            return false
        }
    }

    func testLegacyEqualWidthUsesCatalogOrder() {
        // 320x100 and 320x50 are both strips of width 320; 320x50 comes first in the catalog.
        XCTAssertEqual(winner([size(320, 100), size(320, 50)], .legacy, width: 400, height: nil), size(320, 50))
    }

    // MARK: bad requests

    func testInvalidRequestSizes() {
        let isNumber: (CoreError) -> Bool = { if case .invalidNumber = $0 { return true }; return false }
        for mode in SelectionMode.allCases {
            assertThrows(designCandidates, mode, width: 0, height: 183, isNumber)
            assertThrows(designCandidates, mode, width: -5, height: 183, isNumber)
        }
        assertThrows(designCandidates, .anchored, width: 1170, height: nil, isNumber)
        assertThrows(designCandidates, .anchored, width: 1170, height: 0, isNumber)
        assertThrows(designCandidates, .inline, width: 1170, height: -1, isNumber)
    }

    func testEmptyCandidateListThrows() {
        for mode in SelectionMode.allCases {
            assertThrows([], mode, width: 1170, height: 183) {
                if case .noEligibleCandidate = $0 { return true }
                return false
            }
        }
    }
}
