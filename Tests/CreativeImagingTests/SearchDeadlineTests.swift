import CreativeCore
import CreativeTestSupport
import XCTest
@testable import CreativeImaging

/// The job's one deadline reaches inside the searches and the preview sheet ("Hostile input,
/// part 5", item 1): `auto`'s quality walk, a weight budget's bisection, `fix`'s weight search
/// and the sheet's bands stop between encodes with `timeout`. Each input is noise (heavy for every
/// encoder), whose job without a deadline runs to an outcome of its own (a file, or
/// `weight_unreachable`): ending in `timeout` shows the deadline stopped it inside the work. How
/// long past the deadline the work runs is cost, measured by the bench, not by a clock here.
final class SearchDeadlineTests: XCTestCase {
    /// Asserts that `work` fails with `timeout`.
    private func assertStopsAtTheDeadline(file: StaticString = #filePath, line: UInt = #line,
                                          _ work: () throws -> Void) {
        XCTAssertThrowsError(try work(), file: file, line: line) {
            XCTAssertEqual(($0 as? ImagingError)?.code, "timeout", "\($0)", file: file, line: line)
        }
    }

    /// A 960x150 PNG of noise (about 430 KB): `auto` searches every render of it to the end.
    private func noiseBanner() throws -> [UInt8] {
        try Fixtures.png(try Fixtures.noiseImage(960, 150, uniform: true))
    }

    func testAutoProcessOfNoiseStopsAtItsDeadline() throws {
        let png = try noiseBanner()
        let timeout = 1.0
        assertStopsAtTheDeadline {
            _ = try CreativeJob.process(png, fileName: "noise.png",
                                        limits: ValidationLimits(job: JobLimits(timeout: timeout)))
        }
    }

    func testBudgetedAVIFRenderStopsAtItsDeadline() throws {
        try XCTSkipUnless(OutputFormat.avif.isWritable, "this libvips writes no AVIF")
        // 2184x270 of noise: AVIF at quality 85 is over the 150 KB default budget, so the render
        // bisects the qualities, an AV1 encode of the whole canvas at each.
        let source = try ImageSource(bytes: try Fixtures.png(try Fixtures.noiseImage(2184, 270)))
        let settings = try RenderSettings(canvas: PixelSize(width: 2184, height: 270), format: .fixed(.avif))
        let timeout = 1.0
        assertStopsAtTheDeadline {
            _ = try Renderer.render(source, settings: settings, limits: JobLimits(timeout: timeout))
        }
    }

    func testFixOfNoiseStopsAtItsDeadline() throws {
        // Two pixels too wide for the 2184x270 billboard: resized, then searched for 150 KB in
        // PNG and the fallbacks `fix` offers. One libimagequant palette of this noise takes about
        // 3 s of CPU and cannot be stopped once started: tried first on an eighth of its rows
        // (PaletteDeadline), it is not started where it would end past the deadline.
        let source = try ImageSource(bytes: try Fixtures.png(try Fixtures.noiseImage(2186, 270)))
        let request = FixRequest()
        let formats = request.outputFormats(for: source.format)
        func fix(timeout: Double?) throws {
            _ = try Fixer.fix(source, request: request, format: formats[0], fallbacks: Array(formats.dropFirst()),
                              outputName: nil, limits: JobLimits(timeout: timeout))
        }
        assertStopsAtTheDeadline { try fix(timeout: 1) }
        XCTAssertThrowsError(try fix(timeout: nil), "without a deadline the search runs to its end") {
            XCTAssertEqual(($0 as? ImagingError)?.code, "weight_unreachable", "\($0)")
        }
    }

    /// A palette save that could not finish before the deadline fails with it, after its trial
    /// on a stripe; one with time enough, or with no deadline, is written. A started palette runs
    /// to its end and returns its file (nothing checks the deadline after it): the `timeout` shows
    /// it was not started.
    func testAPaletteThatCannotFinishInTimeIsNotStarted() throws {
        let noise = try Fixtures.noiseImage(2186, 270).materialized()
        let save = VipsOperation("pngsave_buffer").with("in", .image(noise)).with("palette", .bool(true))
            .with("Q", .int(90)).with("dither", .double(1))
        assertStopsAtTheDeadline {
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
