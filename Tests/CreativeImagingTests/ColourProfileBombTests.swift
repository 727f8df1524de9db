import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import XCTest

/// "Hostile input, part 4", item 1: a colour profile whose pipelines have thousands of stages
/// costs seconds of CPU inside Little CMS before any pixel, out of reach of the deadline. It is
/// bounded before any decoder sees it (``ICCProfileProbe``): ignored with `metadata_dropped`,
/// the image taken as sRGB, in PNG `iCCP`, JPEG `APP2` (split over several segments) and WebP
/// `ICCP` alike. Real profiles keep converting.
final class ColourProfileBombTests: XCTestCase {
    private let slot = PixelSize(width: 320, height: 50)

    /// The image in each format with `profile` embedded.
    private func files(with profile: [UInt8]) throws -> [(ImageFormat, String, [UInt8])] {
        let image = try Fixtures.split(slot.width, slot.height, left: [200, 30, 30], right: [30, 30, 200])
            .settingBlob("icc-profile-data", profile)
        return [(.png, "p.png", try Fixtures.png(image, keepingProfile: true)),
                (.jpeg, "p.jpg", try Fixtures.jpeg(image)),
                (.webp, "p.webp", try Fixtures.webp(image, [Fixtures.keepProfile]))]
    }

    func testAStageBombProfileIsIgnoredInEveryFormatAndTheRenderCompletes() throws {
        let bomb = try ColourProfiles.stageBomb(stages: 4000)
        XCTAssertEqual(ICCProfileProbe.verdict(bomb), .refused("has a 'D2B0' pipeline of 4000 stages, over the limit of 32"))
        for (format, name, bytes) in try files(with: bomb) {
            // Embedded as written (a JPEG's over several APP2 segments).
            XCTAssertEqual(try VipsOperation(ImageSource.loader(for: format)).with("buffer", .bytes(bytes)).image().iccProfile,
                           bomb, name)
            let source = try ImageSource(bytes: bytes)
            XCTAssertFalse(source.header.hasICCProfile, name)
            XCTAssertEqual(source.profileBytes, 0, name)
            XCTAssertFalse(try VipsOperation(ImageSource.loader(for: format)).with("buffer", .bytes(source.decoderBytes))
                .image().hasICCProfile, name)
            let report = Validator.validate(bytes, fileName: name)
            XCTAssertTrue(report.valid, "\(name): \(report.errors)")
            // (`heavy_file` besides for the JPEG and WebP, which carry the 480 KB profile.)
            let dropped = report.warnings.filter { $0.code == .metadataDropped }.map(\.message)
            XCTAssertEqual(dropped, ["the colour profile has a 'D2B0' pipeline of 4000 stages, over the limit of 32; "
                                     + "it was ignored and the image is taken as sRGB"], name)
            XCTAssertFalse(report.warningCodes.contains(.notSRGB), name)
            // The render completes, from the pixels taken as sRGB.
            let render = try Renderer.render(source, settings: try RenderSettings(canvas: slot, format: .fixed(.png)), limits: JobLimits())
            let pixels = try Fixtures.decode(render.bytes)
            XCTAssertEqual(pixels.size, slot, name)
        }
    }

    func testAJPEGProfileSplitOverManySegmentsIsBoundedWhole() throws {
        // 60 bytes a stage and a tag, 2 x 1,200 stages: about 144 KB, three APP2 segments.
        let bomb = try ColourProfiles.stageBomb(stages: 1200)
        let jpeg = try files(with: bomb)[1].2
        XCTAssertGreaterThan(bomb.count, 2 * 65_519)
        XCTAssertEqual(HeaderProbe.jpegScans(jpeg), 1)
        let source = try ImageSource(bytes: jpeg)
        XCTAssertFalse(source.header.hasICCProfile)
        XCTAssertLessThan(source.decoderBytes.count, jpeg.count - bomb.count)
    }

    func testRealProfilesStayAndAreCharged() throws {
        // libvips' own sRGB, P3 and CMYK (a press profile of lut16 tables), and Adobe RGB from Little CMS.
        for name in ["srgb", "p3", "cmyk"] {
            let profile = try VipsOperation("profile_load").with("name", .string(name)).bytes(output: "profile")
            guard case .bounded(let census) = ICCProfileProbe.verdict(profile) else {
                return XCTFail("\(name): \(ICCProfileProbe.verdict(profile))")
            }
            XCTAssertLessThanOrEqual(census.stages, 40, name)
        }
        let adobe = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try ColourProfiles.adobeRGB())))
        XCTAssertEqual(ICCProfileProbe.verdict(adobe), .bounded(ICCProfileProbe.Census(tags: 11, stages: 0)))
        let plain = try Fixtures.split(slot.width, slot.height, left: [200, 30, 30], right: [30, 30, 200])
        let plainFiles = [try Fixtures.png(plain), try Fixtures.jpeg(plain), try Fixtures.webp(plain)]
        for ((_, name, bytes), plainBytes) in zip(try files(with: adobe), plainFiles) {
            let source = try ImageSource(bytes: bytes)
            XCTAssertEqual(source.header.iccProfile, adobe, name)
            XCTAssertEqual(source.profileBytes, adobe.count, name)
            XCTAssertEqual(Validator.validate(bytes, fileName: name).warningCodes, [.notSRGB], name)
            // Charged: the profile's copies, beside the file's.
            let unprofiled = try ImageSource(bytes: plainBytes)
            XCTAssertEqual(JobCost.decode(source, content: slot).decode - JobCost.decode(unprofiled, content: slot).decode,
                           adobe.count * JobCost.profileCopies + (bytes.count - plainBytes.count) * JobCost.inputCopies, name)
        }
    }
}
