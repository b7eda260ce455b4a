const fs=require("fs");
const f=process.argv[2];
const p=JSON.parse(fs.readFileSync(f,"utf8"));
const byId=new Map(p.nodes.map(n=>[n.id,n]));
const self=new Map(); const counts=new Map();
for(const s of p.samples) counts.set(s,(counts.get(s)||0)+1);
let total=0;
const byFile=new Map();
for(const [id,c] of counts){const n=byId.get(id);const cf=n.callFrame;const key=`${cf.functionName||"(anon)"} ${cf.url.replace(/.*node_modules\//,"nm/").replace(/.*\/work\/main\//,"")}:${cf.lineNumber}`;self.set(key,(self.get(key)||0)+c);total+=c;
const file=cf.url.replace(/.*node_modules\//,"nm/").replace(/.*\/work\/main\//,"")||cf.functionName;byFile.set(file,(byFile.get(file)||0)+c);}
console.log("total samples",total);
console.log([...self].sort((a,b)=>b[1]-a[1]).slice(0,40).map(([k,v])=>(v/total*100).toFixed(1)+"% "+k).join("\n"));
console.log("--- by file");
console.log([...byFile].sort((a,b)=>b[1]-a[1]).slice(0,25).map(([k,v])=>(v/total*100).toFixed(1)+"% "+k).join("\n"));
