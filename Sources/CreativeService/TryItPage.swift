import CreativeCore
import CreativeImaging

/// `GET /`: a page where a person tries an upload before submitting it, for any product
/// (banner, interstitial, companion). It posts the file to `/v1/validate` and shows the report
/// beside the picture, its warnings drawn where they are (`regions`); a rejection shows its reason
/// and, for a near miss, the accepted size it nearly is; a file `fix` can make upload-ready has a
/// Fix it button (`/v1/fix`, then the fixed file checked as an upload of its own, with its changes
/// and a download link). For a valid file it runs `/v1/process`
/// and shows every device slot the upload is served in, grouped by device class and orientation:
/// each in a simple device frame at its screen's aspect, the letterbox hatched, the fill share,
/// the encoding and bytes served; interstitials with their safe area and close-button square; a
/// click opens the render at 1:1 device pixels. Slots where another size is served say which.
/// One self-contained page from the binary: inline style and script allowed by their hashes in
/// a Content-Security-Policy, no framework, no outside requests. File names and report text are
/// inserted with `textContent`, never as markup. Behind `--token-file` the page asks for the
/// token once (after the first 401) and keeps it in `sessionStorage`; the page itself holds
/// nothing secret and needs no token.
enum TryItPage {
    /// The route's path.
    static let path = "/"

    static func page(_ request: Request, _ context: ServiceContext) throws(ServiceError) -> Response {
        var response = Response(contentType: "text/html; charset=utf-8", body: body)
        response.headers = headers
        return response
    }

    static let style = """
    body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b2330;margin:0;background:#f6f8fb}
    main{max-width:1100px;margin:0 auto;padding:24px}
    h1{font-size:26px;margin:0 0 8px}h2{font-size:21px;margin:28px 0 8px}h3{font-size:16px;margin:16px 0 6px}
    .lead,.muted{color:#3b4656}
    fieldset{border:1px solid #d9dee7;background:#fff;margin:12px 0;padding:8px 16px;display:flex;flex-wrap:wrap;gap:4px 20px}
    legend{font-weight:600;padding:0 4px}fieldset label{display:inline-flex;align-items:center;gap:6px;min-height:32px}
    #drop{display:block;border:2px dashed #5b6676;background:#fff;padding:24px;text-align:center;border-radius:6px}
    #drop.over{border-color:#0b3d91;background:#eef2f8}
    #drop input{display:block;margin:12px auto 0;font:inherit;max-width:100%}
    input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid #b35c00;outline-offset:2px}
    form{background:#fff;border:1px solid #d9dee7;padding:12px 16px;margin:16px 0}
    form input{font:inherit;padding:6px;border:1px solid #5b6676;max-width:100%}
    form button,#zoom-close{font:inherit;font-weight:600;padding:6px 18px;color:#fff;background:#0b3d91;border:2px solid #0b3d91;border-radius:4px;cursor:pointer}
    #status{font-weight:600}
    .verdict{font-size:19px;font-weight:600;overflow-wrap:anywhere}.valid{color:#1d6b32}.rejected{color:#a3140f}
    dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;background:#fff;border:1px solid #d9dee7;padding:10px 16px}
    dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere;min-width:0}
    .upload{display:flex;flex-wrap:wrap;gap:16px;margin:16px 0;align-items:flex-start}.upload figure{flex:2 1 320px;margin:0;min-width:0}
    button.fixit{font:inherit;font-weight:600;padding:6px 18px;margin:4px 0 8px;color:#fff;background:#0b3d91;border:2px solid #0b3d91;border-radius:4px;cursor:pointer}
    button.fixit:disabled{opacity:.6;cursor:progress}.fixnote ol{padding-left:20px;margin:4px 0}.fixnote li{overflow-wrap:anywhere}
    .side{flex:1 1 260px;min-width:0}.findings{padding-left:20px;margin:4px 0}.findings li{margin:6px 0;overflow-wrap:anywhere}
    .pic{position:relative;display:block;max-width:100%;line-height:0}.pic img{display:block;width:100%;height:auto}
    .artwork .pic{background-image:linear-gradient(45deg,#e7ebf1 25%,transparent 25%,transparent 75%,#e7ebf1 75%),linear-gradient(45deg,#e7ebf1 25%,#fff 25%,#fff 75%,#e7ebf1 75%);background-size:16px 16px;background-position:0 0,8px 8px;outline:1px solid #9aa4b2}
    .mark{position:absolute;box-sizing:border-box;border:2px solid #c4001a;box-shadow:0 0 0 1px #fff;min-width:3px;min-height:3px}
    .nearbox{position:absolute;box-sizing:border-box;border:2px dashed #0b3d91;box-shadow:0 0 0 2px #fff}
    .badge{display:inline-block;min-width:18px;padding:0 4px;margin-right:6px;border-radius:9px;background:#a3140f;color:#fff;font:700 12px/18px system-ui,sans-serif;text-align:center}
    .badge.onpic{position:absolute;width:auto;height:auto;margin:2px}
    .nearmiss{background:#fff4d6;border-left:4px solid #7a5200;padding:8px 12px}
    code{font:13px ui-monospace,"DejaVu Sans Mono",monospace;background:#eef2f8;padding:1px 4px}
    .summary{font-size:17px;background:#fff;border:1px solid #d9dee7;padding:10px 16px}
    .slots,.others{list-style:none;padding:0;margin:0}.slots{display:flex;flex-wrap:wrap;gap:12px;margin:0 0 12px}.slots>li{flex:1 1 340px;min-width:0}.slots.screens>li{flex:0 1 260px}.slots.screens>li.wide{flex-basis:460px}.others li{margin:4px 0;color:#3b4656;overflow-wrap:anywhere}
    .slot{margin:0;background:#fff;border:1px solid #d9dee7;padding:10px}.views{display:flex;gap:14px;align-items:flex-end;flex-wrap:wrap}
    .frame{position:relative;flex:none;background:#fff;border:6px solid #1b2330;border-radius:14px;overflow:hidden}.frame.tall{width:84px}.frame.wide{width:170px}
    .spot{position:absolute;left:0;right:0;bottom:0;background:#d6dbe3}.spot img{display:block;width:100%;height:100%}
    button.zoom{display:block;flex:1 1 200px;min-width:0;padding:0;border:0;background:none;cursor:zoom-in;text-align:left}
    .render-box{background:#d6dbe3;outline:1px solid #5b6676}.render-box img{height:100%}
    .screen{border:6px solid #1b2330;border-radius:16px;overflow:hidden}.screen.tall{max-width:240px}.screen.wide{max-width:440px}
    .hatch{position:absolute;background:repeating-linear-gradient(135deg,rgba(27,35,48,.55) 0 2px,rgba(255,255,255,.35) 2px 7px)}
    .safe{position:absolute;box-sizing:border-box;border:2px dashed #0b3d91}
    .close{position:absolute;box-sizing:border-box;border:2px solid #c4001a;background:rgba(196,0,26,.25)}
    figcaption{font-size:14px;color:#3b4656;line-height:1.5;margin-top:6px;overflow-wrap:anywhere}figcaption b{color:#1b2330}
    .error{color:#a3140f}
    #zoom{max-width:calc(100vw - 24px);max-height:calc(100vh - 24px);padding:12px;border:1px solid #5b6676;box-sizing:border-box;overflow:auto}
    #zoom::backdrop{background:rgba(27,35,48,.6)}#zoom img{display:block;max-width:none}
    a{color:#0b3d91}
    .scroll{overflow-x:auto;max-width:100%;background:#fff;border:1px solid #d9dee7}
    #campaign{border-collapse:collapse;min-width:100%}#campaign th,#campaign td{text-align:left;padding:4px 10px;border-bottom:1px solid #d9dee7;white-space:nowrap}
    .creatives{padding-left:20px}.creatives li{overflow-wrap:anywhere}
    @media (max-width:700px){main{padding:12px}.frame.tall{width:60px}.frame.wide{width:110px}}
    """

