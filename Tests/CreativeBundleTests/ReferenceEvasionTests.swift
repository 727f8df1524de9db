@testable import CreativeBundle
import CreativeCore
import CreativeImaging
import CreativeTestSupport
import XCTest

/// Remote loads written the ways a browser still reads them: CSS escapes, every CSS function that
/// takes a URL, `<iframe srcdoc>`, tabs and newlines inside a URL; and entry names that differ only
/// in their Unicode form.
final class ReferenceEvasionTests: XCTestCase {
    private func errors(_ zip: BundleZip) -> [ValidationCode] {
        Validator.validate(zip.bytes(), fileName: "evasive.zip").errors.map(\.code)
    }

    func testCSSEscapesAreDecodedBeforeMatching() {
        let css = #"""
        .a { background: u\72l(https://a.example/x.png); }
        .b { background: \75 rl("https://b.example/x.png"); }
        .c { background: \55\52\4C(https://c.example/x.png); }
        @\69mport "https://d.example/x.css";
        @IMPOR\54  url(https://e.example/x.css);
        .f { background: url("ht\
        tps://f.example/x.png"); }
        .g { background: url(ht\74ps://g.example/x.png); }
        """#
        XCTAssertEqual(CSSScanner.urls(in: css), ["https://a.example/x.png", "https://b.example/x.png",
                                                  "https://c.example/x.png", "https://d.example/x.css",
                                                  "https://e.example/x.css", "https://f.example/x.png",
                                                  "https://g.example/x.png"])
    }

    func testEveryCSSFunctionThatTakesAURLIsRead() {
        let css = #"""
        .a { background-image: image-set("https://a.example/1x.png" 1x, url(b.png) 2x); }
        .c { background-image: -webkit-image-set('https://c.example/x.png' 1x, "d.png" 2x); }
        @font-face { src: src("https://e.example/font.woff2"); }
        .f { background-image: IMAGE-SET(url("f.png") type("image/png")); }
        .g { content: "image-set('no.png')"; } .h-image-set("no2.png") {}
        """#
        XCTAssertEqual(CSSScanner.urls(in: css), ["https://a.example/1x.png", "b.png", "https://c.example/x.png",
                                                  "d.png", "https://e.example/font.woff2", "f.png"])
    }

    func testTabsAndNewlinesInAURLAreRemovedBeforeItsSchemeIsRead() {
        let files: Set<String> = ["index.html"]
        for url in ["ht\ttps://x.example/a.png", "h\nttp://x.example/a.png", "https\r://x.example", " \thttps://x.example",
                    "/\\cdn.example/a.js", "\\/cdn.example/a.js", "\u{1}https://x.example"] {
            guard case .blocked = BundleReference.verdict(url, from: "index.html", isLink: false, files: files) else {
                return XCTFail(url.debugDescription)
            }
        }
        XCTAssertEqual(BundleReference.verdict("java\tscript:go()", from: "index.html", isLink: false, files: files),
                       .javascript)
    }

    func testEscapedURLFunctionsInStyleAttributesAndStyleSheetsAreBlocked() throws {
        XCTAssertEqual(errors(try BundleCorpus.clean(html: BundleCorpus.html(
            body: #"<div style="background: u\72l(https://x.example/bg.png)"></div>"#))), [.remoteResourceBlocked])
        XCTAssertEqual(errors(try BundleCorpus.clean().adding("css/more.css", text: #"@\69mport "https://x.example/a.css";"#)),
                       [.remoteResourceBlocked])
        XCTAssertEqual(errors(try BundleCorpus.clean().adding("css/more.css",
                                                              text: #".x { background: image-set("https://x.example/a.png" 1x) }"#)),
                       [.remoteResourceBlocked])
        XCTAssertEqual(errors(try BundleCorpus.clean(html: BundleCorpus.html(body: "<img src=\"ht&#9;tps://x.example/a.png\">"))),
                       [.remoteResourceBlocked])
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

    func testEveryAttributeThatMakesABrowserFetchIsChecked() throws {
        for body in ["<table background=\"https://x.example/bg.png\"><tr><td>x</td></tr></table>",
                     "<svg><image xlink:href=\"https://x.example/a.png\"/></svg>",
                     "<form action=\"https://x.example/f\"><button formaction=\"https://x.example/g\">go</button></form>",
                     "<a href=\"#\" ping=\"images/logo.png https://x.example/p\">x</a>"] {
            let report = Validator.validate(try BundleCorpus.clean(html: BundleCorpus.html(body: body)).bytes(), fileName: "a.zip")
            XCTAssertEqual(Set(report.errors.map(\.code)), [.remoteResourceBlocked], body)
        }
        let manifest = try BundleCorpus.clean(html: BundleCorpus.html().replacingOccurrences(
            of: "<html>", with: "<html manifest=\"https://x.example/app.appcache\">"))
        XCTAssertEqual(errors(manifest), [.remoteResourceBlocked])
    }

    func testEntryNamesInNFCAndNFDAreDuplicates() throws {
        let composed = "js/caf\u{E9}.js", decomposed = "js/cafe\u{301}.js"
        XCTAssertNotEqual(Array(composed.utf8), Array(decomposed.utf8))
        let zip = try BundleCorpus.clean().adding(composed, text: "var a;").adding(decomposed, text: "var b;")
        let report = Validator.validate(zip.bytes(), fileName: "a.zip")
        XCTAssertEqual(report.errors.map(\.code), [.duplicateEntry])
        XCTAssertTrue(report.errors.first?.message.contains("two Unicode forms") ?? false, report.errors.first?.message ?? "")
    }
}
