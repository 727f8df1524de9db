import CreativeBundle
import CreativeCore
import CreativeImaging
import CreativeTestSupport
import XCTest

/// The generated bundle corpus: a clean bundle passes, and for each bundle code at least one
/// bundle triggers it, and only it (errors compared exactly).
final class BundleCorpusTests: XCTestCase {
    private func check(_ zip: BundleZip, errors: Set<ValidationCode>, warnings: Set<ValidationCode> = [],
                       file: StaticString = #filePath, line: UInt = #line) -> ValidationReport {
        let report = Validator.validate(zip.bytes(), fileName: "ad.zip")
        let summary = "errors \(report.errors.map { "\($0.code.rawValue): \($0.message)" }) "
            + "warnings \(report.warnings.map(\.code.rawValue))"
        XCTAssertEqual(Set(report.errors.map(\.code)), errors, summary, file: file, line: line)
        XCTAssertEqual(Set(report.warnings.map(\.code)), warnings, summary, file: file, line: line)
        XCTAssertNotNil(report.bundle, file: file, line: line)
        return report
    }

    func testCleanBundlePassesWithItsFacts() throws {
        let zip = try BundleCorpus.clean()
        let report = check(zip, errors: [])
        XCTAssertTrue(report.valid)
        XCTAssertEqual(report.bundle, BundleFacts(files: 7, bytesUncompressed: report.bundle?.bytesUncompressed ?? 0,
                                                  entry: "index.html"))
        XCTAssertEqual(report.dimensions, PixelSize(width: 320, height: 50))
        XCTAssertTrue(report.decoded, "the static version is decoded strictly")
        let json = report.json.serialized()
        XCTAssertTrue(json.contains(#""format":"html5""#), json)
        XCTAssertTrue(json.contains(#""file_count":7,"uncompressed_bytes":"#), json)
        XCTAssertTrue(json.contains(#""entry":"index.html""#), json)
        XCTAssertTrue(json.contains(#""size_pixels":{"width":320,"height":50},"file_bytes":"#) && json.contains(#""size_class":"standard""#), json)
    }

    func testEveryAcceptedAdSizeWithAMatchingStaticImagePasses() throws {
        for (points, still) in [("width=320,height=100", (960, 300)), ("width=300,height=250", (300, 250)),
                                ("width=468,height=60", (468, 60)), ("width=728,height=90", (2184, 270))] {
            let zip = try BundleCorpus.clean(html: BundleCorpus.html(adSize: points),
                                             staticImage: BundleCorpus.png(still.0, still.1))
            let expected: Set<ValidationCode> = still == (960, 300) ? [.dimensionsNotAllowed] : []
            _ = check(zip, errors: expected)
        }
    }

    // MARK: The archive

    func testDamagedArchiveIsCorruptBundle() throws {
        var bytes = try BundleCorpus.clean().bytes()
        bytes.removeLast(30)  // the end of central directory record is cut
        let report = Validator.validate(bytes, fileName: "cut.zip")
        XCTAssertEqual(report.errors.map(\.code), [.corruptBundle])
        XCTAssertEqual(report.json.serialized().contains(#""format":"html5""#), true)
    }

    func testZipOverTheUploadLimitIsNotOpened() throws {
        let bytes = try BundleCorpus.clean().bytes()
        let report = Validator.validate(bytes, fileName: "big.zip", limits: ValidationLimits(maxBytes: 1000))
        XCTAssertEqual(report.errors.map(\.code), [.fileTooLarge])
        XCTAssertEqual(report.bundle, BundleFacts(files: 0, bytesUncompressed: 0))
        XCTAssertTrue(report.json.serialized().contains(#""format":"html5""#))
    }

    func testEntryWithABadChecksumIsCorruptBundle() throws {
        let zip = try BundleCorpus.clean().adding("data.json", text: "{\"a\": \"0123456789\"}", .stored)
            .patching(Array("0123456789".utf8), Array("0123456780".utf8))
        _ = check(zip, errors: [.corruptBundle])
    }

    func testZipBombIsRefusedFromTheCentralDirectory() throws {
        let zip = try BundleCorpus.clean().adding("js/bomb.js", [UInt8](repeating: 0, count: 2_000_000))
        let bytes = zip.bytes()
        XCTAssertLessThan(bytes.count, 20_000, "2 MB of zeros deflates to about 2 KB")
        let report = check(zip, errors: [.compressionRatioTooHigh])
        XCTAssertGreaterThan(report.bundle?.bytesUncompressed ?? 0, 2_000_000)
    }

    func testOverTwoMebibytesUncompressedIsBundleTooLarge() throws {
        var generator = SystemRandomNumberGenerator()
        let hex = Array("0123456789abcdef".utf8)
        let noise = (0..<2_200_000).map { _ in hex[Int(generator.next() % 16)] }
        let zip = try BundleCorpus.clean().adding("js/data.js", noise)
        let report = check(zip, errors: [.bundleTooLarge])
        XCTAssertGreaterThan(report.bundle?.bytesUncompressed ?? 0, BundleRules.maxUncompressedBytes)
    }

    func testOverOneHundredEntriesIsTooManyFiles() throws {
        var zip = try BundleCorpus.clean()
        for index in 0..<94 { zip = zip.adding("js/part\(index).js", text: "var a\(index) = \(index);") }
        _ = check(zip, errors: [.tooManyFiles])
    }

    func testUnsafeNamesAreRefused() throws {
        let cases: [(String, [UInt8])] = [
            ("../evil.js", Array("../evil.js".utf8)),         // zip slip
            ("js/../../evil.js", Array("js/../../evil.js".utf8)),
            ("/etc/evil.js", Array("/etc/evil.js".utf8)),     // absolute
            ("js\\evil.js", Array("js\\evil.js".utf8)),       // backslash
            ("C:evil.js", Array("C:evil.js".utf8)),           // drive letter
        ]
        for (name, raw) in cases {
            let zip = try BundleCorpus.clean().adding("zz-placeholder-\(raw.count).js", text: "var x;")
            let placeholder = Array("zz-placeholder-\(raw.count).js".utf8)
            // The placeholder and the name must be the same length for the patch.
            let padded = raw + [UInt8](repeating: UInt8(ascii: "x"), count: max(0, placeholder.count - raw.count))
            let report = check(zip.patching(placeholder, Array(padded.prefix(placeholder.count))), errors: [.unsafePath])
            XCTAssertTrue(report.errors.first?.message.contains("is refused: a") ?? false,
                          "\(name): \(report.errors.first?.message ?? "")")
        }
        let nul = try BundleCorpus.clean().adding("js/nul-x.js", text: "var x;")
            .patching(Array("js/nul-x.js".utf8), Array("js/nul\u{0}x.js".utf8))
        _ = check(nul, errors: [.unsafePath])
        let latin1 = try BundleCorpus.clean().adding("js/caf-.js", text: "var x;")
            .patching(Array("js/caf-.js".utf8), Array("js/caf".utf8) + [0xE9] + Array(".js".utf8))
        _ = check(latin1, errors: [.unsafePath])
    }

    func testSymlinkEncryptedDuplicateAndNestedZipAreRefused() throws {
        _ = check(try BundleCorpus.clean().adding("js/link.js", text: "/etc/passwd", .symlink), errors: [.symlinkEntry])
        _ = check(try BundleCorpus.clean().adding("js/secret.js", text: "var secret = 1;", .encrypted),
                  errors: [.encryptedEntry])
        let duplicate = try BundleCorpus.clean().adding("js/dupe-b.js", text: "var b;")
            .adding("js/dupe-a.js", text: "var a;").patching(Array("dupe-b".utf8), Array("dupe-a".utf8))
        XCTAssertEqual(Validator.validate(duplicate.bytes(), fileName: "d.zip").errors.map(\.code), [.duplicateEntry])
        let inner = BundleZip().adding("x.js", text: "var x;").bytes()
        _ = check(try BundleCorpus.clean().adding("more.zip", inner), errors: [.nestedArchive])
        _ = check(try BundleCorpus.clean().adding("js/more.json", inner), errors: [.nestedArchive])
    }

    func testMacFilesAreIgnoredWithAWarning() throws {
        let zip = try BundleCorpus.clean().adding("__MACOSX/._index.html", text: "junk").adding(".DS_Store", text: "junk")
            .adding("images/.DS_Store", text: "junk")
        let report = check(zip, errors: [], warnings: [.ignoredFile])
        XCTAssertEqual(report.warnings.count, 3)
    }

    func testFileTypesOutsideTheListAreUnsupported() throws {
        _ = check(try BundleCorpus.clean().adding("readme.txt", text: "hi"), errors: [.unsupportedFileType])
        _ = check(try BundleCorpus.clean().adding("tool.exe", [0x4D, 0x5A]), errors: [.unsupportedFileType])
        // The accepted types pass.
        let all = try BundleCorpus.clean().adding("data.json", text: "{}").adding("video/intro.mp4", [0, 0, 0, 0x18])
            .adding("fonts/brand.woff", [0x77, 0x4F, 0x46, 0x46]).adding("images/icon.svg",
                    text: "<svg xmlns=\"http://www.w3.org/2000/svg\"><image href=\"../images/logo.png\"/></svg>")
        _ = check(all, errors: [])
    }

    func testDamagedImageInsideIsCorruptImageAtAnySize() throws {
        let logo = try BundleCorpus.png(40, 40)
        let zip = try BundleCorpus.clean().adding("images/broken.png", Array(logo.prefix(logo.count - 20)))
        let report = check(zip, errors: [.corruptImage])
        XCTAssertTrue(report.errors.first?.message.hasPrefix("images/broken.png: ") ?? false)
        // An animated GIF may move inside the ad.
        let frames = try VipsOperation("join").with("in1", .image(try Fixtures.solid(40, 40, [255, 0, 0])))
            .with("in2", .image(try Fixtures.solid(40, 40, [0, 0, 255]))).with("direction", .enumeration("vertical")).image()
        let gif = try Fixtures.save("gifsave_buffer", try frames.settingInt("page-height", 40))
        XCTAssertTrue(Validator.validate(gif, fileName: "a.gif").has(.animated))
        _ = check(try BundleCorpus.clean().adding("images/spin.gif", gif), errors: [])
        let bomb = try BundleCorpus.clean().adding("images/huge.png", try BundleCorpus.png(3000, 3000))
        _ = check(bomb, errors: [.tooManyPixels])
    }

    // MARK: Entry and size

    func testEntryHTML() throws {
        let renamed = try BundleCorpus.clean().patching(Array("index.html".utf8), Array("start.html".utf8))
        XCTAssertEqual(Validator.validate(renamed.bytes(), fileName: "a.zip").bundle?.entry, "start.html")
        _ = check(renamed, errors: [])
        let none = try BundleCorpus.clean().patching(Array("index.html".utf8), Array("index.json".utf8))
        _ = check(none, errors: [.noEntryHTML])
        let two = renamed.adding("other.html", text: BundleCorpus.html())
        _ = check(two, errors: [.ambiguousEntryHTML])
        _ = check(try BundleCorpus.clean().adding("other.html", text: BundleCorpus.html()), errors: [])
        // Stored: the repetition would deflate past the ratio cap.
        let tooDeep = BundleZip().adding("index.html", text: BundleCorpus.html(body: String(repeating: "<div>", count: 20_000)),
                                         .stored).adding("static.png", try BundleCorpus.png(960, 150))
        let deep = check(tooDeep, errors: [.tooManyElements])
        XCTAssertTrue(deep.errors[0].message.contains("over the limit of 10000"), deep.errors[0].message)
    }

    func testAdSize() throws {
        _ = check(try BundleCorpus.clean(html: BundleCorpus.html(adSize: nil)), errors: [.missingAdSize])
        _ = check(try BundleCorpus.clean(html: BundleCorpus.html(adSize: "320x50")), errors: [.missingAdSize])
        let wrong = check(try BundleCorpus.clean(html: BundleCorpus.html(adSize: "width=321,height=50"),
                                                 staticImage: BundleCorpus.png(321, 50)),
                          errors: [.dimensionsNotAllowed])
        XCTAssertTrue(wrong.errors[0].message.contains("the nearest are 320x50"), wrong.errors[0].message)
        // Retina pixel sizes are not points.
        _ = check(try BundleCorpus.clean(html: BundleCorpus.html(adSize: "width=960, height=150")),
                  errors: [.dimensionsNotAllowed])
    }

    // MARK: References

    func testRemoteAndMissingReferences() throws {
        let font = try BundleCorpus.clean().adding("css/font.css",
            text: "@font-face { src: url(https://fonts.example.com/brand.woff2); }")
        let fontReport = check(font.patching(Array("fonts/brand.woff2".utf8), Array("fonts/brand.woff2".utf8)),
                               errors: [.remoteResourceBlocked])
        XCTAssertTrue(fontReport.errors[0].message.contains("(css/font.css)"), fontReport.errors[0].message)
        let script = check(try BundleCorpus.clean(html: BundleCorpus.html(head: "<script src=\"//cdn.example.com/lib.js\"></script>")),
                           errors: [.remoteResourceBlocked])
        XCTAssertTrue(script.errors[0].message.contains("protocol-relative"), script.errors[0].message)
        let srcset = check(try BundleCorpus.clean(html: BundleCorpus.html(
            body: "<img src=\"images/logo.png\" srcset=\"images/logo.png 1x, https://img.example.com/logo@3x.png 3x\">")),
                           errors: [.remoteResourceBlocked])
        XCTAssertEqual(srcset.errors.count, 1)
        XCTAssertTrue(srcset.errors[0].message.contains("img.example.com"), srcset.errors[0].message)
        let missing = check(try BundleCorpus.clean(html: BundleCorpus.html(body: "<video poster=\"images/poster.jpg\"></video>")),
                            errors: [.missingFile])
        XCTAssertTrue(missing.errors[0].message.contains("images/poster.jpg is referenced (<video poster> in index.html)"),
                      missing.errors[0].message)
        let imported = try BundleCorpus.clean().adding("css/more.css", text: "@import 'parts/a.css'; .x { color: red }")
        let importReport = check(imported, errors: [.missingFile])
        XCTAssertTrue(importReport.errors[0].message.hasPrefix("css/parts/a.css is referenced (css/more.css)"),
                      importReport.errors[0].message)
        let refresh = check(try BundleCorpus.clean(html: BundleCorpus.html(
            head: "<meta http-equiv=\"refresh\" content=\"5; url=http://example.com/\">")), errors: [.remoteResourceBlocked])
        XCTAssertTrue(refresh.errors[0].message.contains("<meta http-equiv=refresh>"))
        _ = check(try BundleCorpus.clean(html: BundleCorpus.html(
            body: "<div style=\"background-image: url('https://example.com/bg.png')\"></div>")), errors: [.remoteResourceBlocked])
        _ = check(try BundleCorpus.clean(html: BundleCorpus.html(
            head: "<style>@import url(\"http://example.com/x.css\");</style>")), errors: [.remoteResourceBlocked])
        _ = check(try BundleCorpus.clean(html: BundleCorpus.html(body: "<object data=\"ftp://example.com/x\"></object>")),
                  errors: [.remoteResourceBlocked])
        _ = check(try BundleCorpus.clean(html: BundleCorpus.html(body: "<a href=\"../../escape.html\">x</a>")),
                  errors: [.missingFile])
    }

    func testAllowedReferences() throws {
        let html = BundleCorpus.html(head: "<style>.x { background: url(data:image/png;base64,AAAA); }</style>",
                                     body: "<a href=\"#top\">top</a><img src=\"data:image/gif;base64,R0lGOD\">"
                                         + "<img src=\"./images/logo.png?v=2#x\"><img src=\"/images/logo%402x.png\">")
        _ = check(try BundleCorpus.clean(html: html), errors: [])
        _ = check(try BundleCorpus.clean(html: BundleCorpus.html(body: "<iframe src=\"javascript:alert(1)\"></iframe>")),
                  errors: [.javascriptURL])
    }

    func testRemoteURLInScriptIsAWarning() throws {
        let zip = try BundleCorpus.clean().adding("js/track.js", text: "fetch('https://track.example.com/i?x=1');")
        let report = check(zip, errors: [], warnings: [.remoteURLInScript])
        XCTAssertTrue(report.valid)
        _ = check(try BundleCorpus.clean(html: BundleCorpus.html(head: "<script>var u = `http://x.example`;</script>")),
                  errors: [], warnings: [.remoteURLInScript])
    }

    // MARK: The static version

    func testStaticVersion() throws {
        _ = check(try BundleCorpus.clean(staticName: nil), errors: [.missingStaticVersion])
        let webp = try Fixtures.save("webpsave_buffer", try Fixtures.solid(960, 150, [1, 2, 3]))
        _ = check(try BundleCorpus.clean(staticImage: webp, staticName: "static.webp"), errors: [.missingStaticVersion])
        _ = check(try BundleCorpus.clean(staticName: "backup.png"), errors: [])
        let jpeg = try Fixtures.save("jpegsave_buffer", try Fixtures.solid(960, 150, [1, 2, 3]))
        _ = check(try BundleCorpus.clean(staticImage: jpeg, staticName: "fallback.jpg"), errors: [])
        // In a folder it is not the static version.
        _ = check(try BundleCorpus.clean(staticName: "images/static.png"), errors: [.missingStaticVersion])
        let onlyProblem = check(try BundleCorpus.clean(staticImage: BundleCorpus.png(961, 150)),
                                errors: [.dimensionsNotAllowed])
        XCTAssertEqual(onlyProblem.errors.count, 1)
        XCTAssertTrue(onlyProblem.errors[0].message.hasPrefix("static version static.png: 961x150 is not an accepted size"),
                      onlyProblem.errors[0].message)
        let mismatch = check(try BundleCorpus.clean(html: BundleCorpus.html(adSize: "width=300,height=250")),
                             errors: [.staticVersionMismatch])
        XCTAssertTrue(mismatch.errors[0].message.contains("960x150"), mismatch.errors[0].message)
        let damaged = try BundleCorpus.png(960, 150)
        _ = check(try BundleCorpus.clean(staticImage: Array(damaged.prefix(damaged.count - 16))), errors: [.corruptImage])
    }
}
