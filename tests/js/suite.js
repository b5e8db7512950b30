// The JS test suite of the built package. Runtime-neutral: Node runs it through
// node.test.mjs, headless Chromium through browser.test.mjs, workerd through
// worker.test.mjs, Bun and Deno through runtime-suite.mjs, each with the same `lib` (the
// package's exports, both entries merged) and the same golden vectors. The tests live in
// suite/, a file per area; this file lists them in the order they run. Some were written
// for mutants that the tests before them let live (the package's JavaScript's, and the
// binding crates' checks that only the module makes: scripts/mutants/); each sits with
// its area. Every runtime runs them all.

import { scoringTests } from "./suite/scoring.js";
import { crossingTests } from "./suite/crossing.js";
import { itemsTests } from "./suite/items.js";
import { errorTests } from "./suite/errors.js";
import { limitTests } from "./suite/limits.js";
import { callerCodeTests } from "./suite/caller-code.js";
import { labTests } from "./suite/lab.js";
import { goldenTests } from "./suite/golden.js";

export { computeGolden, predictWithModel } from "./suite/golden.js";

const AREAS = [scoringTests, crossingTests, itemsTests, errorTests, limitTests, callerCodeTests, labTests, goldenTests];

/** Every test of the suite, as `{ name, fn }`, for a runner that reports each one. */
export function tests(lib, golden) {
  const t = [];
  const test = (name, fn) => t.push({ name, fn });
  for (const area of AREAS) area(test, lib, golden);
  return t;
}

/** Runs every test; returns { passed, failed, failures }. */
export function runSuite(lib, golden, log = console.log) {
  let passed = 0;
  const failures = [];
  const all = tests(lib, golden);
  for (const { name, fn } of all) {
    try {
      // A test is synchronous: a promise returned here would never be awaited.
      const returned = fn();
      if (returned !== undefined) throw new Error(`the test returned ${typeof returned?.then === "function" ? "a promise" : typeof returned}, not undefined: runSuite does not await`);
      passed++;
      log(`ok - ${name}`);
    } catch (err) {
      failures.push({ name, error: String(err && err.stack ? err.stack : err) });
      log(`not ok - ${name}\n  ${err && err.message}`);
    }
  }
  return { passed, failed: failures.length, failures, total: all.length };
}
