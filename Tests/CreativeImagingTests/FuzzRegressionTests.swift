import CreativeCore
import CreativeTestSupport
import Foundation
@testable import CreativeImaging
import XCTest

/// Inputs found by `make fuzz` (libFuzzer over `Validator.validate`), kept as regressions, and a
/// small deterministic mutation run over the accepted formats that must never crash.
final class FuzzRegressionTests: XCTestCase {
    private let limits = ValidationLimits(maxBytes: 2 * 1024 * 1024, maxPixels: 4_000_000)

    private func codes(_ report: ValidationReport) -> Set<ValidationCode> {
        Set(report.errors.map(\.code))
    }

    /// The report's JSON parses and agrees with the report.
    private func assertSoundJSON(_ report: ValidationReport, _ what: String,
                                 file: StaticString = #filePath, line: UInt = #line) {
        let text = report.json.serialized()
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            return XCTFail("\(what): the report is not a JSON object: \(text)", file: file, line: line)
        }
        XCTAssertEqual(object["valid"] as? Bool, report.valid, "\(what): \(text)", file: file, line: line)
        XCTAssertEqual(report.valid, report.errors.isEmpty, what, file: file, line: line)
    }

    // MARK: Findings

    /// oom-93af6487...: a 1x1 PNG whose eXIf chunk claims 0x504E470D bytes (1.3 GB) with 4 left.
    /// libpng 1.6.39 under libvips' pngload (over-long chunks are only warnings there) allocated
    /// the declared length before reading, so a 45-byte upload asked for up to 2 GiB.
    /// ImageSource now refuses a chunk that overruns the file before libvips sees it.
    static let eXIfOverrun: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x00, 0x00, 0x00, 0x3A, 0x7E, 0x9B,
        0x55, 0x50, 0x4E, 0x47, 0x0D, 0x65, 0x58, 0x49, 0x66, 0x4D, 0x4D, 0x00, 0x2A,
    ]

    /// The fuzzer's own artifact (237 bytes): PngSuite pieces spliced, a gAMA with a bad CRC, then
    /// the same over-long eXIf.
    static let fuzzerArtifact: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x01, 0x03, 0x00, 0x00, 0x01, 0x52, 0xDC, 0x66,
        0x5C, 0x00, 0x00, 0x00, 0x04, 0x67, 0x41, 0x4D, 0x41, 0x00, 0x01, 0x86, 0xA0, 0x31, 0xE8, 0x96,
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x65, 0x58, 0x49, 0x66, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D,
        0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x03, 0x01, 0x03, 0x00, 0x00,
        0x00, 0x6C, 0xE6, 0x27, 0xFC, 0x00, 0x00, 0x00, 0x04, 0x67, 0x41, 0x4D, 0x41, 0x00, 0x01, 0x86,
        0xA0, 0x31, 0xE8, 0x96, 0x5F, 0x00, 0x00, 0x00, 0x03, 0x73, 0x42, 0x49, 0x54, 0x04, 0x04, 0x04,
        0x77, 0xF8, 0xB5, 0xA3, 0x00, 0x00, 0x00, 0x06, 0x50, 0x4C, 0x54, 0x45, 0x00, 0xFF, 0x00, 0xFF,
        0x77, 0x00, 0xB1, 0xE5, 0xA5, 0x9F, 0x00, 0x00, 0x00, 0x0E, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C,
        0x63, 0x60, 0x60, 0x70, 0x60, 0x60, 0x00, 0x00, 0x00, 0xC6, 0x00, 0x41, 0x39, 0x31, 0x0C, 0x4B,
        0x00, 0x00, 0x5F, 0x00, 0x00, 0x00, 0x03, 0x73, 0x42, 0x49, 0x54, 0x04, 0x04, 0x04, 0x77, 0xF8,
        0xB5, 0xA3, 0x00, 0x00, 0x00, 0x03, 0x50, 0x4C, 0x54, 0x45, 0x00, 0x00, 0xFF, 0x8A, 0x78, 0xD2,
        0x57, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x44, 0x41, 0x54,
        0x78, 0x9C, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01, 0x48, 0xAF, 0xA4, 0x71, 0x00, 0x00,
        0x00, 0x00, 0x49, 0x45, 0x74, 0x42, 0x52, 0x4E, 0x53, 0x60, 0x82, 0x60, 0x82,
    ]

    func testPNGChunkRunningPastTheEndIsRefusedBeforeLibvips() {
        XCTAssertEqual(Self.fuzzerArtifact.count, 237)
        for (name, bytes) in [("eXIf overrun", Self.eXIfOverrun), ("fuzzer artifact", Self.fuzzerArtifact)] {
            XCTAssertNotNil(PNGChunks.overrun(bytes), name)
            do {
                _ = try ImageSource(bytes: bytes, maxPixels: limits.maxPixels)
                XCTFail("\(name): opened")
            } catch {
                guard case .corruptImage(let detail) = error else { return XCTFail("\(name): \(error)") }
                XCTAssertTrue(detail.contains("eXIf chunk claims 1347307277 bytes, past the end of the file"), detail)
            }
            let report = Validator.validate(bytes, fileName: "fuzz.png", limits: limits)
            XCTAssertFalse(report.valid, name)
            XCTAssertTrue(codes(report).contains(.corruptImage), "\(name): \(report.errors)")
            XCTAssertTrue(codes(report).isSubset(of: [.corruptImage, .dimensionsNotAllowed]), "\(name): \(report.errors)")
            assertSoundJSON(report, name)
        }
    }

    /// A 45-byte PNG whose IHDR claims 4294967295x4294967295. The validator refused it, but the
    /// render path (ImageSource, then the caller printing the error) trapped: the message
    /// multiplied width by height, which overflows Int for two 32-bit sides.
    static let hugeIHDR: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x08, 0x00, 0x00, 0x00, 0x00, 0xF7, 0x9D, 0x71,
        0xE2, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]

    func testHeaderWhosePixelCountOverflowsIsReportedWithoutTrapping() {
        let report = Validator.validate(Self.hugeIHDR, fileName: "huge.png", limits: limits)
        XCTAssertEqual(codes(report), [.tooManyPixels, .dimensionsNotAllowed], "\(report.errors)")
        XCTAssertEqual(report.dimensions, PixelSize(width: 4_294_967_295, height: 4_294_967_295))
        assertSoundJSON(report, "huge IHDR")
        do {
            _ = try ImageSource(bytes: Self.hugeIHDR, maxPixels: limits.maxPixels)
            XCTFail("opened")
        } catch {
            XCTAssertEqual(error, .tooManyPixels(width: 4_294_967_295, height: 4_294_967_295, cap: limits.maxPixels))
            XCTAssertTrue(error.description.hasPrefix("too_many_pixels: "), error.description)
            XCTAssertTrue(error.message.contains("4294967295x4294967295 (more than \(Int.max) pixels)"), error.message)
        }
    }

    func testChunkWalkAcceptsSoundFilesAndIgnoresBytesAfterIEND() throws {
        let png = try XCTUnwrap(TestArtwork.embedded(PixelSize(width: 960, height: 150)))
        XCTAssertNil(PNGChunks.overrun(png))
        XCTAssertNil(PNGChunks.overrun(png + [0xFF, 0xFF, 0xFF, 0xFF, 0x41, 0x41, 0x41, 0x41]),
                     "after IEND nothing is walked")
        XCTAssertNotNil(PNGChunks.overrun(Array(png.dropLast(1))), "IEND without its whole CRC")
        let report = Validator.validate(png, fileName: "ok.png", limits: limits)
        XCTAssertTrue(report.valid, "\(report.errors)")
    }

    // MARK: Mutations

    /// A fixed-seed xorshift generator, so every run mutates the same way.
    private struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        mutating func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(next() % UInt64(bound)) }
        mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
    }

    /// One of a handful of libFuzzer-like mutations.
    private func mutate(_ seed: [UInt8], _ random: inout Generator) -> [UInt8] {
        var bytes = seed
        guard !bytes.isEmpty else { return [random.byte()] }
        switch random.below(6) {
        case 0:  // a few bytes changed
            for _ in 0...random.below(4) { bytes[random.below(bytes.count)] = random.byte() }
        case 1:  // cut short
            bytes = Array(bytes.prefix(random.below(bytes.count)))
        case 2:  // bytes inserted
            let at = random.below(bytes.count + 1)
            bytes.insert(contentsOf: (0..<(1 + random.below(16))).map { _ in random.byte() }, at: at)
        case 3:  // a 32-bit field made huge (lengths, sizes)
            let at = random.below(max(1, bytes.count - 4))
            for (index, value) in [UInt8(0x7F), 0xFF, 0xFF, random.byte()].enumerated() where at + index < bytes.count {
                bytes[at + index] = value
            }
        case 4:  // a slice repeated
            let start = random.below(bytes.count)
            let end = min(bytes.count, start + 1 + random.below(64))
            bytes.insert(contentsOf: bytes[start..<end], at: random.below(bytes.count + 1))
        default:  // a slice removed
            let start = random.below(bytes.count)
            bytes.removeSubrange(start..<min(bytes.count, start + 1 + random.below(64)))
        }
        return bytes
    }

    /// A 320x50 version of the test artwork in every accepted format (plus an APNG).
    private func seeds() throws -> [(String, [UInt8])] {
        let png = try XCTUnwrap(TestArtwork.embedded(PixelSize(width: 960, height: 150)))
        let small = try VipsOperation("thumbnail_image").with("in", .image(try ImageSource(bytes: png).header))
            .with("width", .int(320)).with("height", .int(50)).with("size", .enumeration("force")).image()
        func save(_ saver: String, _ options: [(String, VipsArgument)] = []) throws -> [UInt8] {
            try Fixtures.save(saver, small, options)
        }
        let smallPNG = try save("pngsave_buffer")
        // acTL (2 frames, 0 plays) right after IHDR, which ends at byte 33.
        let acTL: [UInt8] = [0, 0, 0, 8, 0x61, 0x63, 0x54, 0x4C, 0, 0, 0, 2, 0, 0, 0, 0, 0xF3, 0x8D, 0x93, 0x70]
        return [
            ("png", smallPNG),
            ("apng", Array(smallPNG.prefix(33)) + acTL + Array(smallPNG.dropFirst(33))),
            ("jpeg", try save("jpegsave_buffer", [("Q", .int(60))])),
            ("gif", try save("gifsave_buffer")),
            ("webp", try save("webpsave_buffer", [("Q", .int(60))])),
            ("webp-lossless", try save("webpsave_buffer", [("lossless", .bool(true))])),
        ]
    }

    func testSeedsValidateAsExpected() throws {
        for (name, bytes) in try seeds() {
            let report = Validator.validate(bytes, fileName: "seed", limits: limits)
            assertSoundJSON(report, name)
            XCTAssertEqual(codes(report), name == "apng" ? [.animated] : [], "\(name): \(report.errors)")
        }
    }

    func testMutatedSeedsNeverCrashAndAlwaysGiveJSON() throws {
        var random = Generator(state: 0x9E37_79B9_7F4A_7C15)
        let settings = try RenderSettings(canvas: PixelSize(width: 64, height: 32))
        var outcomes: [ValidationCode: Int] = [:]
        var stillValid = 0
        for (name, seed) in try seeds() {
            for round in 0..<40 {
                var bytes = mutate(seed, &random)
                if round % 4 == 3 { bytes = mutate(bytes, &random) }
                let report = Validator.validate(bytes, fileName: "fuzz", limits: limits)
                assertSoundJSON(report, "\(name) mutation \(round)")
                for issue in report.errors { outcomes[issue.code, default: 0] += 1 }
                // What the validator lets through (or refuses only for its size) must render.
                guard report.errors.allSatisfy({ $0.code == .dimensionsNotAllowed }) else { continue }
                stillValid += 1
                do {
                    let rendered = try Renderer.render(try ImageSource(bytes: bytes, maxPixels: limits.maxPixels),
                                                       settings: settings)
                    XCTAssertFalse(rendered.bytes.isEmpty)
                } catch {
                    // A decoder may still refuse what the validator's checks passed; that is an answer.
                }
            }
        }
        // The mutations reach both sides: damage is found, and harmless changes still pass.
        XCTAssertGreaterThan(outcomes[.corruptImage, default: 0], 0, "\(outcomes)")
        XCTAssertGreaterThan(stillValid, 0)
    }
}
