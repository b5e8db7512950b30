// `rrf` (workload a) at a small N with the options `make bench` passes (`{ limits }`,
// raised limits) and with none (the call the table timed), each against the JS
// baseline, interleaved (bench/timing.mjs), in one process, round after round; first, how
// many ids the call fuses and the inversions of their order of first appearance in the
// fused order (what src/sort.rs `sort_keyed` sorts, by insertion up to 32 pairs):
//   node --expose-gc bench/rrf-options.mjs [DIR] [N] [ROUNDS]
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { compare } from "./timing.mjs";
import * as gen from "./gen.mjs";
import * as baseline from "./baseline/calibrank-baseline.mjs";

const [dir = "pkg", n = "10", rounds = "3"] = process.argv.slice(2);
const lib = await import(pathToFileURL(join(resolve(dir), "node.mjs")).href);
const { strLists } = gen.makeInputs(Number(n));
const opts = { samples: 31, minSampleMs: 5, warmupMs: 1000 };
const first = new Map();
for (const id of strLists.flat()) if (!first.has(id)) first.set(id, first.size);
const order = lib.rrf(strLists).map(([id]) => first.get(id));
let inversions = 0;
for (let i = 0; i < order.length; i++) for (let j = i + 1; j < order.length; j++) if (order[i] > order[j]) inversions++;
console.log(`${order.length} ids fused; ${inversions} inversions of their order of first appearance`);
console.log("| round | with `{ limits }`: JS / wasm (wasm µs) | no options: JS / wasm (wasm µs) |");
console.log("|---:|---:|---:|");
for (let r = 1; r <= Number(rounds); r++) {
  const cells = [() => lib.rrf(strLists, { limits: gen.BENCH_LIMITS }), () => lib.rrf(strLists)].map((wasm) => {
    const t = compare({ wasm, js: () => baseline.rrf(strLists) }, opts);
    return `${(t.js.medianMs / t.wasm.medianMs).toFixed(2)}x (${(t.wasm.medianMs * 1000).toFixed(2)})`;
  });
  console.log(`| ${r} | ${cells.join(" | ")} |`);
}
