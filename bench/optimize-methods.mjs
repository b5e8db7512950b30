// optimizeFusion of every tunable method at the full default maxSearchWork (medians of
// 3): two runs (and three for the weighted methods) of synthetic runs sized so that
// configurations x (entries + judgements) fills the work, within maxTotalEntries; then
// two CISI runs (bm25, dense) tuned by rbc at ranx's grid (99 x (15,200 + 3,114)).
//   node --max-old-space-size=8192 bench/optimize-methods.mjs [method ...]
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as lib from "calibrank";
import * as lab from "calibrank/lab";
import * as gen from "./gen.mjs";

const D = lib.defaultLimits();
const W = D.maxSearchWork;
const PARAMS = { rrf: 10, rbc: 99, gmnz: 100, logn_isr: 100 };
const all = ["wsum", "wmnz", "mixed", "w_bordafuse", "w_condorcet", "dbsf", "arithmetic_mean", "geometric_mean", "harmonic_mean", ...Object.keys(PARAMS)];
const methods = process.argv.length > 2 ? process.argv.slice(2) : all;

function median3(call) {
  const times = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    call();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[1];
}

for (const m of methods) {
  for (const nRuns of m in PARAMS ? [2] : [2, 3]) {
    const trials = PARAMS[m] ?? (nRuns === 2 ? 11 : 66);
    const P = Math.floor(Math.min(W / trials, D.maxTotalEntries) / (nRuns + 0.1) / 100) * 100;
    const runs = Array.from({ length: nRuns }, (_, i) => gen.runObject(P / 100, 100, i + 1));
    const qrels = gen.qrelsObject(P / 100, 10, 0);
    const ms = median3(() => lab.optimizeFusion(qrels, runs, { method: m }));
    console.log(`${m.padEnd(16)} ${nRuns} runs x ${P} entries, ${trials} configurations: ${ms.toFixed(0)} ms`);
  }
}

const cisi = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "shared", "data", "cisi");
if (existsSync(cisi)) {
  const qrels = lab.parseQrels(readFileSync(join(cisi, "qrels.txt"), "utf8"));
  const runs = ["run.bm25.txt", "run.dense.txt"].map((f) => lab.parseTrecRun(readFileSync(join(cisi, f), "utf8")));
  console.log(`CISI bm25 + dense by rbc (99 values of phi): ${median3(() => lab.optimizeFusion(qrels, runs, { method: "rbc" })).toFixed(0)} ms`);
}
