// The same JS suite in headless Chromium, loading the package through a plain
// <script type="module"> (an import map: "calibrank" -> pkg/browser.js, "calibrank/lab"
// -> pkg/lab.browser.js; the suite sees both entries merged). A second page imports only
// "calibrank": it must fetch calibrank_core.wasm and never calibrank_lab.wasm.
import test from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { serve } from "./serve.mjs";
import { launch, newPageWithErrors } from "./chromium.mjs";
import { crossRuntimeCase } from "./qconf-cross.mjs";
import { suiteSize } from "./suite-size.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** Opens `path` on a fresh page; returns the page, its errors and every URL it requested. */
async function open(browser, url, path) {
  const { page, errors } = await newPageWithErrors(browser);
  const requested = [];
  page.on("request", (r) => requested.push(new URL(r.url()).pathname));
  await page.goto(`${url}${path}`);
  try {
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 60_000 });
  } catch (e) {
    throw new Error(`${path}: ${e.message}; page errors: ${JSON.stringify(errors)}; requested: ${requested.join(", ")}`);
  }
  return { page, errors, requested };
}

test("JS suite in headless Chromium", async (t) => {
  const { server, url } = await serve(root);
  const browser = await launch();
  try {
    const { page, errors, requested } = await open(browser, url, "/tests/js/browser.html");
    const result = await page.evaluate(() => window.__result);
    const log = await page.textContent("#log");
    for (const line of log.trim().split("\n")) await t.test(`chromium: ${line.replace(/^(not )?ok - /, "")}`, () => assert.ok(line.startsWith("ok"), line));
    assert.deepEqual(result.failures, []);
    // Every test the suite registers in Node ran and passed here.
    assert.equal(result.total, suiteSize());
    assert.equal(result.passed, result.total);
    assert.equal(await page.evaluate(() => window.__sameScoreError), true, "core and lab export one ScoreError class");
    assert.ok(requested.includes("/pkg/calibrank_core.wasm"), `requested: ${requested}`);
    assert.ok(requested.includes("/pkg/calibrank_lab.wasm"), `requested: ${requested}`);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.close();
  }
});

test("importing only calibrank fetches the core's .wasm, never the lab's", async () => {
  const { server, url } = await serve(root);
  const browser = await launch();
  try {
    const { page, errors, requested } = await open(browser, url, "/tests/js/core-only.html");
    const result = await page.evaluate(() => window.__result);
    assert.deepEqual(result.rrf.map(([id]) => id), ["b", "a"]);
    assert.deepEqual(result.ids, ["a", "b"]);
    assert.equal(typeof result.version, "string");
    const wasm = requested.filter((p) => p.endsWith(".wasm"));
    assert.deepEqual(wasm, ["/pkg/calibrank_core.wasm"], `wasm requested: ${wasm}`);
    assert.ok(!requested.some((p) => p.includes("lab")), `nothing of the lab is requested: ${requested}`);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.close();
  }
});

test("a query-confidence model fitted in Node predicts the same bits in Chromium", async () => {
  const c = crossRuntimeCase();
  const { server, url } = await serve(root);
  const browser = await launch();
  try {
    const { page, errors } = await open(browser, url, "/tests/js/browser.html");
    const got = await page.evaluate(([m, r, q]) => window.__predictWithModel(m, r, q), [c.model, c.runs, c.queries]);
    assert.equal(got.predictions.length, 73);
    assert.deepEqual(got, c.expected);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.close();
  }
});

// The main entry's .wasm that does not load, in a browser: a ScoreError (INTERNAL: the app
// gave no input) that says what to do, as the Node entries' is; init() of a URL the app
// gave: INVALID_TYPE on `input`, without advice about bundlers. A page whose
// Content-Security-Policy does not allow WebAssembly gets a ScoreError that names
// 'wasm-unsafe-eval' (it was the engine's bare CompileError).
test("a .wasm that does not load: a ScoreError saying why, in the main entry and in init()", async () => {
  const { cpSync, mkdirSync, readdirSync, rmSync } = await import("node:fs");
  const { join } = await import("node:path");
  const bare = join(root, "target", "pkg-without-wasm");
  rmSync(bare, { recursive: true, force: true });
  mkdirSync(bare, { recursive: true });
  for (const f of readdirSync(join(root, "pkg"))) if (f.endsWith(".js")) cpSync(join(root, "pkg", f), join(bare, f));
  const browser = await launch();
  const run = async (options, wasm) => {
    const { server, url } = await serve(root, options);
    try {
      const { page } = await open(browser, url, `/tests/js/load-errors.html?wasm=${encodeURIComponent(wasm)}`);
      return await page.evaluate(() => window.__result);
    } finally {
      server.close();
    }
  };
  try {
    const missing = await run({ mounts: { "/pkg/": bare } }, "/pkg/nowhere.wasm");
    assert.equal(missing.main.scoreError, true, JSON.stringify(missing.main));
    assert.deepEqual([missing.main.code, missing.main.field], ["INTERNAL", ""]);
    assert.match(missing.main.message, /^calibrank: failed to fetch http:\/\/127\.0\.0\.1:\d+\/pkg\/calibrank_(core|pipeline)\.wasm: 404 .* copy node_modules\/calibrank\/calibrank_\1\.wasm next to your bundle/);
    assert.equal(missing.init.scoreError, true);
    assert.deepEqual([missing.init.code, missing.init.field], ["INVALID_TYPE", "input"]);
    assert.match(missing.init.message, /^calibrank: failed to fetch \/pkg\/nowhere\.wasm: 404 Not Found\. Serve node_modules\/calibrank\/calibrank_core\.wasm at that URL, or give init\(\) the URL where it is\.$/);
    const csp = { "Content-Security-Policy": "script-src 'self' 'unsafe-inline'" };
    const refused = await run({ headers: csp }, "/pkg/calibrank_core.wasm");
    assert.equal(refused.main.scoreError, true, JSON.stringify(refused.main));
    assert.deepEqual([refused.main.code, refused.main.field], ["INTERNAL", ""]);
    assert.match(refused.main.message, /^calibrank: the page's Content-Security-Policy does not let .*calibrank_(core|pipeline)\.wasm compile \(.*\); add 'wasm-unsafe-eval' to its script-src$/);
    // init() of a URL, of the bytes, initSync() of the bytes: the policy named, the input
    // not blamed.
    for (const key of ["init", "initBytes", "initSyncBytes"]) {
      assert.deepEqual([refused[key].code, refused[key].field], ["INVALID_TYPE", "input"], key);
      assert.match(refused[key].message, /^calibrank: the page's Content-Security-Policy does not let .*calibrank_core\.wasm.* compile .*add 'wasm-unsafe-eval' to its script-src$/, key);
    }
    // With 'wasm-unsafe-eval', as the README says: both load.
    const allowed = await run({ headers: { "Content-Security-Policy": "script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'" } }, "/pkg/calibrank_core.wasm");
    // (init() after a first success resolves at once: the bytes are not compiled again.)
    assert.deepEqual(allowed, { main: "loaded", init: "loaded", initBytes: "loaded", initSyncBytes: "loaded" });
  } finally {
    await browser.close();
  }
});
