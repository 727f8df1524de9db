import CreativeCore
import CreativeTestSupport
import XCTest
@testable import CreativeImaging

/// `fix` (``Fixer``): each near miss becomes a file that validates with no warning, with exact sizes,
/// and each unsafe change is refused with its code.
final class FixTests: XCTestCase {
    /// The test artwork's paper and ink (``TestArtwork``), at a point of each.
    private let paper: [UInt8] = [242, 245, 250], ink: [UInt8] = [11, 61, 145]

    private func fix(_ bytes: [UInt8], _ request: FixRequest = FixRequest(), name: String = "fixed",
                     limits: JobLimits = JobLimits()) throws -> FixedUpload {
        let source = try ImageSource(bytes: bytes)
        let formats = request.outputFormats(for: source.format)
        return try Fixer.fix(source, request: request, format: formats[0], fallbacks: Array(formats.dropFirst()),
                             outputName: formats.count == 1 ? "\(name).\(formats[0].extensions[0])" : nil, limits: limits)
    }

    private func refusal(_ bytes: [UInt8], _ request: FixRequest = FixRequest(),
                         limits: JobLimits = JobLimits()) throws -> ImagingError? {
        do {
            _ = try fix(bytes, request, limits: limits)
            return nil
        } catch let error as ImagingError {
            return error
        }
    }

    /// The result as the validator sees it: valid, no warning.
    private func assertClean(_ fixed: FixedUpload, file: StaticString = #filePath, line: UInt = #line) {
        let report = Validator.validate(fixed.bytes, fileName: "fixed.\(fixed.format.extensions[0])")
        XCTAssertTrue(report.valid, "\(report.errors)", file: file, line: line)
        XCTAssertEqual(report.warnings, [], file: file, line: line)
    }

    /// The fixed test artwork upright: paper near its top left corner, ink on its left border halfway
    /// down; and it validates cleanly.
    private func assertArtwork(_ fixed: FixedUpload, inkTolerance: Int, paperTolerance: Int = 12,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let pixels = try PixelReader(encoded: fixed.bytes)
        let middle = pixels.height / 2
        XCTAssertTrue(pixels.isClose(8, 8, to: paper, tolerance: paperTolerance), "\(pixels[8, 8])", file: file, line: line)
        XCTAssertTrue(pixels.isClose(0, middle, to: ink, tolerance: inkTolerance), "\(pixels[0, middle])", file: file, line: line)
        assertClean(fixed, file: file, line: line)
    }

    /// A still file of the animation's first frame, the artwork itself (the one render shows), and a clean report.
    private func assertFirstFrameKept(_ fixed: FixedUpload, _ format: ImageFormat, of frames: Int,
                                     file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(fixed.format, format, file: file, line: line)
        XCTAssertFalse(AnimationProbe.isAnimatedGIF(fixed.bytes) || AnimationProbe.isAnimatedWebP(fixed.bytes), file: file, line: line)
        XCTAssertEqual(fixed.changes.first, FixChange(.frameKept, "animated \(format.rawValue.uppercased()) of \(frames) "
                                                      + "frames: frame 1 (the first, as render shows it) kept as the still image"),
                       file: file, line: line)
        XCTAssertTrue(try PixelReader(encoded: fixed.bytes).isClose(6, 6, to: paper, tolerance: 12),
                      file: file, line: line)
        assertClean(fixed, file: file, line: line)
    }

    func testANearMissSizeIsResizedToTheAcceptedSizeExactly() throws {
        let input = try TestArtwork.generate(PixelSize(width: 961, height: 150))
        XCTAssertEqual(Validator.validate(input, fileName: "banner.png").errors.map(\.code), [.dimensionsNotAllowed])
        let fixed = try fix(input)
        XCTAssertEqual(fixed.size, PixelSize(width: 960, height: 150))
        XCTAssertEqual(fixed.format, .png)
        let pixels = try PixelReader(encoded: fixed.bytes)
        XCTAssertEqual([pixels.width, pixels.height], [960, 150])
        XCTAssertTrue(pixels.isClose(0, 75, to: ink), "\(pixels[0, 75])")
        XCTAssertTrue(pixels.isClose(959, 75, to: ink), "\(pixels[959, 75])")
        XCTAssertTrue(pixels.isClose(8, 8, to: paper), "\(pixels[8, 8])")
        XCTAssertEqual(fixed.changes.map(\.kind), [.resized, .reencoded])
        XCTAssertTrue(fixed.changes[0].message.hasPrefix("961x150 resized to 960x150, the accepted size (aspect ratio "
                                                         + "0.10% off): "), fixed.changes[0].message)
        assertClean(fixed)
    }

