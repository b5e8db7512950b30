// A/B of two builds of the package in one process, interleaved (bench/timing.mjs):
//   node --expose-gc bench/ab.mjs DIR_A DIR_B [--sizes 10,1000] [--cisi]
// (DIR: pkg/ or a build of bench/build-variant.sh DIR [wasm-opt flags])
// prints the median time per call of each workload for A and B, and B/A.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as gen from "./gen.mjs";
import { compare, policy } from "./timing.mjs";

const [dirA, dirB] = process.argv.slice(2, 4).map((d) => resolve(d));
const i = process.argv.indexOf("--sizes");
const sizes = (i >= 0 ? process.argv[i + 1] : "10,1000,100000").split(",").map(Number);
// Both entries of each build (the lab's for --cisi: parseTrecRun, fuseRuns).
const load = async (d) => ({ ...(await import(pathToFileURL(join(d, "lab.node.mjs")).href)), ...(await import(pathToFileURL(join(d, "node.mjs")).href)) });
const [A, B] = [await load(dirA), await load(dirB)];
const fmt = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(1)} us` : `${ms.toFixed(2)} ms`);
const row = (name, t) => console.log(`${name.padEnd(22)} A ${fmt(t.A.medianMs).padStart(10)}  B ${fmt(t.B.medianMs).padStart(10)}  B/A ${(t.B.medianMs / t.A.medianMs).toFixed(2)}`);
for (const n of sizes) {
  const x = gen.makeInputs(n);
  const p = policy(n);
  const pipes = (lib) => [new lib.Pipeline(gen.pipelineConfig(false)), new lib.Pipeline(gen.pipelineConfig(true))];
  const [ab, ac] = pipes(A);
  const [bb, bc] = pipes(B);
  const { docs, offsets, nDocs } = x.columnar;
  row(`a/string N=${n}`, compare({ A: () => A.rrf(x.strLists, { limits: gen.BENCH_LIMITS }), B: () => B.rrf(x.strLists, { limits: gen.BENCH_LIMITS }) }, p, { gcEachSample: n >= 100000 }));
  row(`a/columnar N=${n}`, compare({ A: () => A.rrfColumnar(docs, offsets, nDocs), B: () => B.rrfColumnar(docs, offsets, nDocs) }, p));
  row(`b/string N=${n}`, compare({ A: () => ab.run(x.inputB), B: () => bb.run(x.inputB) }, p, { gcEachSample: n >= 100000 }));
  row(`b/columnar N=${n}`, compare({ A: () => ab.runColumnar(x.columnar), B: () => bb.runColumnar(x.columnar) }, p));
  row(`c/string N=${n}`, compare({ A: () => ac.run(x.inputC), B: () => bc.run(x.inputC) }, p, { gcEachSample: n >= 100000 }));
}
if (process.argv.includes("--cisi")) {
  const texts = ["run.bm25.txt", "run.dense.txt"].map((f) => readFileSync(join("..", "shared", "data", "cisi", f), "utf8"));
  const [ra, rb] = [texts.map((t) => A.parseTrecRun(t)), texts.map((t) => B.parseTrecRun(t))];
  const p = { samples: 21, minSampleMs: 5, warmupMs: 300 };
  row("CISI parseTrecRun", compare({ A: () => texts.map((t) => A.parseTrecRun(t)), B: () => texts.map((t) => B.parseTrecRun(t)) }, p));
  row("CISI fuseRuns rrf", compare({ A: () => A.fuseRuns(ra, { method: "rrf" }), B: () => B.fuseRuns(rb, { method: "rrf" }) }, p));
  row("CISI fuseRuns mnz", compare({ A: () => A.fuseRuns(ra, { method: "mnz", norm: "min-max" }), B: () => B.fuseRuns(rb, { method: "mnz", norm: "min-max" }) }, p));
}
