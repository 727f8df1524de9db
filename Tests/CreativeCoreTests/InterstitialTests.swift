import CreativeCore
import Foundation
import CreativeTestSupport
import XCTest

/// The interstitial product: its catalog, full-screen slots, selection, and a close zone that an
/// independent recomputation from the device table agrees with.
final class InterstitialTests: XCTestCase {
    private func size(_ w: Int, _ h: Int) -> PixelSize { PixelSize(width: w, height: h) }

    private let interstitialSizes = ["320x480", "768x1024", "480x320", "1024x768", "1080x1920", "1920x1080"]

    func testProductsAndCatalogs() throws {
        XCTAssertEqual(Product.allCases.map(\.rawValue), ["banner", "interstitial", "companion"])
        XCTAssertEqual(Product(rawValue: "interstitial"), .interstitial)
        XCTAssertNil(Product(rawValue: "video"))
        XCTAssertEqual(Product.banner.entries.map(\.size.description),
                       ["960x150", "1320x204", "2184x270", "320x50", "320x100", "300x250", "468x60", "728x90"])
        XCTAssertEqual(Product.interstitial.sizes.map(\.description), interstitialSizes)
        XCTAssertEqual(Product.interstitial.slotRule, .fullScreenSafeArea)
        XCTAssertEqual(Product.interstitial.selectionRule, .orientationThenAspectRatio)
    }

    func testValidationRulesPerProduct() throws {
        for name in interstitialSizes {
            XCTAssertNil(ValidationRules.dimensionsIssue(try PixelSize(parsing: name), product: .interstitial), name)
            XCTAssertEqual(ValidationRules.dimensionsIssue(try PixelSize(parsing: name), product: .banner)?.code, .dimensionsNotAllowed, name)
        }
        let issue = try XCTUnwrap(ValidationRules.dimensionsIssue(size(320, 50), product: .interstitial))
        XCTAssertEqual(issue.code, .dimensionsNotAllowed)
        XCTAssertTrue(issue.message.contains("the nearest are 320x480 or 480x320"), issue.message)
        XCTAssertNil(ValidationRules.dimensionsIssue(size(320, 50), product: .banner))
    }

    func testFullScreenSlotOfIPhone15() throws {
        let device = try XCTUnwrap(Devices.named("iPhone 15"))
        let portrait = DeviceSlot.fullScreen(device, .portrait)
        XCTAssertEqual(portrait.screenPixels, size(1179, 2556))
        XCTAssertEqual(portrait.slot.points, size(393, 759))
        XCTAssertEqual(portrait.safeAreaPixels, PixelRect(x: 0, y: 177, width: 1179, height: 2277))
        XCTAssertEqual(CloseButton.square(in: portrait), PixelRect(x: 1029, y: 177, width: 150, height: 150))
        let landscape = DeviceSlot.fullScreen(device, .landscape)
        XCTAssertEqual(landscape.slot.points, size(734, 372))
        XCTAssertEqual(landscape.safeAreaPixels, PixelRect(x: 177, y: 0, width: 2202, height: 1116))
    }

    func testEveryDeviceHasInsetsInBothOrientations() {
        for device in Devices.all {
            XCTAssertNotEqual(device.portraitInsets, .zero, device.name)
            let landscape = device.screen(.landscape)
            XCTAssertLessThan(device.landscapeInsets.left + device.landscapeInsets.right, landscape.width, device.name)
        }
    }

    func testSelectionPrefersTheScreensOrientationThenTheClosestRatio() throws {
        let all = Product.interstitial.sizes
        // Portrait safe area 1179x2277: portrait artwork; 1080x1920 is the closest ratio.
        let portrait = try Selection.select(all, mode: .fullScreen, width: 1179, height: 2277, product: .interstitial)
        XCTAssertEqual(all[portrait.winner], size(1080, 1920))
        let landscape = try Selection.select(all, mode: .fullScreen, width: 2202, height: 1116, product: .interstitial)
        XCTAssertEqual(all[landscape.winner], size(1920, 1080))
        // Only portrait artwork uploaded: a landscape screen letterboxes it, the closest first.
        let portraitOnly = [size(320, 480), size(1080, 1920)]
        let fallback = try Selection.select(portraitOnly, mode: .fullScreen, width: 2202, height: 1116, product: .interstitial)
        XCTAssertEqual(portraitOnly[fallback.winner], size(320, 480))
        XCTAssertEqual(fallback.ranking.first?.note, "other orientation: letterboxed")
        // Equal ratios: catalog order.
        let tie = try Selection.select([size(1920, 1080), size(480, 320), size(1024, 768)], mode: .fullScreen,
                                       width: 1500, height: 1000, product: .interstitial)
        XCTAssertEqual(tie.winner, 1)
    }

