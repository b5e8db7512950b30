// `rerank`'s duplicate-id check on hostile ids, each kind timed twice per size (the faster kept), for each
// package directory given: ids made to hash alike under FxHash (no key; 16-byte ids whose
// two words cancel) against ordinary 16-byte ids, and ids sharing a 600-byte prefix
// against ids of the same bytes that differ at their start. The scores are distinct (no
// ties broken by id). The ratios are hostile / ordinary in the same process.
//
//   node bench/rerank-ids.mjs pkg [/tmp/pkg-old ...]
//
// (docs/reliability.md, "Costs that grew faster than the input".)
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { collidingIds, ordinaryIds } from "./hostile-ids.mjs";

const dirs = process.argv.slice(2);
if (dirs.length === 0) {
  console.error("usage: node bench/rerank-ids.mjs PKG [PKG ...]");
  process.exit(2);
}
const sizes = process.env.CALIBRANK_BENCH_CHECK ? [300] : [10_000, 50_000];
const prefix = "p".repeat(600);
const kinds = {
  ordinary: ordinaryIds,
  colliding: collidingIds,
  long: (n) => Array.from({ length: n }, (_, i) => `${String(i).padStart(6, "0")}${prefix}`),
  prefixed: (n) => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(6, "0")}`),
};

for (const dir of dirs) {
  const lib = await import(pathToFileURL(resolve(dir, "node.mjs")).href);
  // Warmed up first, so that the first kind timed does not pay for compiling.
  lib.rerank("query words", kinds.ordinary(2000).map((id, i) => ({ id, score: i, name: "n" })));
  for (const n of sizes) {
    const times = {};
    for (const [kind, make] of Object.entries(kinds)) {
      const candidates = make(n).map((id, i) => ({ id, score: 1 + i / n, name: `n${i % 13}` }));
      // The faster of two calls (the first of a process also pays for compiling).
      times[kind] = Infinity;
      for (let round = 0; round < 2; round++) {
        const t = performance.now();
        const out = lib.rerank("query words", candidates);
        times[kind] = Math.min(times[kind], performance.now() - t);
        if (out.length !== n) throw new Error(`${kind}: ${out.length} results for ${n} candidates`);
      }
    }
    const ms = (k) => `${k} ${times[k].toFixed(1)} ms`;
    const r = (a, b) => (times[a] / times[b]).toFixed(2);
    console.log(
      `${dir}: ${n} candidates, ${ms("ordinary")}, ${ms("colliding")} (${r("colliding", "ordinary")}x); ${ms("long")}, ${ms("prefixed")} (${r("prefixed", "long")}x)`,
    );
  }
}
