extension TryItPage {
    /// The page's one script. Every piece of caller or server text goes in through `textContent`
    /// (`el`), never as markup; positions are set through the style object (no style attribute).
    /// A valid upload: `/v1/validate`, then `/v1/process` once, asked for the zip of its files
    /// (stored entries, read here: no base64 and no inline cap; an interstitial's are 8 to 80 MB with its 2x sheet). Several files:
    /// `/v1/campaign`, and a table of every slot with the creative served there.
    static let script = "(function(){\n'use strict';\nvar PLAN=" + TryItPlan.literal + ";\n" + """
    var KEY='creative-tool-token',pending=null,last=null,urls=[],run=0,queue=[],busy=0;
    function start(list){if(!list||!list.length)return;if(list.length>1)campaign([].slice.call(list));else check(list[0])}
    function $(id){return document.getElementById(id)}
    function el(tag,text,cls){var e=document.createElement(tag);if(text!==undefined&&text!==null)e.textContent=String(text);if(cls)e.className=cls;return e}
    function say(t){$('status').textContent=t}
    function product(){return document.querySelector('input[name=product]:checked').value}
    function dims(s){var p=String(s).split('x');return [Number(p[0]),Number(p[1])]}
    function wh(o){return [o.width,o.height]}
    function sz(o){return o?o.width+'x'+o.height:''}
    function pct(x){var n=Math.floor((Math.round(x*10000)+5)/10);return (n/10).toFixed(1)+'%'}
    function bytes(n){return Number(n).toLocaleString('en-US')+' bytes'+(n>=1000?' ('+Math.round(n/1000).toLocaleString('en-US')+' KB)':'')}
    function place(e,x,y,w,h,W,H){e.style.left=(x/W*100)+'%';e.style.top=(y/H*100)+'%';e.style.width=(w/W*100)+'%';e.style.height=(h/H*100)+'%';return e}
    function auth(){var t=sessionStorage.getItem(KEY);return t?{'Authorization':'Bearer '+t}:{}}
    function post(path,file,accept){var h=auth();if(accept)h['Accept']=accept;return fetch(path,{method:'POST',body:file,headers:h,cache:'no-store'}).then(function(r){
      if(r.status===401){sessionStorage.removeItem(KEY);var e=new Error('token');e.auth=true;throw e}return r})}
    function problem(r){return r.json().then(function(j){var e=j&&j.error||{};var x=new Error((e.code||('HTTP '+r.status))+': '+(e.message||''));x.code=e.code;return x},function(){return new Error('HTTP '+r.status)})}
    function json(r){if(!r.ok)return problem(r).then(function(e){throw e});return r.json()}
    function url(blob){var u=URL.createObjectURL(blob);urls.push(u);return u}
    function clear(){urls.forEach(function(u){URL.revokeObjectURL(u)});urls=[];queue=[];var r=$('result');while(r.firstChild)r.removeChild(r.firstChild);return r}
    function row(dl,k,v){dl.appendChild(el('dt',k));dl.appendChild(el('dd',v))}
    function unzip(buf){var v=new DataView(buf),n=buf.byteLength,e=n-22,out={};while(e>=0&&v.getUint32(e,true)!==0x06054b50)e--;if(e<0)throw new Error('not a zip');
      var count=v.getUint16(e+10,true),p=v.getUint32(e+16,true);for(var i=0;i<count;i++){if(v.getUint32(p,true)!==0x02014b50)throw new Error('damaged zip');
        var size=v.getUint32(p+24,true),nl=v.getUint16(p+28,true),xl=v.getUint16(p+30,true),cl=v.getUint16(p+32,true),at=v.getUint32(p+42,true);
        var name=new TextDecoder().decode(new Uint8Array(buf,p+46,nl)),start=at+30+v.getUint16(at+26,true)+v.getUint16(at+28,true);
        out[name]=new Uint8Array(buf,start,size);p+=46+nl+xl+cl}return out}
    function b64(s){var bin=atob(s),a=new Uint8Array(bin.length);for(var i=0;i<bin.length;i++)a[i]=bin.charCodeAt(i);return a}
    function sizes(){return PLAN[product()].sizes}
    function showSizes(){var p=PLAN[product()];$('sizes').textContent=p.title+' sizes accepted: '+p.sizes.join(', ')+' pixels.'}
    function nearMiss(w,h){var best=null,gap=1;sizes().forEach(function(s){var d=dims(s),g=Math.max(Math.abs(d[0]-w)/d[0],Math.abs(d[1]-h)/d[1]);if(g<gap){gap=g;best=s}});return gap<=0.05?best:null}
    function report(box,name,j){
      var v=el('p',name+': '+(j.valid?'valid':'rejected'),'verdict '+(j.valid?'valid':'rejected'));v.id='verdict';box.appendChild(v);
      var dl=el('dl');row(dl,'file',name);row(dl,'product',PLAN[product()].title);row(dl,'format',j.format||'unknown');
      var S=j.size_pixels;row(dl,'dimensions',S?S.width+' x '+S.height+' px':'unknown');row(dl,'bytes',j.file_bytes===null||j.file_bytes===undefined?'unknown':bytes(j.file_bytes));
      row(dl,'size',j.size_class?sz(S)+' ('+j.size_class+')':'not an accepted size');box.appendChild(dl)}
    function findings(list,title,items,cls,marks){if(!items||!items.length)return;list.appendChild(el('h3',title));var ol=el('ol',null,'findings');
      items.forEach(function(f){var li=el('li',null,cls);if(f.regions_pixels&&f.regions_pixels.length){li.appendChild(el('span',String(marks.indexOf(f)+1),'badge'))}
        li.appendChild(el('code',f.code,'code'));li.appendChild(document.createTextNode(' '));li.appendChild(el('span',f.message,'message'));ol.appendChild(li)});list.appendChild(ol)}
    function picture(box,file,j){
      var wrap=el('div',null,'upload'),fig=el('figure',null,'artwork'),pic=el('div',null,'pic'),img=el('img'),zip=j.format==='html5';
      img.alt=zip?'The static image of the bundle':'The upload as it is';
      img.onerror=function(){pic.replaceChild(el('p',zip?'The static image of the bundle could not be shown.':'This browser cannot show the file either.','muted'),img)};
      if(!zip)img.src=url(file);
      else if(j.valid&&j.size_pixels)post('/v1/render?format=png&scale=2&slot='+sz(j.size_pixels),file).then(function(q){if(!q.ok)throw new Error('HTTP '+q.status);return q.blob()})
        .then(function(b){img.src=url(b)},function(){img.onerror()});
      else img=el('p','An HTML5 bundle: its static image is shown once the bundle is valid.','muted');
      pic.appendChild(img);fig.appendChild(pic);
      var S=j.size_pixels||{},W=S.width,H=S.height,marks=(j.warnings||[]).concat(j.errors||[]).filter(function(f){return f.regions_pixels&&f.regions_pixels.length});
      if(W&&H){pic.style.maxWidth=Math.min(W,960,Math.round(W*480/H))+'px';marks.forEach(function(f,i){f.regions_pixels.forEach(function(r){
        var m=place(el('span',null,'mark'),r.x,r.y,r.width,r.height,W,H);m.setAttribute('data-code',f.code);m.title=f.code;pic.appendChild(m)});
        var b=place(el('span',String(i+1),'badge onpic'),f.regions_pixels[0].x,f.regions_pixels[0].y,1,1,W,H);pic.appendChild(b)})}
      var cap=el('figcaption',(zip?'The static image of the bundle (what SDKs before 0.6.0 show)':'The upload')+(marks.length?'; outlined in red: where each numbered finding is':''),null);fig.appendChild(cap);wrap.appendChild(fig);
      var side=el('div',null,'side');findings(side,'Errors',j.errors,'error',marks);findings(side,'Warnings',j.warnings,'warning',marks);
      var near=!j.valid&&W&&H&&!j.size_class?nearMiss(W,H):null;
      if(near){var d=dims(near),p=el('p',null,'nearmiss');p.id='near-miss';var dw=W-d[0],dh=H-d[1],off=[];
        if(dw)off.push(Math.abs(dw)+' px '+(dw>0?'wider':'narrower'));if(dh)off.push(Math.abs(dh)+' px '+(dh>0?'taller':'shorter'));
        p.appendChild(el('b','Nearly '+near+'. '));p.appendChild(document.createTextNode('It is '+off.join(' and ')+' than that accepted size: export it at exactly '+near+' px (dashed: '+near+').'));side.appendChild(p);
        var n=place(el('span',null,'nearbox'),0,0,Math.min(d[0],W),Math.min(d[1],H),W,H);n.setAttribute('data-size',near);pic.appendChild(n);
        if(dw>0)pic.appendChild(place(el('span',null,'mark'),d[0],0,dw,H,W,H));if(dh>0)pic.appendChild(place(el('span',null,'mark'),0,d[1],W,dh,W,H))}
      if(!j.valid&&!(j.errors||[]).length)side.appendChild(el('p','Rejected.'));
      if(!zip&&fixable(j))fixButton(side,file,box.getAttribute('data-name')||'upload');
      wrap.appendChild(side);box.appendChild(wrap)}
    // What /v1/fix can change: an upload whose every error is among these, with one of these.
    var FIXES=['dimensions_not_allowed','animated','over_weight_limit','format_not_allowed','cmyk_not_allowed','border_required',
      'heavy_file','not_srgb','exif_orientation','high_bit_depth','metadata_dropped','edge_without_border'];
    function fixable(j){var errors=j.errors||[],all=errors.concat(j.warnings||[]);function can(f){return FIXES.indexOf(f.code)>=0}
      return !!j.format&&errors.every(can)&&all.some(can)}
    function fixButton(side,file,name){var b=el('button','Fix it','fixit');b.type='button';b.id='fix-it';
      side.appendChild(el('p','fix can make an upload-ready file of it: the accepted size, weight, colour, one frame, a border.','muted'));
      b.addEventListener('click',function(){var mine=run;b.disabled=true;say('Fixing '+name+'...');
        post('/v1/fix?product='+product(),file,'application/json').then(json).then(function(f){if(mine!==run)return;
          var ext={jpeg:'jpg'}[f.format]||f.format,dot=name.lastIndexOf('.'),stem=(dot>0?name.slice(0,dot):name)||'upload';
          check(new File([b64(f.base64)],stem+'-fixed.'+ext,{type:'image/'+f.format}),{from:name,changes:f.changes||[]})
        }).catch(function(e){if(mine!==run)return;if(e.auth){ask();return}b.disabled=false;
          var p=el('p','fix refused it: '+e.message,'error');p.id='fix-refused';side.appendChild(p);say('Checked')})});
      side.appendChild(b)}
    function fixNote(box,file,fix){var s=el('section',null,'fixnote');s.id='fix-note';s.appendChild(el('h2','Fixed from '+fix.from));
      var ol=el('ol');fix.changes.forEach(function(c){var li=el('li');li.appendChild(el('code',c.code,'code'));li.appendChild(document.createTextNode(' '+c.message));ol.appendChild(li)});
      s.appendChild(ol);var a=el('a','Download '+file.name);a.id='fix-download';a.href=url(file);a.download=file.name;s.appendChild(a);box.appendChild(s)}
    function drain(){while(busy<2&&queue.length){busy++;queue.shift()().then(function(){busy--;drain()},function(){busy--;drain()})}}
    function renderQuery(P,r){return '/v1/render?format=png&'+(P==='banner'?'slot='+sz(r.slot_points)+'&scale='+r.scale
      :'product='+P+'&device='+encodeURIComponent(r.device)+(P==='interstitial'?'&orientation='+r.orientation:''))}
    function zoom(src,caption){var d=$('zoom'),i=$('zoom-img');$('zoom-caption').textContent=caption;i.style.width='';
      i.onload=function(){i.style.width=(i.naturalWidth/(window.devicePixelRatio||1))+'px'};i.src=src;if(i.complete&&i.naturalWidth)i.onload();d.showModal();$('zoom-close').focus()}
    function slotView(li,P,s,r,files,file,mine){
      var C=wh(r.slot_pixels),c=wh(r.content_pixels),x=r.content_position_pixels.x,y=r.content_position_pixels.y,scr=dims(s.screen),pts=dims(s.points);
      var label=s.device+' · '+(s.orientation==='any'?'':s.orientation+' · ')+s.points+' pt @'+s.scale+'x';
      var fig=el('figure',null,'slot'),rowEl=el('div',null,'views'),btn=el('button',null,'zoom'),pic=el('div',null,'pic render-box'),img=el('img',null,'render');
      fig.setAttribute('data-device',s.device);fig.setAttribute('data-orientation',s.orientation);fig.setAttribute('data-slot-pixels',sz(r.slot_pixels));
      img.alt='The upload in '+label;btn.type='button';btn.setAttribute('aria-label','Open '+label+' at 1:1 device pixels');
      pic.appendChild(img);[[0,0,C[0],y],[0,y+c[1],C[0],C[1]-y-c[1]],[0,y,x,c[1]],[x+c[0],y,C[0]-x-c[0],c[1]]].forEach(function(b){
        if(b[2]>0&&b[3]>0)pic.appendChild(place(el('span',null,'hatch'),b[0],b[1],b[2],b[3],C[0],C[1]))});
      if(s.close){var a=s.safe_area;pic.appendChild(place(el('span',null,'safe'),a[0],a[1],a[2],a[3],C[0],C[1]));
        var k=place(el('span',null,'close'),s.close[0],s.close[1],s.close[2],s.close[3],C[0],C[1]);k.title='the close button covers this square';pic.appendChild(k);
        pic.classList.add('screen');pic.classList.add(scr[0]>scr[1]?'wide':'tall');pic.style.aspectRatio=C[0]+' / '+C[1]}
      else{pic.style.maxWidth=pts[0]+'px';var frame=el('div',null,'frame '+(scr[0]>scr[1]?'wide':'tall')),spot=el('div',null,'spot'),mini=el('img');
        frame.style.aspectRatio=scr[0]+' / '+scr[1];spot.style.height=Math.max(2,pts[1]/scr[1]*100)+'%';mini.alt='';spot.appendChild(mini);frame.appendChild(spot);
        frame.setAttribute('aria-hidden','true');rowEl.appendChild(frame)}
      btn.appendChild(pic);rowEl.appendChild(btn);fig.appendChild(rowEl);
      var cap=el('figcaption');cap.appendChild(el('b',label));cap.appendChild(el('span',' · fills '+pct(r.fill_share)+' of the '+(s.close?'screen':'slot')+(r.fill_share<1?' (hatched: letterbox)':'')+(s.close?'; dashed: the safe area; red: the close button':''),'fill'));
      cap.appendChild(el('span',' · served as '+r.encoding+', '+bytes(r.file_bytes),'encoding'));
      (r.warnings||[]).forEach(function(w){var u=el('span',' · '+w.code+': enlarged '+w.factor+'x, looks blurred','upscaled');u.setAttribute('data-factor',w.factor);cap.appendChild(u)});
      fig.appendChild(cap);li.appendChild(fig);
      function show(u){if(mine!==run)return;img.src=u;if(mini)mini.src=u;btn.onclick=function(){zoom(u,label+' at 1:1 device pixels ('+sz(r.slot_pixels)+' px)')}}
      var mini=s.close?null:rowEl.querySelector('.spot img');
      var f=files[r.file],type=r.format==='png'?'image/png':'image/'+r.format;if(f&&f.bytes){show(url(new Blob([f.bytes],{type:type})));return}
      if(f&&f.base64){show(url(new Blob([b64(f.base64)],{type:type})));return}
      queue.push(function(){if(mine!==run)return Promise.resolve();return post(renderQuery(P,r),file).then(function(q){if(!q.ok)return problem(q).then(function(e){throw e});return q.blob()})
        .then(function(b){show(url(b))},function(e){if(!e.auth)cap.appendChild(el('span',' · not shown: '+e.message,'error'))})});drain()}
    function slots(box,P,j,m,files,file,mine){
      var plan=PLAN[P].plans[sz(j.size_pixels)]||[],byKey={},rs=m.renders||[];rs.forEach(function(r){byKey[r.device+'|'+r.orientation]=r});
      var worst=null,best=null;rs.forEach(function(r){if(!worst||r.fill_share<worst.fill_share)worst=r;if(!best||r.fill_share>best.fill_share)best=r});
      var sum=el('p',null,'summary');sum.id='summary';var words='Served in '+rs.length+' of '+plan.length+' device slots';
      if(worst)words+='; worst fill '+pct(worst.fill_share)+' ('+worst.device+' '+worst.orientation+'), best '+pct(best.fill_share)+' ('+best.device+' '+best.orientation+')';
      var w=j.warnings||[];words+='; '+(w.length?w.length+' warning'+(w.length>1?'s':'')+': '+w.map(function(f){return f.code.replace(/_/g,' ')}).join(', '):'no warnings')+'.';
      sum.textContent=words;box.appendChild(sum);var list=el('div');list.id='renders';box.appendChild(list);
      [['phone','portrait','Phones, portrait'],['phone','landscape','Phones, landscape'],['tablet','portrait','Tablets, portrait'],['tablet','landscape','Tablets, landscape'],['phone','any','Phones'],['tablet','any','Tablets']].forEach(function(g){
        var here=plan.filter(function(s){return s.class===g[0]&&s.orientation===g[1]});if(!here.length)return;
        var sec=el('section',null,'group');sec.setAttribute('data-group',g[0]+'-'+g[1]);var n=here.filter(function(s){return byKey[s.device+'|'+s.orientation]}).length;
        sec.appendChild(el('h3',g[2]+': served in '+n+' of '+here.length));var ul=el('ul',null,P==='interstitial'?'slots screens':'slots'),other=el('ul',null,'others');
        here.forEach(function(s){var r=byKey[s.device+'|'+s.orientation];if(r){var li=el('li',null,s.close&&g[1]==='landscape'?'wide':null);ul.appendChild(li);slotView(li,P,s,r,files,file,mine)}
          else other.appendChild(el('li',s.device+(s.orientation==='any'?'':' '+s.orientation)+' · '+s.points+' pt @'+s.scale+'x: here '+s.served+' would be served instead','other'))});
        if(ul.firstChild)sec.appendChild(ul);if(other.firstChild)sec.appendChild(other);list.appendChild(sec)})}
    function preview(box,files,file,name,query,mine,m){var p=el('p','Preview sheet: preparing...');p.id='preview';box.appendChild(p);
      var pv=(m&&m.preview)||{},pn=pv.file||'preview.png',jpeg=pv.format==='jpeg',type=jpeg?'image/jpeg':'image/png';
      function link(b){if(mine!==run)return;p.textContent='';var a=el('a','Preview sheet (every device slot, '+(jpeg?'JPEG':'PNG')+')');a.id='preview-link';a.href=url(b);a.target='_blank';a.rel='noopener';p.appendChild(a)}
      var f=files[pn];if(f&&f.bytes){link(new Blob([f.bytes],{type:type}));return Promise.resolve()}
      if(f&&f.base64){link(new Blob([b64(f.base64)],{type:type}));return Promise.resolve()}
      return post(query+'&file='+encodeURIComponent(pn),file).then(function(r){if(!r.ok)return problem(r).then(function(e){throw e});return r.blob()}).then(link,function(e){if(e.auth)throw e;p.textContent='Preview sheet: '+e.message})}
    function process(box,file,name,j,mine){var P=product(),query='/v1/process?product='+P+'&filename='+encodeURIComponent(name);say('Rendering every device slot...');
      // The files as one zip (no base64, no inline cap), read here: the job runs once.
      return post(query,file,'application/zip').then(function(r){if(!r.ok)return problem(r).then(function(x){throw x});return r.arrayBuffer()}).then(function(buf){
          var z=unzip(buf),files=[];Object.keys(z).forEach(function(k){if(k!=='manifest.json')files.push({file:k,bytes:z[k]})});
          return {manifest:JSON.parse(new TextDecoder().decode(z['manifest.json'])),files:files}}).then(function(a){
        if(mine!==run)return;var files={};(a.files||[]).forEach(function(f){files[f.file]=f});box.appendChild(el('h2','Where it is served'));
        slots(box,P,j,a.manifest||{},files,file,mine);return preview(box,files,file,name,query,mine,a.manifest)})}
    function check(file,fix){
      if(!file)return;last=file;var mine=++run,name=file.name||'upload',box=clear();pending=file;say('Checking '+name+'...');
      box.setAttribute('data-name',name);
      post('/v1/validate?product='+product()+'&filename='+encodeURIComponent(name),file).then(json).then(function(j){
        if(mine!==run)return;report(box,name,j);if(fix)fixNote(box,file,fix);picture(box,file,j);
        if(!j.valid){pending=null;say('Checked');return}
        return process(box,file,name,j,mine).then(function(){if(mine===run){pending=null;say('Renders ready')}})
      }).catch(function(e){if(mine!==run)return;if(e.auth){ask();return}pending=null;say(name+': '+e.message)})}
    function campaign(files){
      last=files;var mine=++run,P=product(),box=clear();pending=files;say('Checking '+files.length+' files as one campaign...');
      var form=new FormData();files.forEach(function(f,i){form.append('creative'+i,f,f.name||('upload-'+(i+1)))});
      post('/v1/campaign?product='+P,form).then(json).then(function(c){if(mine!==run)return;pending=null;
        var names={};box.appendChild(el('h2','The campaign'));var ul=el('ul',null,'creatives');ul.id='campaign-creatives';
        (c.creatives||[]).forEach(function(k){names[k.name]=k.file;var ok=k.valid&&!k.failure;var li=el('li',k.file+': '+(ok?'valid, served in '+k.renders+' slot'+(k.renders===1?'':'s')
          :k.failure?'failed: '+k.failure.code+': '+k.failure.message:'rejected: '+(k.codes||[]).join(', ')),ok?'valid':'rejected');li.setAttribute('data-name',k.name);ul.appendChild(li)});box.appendChild(ul);
        box.appendChild(el('h2','Which creative serves each slot'));var wrap=el('div',null,'scroll'),t=el('table'),hr=el('tr');t.id='campaign';
        ['Device','Orientation','Slot','Served','Fill','Weight'].forEach(function(x){hr.appendChild(el('th',x))});t.appendChild(hr);
        (c.slots||[]).forEach(function(s){var tr=el('tr');tr.setAttribute('data-device',s.device);tr.setAttribute('data-orientation',s.orientation);tr.setAttribute('data-served',sz(s.artwork_pixels));
          [s.device,s.orientation,sz(s.slot_points)+' pt @'+s.scale+'x',(s.creative?names[s.creative]+' ':'given with with: ')+sz(s.artwork_pixels),pct(s.fill_share),s.file_bytes?bytes(s.file_bytes):'']
            .forEach(function(x){tr.appendChild(el('td',x))});t.appendChild(tr)});
        wrap.appendChild(t);box.appendChild(wrap);say('Campaign ready')
      }).catch(function(e){if(mine!==run)return;if(e.auth){ask();return}pending=null;say('Campaign: '+e.message)})}
    function ask(){var f=$('token-form');f.hidden=false;say('This service needs an access token.');$('token').focus()}
    $('token-form').addEventListener('submit',function(ev){ev.preventDefault();var t=$('token').value.trim();if(!t)return;
      sessionStorage.setItem(KEY,t);$('token').value='';$('token-form').hidden=true;if(pending)start(Array.isArray(pending)?pending:[pending])});
    // The choice is taken, then the picker emptied: the next choice replaces it (also the same file again).
    $('file').addEventListener('change',function(){var list=[].slice.call(this.files);this.value='';start(list)});
    [].forEach.call(document.querySelectorAll('input[name=product]'),function(r){r.addEventListener('change',function(){showSizes();if(last)start(Array.isArray(last)?last:[last])})});
    $('zoom-close').addEventListener('click',function(){$('zoom').close()});showSizes();
    var d=$('drop');['dragenter','dragover'].forEach(function(n){d.addEventListener(n,function(ev){ev.preventDefault();d.classList.add('over')})});
    ['dragleave','drop'].forEach(function(n){d.addEventListener(n,function(){d.classList.remove('over')})});
    d.addEventListener('drop',function(ev){ev.preventDefault();if(ev.dataTransfer)start(ev.dataTransfer.files)});
    })();
    """
}