    static let html: String = {
        let choices = Product.allCases.enumerated().map { index, product in
            "<label><input type=\"radio\" name=\"product\" value=\"\(product.rawValue)\"\(index == 0 ? " checked" : "")>"
                + "\(TextFormat.markupEscaped(product.title))</label>"
        }.joined()
        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
            + "<title>Try an upload</title><style>\(style)</style></head><body><main>\n"
            + "<h1>Try an upload</h1>\n<p class=\"lead\">See, before submitting, whether the artwork is accepted, "
            + "why not, and how it looks on phones and tablets in every slot it is served in. PNG, JPEG, GIF or WebP, "
            + "static. The file is checked by this service and kept nowhere.</p>\n"
            + "<fieldset id=\"product\"><legend>Product</legend>\(choices)</fieldset>\n<p id=\"sizes\" class=\"muted\"></p>\n"
            + "<label id=\"drop\" for=\"file\">Drop an image here, or choose one (several: one campaign, and which "
            + "of them serves each slot):"
            + "<input type=\"file\" id=\"file\" multiple accept=\"image/png,image/jpeg,image/gif,image/webp,.zip,application/zip\"></label>\n"
            + "<form id=\"token-form\" hidden><label for=\"token\">Access token of this service</label> "
            + "<input id=\"token\" type=\"password\" autocomplete=\"off\"> <button type=\"submit\">Use token</button>"
            + "<p class=\"muted\">Kept in this tab only (session storage) and sent to this service alone.</p></form>\n"
            + "<p id=\"status\" role=\"status\"></p>\n<section id=\"result\" aria-label=\"Result\"></section>\n"
            + "<dialog id=\"zoom\" aria-labelledby=\"zoom-caption\"><p><button type=\"button\" id=\"zoom-close\">Close</button> "
            + "<span id=\"zoom-caption\"></span></p><img id=\"zoom-img\" alt=\"The render at 1:1 device pixels\"></dialog>\n"
            + "<noscript><p>This page needs JavaScript. Without it: <code>POST /v1/validate</code> with the file as body.</p></noscript>\n"
            + "<script>\(script)</script>\n</main></body></html>\n"
    }()

    static let body = Array(html.utf8)

    /// `'sha256-...'` of a text, as CSP names an inline script or style sheet.
    static func cspHash(_ text: String) -> String {
        let hex = Array(Checksum.sha256(Array(text.utf8)).utf8)
        var bytes: [UInt8] = []
        var index = 0
        while index + 1 < hex.count {
            func nibble(_ c: UInt8) -> UInt8 { c >= UInt8(ascii: "a") ? c - UInt8(ascii: "a") + 10 : c - UInt8(ascii: "0") }
            bytes.append(nibble(hex[index]) << 4 | nibble(hex[index + 1]))
            index += 2
        }
        return "'sha256-\(Base64.encode(bytes))'"
    }

    /// Only this page's own script and style run; requests (`fetch`) go to this service alone;
    /// renders are shown from the `blob:` URLs the script makes; nothing else loads (no font,
    /// frame, worker, plug-in or manifest: `default-src 'none'`); nothing may frame the page or
    /// send a form elsewhere.
    static let headers: [(String, String)] = [
        (SecurityHeaders.name, "default-src 'none'; script-src \(cspHash(script)); style-src \(cspHash(style)); "
            + "img-src blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
    ]
}
