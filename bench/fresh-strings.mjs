// Workload (b) (`Pipeline.run`) where every call gets an input no call has read before,
// as an application's calls get their retrievers' fresh JSON responses: the benchmark's
// input parsed from its JSON text before each call (new strings, whose hashes no one has
// computed; item keys internalized by JSON.parse, list ids not), against the same input
// every call as `make bench` times it. The package and the JS baseline alternate call by
// call; M calls a round, medians of the rounds after two.
//   node bench/fresh-strings.mjs [PKG_DIR N M | N [M]]   (defaults: pkg, 1000, 300)
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as gen from "./gen.mjs";
import * as baseline from "./baseline/calibrank-baseline.mjs";

const args = process.argv.slice(2);
const dir = args.length === 3 ? args.shift() : "pkg";
const n = Number(args[0] ?? 1000);
const m = Number(args[1] ?? 300);
if (!Number.isInteger(n) || n < 1 || !Number.isInteger(m) || m < 1) throw new Error("usage: node bench/fresh-strings.mjs [PKG_DIR N M | N [M]]  (N, M whole numbers)");
const lib = await import(pathToFileURL(resolve(dir, "node.mjs")).href);
const text = JSON.stringify(gen.makeInputs(n).inputB);
const pw = new lib.Pipeline(gen.pipelineConfig(false));
const pj = new baseline.Pipeline(gen.pipelineConfig(false));
// The same input every call, as `make bench` times it (strings read before: hashes cached,
// the list ids internalized by the baseline's `items[id]`). Both sides rank it alike (as
// `make test-bench` checks on every workload).
const same = JSON.parse(text);
const ids = (out) => out.results.map((r) => r.id).join(" ");
if (ids(pw.run(same)) !== ids(pj.run(same))) throw new Error("the package and the baseline rank the input differently");
const inputs = { fresh: () => JSON.parse(text), same: () => same };
// Each side's mean time a call over `calls` calls, each on `input()` (made outside the
// timing: an input parsed just before its call is in the cache, as an application's
// just-received response is); the sides alternate, and which goes first, call by call.
const perCall = (calls, input) => {
  const sum = [0, 0];
  for (let i = 0; i < calls; i++)
    for (let j = 0; j < 2; j++) {
      const k = (i + j) % 2;
      const x = input();
      const t = performance.now();
      (k === 0 ? pw : pj).run(x);
      sum[k] += performance.now() - t;
    }
  return sum.map((x) => x / calls);
};
const times = { fresh: [[], []], same: [[], []] };
for (let round = 0; round < 12; round++)
  for (const [label, input] of Object.entries(inputs)) {
    const t = perCall(m, input);
    if (round >= 2) for (let i = 0; i < 2; i++) times[label][i].push(t[i]);
  }
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const us = (ms) => `${(ms * 1e3).toFixed(1)} us`;
for (const [label, [w, j]] of Object.entries(times)) {
  const [a, b] = [median(w), median(j)];
  console.log(`(b) N=${n} ${label.padEnd(5)} input: calibrank ${us(a)}, baseline ${us(b)}, baseline / calibrank ${(b / a).toFixed(2)}`);
}
