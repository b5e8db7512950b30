// The small-N targets for several builds: JS baseline time / package time for `rrf` (a)
// and `Pipeline.run` (b, c) at N = 10 and the RAG call (c at N = 20), each build timed
// against the baseline in a process of its own, the builds alternating round after round
// (a build's JIT state and garbage never touch another's), medians over the rounds:
//   node bench/small-n.mjs [--rounds 5] DIR...
// Each process runs bench/timing.mjs's `compare` (31 interleaved samples of at least
// 5 ms) per workload, with the calls `make bench` makes. The machine's noise moves single
// ratios by 10-20% here; the medians over rounds are what to compare.
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { compare, median } from "./timing.mjs";

const WORKLOADS = [
  ["a10", "a", 10],
  ["b10", "b", 10],
  ["c10", "c", 10],
  ["rag", "c", 20],
];
const args = process.argv.slice(2);

if (args[0] === "--child") {
  const gen = await import("./gen.mjs");
  const baseline = await import("./baseline/calibrank-baseline.mjs");
  const lib = await import(pathToFileURL(join(args[1], "node.mjs")).href);
  const out = {};
  for (const [name, w, n] of WORKLOADS) {
    const t = compare(gen.competitors(lib, baseline, w, gen.makeInputs(n)), { samples: 31, minSampleMs: 5, warmupMs: 1000 });
    out[name] = { wasmMs: t.wasm.medianMs, jsMs: t.js.medianMs };
  }
  console.log(JSON.stringify(out));
  process.exit(0);
}

const roundsAt = args.indexOf("--rounds");
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 5;
const dirs = args.filter((_, i) => roundsAt < 0 || (i !== roundsAt && i !== roundsAt + 1)).map((d) => resolve(d));
if (dirs.length === 0) {
  console.error("usage: node bench/small-n.mjs [--rounds 5] DIR...");
  process.exit(2);
}
const self = fileURLToPath(import.meta.url);
const got = dirs.map(() => []);
for (let r = 0; r < rounds; r++)
  for (const [i, dir] of dirs.entries()) {
    const p = spawnSync(process.execPath, ["--expose-gc", self, "--child", dir], { encoding: "utf8" });
    if (p.status !== 0) throw new Error(`${dir}: ${p.stderr}`);
    got[i].push(JSON.parse(p.stdout));
    console.error(`round ${r + 1}/${rounds} ${dir}`);
  }
console.log(`| build | ${WORKLOADS.map(([w]) => `${w} JS / wasm (wasm µs)`).join(" | ")} |`);
console.log(`|---|${WORKLOADS.map(() => "---:").join("|")}|`);
for (const [i, dir] of dirs.entries()) {
  const cells = WORKLOADS.map(([w]) => {
    const ratio = median(got[i].map((o) => o[w].jsMs / o[w].wasmMs));
    const us = median(got[i].map((o) => o[w].wasmMs * 1000));
    return `${ratio.toFixed(2)}x (${us.toFixed(1)})`;
  });
  console.log(`| ${dir} | ${cells.join(" | ")} |`);
}
