import * as cr from "calibrank";
import { makeInputs, pipelineConfig, QUERY } from "/work/main/bench/gen.mjs";
const t = (name, f, reps = 2) => {
  f(); let best = Infinity;
  for (let i = 0; i < reps; i++) { const s = performance.now(); f(); best = Math.min(best, performance.now() - s); }
  console.log(name.padEnd(50), best.toFixed(1), "ms");
  return best;
};
const which = process.argv[2] || "all";
const N = +(process.argv[3] || 100000);
if (which === "all" || which === "runs") {
  // run with Q queries x D docs
  const mk = (Q, D, seed) => { const r = {}; for (let q = 0; q < Q; q++) { const d = {}; for (let i = 0; i < D; i++) d[`doc-${(i * 7919 + seed) % (D * 2)}-${q}`] = 1 - i / D; r[`q${q}`] = d; } return r; };
  const r1 = mk(N / 100, 100, 1), r2 = mk(N / 100, 100, 3), r3 = mk(N/100,100,5);
  t(`evaluate run ${N} entries, qrels ${N}`, () => cr.evaluate(r2, r1, ["ndcg@10", "map@100", "recall@100"]));
  t(`fuseRuns rrf 3x${N}`, () => cr.fuseRuns([r1, r2, r3], { method: "rrf" }));
  t(`fuseRuns condorcet 3x${N}`, () => cr.fuseRuns([r1, r2, r3], { method: "condorcet" }));
  t(`fuseRuns wsum 3x${N}`, () => cr.fuseRuns([r1, r2, r3], { method: "wsum", weights: [0.3, 0.3, 0.4] }));
  const big1 = mk(1, N, 1), big2 = mk(1, N, 3);
  t(`fuseRuns condorcet 1 query x ${N} (2 runs)`, () => cr.fuseRuns([big1, big2], { method: "condorcet" }));
  t(`fuseRuns rbc 1 query x ${N} (2 runs)`, () => cr.fuseRuns([big1, big2], { method: "rbc", params: { phi: 0.8 } }));
  let text = ""; const lines = [];
  for (let q = 0; q < N / 100; q++) for (let i = 0; i < 100; i++) lines.push(`q${q} Q0 doc-${i * 13}-${q} ${i + 1} ${(1 - i / 100).toFixed(4)} run`);
  text = lines.join("\n");
  t(`parseTrecRun ${N} lines (${(text.length / 1e6).toFixed(1)} MB)`, () => cr.parseTrecRun(text));
  t(`optimizeFusion wsum 2 runs x ${N} (11 trials)`, () => cr.optimizeFusion(r2, [r1, r3], { method: "wsum", step: 0.1 }), 1);
}
if (which === "all" || which === "fit") {
  const s = new Float64Array(N), l = new Float64Array(N);
  for (let i = 0; i < N; i++) { s[i] = ((i * 2654435761) % 1000003) / 1000003; l[i] = (i * 7) % 3 === 0 ? 1 : 0; }
  t(`fitPlatt ${N}`, () => cr.fitPlatt(s, l));
  t(`fitIsotonic ${N}`, () => cr.fitIsotonic(s, l));
  t(`proposeBands ${N}`, () => cr.proposeBands(s, l));
  t(`calibrationError ${N}`, () => cr.calibrationError(s, l));
  t(`normalize softmax ${N}`, () => cr.normalize(s, "softmax"));
  t(`normalize number[] ${N}`, () => cr.normalize(Array.from(s), "min_max"));
  const iso = cr.fitIsotonic(s, l);
  console.log("isotonic knots", iso.x.length);
  t(`applyCalibration isotonic ${N}`, () => cr.applyCalibration(s, iso));
}
if (which === "all" || which === "text") {
  const big = "authentication token cache router ".repeat(Math.ceil(1e6 / 35)).slice(0, 1e6);
  const cands = Array.from({ length: 16 }, (_, i) => ({ id: `d${i}`, name: "AuthCache", type: "class", score: 0.5, summary: big }));
  t(`rerank 16 x 1MB summaries`, () => cr.rerank(big, cands));
  const many = Array.from({ length: N }, (_, i) => ({ id: `doc-${i}`, name: "AuthTokenCache", type: "class", score: 1 / (i + 1), summary: "the authentication token cache is configured by router" }));
  t(`rerank ${N} candidates`, () => cr.rerank(QUERY, many));
  const qs = [0, 1, 2].map((k) => Array.from({ length: N }, (_, i) => ({ id: `doc-${(i * 7 + k) % (2 * N)}`, score: 1 - i / N })));
  t(`fuseMultiQuery 3x${N}`, () => cr.fuseMultiQuery(qs));
  const longIds = [0, 1, 2].map((k) => Array.from({ length: N / 10 }, (_, i) => `${k}-${i}-`.padEnd(1024, "x")));
  t(`rrf 3x${N / 10} 1KB ids`, () => cr.rrf(longIds));
}
if (which === "all" || which === "pipe") {
  const inp = makeInputs(N);
  const pc = new cr.Pipeline(pipelineConfig(true));
  const pb = new cr.Pipeline(pipelineConfig(false));
  const pe = new cr.Pipeline({ ...pipelineConfig(true), explain: true, topK: 1000, topN: 1000 });
  t(`rrf 3x${N}`, () => cr.rrf(inp.strLists));
  t(`Pipeline.run (b) 3x${N}`, () => pb.run(inp.inputB));
  t(`Pipeline.run (c) 3x${N}`, () => pc.run(inp.inputC));
  t(`Pipeline.run (c, explain, topN 1000) 3x${N}`, () => pe.run(inp.inputC));
  t(`runColumnar 3x${N}`, () => pb.runColumnar(inp.columnar));
}
