import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import XCTest

/// "Hostile input, part 3": every job charged before it starts (``JobCost``), shapes that are
/// never decoded, and deadlines that fire inside the decode. The charge against the measured
/// peak RSS is checked end to end by CostPropertyTests (CreativeCLITests).
final class CostModelTests: XCTestCase {
    private let banner = PixelSize(width: 320, height: 50)

    private func zeroPNG(_ size: PixelSize, depth: UInt8 = 8, colourType: UInt8 = 6) -> [UInt8] {
        Fixtures.zeroPNG(width: size.width, height: size.height, depth: depth, colourType: colourType)
    }

    private func render(_ bytes: [UInt8], canvas: PixelSize? = nil, format: FormatChoice = .fixed(.png),
                        limits: JobLimits = JobLimits()) throws -> EncodedRender {
        try Renderer.render(try ImageSource(bytes: bytes), settings: try RenderSettings(canvas: canvas ?? banner, format: format),
                            limits: limits)
    }

    // MARK: Shapes never decoded

    func testTheShapeLimitsKeepAWideMarginOverTheCatalogs() {
        for product in Product.allCases {
            for entry in product.entries {
                let long = max(entry.size.width, entry.size.height), short = min(entry.size.width, entry.size.height)
                XCTAssertLessThanOrEqual(long * 6, Catalog.maxDecodedSide, "\(product) \(entry.size)")
                XCTAssertLessThanOrEqual(long * 3, short * Catalog.maxAspectRatio, "\(product) \(entry.size)")
                XCTAssertNil(DecodeShapeIssue.check(entry.size))
            }
        }
    }

    func testShapeRules() {
        XCTAssertEqual(DecodeShapeIssue.check(PixelSize(width: 1, height: 2_000_000)), .sideTooLong)
        XCTAssertEqual(DecodeShapeIssue.check(PixelSize(width: 2_000_000, height: 25)), .sideTooLong)
        XCTAssertEqual(DecodeShapeIssue.check(PixelSize(width: 1, height: 33)), .extremeAspectRatio)
        XCTAssertEqual(DecodeShapeIssue.check(PixelSize(width: 16384, height: 511)), .extremeAspectRatio)
        XCTAssertNil(DecodeShapeIssue.check(PixelSize(width: 16384, height: 512)))
        XCTAssertNil(DecodeShapeIssue.check(PixelSize(width: 1, height: 32)))
        XCTAssertEqual(DecodeShapeIssue.check(PixelSize(width: 16385, height: 16385)), .sideTooLong)
        XCTAssertEqual(DecodeShapeIssue.sideTooLong.code.rawValue, "side_too_long")
        XCTAssertEqual(DecodeShapeIssue.extremeAspectRatio.code.rawValue, "extreme_aspect_ratio")
    }

    /// "Hostile input, part 4", item 10: a header with a side of 0 is damage (`corrupt_image`),
    /// checked before the shape caps (it was `extreme_aspect_ratio`).
    func testAZeroSideIsCorruptBeforeTheShapeCaps() throws {
        let png = try Fixtures.png(try Fixtures.solid(960, 150, [10, 20, 30]))
        for size in [PixelSize(width: 0, height: 150), PixelSize(width: 960, height: 0), PixelSize(width: 0, height: 0),
                     PixelSize(width: 0, height: 20_000)] {
            XCTAssertEqual(DecodeShapeIssue.check(size), .zeroSide, "\(size)")
            let bytes = Fixtures.claiming(size, png: png)
            let report = Validator.validate(bytes, fileName: "z.png")
            XCTAssertEqual(report.errors.map(\.code), [.corruptImage], "\(size): \(report.errors)")
            XCTAssertTrue(report.errors[0].message.contains("a side of 0 pixels"), report.errors[0].message)
            XCTAssertThrowsError(try ImageSource(bytes: bytes)) {
                XCTAssertEqual(($0 as? ImagingError)?.code, "corrupt_image", "\(size): \($0)")
            }
        }
        XCTAssertEqual(DecodeShapeIssue.zeroSide.code.rawValue, "corrupt_image")
    }

    func testA1x2000000StripIsRefusedFromItsHeader() throws {
        // The issue's 4 KB PNG: 3 s of CPU a million rows before.
        let strip = zeroPNG(PixelSize(width: 1, height: 2_000_000), colourType: 2)
        XCTAssertLessThan(strip.count, 8192)
        XCTAssertThrowsError(try ImageSource(bytes: strip)) {
            XCTAssertEqual(($0 as? ImagingError)?.code, "side_too_long")
        }
        let report = Validator.validate(strip, fileName: "strip.png")
        XCTAssertEqual(report.errors.map(\.code), [.sideTooLong, .dimensionsNotAllowed])
        XCTAssertFalse(report.decoded)
        let thin = zeroPNG(PixelSize(width: 10, height: 4000), colourType: 2)
        XCTAssertEqual(Validator.validate(thin, fileName: "thin.png").errors.first?.code, .extremeAspectRatio)
        XCTAssertThrowsError(try render(thin)) { XCTAssertEqual(($0 as? ImagingError)?.code, "extreme_aspect_ratio") }
    }

