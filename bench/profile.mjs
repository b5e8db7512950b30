// Runs one benchmark workload in a loop, for profiling with `node --cpu-prof`:
//   CALIBRANK_PKG=DIR node --cpu-prof --cpu-prof-dir=/tmp/prof bench/profile.mjs WORKLOAD API N SECONDS [js]
// (WORKLOAD a|b|c, API string|columnar; `js` profiles the baseline instead; also
// `cx string N`: workload c with `explain: true`, and `m string N`: `fuseMultiQuery` of
// the 3 lists as hits scored by rank, default options; package only). The
// workloads are the scoring core's (DIR/node.mjs, calibrank_core.wasm). Build the package
// with names kept (bench/build-variant.sh DIR -O3 -ocimfs 100 --low-memory-unused -g: the shipped flags and the
// names; with `-O3 -g` alone binaryen inlines every operation into `cr_call`, which then
// takes their ticks) to see wasm function names, then
// summarize with bench/cpuprof-summary.mjs.
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as gen from "./gen.mjs";
import * as baseline from "./baseline/calibrank-baseline.mjs";

const [w, api, n, secs, side] = process.argv.slice(2);
const lib = side === "js" ? baseline : await import(pathToFileURL(join(resolve(process.env.CALIBRANK_PKG ?? "pkg"), "node.mjs")).href);
const inputs = gen.makeInputs(Number(n));
const p = new lib.Pipeline(w === "cx" ? { ...gen.pipelineConfig(true), explain: true } : gen.pipelineConfig(w === "c"));
const { docs, offsets, nDocs } = inputs.columnar;
const hits = inputs.strLists.map((l) => l.map((id, i) => ({ id, score: 1 - i / l.length })));
const fn = {
  "a/string": () => lib.rrf(inputs.strLists, { limits: gen.BENCH_LIMITS }),
  "a/columnar": () => lib.rrfColumnar(docs, offsets, nDocs, { limits: gen.BENCH_LIMITS }),
  "b/string": () => p.run(inputs.inputB),
  "b/columnar": () => p.runColumnar(inputs.columnar),
  "c/string": () => p.run(inputs.inputC),
  "cx/string": () => p.run(inputs.inputC),
  "m/string": () => lib.fuseMultiQuery(hits, { limits: gen.BENCH_LIMITS }),
}[`${w}/${api}`];
const until = Date.now() + Number(secs) * 1000;
let calls = 0;
while (Date.now() < until) {
  fn();
  calls++;
}
console.error(`${calls} calls`);
