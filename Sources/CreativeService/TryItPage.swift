import CreativeCore
import CreativeImaging

/// `GET /`: a page where a person tries an upload before submitting it. It posts the file to
/// `/v1/validate` and shows the report (errors and warnings with their messages, the size);
/// for a valid file, renders into a few device slots from `/v1/render` and a link to the
/// preview sheet from `/v1/process`. One self-contained page from the binary: inline style and
/// script allowed by their hashes in a Content-Security-Policy, no framework, no outside
/// requests. File names and report text are inserted with `textContent`, never as markup.
/// Behind `--token-file` the page asks for the token once (after the first 401) and keeps it in
/// `sessionStorage`; the page itself holds nothing secret and needs no token.
enum TryItPage {
    /// The route's path.
    static let path = "/"

    /// The anchored device slots the page renders a valid upload into: a small and a large
    /// phone, an Android phone and a tablet, portrait, from the one device plan.
    static let slots: [DeviceSlot] = {
        let wanted = ["iPhone SE", "iPhone 15", "Android Pixel", "iPad Air"]
        let portrait = DevicePlan.anchoredAssignments(candidates: Catalog.adaptiveSizes)
            .map(\.deviceSlot).filter { $0.orientation == .portrait }
        return wanted.compactMap { name in portrait.first { $0.device.name == name } }
    }()

    static func page(_ request: Request, _ context: ServiceContext) throws(ServiceError) -> Response {
        try request.query.check(allowed: [])
        var response = Response(contentType: "text/html; charset=utf-8", body: body)
        response.headers = headers
        return response
    }

    static let style = """
    body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b2330;margin:0;background:#f6f8fb}
    main{max-width:960px;margin:0 auto;padding:24px}
    h1{font-size:26px;margin:0 0 8px}h2{font-size:19px;margin:24px 0 8px}h3{font-size:16px;margin:16px 0 6px}
    .lead,.muted{color:#3b4656}
    #drop{display:block;border:2px dashed #5b6676;background:#fff;padding:24px;text-align:center;border-radius:6px}
    #drop.over{border-color:#0b3d91;background:#eef2f8}
    #drop input{display:block;margin:12px auto 0;font:inherit;max-width:100%}
    input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid #b35c00;outline-offset:2px}
    form{background:#fff;border:1px solid #d9dee7;padding:12px 16px;margin:16px 0}
    form input{font:inherit;padding:6px;border:1px solid #5b6676;max-width:100%}
    button{font:inherit;font-weight:600;padding:6px 18px;color:#fff;background:#0b3d91;border:2px solid #0b3d91;border-radius:4px;cursor:pointer}
    #status{font-weight:600}
    .verdict{font-size:19px;overflow-wrap:anywhere}.valid{color:#1d6b32}.rejected{color:#a3140f}
    dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;background:#fff;border:1px solid #d9dee7;padding:10px 16px}
    dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
    ul.findings{padding-left:20px}ul.findings li{margin:4px 0;overflow-wrap:anywhere}
    code{font:13px ui-monospace,"DejaVu Sans Mono",monospace;background:#eef2f8;padding:1px 4px}
    .renders{list-style:none;padding:0;display:flex;flex-direction:column;gap:12px}
    .renders figure{margin:0}.renders img{display:block;max-width:100%;height:auto;background-image:linear-gradient(45deg,#e7ebf1 25%,transparent 25%,transparent 75%,#e7ebf1 75%),linear-gradient(45deg,#e7ebf1 25%,#fff 25%,#fff 75%,#e7ebf1 75%);background-size:16px 16px;background-position:0 0,8px 8px;outline:1px solid #9aa4b2}
    figcaption{font-size:14px;color:#3b4656}
    a{color:#0b3d91}
    @media (max-width:700px){main{padding:12px}}
    """

