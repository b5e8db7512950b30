// The collector's share of workload (c)'s calls, the package's and the JS baseline's, run
// alternately (300 calls each, the first 50 left out): each collection that starts
// inside a call counts for it (PerformanceObserver's "gc" entries).
//   node bench/gc-share.mjs [DIR] [N]     (DIR: pkg/ or a build; N: 10000)
import { resolve } from "node:path";
import * as gen from "./gen.mjs";
import * as baseline from "./baseline/calibrank-baseline.mjs";
import { PerformanceObserver, performance } from "node:perf_hooks";
const lib = await import(resolve(process.argv[2] ?? "pkg", "node.mjs"));
const n = Number(process.argv[3] ?? 10000);
const inputs = gen.makeInputs(n);
const wasmC = new lib.Pipeline(gen.pipelineConfig(true));
const jsC = new baseline.Pipeline(gen.pipelineConfig(true));
const gcs = [];
new PerformanceObserver((l) => { for (const e of l.getEntries()) gcs.push([e.startTime, e.duration, e.detail?.kind ?? e.kind]); }).observe({ entryTypes: ["gc"] });
const win = { wasm: [], js: [] };
for (let i = 0; i < 300; i++) {
  for (const [k, f] of [["wasm", () => wasmC.run(inputs.inputC)], ["js", () => jsC.run(inputs.inputC)]]) {
    const a = performance.now(); f(); const b = performance.now(); win[k].push([a, b]);
  }
}
await new Promise((r) => setTimeout(r, 100));
for (const k of ["wasm", "js"]) {
  const ws = win[k].slice(50);
  let gcMs = 0, count = 0, byKind = {};
  for (const [s, d, kind] of gcs) for (const [a, b] of ws) if (s >= a && s < b) { gcMs += d; count++; byKind[kind] = (byKind[kind] ?? 0) + d; }
  const tot = ws.reduce((x, [a, b]) => x + (b - a), 0);
  const med = ws.map(([a, b]) => b - a).sort((x, y) => x - y)[ws.length >> 1];
  console.log(k, "median", med.toFixed(3), "mean", (tot / ws.length).toFixed(3), "gc ms/call", (gcMs / ws.length).toFixed(3), "gcs", count, JSON.stringify(Object.fromEntries(Object.entries(byKind).map(([a, b]) => [a, +(b / ws.length).toFixed(3)]))));
}
