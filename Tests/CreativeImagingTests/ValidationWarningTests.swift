import CreativeCore
import Foundation
import CreativeTestSupport
@testable import CreativeImaging
import XCTest

/// Warnings (docs/reference.md, "validate"): reported, never a reason to reject. Each one here is on a file
/// of an accepted size, so the file stays valid; on a wrong size it comes with the error.
final class ValidationWarningTests: XCTestCase {

    private func assertValid(_ bytes: [UInt8], _ name: String, warnings: [ValidationCode],
                             size: PixelSize = PixelSize(width: 320, height: 50),
                             file: StaticString = #filePath, line: UInt = #line) {
        let report = Validator.validate(bytes, fileName: name)
        XCTAssertTrue(report.valid, report.summary, file: file, line: line)
        XCTAssertEqual(report.warningCodes, warnings, report.summary, file: file, line: line)
        XCTAssertEqual(report.dimensions, size, report.summary, file: file, line: line)
        for warning in report.warnings {
            XCTAssertGreaterThan(warning.message.count, 10, file: file, line: line)
        }
    }

    // MARK: not_srgb

    /// A CMYK JPEG without the embedded profile, so it stays light.
    private func cmykJPEG(_ image: VImage) throws -> [UInt8] {
        let cmyk = try VipsOperation("icc_export").with("in", .image(image)).with("output_profile", .string("cmyk")).image()
        return try Fixtures.jpeg(cmyk, [("strip", .bool(true))])
    }

    func testCMYKAndGreyAreNotSRGB() throws {
        let colour = try Fixtures.split(320, 50, left: [200, 30, 30], right: [30, 30, 200])
        // libvips embeds its CMYK profile (several hundred KB): with it the file is heavy too.
        let cmykWithProfile = try Fixtures.cmykJPEG(colour)
        XCTAssertGreaterThan(cmykWithProfile.count, 150_000)
        assertValid(cmykWithProfile, "cmyk.jpg", warnings: [.notSRGB, .heavyFile])
        let cmyk = try cmykJPEG(colour)
        assertValid(cmyk, "cmyk.jpg", warnings: [.notSRGB])
        assertValid(try Fixtures.jpeg(try Fixtures.grey(colour)), "grey.jpg", warnings: [.notSRGB])
        assertValid(try Fixtures.png(try Fixtures.grey(colour)), "grey.png", warnings: [.notSRGB])
        let report = Validator.validate(cmyk, fileName: "c.jpg")
        XCTAssertTrue(report.warnings[0].message.contains("CMYK"), report.summary)
        let grey = Validator.validate(try Fixtures.png(try Fixtures.grey(colour)), fileName: "g.png")
        XCTAssertTrue(grey.warnings[0].message.contains("grey"), grey.summary)

        // On a wrong size the warning comes with the error.
        let wrong = Validator.validate(try cmykJPEG(try Fixtures.solid(321, 50, [1, 2, 3])), fileName: "w.jpg")
        XCTAssertEqual(wrong.errorCodes, [.dimensionsNotAllowed], wrong.summary)
        XCTAssertEqual(wrong.warningCodes, [.notSRGB], wrong.summary)
    }

    func testANonSRGBProfileIsNotSRGBAndAnSRGBProfileIsFine() throws {
        let colour = try Fixtures.split(320, 50, left: [200, 30, 30], right: [30, 30, 200])
        let a98 = try VipsOperation("icc_export").with("in", .image(colour))
            .with("output_profile", .string(try ColourProfiles.adobeRGB())).image()
        XCTAssertTrue(a98.hasICCProfile)
        assertValid(try Fixtures.png(a98, keepingProfile: true), "a98.png", warnings: [.notSRGB])
        assertValid(try Fixtures.jpeg(a98), "a98.jpg", warnings: [.notSRGB])
        let report = Validator.validate(try Fixtures.png(a98, keepingProfile: true), fileName: "a98.png")
        XCTAssertTrue(report.warnings[0].message.contains("profile"), report.summary)

        // libvips' built-in sRGB profile, embedded: no warning.
        let srgb = try VipsOperation("icc_export").with("in", .image(colour)).with("output_profile", .string("srgb")).image()
        XCTAssertTrue(srgb.hasICCProfile)
        assertValid(try Fixtures.png(srgb, keepingProfile: true), "srgb.png", warnings: [])
        assertValid(try Fixtures.jpeg(srgb), "srgb.jpg", warnings: [])
    }

    // MARK: exif_orientation