    func testASizeTooFarFromAnyAcceptedSizeIsRefusedNamingTheNearest() throws {
        let input = try TestArtwork.generate(PixelSize(width: 1000, height: 150))
        let error = try refusal(input)
        XCTAssertEqual(error?.code, "size_too_far")
        XCTAssertTrue(error?.message.contains("export it at 960x150 or") ?? false, error?.message ?? "")
        // An explicit size is held to the same 1%.
        XCTAssertEqual(try refusal(try TestArtwork.generate(PixelSize(width: 961, height: 150)),
                                   FixRequest(size: PixelSize(width: 728, height: 90)))?.code, "size_too_far")
    }

    func testAnExplicitSizeWithinOnePercentIsWritten() throws {
        // 1322x204 is nearest 1320x204; asked for explicitly, the same size is written.
        let fixed = try fix(try TestArtwork.generate(PixelSize(width: 1322, height: 204)),
                            FixRequest(size: PixelSize(width: 1320, height: 204)))
        XCTAssertEqual(fixed.size, PixelSize(width: 1320, height: 204))
        assertClean(fixed)
    }

    func testAPhotographOverTheWeightIsReencodedWithinIt() throws {
        let input = try Fixtures.heavyPhotographJPEG()
        XCTAssertGreaterThan(input.count, 1_300_000)
        let fixed = try fix(input)
        XCTAssertEqual(fixed.format, .jpeg)
        XCTAssertEqual(fixed.size, PixelSize(width: 2184, height: 270))
        XCTAssertLessThanOrEqual(fixed.bytes.count, Catalog.weightGuidelineBytes)
        XCTAssertGreaterThan(fixed.bytes.count, 100_000, "the highest quality that fits, not the lowest")
        // libvips' JPEG saver keeps an EXIF block: the fix leaves it out.
        XCTAssertEqual(fixed.changes.map(\.kind), [.metadataStripped, .weightReduced])
        XCTAssertTrue(fixed.encoding.hasPrefix("JPEG quality "), fixed.encoding)
        assertClean(fixed)
    }

    func testAPNGPhotographThatNoPNGFitsIsRefusedAndFitsAsJPEG() throws {
        let input = try Fixtures.png(try Fixtures.photograph(2184, 270))
        XCTAssertGreaterThan(input.count, 1_200_000)
        let error = try refusal(input, FixRequest(format: .png))
        XCTAssertEqual(error?.code, "weight_unreachable")
        XCTAssertTrue(error?.message.contains("write a photograph as JPEG or WebP") ?? false, error?.message ?? "")
        // Without a format asked for, the PNG that cannot fit is written as JPEG, and said so.
        let fallback = try fix(input)
        XCTAssertEqual(fallback.format, .jpeg)
        XCTAssertEqual(fallback.changes.first?.message, "PNG written as JPEG (PNG cannot be within the weight)")
        assertClean(fallback)
        let fixed = try fix(input, FixRequest(format: .jpeg))
        XCTAssertEqual(fixed.format, .jpeg)
        XCTAssertLessThanOrEqual(fixed.bytes.count, Catalog.weightGuidelineBytes)
        XCTAssertEqual(fixed.changes.map(\.kind), [.formatChanged, .weightReduced])
        assertClean(fixed)
    }

    func testACMYKJPEGIsConvertedToSRGB() throws {
        let input = try Fixtures.cmykJPEG(try Fixtures.artwork(960, 150))
        XCTAssertTrue(Validator.validate(input, fileName: "cmyk.jpg").warnings.map(\.code).contains(.notSRGB))
        let fixed = try fix(input)
        XCTAssertEqual(fixed.changes.first, FixChange(.convertedToSRGB, "CMYK converted to sRGB through its embedded profile"))
        let image = try Fixtures.decode(fixed.bytes)
        XCTAssertTrue(image.isSRGB)
        XCTAssertEqual(image.bands, 3)
        // Through the CMYK profile and back: near, not exact (the saturated ink loses most; the
        // paper comes back slightly warm, [243, 239, 236] through Debian's libvips 8.14 and its
        // CMYK profile, written at the source's own JPEG quality, 75). Read as RGB without
        // conversion, the paper would be the CMYK samples, near black.
        try assertArtwork(fixed, inkTolerance: 48, paperTolerance: 24)
    }

