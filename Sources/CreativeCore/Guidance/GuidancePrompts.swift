/// The guidance page's last section: the AI prompt of every accepted size, each in a `<pre>`
/// (selectable without JavaScript) with a Copy button and a "Copied" status that screen readers
/// announce (`role="status"`). Placeholders (`[headline]`) are marked; every piece of text is
/// escaped, so user text shows as typed and copies as typed.
struct PromptSection {
    let prompts: [RenderedPrompt]

    init(_ prompts: [RenderedPrompt]) { self.prompts = prompts }

    /// Styles of the section (contrast at least 4.5:1 everywhere, WCAG AA).
    static let style = """
    .prompt{background:#fff;border:1px solid #d9dee7;padding:12px 16px;margin:0 0 16px}
    .prompt h3{font-size:17px;margin:0 0 8px}
    .tools{display:flex;align-items:center;gap:12px;margin:0 0 8px;min-height:36px}
    .prompt pre{white-space:pre-wrap;overflow-wrap:anywhere;font:13px/1.5 ui-monospace,"DejaVu Sans Mono",monospace;margin:0;background:#f6f8fb;border:1px solid #e7ebf1;padding:10px}
    .prompt pre:focus{outline:3px solid #b35c00;outline-offset:2px}
    mark{background:#fff0a8;color:#1b2330;border-bottom:2px dashed #7a5200}
    button.copy{font:inherit;font-weight:600;padding:6px 18px;min-height:36px;color:#fff;background:#0b3d91;border:2px solid #0b3d91;border-radius:4px;cursor:pointer}
    button.copy:hover{background:#082c69}
    button.copy:focus-visible{outline:3px solid #b35c00;outline-offset:2px}
    .status{color:#1d6b32;font-weight:600}
    .offscreen{position:fixed;left:-9999px;top:0;opacity:0}
    """

    /// The Copy buttons: shown only when this runs (hidden otherwise, the text stays selectable).
    /// Copies the `<pre>`'s text through the Clipboard API, or, where that is missing or refused
    /// (an `http:` page that is not loopback, a sandboxed frame), through a hidden textarea and
    /// `document.execCommand('copy')`.
    static let script = """
    (function(){
    function say(s,t){s.textContent='';setTimeout(function(){s.textContent=t},50)}
    function fallback(text){var a=document.createElement('textarea');a.value=text;a.setAttribute('readonly','');a.className='offscreen';document.body.appendChild(a);a.select();var ok=false;try{ok=document.execCommand('copy')}catch(e){}a.remove();return ok}
    document.querySelectorAll('button[data-copy]').forEach(function(b){b.hidden=false;b.addEventListener('click',function(){
    var id=b.getAttribute('data-copy'),text=document.getElementById(id).textContent,s=document.getElementById(id+'-status');
    function end(ok){say(s,ok?'Copied':'Copy failed: select the text and copy it')}
    var c=navigator.clipboard;if(c&&c.writeText){c.writeText(text).then(function(){end(true)},function(){end(fallback(text))})}else{end(fallback(text))}
    })})
    })();
    """

    func render() -> String {
        guard !prompts.isEmpty else { return "" }
        var html = GuidancePage.heading(GuidancePage.prompts) + "<p class=\"lead\">One prompt per size for an AI image generator. "
            + Self.copyInstruction(prompts) + "It asks for the exact size, safe area and text height above.</p>\n"
        for prompt in prompts {
            let id = "prompt-\(prompt.size)"
            let heading = "\(prompt.size) px"
            html += "<section class=\"prompt\" aria-labelledby=\"\(id)-title\"><h3 id=\"\(id)-title\">\(heading) "
                + "<span class=\"muted\">\(prompt.facts.aspect) · \(TextFormat.markupEscaped(prompt.facts.entry.purpose))</span></h3>\n"
                + "<div class=\"tools\"><button type=\"button\" class=\"copy\" data-copy=\"\(id)\" hidden "
                + "aria-label=\"Copy the \(heading) prompt\">Copy</button>"
                + "<span class=\"status\" role=\"status\" id=\"\(id)-status\"></span></div>\n"
                // The line break after <pre> is dropped by every HTML parser: the text starts as it is.
                + "<pre id=\"\(id)\" tabindex=\"0\">\n"
            for piece in prompt.pieces {
                let text = Self.escaped(piece.text)
                html += piece.isPlaceholder ? "<mark>\(text)</mark>" : text
            }
            html += "</pre></section>\n"
        }
        return html + "<script>\(Self.script)</script>\n"
    }

    /// What to do with a prompt: replace the placeholders the prompts hold (only those: a text
    /// given with `--brand` is no placeholder), or, with none, copy it as it is.
    static func copyInstruction(_ prompts: [RenderedPrompt]) -> String {
        let present = Set(prompts.flatMap { $0.pieces.filter(\.isPlaceholder).map(\.text) })
        let marked = BannerPrompt.placeholders.filter { present.contains($0.text) }
            .map { "<mark>\(TextFormat.markupEscaped($0.text))</mark>" }
        guard !marked.isEmpty else { return "Copy it as it is: it holds every text you gave. " }
        return "Copy it, and replace \(marked.joined(separator: ", ")) where \(marked.count == 1 ? "it is" : "they are") marked. "
    }

    /// Markup escaping, and a carriage return as `&#13;` (HTML parsers turn a bare one into a
    /// line feed), so the page's text is the prompt's, character for character.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in TextFormat.markupEscaped(text).unicodeScalars {
            if scalar == "\r" { out += "&#13;" } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
