import XCTest
@testable import CreativeCore

/// docs/reference.md, "render", "slot" and "select": anchored heights (own rule and Google estimate), inline max height, pixels, fit.
final class SlotMathTests: XCTestCase {
    private func qartvelo(_ width: Int, screen: Int? = nil) -> Int {
        SlotMath.anchoredHeight(width: width, screenHeight: screen, rule: .qartvelo)
    }

    private func google(_ width: Int, screen: Int? = nil) -> Int {
        SlotMath.anchoredHeight(width: width, screenHeight: screen, rule: .google)
    }

    // MARK: qartvelo rule: floor(w * 50 / 320), clamped 50...90

    func testQartveloCommonWidths() {
        XCTAssertEqual(qartvelo(320), 50)
        XCTAssertEqual(qartvelo(375), 58)   // 58.59 floored
        XCTAssertEqual(qartvelo(390), 60)   // 60.94 floored, not rounded
        XCTAssertEqual(qartvelo(393), 61)   // 61.41
        XCTAssertEqual(qartvelo(414), 64)   // 64.69
        XCTAssertEqual(qartvelo(430), 67)   // 67.19
    }

    func testQartveloClampsToFiftyAndNinety() {
        XCTAssertEqual(qartvelo(100), 50)
        XCTAssertEqual(qartvelo(1), 50)
        XCTAssertEqual(qartvelo(575), 89)   // 89.84 floored, just under the top
        XCTAssertEqual(qartvelo(576), 90)
        XCTAssertEqual(qartvelo(1024), 90)
        XCTAssertEqual(qartvelo(2000), 90)
    }

    func testQartveloScreenHeightCap() {
        // floor(0.15 * 500) = 75 caps the 90.
        XCTAssertEqual(qartvelo(576, screen: 500), 75)
        // floor(0.15 * 320) = 48 would be below 50: never below 50.
        XCTAssertEqual(qartvelo(390, screen: 320), 50)
        // A cap above the rule's height changes nothing.
        XCTAssertEqual(qartvelo(390, screen: 844), 60)
        XCTAssertEqual(qartvelo(1024, screen: 1366), 90)
        // Landscape phone: 844 wide, 390 tall -> cap floor(58.5) = 58.
        XCTAssertEqual(qartvelo(844, screen: 390), 58)
        // floor, not round: 0.15 * 399 = 59.85 -> 59.
        XCTAssertEqual(qartvelo(1024, screen: 399), 59)
    }

    // MARK: Google estimate

    func testGooglePublishedMeasurements() {
        XCTAssertEqual(google(320), 50)
        XCTAssertEqual(google(360), 56)
        XCTAssertEqual(google(390), 61)
        XCTAssertEqual(google(411), 64)
        XCTAssertEqual(google(412), 64)
        XCTAssertEqual(google(600), 77)
        XCTAssertEqual(google(800), 90)
        XCTAssertTrue(AnchoredRule.google.isEstimate)
        XCTAssertFalse(AnchoredRule.qartvelo.isEstimate)
    }

    func testGoogleBandBoundaries() {
        // Below 468: round(w * 50 / 320).
        XCTAssertEqual(google(467), 73)   // 72.97
        // From 468: round(w * 60 / 468).
        XCTAssertEqual(google(468), 60)
        XCTAssertEqual(google(700), 90)   // 89.74 rounded
        XCTAssertEqual(google(727), 90)   // 93.2 clamped
        // From 728: round(w * 90 / 728).
        XCTAssertEqual(google(728), 90)
        XCTAssertEqual(google(1024), 90)
    }

    func testGoogleClampsAndCap() {
        XCTAssertEqual(google(200), 50)
        XCTAssertEqual(google(600, screen: 400), 60)   // cap floor(60.0)
        XCTAssertEqual(google(600, screen: 300), 50)   // cap 45 -> never below 50
    }

    func testAnchoredSlotCarriesScaleAndPixels() {
        let slot = SlotMath.anchoredSlot(width: 390, rule: .google, scale: 3)
        XCTAssertEqual(slot.points, PixelSize(width: 390, height: 61))
        XCTAssertEqual(slot.pixels, PixelSize(width: 1170, height: 183))

        let own = SlotMath.anchoredSlot(width: 390, screenHeight: 844, rule: .qartvelo, scale: 3)
        XCTAssertEqual(own.points, PixelSize(width: 390, height: 60))
        XCTAssertEqual(own.pixels, PixelSize(width: 1170, height: 180))
    }

