import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import XCTest

/// What the validator refuses as `corrupt_image`, a render refuses too, by cheap checks before
/// libvips decodes (``ImageSource/structuralDamage(deadline:)``): the chunks before the image
/// data read strictly by libpng, and the IDAT stream inflated once into a small buffer.
final class RenderStructureTests: XCTestCase {
    private let size = PixelSize(width: 320, height: 50)

    /// The filtered rows of a 320x50 RGB gradient (filter byte 0 each).
    private var rows: [UInt8] {
        (0..<size.height).flatMap { y in [0] + (0..<size.width).flatMap { x in [UInt8(x % 256), UInt8(y * 5), 128] } }
    }

    /// An RGB PNG of `chunks` between IHDR and IEND.
    private func png(_ chunks: [UInt8]) -> [UInt8] {
        let header = Fixtures.be32(size.width) + Fixtures.be32(size.height) + [8, 2, 0, 0, 0]
        return Fixtures.pngSignature + Fixtures.pngChunk("IHDR", header) + chunks + Fixtures.pngChunk("IEND", [])
    }

    private func idat(_ data: [UInt8]) -> [UInt8] { Fixtures.pngChunk("IDAT", data) }

    /// The render's verdict: nil when it rendered, else its error code and text.
    private func render(_ bytes: [UInt8]) -> (code: String, text: String)? {
        do {
            _ = try Renderer.render(try ImageSource(bytes: bytes), settings: try RenderSettings(canvas: size))
            return nil
        } catch {
            return ((error as? ImagingError)?.code ?? "\(error)", "\(error)")
        }
    }

    func testGarbageColourProfilesAreRefusedByRenderAsByValidate() {
        let stream = PaletteIndexTests.storedZlib(rows)
        let profiles: [(String, [UInt8])] = [
            ("not zlib", Array("garbage garbage garbage".utf8)),
            ("no ICC profile", PaletteIndexTests.storedZlib(Fixtures.be32(256) + [UInt8](repeating: 0x78, count: 252))),
            ("a profile cut short", PaletteIndexTests.storedZlib(Fixtures.be32(4000) + [UInt8](repeating: 0, count: 200))),
        ]
        XCTAssertNil(render(png(idat(stream))))
        for (what, profile) in profiles {
            let bytes = png(Fixtures.pngChunk("iCCP", Array("icc".utf8) + [0, 0] + profile) + idat(stream))
            let report = Validator.validate(bytes, fileName: "p.png")
            XCTAssertEqual(report.errorCodes, [.corruptImage], "\(what): \(report.summary)")
            let refused = render(bytes)
            XCTAssertEqual(refused?.code, "corrupt_image", "\(what): \(String(describing: refused))")
            XCTAssertTrue(refused?.text.contains("iCCP") ?? false, "\(what): \(String(describing: refused))")
        }
    }

    func testImageDataPastTheStreamOrTheImageIsRefusedByRenderAsByValidate() {
        let stream = PaletteIndexTests.storedZlib(rows)
        let cases: [(String, [UInt8], String)] = [
            ("bytes after the stream's end in its chunk", idat(stream + Array("EXTRA".utf8)), "extra compressed data"),
            ("more image data than the image holds", idat(PaletteIndexTests.storedZlib(rows + [0, 0, 0])), "more bytes"),
            ("less image data than the image holds", idat(PaletteIndexTests.storedZlib(Array(rows.dropLast(3)))),
             "fewer bytes"),
        ]
        for (what, chunks, detail) in cases {
            let bytes = png(chunks)
            let report = Validator.validate(bytes, fileName: "d.png")
            XCTAssertEqual(report.errorCodes, [.corruptImage], "\(what): \(report.summary)")
            let refused = render(bytes)
            XCTAssertEqual(refused?.code, "corrupt_image", what)
            XCTAssertTrue(refused?.text.contains(detail) ?? false, "\(what): \(String(describing: refused))")
        }
    }

    /// The checks refuse nothing libpng's strict read accepts: a stream split over several IDAT
    /// chunks (an empty one too), and bytes in an IDAT chunk after the one where the stream
    /// ended, which libpng reads past.
    func testWhatTheValidatorAcceptsStillRenders() {
        let stream = PaletteIndexTests.storedZlib(rows)
        let half = stream.count / 2
        let cases: [(String, [UInt8])] = [
            ("split", idat(Array(stream[..<half])) + idat([]) + idat(Array(stream[half...]))),
            ("an IDAT after the stream's end", idat(stream) + idat(Array("later".utf8))),
        ]
        for (what, chunks) in cases {
            let bytes = png(chunks)
            XCTAssertEqual(Validator.validate(bytes, fileName: "s.png").errorCodes, [], what)
            XCTAssertNil(render(bytes), what)
        }
    }
}
