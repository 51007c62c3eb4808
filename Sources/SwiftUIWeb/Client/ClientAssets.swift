/// The client script and default stylesheet, served by the app.
enum ClientAssets {
    static let script = #"""
(function(){
var id=document.body.dataset.scene,ws,tries=0;
function connect(){
 var p=location.protocol==='https:'?'wss:':'ws:';
 ws=new WebSocket(p+'//'+location.host+'/_swiftuiweb/ws?w='+id);
 ws.onopen=function(){tries=0;};
 ws.onmessage=function(m){var ps=JSON.parse(m.data);
  if(ps.rebind){id=ps.rebind;history.replaceState(null,'','/?w='+id);location.reload();return;}
  for(var i=0;i<ps.length;i++){var q=ps[i],el=q.id&&document.getElementById(q.id);
  if(q.op==='title'){document.title=q.text;}
  else if(!el){}else if(q.op==='replace'){el.outerHTML=q.html;}
  else if(q.op==='text'){el.textContent=q.text;}
  else if(q.op==='attr'){el.setAttribute(q.name,q.value);if(q.name==='value')el.value=q.value;}}};
 ws.onclose=function(){tries++;setTimeout(connect,Math.min(10000,200*Math.pow(2,tries)));};
}
document.addEventListener('click',function(e){var t=e.target.closest('[data-click]');
 if(t&&ws&&ws.readyState===1){e.preventDefault();ws.send(JSON.stringify({t:'click',id:t.id}));}});
document.addEventListener('input',function(e){var t=e.target;
 if(t.dataset.input&&ws&&ws.readyState===1)ws.send(JSON.stringify({t:'input',id:t.id,v:String(t.type==='checkbox'?t.checked:t.value)}));});
connect();
})();
"""#

    static let css = """
    body{margin:0;font:15px/1.4 -apple-system,system-ui,'Segoe UI',Roboto,sans-serif;color:#1d1d1f;background:#f5f5f7}\
    .sw-window{min-height:100vh;display:flex;flex-direction:column}\
    .sw-vstack{display:flex;flex-direction:column;align-items:center;gap:8px}\
    .sw-hstack{display:flex;flex-direction:row;align-items:center;gap:8px}.sw-spacer{flex:1}\
    .sw-navigation{display:flex;flex:1;min-height:100vh}\
    .sw-sidebar{width:280px;background:#ececf0;border-right:1px solid #d2d2d7;padding:12px 0}\
    .sw-detail{flex:1;padding:24px;background:#fff;font-size:20px}\
    .sw-title{font-size:24px;font-weight:700;margin:8px 16px 12px}\
    .sw-list{list-style:none;margin:0;padding:0 8px}.sw-row{border-radius:6px}\
    .sw-row>*{display:block;padding:8px 12px}\
    .sw-link{color:inherit;text-decoration:none;border-radius:6px}.sw-link:hover{background:#dcdce1}\
    .sw-selected{background:#0a84ff;color:#fff}.sw-selected:hover{background:#0a84ff}\
    .sw-button{font:inherit;padding:6px 14px;border-radius:7px;border:1px solid #c7c7cc;background:#fff;cursor:pointer}\
    .sw-button:hover{background:#f0f0f3}
    """
}