    /// Every piece of caller or server text goes in through `textContent` (`el`), never as markup.
    static let script = """
    (function(){
    'use strict';
    var KEY='creative-tool-token',pending=null,urls=[],run=0;
    function $(id){return document.getElementById(id)}
    function el(tag,text,cls){var e=document.createElement(tag);if(text!==undefined&&text!==null)e.textContent=String(text);if(cls)e.className=cls;return e}
    function say(t){$('status').textContent=t}
    function auth(){var t=sessionStorage.getItem(KEY);return t?{'Authorization':'Bearer '+t}:{}}
    function post(path,file){return fetch(path,{method:'POST',body:file,headers:auth(),cache:'no-store'}).then(function(r){
      if(r.status===401){sessionStorage.removeItem(KEY);var e=new Error('token');e.auth=true;throw e}return r})}
    function problem(r){return r.json().then(function(j){var e=j&&j.error||{};return (e.code||('HTTP '+r.status))+': '+(e.message||'')},function(){return 'HTTP '+r.status})}
    function clear(){urls.forEach(function(u){URL.revokeObjectURL(u)});urls=[];var r=$('result');while(r.firstChild)r.removeChild(r.firstChild);return r}
    function row(dl,k,v){dl.appendChild(el('dt',k));dl.appendChild(el('dd',v))}
    function findings(box,title,list,cls){if(!list||!list.length)return;box.appendChild(el('h3',title));var ul=el('ul',null,'findings');
      list.forEach(function(f){var li=el('li',null,cls);li.appendChild(el('code',f.code,'code'));li.appendChild(document.createTextNode(' '));li.appendChild(el('span',f.message,'message'));ul.appendChild(li)});box.appendChild(ul)}
    function report(box,name,j){
      var v=el('p',name+': '+(j.valid?'valid':'rejected'),'verdict '+(j.valid?'valid':'rejected'));v.id='verdict';box.appendChild(v);
      var dl=el('dl');row(dl,'file',name);row(dl,'format',j.format||'unknown');
      row(dl,'dimensions',j.width&&j.height?j.width+' x '+j.height+' px':'unknown');row(dl,'bytes',j.bytes);
      row(dl,'size',j.size?j.size+(j.size_class?' ('+j.size_class+')':''):'not an accepted size');box.appendChild(dl);
      findings(box,'Errors',j.errors,'error');findings(box,'Warnings',j.warnings,'warning')}
    function renders(box,file,mine){box.appendChild(el('h3','Renders'));var ul=el('ul',null,'renders');ul.id='renders';box.appendChild(ul);
      return Promise.all([].map.call(document.querySelectorAll('#slots li'),function(s){
        var li=el('li'),fig=el('figure'),cap=el('figcaption',s.textContent+': rendering...');fig.appendChild(cap);li.appendChild(fig);ul.appendChild(li);
        var q='/v1/render?slot='+encodeURIComponent(s.getAttribute('data-slot'))+'&scale='+encodeURIComponent(s.getAttribute('data-scale'));
        return post(q,file).then(function(r){if(!r.ok)return problem(r).then(function(t){throw new Error(t)});return r.blob()}).then(function(b){
          if(mine!==run)return;var u=URL.createObjectURL(b);urls.push(u);var img=el('img');img.alt='The upload in '+s.textContent;
          img.width=Number(s.getAttribute('data-width'));img.src=u;fig.insertBefore(img,cap);cap.textContent=s.textContent},
          function(e){if(e.auth)throw e;cap.textContent=s.textContent+': '+e.message})}))}
    function b64(s){var bin=atob(s),a=new Uint8Array(bin.length);for(var i=0;i<bin.length;i++)a[i]=bin.charCodeAt(i);return a}
    function preview(box,file,name,mine){var p=el('p','Preview sheet: preparing...');p.id='preview';box.appendChild(p);
      return post('/v1/process?filename='+encodeURIComponent(name),file).then(function(r){if(!r.ok)return problem(r).then(function(t){throw new Error(t)});return r.json()}).then(function(j){
        if(mine!==run)return;var f=(j.files||[]).filter(function(f){return f.name==='preview.png'})[0];if(!f)throw new Error('no preview sheet');
        var u=URL.createObjectURL(new Blob([b64(f.base64)],{type:'image/png'}));urls.push(u);p.textContent='';
        var a=el('a','Preview sheet (every device slot, PNG)');a.id='preview-link';a.href=u;a.target='_blank';a.rel='noopener';p.appendChild(a)},
        function(e){if(e.auth)throw e;p.textContent='Preview sheet: '+e.message})}
    function check(file){
      if(!file)return;var mine=++run,name=file.name||'upload',box=clear();pending=file;say('Checking '+name+'...');
      post('/v1/validate?filename='+encodeURIComponent(name),file).then(function(r){if(!r.ok)return problem(r).then(function(t){throw new Error(t)});return r.json()}).then(function(j){
        if(mine!==run)return;report(box,name,j);say(name+': '+(j.valid?'valid':'rejected'));
        if(!j.valid){pending=null;return}
        return Promise.all([renders(box,file,mine),preview(box,file,name,mine)]).then(function(){if(mine===run){pending=null;say(name+': valid; renders ready')}})
      }).catch(function(e){if(mine!==run)return;if(e.auth){ask();return}pending=null;say(name+': '+e.message)})}
    function ask(){var f=$('token-form');f.hidden=false;say('This service needs an access token.');$('token').focus()}
    $('token-form').addEventListener('submit',function(ev){ev.preventDefault();var t=$('token').value.trim();if(!t)return;
      sessionStorage.setItem(KEY,t);$('token').value='';$('token-form').hidden=true;if(pending)check(pending)});
    $('file').addEventListener('change',function(){check(this.files[0])});
    var d=$('drop');['dragenter','dragover'].forEach(function(n){d.addEventListener(n,function(ev){ev.preventDefault();d.classList.add('over')})});
    ['dragleave','drop'].forEach(function(n){d.addEventListener(n,function(){d.classList.remove('over')})});
    d.addEventListener('drop',function(ev){ev.preventDefault();var f=ev.dataTransfer&&ev.dataTransfer.files[0];if(f)check(f)});
    })();
    """