    func testAWide16BitStripIsRefusedBeforeItsWindowIsHeld() throws {
        // 2,000,000x25 held 2 GB; within the side cap, the widest 16-bit strips are charged their window.
        XCTAssertThrowsError(try render(zeroPNG(PixelSize(width: 2_000_000, height: 25), depth: 16))) {
            XCTAssertEqual(($0 as? ImagingError)?.code, "side_too_long")
        }
        let wide = zeroPNG(PixelSize(width: 16384, height: 600), depth: 16)
        let cost = JobCost.render(try ImageSource(bytes: wide), settings: try RenderSettings(canvas: banner))
        XCTAssertGreaterThan(cost.memory, JobLimits.defaultMemoryBudget)
        XCTAssertThrowsError(try render(wide)) {
            guard case .overMemoryBudget(let needed, let budget)? = $0 as? ImagingError else {
                return XCTFail("\($0)")
            }
            XCTAssertEqual(needed, cost.memory)
            XCTAssertEqual(budget, JobLimits.defaultMemoryBudget)
        }
    }

    // MARK: Decoded samples: the decoder's time

    func testA16BitImageAtThePixelCapIsTooMuchToDecode() throws {
        // 7000x7140 in 16-bit RGBA: 400 MB of samples, 3.5 s of CPU before.
        let big = Fixtures.claiming(PixelSize(width: 7000, height: 7140), png: zeroPNG(PixelSize(width: 8, height: 8), depth: 16))
        let source = try ImageSource(bytes: big)
        let cost = JobCost.render(source, settings: try RenderSettings(canvas: banner))
        XCTAssertEqual(cost.decodedSamples, 7000 * 7140 * 8)
        XCTAssertThrowsError(try render(big)) {
            XCTAssertEqual($0 as? ImagingError, .tooMuchToDecode(needed: 7000 * 7140 * 8, limit: JobLimits.defaultMaxDecodedBytes))
            XCTAssertEqual(($0 as? ImagingError)?.code, "too_many_pixels")
        }
        // A JPEG shrinks while loading: a 6000x6000 into 320x50 decodes an eighth of each side.
        let jpeg = Fixtures.claiming(PixelSize(width: 6000, height: 6000), jpeg: try Fixtures.jpeg(try Fixtures.noise(16, 16)))
        let jpegCost = JobCost.render(try ImageSource(bytes: jpeg), settings: try RenderSettings(canvas: banner))
        XCTAssertEqual(jpegCost.decodedSamples, 750 * 750 * 3)
    }

    // MARK: The output's cost

    func testEveryFormatIsChargedForItsEncoderAndTooLargeCanvasesAreRefusedAtOnce() throws {
        let art = try TestArtwork.source(for: PixelSize(width: 4096, height: 4096))
        let big = PixelSize(width: 4096, height: 4096)
        for (format, refused) in [(FormatChoice.fixed(.png), false), (.fixed(.jpeg), true), (.fixed(.webp), true), (.auto, false)] {
            let settings = try RenderSettings(canvas: big, format: format)
            let cost = JobCost.render(art, settings: settings)
            XCTAssertEqual(cost.memory > JobLimits.defaultMemoryBudget, refused, "\(format): \(cost)")
        }
        // The PNG of a canvas the budget cannot hold streams; the charge says so.
        let held = JobCost.output(canvas: PixelSize(width: 1000, height: 1000), format: .fixed(.png), memoryBudget: 64 << 20,
                                  alpha: .bars)
        let streamed = JobCost.output(canvas: big, format: .fixed(.png), memoryBudget: 64 << 20, alpha: .bars)
        XCTAssertGreaterThan(held, 1000 * 1000 * 8)
        XCTAssertLessThan(streamed, 16 << 20)
        XCTAssertThrowsError(try Renderer.render(art, settings: try RenderSettings(canvas: big, format: .fixed(.webp)))) {
            XCTAssertEqual(($0 as? ImagingError)?.code, "too_many_pixels")
        }
    }

