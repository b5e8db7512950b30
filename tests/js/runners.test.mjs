// Test runners, as an app's tests run the package: the packed tarball installed into a
// fresh CommonJS app, tests/runners/ (a Jest test, a Vitest test, what both compute)
// and tests/vite/fixture.js copied in, then Jest 30 in the node and jsdom environments
// (nothing configured), Jest 29 in jsdom with the README's jest.config.js (read from the
// README), and Vitest in jsdom. Each writes its results as JSON; they must equal what the
// same code computes here in Node, bit for bit.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import * as lib from "calibrank";
import * as lab from "calibrank/lab";
import * as fixture from "../vite/fixture.js";
import { makeApp, root } from "./app.mjs";

const require = createRequire(import.meta.url);
const compute = require("../runners/compute.cjs");
const bin = (p) => join(root, "node_modules", p);
const jsdom30 = bin("jest-environment-jsdom/build/index.js");
const jsdom29 = bin("jest-environment-jsdom29/build/index.js");

/** The README's Jest 29 configuration: its one js block that sets moduleNameMapper. */
function readmeJestConfig() {
  const blocks = [...readFileSync(join(root, "README.md"), "utf8").matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  const found = blocks.filter((b) => b.includes("moduleNameMapper"));
  assert.equal(found.length, 1, "one README block configures Jest");
  return found[0];
}

/** A fresh CommonJS app with the tarball installed (app.mjs), and the runners' test files. */
function makeRunnersApp() {
  const dir = makeApp(["compute.cjs", "app.test.cjs", "app.test.mjs"], { from: "tests/runners", type: null });
  const fx = readFileSync(join(root, "tests/vite/fixture.js"), "utf8");
  writeFileSync(join(dir, "fixture.js"), fx);
  writeFileSync(join(dir, "fixture.cjs"), fx.replace(/^export const (\w+)/gm, "exports.$1"));
  writeFileSync(join(dir, "jest.config.js"), readmeJestConfig());
  return dir;
}

/** Runs `args` (a runner's command line) in `dir`: the results its test wrote. */
function runIn(dir, name, args) {
  const out = join(dir, `${name}.json`);
  try {
    execFileSync(process.execPath, args, { cwd: dir, env: { ...process.env, CALIBRANK_RESULT: out, CI: "true" }, stdio: "pipe" });
  } catch (e) {
    assert.fail(`${name} failed:\n${e.stdout}\n${e.stderr}`);
  }
  return JSON.parse(readFileSync(out, "utf8"));
}

const jestArgs = (jest, dir, config, env) => [
  bin(jest),
  "--rootDir", dir,
  "--ci", "--watchman=false", "--cacheDirectory", join(dir, ".jest-cache"),
  "--testMatch", "**/app.test.cjs",
  ...(config === null ? ["--config", "{}"] : ["--config", config]),
  "--testEnvironment", env,
];

test("Jest 30 (node and jsdom, nothing configured), Jest 29 (jsdom, the README's config) and Vitest (jsdom) give Node's numbers", () => {
  const expected = compute(lib, lab, fixture);
  // The reranking call held its texts back: the module asked for the pool's.
  assert.equal(expected.heldStats.candidates, 40);
  assert.equal(expected.held.length, 5);
  const dir = makeRunnersApp();
  try {
    const runs = [
      ["jest30-node", jestArgs("jest/bin/jest.js", dir, null, "node"), "node"],
      ["jest30-jsdom", jestArgs("jest/bin/jest.js", dir, null, jsdom30), "jsdom"],
      ["jest29-jsdom", jestArgs("jest29/bin/jest.js", dir, join(dir, "jest.config.js"), jsdom29), "jsdom"],
      ["vitest-jsdom", [bin("vitest/vitest.mjs"), "run", "--root", dir, "app.test.mjs"], "jsdom"],
    ];
    for (const [name, args, environment] of runs) {
      const got = runIn(dir, name, args);
      assert.equal(got.environment, environment, name);
      delete got.environment;
      // Jest's test also runs the init entries (calibrank/init, calibrank/lab/init).
      if (name.startsWith("jest")) {
        assert.deepEqual(got.viaInit, JSON.parse(JSON.stringify(expected)), `${name}, through the init entries`);
        delete got.viaInit;
      }
      assert.deepEqual(got, JSON.parse(JSON.stringify(expected)), name);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
