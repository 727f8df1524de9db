import CreativeCore
import XCTest

/// The companion product: its six sizes, the fixed standard slot per device class, and the
/// selection rule (closest aspect ratio, then the sharpest artwork that needs no upscaling).
final class CompanionProductTests: XCTestCase {
    private func size(_ w: Int, _ h: Int) -> PixelSize { PixelSize(width: w, height: h) }

    private let companionSizes = ["320x50", "640x100", "960x150", "728x90", "1456x180", "2184x270"]

    func testCatalogAndRules() throws {
        XCTAssertEqual(Product(rawValue: "companion"), .companion)
        XCTAssertEqual(Product.companion.sizes.map(\.description), companionSizes)
        XCTAssertEqual(Product.companion.slotRule, .fixedStandardSlot)
        XCTAssertEqual(Product.companion.selectionRule, .aspectRatioThenSharpest)
        XCTAssertEqual(SelectionMode.modes(for: .companion), [.standardSlot])
        XCTAssertEqual(Product.companion.standardSlotPoints, [.phone: size(320, 50), .tablet: size(728, 90)])
        XCTAssertEqual(Product.names, "banner|interstitial|companion")
        for name in companionSizes {
            XCTAssertNil(ValidationRules.dimensionsIssue(try PixelSize(parsing: name), product: .companion), name)
        }
        // The @2x sizes are companion sizes only.
        XCTAssertNotNil(ValidationRules.dimensionsIssue(size(640, 100), product: .banner))
        let issue = try XCTUnwrap(ValidationRules.dimensionsIssue(size(300, 250), product: .companion))
        XCTAssertEqual(issue.code, .dimensionsNotAllowed)
        XCTAssertTrue(issue.message.contains("not an accepted companion size (it is a banner size: give --product banner, product=banner over HTTP); the nearest are 320x50 or 640x100"), issue.message)
    }

    /// iPhones and Android phones get 320x50 pt, iPads 728x90 pt, at the device's scale; one slot
    /// per device (the same in both orientations).
    func testStandardSlotPerDeviceClass() throws {
        let slots = DevicePlan.standardSlots(product: .companion)
        XCTAssertEqual(slots.count, Devices.all.count)
        for slot in slots {
            let expected = slot.device.name.hasPrefix("iPad") ? size(728, 90) : size(320, 50)
            XCTAssertEqual(slot.slot.points, expected, slot.device.name)
            XCTAssertEqual(slot.slot.scale, slot.device.scale, slot.device.name)
            XCTAssertEqual(slot.sizing, .standard)
            XCTAssertEqual(slot.orientationName, "any")
        }
        let iPhone15 = try XCTUnwrap(DeviceSlot.standard(try XCTUnwrap(Devices.named("iPhone 15")), product: .companion))
        XCTAssertEqual(iPhone15.slot.pixels, size(960, 150))
        XCTAssertEqual(iPhone15.identifier, "iphone-15-standard-320x50@3x")
        let iPad = try XCTUnwrap(DeviceSlot.standard(try XCTUnwrap(Devices.named("iPad Air")), product: .companion))
        XCTAssertEqual(iPad.slot.pixels, size(1456, 180))
        let pixel = try XCTUnwrap(DeviceSlot.standard(try XCTUnwrap(Devices.named("Android Pixel")), product: .companion))
        XCTAssertEqual(pixel.slot.pixels, size(840, 131))
        // Banners and interstitials have no standard slot.
        XCTAssertNil(DeviceSlot.standard(try XCTUnwrap(Devices.named("iPhone 15")), product: .banner))
    }