    func testAnAnimatedGIFKeepsItsFirstFrameOrTheOneAsked() throws {
        let input = try Fixtures.animatedArtworkGIF(728, 90)
        XCTAssertTrue(AnimationProbe.isAnimatedGIF(input))
        try assertFirstFrameKept(try fix(input), .gif, of: 3)
        let last = try fix(input, FixRequest(frame: 3))
        XCTAssertTrue(try PixelReader(encoded: last.bytes).isClose(8, 8, to: paper.map { 255 - $0 }, tolerance: 12))
        XCTAssertEqual(last.changes.first?.message, "animated GIF of 3 frames: frame 3 (the last) kept as the still image")
        assertClean(last)
    }

    func testAFrameOutsideTheAnimationOrOnAStillImageIsAUsageRefusal() throws {
        let gif = try Fixtures.animatedArtworkGIF(728, 90)
        XCTAssertEqual(try refusal(gif, FixRequest(frame: 4)), .unfixable(.frameOutOfRange(given: 4, frames: 3)))
        XCTAssertEqual(try refusal(try TestArtwork.generate(PixelSize(width: 728, height: 90)), FixRequest(frame: 1)),
                       .unfixable(.notAnimated(.png)))
        XCTAssertTrue(FixRefusal.frameOutOfRange(given: 4, frames: 3).isUsage)
    }

    func testTheFramesBeforeTheOneKeptAreChargedAsDecoded() throws {
        let gif = try Fixtures.animatedArtworkGIF(728, 90)
        // Room for two frames' samples (728x90, 4 bands): the last frame needs three, the first one.
        let limits = JobLimits(maxDecodedBytes: 728 * 90 * 4 * 2)
        XCTAssertEqual(try refusal(gif, FixRequest(frame: 3), limits: limits)?.code, "too_many_pixels")
        XCTAssertNoThrow(try fix(gif, limits: limits))
        XCTAssertEqual(try refusal(gif, FixRequest(frame: 3), limits: JobLimits(memoryBudget: 1 << 20))?.code, "too_many_pixels")
    }

    func testTransparencyIsNeverFlattenedIntoAJPEG() throws {
        let banner = try Fixtures.artwork(320, 50)
        let translucent = try VipsOperation("bandjoin_const").with("in", .image(banner)).with("c", .doubles([128])).image()
        XCTAssertEqual(try refusal(try Fixtures.png(translucent), FixRequest(format: .jpeg)), .unfixable(.transparencyLost))
        // Opaque alpha is no transparency: the band is dropped.
        let solidAlpha = try VipsOperation("bandjoin_const").with("in", .image(banner)).with("c", .doubles([255])).image()
        let opaque = try fix(try Fixtures.png(solidAlpha), FixRequest(format: .jpeg))
        XCTAssertEqual(try Fixtures.decode(opaque.bytes).bands, 3)
    }

    func testMetadataIsStrippedAndSaid() throws {
        let image = try Fixtures.artwork(320, 50)
        let tagged = try image.settingInt("orientation", 1)
        let input = try Fixtures.jpeg(tagged, [Fixtures.keepEXIF])
        XCTAssertNotNil(try ImageSource(bytes: input).header.blobField("exif-data"))
        let fixed = try fix(input)
        XCTAssertEqual(fixed.changes.map(\.kind), [.metadataStripped, .reencoded])
        XCTAssertEqual(fixed.changes[0].message, "metadata stripped: EXIF")
        XCTAssertNil(try ImageSource(bytes: fixed.bytes).header.blobField("exif-data"))
        assertClean(fixed)
    }

    func testTheArtworksOwnWarningIsWrittenAndKept() throws {
        // Baked-in bars are the artwork's: fix cannot remove them; the file is written and the warning kept.
        let bars = try VipsOperation("embed").with("in", .image(try Fixtures.solid(640, 150, [200, 30, 30])))
            .with("x", .int(160)).with("y", .int(0)).with("width", .int(960)).with("height", .int(150))
            .with("extend", .enumeration("white")).image()
        let fixed = try fix(try Fixtures.png(bars))
        XCTAssertEqual(fixed.remaining.map(\.code), [.bakedInBars])
        XCTAssertEqual(Validator.validate(fixed.bytes, fileName: "fixed.png").warnings.map(\.code), [.bakedInBars])
        XCTAssertTrue(fixed.report.valid)
    }

