import CreativeCore
import CreativeTestSupport
import XCTest
@testable import CreativeImaging

/// A product is one declaration: products the tool does not sell, declared here as a `Product`
/// value of each shape (a strip product as banners, a rectangle in a fixed slot, a full screen),
/// get their guidance, their slots and selection, their validation and a `process` job from that
/// declaration alone, with nothing in the sources naming them.
final class FictionalProductTests: XCTestCase {
    private static func size(_ width: Int, _ height: Int) -> PixelSize { PixelSize(width: width, height: height) }

    /// Strips for anchored slots, with a rectangle for inline views only: banners' rules,
    /// none of banners' sizes.
    static let skyline = Product(
        rawValue: "skyline", title: "Skyline",
        entries: [
            CatalogEntry(size: size(1200, 200), sizeClass: .adaptive, purpose: "Retina artwork, 3x of 400x66",
                         retinaOf: size(400, 66)),
            CatalogEntry(size: size(1800, 240), sizeClass: .adaptive, purpose: "Retina artwork, 3x of 600x80",
                         retinaOf: size(600, 80)),
            CatalogEntry(size: size(600, 100), sizeClass: .standard, purpose: "skyline strip"),
            CatalogEntry(size: size(336, 280), sizeClass: .standard, purpose: "large rectangle (inline only)"),
        ],
        slotRule: .anchoredOrInlineStrip, selectionRule: .aspectRatio,
        recommendedUploads: [size(1200, 200), size(1800, 240)],
        jobDefaults: .slotSized(sheetPixels: 18_500_000))

    /// A rectangle in one fixed slot per device class, with its Retina artwork.
    static let tile = Product(
        rawValue: "tile", title: "Tile",
        entries: [
            CatalogEntry(size: size(300, 250), sizeClass: .standard, purpose: "tile slot"),
            CatalogEntry(size: size(600, 500), sizeClass: .retina, purpose: "Retina artwork, 2x of 300x250",
                         retinaOf: size(300, 250)),
            CatalogEntry(size: size(900, 750), sizeClass: .retina, purpose: "Retina artwork, 3x of 300x250",
                         retinaOf: size(300, 250)),
        ],
        slotRule: .fixedStandardSlot, selectionRule: .aspectRatioThenSharpest,
        recommendedUploads: [size(900, 750)],
        standardSlotPoints: [.phone: size(300, 250), .tablet: size(300, 250)],
        jobDefaults: JobDefaults(memoryBudget: 96 << 20, serviceTimeout: 15, sheetPixels: 7_000_000))

    /// Whole screens, portrait and landscape rectangles.
    static let splash = Product(
        rawValue: "splash", title: "Splash",
        entries: [
            CatalogEntry(size: size(750, 1334), sizeClass: .standard, purpose: "phone splash, portrait"),
            CatalogEntry(size: size(1334, 750), sizeClass: .standard, purpose: "phone splash, landscape"),
        ],
        slotRule: .fullScreenSafeArea, selectionRule: .orientationThenAspectRatio,
        recommendedUploads: [size(750, 1334), size(1334, 750)],
        jobDefaults: .fullScreen(sheetPixels: 35_600_000))

    private static let products = [skyline, tile, splash]

    func testNoneIsSoldOrNamedByTheTool() {
        for product in Self.products {
            XCTAssertFalse(Product.allCases.contains(product), "\(product)")
            XCTAssertNil(Product(rawValue: product.rawValue), "\(product)")
        }
    }