    // MARK: pixels and scale

    func testPixelsRoundToNearest() {
        XCTAssertEqual(SlotMath.pixels(390, scale: 3), 1170)
        XCTAssertEqual(SlotMath.pixels(50, scale: 1), 50)
        XCTAssertEqual(SlotMath.pixels(412, scale: 2.625), 1082)   // 1081.5 rounds up
        XCTAssertEqual(SlotMath.pixels(64, scale: 2.625), 168)     // exact
        XCTAssertEqual(SlotMath.pixels(61, scale: 2.625), 160)     // 160.125
        XCTAssertEqual(SlotMath.pixels(50, scale: 2.625), 131)     // 131.25
        XCTAssertEqual(SlotMath.pixels(57, scale: 2.625), 150)     // 149.625
    }

    func testAndroidSlotPixels() {
        let slot = Slot(points: PixelSize(width: 412, height: 64), scale: 2.625)
        XCTAssertEqual(slot.pixels, PixelSize(width: 1082, height: 168))
    }

    func testCheckScale() {
        for good in [1.0, 2.0, 2.625, 3.0, 4.0] {
            XCTAssertNoThrow(try SlotMath.checkScale(good), "\(good)")
        }
        for bad in [0.0, 0.5, 0.99, 4.01, 10, -2, .nan, .infinity] {
            XCTAssertThrowsError(try SlotMath.checkScale(bad), "\(bad)") { error in
                guard case CoreError.invalidScale = error else {
                    return XCTFail("expected invalidScale, got \(error)")
                }
            }
        }
    }

    // MARK: inline

    func testInlineMaxHeight() {
        XCTAssertEqual(SlotMath.inlineMaxHeight(nil), 250)
        XCTAssertEqual(SlotMath.inlineMaxHeight(300), 300)
        XCTAssertEqual(SlotMath.inlineMaxHeight(32), 32)
        XCTAssertEqual(SlotMath.inlineMaxHeight(31), 32)
        XCTAssertEqual(SlotMath.inlineMaxHeight(0), 32)
        XCTAssertEqual(SlotMath.inlineMaxHeight(-10), 32)
    }

    func testFitScalesUpAndDownKeepingProportions() {
        // Height-bound at scale 1: 300x250 into 390x250 stays 300x250.
        XCTAssertEqual(SlotMath.fit(PixelSize(width: 300, height: 250), into: PixelSize(width: 390, height: 250)),
                       PixelSize(width: 300, height: 250))
        // Up: 300x250 into 1170x750 -> x3.
        XCTAssertEqual(SlotMath.fit(PixelSize(width: 300, height: 250), into: PixelSize(width: 1170, height: 750)),
                       PixelSize(width: 900, height: 750))
        // Width-bound strip: 960x150 into 1170x750 -> 1170 x 182.8 -> 183.
        XCTAssertEqual(SlotMath.fit(PixelSize(width: 960, height: 150), into: PixelSize(width: 1170, height: 750)),
                       PixelSize(width: 1170, height: 183))
        // Down: 2184x270 into 390x250 -> 390 x 48.2 -> 48.
        XCTAssertEqual(SlotMath.fit(PixelSize(width: 2184, height: 270), into: PixelSize(width: 390, height: 250)),
                       PixelSize(width: 390, height: 48))
    }

    func testFitNeverExceedsBoxAndNeverBelowOnePixel() {
        XCTAssertEqual(SlotMath.fit(PixelSize(width: 10_000, height: 1), into: PixelSize(width: 100, height: 100)),
                       PixelSize(width: 100, height: 1))
        XCTAssertEqual(SlotMath.fit(PixelSize(width: 1, height: 10_000), into: PixelSize(width: 100, height: 100)),
                       PixelSize(width: 1, height: 100))
        let box = PixelSize(width: 1170, height: 183)
        for source in Product.banner.entries.map(\.size) {
            let fitted = SlotMath.fit(source, into: box)
            XCTAssertLessThanOrEqual(fitted.width, box.width, "\(source)")
            XCTAssertLessThanOrEqual(fitted.height, box.height, "\(source)")
            XCTAssertTrue(fitted.width == box.width || fitted.height == box.height, "\(source) touches a side")
        }
    }
}
