@testable import CreativeBundle
import XCTest

/// The small readers of the bundle checks: CSS `url()` and `@import`, script literals, entry
/// names, the refresh URL and reference resolution.
final class ScannerTests: XCTestCase {
    func testCSSURLsAndImports() {
        let css = """
        @import "a.css"; @IMPORT url('b.css') screen; @import url(c.css);
        .x { background: URL( "d.png" ) no-repeat, url(e\\.png); }
        /* url(commented.png) @import "no.css"; */
        .y::after { content: "url(in-a-string.png)"; }
        .z { background-image: url(data:image/png;base64,AA==); mask: url( f.svg#id ) }
        .esc { background: url(\\67 .png); } .my-url(x) {}
        """
        XCTAssertEqual(CSSScanner.urls(in: css),
                       ["a.css", "b.css", "c.css", "d.png", "e.png", "data:image/png;base64,AA==", "f.svg#id", "g.png"])
    }

    func testCSSScannerEndsOnUnterminatedInput() {
        XCTAssertEqual(CSSScanner.urls(in: "a { background: url(\"x.png"), ["x.png"])
        XCTAssertEqual(CSSScanner.urls(in: "/* open comment url(x.png)"), [])
        XCTAssertEqual(CSSScanner.urls(in: "@import"), [])
        XCTAssertEqual(CSSScanner.urls(in: "url("), [""])
        XCTAssertEqual(CSSScanner.urls(in: "\\"), [])
    }

    func testScriptLiterals() {
        let script = """
        // fetch("https://in-a-comment.example")
        /* 'http://block-comment.example' */
        var a = "https://api.example.com/x", b = 'http://b.example', c = `HTTPS://c.example/${id}`;
        var d = "see https://not-at-start.example", e = "it\\'s https://x", f = '//protocol.example';
        """
        XCTAssertEqual(ScriptScanner.remoteURLs(in: script),
                       ["https://api.example.com/x", "http://b.example", "HTTPS://c.example/${id}"])
    }

    func testEntryNames() {
        XCTAssertNil(EntryName.unsafeReason(Array("css/style.css".utf8)))
        XCTAssertNil(EntryName.unsafeReason(Array("images/..logo.png".utf8)))
        for bad in ["../x", "a/../../x", "a/..", "/abs", "a\\b", "C:x", "c:/x", ""] {
            XCTAssertNotNil(EntryName.unsafeReason(Array(bad.utf8)), bad)
        }
        XCTAssertNotNil(EntryName.unsafeReason([0x61, 0, 0x62]))
        XCTAssertNotNil(EntryName.unsafeReason([0x61, 0xFF]))
        XCTAssertTrue(EntryName.isIgnored("__MACOSX/._a.png"))
        XCTAssertTrue(EntryName.isIgnored("images/.DS_Store"))
        XCTAssertFalse(EntryName.isIgnored("MACOSX.png"))
        XCTAssertEqual(EntryName.fileExtension("a/b.Min.JS"), "js")
        XCTAssertEqual(EntryName.fileExtension(".hidden"), "")
    }

    func testRefreshURL() {
        XCTAssertEqual(HTMLDocument.refreshURL("5; url=next.html"), "next.html")
        XCTAssertEqual(HTMLDocument.refreshURL("0;URL='http://x.example/'"), "http://x.example/")
        XCTAssertEqual(HTMLDocument.refreshURL("3, other.html"), "other.html")
        XCTAssertNil(HTMLDocument.refreshURL("30"))
    }

    func testUnknownElementsKeepTheirNames() throws {
        // The name of an element gumbo does not know is read from the source text while it
        // lives (a fuzz finding: the text had been freed before the tree was walked).
        let document = try HTMLDocument(bytes: Array("<x-banner src=\"a.png\"></x-banner><Custom-Tag data=b.bin>".utf8))
        XCTAssertEqual(document.references.map(\.place), ["<x-banner src>", "<custom-tag data>"])
        XCTAssertEqual(document.references.map(\.url), ["a.png", "b.bin"])
    }

    func testReferenceVerdicts() {
        let files: Set<String> = ["index.html", "css/a.css", "images/logo.png", "images/my logo.png"]
        func verdict(_ url: String, from: String = "index.html", link: Bool = false) -> ReferenceVerdict {
            BundleReference.verdict(url, from: from, isLink: link, files: files)
        }
        XCTAssertEqual(verdict("images/logo.png"), .loads)
        XCTAssertEqual(verdict("../images/logo.png?v=1", from: "css/a.css"), .loads)
        XCTAssertEqual(verdict("/images/logo.png"), .loads)
        XCTAssertEqual(verdict("images/my%20logo.png#frag"), .loads)
        XCTAssertEqual(verdict("#anchor"), .loads)
        XCTAssertEqual(verdict("data:image/png;base64,AA"), .loads)
        XCTAssertEqual(verdict("javascript:go()", link: true), .loads)
        XCTAssertEqual(verdict("javascript:go()"), .javascript)
        XCTAssertEqual(verdict("images/gone.png"), .missing("images/gone.png"))
        XCTAssertEqual(verdict("logo.png", from: "css/a.css"), .missing("css/logo.png"))
        XCTAssertEqual(verdict("../../x.png"), .missing("../../x.png"))
        for remote in ["https://x.example/a.png", "HTTP://x.example", "//cdn.example/x.js", "ftp://x", "file:///etc/passwd"] {
            guard case .blocked = verdict(remote) else { return XCTFail(remote) }
        }
    }
}
