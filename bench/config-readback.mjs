// `Pipeline.config` (the effective configuration, written as JSON by the core module and
// parsed) in two builds of the package, interleaved in one process: the time per read and
// B's ratio to A. Each number the JSON holds is printed by calibrank::decimal (the
// shortest digits that read back), which this measures with configurations of 0, 100 and
// 1,000 list weights (a default configuration holds about 30 numbers).
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

const weights = (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`list${i}`, 1 + i / 7]));
const cases = [0, 100, 1000].map((n) => ({ n, config: n === 0 ? {} : { weights: weights(n) } }));

/** How many numbers `v` holds. */
const count = (v) => (typeof v === "number" ? 1 : v !== null && typeof v === "object" ? Object.values(v).reduce((n, x) => n + count(x), 0) : 0);

/** Microseconds per read of `p.config`, over reads that take about 50 ms in all. */
function time(p) {
  let reads = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < reads; i++) p.config;
    const ms = performance.now() - t0;
    if (ms >= 50) return (ms * 1000) / reads;
    reads *= ms < 5 ? 8 : 2;
  }
}

console.log(`config-readback: A ${dirs[0]}, B ${dirs[1]}, ${rounds} rounds (the median)`);
console.log("weights | numbers in the JSON | A µs/read | B µs/read | B/A");
for (const { n, config } of cases) {
  const pa = new a.Pipeline(config);
  const pb = new b.Pipeline(config);
  assert.deepEqual(pb.config, pa.config, "the two builds give the same configuration");
  const numbers = count(pa.config);
  if (process.env.CALIBRANK_BENCH_CHECK) {
    console.log(`config-readback: ${n} weights, the same object`);
    continue;
  }
  const ta = [];
  const tb = [];
  for (let r = 0; r < rounds; r++) {
    ta.push(time(pa));
    tb.push(time(pb));
  }
  const median = (xs) => xs.sort((x, y) => x - y)[xs.length >> 1];
  const [ma, mb] = [median(ta), median(tb)];
  console.log(`${n} | ${numbers} | ${ma.toFixed(1)} | ${mb.toFixed(1)} | ${(mb / ma).toFixed(2)}x`);
}