    func testLossyWebPIsChargedForItsAlphaAndTheSharpConversionOnlyWhereTheBudgetHoldsIt() throws {
        let screen = PixelSize(width: 2048, height: 2732)
        let pixels = screen.area
        XCTAssertEqual(JobCost.plainWebPBytes(pixels: pixels, alpha: .none), (2 << 20) + pixels * 9)
        XCTAssertEqual(JobCost.plainWebPBytes(pixels: pixels, alpha: .bars), (2 << 20) + pixels * 18)
        XCTAssertEqual(JobCost.plainWebPBytes(pixels: pixels, alpha: .artwork), (2 << 20) + pixels * 45)
        let encoder = JobCost.encoderBudget(JobLimits.defaultMemoryBudget, decode: 0, canvas: screen)
        XCTAssertFalse(JobCost.webpSharpYUV(pixels: pixels, alpha: .none, memoryBudget: encoder))
        XCTAssertEqual(JobCost.lossyWebPBytes(pixels: pixels, alpha: .none, memoryBudget: encoder),
                       JobCost.plainWebPBytes(pixels: pixels, alpha: .none))
        XCTAssertEqual(JobCost.webpSharpYUV(pixels: pixels, alpha: .none, memoryBudget: 1 << 30), EncoderFeatures.webpSharpYUV)
        // A banner render keeps the sharp conversion at the default budget.
        XCTAssertEqual(JobCost.webpSharpYUV(pixels: 1170 * 183, alpha: .bars, memoryBudget: encoder), EncoderFeatures.webpSharpYUV)
        // The render's charge follows its background: transparent bars are an alpha band.
        let art = try TestArtwork.source(for: PixelSize(width: 768, height: 1024))
        XCTAssertFalse(art.header.hasAlpha)
        var opaque = try RenderSettings(canvas: screen, format: .fixed(.webp), background: .white)
        opaque.area = PixelRect(x: 32, y: 48, width: 1983, height: 2644)
        var transparent = opaque
        transparent.background = .transparent
        XCTAssertEqual(opaque.alphaBand(of: art), .none)
        XCTAssertEqual(transparent.alphaBand(of: art), .bars)
        let opaqueCost = JobCost.render(art, settings: opaque), transparentCost = JobCost.render(art, settings: transparent)
        XCTAssertEqual(transparentCost.output - opaqueCost.output, pixels * 9)
        XCTAssertLessThanOrEqual(opaqueCost.memory, JobLimits.defaultMemoryBudget, "\(opaqueCost)")
        // An upload with its own alpha channel: on transparent bars the band is the artwork's
        // (an alpha of noise held 31.6 bytes a pixel more than an opaque render), on a colour none.
        let translucent = try ImageSource(bytes: Fixtures.storedNoisePNG(768, 1024, channels: 4))
        XCTAssertEqual(transparent.alphaBand(of: translucent), .artwork)
        XCTAssertEqual(opaque.alphaBand(of: translucent), .none)
        XCTAssertEqual(JobCost.render(translucent, settings: transparent).output
                       - JobCost.render(translucent, settings: opaque).output, pixels * 36)
    }

    func testAnAlphaChannelTheValidatorSawOpaqueIsChargedAsTransparentBars() throws {
        // A 300x250 banner exported as RGBA: every alpha 255, or one pixel at 254.
        let opaque = try Fixtures.png(try Fixtures.solid(300, 250, [40, 90, 200], alpha: 255))
        let translucent = try Fixtures.png(try VipsOperation("insert")
            .with("main", .image(try Fixtures.solid(300, 250, [40, 90, 200], alpha: 255)))
            .with("sub", .image(try Fixtures.solid(1, 1, [40, 90, 200], alpha: 254)))
            .with("x", .int(150)).with("y", .int(125)).image())
        for (bytes, seenOpaque) in [(opaque, true), (translucent, false)] {
            let (report, opened) = Validator.inspect(bytes, fileName: "banner-300x250.png")
            let source = try XCTUnwrap(opened, "\(report.errorCodes)")
            XCTAssertTrue(source.header.hasAlpha)
            XCTAssertEqual(source.mayBeTranslucent, !seenOpaque)
            XCTAssertEqual(ProcessPlan.alphaBand(source), seenOpaque ? .bars : .artwork)
            // The header alone (nothing read yet) may hide anything.
            XCTAssertTrue(try ImageSource(bytes: bytes).mayBeTranslucent)
        }
    }

