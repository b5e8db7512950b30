// A user's app, for the toolchain tests (tests/js/bundlers.test.mjs, vite.test.mjs): the
// packed tarball of pkg/ installed into a fresh directory (as `npm install` from the
// registry would), the app files of tests/vite/ copied in; then the built page run in
// headless Chromium, its numbers compared with the package's own output in Node.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as lib from "calibrank";
import * as lab from "calibrank/lab";
import { serve } from "./serve.mjs";
import { launch, newPageWithErrors } from "./chromium.mjs";
import { input, config, qrels, run, metrics, scores, labels, pipelineOnly } from "../vite/fixture.js";

export const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * A fresh app directory with the packed package installed from its tarball, and `files`
 * of `from` (tests/vite/ by default); an ES module app unless `type` says otherwise
 * (`null`: CommonJS, no `type`).
 */
export function makeApp(files = ["main.js", "fixture.js"], { from = "tests/vite", type = "module" } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "calibrank-app-"));
  execFileSync("npm", ["pack", "--silent", "--pack-destination", dir], { cwd: join(root, "pkg") });
  const tgz = readdirSync(dir).find((f) => f.endsWith(".tgz"));
  writeFileSync(join(dir, "package.json"), JSON.stringify(type === null ? { name: "app", private: true } : { name: "app", private: true, type }));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--offline", `./${tgz}`], { cwd: dir, stdio: "ignore" });
  // A file given as [src, to] is copied under another name (an app's main.js).
  for (const f of files) {
    const [src, to] = Array.isArray(f) ? f : [f, f];
    cpSync(join(root, from, src), join(dir, to));
  }
  return dir;
}

/** dist/index.html loading dist/main.js (as a module, or as a classic script). */
export function page(dir, { module = true } = {}) {
  writeFileSync(
    join(dir, "dist/index.html"),
    `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body><pre id="out"></pre><script${module ? ' type="module"' : ""} src="./main.js"></script></body></html>`,
  );
}

/** Runs dist/ in Chromium: the result, or the page's errors. */
export async function runInChromium(dist, path = "/index.html", { spa = false } = {}) {
  const { server, url } = await serve(dist, { spa });
  try {
    return await runPage(url + path);
  } finally {
    server.close();
  }
}

/**
 * Opens `url` in Chromium (a page that sets window.__result): the result, or the page's
 * errors; and the paths of the .wasm files the page requested, in order.
 */
export async function runPage(url) {
  const browser = await launch();
  try {
    const { page: p, errors } = await newPageWithErrors(browser);
    const wasm = [];
    p.on("request", (r) => {
      const path = new URL(r.url()).pathname;
      if (path.endsWith(".wasm")) wasm.push(path);
    });
    await p.goto(url);
    // Until the result, or the first error (a failed fetch need not wait out the timeout).
    let timer;
    const failed = new Promise((resolve) => {
      timer = setInterval(() => errors.length > 0 && resolve(false), 50);
    });
    const done = await Promise.race([
      p.waitForFunction(() => window.__result !== undefined, null, { timeout: 15_000 }).then(
        () => true,
        () => false,
      ),
      failed,
    ]).finally(() => clearInterval(timer));
    return { result: done ? await p.evaluate(() => window.__result) : undefined, errors, wasm };
  } finally {
    await browser.close();
  }
}

/**
 * Which of the package's modules the files at `paths` (served from `dist`, under
 * whatever names the bundler gave them) are: "core", "pipeline", "lab" or "texts", by
 * their bytes.
 */
export function wasmModules(dist, paths) {
  const pkg = Object.fromEntries(["core", "pipeline", "lab", "texts"].map((m) => [m, readFileSync(join(root, "pkg", `calibrank_${m}.wasm`))]));
  return paths.map((p) => {
    const bytes = readFileSync(join(dist, p));
    return Object.keys(pkg).find((m) => pkg[m].equals(bytes)) ?? `${p}: not one of the package's modules`;
  });
}

/** The numbers of an app that imports Pipeline alone (tests/vite/pipeline-only.js) against the package in Node. */
export function checkPipelineOnly(got) {
  const p = new lib.Pipeline(pipelineOnly.config);
  const expected = p.run(pipelineOnly.input);
  assert.deepEqual(got.results, expected.results);
  assert.equal(got.results[0].explain.rerank.method, "heuristic");
  assert.deepEqual(got.confidence, expected.confidence);
  assert.deepEqual(got.outcome, expected.outcome);
  assert.equal(got.errorCode, "INVALID_TOP_N");
  assert.deepEqual(got.config, p.config);
}

/** The page's numbers (tests/vite/main.js or init.js) against the package in Node. */
export function checkResult(got) {
  const expected = new lib.Pipeline(config).run(input);
  assert.deepEqual(got.results, expected.results.map((r) => [r.id, r.score, r.band]));
  assert.deepEqual(got.confidence, expected.confidence);
  assert.equal(got.errorCode, "INVALID_TOP_N");
  assert.equal(got.half, lib.calibrate([0.035])[0]);
  assert.deepEqual(got.evaluation, lab.evaluate(qrels, run, metrics));
  assert.deepEqual(got.platt, lab.fitPlatt(scores, labels));
  assert.equal(got.labErrorCode, "INVALID_LABELS");
  assert.equal(got.sameScoreError, true, "one ScoreError class for both entries in the bundle");
}
