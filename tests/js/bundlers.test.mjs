// webpack, esbuild and Rollup, as a user runs them (issue 12): the packed tarball
// installed into a fresh app, the app of tests/vite/ bundled for production with the
// tool's defaults (webpack 5 `mode: "production"` with only entry and output; esbuild
// `--bundle --format=esm`; Rollup with @rollup/plugin-node-resolve), run in headless
// Chromium. webpack emits the `.wasm` assets itself. esbuild and Rollup do not copy
// `new URL("x.wasm", import.meta.url)` assets: the README's one step (copy
// node_modules/calibrank/*.wasm next to the bundle) is what the test does, and without
// it the page must fail with a message that says so.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as lib from "calibrank";
import * as lab from "calibrank/lab";
import { serve } from "./serve.mjs";
import { launch, newPageWithErrors } from "./chromium.mjs";
import { input, config, qrels, run, metrics, scores, labels } from "../vite/fixture.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** A fresh app directory with the packed package installed from its tarball. */
function makeApp() {
  const dir = mkdtempSync(join(tmpdir(), "calibrank-app-"));
  execFileSync("npm", ["pack", "--silent", "--pack-destination", dir], { cwd: join(root, "pkg") });
  const tgz = readdirSync(dir).find((f) => f.endsWith(".tgz"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--offline", `./${tgz}`], { cwd: dir, stdio: "ignore" });
  for (const f of ["main.js", "fixture.js"]) cpSync(join(root, "tests/vite", f), join(dir, f));
  return dir;
}

function page(dir) {
  writeFileSync(
    join(dir, "dist/index.html"),
    `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body><pre id="out"></pre><script type="module" src="./main.js"></script></body></html>`,
  );
}

/** Runs dist/ in Chromium: the result, or the page's errors. */
async function runInChromium(dist) {
  const { server, url } = await serve(dist);
  const browser = await launch();
  try {
    const { page: p, errors } = await newPageWithErrors(browser);
    await p.goto(url + "/index.html");
    const done = await p
      .waitForFunction(() => window.__result !== undefined, null, { timeout: 15_000 })
      .then(() => true)
      .catch(() => false);
    return { result: done ? await p.evaluate(() => window.__result) : undefined, errors };
  } finally {
    await browser.close();
    server.close();
  }
}

function checkResult(got) {
  const expected = new lib.Pipeline(config).run(input);
  assert.deepEqual(got.results, expected.results.map((r) => [r.id, r.score, r.band]));
  assert.deepEqual(got.confidence, expected.confidence);
  assert.equal(got.errorCode, "INVALID_TOP_N");
  assert.deepEqual(got.evaluation, lab.evaluate(qrels, run, metrics));
  assert.deepEqual(got.platt, lab.fitPlatt(scores, labels));
  assert.equal(got.labErrorCode, "INVALID_LABELS");
  assert.equal(got.sameScoreError, true);
}

const copyWasm = (dir) => {
  for (const m of ["core", "lab"]) copyFileSync(join(dir, "node_modules/calibrank", `calibrank_${m}.wasm`), join(dir, "dist", `calibrank_${m}.wasm`));
};

/** Tools that emit the `.wasm` assets themselves (no copy step). */
const ZERO_CONFIG = new Set(["webpack"]);

const TOOLS = {
  async webpack(dir) {
    const webpack = (await import("webpack")).default;
    const stats = await new Promise((resolve, reject) =>
      webpack(
        { mode: "production", context: dir, entry: "./main.js", output: { path: join(dir, "dist"), filename: "main.js" } },
        (err, st) => (err ? reject(err) : resolve(st)),
      ),
    );
    assert.ok(!stats.hasErrors(), stats.toString("errors-only"));
  },
  async esbuild(dir) {
    const { build } = await import("esbuild");
    await build({ absWorkingDir: dir, entryPoints: ["main.js"], bundle: true, format: "esm", outdir: "dist", logLevel: "silent" });
  },
  async rollup(dir) {
    const { rollup } = await import("rollup");
    const { nodeResolve } = await import("@rollup/plugin-node-resolve");
    const bundle = await rollup({ input: join(dir, "main.js"), plugins: [nodeResolve({ browser: true, rootDir: dir })], logLevel: "silent" });
    await bundle.write({ dir: join(dir, "dist"), format: "es" });
    await bundle.close();
  },
};

for (const [tool, bundle] of Object.entries(TOOLS)) {
  const title = ZERO_CONFIG.has(tool)
    ? `${tool}: a production bundle runs in Chromium with no configuration`
    : `${tool}: a production bundle runs in Chromium once the .wasm files are copied, and says what to do when they are not`;
  test(title, async () => {
    const dir = makeApp();
    try {
      mkdirSync(join(dir, "dist"), { recursive: true });
      await bundle(dir);
      page(dir);
      if (ZERO_CONFIG.has(tool)) {
        const { result, errors } = await runInChromium(join(dir, "dist"));
        assert.ok(result, `no result: ${errors.join(" | ")}`);
        checkResult(result);
        assert.deepEqual(errors, []);
        return;
      }
      // Without the copy: a clear error, not a bare 404.
      const missing = await runInChromium(join(dir, "dist"));
      assert.equal(missing.result, undefined);
      assert.ok(
        missing.errors.some((e) => /copy node_modules\/calibrank\/\*\.wasm next to your bundle/.test(e)),
        `the failed fetch names the fix: ${missing.errors.join(" | ")}`,
      );
      // With the README's step.
      copyWasm(dir);
      const { result, errors } = await runInChromium(join(dir, "dist"));
      assert.ok(result, `no result: ${errors.join(" | ")}`);
      checkResult(result);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