    func testFlatArtAFewPixelsShortIsPaddedFromItsOwnMarginAndFlatArtOverItLosesOnlyMargin() throws {
        for width in [958, 959, 962] {
            let fixed = try fix(try Fixtures.png(try Fixtures.flatArt(width, 150)))
            XCTAssertEqual(fixed.size, PixelSize(width: 960, height: 150), "\(width)")
            let said = fixed.changes.first { $0.kind == .resized }?.message ?? ""
            XCTAssertTrue(said.hasSuffix("(no pixel resampled)"), said)
            XCTAssertTrue(said.contains(width < 960 ? "repeated" : "taken out"), said)
            XCTAssertEqual(fixed.remaining, [], "\(width)")
            assertClean(fixed)
        }
    }

    func testAWarningTheFixWouldCauseIsToldFromTheArtworksOwn() throws {
        // The source is clean; pixels enlarged 2x from half the size read as upscaled: the fix's doing.
        let source = try ImageSource(bytes: try TestArtwork.generate(PixelSize(width: 960, height: 150)))
        let art = try Fixtures.artwork(960, 150)
        var attempt = FixAttempt(source: source, request: FixRequest(), maxBytes: Catalog.weightGuidelineBytes,
                                 limits: JobLimits(), deadline: nil, encoderBudget: JobLimits.defaultMemoryBudget,
                                 outputName: nil) { () throws(ImagingError) in art }
        let enlarged = try VipsOperation("resize").with("in", .image(try Fixtures.artwork(480, 75)))
            .with("scale", .double(2)).with("kernel", .enumeration("lanczos3")).image()
        guard case .causedWarnings(let caused) = try attempt.judge(enlarged, resize: nil, formats: [.png]) else {
            return XCTFail("an enlarged copy is the fix's warning, not the artwork's")
        }
        XCTAssertEqual(caused.map(\.code), [.upscaledArtwork])
        guard case .written(let written) = try attempt.judge(art, resize: nil, formats: [.png]) else {
            return XCTFail("the artwork's own pixels are written")
        }
        XCTAssertEqual(written.remaining, [])
    }

    func testAFewLinesAreTakenFromARunAtTheEdgeKeepingABorder() {
        // 12 lines: a 2-line border, a plain field, content in the middle; two lines to take out.
        let lines = [0, 0, 1, 1, 1, 1, 5, 6, 1, 1, 0, 0]
        let map = NearMissResize.lineMap(lines.count, to: 10) { lines[$0] == lines[$1] }
        XCTAssertEqual(map?.map, [0, 1, 2, 5, 6, 7, 8, 9, 10, 11])
        XCTAssertEqual(map?.said("column"), "2 columns taken out at the left edge")
        // Repeated for a line short, and refused when nothing repeats.
        XCTAssertEqual(NearMissResize.lineMap(lines.count, to: 13) { lines[$0] == lines[$1] }?.map.count, 13)
        XCTAssertNil(NearMissResize.lineMap(6, to: 5) { $0 == $1 })
        // A transparent edge (padding) goes first, whatever the lines next to it.
        XCTAssertEqual(NearMissResize.lineMap(lines.count, to: 11, same: { lines[$0] == lines[$1] }, blank: { $0 == 11 })?.map,
                       Array(0..<11))
        XCTAssertEqual(NearMissResize.methods(from: PixelSize(width: 961, height: 150), to: PixelSize(width: 960, height: 150)),
                       [.lines, .nearest, .resample])
        XCTAssertEqual(NearMissResize.methods(from: PixelSize(width: 1000, height: 156), to: PixelSize(width: 960, height: 150)),
                       [.resample])
        XCTAssertEqual(NearMissResize.nearestMap(5, 4), [0, 1, 3, 4])
    }

    func testTheWeightSearchTakesTheHighestQualityThatFits() throws {
        let photo = try Fixtures.photograph(960, 150)
        let whole = try WeightFit.best(photo, format: .webp, maxBytes: 1 << 30)
        XCTAssertEqual(whole.detail, "WebP quality \(WeightFit.highestQuality)")
        let limit = whole.bytes.count / 2
        let fitted = try WeightFit.best(photo, format: .webp, maxBytes: limit)
        XCTAssertLessThanOrEqual(fitted.bytes.count, limit)
        let quality = try XCTUnwrap(Int(fitted.detail.split(separator: " ").last ?? ""), fitted.detail)
        XCTAssertLessThan(quality, WeightFit.highestQuality)
        // The quality above it does not fit: every quality is a step of the search, not a ladder's.
        XCTAssertGreaterThan(try Encoder.lossy(photo, .webp, quality: quality + 1).count, limit)
        // Nothing fits 1000 bytes: the one refusal, with the smallest file and what was tried.
        XCTAssertThrowsError(try WeightFit.best(photo, format: .jpeg, maxBytes: 1000)) { error in
            guard case .unfixable(.weightUnreachable(let miss))? = error as? ImagingError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(miss.maxBytes, 1000)
            XCTAssertEqual(miss.format, .jpeg)
            XCTAssertGreaterThan(miss.smallest, 1000)
            XCTAssertEqual(miss.shortfall?.tried, "JPEG qualities 92 down to 1")
        }
    }

