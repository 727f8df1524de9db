import XCTest
@testable import CreativeCore

/// docs/reference.md, "Accepted artwork" and the device table of "process": the size catalog and the device table.
final class CatalogTests: XCTestCase {
    private func size(_ width: Int, _ height: Int) -> PixelSize { PixelSize(width: width, height: height) }

    func testCatalogIsTheEightSizesInOrder() {
        XCTAssertEqual(Product.banner.entries.map(\.size.description),
                       ["960x150", "1320x204", "2184x270", "320x50", "320x100", "300x250", "468x60", "728x90"])
        XCTAssertEqual(Product.banner.entries.map(\.sizeClass),
                       [.adaptive, .adaptive, .adaptive, .standard, .standard, .standard, .standard, .standard])
    }

    func testAspectRatiosMatchTheTable() {
        let expected = [6.40, 6.47, 8.09, 6.40, 3.20, 1.20, 7.80, 8.09]
        for (entry, ratio) in zip(Product.banner.entries, expected) {
            XCTAssertEqual(entry.size.aspectRatio, ratio, accuracy: 0.005, "\(entry.size)")
        }
    }

    func testOnlyTheMediumRectangleIsARectangle() {
        XCTAssertEqual(Product.banner.entries.filter { $0.shape == .rectangle }.map(\.size), [size(300, 250)])
    }

    func testAdaptiveSizesAreRetinaThreeX() {
        XCTAssertEqual(Product.banner.recommendedUploads, [size(960, 150), size(1320, 204), size(2184, 270)])
        for entry in Product.banner.entries where entry.sizeClass == .adaptive {
            let base = try? XCTUnwrap(entry.retinaOf)
            XCTAssertEqual(base.map { size($0.width * 3, $0.height * 3) }, entry.size)
        }
        XCTAssertEqual(Product.banner.entries.compactMap(\.retinaOf), [size(320, 50), size(440, 68), size(728, 90)])
    }

    func testEntryAndOrderLookups() {
        XCTAssertEqual(Product.banner.entry(for: size(300, 250))?.purpose, "medium rectangle (inline only)")
        XCTAssertEqual(Product.banner.entry(for: size(728, 90))?.purpose, "leaderboard")
        XCTAssertNil(Product.banner.entry(for: size(961, 150)))
        XCTAssertNil(Product.banner.entry(for: size(150, 960)))
        XCTAssertEqual(Product.banner.order(of: size(960, 150)), 0)
        XCTAssertEqual(Product.banner.order(of: size(728, 90)), 7)
        XCTAssertNil(Product.banner.order(of: size(1, 1)))
    }

    func testNearestSizes() {
        let nearest = Product.banner.nearest(to: size(961, 150))
        XCTAssertEqual(nearest.count, 2)
        XCTAssertEqual(nearest.first, size(960, 150))
        XCTAssertEqual(Product.banner.nearest(to: size(300, 251), count: 1), [size(300, 250)])
        XCTAssertEqual(Product.banner.nearest(to: size(2000, 260)).first, size(2184, 270))
        XCTAssertEqual(Product.banner.nearest(to: size(320, 52)).first, size(320, 50))
        XCTAssertEqual(Product.banner.nearest(to: size(320, 95)).first, size(320, 100))
        XCTAssertEqual(Product.banner.nearest(to: size(10, 10), count: 20).count, 8)
    }

    func testLimits() {
        XCTAssertEqual(Catalog.weightGuidelineBytes, 153_600)
        XCTAssertEqual(Catalog.weightGuidelineBytes, RenderSettings.defaultWeightBudget, "one figure: heavy_file, fix and budgets")
        XCTAssertEqual(Catalog.weightGuidelineText, "150 KB (153,600 bytes)")
        XCTAssertEqual(Catalog.defaultMaxBytes, 2_097_152)
        XCTAssertEqual(Catalog.defaultMaxPixels, 50_000_000)
    }

    // MARK: devices

    func testFourteenDevicesFromTheDesignTable() {
        let table = Devices.all.map { "\($0.widthPoints)x\($0.heightPoints)@\($0.scale)" }
        XCTAssertEqual(table, [
            "320x568@2.0", "375x667@2.0", "390x844@3.0", "393x852@3.0", "414x896@2.0", "428x926@3.0",
            "430x932@3.0", "744x1133@2.0", "810x1080@2.0", "820x1180@2.0", "834x1194@2.0", "1024x1366@2.0",
            "360x800@3.0", "412x915@2.625",
        ])
        XCTAssertEqual(Set(Devices.all.map(\.name)).count, 14, "names are unique")
    }

    func testLandscapeSwapsSides() {
        let iphone = Devices.all[2]
        XCTAssertEqual(iphone.screen(.portrait).width, 390)
        XCTAssertEqual(iphone.screen(.portrait).height, 844)
        XCTAssertEqual(iphone.screen(.landscape).width, 844)
        XCTAssertEqual(iphone.screen(.landscape).height, 390)
        for device in Devices.all {
            XCTAssertLessThan(device.screen(.portrait).width, device.screen(.portrait).height, device.name)
            XCTAssertEqual(device.screen(.landscape).width, device.screen(.portrait).height, device.name)
            XCTAssertEqual(device.screen(.landscape).height, device.screen(.portrait).width, device.name)
        }
        XCTAssertEqual(Orientation.allCases, [.portrait, .landscape])
    }

    func testDeviceSlotsWithTheOwnRule() {
        // Every portrait phone gets 50...90 points; landscape phones are capped by 15% of the height.
        for device in Devices.all {
            for orientation in Orientation.allCases {
                let screen = device.screen(orientation)
                let height = SlotMath.anchoredHeight(width: screen.width, screenHeight: screen.height, rule: .qartvelo)
                XCTAssertTrue((50...90).contains(height), "\(device.name) \(orientation)")
            }
        }
        let pixel = Devices.all[13]
        let slot = SlotMath.anchoredSlot(width: pixel.widthPoints, screenHeight: pixel.heightPoints,
                                         rule: .qartvelo, scale: pixel.scale)
        XCTAssertEqual(slot.points, size(412, 64))
        XCTAssertEqual(slot.pixels, size(1082, 168))
        // iPhone 14 landscape: 844 wide -> 90, capped to floor(0.15 * 390) = 58.
        XCTAssertEqual(SlotMath.anchoredHeight(width: 844, screenHeight: 390, rule: .qartvelo), 58)
    }
}