    static let html: String = {
        var items = ""
        for slot in slots {
            let label = "\(slot.device.name) \(slot.orientation.rawValue), \(slot.slot.points) pt @\(TextFormat.scale(slot.slot.scale))x"
            items += "<li data-slot=\"\(slot.slot.points)\" data-scale=\"\(TextFormat.scale(slot.slot.scale))\" "
                + "data-width=\"\(slot.slot.points.width)\">\(TextFormat.markupEscaped(label))</li>"
        }
        let sizes = Catalog.entries.map(\.size.description).joined(separator: ", ")
        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
            + "<title>Try a banner upload</title><style>\(style)</style></head><body><main>\n"
            + "<h1>Try a banner upload</h1>\n<p class=\"lead\">See, before submitting, whether the artwork is accepted, "
            + "why not, and how it looks in device slots. Accepted sizes: \(sizes) pixels; PNG, JPEG, GIF or WebP, "
            + "static. The file is checked by this service and kept nowhere.</p>\n"
            + "<label id=\"drop\" for=\"file\">Drop an image here, or choose one:"
            + "<input type=\"file\" id=\"file\" accept=\"image/png,image/jpeg,image/gif,image/webp\"></label>\n"
            + "<form id=\"token-form\" hidden><label for=\"token\">Access token of this service</label> "
            + "<input id=\"token\" type=\"password\" autocomplete=\"off\"> <button type=\"submit\">Use token</button>"
            + "<p class=\"muted\">Kept in this tab only (session storage) and sent to this service alone.</p></form>\n"
            + "<p id=\"status\" role=\"status\"></p>\n<section id=\"result\" aria-label=\"Result\"></section>\n"
            + "<h2>Device slots shown</h2>\n<ul id=\"slots\">\(items)</ul>\n"
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
