// The outcomes the README states for pipelines without a fitted model
// ("Mind the default calibration with two lists", "Without a fitted model, the outcome
// counts results"): the cisi-abstain queries (../shared/data/cisi-abstain, 76 answerable,
// 70 with nothing relevant) fused from their BM25 and dense lists, each query's outcome
// kind counted with the defaults and with `calibration: { threshold: 0.02 }`; then two
// lists that agree on three ids, run with topN 1, 2 and 3.
//   node bench/abstain-outcomes.mjs [PKG_DIR]
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dir = resolve(process.argv[2] ?? join(root, "pkg"));
const { Pipeline } = await import(pathToFileURL(join(dir, "node.mjs")).href);
const lab = await import(pathToFileURL(join(dir, "lab.node.mjs")).href);
const data = join(root, "..", "shared", "data", "cisi-abstain");
const read = (f) => readFileSync(join(data, f), "utf8");
const limits = { maxTotalEntries: 1_000_000 };
const names = ["bm25", "dense"];
const runs = names.map((n) => lab.parseTrecRun(read(`run.${n}.txt`), { limits }));
const qrels = lab.parseQrels(read("qrels.txt"));
const answerable = (q) => Object.values(qrels[q] ?? {}).some((g) => g > 0);
// Each list best first, ties by id (README, "Ties": an object's keys are not its ranking).
const listsOf = (q) => runs.map((r, i) => ({ name: names[i], ids: Object.entries(r[q] ?? {}).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([id]) => id) }));

for (const [label, config] of [["defaults", {}], ["calibration { threshold: 0.02 }", { calibration: { threshold: 0.02 } }]]) {
  const p = new Pipeline(config);
  const counts = { answerable: {}, unanswerable: {} };
  for (const q of Object.keys(qrels)) {
    const kind = p.run({ lists: listsOf(q) }).outcome.kind;
    const c = counts[answerable(q) ? "answerable" : "unanswerable"];
    c[kind] = (c[kind] ?? 0) + 1;
  }
  p.free();
  console.log(`${label}: ${JSON.stringify(counts)}`);
}

const p = new Pipeline();
const agree = [{ name: "bm25", ids: ["a", "b", "c"] }, { name: "dense", ids: ["a", "b", "c"] }];
for (const topN of [1, 2, 3]) {
  const out = p.run({ lists: agree, topN });
  console.log(`two lists agreeing, topN ${topN}: ${out.results.map((r) => `${r.score.toFixed(3)} ${r.band}`).join(", ")} -> ${out.outcome.kind} ${out.outcome.probability.toFixed(3)}`);
}
p.free();
