// `evaluate` at its default limit (qrels and run of 250,000 entries each, 2,500 queries,
// 4 metrics) given plain objects against given `Qrels` / `Run` handles made beforehand,
// in one process, three rounds: what reading the objects costs beside the evaluation.
//   node --max-old-space-size=8192 bench/evaluate-split.mjs [PKG_DIR]   (default: pkg)
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { qrelsObject, runObject } from "./gen.mjs";

const lab = await import(pathToFileURL(join(resolve(process.argv[2] ?? "pkg"), "lab.node.mjs")).href);
// The same runs as bench/limits.mjs's `evaluate` case.
const qrels = qrelsObject(2500, 100, 1);
const r = runObject(2500, 100, 2);
const M = ["ndcg@10", "map@100", "recall@100", "mrr"];
const L = { limits: { maxTotalEntries: 1e6 } };
const time = (f) => {
  const s = performance.now();
  f();
  return performance.now() - s;
};
lab.evaluate(qrels, r, M);
const Q = lab.Qrels.fromObject(qrels, L);
const R = lab.Run.fromObject(r, L);
lab.evaluate(Q, R, M);
for (let i = 0; i < 3; i++) {
  const objects = time(() => lab.evaluate(qrels, r, M));
  const handles = time(() => lab.evaluate(Q, R, M));
  console.log(`round ${i + 1}: objects ${objects.toFixed(0)} ms, handles ${handles.toFixed(0)} ms`);
}