    // MARK: Close zone, recomputed independently

    /// Pixels of a point position: rounded to the nearest pixel.
    private func px(_ points: Int, _ scale: Double) -> Int { Int((Double(points) * scale).rounded()) }

    /// The close zone of `artwork` written out from the device table alone: safe area, the
    /// orientation-then-ratio pick among all six sizes, aspect fit centred in the safe area, the
    /// 50 pt square in the safe area's top-right corner mapped into artwork pixels.
    private func expectedZone(_ artwork: PixelSize) -> (zone: PixelRect?, slots: Int) {
        let sizes = Product.interstitial.sizes
        var union: (x0: Int, y0: Int, x1: Int, y1: Int)?
        var slots = 0
        for device in Devices.all {
            for landscape in [false, true] {
                let w = landscape ? device.heightPoints : device.widthPoints
                let h = landscape ? device.widthPoints : device.heightPoints
                let inset = landscape ? device.landscapeInsets : device.portraitInsets
                let s = device.scale
                let ax = px(inset.left, s), ay = px(inset.top, s)
                let aw = px(w - inset.right, s) - ax, ah = px(h - inset.bottom, s) - ay
                let areaRatio = Double(aw) / Double(ah)
                let wantLandscape = aw > ah
                let ranked = sizes.enumerated().sorted { a, b in
                    let ma = (a.element.width > a.element.height) == wantLandscape
                    let mb = (b.element.width > b.element.height) == wantLandscape
                    if ma != mb { return ma }
                    let da = abs(log(Double(a.element.width) / Double(a.element.height) / areaRatio))
                    let db = abs(log(Double(b.element.width) / Double(b.element.height) / areaRatio))
                    if abs(da - db) > 1e-9 { return da < db }
                    return a.offset < b.offset
                }
                guard ranked[0].element == artwork else { continue }
                slots += 1
                let k = min(Double(aw) / Double(artwork.width), Double(ah) / Double(artwork.height))
                let cw = min(aw, Int((Double(artwork.width) * k).rounded()))
                let ch = min(ah, Int((Double(artwork.height) * k).rounded()))
                let cx = ax + (aw - cw) / 2, cy = ay + (ah - ch) / 2
                let right = w - inset.right
                let bx0 = px(right - 50, s), bx1 = px(right, s), by0 = px(inset.top, s), by1 = px(inset.top + 50, s)
                let ix0 = max(bx0, cx), ix1 = min(bx1, cx + cw), iy0 = max(by0, cy), iy1 = min(by1, cy + ch)
                guard ix0 < ix1, iy0 < iy1 else { continue }
                // Whole artwork pixels under the button: floor the start, ceil the end.
                let fx = Double(artwork.width) / Double(cw), fy = Double(artwork.height) / Double(ch)
                let x0 = max(0, Int(floor(Double(ix0 - cx) * fx + 1e-9)))
                let y0 = max(0, Int(floor(Double(iy0 - cy) * fy + 1e-9)))
                let x1 = min(artwork.width, Int(ceil(Double(ix1 - cx) * fx - 1e-9)))
                let y1 = min(artwork.height, Int(ceil(Double(iy1 - cy) * fy - 1e-9)))
                union = union.map { (min($0.x0, x0), min($0.y0, y0), max($0.x1, x1), max($0.y1, y1)) } ?? (x0, y0, x1, y1)
            }
        }
        return (union.map { PixelRect(x: $0.x0, y: $0.y0, width: $0.x1 - $0.x0, height: $0.y1 - $0.y0) }, slots)
    }