    func testSelectionPicksTheExactRetinaSizeAmongAllSix() throws {
        let all = Product.companion.sizes
        func pick(_ width: Int, _ height: Int, _ candidates: [PixelSize] = Product.companion.sizes) throws -> PixelSize {
            let result = try Selection.select(candidates, mode: .standardSlot, width: width, height: height, product: .companion)
            return candidates[result.winner]
        }
        XCTAssertEqual(try pick(960, 150), size(960, 150))      // iPhone 15 @3x
        XCTAssertEqual(try pick(1456, 180), size(1456, 180))    // iPad @2x
        XCTAssertEqual(try pick(640, 100), size(640, 100))      // iPhone SE @2x
        XCTAssertEqual(try pick(320, 50), size(320, 50))        // @1x
        XCTAssertEqual(try pick(2184, 270), size(2184, 270))    // an iPad @3x
        // Android Pixel @2.625x, 840x131: the three 6.40 sizes are equally close; 640x100 would be
        // enlarged, so the smallest that is not, 960x150, wins.
        XCTAssertEqual(try pick(840, 131), size(960, 150))
        // Among equally close sizes that all need upscaling, the largest.
        XCTAssertEqual(try pick(1280, 200, [size(320, 50), size(640, 100)]), size(640, 100))
        // The aspect ratio comes first: a 6.40 slot takes 320x50 (enlarged) over 2184x270 (8.09).
        XCTAssertEqual(try pick(960, 150, [size(2184, 270), size(320, 50)]), size(320, 50))
        // Ranking: equally close and not enlarged first, least downscaled first; enlarged ones after,
        // least enlarged first. 728x90 fits a 640x100 slot by its width (scale 640/728): not enlarged.
        let ranked = try Selection.select(all, mode: .standardSlot, width: 640, height: 100, product: .companion).ranking
        XCTAssertEqual(ranked.map(\.size.description), ["640x100", "960x150", "320x50", "728x90", "1456x180", "2184x270"])
        XCTAssertEqual(ranked.map(\.note), [nil, nil, "needs upscaling", nil, nil, nil])
        // Exact ties (the same size twice) keep input order.
        XCTAssertEqual(try Selection.select([size(960, 150), size(960, 150)], mode: .standardSlot, width: 960, height: 150,
                                            product: .companion).winner, 0)
    }

    /// Guidance recommends the two @3x uploads, which serve every slot without upscaling; an
    /// upload on its own (what `process` renders) fills the standard slot of every device.
    func testPlanAndAssignments() throws {
        let guidance = Guidance(product: .companion)
        XCTAssertEqual(guidance.standard.count, Devices.all.count)
        for assignment in guidance.standard {
            let tablet = assignment.deviceSlot.device.deviceClass == .tablet
            XCTAssertEqual(assignment.artwork, tablet ? size(2184, 270) : size(960, 150), assignment.deviceSlot.device.name)
        }
        for upload in [size(640, 100), size(320, 50), size(1456, 180)] {
            let plan = DevicePlan.assignments(for: upload, campaign: [], product: .companion)
            XCTAssertEqual(plan.map(\.deviceSlot.device.name), Devices.all.map(\.name), "\(upload)")
        }
        let iPhoneSE = try XCTUnwrap(DevicePlan.assignments(for: size(640, 100), campaign: [], product: .companion).first)
        XCTAssertEqual(iPhoneSE.placement.contentRect, PixelRect(x: 0, y: 0, width: 640, height: 100))
        let iPads = DevicePlan.assignments(for: size(1456, 180), campaign: [], product: .companion).filter { $0.deviceSlot.device.deviceClass == .tablet }
        XCTAssertEqual(iPads.count, 5)
        XCTAssertTrue(iPads.allSatisfy { $0.placement.canvas == size(1456, 180) && $0.placement.contentRect.width == 1456 })
        // Android Pixel: 960x150 in 840x131, scale 131/150: 838x131 centred at x 1.
        let pixel = try XCTUnwrap(DevicePlan.assignments(for: size(960, 150), campaign: [], product: .companion)
            .first { $0.deviceSlot.device.name == "Android Pixel" })
        XCTAssertEqual(pixel.placement.contentRect, PixelRect(x: 1, y: 0, width: 838, height: 131))
    }

    func testPromptFactsForCompanionSizes() throws {
        let retina2x = try BannerPrompt.facts(for: size(640, 100), product: .companion)
        XCTAssertEqual(retina2x.servedSlots, Devices.all.map { device in
            "\(device.name) \(device.deviceClass == .tablet ? "728x90" : "320x50") pt"
        })
        XCTAssertNil(retina2x.closeZone)
        XCTAssertEqual(try BannerPrompt.facts(for: size(320, 50), product: .companion).servedSlots.count, Devices.all.count)
        XCTAssertThrowsError(try BannerPrompt.facts(for: size(1320, 204), product: .companion)) { error in
            guard case .sizeNotAllowed? = error as? CoreError else { return XCTFail("\(error)") }
        }
    }
}
