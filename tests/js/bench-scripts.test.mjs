// The benchmark scripts that patch a copy of the package's Node entry (bench/patched-entry.mjs)
// or import its JavaScript sources find what they need: each runs with
// CALIBRANK_BENCH_CHECK=1, which ends it once its patches apply (or, for
// bench/encode-input.mjs, after one call of each workload), before anything is timed.
// docs/performance*.md give these scripts as the commands behind their figures; a
// change of the package's JavaScript that moves an anchor fails here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const run = (args) => {
  const p = spawnSync(process.execPath, ["--expose-gc", ...args], {
    cwd: root,
    env: { ...process.env, CALIBRANK_BENCH_CHECK: "1" },
    encoding: "utf8",
    timeout: 120_000,
  });
  assert.equal(p.status, 0, `node ${args.join(" ")}: exit ${p.status}\n${p.stdout}\n${p.stderr}`);
  return p.stdout;
};

test("bench/phases.mjs's patches apply to pkg/node.mjs", () => {
  assert.match(run(["bench/phases.mjs", "pkg", "b", "10"]), /phases: \d+ patches apply/);
});

test("bench/held-items.mjs: the items held give the output of the items as an object", () => {
  const out = run(["bench/held-items.mjs", "pkg", "--sizes", "10,1000"]);
  assert.equal((out.match(/same output: true/g) ?? []).length, 4, out);
});

test("bench/js-side.mjs's patches apply to pkg/node.mjs", () => {
  assert.match(run(["bench/js-side.mjs", "pkg"]), /js-side: \d+ patches apply/);
});

