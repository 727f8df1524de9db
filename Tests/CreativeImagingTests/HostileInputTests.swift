import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import XCTest

/// The reproductions of "Hostile input, part 1" (items 7 to 10), each in the issue's words.
/// Their CPU and memory are measured by scripts/measure-bombs.sh, not here.
final class HostileInputTests: XCTestCase {
    private let slot = PixelSize(width: 320, height: 50)

    private func render(_ bytes: [UInt8], limits: JobLimits = JobLimits()) throws -> [UInt8] {
        try Renderer.render(try ImageSource(bytes: bytes), settings: try RenderSettings(canvas: slot), limits: limits).bytes
    }

    private func assertRenderRefused(_ bytes: [UInt8], code: String, contains text: String,
                                     file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try render(bytes), file: file, line: line) { error in
            XCTAssertEqual((error as? ImagingError)?.code, code, "\(error)", file: file, line: line)
            XCTAssertTrue("\(error)".contains(text), "\(error)", file: file, line: line)
        }
    }

    /// validate: only the size is wrong, and nothing was decoded; process: the same report.
    private func assertRejectedUndecoded(_ bytes: [UInt8], _ name: String,
                                         file: StaticString = #filePath, line: UInt = #line) throws {
        let report = Validator.validate(bytes, fileName: name)
        XCTAssertEqual(report.errors.map(\.code), [.dimensionsNotAllowed], "\(report.errors)", file: file, line: line)
        XCTAssertEqual(report.dimensions, Fixtures.bombSize, file: file, line: line)
        XCTAssertFalse(report.decoded, file: file, line: line)
        XCTAssertTrue(report.json.serialized().contains(#""decoded":false"#), file: file, line: line)
        let job = try CreativeJob.process(bytes, fileName: name)
        XCTAssertTrue(job.files.isEmpty, file: file, line: line)
        XCTAssertFalse(job.report.decoded, file: file, line: line)
    }

    // MARK: 7. Pixel bombs from tiny files

    func testTinyLosslessWebPOf7000x7000IsNotDecoded() throws {
        let small = try Fixtures.webp(try Fixtures.solid(16, 16, [0, 0, 0], alpha: 0), [("lossless", .bool(true))])
        let webp = Fixtures.claiming(Fixtures.bombSize, losslessWebP: small)
        XCTAssertLessThan(webp.count, 1900)
        try assertRejectedUndecoded(webp, "w.webp")
        // libwebp decodes a lossless image whole at full size even when asked for 320x50.
        assertRenderRefused(webp, code: "too_many_pixels", contains: "186.9 MiB")
    }

    func testProgressiveCMYKJPEGOf7000x7000IsNotDecoded() throws {
        let cmyk = try VipsOperation("icc_export").with("in", .image(try Fixtures.noise(64, 64)))
            .with("output_profile", .string("cmyk")).image()
        let jpeg = Fixtures.claiming(Fixtures.bombSize, jpeg: try Fixtures.jpeg(cmyk, [("interlace", .bool(true))]))
        XCTAssertTrue(HeaderProbe.isProgressiveJPEG(jpeg))
        try assertRejectedUndecoded(jpeg, "p.jpg")
        // Progressive: every DCT coefficient of the image is held, 2 bytes for each of 4 bands.
        let cost = JobCost.render(try ImageSource(bytes: jpeg), settings: try RenderSettings(canvas: slot))
        XCTAssertGreaterThanOrEqual(cost.decode, 7000 * 7000 * 4 * 2)
        assertRenderRefused(jpeg, code: "too_many_pixels", contains: "(\(cost.memory) > \(JobLimits.defaultMemoryBudget) bytes)")
    }

    func testSixteenBitInterlacedPNG64Of7000x7000IsNotDecoded() throws {
        let rgba16 = try VipsOperation("bandjoin_const").with("in", .image(try Fixtures.sixteenBit(try Fixtures.noise(16, 16))))
            .with("c", .doubles([65535])).image()
        let png = Fixtures.claiming(Fixtures.bombSize, png: try Fixtures.png(rgba16, [("interlace", .bool(true))]))
        XCTAssertTrue(HeaderProbe.isInterlacedPNG(png))
        try assertRejectedUndecoded(png, "i.png")
        assertRenderRefused(png, code: "too_many_pixels", contains: "373.8 MiB")
    }

    /// The budget is about what cannot stream, at any size: an accepted size over a small budget.
    func testNonStreamingDecodeAtAnAcceptedSizeIsChargedAgainstTheBudget() throws {
        let size = PixelSize(width: 2184, height: 270)
        let png = try Fixtures.png(try Fixtures.solid(size.width, size.height, [10, 20, 30]), [("interlace", .bool(true))])
        XCTAssertEqual(try ImageSource(bytes: png).decodeMemory(content: slot), size.area * 3)
        // The job is charged its whole peak (JobCost), the interlaced image held whole among it.
        let cost = JobCost.render(try ImageSource(bytes: png), settings: try RenderSettings(canvas: slot))
        let needed = cost.memory
        XCTAssertGreaterThanOrEqual(cost.decode, size.area * 3)
        XCTAssertNoThrow(try render(png, limits: JobLimits(memoryBudget: needed)))
        // A budget that cannot even hold the decode refuses the job before any work.
        XCTAssertThrowsError(try render(png, limits: JobLimits(memoryBudget: cost.decode))) {
            guard case .overMemoryBudget(_, let budget)? = $0 as? ImagingError else { return XCTFail("\($0)") }
            XCTAssertEqual(budget, cost.decode)
        }
        // A non-interlaced PNG streams: its charge is the resampling window, not the whole image.
        let streaming = try Fixtures.png(try Fixtures.solid(size.width, size.height, [10, 20, 30]))
        XCTAssertEqual(try ImageSource(bytes: streaming).decodeMemory(content: slot), 0)
        let streamed = JobCost.render(try ImageSource(bytes: streaming), settings: try RenderSettings(canvas: slot)).memory
        XCTAssertLessThan(streamed, needed)
        XCTAssertNoThrow(try render(streaming, limits: JobLimits(memoryBudget: streamed)))
        // validate charges its whole-image check: libvips holds a JPEG whole, libpng reads row by row.
        let tiny = ValidationLimits(job: JobLimits(memoryBudget: 1))
        let jpeg = try Fixtures.jpeg(try Fixtures.solid(size.width, size.height, [10, 20, 30]))
        let refused = Validator.validate(jpeg, fileName: "b.jpg", limits: tiny)
        XCTAssertEqual(refused.errors.map(\.code), [.tooManyPixels])
        XCTAssertTrue(refused.errors[0].message.contains("(\(size.area * 3) > 1 bytes)"), refused.errors[0].message)
        XCTAssertFalse(refused.decoded)
        let checked = Validator.validate(png, fileName: "b.png", limits: tiny)
        XCTAssertTrue(checked.valid, "\(checked.errors)")
        XCTAssertTrue(checked.decoded)
    }

    // MARK: 8. Compressed-text bombs

    private func pngWithText(_ chunks: Int, inflating size: Int) throws -> [UInt8] {
        let png = try Fixtures.png(try Fixtures.solid(slot.width, slot.height, [200, 40, 40]))
        let bomb = Fixtures.zTXtBomb(inflating: size)
        return Fixtures.inserting(Array([[UInt8]](repeating: bomb, count: chunks).joined()), before: "IDAT", in: png)
    }

    private func assertTextNeverInflated(_ png: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws {
        let source = try ImageSource(bytes: png)
        XCTAssertFalse(PNGChunks.chunks(source.decoderBytes).contains { $0.name == "zTXt" }, file: file, line: line)
        let report = Validator.validate(png, fileName: "t.png")
        XCTAssertTrue(report.valid, "\(report.errors)", file: file, line: line)
        XCTAssertTrue(report.decoded, file: file, line: line)
        XCTAssertEqual(report.warnings.map(\.code).filter { $0 == .metadataDropped }.count, 1, file: file, line: line)
        let pixels = try PixelReader(encoded: try render(png))
        XCTAssertTrue(pixels.isClose(160, 25, to: [200, 40, 40, 255], tolerance: 2), "\(pixels[160, 25])", file: file, line: line)
        let job = try CreativeJob.process(png, fileName: "t.png")
        XCTAssertFalse(job.files.isEmpty, file: file, line: line)
    }

    func testPNGWith200zTXtChunksOf7MiBEachIsValidWithoutInflatingThem() throws {
        let png = try pngWithText(200, inflating: 7 << 20)
        XCTAssertLessThan(png.count, 1_500_000, "a 1.4 MB PNG")
        try assertTextNeverInflated(png)
    }

    func testPNGWith40zTXtChunksOf49MiBEachIsValidWithoutInflatingThem() throws {
        let png = try pngWithText(40, inflating: 49 << 20)
        XCTAssertLessThan(png.count, Catalog.defaultMaxBytes)
        try assertTextNeverInflated(png)
    }

    func testTheZlibStreamOfTheBombIsSound() throws {
        // The bomb is what it claims: libpng inflates a small one and finds the right Adler-32.
        let png = try pngWithText(1, inflating: 100_000)
        XCTAssertNil(PNGStructure.check(png, maxPixels: 1 << 20).damage)
    }

    func testOverLargeColourProfileIsDroppedWithAWarning() throws {
        let png = Fixtures.inserting(Fixtures.iCCPClaiming(64 << 20), before: "IDAT",
                                     in: try Fixtures.png(try Fixtures.solid(slot.width, slot.height, [0, 90, 200])))
        let source = try ImageSource(bytes: png)
        XCTAssertFalse(PNGChunks.chunks(source.decoderBytes).contains { $0.name == "iCCP" })
        XCTAssertFalse(source.header.hasICCProfile)
        let report = Validator.validate(png, fileName: "p.png")
        XCTAssertTrue(report.valid, "\(report.errors)")
        XCTAssertEqual(report.warnings.filter { $0.code == .metadataDropped }.count, 1)
        XCTAssertTrue(report.warnings.contains { $0.message.contains("\(64 << 20) bytes") }, "\(report.warnings)")
    }

    // MARK: 9. Progressive JPEG scan bombs

    func testProgressiveJPEGOf7000x7000With1891ScansIsCorrupt() throws {
        let progressive = try Fixtures.jpeg(try Fixtures.noise(64, 64), [("interlace", .bool(true))])
        let jpeg = Fixtures.withScans(1891, jpeg: Fixtures.claiming(Fixtures.bombSize, jpeg: progressive))
        XCTAssertEqual(HeaderProbe.jpegScans(jpeg), 1891)
        XCTAssertThrowsError(try ImageSource(bytes: jpeg)) {
            XCTAssertEqual(($0 as? ImagingError)?.code, "corrupt_image")
            XCTAssertTrue("\($0)".contains("1891 scans, over the limit of 500"), "\($0)")
        }
        let report = Validator.validate(jpeg, fileName: "s.jpg")
        XCTAssertEqual(Set(report.errors.map(\.code)), [.corruptImage, .dimensionsNotAllowed])
        XCTAssertFalse(report.decoded)
        // At an accepted size too.
        let accepted = Fixtures.withScans(501, jpeg: Fixtures.claiming(slot, jpeg: progressive))
        XCTAssertEqual(Validator.validate(accepted, fileName: "s.jpg").errors.map(\.code), [.corruptImage])
        XCTAssertNoThrow(try ImageSource(bytes: Fixtures.claiming(slot, jpeg: progressive)))
    }

    // MARK: 10. A deadline per job

    func testDeadlineStopsLibvipsThroughEvalAndKill() throws {
        // Seconds of blurring without a deadline.
        let black = try VipsOperation("black").with("width", .int(6000)).with("height", .int(6000)).image()
        let blurred = try VipsOperation("gaussblur").with("in", .image(black)).with("sigma", .double(30)).image()
        let deadline = Deadline(seconds: 0.05)
        XCTAssertThrowsError(try DeadlineWatch.run(blurred, deadline: deadline) { () throws(ImagingError) in
            try Encoder.encode(blurred, EncodeRequest(format: .fixed(.png)))
        }) {
            XCTAssertEqual($0 as? ImagingError, .timeout(seconds: 0.05))
        }
        XCTAssertTrue(deadline.hasPassed)
        // The image is usable again afterwards: the kill flag was cleared.
        let small = try VipsOperation("crop").with("input", .image(blurred)).with("left", .int(0)).with("top", .int(0))
            .with("width", .int(8)).with("height", .int(8)).image()
        XCTAssertNoThrow(try Encoder.encode(small, EncodeRequest(format: .fixed(.png))))
    }

    func testJobsPastTheirDeadlineFailWithTimeout() throws {
        let png = try Fixtures.png(try Fixtures.noise(960, 150))
        XCTAssertThrowsError(try render(png, limits: JobLimits(timeout: 1e-9))) {
            XCTAssertEqual(($0 as? ImagingError)?.code, "timeout")
        }
        let jpeg = try Fixtures.jpeg(try Fixtures.noise(960, 150))
        let report = Validator.validate(jpeg, fileName: "t.jpg", limits: ValidationLimits(job: JobLimits(timeout: 1e-9)))
        XCTAssertEqual(report.errors.map(\.code), [.timeout])
        XCTAssertFalse(report.decoded)
        XCTAssertNoThrow(try render(png, limits: JobLimits(timeout: 60)))
        // Any timeout a caller computes makes a deadline, never a crash.
        XCTAssertTrue(Deadline(seconds: .nan).hasPassed)
        XCTAssertTrue(Deadline(seconds: -5).hasPassed)
        XCTAssertFalse(Deadline(seconds: .infinity).hasPassed)
    }

    func testTheIDATChecksumWalkStopsAtTheDeadline() throws {
        // 2.4 MB of pixel data: the inflate looks at the clock every 2 MB.
        let png = try Fixtures.png(try Fixtures.solid(2184, 270, [1, 2, 3], alpha: 255))
        XCTAssertNil(try PNGStructure.idatStreamDamage(png))
        XCTAssertThrowsError(try PNGStructure.idatStreamDamage(png, deadline: Deadline(seconds: 0))) {
            XCTAssertEqual($0 as? ImagingError, .timeout(seconds: 0))
        }
        // A cancellation stops it too, long before the deadline.
        let cancellation = Cancellation()
        cancellation.cancel(reason: "shutdown")
        XCTAssertThrowsError(try PNGStructure.idatStreamDamage(png, deadline: Deadline(seconds: 60, cancellation: cancellation))) {
            XCTAssertEqual($0 as? ImagingError, .cancelled("shutdown"))
        }
    }

    // MARK: The process-wide budget (for the service)

    func testMemoryBudgetHoldsParallelJobsWithinItsCapacity() throws {
        let budget = MemoryBudget(capacity: 100)
        XCTAssertTrue(budget.reserve(60, waitingUntil: 0))
        XCTAssertFalse(budget.reserve(41, waitingUntil: 0), "over what is free: refused, nothing taken")
        XCTAssertFalse(budget.reserve(101, waitingUntil: .infinity), "over the whole budget: refused at once")
        XCTAssertTrue(budget.reserve(40, waitingUntil: 0))
        XCTAssertEqual(budget.inUse, 100)
        budget.release(60)
        XCTAssertEqual(budget.inUse, 40)
        XCTAssertEqual(budget.refused, 2)
    }

    func testACancelledJobStopsLikeOnePastItsDeadline() throws {
        let cancellation = Cancellation()
        let limits = JobLimits(timeout: 60, cancellation: cancellation)
        let deadline = try XCTUnwrap(limits.startDeadline())
        XCTAssertFalse(deadline.hasPassed)
        XCTAssertTrue(cancellation.cancel(reason: "client_gone"))
        XCTAssertFalse(cancellation.cancel(reason: "shutdown"), "the first reason stays")
        XCTAssertThrowsError(try deadline.check()) {
            XCTAssertEqual($0 as? ImagingError, .cancelled("client_gone"))
        }
        let png = try Fixtures.png(try Fixtures.noise(960, 150))
        XCTAssertThrowsError(try render(png, limits: JobLimits(cancellation: cancellation))) {
            XCTAssertEqual(($0 as? ImagingError)?.code, "cancelled")
        }
        XCTAssertNil(JobLimits().startDeadline(), "no timeout and no cancellation: no deadline")
    }
}