    func testGuidanceIsWrittenFromTheDeclaration() throws {
        for product in Self.products {
            let guidance = Guidance(product: product)
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(guidance.render(.json).utf8)) as? [String: Any])
            XCTAssertEqual(json["product"] as? String, product.rawValue)
            let markdown = guidance.render(.markdown)
            XCTAssertTrue(markdown.hasPrefix("# \(product.title) artwork guidance\n"), "\(product): \(markdown.prefix(80))")
            // Its sizes, in its catalog order, and none other.
            let sizes = try XCTUnwrap(json["sizes"] as? [[String: Any]])
            XCTAssertEqual(sizes.map { JSONShapes.size($0["size_pixels"]) }, product.sizes.map(\.description))
            for entry in product.entries {
                XCTAssertTrue(markdown.contains("\n| \(entry.size) | \(entry.sizeClass.rawValue) |"), "\(product) \(entry.size)")
            }
            let prompts = try BannerPrompts.guidance(product: product)
            XCTAssertEqual(prompts.map(\.size), product.sizes, "\(product)")
            let html = guidance.render(.html, prompts: prompts)
            XCTAssertTrue(html.contains("<h1>\(product.title) artwork guidance</h1>"), "\(product)")
            for prompt in prompts {
                XCTAssertTrue(html.contains("<pre id=\"prompt-\(prompt.size)\""), "\(product) \(prompt.size)")
                XCTAssertTrue(prompt.text.contains("\(prompt.size)"), "\(product) \(prompt.size)")
                XCTAssertTrue(prompt.json.serialized().contains("\"product\":\"\(product.rawValue)\""), "\(product)")
            }
        }
    }

    func testTheStripProductsGuidanceCountsItsOwnUploads() throws {
        let guidance = Guidance(product: Self.skyline)
        XCTAssertFalse(guidance.anchored.isEmpty)
        XCTAssertEqual(Set(guidance.anchored.map(\.artwork)), Set(Self.skyline.recommendedUploads))
        XCTAssertEqual(guidance.inlineRectangle, Self.size(336, 280))
        XCTAssertTrue(guidance.inline.contains { $0.artwork == Self.size(336, 280) })
        let markdown = guidance.render(.markdown)
        XCTAssertTrue(markdown.contains("Upload the two Retina sizes (1200x200, 1800x240): together they cover every anchored slot."))
        XCTAssertTrue(markdown.contains("Inline skylines (inside scrolling content) may also show rectangles such as 336x280"))
        XCTAssertTrue(markdown.contains("The table assumes the two Retina sizes and a 336x280 are uploaded."))
        XCTAssertFalse(markdown.contains("Banner"))
        // Every recommended strip is shown somewhere, and every anchored slot gets one.
        for size in Self.skyline.recommendedUploads {
            XCTAssertFalse(guidance.slots(servedBy: size).isEmpty, "\(size)")
        }
        XCTAssertEqual(guidance.anchored.count, DevicePlan.anchoredSlots().count)
    }

    func testSlotsAndSelectionFollowTheDeclaredRules() throws {
        // The strip product: anchored slots pick its strips, inline views fit its sizes.
        let anchored = DevicePlan.campaignPlan(Self.skyline.recommendedUploads, product: Self.skyline)
        XCTAssertEqual(anchored.count, DevicePlan.anchoredSlots().count)
        let fits = SizingJSON.inlineFits(width: 390, maxHeight: 250, product: Self.skyline)
        XCTAssertEqual(fits.map(\.entry.size), Self.skyline.sizes)
        let pick = try Selection.select(Self.skyline.sizes, mode: .anchored, width: 1170, height: 183, product: Self.skyline)
        XCTAssertEqual(Self.skyline.sizes[pick.winner], Self.size(1200, 200))
        XCTAssertEqual(SelectionMode.modes(for: Self.skyline), [.anchored, .inline, .legacy])
        // The rectangle: one fixed 300x250 pt slot per device, the sharpest artwork that needs no upscaling.
        let tiles = DevicePlan.standardSlots(product: Self.tile)
        XCTAssertEqual(tiles.count, Devices.all.count)
        XCTAssertTrue(tiles.allSatisfy { $0.slot.points == Self.size(300, 250) })
        for assignment in DevicePlan.campaignPlan(Self.tile.sizes, product: Self.tile) {
            let scale = assignment.deviceSlot.slot.scale
            XCTAssertEqual(assignment.artwork.width, Self.tile.sizes.map(\.width).filter { Double($0) >= 300 * scale }.min(),
                           "\(assignment.deviceSlot.device.name)")
        }
        // The full screen: every screen of the table, artwork of its orientation.
        let screens = DevicePlan.campaignPlan(Self.splash.recommendedUploads, product: Self.splash)
        XCTAssertEqual(screens.count, DevicePlan.fullScreenSlots().count)
        for assignment in screens {
            XCTAssertEqual(assignment.artwork.height > assignment.artwork.width,
                           assignment.deviceSlot.orientation == .portrait, "\(assignment.deviceSlot.device.name)")
        }
    }

    func testValidationAcceptsExactlyTheDeclaredSizes() throws {
        for product in Self.products {
            for size in product.sizes {
                XCTAssertNil(ValidationRules.dimensionsIssue(size, product: product), "\(product) \(size)")
            }
            let banner = try XCTUnwrap(ValidationRules.dimensionsIssue(Self.size(960, 150), product: product))
            XCTAssertEqual(banner.code, .dimensionsNotAllowed)
            XCTAssertTrue(banner.message.contains(product.rawValue), banner.message)
        }
    }

    func testJobLimitsAndTheProcessPlanReadTheDeclaration() throws {
        for product in Self.products {
            XCTAssertEqual(JobLimits.defaultMemoryBudget(for: product), product.jobDefaults.memoryBudget)
            XCTAssertEqual(JobLimits.serviceTimeout(for: product), product.jobDefaults.serviceTimeout)
            XCTAssertEqual(ProcessPlan.sheetPixels(product), product.jobDefaults.sheetPixels)
            let size = try XCTUnwrap(product.recommendedUploads.first)
            let source = try ImageSource(bytes: try Fixtures.png(try Fixtures.noise(size.width, size.height)))
            let budget = JobLimits.defaultMemoryBudget(for: product)
            let plan = ProcessPlan(source, product: product, settings: ProcessSettings(format: .fixed(.png)), memoryBudget: budget)
            XCTAssertLessThanOrEqual(plan.cost.memory, budget, "\(product): \(plan.cost)")
            XCTAssertGreaterThan(plan.cost.memory, ProcessPlan.sheetBytes(product) / 2, "\(product): \(plan.cost)")
        }
        XCTAssertEqual(JobLimits.defaultMemoryBudget(for: Self.tile), 96 << 20)
        XCTAssertEqual(JobLimits.defaultMemoryBudget(for: Self.splash), JobDefaults.fullScreenMemoryBudget)
    }

    /// `process` end to end for the strip and the rectangle: every slot the plan serves gets its
    /// render (flat artwork, so every render fits the weight budget).
    func testProcessRendersEverySlotOfTheProduct() throws {
        for product in [Self.skyline, Self.tile] {
            let size = try XCTUnwrap(product.recommendedUploads.last)
            let png = try Fixtures.png(try Fixtures.flatArt(size.width, size.height))
            let limits = ValidationLimits(job: JobLimits(memoryBudget: JobLimits.defaultMemoryBudget(for: product)),
                                          product: product)
            let result = try CreativeJob.process(png, fileName: "\(product).png", limits: limits,
                                                 settings: ProcessSettings(format: .fixed(.png)))
            XCTAssertTrue(result.report.valid, "\(product): \(result.report.errors.map(\.message))")
            let expected = DevicePlan.assignments(for: size, campaign: [], product: product)
            XCTAssertFalse(expected.isEmpty, "\(product)")
            XCTAssertEqual(result.slots.map(\.deviceSlot), expected.map(\.deviceSlot), "\(product)")
            XCTAssertTrue(result.overWeightBudget.isEmpty, "\(product)")
            XCTAssertFalse(result.renders.isEmpty, "\(product)")
            XCTAssertNotNil(result.preview, "\(product)")
            XCTAssertTrue(result.manifest.serialized().contains("\"product\":\"\(product.rawValue)\""), "\(product)")
        }
    }
}
