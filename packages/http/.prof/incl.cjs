const fs=require("fs");const p=JSON.parse(fs.readFileSync(process.argv[2],"utf8"));
const byId=new Map(p.nodes.map(n=>[n.id,n]));const parent=new Map();for(const n of p.nodes)for(const c of (n.children||[]))parent.set(c,n.id);
const counts=new Map();for(const s of p.samples)counts.set(s,(counts.get(s)||0)+1);
const incl=new Map();let busy=0;
const name=(x)=>(x.callFrame.functionName||"anon")+"@"+x.callFrame.url.replace(/.*\/work\/main\//,"").replace(/.*node_modules\//,"nm/")+":"+x.callFrame.lineNumber;
for(const [id,c] of counts){const n=byId.get(id);if(["(idle)","(program)"].includes(n.callFrame.functionName))continue;
 let onPath=false;const seen=new Set();let cur=id;const names=[];while(cur!==undefined){const x=byId.get(cur);const k=name(x);if(!seen.has(k)){seen.add(k);names.push(k)}cur=parent.get(cur);}
 if(!names.some(k=>/handleRequest|NodeHttpServer|http\/HttpServer|_http_server|writev|parserOn|runLoop/.test(k)) && !names.some(k=>k.startsWith("(garbage"))) continue;
 busy+=c;for(const k of names)incl.set(k,(incl.get(k)||0)+c);}
console.log("request-path samples",busy);
console.log([...incl].filter(([k])=>!/runLoop|evaluate@|runInAsyncScope|makePrimitive|effect.js:(831|1088)|standard@|mapCont|processTicks/.test(k)).sort((a,b)=>b[1]-a[1]).slice(0,45).map(([k,v])=>(v/busy*100).toFixed(1)+"% "+k).join("\n"));