    func testEXIFOrientationsThatTurnTheImageSwapTheDisplayedSize() throws {
        // Stored on its side, 150x960: orientations 5-8 show it as 960x150, an accepted size.
        let stored = try Fixtures.split(150, 960, left: [255, 0, 0], right: [0, 0, 255])
        for orientation in 5...8 {
            let jpeg = try Fixtures.jpeg(try stored.settingInt("orientation", orientation))
            let report = Validator.validate(jpeg, fileName: "o\(orientation).jpg")
            XCTAssertTrue(report.valid, "orientation \(orientation): \(report.summary)")
            XCTAssertEqual(report.dimensions, PixelSize(width: 960, height: 150), "orientation \(orientation)")
            XCTAssertEqual(report.warningCodes, [.exifOrientation], report.summary)
            XCTAssertTrue(report.warnings[0].message.contains("\(orientation)"), report.summary)
            let json = try report.parsedJSON()
            XCTAssertEqual(json.sizeText("size_pixels"), "960x150")
            XCTAssertEqual(json["shape"] as? String, "strip")
        }
        // Upright storage with a turning orientation is shown 150x960: not allowed, and the warning says why.
        let upright = try Fixtures.split(960, 150, left: [255, 0, 0], right: [0, 0, 255])
        let turned = Validator.validate(try Fixtures.jpeg(try upright.settingInt("orientation", 6)), fileName: "t.jpg")
        XCTAssertEqual(turned.errorCodes, [.dimensionsNotAllowed], turned.summary)
        XCTAssertEqual(turned.warningCodes, [.exifOrientation], turned.summary)
        XCTAssertEqual(turned.dimensions, PixelSize(width: 150, height: 960))
    }

    func testWebPEXIFOrientationIsAppliedToo() throws {
        let stored = try Fixtures.split(150, 960, left: [255, 0, 0], right: [0, 0, 255])
        let webp = try Fixtures.webp(try stored.settingInt("orientation", 6))
        let report = Validator.validate(webp, fileName: "o.webp")
        XCTAssertTrue(report.valid, report.summary)
        XCTAssertEqual(report.dimensions, PixelSize(width: 960, height: 150))
        XCTAssertEqual(report.warningCodes, [.exifOrientation], report.summary)
        XCTAssertEqual(HeaderProbe.orientation(webp, format: .webp), 6)
    }

    /// A file over a cap is never decoded, but its size is still reported as displayed: the
    /// orientation comes from the EXIF bytes, so a turned upload is not called the wrong size.
    func testFilesOverACapReportTheDisplayedSize() throws {
        let stored = try Fixtures.split(150, 960, left: [255, 0, 0], right: [0, 0, 255])
        for orientation in 1...8 {
            let jpeg = try Fixtures.jpeg(try stored.settingInt("orientation", orientation))
            XCTAssertEqual(HeaderProbe.orientation(jpeg, format: .jpeg), orientation)
            let shown = orientation >= 5 ? PixelSize(width: 960, height: 150) : PixelSize(width: 150, height: 960)
            let tooLarge = Validator.validate(jpeg, fileName: "o.jpg", limits: ValidationLimits(maxBytes: 100))
            XCTAssertEqual(tooLarge.dimensions, shown, "orientation \(orientation): \(tooLarge.summary)")
            XCTAssertEqual(tooLarge.errorCodes, orientation >= 5 ? [.fileTooLarge] : [.fileTooLarge, .dimensionsNotAllowed],
                           tooLarge.summary)
            let head = Validator.validate(Array(jpeg.prefix(1000)), fileName: "o.jpg", totalBytes: 5_000_000)
            XCTAssertEqual(head.dimensions, shown, head.summary)
            let capped = Validator.validate(jpeg, fileName: "o.jpg", limits: ValidationLimits(maxPixels: 1000))
            XCTAssertEqual(capped.dimensions, shown, capped.summary)
            XCTAssertEqual(capped.errorCodes.first, .tooManyPixels, capped.summary)
        }
        let webp = try Fixtures.webp(try stored.settingInt("orientation", 8))
        let tooLarge = Validator.validate(webp, fileName: "o.webp", limits: ValidationLimits(maxBytes: 100))
        XCTAssertEqual(tooLarge.errorCodes, [.fileTooLarge], tooLarge.summary)
        XCTAssertEqual(tooLarge.dimensions, PixelSize(width: 960, height: 150))
        // Broken or absent EXIF means upright.
        XCTAssertEqual(HeaderProbe.orientation(Array(Fixtures.jpegBomb(width: 10, height: 10)), format: .jpeg), 1)
        XCTAssertEqual(HeaderProbe.orientation([0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x0A] + Array("Exif".utf8) + [0, 0, 0x4D, 0x4D],
                                               format: .jpeg), 1)
    }