    func testAnAnimatedWebPKeepsItsFirstFrame() throws {
        let still = try Fixtures.artwork(320, 50)
        let input = try Fixtures.webp(try Fixtures.animation([still, try Fixtures.negative(still)]), [("lossless", .bool(true))])
        XCTAssertTrue(AnimationProbe.isAnimatedWebP(input))
        try assertFirstFrameKept(try fix(input), .webp, of: 2)
    }

    func testAnEXIFOrientationIsAppliedToThePixels() throws {
        // Stored turned a quarter anticlockwise, with orientation 6 (turn clockwise to show): shown 728x90.
        let turned = try VipsOperation("rot").with("in", .image(try Fixtures.artwork(728, 90)))
            .with("angle", .enumeration("d270")).image()
        let input = try Fixtures.jpeg(try turned.settingInt("orientation", 6), [("Q", .int(95))])
        XCTAssertEqual(try ImageSource(bytes: input).displayedSize, PixelSize(width: 728, height: 90))
        let fixed = try fix(input)
        XCTAssertEqual(fixed.changes.first, FixChange(.rotated, "EXIF orientation 6 applied: the pixels are stored "
                                                      + "upright as 728x90"))
        let source = try ImageSource(bytes: fixed.bytes)
        XCTAssertEqual(source.storedSize, PixelSize(width: 728, height: 90))
        XCTAssertEqual(source.orientation, 1)
        try assertArtwork(fixed, inkTolerance: 24)
    }

    func testGreyscaleAndSixteenBitAreWrittenAsEightBitSRGB() throws {
        let grey = try fix(try Fixtures.png(try Fixtures.grey(try Fixtures.artwork(320, 50))))
        XCTAssertEqual(grey.changes.first?.kind, .convertedToSRGB)
        assertClean(grey)
        let deep = try fix(try Fixtures.png(try Fixtures.sixteenBit(try Fixtures.artwork(320, 50))))
        XCTAssertEqual(deep.changes.first, FixChange(.depthReduced, "16 bits a sample written as 8"))
        XCTAssertFalse(try ImageSource(bytes: deep.bytes).header.isSixteenBit)
        assertClean(deep)
    }

    func testAProfileSetsTheSizesAndTheWeight() throws {
        let lean = try XCTUnwrap(PlatformProfiles.named("iab-lean"))
        // 960x150 is 320x50 at 3x: IAB LEAN's initial load for 320x50 is 50,000 bytes.
        let photo = try Fixtures.save("jpegsave_buffer", try Fixtures.photograph(960, 150), [("Q", .int(100))])
        let request = FixRequest(profiles: [lean])
        XCTAssertEqual(request.weightLimit(for: PixelSize(width: 960, height: 150)), 50_000)
        XCTAssertEqual(FixRequest().weightLimit(for: PixelSize(width: 960, height: 150)), 153_600)
        let fixed = try fix(photo, request)
        XCTAssertLessThanOrEqual(fixed.bytes.count, 50_000)
        XCTAssertEqual(fixed.report.profiles, [lean])
        XCTAssertTrue(fixed.changes.last?.message.contains("within the weight of 50000 bytes") ?? false,
                      "\(fixed.changes)")
        // Amazon DSP takes 728x90 but not 960x150: the near miss has no size near enough there.
        let amazon = try XCTUnwrap(PlatformProfiles.named("amazon-dsp"))
        let nearMiss = try TestArtwork.generate(PixelSize(width: 961, height: 150))
        XCTAssertEqual(try refusal(nearMiss, FixRequest(profiles: [amazon]))?.code, "size_too_far")
        XCTAssertEqual(try fix(try TestArtwork.generate(PixelSize(width: 729, height: 90)), FixRequest(profiles: [amazon])).size,
                       PixelSize(width: 728, height: 90))
    }
}