test("bench/capture.mjs's patches apply to pkg/node.mjs", () => {
  const out = mkdtempSync(join(tmpdir(), "calibrank-capture-"));
  try {
    assert.match(run(["bench/capture.mjs", "pkg", out]), /capture: \d+ patches apply/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("bench/held-texts-ask.mjs's patch applies to pkg/node.mjs", () => {
  assert.match(run(["bench/held-texts-ask.mjs", "pkg"]), /held-texts-ask: \d+ patches apply/);
});

test("bench/experiments/blank-ids.mjs's patch applies to pkg/node.mjs", () => {
  assert.match(run(["bench/experiments/blank-ids.mjs", "pkg", "/nowhere"]), /blank-ids: 1 patch applies/);
});

test("bench/encode-input.mjs runs encodeInput from js/", () => {
  const out = run(["bench/encode-input.mjs", "js", "10"]);
  assert.match(out, /\(b\) encodeInput: ran/);
  assert.match(out, /\(c\) encodeInput: ran/);
});

// `make bench-limits` judges the lab's calls with the benchmark's judgements: whole
// grades since the lab took only those (bench/gen.mjs `qrelsObject`); its fractional
// grades of before failed `evaluate` and `optimizeFusion` at their default limits.
test("bench/limits.mjs: the lab's calls that read judgements run at their default limits", () => {
  const dir = mkdtempSync(join(tmpdir(), "calibrank-limits-"));
  try {
    for (const only of ["evaluate", "optimizeFusion", "fitQueryConfidence", "proposeBands"]) {
      const out = run(["--max-old-space-size=8192", "bench/limits.mjs", "--only", only, "--no-first", "--reps", "1", "--out", join(dir, `${only}.json`)]);
      assert.match(out, /; 0 failed; 0 over-limit inputs accepted/, out);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("bench/timing.mjs: a collection before every sample from N = 100,000 on, as the policy says", async () => {
  const { policy, compare } = await import("../../bench/timing.mjs");
  assert.deepEqual([10, 1_000, 10_000, 100_000, 1_000_000].map((n) => policy(n).gcEachSample), [false, false, false, true, true]);
  assert.equal(policy(100_000, true).gcEachSample, true, "quick runs keep the rule");
  const saved = globalThis.gc;
  let collections = 0;
  const calls = [];
  globalThis.gc = () => collections++;
  try {
    const p = { samples: 3, minSampleMs: 0, warmupMs: 0 };
    compare({ a: () => calls.push("a"), b: () => calls.push("b") }, { ...p, gcEachSample: true });
    assert.equal(collections, 6, "one before each of 3 samples of 2 competitors");
    compare({ a: () => {}, b: () => {} }, p);
    assert.equal(collections, 6, "none without gcEachSample");
    // Warm-up: one call each; then the samples, interleaved A B, B A, A B.
    assert.deepEqual(calls, ["a", "b", "a", "b", "b", "a", "a", "b"]);
  } finally {
    globalThis.gc = saved;
  }
});

test("bench/timing.mjs: quick runs keep the 1 s warm-up up to N = 1,000", async () => {
  const { policy } = await import("../../bench/timing.mjs");
  // 200 ms gave wrong verdicts at N = 10 (performance-history.md, "The benchmark's warm-up").
  assert.deepEqual([10, 100, 1_000, 10_000].map((n) => policy(n, true).warmupMs), [1000, 1000, 1000, 300]);
  assert.deepEqual([10, 10_000].map((n) => policy(n, true).samples), [5, 5]);
});

test("bench/targets.mjs: no verdict for a target whose rows drifted", async () => {
  const { targets, verdict } = await import("../../bench/targets.mjs");
  const row = (api, wasmMs, jsMs, drift) => ({ workload: "b", api, n: 10, wasmMs, jsMs, ...(drift ? { drift } : {}) });
  const of = (rows, name) => targets({ workloads: rows }).find((t) => t.target === name);
  const name = "string (b) vs JS, N = 10";
  // bench/run.mjs printed `b/string wasm 162.0 us js 14.8 us x0.09 (wasm drifted x1.93, js drifted x0.71)`.
  const drifted = of([row("string", 0.162, 0.0148, { wasm: 1.93, js: 0.71 })], name);
  assert.equal(verdict(drifted), "unreliable (drift)");
  assert.equal(drifted.met, false, "met still says what the figures say");
  assert.deepEqual(drifted.drifted, ["b/string N=10 wasm x1.93", "b/string N=10 js x0.71"]);
  assert.equal(verdict(of([row("string", 0.0148, 0.162, { wasm: 1.2, js: 0.81 })], name)), "yes");
  assert.equal(verdict(of([row("string", 0.162, 0.0148, { wasm: 1, js: 1 })], name)), "**no**");
  // Results written before `drift` was recorded.
  assert.equal(verdict(of([row("string", 0.162, 0.0148)], name)), "**no**");
});

test("bench/abstain-outcomes.mjs gives the outcomes the README states", () => {
  const out = run(["bench/abstain-outcomes.mjs", "pkg"]);
  // README, "Mind the default calibration with two lists".
  const counts = (label) => JSON.parse(new RegExp(`^${label}: (.*)$`, "m").exec(out)[1]);
  const d = counts("defaults");
  assert.deepEqual([d.answerable.answer, d.unanswerable.answer, d.answerable.abstain], [58, 7, 8], out);
  assert.deepEqual(counts("calibration \\{ threshold: 0\\.02 \\}"), { answerable: { answer: 76 }, unanswerable: { answer: 70 } });
  // README, "Without a fitted model, the outcome counts results".
  assert.match(out, /topN 1: 0\.418 miss -> hedge 0\.418/);
  assert.match(out, /topN 2: 0\.418 miss, 0\.399 miss -> answer 0\.650/);
});

test("scripts/bands-by-query.mjs gives the held-out precisions the README states", () => {
  // README, "Evidence instead of fixed parameters": proposeBands' folds of items against
  // folds of whole queries and the other half.
  const out = run(["scripts/bands-by-query.mjs"]);
  assert.match(out, /^fit on half A: .* folds of items 0\.532, with folds of queries 0\.486; on the other half 0\.468$/m, out);
  assert.match(out, /^fit on half B: .* folds of items 0\.500, with folds of queries 0\.470; on the other half 0\.505$/m, out);
});

test("bench/tuned.mjs: both baselines give the package's output before anything is timed", () => {
  const out = run(["bench/tuned.mjs", "pkg", "--sizes", "10,1000"]);
  assert.equal((out.match(/: the same output$/gm) ?? []).length, 7, out);
});

test("bench/work-units.mjs measures a unit of each search's work (the figures behind src/limits.rs's units)", () => {
  const out = run(["bench/work-units.mjs", "pkg"]);
  for (const name of ["optimizeFusion", "proposeBands", "fitQueryConfidence"]) assert.match(out, new RegExp(`^${name}\\b.* ns a`, "m"), out);
  // The fit iterates (a data set whose features carry no signal would stop at once).
  assert.doesNotMatch(out, /\(0 iterations\)/, out);
});

test("bench/run-objects-scale.mjs runs both of its modes", () => {
  assert.match(run(["bench/run-objects-scale.mjs", "json", "--sizes", "1000"]), /^1000 entries: JSON\.parse .* ms; assignment .* ms$/m);
  const out = run(["bench/run-objects-scale.mjs", "parse", "--sizes", "1000", "pkg", "pkg"]);
  for (const name of ["parseTrecRun", "Run.fromTrec", "parseQrels"]) assert.match(out, new RegExp(`^1000 lines, ${name.replace(".", "\\.")}: pkg [\\d.]+ ms, pkg [\\d.]+ ms$`, "m"));
});

test("bench/config-readback.mjs: two builds give the same configuration for each of the four cases it times", () => {
  assert.equal((run(["bench/config-readback.mjs", "pkg", "pkg"]).match(/the same object/g) ?? []).length, 4);
});

test("bench/run-sort-pattern.mjs: the last document, scoring highest, is ranked first", () => {
  assert.match(run(["bench/run-sort-pattern.mjs", "pkg"]), /pkg: 100 documents, [\d.]+ ms, ranked first: last/);
});

test("bench/intern-flood.mjs: colliding and ordinary ids both give a probability", () => {
  assert.match(
    run(["bench/intern-flood.mjs", "pkg"]),
    /pkg: 300 ids, ordinary [\d.]+ ms, colliding [\d.]+ ms, ratio [\d.]+x/,
  );
});

test("bench/rerank-ids.mjs: hostile ids are reranked, every candidate kept", () => {
  assert.match(
    run(["bench/rerank-ids.mjs", "pkg"]),
    /pkg: 300 candidates, ordinary [\d.]+ ms, colliding [\d.]+ ms \([\d.]+x\); long [\d.]+ ms, prefixed [\d.]+ ms \([\d.]+x\)/,
  );
});