    func testEXIFOrientationsThatMirrorOrTurnHalfwayKeepTheSize() throws {
        let image = try Fixtures.split(320, 50, left: [255, 0, 0], right: [0, 0, 255])
        for orientation in 2...4 {
            assertValid(try Fixtures.jpeg(try image.settingInt("orientation", orientation)), "m.jpg",
                        warnings: [.exifOrientation])
        }
        assertValid(try Fixtures.jpeg(try image.settingInt("orientation", 1)), "one.jpg", warnings: [])
    }

    // MARK: high_bit_depth, heavy_file, extension_mismatch

    func testSixteenBitPNGIsHighBitDepth() throws {
        let colour = try Fixtures.split(320, 50, left: [10, 200, 60], right: [60, 10, 200])
        assertValid(try Fixtures.png(try Fixtures.sixteenBit(colour)), "deep.png", warnings: [.highBitDepth])
        let grey16 = try VipsOperation("colourspace").with("in", .image(colour)).with("space", .enumeration("grey16")).image()
        assertValid(try Fixtures.png(grey16), "deep-grey.png", warnings: [.notSRGB, .highBitDepth])
        assertValid(try Fixtures.png(colour), "eight.png", warnings: [])
    }

    func testHeavyFileIsOnlyAWarning() throws {
        let noise = try Fixtures.noise(960, 150, seed: 42)
        let png = try Fixtures.png(noise)
        XCTAssertGreaterThan(png.count, 150_000)
        XCTAssertLessThan(png.count, Catalog.defaultMaxBytes)
        assertValid(png, "heavy.png", warnings: [.heavyFile], size: PixelSize(width: 960, height: 150))
        let report = Validator.validate(png, fileName: "heavy.png")
        XCTAssertTrue(report.warnings[0].message.hasPrefix("\(TextFormat.grouped(png.count)) bytes is over the 150 KB "
                                                            + "(153,600 bytes) guideline;"), report.summary)
        // The guideline is 150 KB as every budget reads it (153,600 bytes): at it, no warning;
        // one byte over, a warning.
        XCTAssertNil(ValidationRules.weightIssue(bytes: 153_600))
        XCTAssertEqual(ValidationRules.weightIssue(bytes: 153_601)?.code, .heavyFile)
        // A light file of the same size has no weight warning (being one flat colour, it is
        // mostly empty).
        assertValid(try Fixtures.png(try Fixtures.solid(960, 150, [5, 5, 5])), "light.png", warnings: [.mostlyEmpty],
                    size: PixelSize(width: 960, height: 150))
    }

    func testExtensionMismatchIsAWarning() throws {
        let image = try Fixtures.split(320, 50, left: [255, 0, 0], right: [0, 0, 255])
        let files = try Fixtures.allFormats(image)
        for (format, _, bytes) in files {
            for other in ImageFormat.allCases where other != format {
                let name = "banner.\(other.extensions[0])"
                assertValid(bytes, name, warnings: [.extensionMismatch])
                let report = Validator.validate(bytes, fileName: name)
                XCTAssertTrue(report.warnings[0].message.contains(".\(format.extensions[0])"), report.summary)
            }
            for name in format.extensions.map({ "banner.\($0)" }) + format.extensions.map({ "BANNER.\($0.uppercased())" })
                + ["banner", "dir.v2/banner", ".hidden", "-"] {
                assertValid(bytes, name, warnings: [])
            }
        }
        assertValid(files[0].bytes, "banner.txt", warnings: [.extensionMismatch])
    }

    func testEveryWarningAtOnce() throws {
        // Stored 50x320, CMYK, orientation 8, noisy enough to be heavy, named .png.
        let noise = try Fixtures.noise(150, 960, seed: 9)
        let cmyk = try Fixtures.cmykJPEG(try noise.settingInt("orientation", 8))
        let jpeg = cmyk.count > 150_000 ? cmyk : try {
            let cmykImage = try VipsOperation("icc_export").with("in", .image(try noise.settingInt("orientation", 8)))
                .with("output_profile", .string("cmyk")).image()
            return try Fixtures.jpeg(cmykImage, [("Q", .int(100))])
        }()
        XCTAssertGreaterThan(jpeg.count, 150_000)
        let report = Validator.validate(jpeg, fileName: "all.png")
        XCTAssertTrue(report.valid, report.summary)
        XCTAssertEqual(Set(report.warningCodes), [.extensionMismatch, .notSRGB, .exifOrientation, .heavyFile], report.summary)
        XCTAssertEqual(report.dimensions, PixelSize(width: 960, height: 150))
        // Warnings never reject, but they are all in the JSON.
        let json = try report.parsedJSON()
        XCTAssertEqual((json["warnings"] as? [[String: Any]])?.compactMap { $0["code"] as? String }.count, 4)
        XCTAssertEqual(json["valid"] as? Bool, true)
    }
}
