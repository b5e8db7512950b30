// Workload (b) (`Pipeline.run`) timed on two builds of the package and the JS baseline,
// call by call in turn (the order rotated each round), with ids that repeat across calls
// or do not: the experiment of bench/experiments/persistent-ids.patch (a table of ids
// kept across calls), docs/performance-history.md, "A table of ids kept across calls".
//   node --expose-gc bench/experiments/persistent-ids.mjs PKG_A PKG_B [N] [MODE] [CALLS]
// MODE: `same` (one input object every call, as `make bench` times it), `fresh` (the
// input parsed from its JSON text before each call: new strings, the same ids), `new`
// (parsed from a text whose ids are renamed for each call: no id met before). The parse
// is not timed. Prints each competitor's median time per call and the ratios.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as gen from "../gen.mjs";
import * as baseline from "../baseline/calibrank-baseline.mjs";
import { MODES, inputsOf } from "./persistent-ids-inputs.mjs";

const [dirA, dirB, nArg = "1000", mode = "same", callsArg] = process.argv.slice(2);
const n = Number(nArg);
if (!dirA || !dirB || !(n >= 1) || !MODES.includes(mode)) {
  console.error("usage: node --expose-gc bench/experiments/persistent-ids.mjs PKG_A PKG_B [N] [same|fresh|new] [CALLS]");
  process.exit(2);
}
const calls = Number(callsArg ?? Math.max(7, Math.min(600, Math.floor(300_000 / n))));
const load = async (d) => import(pathToFileURL(resolve(d, "node.mjs")).href);
const [A, B] = [await load(dirA), await load(dirB)];
const config = gen.pipelineConfig(false);
const competitors = [
  ["A", new A.Pipeline(config)],
  ["B", new B.Pipeline(config)],
  ["JS", new baseline.Pipeline(config)],
];
const text = JSON.stringify(gen.makeInputs(n).inputB);
const input = inputsOf(text, mode);
// Every competitor ranks the same input alike (the package's two builds, the baseline).
{
  const x = input();
  const ids = competitors.map(([, p]) => p.run(x).results.map((r) => r.id).join());
  if (new Set(ids).size !== 1) throw new Error("the competitors rank the input differently");
}
const times = competitors.map(() => []);
for (let c = 0; c < calls + 2; c++) {
  for (let k = 0; k < competitors.length; k++) {
    const i = (c + k) % competitors.length;
    const x = input();
    const t = performance.now();
    competitors[i][1].run(x);
    const dt = performance.now() - t;
    if (c >= 2) times[i].push(dt);
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const m = times.map(median);
const fmt = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(1)} us` : `${ms.toFixed(2)} ms`);
console.log(
  `(b) N=${n} ${mode}, ${calls} calls each: A ${fmt(m[0])}  B ${fmt(m[1])}  JS ${fmt(m[2])}  B/A ${(m[1] / m[0]).toFixed(2)}  JS/A ${(m[2] / m[0]).toFixed(2)}  JS/B ${(m[2] / m[1]).toFixed(2)}`,
);
