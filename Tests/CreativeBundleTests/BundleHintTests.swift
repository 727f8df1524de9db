@testable import CreativeBundle
import CreativeCore
import CreativeImaging
import CreativeTestSupport
import XCTest

/// The common bundle mistakes get a message that says what to do: a zip of the folder instead
/// of its contents, and a standard clickTag, which is a click-through and no blocked load.
final class BundleHintTests: XCTestCase {
    private func report(_ zip: BundleZip) -> ValidationReport { Validator.validate(zip.bytes(), fileName: "ad.zip") }

    func testAZippedFolderSaysToZipItsContents() throws {
        let clean = try BundleCorpus.clean()
        let inFolder = try BundleZip()
            .adding("ad/index.html", text: BundleCorpus.html())
            .adding("ad/static.png", try BundleCorpus.png(960, 150))
        let checked = report(inFolder)
        let messages = Dictionary(checked.errors.map { ($0.code, $0.message) }, uniquingKeysWith: { first, _ in first })
        XCTAssertEqual(messages[.noEntryHTML], "no HTML file at the bundle's root; put the ad's index.html there (the "
                       + "files are in the folder ad/, with ad/index.html: zip the folder's contents, not the folder)")
        XCTAssertTrue(messages[.missingStaticVersion]?.hasSuffix("(the files are in the folder ad/: zip the folder's "
                                                                  + "contents, not the folder)") ?? false, "\(messages)")
        // Files at the root, or in several folders, get no such hint.
        XCTAssertTrue(report(clean).valid)
        let scattered = try BundleZip().adding("a/index.html", text: BundleCorpus.html())
            .adding("b/static.png", try BundleCorpus.png(960, 150))
        XCTAssertFalse(report(scattered).errors.contains { $0.message.contains("zip the folder's contents") })
    }

    func testAClickTagIsAClickThroughNotABlockedLoad() throws {
        let html = BundleCorpus.html(head: "<script src=\"click.js\"></script>")
        let script = """
            var clickTag = "https://shop.example.com/spring?utm=ad";
            window.clickTAG2='https://shop.example.com/summer';
            var feed = "https://api.example.com/feed.json";
            """
        let zip = try BundleCorpus.clean(html: html).adding("click.js", text: script)
        let warnings = report(zip).warnings.filter { $0.code == .remoteURLInScript }.map(\.message)
        XCTAssertEqual(warnings, ["https://api.example.com/feed.json in click.js: a load from it is blocked on devices"])
        XCTAssertTrue(BundleContents.isClickTag("https://x.example/", in: "clickTag = 'https://x.example/'"))
        XCTAssertFalse(BundleContents.isClickTag("https://x.example/", in: "fetch('https://x.example/')"))
        XCTAssertFalse(BundleContents.isClickTag("https://x.example/", in: "clickCount = 'https://x.example/'"))
    }
}
