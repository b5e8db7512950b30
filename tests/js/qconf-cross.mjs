// Issue 13's "fit in Node, predict in Chromium and workerd, the same numbers": a model
// fitted here, in Node, on half of ../shared/data/cisi-abstain (the judged queries sorted
// by id, every other one, as docs/quality.md splits them), and what Node predicts with it
// for the other half (tests/js/suite.js `predictWithModel`). browser.test.mjs and
// worker.test.mjs hand the same model and runs to the other runtimes and compare.
import { readFileSync } from "node:fs";
import * as lab from "calibrank/lab";
import * as core from "calibrank";
import { predictWithModel } from "./suite.js";

const dir = new URL("../../../shared/data/cisi-abstain/", import.meta.url);
const read = (name) => readFileSync(new URL(name, dir), "utf8");

export function crossRuntimeCase() {
  const qrels = lab.parseQrels(read("qrels.txt"));
  const runs = [lab.parseTrecRun(read("run.bm25.txt")), lab.parseTrecRun(read("run.dense.txt"))];
  const judged = Object.keys(qrels).sort();
  const fitHalf = judged.filter((_, i) => i % 2 === 0);
  const testHalf = judged.filter((_, i) => i % 2 === 1);
  const pick = (o, keys) => Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]]));
  const model = lab.fitQueryConfidence(pick(qrels, fitHalf), runs.map((r) => pick(r, fitHalf)));
  const heldOut = runs.map((r) => pick(r, testHalf));
  const lib = { ...lab, ...core };
  const expected = predictWithModel(lib, model, heldOut, testHalf);
  return { model, runs: heldOut, queries: testHalf, expected };
}
