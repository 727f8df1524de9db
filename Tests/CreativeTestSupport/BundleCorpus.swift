import CreativeCore
import CreativeImaging

/// HTML5 bundles made in the tests: a clean 320x50 bundle, and pieces to break it with.
public enum BundleCorpus {
    /// A solid PNG of a size.
    public static func png(_ width: Int, _ height: Int) throws -> [UInt8] {
        try Fixtures.save("pngsave_buffer", try Fixtures.solid(width, height, [20, 90, 200]))
    }

    /// An entry HTML: the `ad.size` meta (unless nil), a style sheet, a script, the body.
    public static func html(adSize: String? = "width=320,height=50", head: String = "", body: String = "") -> String {
        let meta = adSize.map { "<meta name=\"ad.size\" content=\"\($0)\">" } ?? ""
        return """
        <!doctype html>
        <html><head><meta charset="utf-8">\(meta)
        <link rel="stylesheet" href="css/style.css"><script src="js/ad.js"></script>\(head)</head>
        <body><a href="javascript:clickThrough()"><img src="images/logo.png" srcset="images/logo.png 1x, \
        images/logo@2x.png 2x" alt="logo"></a>\(body)</body></html>
        """
    }

    public static let css = """
    @font-face { font-family: Brand; src: url("../fonts/brand.woff2") format("woff2"); }
    /* url(https://commented.example/out.png) is a comment */
    body { margin: 0; background: url(../images/logo.png) no-repeat; font-family: Brand; }
    """

    public static let script = """
    // https://example.com in a comment is not a load
    function clickThrough() { window.location = "qartvelo-click:"; }
    """

    /// The clean bundle: index.html, its CSS, script, font and images, and a 960x150 static.png.
    public static func clean(html: String = BundleCorpus.html(), staticImage: [UInt8]? = nil,
                             staticName: String? = "static.png") throws -> BundleZip {
        let zip = BundleZip()
            .adding("index.html", text: html)
            .adding("css/style.css", text: css)
            .adding("js/ad.js", text: script)
            .adding("fonts/brand.woff2", Array("wOF2 font bytes".utf8), .stored)
            .adding("images/logo.png", try png(40, 40))
            .adding("images/logo@2x.png", try png(80, 80))
        guard let staticName else { return zip }
        return zip.adding(staticName, try staticImage ?? png(960, 150))
    }
}
