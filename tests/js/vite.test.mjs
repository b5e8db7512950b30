// The package through a bundler: Vite builds tests/vite/ (an app importing "calibrank"
// and "calibrank/lab"), headless Chromium runs the bundle, and the numbers must equal the
// package's own output in Node, bit for bit.
import test from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import * as lib from "calibrank";
import * as lab from "calibrank/lab";
import { serve } from "./serve.mjs";
import { launch, newPageWithErrors } from "./chromium.mjs";
import { input, config, qrels, run, metrics, scores, labels } from "../vite/fixture.js";

test("a Vite bundle runs in Chromium and matches Node", async () => {
  const outDir = mkdtempSync(join(tmpdir(), "calibrank-vite-"));
  try {
    await build({ root: fileURLToPath(new URL("../vite", import.meta.url)), logLevel: "warn", build: { outDir, emptyOutDir: true, target: "es2022" } });
    const assets = readdirSync(join(outDir, "assets"));
    for (const m of ["core", "lab"]) assert.ok(assets.some((f) => f.startsWith(`calibrank_${m}`) && f.endsWith(".wasm")), `calibrank_${m}.wasm is emitted as an asset: ${assets}`);
    const { server, url } = await serve(outDir);
    const browser = await launch();
    try {
      const { page, errors } = await newPageWithErrors(browser);
      await page.goto(url + "/");
      await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 30_000 });
      const got = await page.evaluate(() => window.__result);
      const expected = new lib.Pipeline(config).run(input);
      assert.deepEqual(got.results, expected.results.map((r) => [r.id, r.score, r.band]));
      assert.deepEqual(got.confidence, expected.confidence);
      assert.equal(got.errorCode, "INVALID_TOP_N");
      assert.equal(got.half, 0.5);
      assert.deepEqual(got.evaluation, lab.evaluate(qrels, run, metrics));
      assert.deepEqual(got.platt, lab.fitPlatt(scores, labels));
      assert.equal(got.labErrorCode, "INVALID_LABELS");
      assert.equal(got.sameScoreError, true, "one ScoreError class for both entries in the bundle");
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      server.close();
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
});
