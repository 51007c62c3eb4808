/// The client script and default stylesheet, served by the app.
enum ClientAssets {
    /// The client: sends clicks, input values, Return and Escape; applies patches; reconnects with backoff.
    static let script = #"""
        (function(){
        var id=document.body.dataset.scene,ws,tries=0,B={checked:1,disabled:1,selected:1,hidden:1,readonly:1};
        var sw=window.__swiftuiweb={patches:0,last:0,open:false,opens:0};
        if(!window.name)window.name='swiftuiweb-'+id;
        function send(o){if(ws&&ws.readyState===1){ws.send(JSON.stringify(o));return true;}return false;}
        sw.ping=function(){return send({t:'ping',id:''});};
        var lastPhase='';
        function phase(force){var p=document.visibilityState==='hidden'?'background':document.hasFocus()?'active':'inactive';
         if(force||p!==lastPhase){if(send({t:'phase',id:p}))lastPhase=p;}}
        // Light or dark: the window's preferredColorScheme (#root's data-scheme) or else the system's, which the
        // server hears (for @Environment(\.colorScheme)) on connect and whenever it changes.
        var darkQ=window.matchMedia?matchMedia('(prefers-color-scheme: dark)'):null;
        function scheme(report){var r=document.getElementById('root'),p=r&&r.dataset.scheme,
         d=p?p==='dark':!!(darkQ&&darkQ.matches);document.documentElement.classList.toggle('sw-dark',d);
         if(report)send({t:'scheme',id:'',v:darkQ&&darkQ.matches?'dark':'light'});}
        if(darkQ&&darkQ.addEventListener)darkQ.addEventListener('change',function(){scheme(true);});scheme(false);
        document.addEventListener('visibilitychange',function(){phase(false);});
        window.addEventListener('focus',function(){phase(false);});window.addEventListener('blur',function(){phase(false);});
        // Notifications: the page reports whether it may show them; the server asks for permission (after a
        // click here) and sends the ones to show, each with a tag so several windows show it once.
        function notes(){send({t:'notifications',id:'',v:window.Notification?Notification.permission:'unsupported'});}
        function connect(){
         var opened=false;
         ws=new WebSocket((location.protocol==='https:'?'wss:':'ws:')+'//'+location.host+'/_swiftuiweb/ws?w='+id);
         ws.onopen=function(){opened=true;tries=0;sw.open=true;sw.opens++;document.documentElement.classList.remove('sw-offline');phase(true);scheme(true);notes();
          document.querySelectorAll('[data-window]').forEach(function(b){b._want=null;});
          document.querySelectorAll('[data-geometry]').forEach(function(g){g._geo=null;});wins();geos();};
         ws.onmessage=function(m){var ps=JSON.parse(m.data);
          if(ps.rebind){id=ps.rebind;history.replaceState(null,'','/?w='+id);location.reload();return;}
          if(ps.reload){location.reload();return;}
          if(ps.pong){if(sw.onpong)sw.onpong();return;}
          var t0=performance.now();anim=null;for(var i=0;i<ps.length;i++)apply(ps[i]);anim=null;
          if(sw.lost){var f=document.getElementById(sw.lost);if(f){var a=document.activeElement;if(!a||a===document.body)f.focus({preventScroll:true});sw.lost=null;}}
          wins();geos();scheme(false);sw.applyMs=performance.now()-t0;sw.patches++;sw.last=performance.now();if(sw.onpatch)sw.onpatch();};
         ws.onclose=function(){sw.open=false;document.documentElement.classList.add('sw-offline');tries++;
          if(!opened)signedOut();
          setTimeout(connect,Math.min(10000,100*Math.pow(2,tries))*(0.8+0.4*Math.random()));};
        }
        function signedOut(){
         // A refused socket may mean the browser is signed out (the app's session key changed): the sign-in
         // page answers 200 then (a signed-in browser gets a redirect), and reloading shows it. A server that
         // is down answers nothing; the socket keeps retrying.
         fetch('/_swiftuiweb/sign-in',{redirect:'manual',cache:'no-store'}).then(function(r){
          if(r.status===200)location.reload();},function(){});
        }
        // Animated changes: a batch that starts with {"op":"animate"} (withAnimation) animates every style change
        // for its duration; views with a transition (data-tr) that a batch inserts or removes play it, as do
        // those inside an element whose animation(_:value:) fired (data-animates).
        var anim=null,root=document.documentElement;
        function animOf(el){if(anim)return anim;var a=el&&el.closest&&el.closest('[data-animates]:not([data-animates=""])');
         if(!a)return null;var p=a.dataset.animates.split(' ');return {ms:parseFloat(p[0])*1000,curve:p[1]};}
        function trs(el){var l=Array.prototype.slice.call(el.querySelectorAll?el.querySelectorAll('[data-tr]'):[]);
         if(el.matches&&el.matches('[data-tr]'))l.unshift(el);return l;}
        function enter(el,a){trs(el).forEach(function(t){if(!t.style.getPropertyValue('--sw-tr'))t.style.setProperty('--sw-tr',a.ms+'ms');
         if(!t.style.getPropertyValue('--sw-tc'))t.style.setProperty('--sw-tc',a.curve);t.classList.add('sw-enter');
         t.addEventListener('animationend',function(){t.classList.remove('sw-enter');},{once:true});});}
        function apply(q){
         if(q.op==='animate'){anim=q;root.style.setProperty('--sw-dur',q.ms+'ms');root.style.setProperty('--sw-curve',q.curve);
          root.classList.add('sw-animating');clearTimeout(sw.animT);sw.animT=setTimeout(function(){root.classList.remove('sw-animating');},q.ms+50);return;}
         if(q.op==='title'){document.title=q.text;return;}
         if(q.op==='focus'){if(q.id){var g=document.getElementById(q.id);if(g)g.focus();}
          else{var h=document.activeElement;if(h&&h!==document.body)h.blur();}return;}
         if(q.op==='open'){window.open(q.url,q.name||'_blank');return;}
         if(q.op==='navigate'){location.assign(q.url);return;}
         if(q.op==='close'){window.close();return;}
         if(q.op==='notify'){if(window.Notification&&Notification.permission==='granted'){
          var n=new Notification(q.title,{body:q.body,tag:q.tag});n.onclick=function(){window.focus();n.close();};}return;}
         if(q.op==='asknotify'){if(!window.Notification){notes();return;}
          Notification.requestPermission().then(notes,notes);return;}
         if(q.op==='download'){var d=document.createElement('a');d.href=q.url;d.download='';document.body.appendChild(d);d.click();d.remove();return;}
         var el=document.getElementById(q.id);if(!el)return;
         if(q.op==='replace'){var a=document.activeElement,aid=a&&a.id;el.outerHTML=q.html;
          if(aid){var f=document.getElementById(aid);if(f&&f!==a)f.focus();}}
         else if(q.op==='text'){el.textContent=q.text;}
         else if(q.op==='attr'){var n=q.name,v=q.value;
          if(B[n]){el.toggleAttribute(n,v==='true');el[n]=v==='true';}
          else{el.setAttribute(n,v);if(n==='value'){if(el.value!==v)el.value=v;el._sent=v;}}}
         else if(q.op==='remove'){var a=document.activeElement;if(a&&a.id&&el.contains(a))sw.lost=a.id;
          var an=animOf(el),ts=an?trs(el):[];
          if(!ts.length){el.remove();return;}
          // The leaving view plays its transition, then goes; it loses its ids at once so patches never reach it.
          el.removeAttribute('id');el.querySelectorAll('[id]').forEach(function(c){c.removeAttribute('id');});el.style.pointerEvents='none';
          ts.forEach(function(t){if(!t.style.getPropertyValue('--sw-tr'))t.style.setProperty('--sw-tr',an.ms+'ms');
           if(!t.style.getPropertyValue('--sw-tc'))t.style.setProperty('--sw-tc',an.curve);t.classList.add('sw-exit');});
          setTimeout(function(){el.remove();},an.ms+30);}
         else if(q.op==='insert'){var ref=q.before?document.getElementById(q.before):null;
          if(el.namespaceURI==='http://www.w3.org/2000/svg'){if(ref)ref.insertAdjacentHTML('beforebegin',q.html);else el.insertAdjacentHTML('beforeend',q.html);}
          else{var t=document.createElement('template');t.innerHTML=q.html;var added=Array.prototype.slice.call(t.content.children);
           el.insertBefore(t.content,ref);var an=animOf(el);if(an)added.forEach(function(n){enter(n,an);});}}
        }
        // Long lists: each windowed ForEach has two spacers around the rows the server rendered. Size the spacers
        // from the rows' measured height, and ask for the rows around what is visible (a screen above and below)
        // when the view leaves what is rendered.
        var winQ=0;
        function wins(){winQ=0;var vh=innerHeight,t0=performance.now();
         document.querySelectorAll('[data-window]').forEach(function(b){
          var P=b.dataset.window,e=document.getElementById(P+'~a');if(!e)return;
          var first=+b.dataset.first,shown=+b.dataset.shown,count=+b.dataset.count;
          var br=b.getBoundingClientRect(),er=e.getBoundingClientRect();
          var h=shown>0&&er.top>br.bottom?(er.top-br.bottom)/shown:(b._h||44);b._h=h;
          var hb=first*h,ha=Math.max(0,count-first-shown)*h;
          if(Math.abs(br.height-hb)>.5)b.style.height=hb+'px';if(Math.abs(er.height-ha)>.5)e.style.height=ha+'px';
          var sc=b._sc;if(sc===undefined){sc=null;for(var p=b.parentElement;p&&p!==document.body;p=p.parentElement){
           var o=getComputedStyle(p).overflowY;if(o==='auto'||o==='scroll'){sc=p;break;}}b._sc=sc;}
          var vt=0,vb=vh;if(sc){var r=sc.getBoundingClientRect();vt=Math.max(0,r.top);vb=Math.min(vh,r.bottom);}
          var top0=b.getBoundingClientRect().top;
          var from=Math.min(count,Math.max(0,Math.floor((vt-top0)/h))),to=Math.min(count,Math.max(from,Math.ceil((vb-top0)/h)));
          var screen=Math.max(1,to-from);
          if(from>=first&&to<=first+shown&&shown<=4*screen+20)return;
          var lo=Math.max(0,from-screen),hi=Math.min(count,to+screen),want=lo+','+(hi-lo);
          if(b._want===want)return;b._want=want;send({t:'window',id:P,a:lo,d:hi-lo});});sw.winsMs=performance.now()-t0;}
        function queueWins(){if(!winQ)winQ=requestAnimationFrame(wins);}
        document.addEventListener('scroll',queueWins,true);window.addEventListener('resize',queueWins);
        sw.wins=wins;
        // GeometryReader: the page reports each reader's size and place when they change (rounded to a pixel).
        var geoSeen=new WeakSet(),geoObs=window.ResizeObserver?new ResizeObserver(function(es){es.forEach(function(e){geo(e.target);});}):null;
        function geo(el){if(!el.id)return;var r=el.getBoundingClientRect(),v=[Math.round(r.width),Math.round(r.height),
         Math.round(r.left+scrollX),Math.round(r.top+scrollY)].join(',');if(el._geo===v)return;el._geo=v;send({t:'geometry',id:el.id,v:v});}
        // ViewThatFits: show the first option that fits the container along its axes (the last when none does).
        var fitObs=window.ResizeObserver?new ResizeObserver(function(es){es.forEach(function(e){fit(e.target);});}):null,fitSeen=new WeakSet();
        function fit(c){var o=Array.prototype.slice.call(c.children),ax=c.dataset.fits,pick=o.length-1;
         o.forEach(function(x){x.classList.add('sw-fit-measure');x.classList.remove('sw-fit-shown');});
         for(var i=0;i<o.length;i++){var r=o[i].firstElementChild;if(!r)continue;
          if((ax.indexOf('h')<0||r.scrollWidth<=c.clientWidth+.5)&&(ax.indexOf('v')<0||!c.clientHeight||r.scrollHeight<=c.clientHeight+.5)){pick=i;break;}}
         o.forEach(function(x,i){x.classList.remove('sw-fit-measure');if(i===pick)x.classList.add('sw-fit-shown');});}
        function fits(){document.querySelectorAll('[data-fits]').forEach(function(c){if(!fitSeen.has(c)){fitSeen.add(c);if(fitObs)fitObs.observe(c);}fit(c);});}
        sw.fits=fits;
        // Slider(onEditingChanged:): an edit starts when the slider is pressed or a key moves it, and ends at its change.
        function editing(e,v){var t=e.target;if(!t.dataset||!t.dataset.editing)return;if(v==='1'){if(t._editing)return;t._editing=true;}
         else{if(!t._editing)return;t._editing=false;}send({t:'input',id:t.dataset.editing,v:v});}
        document.addEventListener('pointerdown',function(e){editing(e,'1');});
        document.addEventListener('keydown',function(e){if(/^(Arrow|Page|Home|End)/.test(e.key))editing(e,'1');});
        document.addEventListener('change',function(e){editing(e,'0');});
        // minimumScaleFactor: a text wider than its container shrinks its font, down to the factor.
        function shrinks(){document.querySelectorAll('[data-min-scale]').forEach(function(el){var box=el.parentElement;if(!box)return;
         if(el._applied&&el.style.fontSize===el._applied)el.style.fontSize=el._orig;el._orig=el.style.fontSize;el._applied=null;
         var avail=box.clientWidth,w=el.scrollWidth;if(!avail||w<=avail)return;var f=Math.max(parseFloat(el.dataset.minScale)||1,avail/w);
         el._applied=(parseFloat(getComputedStyle(el).fontSize)*f)+'px';el.style.fontSize=el._applied;});}
        sw.shrinks=shrinks;window.addEventListener('resize',function(){requestAnimationFrame(shrinks);});
        function geos(){fits();shrinks();document.querySelectorAll('[data-geometry]').forEach(function(el){
         if(!geoSeen.has(el)){geoSeen.add(el);if(geoObs)geoObs.observe(el);}geo(el);});}
        var mac=/Mac|iPhone|iPad/.test(navigator.platform||'');
        function closeMenus(){document.querySelectorAll('.sw-menu.sw-open').forEach(function(m){m.classList.remove('sw-open');
         var t=m.querySelector('[data-menu]');if(t)t.setAttribute('aria-expanded','false');});}
        function openMenu(m,focusFirst){closeMenus();m.classList.add('sw-open');var t=m.querySelector(':scope>[data-menu]');
         t.setAttribute('aria-expanded','true');if(focusFirst){var f=m.querySelector('.sw-menu-items [role^=menuitem]:not([disabled])');if(f)f.focus();}}
        function field(){var a=document.activeElement;return a&&(a.tagName==='INPUT'||a.tagName==='TEXTAREA')?a:(sw.lastField||null);}
        function edit(f,fn){if(!f)return;var s=f.selectionStart,e=f.selectionEnd;if(s===e){s=0;e=f.value.length;}
         f.value=f.value.slice(0,s)+fn(f.value.slice(s,e))+f.value.slice(e);f.setSelectionRange(s,e);
         f.dispatchEvent(new Event('input',{bubbles:true}));}
        var client={
         copy:function(){document.execCommand('copy');},cut:function(){document.execCommand('cut');},
         paste:function(){var f=field();if(navigator.clipboard&&f)navigator.clipboard.readText().then(function(t){f.focus();document.execCommand('insertText',false,t);});},
         selectAll:function(){var f=field();if(f){f.focus();f.select();}else document.execCommand('selectAll');},
         print:function(){window.print();},
         fullscreen:function(){if(document.fullscreenElement)document.exitFullscreen();else document.documentElement.requestFullscreen();},
         toggleSidebar:function(){document.documentElement.classList.toggle('sw-no-sidebar');},
         toggleToolbar:function(){document.documentElement.classList.toggle('sw-no-toolbar');},
         upper:function(){edit(field(),function(t){return t.toUpperCase();});},
         lower:function(){edit(field(),function(t){return t.toLowerCase();});},
         capitalize:function(){edit(field(),function(t){return t.replace(/\b\w/g,function(c){return c.toUpperCase();});});},
         open:function(u){window.open(u,'_blank');},
         window:function(u){window.open(u,'swiftuiweb-'+(new URLSearchParams(u.slice(u.indexOf('?')))).get('g'));},
         navigate:function(u){location.assign(u);},
         share:function(a){var d=JSON.parse(a),t=sw.shareFrom;
          function copied(){if(t){t.title='Copied';setTimeout(function(){t.removeAttribute('title');},2000);}}
          function copy(){if(navigator.clipboard)navigator.clipboard.writeText(d.url||d.text||'').then(copied,function(e){sw.shareError=String(e);});}
          // A person who cancels the share sheet (AbortError) chose not to share; anything else falls back to copying.
          if(navigator.share)navigator.share(d).catch(function(e){if(e.name!=='AbortError')copy();});else copy();},
         download:function(u){var a=document.createElement('a');a.href=u;a.download='';document.body.appendChild(a);a.click();a.remove();}
        };
        function activate(t){if(t.disabled)return;closeMenus();
         if(t.dataset.click){send({t:'click',id:t.id});}
         else if(t.dataset.client&&client[t.dataset.client]){sw.shareFrom=t;client[t.dataset.client](t.dataset.arg);}}
        sw.activate=activate;
        document.addEventListener('click',function(e){
         var m=e.target.closest('[data-menu]');
         if(m){e.preventDefault();var menu=m.parentNode;if(menu.classList.contains('sw-open'))closeMenus();else openMenu(menu,false);return;}
         var t=e.target.closest('[data-click],[data-client]');
         if(t){e.preventDefault();var n=+t.dataset.click||1;if(n>1&&e.detail!==n)return;activate(t);return;}
         if(!e.target.closest('.sw-menu'))closeMenus();});
        // Swipe actions on a touch screen: a horizontal swipe towards the other edge reveals a row's actions; with
        // a full swipe allowed, a swipe across most of the row runs the first.
        var swipe=null;
        document.addEventListener('pointerdown',function(e){if(e.pointerType==='mouse')return;var r=e.target.closest('[data-swipe]');
         if(r)swipe={row:r,x:e.clientX,y:e.clientY,dx:0};});
        document.addEventListener('pointermove',function(e){if(!swipe)return;swipe.dx=e.clientX-swipe.x;
         if(Math.abs(e.clientY-swipe.y)>Math.abs(swipe.dx)+10){swipe=null;}});
        document.addEventListener('pointerup',function(){if(!swipe)return;var s=swipe;swipe=null;
         var toward=s.row.dataset.swipe==='trailing'?-s.dx:s.dx,w=s.row.getBoundingClientRect().width;
         document.querySelectorAll('.sw-swipe-open').forEach(function(o){if(o!==s.row)o.classList.remove('sw-swipe-open');});
         if(toward>0.6*w&&s.row.dataset.full==='1'){var b=s.row.querySelector('.sw-swipe-actions [data-click]');s.row.classList.remove('sw-swipe-open');if(b)activate(b);}
         else if(toward>40)s.row.classList.add('sw-swipe-open');else if(toward<-20)s.row.classList.remove('sw-swipe-open');});
        document.addEventListener('pointercancel',function(){swipe=null;});
        // DragGesture: follow a pointer pressed on a [data-drag] view; once it has moved the minimum distance, send
        // its moves (the latest one a frame) and its release, in the view's own coordinates (or the page's).
        var drag=null;
        // Locations move with the pointer from where it was pressed, so a view that follows the drag keeps its translation.
        function dragAt(d,e){if(d.global)return [e.pageX,e.pageY];if(!d.s){var r=d.el.getBoundingClientRect();return [e.clientX-r.left,e.clientY-r.top];}
         return [d.s[0]+e.clientX-d.x,d.s[1]+e.clientY-d.y];}
        function dragSend(d,kind,p){send({t:'drag',id:d.el.id,v:[kind,d.s[0],d.s[1],p[0],p[1]].map(function(n){return typeof n==='number'?Math.round(n*10)/10:n;}).join(',')});}
        document.addEventListener('pointerdown',function(e){var el=e.target.closest('[data-drag]');if(!el||e.button>0)return;
         drag={el:el,min:parseFloat(el.dataset.drag),global:/,g$/.test(el.dataset.drag),x:e.clientX,y:e.clientY,on:false,q:null,f:0,s:null};
         drag.s=dragAt(drag,e);try{el.setPointerCapture(e.pointerId);}catch(x){/* a pointer already released has nothing to capture */}});
        document.addEventListener('pointermove',function(e){var d=drag;if(!d)return;
         if(!d.on&&Math.hypot(e.clientX-d.x,e.clientY-d.y)<d.min)return;d.on=true;d.q=dragAt(d,e);
         if(!d.f)d.f=requestAnimationFrame(function(){d.f=0;if(d.q&&drag===d)dragSend(d,'c',d.q);});});
        function dragEnd(e){var d=drag;drag=null;if(!d||!d.on)return;if(d.f)cancelAnimationFrame(d.f);dragSend(d,'e',dragAt(d,e));}
        document.addEventListener('pointerup',dragEnd);document.addEventListener('pointercancel',dragEnd);
        // TapGesture / SpatialTapGesture: a click with its count and place; Return or Space on the focused view is the
        // whole gesture (its count) at the view's middle.
        function tapAt(t,e,kb){var r=t.getBoundingClientRect(),g=/,g$/.test(t.dataset.tap),n=parseInt(t.dataset.tap,10)||1;
         var x=kb?r.left+r.width/2:e.clientX,y=kb?r.top+r.height/2:e.clientY;if(g){x+=scrollX;y+=scrollY;}else{x-=r.left;y-=r.top;}
         send({t:'tap',id:t.id,v:[kb?n:e.detail||n,Math.round(x*10)/10,Math.round(y*10)/10].join(',')});}
        document.addEventListener('click',function(e){var t=e.target.closest('[data-tap]');if(t&&!t.closest('[inert]'))tapAt(t,e,false);});
        document.addEventListener('keydown',function(e){if(e.key!=='Enter'&&e.key!==' ')return;var t=e.target;
         if(!t.dataset||!t.dataset.tap||/^(BUTTON|A|INPUT|SELECT|TEXTAREA)$/.test(t.tagName))return;e.preventDefault();tapAt(t,e,true);});
        // LongPressGesture: a press held long enough without moving away ('b' when it begins, 'e' when it lasted,
        // 'x' when let go or moved away first).
        var press=null;
        document.addEventListener('pointerdown',function(e){var el=e.target.closest('[data-press]');if(!el||e.button>0)return;
         var a=el.dataset.press.split(','),p={el:el,x:e.clientX,y:e.clientY,max:+a[1]||10,done:false};press=p;
         send({t:'press',id:el.id,v:'b'});p.timer=setTimeout(function(){if(press===p){p.done=true;send({t:'press',id:el.id,v:'e'});}},(+a[0]||0)*1000);});
        function pressOff(){var p=press;press=null;if(!p)return;clearTimeout(p.timer);if(!p.done)send({t:'press',id:p.el.id,v:'x'});}
        document.addEventListener('pointermove',function(e){if(press&&Math.hypot(e.clientX-press.x,e.clientY-press.y)>press.max)pressOff();});
        document.addEventListener('pointerup',pressOff);document.addEventListener('pointercancel',pressOff);
        // MagnifyGesture / RotateGesture: two fingers on the view, or a trackpad's pinch (a wheel with Control held);
        // 'c' with the scale or angle since they began (at most one a frame), 'e' when they end.
        var fingers={},two=null,pinch=null;
        function local(el,x,y){var r=el.getBoundingClientRect();return [Math.round((x-r.left)*10)/10,Math.round((y-r.top)*10)/10];}
        function twoSend(g,kind){['magnify','rotate'].forEach(function(k){var v=k==='magnify'?g.scale:g.angle;if(!g.el.hasAttribute('data-'+k))return;
         var min=parseFloat(g.el.getAttribute('data-'+k))||0;if(!g[k]&&Math.abs(k==='magnify'?v-1:v)<min)return;
         if(kind==='e'&&!g[k])return;g[k]=true;send({t:k,id:g.el.id,v:[kind,Math.round(v*10000)/10000,g.s[0],g.s[1]].join(',')});});}
        function twoQueue(g){if(!g.f)g.f=requestAnimationFrame(function(){g.f=0;if(two===g||pinch===g)twoSend(g,'c');});}
        function spread(){var ps=Object.keys(fingers).map(function(k){return fingers[k];});return ps.length<2?null:
         {d:Math.hypot(ps[1].x-ps[0].x,ps[1].y-ps[0].y),a:Math.atan2(ps[1].y-ps[0].y,ps[1].x-ps[0].x),
          mx:(ps[0].x+ps[1].x)/2,my:(ps[0].y+ps[1].y)/2,el:ps[0].el};}
        document.addEventListener('pointerdown',function(e){if(e.pointerType!=='touch')return;
         var el=e.target.closest('[data-magnify],[data-rotate]');if(!el)return;fingers[e.pointerId]={x:e.clientX,y:e.clientY,el:el};
         var s=spread();if(s&&!two&&s.d>0)two={el:s.el,d0:s.d,a0:s.a,scale:1,angle:0,s:local(s.el,s.mx,s.my),f:0};});
        document.addEventListener('pointermove',function(e){var f=fingers[e.pointerId];if(!f)return;f.x=e.clientX;f.y=e.clientY;
         var s=spread();if(!two||!s)return;two.scale=s.d/two.d0;two.angle=s.a-two.a0;twoQueue(two);});
        function fingerUp(e){if(!fingers[e.pointerId])return;delete fingers[e.pointerId];var g=two;
         if(g&&Object.keys(fingers).length<2){two=null;if(g.f)cancelAnimationFrame(g.f);twoSend(g,'e');}}
        document.addEventListener('pointerup',fingerUp);document.addEventListener('pointercancel',fingerUp);
        document.addEventListener('wheel',function(e){if(!e.ctrlKey)return;var el=e.target.closest('[data-magnify]');if(!el)return;
         e.preventDefault();if(!pinch||pinch.el!==el)pinch={el:el,scale:1,angle:0,s:local(el,e.clientX,e.clientY),f:0};
         var g=pinch;g.scale*=Math.exp(-e.deltaY/100);twoQueue(g);clearTimeout(g.t);
         g.t=setTimeout(function(){if(pinch===g){pinch=null;if(g.f)cancelAnimationFrame(g.f);twoSend(g,'e');}},250);},{passive:false});
        function hover(e,v){var h=e.target.closest('[data-hover]');
         if(h&&!(e.relatedTarget&&h.contains(e.relatedTarget)))send({t:'hover',id:h.id,v:v});}
        document.addEventListener('mouseover',function(e){hover(e,'1');});
        document.addEventListener('mouseout',function(e){hover(e,'0');});
        document.addEventListener('contextmenu',function(e){var t=e.target.closest('[data-context]');if(!t)return;
         var m=document.getElementById(t.dataset.context);if(!m)return;e.preventDefault();closeMenus();sw.contextFrom=t;
         var x=e.clientX,y=e.clientY;if(!x&&!y){var r=t.getBoundingClientRect();x=r.left+8;y=r.bottom;}
         m.style.left=Math.max(0,Math.min(x,innerWidth-240))+'px';m.style.top=Math.max(0,Math.min(y,innerHeight-60))+'px';
         m.classList.add('sw-open');var f=m.querySelector('.sw-menu-items [role^=menuitem]:not([disabled])');if(f)f.focus();});
        document.addEventListener('mouseover',function(e){var m=e.target.closest('.sw-menubar .sw-menu');
         if(m&&!m.classList.contains('sw-open')&&document.querySelector('.sw-menu.sw-open'))openMenu(m,false);});
        // AsyncImage: the page shows the phase its image is in.
        function phaseOf(img,p){var a=img.closest('.sw-async-image');if(a&&a.querySelector('img[data-async]')===img)a.dataset.phase=p;}
        document.addEventListener('load',function(e){var i=e.target;if(!i.dataset||!i.dataset.async)return;
         if(i.dataset.scale)i.style.width=(i.naturalWidth/+i.dataset.scale)+'px';phaseOf(i,'loaded');},true);
        document.addEventListener('error',function(e){if(e.target.dataset&&e.target.dataset.async)phaseOf(e.target,'failed');},true);
        document.querySelectorAll('img[data-async]').forEach(function(i){if(i.complete)phaseOf(i,i.naturalWidth?'loaded':'failed');});
        document.addEventListener('focusout',function(e){if(!e.relatedTarget&&e.target.id&&!e.target.closest('.sw-menubar'))
         setTimeout(function(){var a=document.activeElement;if(!a||a===document.body)send({t:'focus',id:''});},0);});
        document.addEventListener('focusin',function(e){var t=e.target;if(t.tagName==='INPUT'||t.tagName==='TEXTAREA')sw.lastField=t;
         if(t.id&&!t.closest('.sw-menubar'))send({t:'focus',id:t.id});});
        document.addEventListener('change',function(e){var t=e.target;if(!t.dataset||!t.dataset.upload||!t.files.length)return;
         var f=t.files[0];fetch('/_swiftuiweb/upload?w='+id,{method:'POST',body:f,headers:{'X-SwiftUIWeb-Filename':encodeURIComponent(f.name)}})
         .then(function(r){return r.json();}).then(function(j){if(j.w)location.assign('/?w='+j.w);else sw.uploadError=j.error;});t.value='';});
        function keyCode(e){var k=e.key.toLowerCase(),p=[];if(mac?e.metaKey:e.ctrlKey)p.push('mod');if(e.altKey)p.push('alt');
         if(e.shiftKey)p.push('shift');if(e.code&&/^Key[A-Z]$/.test(e.code))k=e.code.slice(3).toLowerCase();
         else if(e.code&&/^Digit[0-9]$/.test(e.code))k=e.code.slice(5);p.push(k);return p.join('+');}
        sw.keyCode=keyCode;
        function hi(c){return c>=0xD800&&c<=0xDBFF;}
        function splice(t){var o=t._sent!==undefined?t._sent:t.defaultValue,v=t.value,p=0,s=0,m=Math.min(o.length,v.length);
         var g=Math.max(0,Math.min(m,(t.selectionStart||0)-64));if(g&&o.substring(0,g)===v.substring(0,g))p=g;
         while(p<m&&o.charCodeAt(p)===v.charCodeAt(p))p++;if(p>0&&hi(o.charCodeAt(p-1)))p--;
         var q=Math.max(0,Math.min(m-p,v.length-(t.selectionEnd||0)-64));if(q&&o.substring(o.length-q)===v.substring(v.length-q))s=q;
         while(s<m-p&&o.charCodeAt(o.length-1-s)===v.charCodeAt(v.length-1-s))s++;
         if(s>0&&hi(v.charCodeAt(v.length-s-1))&&v.length-s-1>=p)s--;
         var del=o.length-p-s,ins=v.slice(p,v.length-s),n=o.length,at=p,C=4000;
         do{var k=Math.min(C,ins.length);if(k<ins.length&&hi(ins.charCodeAt(k-1)))k--;
          send({t:'splice',id:t.id,a:at,d:del,n:n,v:ins.slice(0,k)});n=n-del+k;at+=k;del=0;ins=ins.slice(k);}while(ins.length);
         t._sent=v;}
        document.addEventListener('input',function(e){var t=e.target;
         if(t.dataset&&t.dataset.splice){splice(t);return;}
         if(t.dataset&&t.dataset.input)send({t:'input',id:t.id,v:String(t.type==='checkbox'?t.checked:t.value)});});
        document.addEventListener('keydown',function(e){var t=e.target;
         var open=document.querySelector('.sw-menu.sw-open');
         if(open){var items=Array.prototype.slice.call(open.querySelectorAll('.sw-menu-items [role^=menuitem]:not([disabled])'));
          var i=items.indexOf(document.activeElement),menus=Array.prototype.slice.call(document.querySelectorAll('.sw-menu')),j=menus.indexOf(open);
          if(e.key==='Escape'){e.preventDefault();closeMenus();var mt=open.querySelector('[data-menu]')||sw.contextFrom;if(mt)mt.focus();return;}
          if(e.key==='ArrowDown'&&items.length){e.preventDefault();items[(i+1)%items.length].focus();return;}
          if(e.key==='ArrowUp'&&items.length){e.preventDefault();items[(i-1+items.length)%items.length].focus();return;}
          var inBar=open.closest('.sw-menubar');
          if(inBar){menus=menus.filter(function(m){return inBar.contains(m);});j=menus.indexOf(open);}
          if(inBar&&e.key==='ArrowRight'){e.preventDefault();openMenu(menus[(j+1)%menus.length],true);return;}
          if(inBar&&e.key==='ArrowLeft'){e.preventDefault();openMenu(menus[(j-1+menus.length)%menus.length],true);return;}
          if((e.key==='Enter'||e.key===' ')&&i>=0){e.preventDefault();activate(items[i]);return;}}
         if(t.dataset&&t.dataset.menu&&(e.key==='ArrowDown'||e.key==='Enter'||e.key===' ')){e.preventDefault();openMenu(t.parentNode,true);return;}
         var code=keyCode(e),inField=t.tagName==='INPUT'||t.tagName==='TEXTAREA';
         if(code.indexOf('mod+')===0||code.indexOf('alt+')===0||!inField){
          var s=document.querySelector('[data-shortcut="'+code.replace(/"/g,'')+'"]');
          if(s&&!s.disabled&&!(inField&&(s.dataset.client==='copy'||s.dataset.client==='cut'||s.dataset.client==='paste'||s.dataset.client==='selectAll'))){
           e.preventDefault();activate(s);return;}}
         if(e.key==='Enter'&&t.dataset&&t.dataset.submit){e.preventDefault();send({t:'submit',id:t.id});}
         if(e.key==='Escape'){var o=document.querySelectorAll('[data-escape]');if(o.length)send({t:'click',id:o[o.length-1].dataset.escape});}});
        connect();
        })();
        """#

    /// The default look: light, system font, grouped lists and forms, macOS-like controls.
    static let css = """
        :root{--sw-accent:#0066cc;--sw-label:#1d1d1f;--sw-secondary:#6e6e73;--sw-tertiary:#aeaeb2;--sw-quaternary:#d1d1d6;\
        --sw-bg:#f5f5f7;--sw-surface:#fff;--sw-separator:#e3e3e8;--sw-fill:#e9e9ee;--sw-radius:10px}\
        *{box-sizing:border-box}\
        body{margin:0;font:15px/1.45 -apple-system,BlinkMacSystemFont,system-ui,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;\
        color:var(--sw-label);background:var(--sw-bg);-webkit-font-smoothing:antialiased}\
        .sw-window{min-height:100vh;display:flex;flex-direction:column}\
        .sw-windowbar{display:flex;align-items:center;gap:8px;height:44px;flex:none;padding:0 10px;background:rgba(236,236,240,.92);\
        border-bottom:1px solid #d8d8dd;position:sticky;top:0;z-index:10;backdrop-filter:blur(12px)}\
        .sw-window-title{flex:1;text-align:center;font-size:13px;font-weight:600;color:#3a3a3c;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}\
        html.sw-offline .sw-windowbar::after{content:'Reconnecting…';font-size:12px;color:#b25000}\
        .sw-toolbar{display:flex;align-items:center;gap:4px}\
        .sw-toolbar .sw-button{background:transparent;padding:4px 8px;color:#3a3a3c}.sw-toolbar .sw-button:hover{background:rgba(0,0,0,.06)}\
        .sw-toolbar .sw-button.sw-prominent{background:var(--sw-prominent-bg,var(--sw-accent));color:#fff}\
        .sw-newwindow{display:inline-flex;align-items:center;gap:5px;font-size:12px;color:#3a3a3c;text-decoration:none;padding:4px 8px;border-radius:6px}\
        .sw-newwindow:hover{background:rgba(0,0,0,.06)}\
        .sw-content{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;min-height:0}\
        .sw-vstack{display:flex;flex-direction:column;align-items:center;gap:8px}\
        .sw-hstack{display:flex;flex-direction:row;align-items:center;gap:8px}\
        .sw-zstack{display:grid}.sw-zstack>*{grid-area:1/1}\
        .sw-spacer{flex:1 1 0;min-width:8px;min-height:8px}\
        .sw-hstack:has(>.sw-spacer),.sw-box:has(>.sw-hstack>.sw-spacer){align-self:stretch}\
        .sw-box{display:flex;flex-direction:column;align-items:center}.sw-inh{display:contents}\
        .sw-chart{align-self:stretch;flex:1 1 auto;min-width:0;min-height:0}.sw-box:has(>.sw-chart){align-self:stretch}\
        .sw-vstack:has(>.sw-list,>.sw-scroll,>.sw-lazy,>.sw-searchable),.sw-box:has(>.sw-list,>.sw-scroll,>.sw-lazy,>.sw-searchable){align-self:stretch}\
        .sw-tabview{display:flex;flex-direction:column;align-self:stretch;gap:8px}.sw-tabbar{display:flex;gap:4px;border-bottom:1px solid rgba(128,128,128,.3)}\
        .sw-radiogroup{display:flex;flex-direction:column;gap:6px;align-items:flex-start}\
        .sw-radio{display:flex;gap:8px;align-items:center;cursor:pointer}.sw-radio input{accent-color:var(--sw-accent);margin:0}\
        .sw-picker.sw-wheel{padding:4px;overflow:auto}\
        .sw-template{display:inline-block;min-width:1em;min-height:1em}\
        .sw-title.sw-title-inline{font-size:15px;font-weight:600;flex:1;text-align:center;margin:0}\
        .sw-color-well{width:44px;height:28px;padding:0 2px;border:1px solid var(--sw-quaternary);border-radius:6px;\
        background:var(--sw-surface);cursor:pointer;flex:none}.sw-opacity{min-width:90px;width:110px;flex:none}\
        .sw-paged{align-items:stretch}.sw-page-controls{display:flex;align-items:center;justify-content:center;gap:12px}\
        .sw-page-index{display:flex;gap:8px}.sw-page-dot{width:8px;height:8px;padding:0;border:0;border-radius:50%;\
        background:var(--sw-quaternary);cursor:pointer}.sw-page-dot.sw-on{background:var(--sw-label)}\
        .sw-page-turn{border:0;background:none;color:var(--sw-accent);padding:4px;border-radius:6px;cursor:pointer;display:flex}\
        .sw-page-turn:disabled{opacity:.3;cursor:default}\
        .sw-tab{border:none;background:none;padding:6px 12px;color:var(--sw-secondary);cursor:pointer;display:inline-flex;gap:6px;align-items:center}\
        .sw-tab.sw-on{color:var(--sw-accent);box-shadow:inset 0 -2px 0 var(--sw-accent)}.sw-tab .sw-badge{background:#ff3b30;color:#fff}\
        .sw-text{white-space:pre-wrap;overflow-wrap:break-word}\
        .sw-color{align-self:stretch;flex:1 1 0;min-width:8px;min-height:8px}\
        .sw-divider{border:0;border-top:1px solid var(--sw-separator);margin:0;align-self:stretch}\
        .sw-divider.sw-vertical{border-top:0;border-left:1px solid var(--sw-separator);min-height:1em}\
        .sw-scroll{overflow:auto;overflow:var(--sw-scroll-clip,auto);flex:1 1 0;min-height:0;scrollbar-width:var(--sw-scrollbar,auto)}.sw-scroll.sw-no-indicators{scrollbar-width:none}.sw-scroll-h .sw-scroll-content{width:max-content}\
        .sw-scroll-content{padding:16px}\
        .sw-grid{display:grid;align-items:center}.sw-gridrow{display:contents}\
        .sw-list,.sw-form,.sw-navigation,.sw-stack,.sw-scroll{align-self:stretch}\
        .sw-label{display:inline-flex;align-items:center;gap:8px}\
        .sw-label-icon{display:inline-flex;justify-content:center;min-width:1.25em;color:var(--sw-accent)}\
        .sw-symbol{display:inline-flex;align-items:center;line-height:1;font-size:var(--sw-symbol,1.1em)}.sw-symbol svg{display:block}\
        .sw-resizable,.sw-resizable svg{width:100%;height:100%}img.sw-image{max-width:100%}\
        .sw-navigation{display:flex;flex:1;min-height:0}\
        .sw-sidebar{width:260px;flex:none;background:#eeeef1;border-right:1px solid #d8d8dd;padding:10px 0;overflow:auto}\
        .sw-content-column{width:300px;flex:none;border-right:1px solid var(--sw-separator);background:var(--sw-surface);overflow:auto;padding:10px 0}\
        .sw-detail{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;padding:24px;background:var(--sw-surface);min-width:0}\
        .sw-detail>.sw-title{align-self:stretch;margin:0 0 12px}\
        .sw-title{font-size:22px;font-weight:700;margin:4px 16px 10px;letter-spacing:-.01em}\
        .sw-stack{flex:1;display:flex;flex-direction:column}\
        .sw-stack-bar{display:flex;align-items:center;gap:4px;width:100%;max-width:712px;margin:0 auto;padding:14px 16px 0}.sw-stack-bar .sw-title{margin:0 4px}\
        .sw-back{border:0;background:transparent;color:var(--sw-accent);font-size:20px;padding:4px;cursor:pointer;border-radius:6px;display:flex}\
        .sw-back:hover{background:rgba(0,0,0,.05)}\
        .sw-stack-content{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center}\
        .sw-stack-content>.sw-list{width:calc(100% - 32px);max-width:680px;align-self:center}.sw-stack-content>.sw-form{padding-top:12px}\
        .sw-list{margin:12px 16px;background:var(--sw-surface);border-radius:var(--sw-radius);box-shadow:0 0 0 .5px var(--sw-hairline,rgba(0,0,0,.1));overflow:hidden}\
        .sw-list>.sw-row{padding:10px 16px;min-height:44px;display:flex;align-items:center}\
        .sw-list>.sw-row+.sw-row{border-top:1px solid var(--sw-separator)}\
        .sw-list>.sw-section{margin:0}.sw-list:has(>.sw-section){background:transparent;box-shadow:none;overflow:visible}\
        .sw-list>.sw-section+.sw-section{margin-top:20px}\
        .sw-row>*{flex:1 1 auto;min-width:0}.sw-row[data-click]{cursor:pointer}.sw-row.sw-selected{background:var(--sw-accent);color:#fff}\
        .sw-row>.sw-link{display:flex;align-items:center;gap:8px;margin:-10px -16px;padding:10px 16px;min-height:44px}\
        .sw-sidebar .sw-list,.sw-content-column .sw-list{margin:0 10px;background:transparent;box-shadow:none;overflow:visible}\
        .sw-sidebar .sw-list>.sw-row,.sw-content-column .sw-list>.sw-row{padding:6px 10px;min-height:32px;border:0;border-radius:7px}\
        .sw-sidebar .sw-row>.sw-link,.sw-content-column .sw-row>.sw-link{margin:-6px -10px;padding:6px 10px;min-height:32px;border-radius:7px}\
        .sw-link{color:inherit;text-decoration:none}.sw-link:hover{background:rgba(0,0,0,.05)}\
        .sw-link.sw-selected,.sw-link.sw-selected:hover{background:var(--sw-accent);color:#fff}\
        .sw-link.sw-selected .sw-label-icon,.sw-row.sw-selected .sw-label-icon{color:inherit}\
        .sw-form{flex:1;width:100%;max-width:680px;margin:0 auto;padding:20px 16px;display:flex;flex-direction:column;gap:22px}\
        .sw-section{display:flex;flex-direction:column;align-self:stretch}\
        .sw-section-header{font-size:12px;font-weight:500;text-transform:uppercase;letter-spacing:.03em;color:var(--sw-secondary);padding:0 16px 6px}\
        .sw-section-footer{font-size:12px;color:var(--sw-secondary);padding:6px 16px 0}\
        .sw-section-rows{background:var(--sw-surface);border-radius:var(--sw-radius);box-shadow:0 0 0 .5px var(--sw-hairline,rgba(0,0,0,.1));overflow:hidden}\
        .sw-section-rows>.sw-row{padding:10px 16px;min-height:44px;display:flex;align-items:center}\
        .sw-section-rows>.sw-row+.sw-row{border-top:1px solid var(--sw-separator)}\
        .sw-section-rows .sw-field{border:0;padding:0;background:transparent;box-shadow:none}\
        .sw-section-rows .sw-button.sw-bordered{background:transparent;padding:0;justify-content:flex-start}\
        .sw-section-rows .sw-row>.sw-button{flex:none}\
        .sw-hstack>.sw-button{flex:none;white-space:nowrap}.sw-hstack>.sw-control{width:auto;flex:none}\
        @media print{body>header{display:none!important}body{background:#fff}}\
        @media (max-width:560px){.sw-windowbar{height:auto;min-height:44px;flex-wrap:wrap;row-gap:0;padding:2px 10px}\
        .sw-window-title{order:-1;flex-basis:100%;line-height:28px}.sw-toolbar{flex-wrap:wrap}.sw-tabbar{flex-wrap:wrap}}\
        .sw-button{font:inherit;display:inline-flex;align-items:center;justify-content:center;gap:6px;padding:6px 14px;border-radius:var(--sw-button-radius,8px);\
        border:0;cursor:pointer;color:var(--sw-accent);background:var(--sw-tint-bg,rgba(0,102,204,.08));transition:filter .1s,background .1s}\
        .sw-button:hover{filter:brightness(.95)}.sw-button:active{filter:brightness(.88)}\
        .sw-button.sw-prominent{background:var(--sw-prominent-bg,var(--sw-accent));color:#fff;font-weight:500}\
        .sw-button.sw-borderless{background:transparent;padding:2px 4px}.sw-button.sw-plain{background:transparent;color:inherit;padding:0}\
        .sw-button.sw-role-destructive{color:#ff3b30}.sw-button.sw-prominent.sw-role-destructive{background:#ff3b30;color:#fff}\
        .sw-button.sw-role-cancel{font-weight:500}\
        .sw-button:disabled,.sw-step:disabled,.sw-segment:disabled{opacity:.4;cursor:default;filter:none}\
        .sw-control{display:flex;align-items:center;justify-content:space-between;gap:12px;width:100%;max-width:100%;min-width:0}.sw-control>.sw-picker{max-width:100%;min-width:0}\
        .sw-vstack,.sw-tabview,.sw-tabpanel,.sw-box:not([style*="width:"]){max-width:100%;min-width:0}\
        .sw-control-label{flex:1 1 auto;min-width:0;display:flex;align-items:center}\
        .sw-field{font:inherit;color:inherit;padding:7px 10px;border:1px solid #d2d2d7;border-radius:8px;background:var(--sw-surface);\
        min-width:200px;width:100%;outline:none;resize:vertical}\
        .sw-field:focus{border-color:var(--sw-accent);box-shadow:0 0 0 3px rgba(0,122,255,.2)}\
        .sw-switch{appearance:none;-webkit-appearance:none;width:42px;height:25px;border-radius:13px;background:#e3e3e8;position:relative;\
        margin:0;flex:none;cursor:pointer;transition:background .15s}\
        .sw-switch::after{content:'';position:absolute;top:2px;left:2px;width:21px;height:21px;border-radius:50%;background:#fff;\
        box-shadow:0 1px 3px rgba(0,0,0,.25);transition:transform .15s}\
        .sw-switch:checked{background:#34c759}.sw-switch:checked::after{transform:translateX(17px)}\
        .sw-switch:disabled,.sw-checkbox:disabled{opacity:.5;cursor:default}\
        .sw-checkbox{width:18px;height:18px;margin:0;accent-color:var(--sw-accent);flex:none}\
        .sw-c-toggle{cursor:pointer}.sw-toggle-checkbox{justify-content:flex-start;flex-direction:row-reverse}\
        .sw-slider{width:100%;min-width:160px;accent-color:var(--sw-accent)}\
        .sw-stepper-buttons{display:inline-flex;background:var(--sw-fill);border-radius:8px;overflow:hidden;flex:none}\
        .sw-step{border:0;background:transparent;width:40px;height:30px;display:flex;align-items:center;justify-content:center;\
        cursor:pointer;color:var(--sw-label);font-size:15px}.sw-step:hover{background:rgba(0,0,0,.06)}\
        .sw-step+.sw-step{border-left:1px solid var(--sw-quaternary)}\
        .sw-picker,.sw-date{font:inherit;color:inherit;padding:5px 10px;border-radius:8px;border:0;background:var(--sw-fill);cursor:pointer;flex:none}\
        .sw-segmented{display:inline-flex;background:var(--sw-fill);border-radius:8px;padding:2px;gap:2px;flex:none}\
        .sw-segment{font:inherit;font-size:13px;border:0;background:transparent;padding:4px 12px;border-radius:6px;cursor:pointer;color:inherit}\
        .sw-segment.sw-on{background:var(--sw-surface);box-shadow:0 1px 2px rgba(0,0,0,.15)}\
        .sw-overlay{position:fixed;inset:0;background:rgba(0,0,0,.3);display:flex;align-items:center;justify-content:center;z-index:20;\
        animation:sw-fade .15s ease-out}\
        .sw-sheet{background:var(--sw-bg);border-radius:14px;width:min(520px,92vw);max-height:86vh;overflow:auto;\
        box-shadow:0 24px 64px rgba(0,0,0,.3);display:flex;flex-direction:column;align-items:stretch;gap:12px;padding:20px}\
        .sw-sheet>.sw-form{padding:0}\
        .sw-alert{background:rgba(250,250,252,.98);border-radius:14px;width:290px;text-align:center;padding:20px 16px 16px;\
        box-shadow:0 24px 64px rgba(0,0,0,.3)}\
        .sw-alert-title{font-size:16px;font-weight:600;margin:0 0 4px}.sw-alert-message{font-size:13px;color:var(--sw-secondary)}\
        .sw-alert-buttons{display:flex;gap:8px;margin-top:16px}.sw-alert-buttons>.sw-button{flex:1}\
        @keyframes sw-fade{from{opacity:0}to{opacity:1}}\
        .sw-missing{color:#b25000;font-size:13px}\
        .sw-menubar{display:flex;align-items:center;gap:2px;font-size:13px}\
        .sw-menu{position:relative}\
        .sw-menu-title{font:inherit;border:0;background:transparent;padding:4px 9px;border-radius:5px;cursor:default;color:#1d1d1f}\
        .sw-menu:first-child .sw-menu-title{font-weight:600}\
        .sw-menu-title:hover,.sw-menu.sw-open .sw-menu-title{background:rgba(0,0,0,.08)}\
        .sw-menu-items{display:none;position:absolute;top:100%;left:0;min-width:230px;padding:5px;margin-top:2px;\
        background:rgba(246,246,248,.98);border-radius:8px;box-shadow:0 0 0 .5px rgba(0,0,0,.2),0 10px 30px rgba(0,0,0,.2);z-index:30}\
        .sw-menu.sw-open .sw-menu-items{display:block}\
        .sw-menuitem{font:inherit;display:flex;align-items:center;gap:8px;width:100%;border:0;background:transparent;\
        padding:4px 10px;border-radius:5px;text-align:left;color:#1d1d1f;cursor:default}\
        .sw-menuitem:hover:not(:disabled),.sw-menuitem:focus-visible{background:var(--sw-accent);color:#fff;outline:none}\
        .sw-menuitem:disabled{color:#aeaeb2}\
        .sw-menuitem-label{flex:1}.sw-shortcut{font-size:12px;opacity:.65}.sw-check{width:1em}\
        .sw-menu-sep{height:1px;background:rgba(0,0,0,.1);margin:5px 8px}\
        .sw-menu-group+.sw-menu-group,.sw-menu-group+.sw-menuitem,.sw-menuitem+.sw-menu-group{border-top:1px solid rgba(0,0,0,.1);margin-top:5px;padding-top:5px}\
        .sw-menu-header{font-size:11px;font-weight:600;color:var(--sw-secondary);padding:4px 10px}\
        html.sw-no-sidebar .sw-sidebar{display:none}html.sw-no-toolbar .sw-windowbar .sw-toolbar{display:none}\
        .sw-notice{display:flex;align-items:center;gap:12px;justify-content:space-between;padding:8px 16px;background:#fff4e5;\
        color:#8a4b00;border-bottom:1px solid #f3d4a7;font-size:13px}\
        .sw-upload{cursor:pointer}\
        html.sw-animating body *{transition:all var(--sw-dur,.35s) var(--sw-curve,ease)}\
        .sw-enter{animation:sw-enter var(--sw-tr,.35s) var(--sw-tc,ease) both}\
        .sw-exit{animation:sw-exit var(--sw-tr,.35s) var(--sw-tc,ease) both}\
        @keyframes sw-enter{from{opacity:var(--sw-io,0);transform:var(--sw-it,none)}}\
        @keyframes sw-exit{to{opacity:var(--sw-ro,0);transform:var(--sw-rt,none)}}\
        @media (prefers-reduced-motion:reduce){html.sw-animating body *{transition:none}.sw-enter,.sw-exit{animation-duration:1ms}}\
        .sw-editable{display:flex;align-items:center;gap:8px}.sw-editable>:not(.sw-edit-control){flex:1 1 auto;min-width:0}\
        .sw-edit-control{border:0;background:none;padding:2px;cursor:pointer;display:inline-flex;color:var(--sw-secondary);border-radius:6px}\
        .sw-edit-control:hover{background:rgba(0,0,0,.06)}.sw-delete{color:#ff3b30}\
        .sw-delete:not(.sw-editing){opacity:0}.sw-row:hover .sw-delete,.sw-delete:focus-visible{opacity:1}\
        .sw-searchable{display:flex;flex-direction:column;align-self:stretch;gap:8px}.sw-searchable>.sw-search{align-self:center;max-width:680px;margin:8px 16px 0}\
        .sw-toolbar .sw-search{min-width:160px;width:220px;padding:4px 10px}\
        .sw-inline-menu{display:inline-flex;flex:none}.sw-inline-menu .sw-menu-items{margin-top:4px}\
        .sw-menu-chevron{font-size:.8em;opacity:.7}.sw-menu-primary{border-top-right-radius:0;border-bottom-right-radius:0}\
        .sw-menu-arrow{border-top-left-radius:0;border-bottom-left-radius:0;padding:6px 8px;margin-left:1px}\
        .sw-context{position:fixed;width:0;height:0;z-index:40}.sw-context .sw-menu-items{top:0;left:0;margin:0}\
        img.sw-image{object-fit:var(--sw-fit,contain)}.sw-async-image{display:grid}.sw-async-image>.sw-phase{grid-area:1/1}\
        .sw-async-image[data-phase=loading]>.sw-phase-success{visibility:hidden}.sw-async-image[data-phase=loading]>.sw-phase-failure,\
        .sw-async-image[data-phase=loaded]>.sw-phase-empty,.sw-async-image[data-phase=loaded]>.sw-phase-failure,\
        .sw-async-image[data-phase=failed]>.sw-phase-empty,.sw-async-image[data-phase=failed]>.sw-phase-success{display:none}\
        .sw-async-image[data-phase=loaded]>.sw-phase-success[style*="--sw-tr"]{animation:sw-enter var(--sw-tr) var(--sw-tc) both}\
        .sw-image-placeholder{background:var(--sw-fill);min-width:40px;min-height:40px;width:100%;height:100%}\
        .sw-weblink{color:var(--sw-accent);text-decoration:none;cursor:pointer}.sw-weblink:hover{text-decoration:underline}\
        .sw-weblink.sw-blocked{color:var(--sw-secondary);cursor:not-allowed;text-decoration:line-through}\
        .sw-badged{display:flex;align-items:center;gap:8px}.sw-badged>:first-child{flex:1 1 auto;min-width:0}\
        .sw-badge{flex:none;font-size:12px;font-weight:600;color:var(--sw-secondary);background:var(--sw-fill);border-radius:10px;padding:1px 8px}\
        .sw-list.sw-list-plain{margin:0;border-radius:0;box-shadow:none;background:transparent}\
        .sw-list.sw-list-plain>.sw-row{border-bottom:1px solid var(--sw-separator)}.sw-list-plain>.sw-row+.sw-row{border-top:0}\
        .sw-list.sw-list-inset{background:transparent;box-shadow:none}\
        .sw-list.sw-list-grouped{margin:12px 0;border-radius:0}.sw-list-grouped .sw-section-rows{border-radius:0}\
        .sw-list.sw-list-sidebar{background:transparent;box-shadow:none;margin:0 10px}.sw-list-sidebar>.sw-row{border:0!important;border-radius:7px;min-height:32px;padding:6px 10px}\
        .sw-list.sw-list-bordered{box-shadow:none;border:1px solid var(--sw-quaternary);border-radius:6px}\
        .sw-shape-svg{display:block;align-self:stretch;flex:1 1 0;min-width:8px;min-height:8px;width:100%;height:100%;overflow:visible}\
        .sw-zstack:has(>.sw-color,>.sw-shape-svg,>.sw-box>.sw-shape-svg,>.sw-box>.sw-color){align-self:stretch;flex:1 1 0;min-height:0}\
        .sw-zstack>.sw-color,.sw-zstack>.sw-shape-svg,.sw-zstack>.sw-box:has(>.sw-shape-svg,>.sw-color){width:100%;height:100%}\
        .sw-box:has(>.sw-shape-svg){align-self:stretch;flex:1 1 0;min-height:0}\
        .sw-geometry{align-self:stretch;flex:1 1 0;min-width:0;min-height:0;position:relative;display:flex;flex-direction:column;align-items:flex-start}\
        .sw-box:has(>.sw-geometry){align-self:stretch}.sw-canvas-box{min-height:8px}.sw-canvas{position:absolute;inset:0;width:100%;height:100%;overflow:hidden}\
        .sw-popover-anchor{position:relative;display:inline-flex}\
        .sw-popover-backdrop{position:fixed;inset:0;z-index:24}\
        .sw-popover{position:absolute;z-index:25;min-width:180px;max-width:min(360px,90vw);padding:12px;border-radius:10px;background:var(--sw-surface);\
        box-shadow:0 0 0 .5px rgba(0,0,0,.2),0 10px 30px rgba(0,0,0,.2);display:flex;flex-direction:column;gap:8px;animation:sw-fade .12s ease-out}\
        .sw-popover-below{top:calc(100% + 8px);left:50%;transform:translateX(-50%)}.sw-popover-above{bottom:calc(100% + 8px);left:50%;transform:translateX(-50%)}\
        .sw-popover-after{left:calc(100% + 8px);top:50%;transform:translateY(-50%)}.sw-popover-before{right:calc(100% + 8px);top:50%;transform:translateY(-50%)}\
        .sw-refreshable{display:flex;flex-direction:column;align-self:stretch;flex:1 1 auto}.sw-refresh{align-self:flex-end;margin:4px 16px 0}\
        .sw-refresh[aria-busy=true] .sw-symbol{animation:sw-spin 1s linear infinite}@keyframes sw-spin{to{transform:rotate(360deg)}}\
        .sw-swipe{display:flex;align-items:center;gap:8px;touch-action:pan-y}.sw-swipe>:not(.sw-swipe-actions){flex:1 1 auto;min-width:0}\
        .sw-swipe-actions{display:flex;gap:4px;flex:none;opacity:0;transition:opacity .12s}\
        .sw-row:hover .sw-swipe-actions,.sw-swipe:hover .sw-swipe-actions,.sw-swipe-actions:focus-within,.sw-swipe-open .sw-swipe-actions{opacity:1}\
        .sw-swipe-actions .sw-button{padding:4px 10px}\
        .sw-fits{align-self:stretch;min-width:0;display:grid;grid-template-columns:minmax(0,1fr);overflow:hidden}.sw-fit-option{grid-area:1/1;display:none;min-width:0}\
        .sw-fit-option.sw-fit-shown{display:flex;flex-direction:column}\
        .sw-fit-option.sw-fit-measure{display:flex;flex-direction:column;visibility:hidden;width:max-content;max-width:none}\
        [data-min-scale]{white-space:nowrap;overflow:hidden;text-overflow:ellipsis;max-width:100%}\
        [data-magnify],[data-rotate]{touch-action:none}[data-tap],[data-press]{cursor:pointer;user-select:none;-webkit-user-select:none}\
        [data-drag]{touch-action:none;user-select:none;-webkit-user-select:none;cursor:grab}\
        .sw-field.sw-field-plain{border:0;background:transparent;box-shadow:none;padding-left:0;padding-right:0}\
        .sw-groupbox{align-self:stretch;background:var(--sw-fill);border-radius:var(--sw-radius);padding:12px;display:flex;flex-direction:column;gap:8px}\
        .sw-groupbox-label{font-weight:600}.sw-groupbox-body{display:flex;flex-direction:column;gap:8px;align-items:flex-start}\
        .sw-labeled-value{color:var(--sw-secondary);display:inline-flex;gap:6px;align-items:center}\
        .sw-controlgroup{display:inline-flex;gap:1px;border-radius:8px;overflow:hidden}.sw-controlgroup>.sw-button{border-radius:0}\
        .sw-disclosure{display:flex;flex-direction:column;align-self:stretch}.sw-disclosure-content{padding-left:24px;display:flex;flex-direction:column;gap:6px}\
        .sw-disclosure-title{font:inherit;color:inherit;border:0;background:none;display:flex;gap:6px;align-items:center;padding:4px 0;cursor:pointer;text-align:left}\
        .sw-unavailable{display:flex;flex-direction:column;align-items:center;gap:10px;padding:32px;text-align:center;color:var(--sw-secondary)}\
        .sw-unavailable-label{font-size:22px;font-weight:700;color:var(--sw-label)}.sw-unavailable-label .sw-label{flex-direction:column;gap:12px}\
        .sw-unavailable-label .sw-label-icon{font-size:48px;color:var(--sw-secondary)}\
        .sw-gauge{display:flex;flex-direction:column;gap:4px;min-width:160px}.sw-gauge meter{width:100%}\
        .sw-list>.sw-row.sw-row-nosep,.sw-list>.sw-row+.sw-row.sw-row-nosep,.sw-list>.sw-row.sw-row-nosep+.sw-row{border-top:0}\
        .sw-section-rows>.sw-row.sw-row-nosep,.sw-section-rows>.sw-row.sw-row-nosep+.sw-row{border-top:0}\
        .sw-insetted{display:flex;flex-direction:column;align-self:stretch;flex:1 1 auto;min-height:0}.sw-insetted-h{flex-direction:row}\
        .sw-inset{position:sticky;z-index:2;background:var(--sw-bg);display:flex;align-items:center;justify-content:center}\
        .sw-inset-top{top:0}.sw-inset-bottom{bottom:0}.sw-inset-leading{left:0}.sw-inset-trailing{right:0}\
        .sw-sheet:has(.sw-sizing-page){width:min(900px,96vw)}.sw-sheet:has(.sw-sizing-fitted){width:auto;max-width:92vw}\
        .sw-path-svg{display:block;flex:none;overflow:visible}\
        .sw-window-pad{flex:none;overflow-anchor:none;padding:0!important;margin:0!important;border:0!important}\
        .sw-pin-h .sw-section-header{position:sticky;top:44px;z-index:1;background:var(--sw-bg)}\
        .sw-pin-f .sw-section-footer{position:sticky;bottom:0;z-index:1;background:var(--sw-bg)}\
        .sw-scroll .sw-pin-h .sw-section-header{top:0}\
        .sw-editor{flex:1;align-self:stretch;min-height:60vh;resize:none;font:14px/1.5 ui-monospace,Menlo,monospace;border-radius:0;border:0}\
        html.sw-dark{color-scheme:dark;--sw-accent:#0a84ff;--sw-prominent-bg:#0071e3;--sw-label:#f5f5f7;--sw-secondary:#98989d;--sw-tertiary:#636366;\
        --sw-quaternary:#48484a;--sw-bg:#000;--sw-surface:#1c1c1e;--sw-separator:#38383a;--sw-fill:#2c2c2e;--sw-tint-bg:rgba(10,132,255,.22);--sw-hairline:rgba(255,255,255,.12)}\
        html.sw-dark .sw-windowbar{background:rgba(30,30,32,.92);border-bottom-color:#38383a}\
        html.sw-dark .sw-window-title,html.sw-dark .sw-toolbar .sw-button,html.sw-dark .sw-newwindow,html.sw-dark .sw-menu-title,\
        html.sw-dark .sw-menuitem{color:#e5e5ea}html.sw-dark .sw-menuitem:disabled{color:#636366}\
        html.sw-dark .sw-toolbar .sw-button:hover,html.sw-dark .sw-newwindow:hover,html.sw-dark .sw-back:hover,html.sw-dark .sw-link:hover,\
        html.sw-dark .sw-step:hover,html.sw-dark .sw-edit-control:hover,html.sw-dark .sw-menu-title:hover,\
        html.sw-dark .sw-menu.sw-open .sw-menu-title{background:rgba(255,255,255,.08)}\
        html.sw-dark .sw-sidebar{background:#161618;border-right-color:#38383a}\
        html.sw-dark .sw-field{border-color:#48484a}html.sw-dark .sw-switch{background:#39393d}\
        html.sw-dark .sw-switch:checked{background:#30d158}html.sw-dark .sw-alert{background:rgba(44,44,46,.98)}\
        html.sw-dark .sw-menu-items{background:rgba(40,40,42,.98);box-shadow:0 0 0 .5px rgba(255,255,255,.15),0 10px 30px rgba(0,0,0,.5)}\
        html.sw-dark .sw-popover{box-shadow:0 0 0 .5px rgba(255,255,255,.15),0 10px 30px rgba(0,0,0,.5)}\
        html.sw-dark .sw-menu-sep{background:rgba(255,255,255,.12)}\
        html.sw-dark .sw-notice{background:#3a2a10;color:#ffd599;border-bottom-color:#5c4420}\
        html.sw-dark .sw-missing,html.sw-dark.sw-offline .sw-windowbar::after{color:#ffb340}
        """
}
