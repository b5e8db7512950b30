// `Pipeline.run`'s JavaScript side alone: `encodeInput` (js/core/pipeline-input.js, from the
// sources: no package build needed) on workload (b)'s and (c)'s input, against the floor
// of the reads the contract asks for (bench/js-costs.mjs's last line: the ids interned,
// every item's key looked up and its fields read and type-checked, in one pass). (c)
// holds its texts back (`holdAbove` 100, the benchmark's topK) as the package does at
// N > 100. The median of 9 runs after 1 s of warm-up.
//   node bench/encode-input.mjs [JS_DIR] [N] [b|c]   (defaults: js, 1000, both)
// e.g. compare a change with `git stash` between two runs, or a copy of js/ given as JS_DIR.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as gen from "./gen.mjs";

const src = pathToFileURL(resolve(process.argv[2] ?? "js")).href;
const n = Number(process.argv[3] ?? 1000);
const only = process.argv[4];
const { encodeInput } = await import(`${src}/core/pipeline-input.js`);
const { scratch, state } = await import(`${src}/core/shared.js`);
// No module is loaded: held texts only need a slot number to be possible.
state.own = { textsSlot: 0 };
const x = gen.makeInputs(n);
const lim = { maxLists: 64, maxListLength: 1e7, maxTotalEntries: 1e7, maxTextBytes: 1e6, maxTotalTextBytes: 512 * 1024 * 1024, maxIdBytes: 1024 };
const reps = Math.max(200, Math.floor(2e6 / n));
function time(name, f) {
  // CALIBRANK_BENCH_CHECK=1: one call each, nothing timed (tests/js/bench-scripts.test.mjs).
  if (process.env.CALIBRANK_BENCH_CHECK === "1") return void (f(), console.log(`${name}: ran`));
  const until = performance.now() + 1000;
  while (performance.now() < until) f();
  const runs = [];
  for (let r = 0; r < 9; r++) {
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) f();
    runs.push(((performance.now() - t0) / reps) * 1000);
  }
  runs.sort((a, b) => a - b);
  console.log(`${name.padEnd(36)} ${runs[4].toFixed(1).padStart(8)} us`);
}
console.log(`N = ${n} per list (${x.strLists.length} lists), JavaScript from ${src}`);
for (const [w, input, hold] of [["b", x.inputB, -1], ["c", x.inputC, 100]]) {
  if (only && w !== only) continue;
  time(`(${w}) encodeInput`, () => {
    const lease = scratch.take();
    try {
      return encodeInput(input, lim, hold, lease).units;
    } finally {
      scratch.give(lease);
    }
  });
  time(`(${w}) the floor's one pass`, () => gen.contractReads(x.strLists, input.items));
}
