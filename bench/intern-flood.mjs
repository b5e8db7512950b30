// Ids made to hash alike under FxHash (no key; 16-byte ids whose two words cancel),
// against ordinary 16-byte ids, through the lab's `predictQueryConfidence` (which fuses
// its runs in the module, interning their ids there): one query of N documents in each of
// two runs, timed once per size and kind, for each package directory given; the ratio
// is colliding / ordinary in the same process.
//
//   node bench/intern-flood.mjs pkg [/tmp/pkg-old ...]
//
// (docs/reliability.md, "Costs that grew faster than the input".)
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { collidingIds, ordinaryIds } from "./hostile-ids.mjs";

const dirs = process.argv.slice(2);
if (dirs.length === 0) {
  console.error("usage: node bench/intern-flood.mjs PKG [PKG ...]");
  process.exit(2);
}
const sizes = process.env.CALIBRANK_BENCH_CHECK ? [300] : [5_000, 10_000, 20_000];

for (const dir of dirs) {
  const lab = await import(pathToFileURL(resolve(dir, "lab.node.mjs")).href);
  await lab.default?.();
  // A model fitted on four small judged queries, two with a relevant document on top.
  const runs = [0, 1].map((r) => {
    const run = {};
    for (let q = 0; q < 4; q++) run[`q${q}`] = { [`a${q}`]: 3 - r, [`b${q}`]: 2, [`c${q}`]: 1 };
    return run;
  });
  const qrels = { q0: { a0: 1 }, q1: { b1: 1 }, q2: { zz: 1 }, q3: { a3: 0 } };
  const model = lab.fitQueryConfidence(qrels, runs, { k: 2 });
  for (const n of sizes) {
    const times = {};
    for (const [kind, ids] of [["ordinary", ordinaryIds(n)], ["colliding", collidingIds(n)]]) {
      const run = (reverse) => {
        const docs = {};
        ids.forEach((id, i) => (docs[id] = reverse ? i + 1 : n - i));
        return { q: docs };
      };
      const both = [run(false), run(true)];
      const t = performance.now();
      const p = lab.predictQueryConfidence(model, both).q;
      times[kind] = performance.now() - t;
      if (!(p >= 0 && p <= 1)) throw new Error(`no probability for ${kind}: ${p}`);
    }
    const ratio = times.colliding / times.ordinary;
    console.log(
      `${dir}: ${n} ids, ordinary ${times.ordinary.toFixed(1)} ms, colliding ${times.colliding.toFixed(1)} ms, ratio ${ratio.toFixed(2)}x`,
    );
  }
}
