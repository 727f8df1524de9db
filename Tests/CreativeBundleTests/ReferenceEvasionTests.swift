@testable import CreativeBundle
import CreativeCore
import CreativeImaging
import CreativeTestSupport
import XCTest

/// Remote loads written the ways a browser still reads them: `<iframe srcdoc>`.
final class ReferenceEvasionTests: XCTestCase {
    private func errors(_ zip: BundleZip) -> [ValidationCode] {
        Validator.validate(zip.bytes(), fileName: "evasive.zip").errors.map(\.code)
    }

    func testIframeSrcdocIsCheckedAsHTML() throws {
        let remote = try BundleCorpus.clean(html: BundleCorpus.html(
            body: #"<iframe srcdoc="<img src='https://x.example/pixel.gif'>"></iframe>"#))
        let report = Validator.validate(remote.bytes(), fileName: "a.zip")
        XCTAssertEqual(report.errors.map(\.code), [.remoteResourceBlocked])
        XCTAssertTrue(report.errors.first?.message.contains("(<img src> in <iframe srcdoc> in index.html)") ?? false,
                      report.errors.first?.message ?? "")
        let nested = #"<iframe srcdoc="<iframe srcdoc=&quot;<div style='background:url(https://x.example/a.png)'></div>&quot;></iframe>"></iframe>"#
        XCTAssertEqual(errors(try BundleCorpus.clean(html: BundleCorpus.html(body: nested))), [.remoteResourceBlocked])
        // Its relative references resolve against the file that holds it.
        XCTAssertEqual(errors(try BundleCorpus.clean(html: BundleCorpus.html(
            body: #"<iframe srcdoc="<img src='images/logo.png'>"></iframe>"#))), [])
    }
}
