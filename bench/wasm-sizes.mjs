// Per-function code size of a wasm module with a `name` section, grouped by crate /
// module path: `node bench/wasm-sizes.mjs FILE [top]` (docs/performance.md's table of
// tools). FILE: the rustc output of a module, before wasm-opt strips the names
// (scripts/build-pkg.sh leaves them in target/wasm32-unknown-unknown/release/
// calibrank_wasm_core.wasm, calibrank_wasm_pipeline.wasm and calibrank_wasm_lab.wasm),
// or a package built with names kept (bench/build-variant.sh DIR -O3 -ocimfs 100
// --low-memory-unused -g: DIR/calibrank_core.wasm, calibrank_pipeline.wasm,
// calibrank_lab.wasm).
import { readFileSync } from "node:fs";

const b = readFileSync(process.argv[2]);
const top = Number(process.argv[3] ?? 40);
let p = 8;
const leb = () => {
  let r = 0, s = 0, x;
  do { x = b[p++]; r += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80);
  return r;
};
let nImports = 0;
const bodies = [];
const names = new Map();
while (p < b.length) {
  const id = b[p++];
  const len = leb();
  const end = p + len;
  if (id === 2) {
    const n = leb();
    for (let i = 0; i < n; i++) {
      const ml = leb(); p += ml; const fl = leb(); p += fl;
      const kind = b[p++];
      if (kind === 0) { leb(); nImports++; } else if (kind === 1) { p++; const f = leb(); leb(); if (f & 1) leb(); } else if (kind === 2) { const f = leb(); leb(); if (f & 1) leb(); } else if (kind === 3) { p += 2; }
    }
  } else if (id === 10) {
    const n = leb();
    for (let i = 0; i < n; i++) { const sz = leb(); bodies.push(sz); p += sz; }
  } else if (id === 0) {
    const nl = leb();
    const name = b.slice(p, p + nl).toString();
    p += nl;
    if (name === "name") {
      while (p < end) {
        const sub = b[p++]; const sl = leb(); const se = p + sl;
        if (sub === 1) { const n = leb(); for (let i = 0; i < n; i++) { const idx = leb(); const l = leb(); names.set(idx, b.slice(p, p + l).toString()); p += l; } }
        p = se;
      }
    }
  }
  p = end;
}
const rows = bodies.map((sz, i) => ({ sz, name: names.get(i + nImports) ?? `f${i + nImports}` }));
const total = rows.reduce((a, r) => a + r.sz, 0);
const group = (n) => {
  const m = n.match(/^_?<?(?:_?ZN)?([A-Za-z_][A-Za-z0-9_]*)(?:::|\.\.|\d)/) ?? n.match(/^<?([a-z_0-9]+)::/);
  const dem = n.replace(/^_ZN/, "").replace(/\d+([a-zA-Z_])/g, " $1");
  const crate = (n.includes("::") ? n.split("::")[0].replace(/^<+/, "") : dem.trim().split(" ")[0]) || "?";
  return crate;
};
const byCrate = new Map();
for (const r of rows) byCrate.set(group(r.name), (byCrate.get(group(r.name)) ?? 0) + r.sz);
console.log(`${rows.length} functions, ${total} bytes of code`);
for (const [c, s] of [...byCrate].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(String(s).padStart(8), (100 * s / total).toFixed(1).padStart(5) + "%", c);
console.log("--- largest functions");
for (const r of rows.sort((a, b) => b.sz - a.sz).slice(0, top)) console.log(String(r.sz).padStart(8), r.name.slice(0, 150));
