import CreativeCore
import CreativeTestSupport
import XCTest
@testable import CreativeImaging
#if canImport(Glibc)
import Glibc
#endif

/// The job's one deadline reaches inside the searches and the preview sheet ("Hostile input,
/// part 5", item 1): `auto`'s quality walk, a weight budget's bisection, `fix`'s weight search
/// and the sheet's bands stop between encodes with `timeout`, where they ran 3 to 20 times past
/// it. Each input is noise (heavy for every encoder); the work is measured in this process' CPU
/// seconds (its worker threads and libvips' included), with a bound of 3 times the deadline so a
/// loaded machine does not make the test flaky (the runs the issue measured took 3 to 20 times).
final class SearchDeadlineTests: XCTestCase {
    /// CPU seconds this process spends in `work` (user and system, every thread).
    private func cpuSeconds(_ work: () throws -> Void) rethrows -> Double {
        func now() -> Double {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }
        let start = now()
        try work()
        return now() - start
    }

    /// Asserts that `work` fails with `timeout` within `bound` CPU seconds.
    private func assertStopsAtTheDeadline(_ bound: Double, file: StaticString = #filePath, line: UInt = #line,
                                          _ work: () throws -> Void) {
        var failure: Error?
        let spent = cpuSeconds {
            do {
                try work()
            } catch {
                failure = error
            }
        }
        XCTAssertEqual((failure as? ImagingError)?.code, "timeout", "\(String(describing: failure))", file: file, line: line)
        XCTAssertLessThan(spent, bound, "CPU seconds past the deadline", file: file, line: line)
    }

    /// A 960x150 PNG of noise (about 430 KB): `auto` searches every render of it to the end.
    private func noiseBanner() throws -> [UInt8] {
        try Fixtures.png(try Fixtures.noiseImage(960, 150, uniform: true))
    }

    func testAutoProcessOfNoiseStopsAtItsDeadline() throws {
        let png = try noiseBanner()
        let timeout = 1.0
        assertStopsAtTheDeadline(3 * timeout) {
            _ = try CreativeJob.process(png, fileName: "noise.png",
                                        limits: ValidationLimits(job: JobLimits(timeout: timeout)))
        }
    }

    func testBudgetedAVIFRenderStopsAtItsDeadline() throws {
        try XCTSkipUnless(Encoder.writes(.avif), "this libvips writes no AVIF")
        // 2184x270 of noise: AVIF at quality 85 is over the 150 KB default budget, so the render
        // bisects the qualities, an AV1 encode of the whole canvas at each.
        let source = try ImageSource(bytes: try Fixtures.png(try Fixtures.noiseImage(2184, 270)))
        let settings = try RenderSettings(canvas: PixelSize(width: 2184, height: 270), format: .fixed(.avif))
        let timeout = 1.0
        assertStopsAtTheDeadline(3 * timeout) {
            _ = try Renderer.render(source, settings: settings, limits: JobLimits(timeout: timeout))
        }
    }

    func testFixOfNoiseStopsAtItsDeadline() throws {
        // Two pixels too wide for the 2184x270 billboard: resized, then searched for 150 KB in
        // PNG and the fallbacks `fix` offers. One libimagequant palette of this noise takes about
        // 3 s of CPU and cannot be stopped once started: tried first on an eighth of its rows
        // (PaletteDeadline), it is not started where it would end past the deadline, so the job
        // stops within 1.2 times it (it ran 1.5 times past it when the palette was started).
        let source = try ImageSource(bytes: try Fixtures.png(try Fixtures.noiseImage(2186, 270)))
        let request = FixRequest()
        let formats = request.outputFormats(for: source.format)
        let timeout = 2.0
        assertStopsAtTheDeadline(1.2 * timeout) {
            _ = try Fixer.fix(source, request: request, format: formats[0], fallbacks: Array(formats.dropFirst()),
                              outputName: nil, limits: JobLimits(timeout: timeout))
        }
    }

    /// A palette save that could not finish before the deadline fails at once with it, after
    /// its trial on a stripe; one with time enough, or with no deadline, is written.
    func testAPaletteThatCannotFinishInTimeIsNotStarted() throws {
        let noise = try Fixtures.noiseImage(2186, 270).materialized()
        let save = VipsOperation("pngsave_buffer").with("in", .image(noise)).with("palette", .bool(true))
            .with("Q", .int(90)).with("dither", .double(1))
        assertStopsAtTheDeadline(1.2) {
            _ = try JobDeadline.binding(Deadline(seconds: 1)) { () throws(ImagingError) in try save.bytes() }
        }
        let flat = try VipsOperation("black").with("width", .int(2186)).with("height", .int(270)).with("bands", .int(3))
            .image()
        let written = try JobDeadline.binding(Deadline(seconds: 1)) { () throws(ImagingError) in
            try save.replacing("in", .image(flat)).bytes()
        }
        XCTAssertEqual(Array(written.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        XCTAssertEqual(PaletteDeadline.stripeShare, 8)
    }

    func testThePreviewSheetStopsAtTheJobsDeadline() throws {
        let decoded = try Fixtures.noiseImage(960, 150).materialized()
        let size = PixelSize(width: 960, height: 150)
        XCTAssertNoThrow(try PreviewSheet.draw(decoded, creative: size, product: .banner), "without a deadline the sheet is drawn")
        XCTAssertThrowsError(try JobDeadline.binding(Deadline(seconds: 0)) { () throws(ImagingError) in
            try PreviewSheet.draw(decoded, creative: size, product: .banner)
        }) {
            XCTAssertEqual(($0 as? ImagingError)?.code, "timeout")
        }
    }
}
