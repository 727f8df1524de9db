import CreativeCore
import XCTest

/// `upscaled_render`: a slot that enlarges its artwork more than 2x says so, with the factor.
final class UpscaledRenderTests: XCTestCase {
    private func size(_ width: Int, _ height: Int) -> PixelSize { PixelSize(width: width, height: height) }

    private func anchored(_ creative: PixelSize, _ device: String, _ orientation: Orientation) throws -> SlotAssignment {
        try XCTUnwrap(DevicePlan.anchoredAssignments(candidates: [creative], product: .banner).first {
            $0.deviceSlot.device.name == device && $0.deviceSlot.orientation == orientation
        })
    }

    func testALone320x50IsEnlargedMoreThanTwiceWithItsExactFactor() throws {
        let pro = try anchored(size(320, 50), "iPad Pro 12.9", .landscape)
        XCTAssertEqual(pro.placement.content, size(1152, 180))
        let warning = try XCTUnwrap(UpscaledRender(pro))
        XCTAssertEqual(warning.exactFactor, 3.6)
        XCTAssertEqual(warning.factor, 3.6)
        XCTAssertEqual(warning.factorText, "3.6x")
        XCTAssertEqual(warning.json.serialized(),
                       #"{"code":"upscaled_render","message":"the 320x50 artwork is enlarged 3.6x to 1152x180 in this slot "#
                       + #"(more than 2x looks blurred): upload a larger size of the same shape for it","factor":3.6}"#)
        let phone = try XCTUnwrap(UpscaledRender(try anchored(size(320, 50), "iPhone 15", .portrait)))
        XCTAssertEqual(phone.shown, size(1171, 183))
        XCTAssertEqual(phone.exactFactor, 1171.0 / 320)
        XCTAssertEqual(phone.factor, 3.66)
    }

    func testTwiceOrLessIsNoWarning() throws {
        let se = try anchored(size(320, 50), "iPhone SE", .portrait)
        XCTAssertEqual(UpscaledRender.factor(se), 2.0, "640x100: exactly 2x")
        XCTAssertNil(UpscaledRender(se))
        XCTAssertEqual(UpscaledRender.warningsJSON(se).serialized(), "[]")
        let retina = try anchored(size(1320, 204), "iPad Pro 12.9", .landscape)
        XCTAssertNil(UpscaledRender(retina), "\(UpscaledRender.factor(retina))x")
    }

    func testEveryAnchoredSlotOfALone320x50IsCounted() {
        let slots = DevicePlan.anchoredAssignments(candidates: [size(320, 50)], product: .banner)
        XCTAssertEqual(slots.count, 28)
        XCTAssertEqual(slots.filter { UpscaledRender($0) != nil }.count, 26, "all but the iPhone SE's 2x")
        XCTAssertEqual(UpscaledRender.summary(slots.map { ($0.deviceSlot.identifier, $0) }),
                       "upscaled_render: enlarged more than 2x in 26 of 28 slots (up to 4.02x, iphone-15-plus-portrait-430x67@3x), "
                       + "which looks blurred: upload a larger size of the same shape")
        XCTAssertNil(UpscaledRender.summary(DevicePlan.anchoredAssignments(candidates: [size(2184, 270)], product: .banner)
            .map { ($0.deviceSlot.identifier, $0) }))
    }

    func testGuidanceTablesMarkTheSlotsServedAboveTwice() throws {
        let markdown = Guidance(product: .banner).render(.markdown)
        XCTAssertTrue(markdown.contains("| 300x250 | 900x750 (enlarged 3x: upscaled_render) |"), markdown)
        let html = Guidance(product: .banner).render(.html)
        XCTAssertTrue(html.contains("<td>300x250</td><td>900x750 (enlarged 3x: upscaled_render)</td>"), html)
        XCTAssertFalse(markdown.contains("| 1320x204 | 1320x204 (enlarged"))
    }
}
