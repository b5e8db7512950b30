// Workloads (b) and (c) with the items given as an object each call (as `make bench`
// times them) and held by an `Items` made once (js/core/items.js), each against the JS
// baseline (bench/baseline) in one process, interleaved (bench/timing.mjs `compare`).
// Prints, per size, the three medians, the ratios baseline / package, and what making
// the `Items` cost (the median of 5 makings) with the calls after which it has paid
// for itself ("never pays for itself" when the held items are no faster).
//   node --expose-gc bench/held-items.mjs [DIR] [--sizes 10,1000,100000] [--workloads b,c]
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as gen from "./gen.mjs";
import * as baseline from "./baseline/calibrank-baseline.mjs";
import { compare, policy, median, now } from "./timing.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : dflt;
};
const sizes = opt("--sizes", "10,1000,100000").split(",").map(Number);
const workloads = opt("--workloads", "b,c").split(",");
const dir = resolve(args[0] ?? "pkg");
const lib = await import(pathToFileURL(join(dir, "node.mjs")).href);

for (const n of sizes) {
  const inputs = gen.makeInputs(n);
  for (const w of workloads) {
    const rerank = w === "c";
    const input = rerank ? inputs.inputC : inputs.inputB;
    const makings = [];
    let items;
    for (let i = 0; i < 5; i++) {
      if (globalThis.gc) globalThis.gc();
      const t = now();
      items = new lib.Items(input.items);
      makings.push(now() - t);
    }
    const heldInput = { ...input, items };
    const pw = new lib.Pipeline(gen.pipelineConfig(rerank));
    const pj = new baseline.Pipeline(gen.pipelineConfig(rerank));
    const same = JSON.stringify(pw.run(input)) === JSON.stringify(pw.run(heldInput));
    // tests/js/bench-scripts.test.mjs: the calls run and agree, nothing timed.
    if (process.env.CALIBRANK_BENCH_CHECK) {
      console.log(`held-items: ${w} N=${n} same output: ${same}`);
      pw.free();
      continue;
    }
    const t = compare({ object: () => pw.run(input), held: () => pw.run(heldInput), js: () => pj.run(input) }, policy(n));
    const us = (ms) => (ms * 1000).toFixed(1);
    const make = median(makings);
    const saved = t.object.medianMs - t.held.medianMs;
    console.log(
      `${w} N=${n}: baseline ${us(t.js.medianMs)} µs; items as an object ${us(t.object.medianMs)} µs (${(t.js.medianMs / t.object.medianMs).toFixed(2)}x); ` +
        `held ${us(t.held.medianMs)} µs (${(t.js.medianMs / t.held.medianMs).toFixed(2)}x); making the Items ${us(make)} µs, ${saved > 0 ? `paid for after ${Math.ceil(make / saved)} calls` : "never pays for itself (the held items are no faster)"}; same output: ${same}`,
    );
    pw.free();
  }
}