    func testGuidanceCloseZoneIsTheUnionOverTheDeviceTable() throws {
        let text = Guidance(product: .interstitial).render(.json)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(document["product"] as? String, "interstitial")
        let sizes = try XCTUnwrap(document["sizes"] as? [[String: Any]])
        XCTAssertEqual(sizes.map { $0.sizeText("size_pixels") }, interstitialSizes)
        for entry in sizes {
            let name = try XCTUnwrap(entry.sizeText("size_pixels"))
            let artwork = try PixelSize(parsing: name)
            let expected = expectedZone(artwork)
            XCTAssertGreaterThan(expected.slots, 0, "\(name) is picked on some screen")
            XCTAssertEqual(entry["served_slot_count"] as? Int, expected.slots, name)
            let zone = try XCTUnwrap(entry["close_zone_pixels"] as? [String: Int], name)
            let want = try XCTUnwrap(expected.zone, name)
            XCTAssertEqual(zone, ["x": want.x, "y": want.y, "width": want.width, "height": want.height], name)
            // Inside the artwork, and reaching its top-right corner region.
            XCTAssertGreaterThanOrEqual(want.x, 0, name)
            XCTAssertGreaterThanOrEqual(want.y, 0, name)
            XCTAssertGreaterThan(want.width, 0, name)
            XCTAssertGreaterThan(want.height, 0, name)
            XCTAssertLessThanOrEqual(want.x + want.width, artwork.width, name)
            XCTAssertLessThanOrEqual(want.y + want.height, artwork.height, name)
            XCTAssertEqual(CloseButton.zone(for: artwork, product: .interstitial), want, name)
        }
        let slots = try XCTUnwrap(document["slots"] as? [[String: Any]])
        XCTAssertEqual(slots.count, 2 * Devices.all.count)
        let iPhone15 = try XCTUnwrap(slots.first { $0["device"] as? String == "iPhone 15" && $0["orientation"] as? String == "portrait" })
        XCTAssertEqual(iPhone15.sizeText("artwork_pixels"), "1080x1920")
        XCTAssertEqual(iPhone15.sizeText("slot_pixels"), "1179x2556")
        XCTAssertEqual(iPhone15.sizeText("slot_points"), "393x852", "the slot is the whole screen, in points as in pixels")
        XCTAssertEqual(iPhone15.sizeText("safe_area_points"), "393x759")
        XCTAssertEqual(JSONShapes.size(iPhone15["safe_area_pixels"]), "1179x2277")
        XCTAssertNotNil(iPhone15["fill_share"] as? Double)
    }

    func testBannerGuidanceIsUnchangedByTheProduct() {
        XCTAssertFalse(Guidance(product: .banner).render(.json).contains("close_zone"))
        XCTAssertTrue(Guidance(product: .interstitial).render(.markdown).contains("## Close button"))
        XCTAssertTrue(Guidance(product: .interstitial).render(.html).contains("close zone"))
    }

    func testPromptKeepsTheCloseZoneClear() throws {
        let template = try String(contentsOf: BannerPromptTests.templateURL, encoding: .utf8)
        let prompt = try XCTUnwrap(BannerPrompt.render(template: template, size: size(1080, 1920), brand: nil,
                                                       headline: "Play", cta: nil, colors: nil, product: .interstitial).first)
        let zone = try XCTUnwrap(CloseButton.zone(for: size(1080, 1920), product: .interstitial))
        XCTAssertTrue(prompt.text.contains("Keep the \(zone.width) x \(zone.height) pixel rectangle whose top-left corner "
                                           + "is at x \(zone.x), y \(zone.y)"), prompt.text)
        XCTAssertTrue(prompt.text.contains("free of text, logos"), prompt.text)
        let banner = try XCTUnwrap(BannerPrompt.render(template: template, size: size(960, 150), brand: nil, headline: nil,
                                                       cta: nil, colors: nil, product: .banner).first)
        XCTAssertFalse(banner.text.contains("Close button"))
        XCTAssertThrowsError(try BannerPrompt.facts(for: size(960, 150), product: .interstitial)) { error in
            guard case .sizeNotAllowed? = error as? CoreError else { return XCTFail("\(error)") }
        }
    }
}
