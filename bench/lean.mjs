// The string API's lean path (docs/performance-history.md, "The string API's lean path"):
// workload (b) (`explain: false`) through `Pipeline.run` against the JS baseline, and
// against `runColumnar` on the same pipeline, and (c) at N = 1,000 against the baseline; then `Pipeline.run` with `explain: true`
// for (b) and for the RAG call (workload c, N = 20), against the same pipeline without
// explanations. For each package directory given, each pair interleaved in one process
// (bench/timing.mjs's `compare`: 21 samples of at least 5 ms after 1 s of warm-up).
//   node --expose-gc bench/lean.mjs [DIR...]        (default: pkg)
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as gen from "./gen.mjs";
import * as baseline from "./baseline/calibrank-baseline.mjs";
import { compare } from "./timing.mjs";

const dirs = process.argv.slice(2);
if (dirs.length === 0) dirs.push("pkg");
const policy = { samples: 21, minSampleMs: 5, warmupMs: 1000 };
const us = (ms) => (ms * 1000).toFixed(2);
for (const dir of dirs) {
  const lib = await import(pathToFileURL(resolve(dir, "node.mjs")).href);
  for (const n of [10, 1000, 10000]) {
    const inputs = gen.makeInputs(n);
    const t = compare(gen.competitors(lib, baseline, "b", inputs), policy);
    const p = new lib.Pipeline(gen.pipelineConfig(false));
    const c = compare({ run: () => p.run(inputs.inputB), columnar: () => p.runColumnar(inputs.columnar) }, policy);
    p.free();
    console.log(
      `${dir} (b) N=${n}: run ${us(t.wasm.medianMs)} us, JS baseline ${us(t.js.medianMs)} us, JS / run ${(t.js.medianMs / t.wasm.medianMs).toFixed(2)}x;` +
        ` run ${us(c.run.medianMs)} us against runColumnar ${us(c.columnar.medianMs)} us`,
    );
  }
  // (c) at N = 1,000: the reranker's texts held back (more items than the pool).
  const t = compare(gen.competitors(lib, baseline, "c", gen.makeInputs(1000)), policy);
  console.log(`${dir} (c) N=1000: run ${us(t.wasm.medianMs)} us, JS baseline ${us(t.js.medianMs)} us, JS / run ${(t.js.medianMs / t.wasm.medianMs).toFixed(2)}x`);
}
for (const dir of dirs) {
  const lib = await import(pathToFileURL(resolve(dir, "node.mjs")).href);
  for (const [w, n] of [["b", 10], ["b", 1000], ["c", 20]]) {
    const inputs = gen.makeInputs(n);
    const rerank = w === "c";
    const input = rerank ? inputs.inputC : inputs.inputB;
    const off = new lib.Pipeline(gen.pipelineConfig(rerank));
    const on = new lib.Pipeline({ ...gen.pipelineConfig(rerank), explain: true });
    const t = compare({ off: () => off.run(input), on: () => on.run(input) }, policy);
    off.free();
    on.free();
    console.log(`${dir} (${w}) N=${n}: run ${us(t.off.medianMs)} us, with explain: true ${us(t.on.medianMs)} us`);
  }
}
