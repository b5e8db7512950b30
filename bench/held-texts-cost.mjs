// What holding the texts back saves: workload (c) (`Pipeline.run` with the heuristic
// reranker, bench/gen.mjs) with the held texts (the default where the engine compiles
// wasm from bytes) against the texts crossing with the input (what an engine that
// compiles no wasm from bytes does when its entry gives no calibrank_texts.wasm:
// simulated by refusing to compile the 55-byte module). Fresh processes, alternating,
// medians of ROUNDS (7); the package as `import "calibrank"` resolves it.
//   node bench/held-texts-cost.mjs [N,N,...] [ROUNDS]
//
// The package holds the texts back only when a call has more distinct candidates than
// its heuristic reranker reads (the topK pool: 100 in bench/gen.mjs's pipelineConfig,
// the package's default is 10; js/core/pipeline-input.js `holdAbove`). (c)'s three lists
// of N ids hold about 1.4 N distinct ids, so N below about 70 has nothing to hold: such
// sizes are skipped with a message (with nothing held, both modes time the same call).
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { makeInputs, pipelineConfig } from "./gen.mjs";

const [sizes = "200,1000,10000", rounds = "7"] = process.argv.slice(2);
const ns = sizes.split(",").map(Number);
if (!ns.every((n) => Number.isInteger(n) && n > 0) || !(Number(rounds) >= 1)) {
  console.error(`usage: node bench/held-texts-cost.mjs [N,N,...] [ROUNDS] (sizes: whole numbers > 0; got ${JSON.stringify(sizes)} ${JSON.stringify(rounds)})`);
  process.exit(2);
}
const pool = pipelineConfig(true).topK;
const root = fileURLToPath(new URL("..", import.meta.url));
const child = `
const [mode, n] = [process.argv[1], Number(process.argv[2])];
if (mode === "inline") {
  const Real = WebAssembly.Module;
  WebAssembly.Module = new Proxy(Real, { construct(t, a, nt) { if (a[0].byteLength < 100) throw new WebAssembly.CompileError("refused"); return Reflect.construct(t, a, nt); } });
}
const { makeInputs, pipelineConfig } = await import(${JSON.stringify(new URL("gen.mjs", import.meta.url).href)});
const lib = await import("calibrank");
const inputs = makeInputs(n);
const p = new lib.Pipeline(pipelineConfig(true));
const reps = Math.max(20, Math.round(200000 / n));
for (let i = 0; i < reps; i++) p.run(inputs.inputC);
const asked = lib.__heldTextsCalls();
const t = performance.now();
for (let i = 0; i < reps; i++) p.run(inputs.inputC);
console.log(JSON.stringify({ us: ((performance.now() - t) / reps) * 1000, held: lib.__heldTextsCalls() > asked }));
`;
const med = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
for (const n of ns) {
  const candidates = Object.keys(makeInputs(n).inputC.items).length;
  if (candidates <= pool) {
    console.log(`N = ${n}: skipped: ${candidates} distinct candidates, not more than the reranker's topK of ${pool}, so the package holds no texts back`);
    continue;
  }
  const r = { held: [], inline: [] };
  for (let i = 0; i < Number(rounds); i++)
    for (const m of ["held", "inline"]) {
      const o = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", child, m, String(n)], { cwd: root, encoding: "utf8" }));
      if (o.held !== (m === "held")) throw new Error(`N = ${n} (${candidates} candidates, topK ${pool}), ${m}: the texts were ${o.held ? "" : "not "}held`);
      r[m].push(o.us);
    }
  console.log(`N = ${n}: held ${med(r.held).toFixed(1)} µs, inline ${med(r.inline).toFixed(1)} µs, inline / held ${(med(r.inline) / med(r.held)).toFixed(2)}`);
}
