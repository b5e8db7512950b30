// The order that made the lab's port of numba's quicksort quadratic: one query whose
// documents come in descending score but for the last, which scores highest.
// `Run.fromObject` of it, timed once per size, for each package directory given:
//
//   node bench/run-sort-pattern.mjs pkg [/tmp/pkg-old ...]
//
// (docs/reliability.md, "Costs that grew faster than the input".)
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const dirs = process.argv.slice(2);
if (dirs.length === 0) {
  console.error("usage: node bench/run-sort-pattern.mjs PKG [PKG ...]");
  process.exit(2);
}
const sizes = process.env.CALIBRANK_BENCH_CHECK ? [100] : [10_000, 20_000, 40_000];
for (const dir of dirs) {
  const { Run } = await import(pathToFileURL(resolve(dir, "lab.node.mjs")).href);
  for (const n of sizes) {
    const docs = {};
    for (let i = 0; i < n - 1; i++) docs[`d${i}`] = n - i;
    docs.last = n + 10;
    const t = performance.now();
    const run = Run.fromObject({ q: docs });
    const ms = performance.now() - t;
    const first = Object.keys(run.toObject().q)[0];
    console.log(`${dir}: ${n} documents, ${ms.toFixed(1)} ms, ranked first: ${first}`);
    run.free();
  }
}
