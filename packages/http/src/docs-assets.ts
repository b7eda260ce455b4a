/**
 * The style and the script of `/docs`, inline (no CDN, one request). The script adds the search
 * (over the index the page embeds: operations with their fields, events, scenarios, error
 * reasons) and opens the operation a link or the address names; without it every operation and
 * catalogue is still reached through the sidebar and the anchors.
 */

export const DOCS_STYLE = `:root{--ink:#1d2330;--muted:#5a6270;--line:#dde1e7;--accent:#0b5cad;--bg:#f6f7f9}
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--ink)}
a{color:var(--accent)}code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:2}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.layout{display:grid;grid-template-columns:20rem 1fr;min-height:100vh}
.sidebar{background:var(--bg);border-right:1px solid var(--line);padding:1rem;position:sticky;top:0;height:100vh;overflow-y:auto}
.sidebar ul{list-style:none;margin:0;padding:0}.sidebar li{margin:.15rem 0}.sidebar ul ul{padding-left:.5rem}
.sidebar summary{cursor:pointer;text-transform:capitalize}.brand{font-weight:600;margin:0 0 .75rem}
#search label{display:block;font-weight:600}#search input{width:100%;padding:.4rem;border:1px solid #8a929e;border-radius:4px}
#search-results{margin:.5rem 0 1rem;max-height:40vh;overflow-y:auto}#search-results small{color:var(--muted)}
main{padding:1.5rem 2.5rem;max-width:72rem;min-width:0}h2{text-transform:capitalize;border-bottom:1px solid var(--line);padding-bottom:.25rem}
section.op{border:1px solid var(--line);border-radius:6px;margin:.5rem 0}section.op>details>summary{padding:.5rem .75rem;cursor:pointer}
section.op>details[open]>summary{border-bottom:1px solid var(--line)}section.op>details>:not(summary){margin-left:.75rem;margin-right:.75rem}
.summary{color:var(--muted);margin-left:.5rem}.tag{font-size:.75em;border:1px solid #6b4fa3;color:#4b2f83;border-radius:3px;padding:0 .3rem}
.method{display:inline-block;min-width:3.6rem;text-align:center;font-weight:700;font-size:.75em;border-radius:3px;padding:.05rem .3rem;color:#fff;background:#4a5568}
.method.get{background:#0b6e3d}.method.post{background:#0b5cad}.method.put{background:#8a5a00}.method.delete{background:#a3222b}
summary>code{font-weight:600}
table{border-collapse:collapse;width:100%;margin-bottom:.75rem}td,th{border-bottom:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top}
pre{background:#111827;color:#e5e7eb;padding:.75rem;border-radius:6px;overflow-x:auto;max-height:28rem}
.samples{display:grid;grid-template-columns:1fr 1fr;gap:.75rem}.samples figure{margin:0;min-width:0}figcaption{font-weight:600}
@media (max-width:56rem){.layout{grid-template-columns:1fr}.sidebar{position:static;height:auto}.samples{grid-template-columns:1fr}}`

export const DOCS_SCRIPT = `(()=>{const box=document.getElementById("search");const input=document.getElementById("search-input");const out=document.getElementById("search-results");
const index=JSON.parse(document.getElementById("search-index").textContent);box.hidden=false;
const open=()=>{const id=decodeURIComponent(location.hash.slice(1));const target=id&&document.getElementById(id);const details=target&&target.querySelector(":scope>details");if(details)details.open=true};
window.addEventListener("hashchange",open);open();
input.addEventListener("input",()=>{const q=input.value.trim().toLowerCase();out.replaceChildren();if(q.length<2)return;
const found=index.filter((e)=>e[3].includes(q)).sort((a,b)=>(a[0].toLowerCase().includes(q)?0:1)-(b[0].toLowerCase().includes(q)?0:1)).slice(0,40);
for(const [label,href,kind] of found){const li=document.createElement("li");const a=document.createElement("a");a.href=href;a.textContent=label;const small=document.createElement("small");small.textContent=" "+kind;li.append(a,small);out.append(li)}
if(found.length===0){const li=document.createElement("li");li.textContent="Nothing found";out.append(li)}})})()`
