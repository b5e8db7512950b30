// `Pipeline.config` (the effective configuration) in two builds of the package,
// interleaved in one process. Two times per read:
// - first: a pipeline's first read, where the core module writes the configuration's
//   JSON (each number printed by calibrank::decimal: the shortest digits that read back)
//   and the JavaScript parses it; the pipelines are made before the timer starts;
// - again: a later read of the same pipeline (a copy of what the first read kept, since
//   the fifty-seventh session; the first read's work again in builds before it).
// Configurations: 0, 100 and 1,000 list weights of 16-17 digits (a default configuration
// holds about 30 short numbers), and an isotonic calibration of 19,000 knots.
//
//   node bench/config-readback.mjs A B [--rounds 5]
//
// A and B are package directories (pkg/, or a build with PKG_OUT=/tmp/x
// scripts/build-pkg.sh). Both give the same object (checked before timing).
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const dirs = args.filter((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--"));
if (dirs.length !== 2) {
  console.error("usage: node bench/config-readback.mjs A B [--rounds N]");
  process.exit(2);
}
const at = args.indexOf("--rounds");
const rounds = at >= 0 ? Number(args[at + 1]) : 5;
const [a, b] = await Promise.all(dirs.map((d) => import(pathToFileURL(resolve(d, "node.mjs")).href)));

const weights = (n) => ({ weights: Object.fromEntries(Array.from({ length: n }, (_, i) => [`list${i}`, 1 + i / 7])) });
const knots = 19_000;
const isotonic = {
  calibration: {
    method: "isotonic",
    x: Array.from({ length: knots }, (_, i) => i / knots + 1 / 7e6),
    y: Array.from({ length: knots }, (_, i) => Math.min(1, i / knots + 1 / 3e6)),
  },
};
const cases = [
  ["0 weights", {}],
  ["100 weights", weights(100)],
  ["1,000 weights", weights(1000)],
  [`isotonic, ${knots.toLocaleString("en-US")} knots`, isotonic],
];

/** How many numbers `v` holds. */
const count = (v) => (typeof v === "number" ? 1 : v !== null && typeof v === "object" ? Object.values(v).reduce((n, x) => n + count(x), 0) : 0);

/** Microseconds of a first read: reads of fresh pipelines (made untimed) until about 50 ms. */
function first(lib, config) {
  let timed = 0;
  let reads = 0;
  while (timed < 50_000 && reads < 1000) {
    const batch = Array.from({ length: reads === 0 ? 1 : Math.min(64, reads) }, () => new lib.Pipeline(config));
    const t0 = performance.now();
    for (const p of batch) p.config;
    timed += (performance.now() - t0) * 1000;
    reads += batch.length;
    for (const p of batch) p.free();
  }
  return timed / reads;
}

/** Microseconds of a later read of one pipeline, over reads that take about 50 ms. */
function again(lib, config) {
  const p = new lib.Pipeline(config);
  p.config;
  let reads = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < reads; i++) p.config;
    const ms = performance.now() - t0;
    if (ms >= 50) {
      p.free();
      return (ms * 1000) / reads;
    }
    reads *= ms < 5 ? 8 : 2;
  }
}

const median = (xs) => xs.sort((x, y) => x - y)[xs.length >> 1];
console.log(`config-readback: A ${dirs[0]}, B ${dirs[1]}, ${rounds} rounds (the median)`);
console.log("configuration | numbers | first read A | B | B/A | again A | B | B/A");
for (const [name, config] of cases) {
  const [pa, pb] = [new a.Pipeline(config), new b.Pipeline(config)];
  assert.deepEqual(pb.config, pa.config, "the two builds give the same configuration");
  const numbers = count(pa.config);
  pa.free();
  pb.free();
  if (process.env.CALIBRANK_BENCH_CHECK) {
    console.log(`config-readback: ${name}, the same object`);
    continue;
  }
  const t = { fa: [], fb: [], aa: [], ab: [] };
  for (let r = 0; r < rounds; r++) {
    t.fa.push(first(a, config));
    t.fb.push(first(b, config));
    t.aa.push(again(a, config));
    t.ab.push(again(b, config));
  }
  const [fa, fb, aa, ab] = [t.fa, t.fb, t.aa, t.ab].map(median);
  const us = (x) => `${x.toFixed(1)} µs`;
  console.log(`${name} | ${numbers} | ${us(fa)} | ${us(fb)} | ${(fb / fa).toFixed(2)}x | ${us(aa)} | ${us(ab)} | ${(ab / aa).toFixed(2)}x`);
}