    func testAutoOnALargeCanvasDecidesOnASmallerRender() throws {
        // 8.6 s of CPU and 485 MB before, with no upload at all.
        let canvas = PixelSize(width: 4096, height: 4096)
        let art = try TestArtwork.source(for: canvas)
        let plan = AutoPlan(canvas: canvas, memoryBudget: JobLimits.defaultMemoryBudget, oneOfMany: false, alpha: .bars)
        XCTAssertEqual(plan.searchPixels, AutoEncoder.searchMaxPixels)
        XCTAssertFalse(plan.kinds.contains(.webpLossless))
        XCTAssertFalse(plan.kinds.contains(.webp), "a 4096x4096 WebP does not fit 80 MiB")
        XCTAssertTrue(plan.losslessOnly, "no lossy encoder of a 16.8 MP canvas fits 80 MiB beside the search")
        // Without a weight budget: a streamed PNG is read once and cannot be searched under one
        // (WeightBudgetTests).
        var unbudgeted = try RenderSettings(canvas: canvas, format: .auto)
        unbudgeted.weightBudget = nil
        let rendered = try Renderer.render(art, settings: unbudgeted)
        XCTAssertEqual(rendered.detail, "PNG, RGBA (streamed) (auto: only lossless PNG fits the memory budget)")
        let decoded = try VipsOperation("\(rendered.format.rawValue)load_buffer").with("buffer", .bytes(rendered.bytes)).image()
        XCTAssertEqual(decoded.size, canvas)
        // A canvas whose lossy encoders fit: searched on a smaller render of the same placement.
        let medium = PixelSize(width: 1500, height: 1000)
        let searched = try Renderer.render(try TestArtwork.source(for: medium), settings: try RenderSettings(canvas: medium, format: .auto))
        XCTAssertTrue(searched.detail.contains("(auto: decided on a 612x408 render"), searched.detail)
        let decodedMedium = try VipsOperation("\(searched.format.rawValue)load_buffer").with("buffer", .bytes(searched.bytes)).image()
        XCTAssertEqual(decodedMedium.size, medium)
        // The sample is the same placement, scaled evenly.
        var settings = try RenderSettings(canvas: PixelSize(width: 2048, height: 2732), format: .auto)
        settings.area = PixelRect(x: 0, y: 100, width: 2048, height: 2532)
        let sample = try XCTUnwrap(settings.searchSample())
        XCTAssertLessThanOrEqual(sample.canvas.area, AutoEncoder.searchMaxPixels)
        XCTAssertEqual(Double(sample.canvas.width) / Double(sample.canvas.height), 2048.0 / 2732.0, accuracy: 0.01)
        XCTAssertNil(try RenderSettings(canvas: PixelSize(width: 1170, height: 183), format: .auto).searchSample())
    }

    func testATightBudgetLeavesAutoOnlyLosslessPNG() throws {
        let art = try TestArtwork.source(for: PixelSize(width: 1170, height: 183))
        let plan = AutoPlan(canvas: PixelSize(width: 1170, height: 183), memoryBudget: 4 << 20, oneOfMany: false, alpha: .bars)
        XCTAssertTrue(plan.losslessOnly)
        let settings = try RenderSettings(canvas: PixelSize(width: 1170, height: 183), format: .auto)
        let cost = JobCost.render(art, settings: settings, memoryBudget: 40 << 20)
        let rendered = try Renderer.render(art, settings: settings, limits: JobLimits(memoryBudget: max(cost.decode, 1) + (12 << 20)))
        XCTAssertEqual(rendered.format, .png)
        XCTAssertTrue(rendered.detail.contains("(auto: only lossless PNG fits the memory budget)"), rendered.detail)
    }

    // MARK: Deadlines inside the decode

    func testTheDeadlineStopsAStreamedDecodeWithinAStripOfRows() throws {
        // 1024x16384 RGBA: 64 MB of samples into 320x50, where each output row pulls 330 source
        // rows: libvips' eval signal on the output fires only a few times in the whole decode.
        let tall = zeroPNG(PixelSize(width: 1024, height: 16384 / 2))
        _ = try render(tall)
        // The deadline's own error, whatever the machine's speed (no clock is compared).
        XCTAssertThrowsError(try render(tall, limits: JobLimits(timeout: 0.002))) {
            XCTAssertEqual(($0 as? ImagingError)?.code, "timeout")
        }
        let cancellation = Cancellation()
        cancellation.cancel(reason: "client_gone")
        XCTAssertThrowsError(try render(tall, limits: JobLimits(cancellation: cancellation))) {
            XCTAssertEqual($0 as? ImagingError, .cancelled("client_gone"))
        }
    }

    func testPartsOfOneJobShareItsDeadline() throws {
        let started = JobLimits(timeout: 5).asJob { $0 }
        let deadline = try XCTUnwrap(started.startDeadline())
        XCTAssertEqual(started.startDeadline()?.endNanoseconds, deadline.endNanoseconds)
        // A part of the job (its validation, a campaign's creative) keeps the deadline, and finds it bound.
        started.asJob { part in
            XCTAssertEqual(part.startDeadline()?.endNanoseconds, deadline.endNanoseconds)
            XCTAssertEqual(JobDeadline.current.get()?.endNanoseconds, deadline.endNanoseconds)
        }
        XCTAssertLessThanOrEqual(try XCTUnwrap(started.secondsLeft), 5)
        XCTAssertNil(JobLimits().asJob { $0 }.startDeadline())
    }
}
