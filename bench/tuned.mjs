// The package against both JS baselines, in one process, interleaved: the idiomatic one
// that issue 11's targets name (bench/baseline/: `Set` per list for duplicates,
// `forEach`, a character-by-character camelCase split) and the same code tuned by hand
// (`rrfTuned`, `TunedPipeline`: one `Map` operation per entry, `for` loops, one regular
// expression for the camelCase split), which a developer who profiles would write.
// Both give the package's output (checked here before timing, and by
// tests/js/baseline.test.mjs). Prints JS time / package time for each, per round, and
// their medians and ranges over the rounds.
//
//   node --expose-gc bench/tuned.mjs [PKG_DIR] [--sizes 10,1000,100000] [--rounds 3] [--only a,b,c,rag]
import { isDeepStrictEqual } from "node:util";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import * as gen from "./gen.mjs";
import * as baseline from "./baseline/calibrank-baseline.mjs";
import { compare, policy, median } from "./timing.mjs";

const args = process.argv.slice(2);
const option = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const pkgDir = resolve(args[0] && !args[0].startsWith("--") ? args[0] : "pkg");
const sizes = option("--sizes", "10,1000,100000").split(",").map(Number);
const rounds = Number(option("--rounds", "3"));
const only = option("--only", "a,b,c,rag").split(",");
const lib = await import(pathToFileURL(`${pkgDir}/node.mjs`).href);

/** The package's output without what the baselines do not make (the outcome). */
const comparable = (out) => {
  if (out && typeof out === "object" && !Array.isArray(out) && "outcome" in out) {
    const { outcome, ...rest } = out;
    return rest;
  }
  return out;
};

/** Output equality of the three before any timing: scores within 1e-12 (libm's exp against Math.exp). */
function same(pkg, js, what) {
  const near = (a, b) => {
    if (typeof a === "number" && typeof b === "number") return a === b || Math.abs(a - b) <= 1e-12;
    if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => near(x, b[i]));
    if (a && b && typeof a === "object" && typeof b === "object") {
      const ka = Object.keys(a);
      return isDeepStrictEqual(ka, Object.keys(b)) && ka.every((k) => near(a[k], b[k]));
    }
    return a === b;
  };
  if (!near(comparable(pkg), js)) throw new Error(`${what}: the baseline's output is not the package's`);
}

function workload(w, n) {
  const inputs = gen.makeInputs(n);
  if (w === "a") return { pkg: () => lib.rrf(inputs.strLists, { limits: gen.BENCH_LIMITS }), idiomatic: () => baseline.rrf(inputs.strLists), tuned: () => baseline.rrfTuned(inputs.strLists) };
  const cfg = gen.pipelineConfig(w !== "b");
  const input = w === "b" ? inputs.inputB : inputs.inputC;
  const p = new lib.Pipeline(cfg);
  const i = new baseline.Pipeline(cfg);
  const t = new baseline.TunedPipeline(cfg);
  return { pkg: () => p.run(input), idiomatic: () => i.run(input), tuned: () => t.run(input) };
}

const range = (xs) => `${median(xs).toFixed(2)}x [${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}]`;
const us = (ms) => `${(ms * 1000).toFixed(ms < 0.1 ? 2 : 1)} us`;
const cases = [];
for (const w of ["a", "b", "c"]) if (only.includes(w)) for (const n of sizes) cases.push([w, n, `(${w}) N = ${n}`]);
if (only.includes("rag")) cases.push(["c", 20, "the RAG call ((c), N = 20)"]);

console.log(`JS time / package time (above 1: the package is faster); ${rounds} rounds, each the median of interleaved samples`);
for (const [w, n, label] of cases) {
  const c = workload(w, n);
  const ref = c.pkg();
  same(ref, c.idiomatic(), `${label} idiomatic`);
  same(ref, c.tuned(), `${label} tuned`);
  // tests/js/bench-scripts.test.mjs: the outputs compared, nothing timed.
  if (process.env.CALIBRANK_BENCH_CHECK === "1") {
    console.log(`${label}: the same output`);
    continue;
  }
  const ri = [];
  const rt = [];
  const lines = [];
  for (let r = 0; r < rounds; r++) {
    const t = w === "c" && n === 20 ? compare(c, { samples: 31, minSampleMs: 10, warmupMs: 1000 }) : compare(c, policy(n));
    ri.push(t.idiomatic.medianMs / t.pkg.medianMs);
    rt.push(t.tuned.medianMs / t.pkg.medianMs);
    lines.push(`package ${us(t.pkg.medianMs)}, idiomatic ${us(t.idiomatic.medianMs)}, tuned ${us(t.tuned.medianMs)}`);
  }
  console.log(`${label}: idiomatic ${range(ri)}, tuned ${range(rt)}\n  ${lines.join("\n  ")}`);
}
