// `fuseMultiQuery` on two builds of the package (A, B: directories like pkg/): 3,000 random
// calls (ties, repeated ids, epoch / ISO / invalid / NaN / -0 timestamps, every method,
// thresholds, verbose) compared by result bits and by error code, field and message.
//   node bench/multiquery-parity.mjs A B
import { pathToFileURL } from "node:url";
const [A, B] = process.argv.slice(2);
const a = await import(pathToFileURL(`${A}/node.mjs`).href);
const b = await import(pathToFileURL(`${B}/node.mjs`).href);
const hex = (x) => { const v = new DataView(new ArrayBuffer(8)); v.setFloat64(0, x); return v.getBigUint64(0).toString(16); };
const run = (lib, q, o) => { try { return JSON.stringify(lib.fuseMultiQuery(q, o), (k, v) => typeof v === "number" ? hex(v) : v); } catch (e) { return `ERR ${e.code} ${e.field} ${e.message}`; } };
let seed = 3; const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const ts = () => { const r = rnd(); return r < 0.4 ? undefined : r < 0.6 ? Math.floor(rnd() * 2e12) : r < 0.8 ? "2024-0" + (1 + Math.floor(rnd() * 9)) + "-1" + Math.floor(rnd() * 9) : r < 0.85 ? "bad" : r < 0.9 ? NaN : -0; };
let diff = 0;
for (let t = 0; t < 3000; t++) {
  const q = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => Array.from({ length: Math.floor(rnd() * 8) }, () => { const h = { id: "d" + Math.floor(rnd() * 12), score: rnd() < 0.1 ? 0.5 : rnd() }; const x = ts(); if (x !== undefined) h.timestamp = x; return h; }));
  const o = { method: ["rrf", "score_sum", "score_max"][t % 3], similarityThreshold: rnd() < 0.5 ? 0 : 0.3, resultsPerQuery: 1 + Math.floor(rnd() * 8), verbose: rnd() < 0.5 };
  const x = run(a, q, o), y = run(b, q, o);
  if (x !== y) { if (diff++ < 3) console.log(x.slice(0, 200), "\n", y.slice(0, 200)); }
}
console.log("3000 random fuseMultiQuery calls:", diff, "differ");
