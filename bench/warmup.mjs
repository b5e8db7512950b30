// How long the warm-up before timing must be at small N: one workload's JS / package
// ratio after WARMUP_MS of alternating calls (bench/timing.mjs's `compare`, 21 samples of
// at least 5 ms), in a fresh process per run:
//   node --expose-gc bench/warmup.mjs a|b|c N WARMUP_MS [DIR]   (DIR: the package, pkg/)
// Run it for several warm-ups, e.g.
//   for w in 100 200 300 1000 3000; do node --expose-gc bench/warmup.mjs b 10 $w; done
// On this machine (2026-11-23) 200 ms left the JS baseline's `Pipeline.run` at N = 10
// unoptimized in some runs (14-23 us per call instead of 10.6): the ratio read 1.07x-1.36x
// where it is 0.65x from 300 ms on. bench/timing.mjs's policy now warms up for 1 s.
// At N >= 100,000 (one warm-up call in `make bench`) it tells whether more would move the
// ratio: `for w in 0 4000; do node --expose-gc bench/warmup.mjs b 100000 $w; done`.
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as gen from "./gen.mjs";
import * as baseline from "./baseline/calibrank-baseline.mjs";
import { compare, policy } from "./timing.mjs";

const [w, n, warm, dir] = process.argv.slice(2);
if (!["a", "b", "c"].includes(w) || !(Number(n) > 0) || !(Number(warm) >= 0)) {
  console.error("usage: node --expose-gc bench/warmup.mjs a|b|c N WARMUP_MS [DIR]");
  process.exit(2);
}
const lib = await import(pathToFileURL(join(resolve(dir ?? "pkg"), "node.mjs")).href);
// From N = 100,000 on, as `make bench` times them (bench/timing.mjs `policy`: single-call
// samples, 7 at N = 100,000 and one at 1,000,000, the collector before each), after the
// warm-up asked for instead of one call.
const big = Number(n) >= 100_000;
const p = big ? { ...policy(Number(n)), warmupMs: Number(warm) } : { samples: 21, minSampleMs: 5, warmupMs: Number(warm) };
const t = compare(gen.competitors(lib, baseline, w, gen.makeInputs(Number(n))), p);
const us = (ms) => (ms * 1000).toFixed(2);
console.log(`${w} N=${n} warm-up ${warm} ms: package ${us(t.wasm.medianMs)} us, JS ${us(t.js.medianMs)} us, JS / package ${(t.js.medianMs / t.wasm.medianMs).toFixed(2)}x (drift ${t.wasm.drift.toFixed(2)} / ${t.js.drift.toFixed(2)})`);
