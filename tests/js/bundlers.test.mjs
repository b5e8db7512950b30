// webpack, Parcel, esbuild and Rollup, as a user runs them (issue 12): the packed tarball
// installed into a fresh app (tests/js/app.mjs), the app of tests/vite/ bundled for
// production with the tool's defaults (webpack 5 `mode: "production"` with only entry
// and output; `parcel build index.html`; esbuild `--bundle --format=esm`; Rollup with
// @rollup/plugin-node-resolve), run in headless Chromium. webpack and Parcel emit the
// `.wasm` assets themselves. esbuild and Rollup do not copy
// `new URL("x.wasm", import.meta.url)` assets: the README's one step (copy
// node_modules/calibrank/*.wasm next to the bundle) is what the test does, and without
// it the page must fail with a message that says so. Last, the entries without top-level
// await (calibrank/init, calibrank/lab/init) in an esbuild IIFE bundle for es2020.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, writeFileSync, copyFileSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { root, makeApp, page, runInChromium, checkResult, checkPipelineOnly, wasmModules } from "./app.mjs";

/** The README's step for esbuild and Rollup: every .wasm of the package next to the bundle. */
const copyWasm = (dir) => {
  const pkg = join(dir, "node_modules/calibrank");
  for (const f of readdirSync(pkg)) if (f.endsWith(".wasm")) copyFileSync(join(pkg, f), join(dir, "dist", f));
};

/** The .wasm files in `dist` (and its subdirectories), as paths from it. */
const emittedWasm = (dist) => readdirSync(dist, { recursive: true }).filter((f) => String(f).endsWith(".wasm")).map((f) => `/${f}`);

/** Tools that emit the `.wasm` assets themselves (no copy step). */
const ZERO_CONFIG = new Set(["webpack", "parcel"]);

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
    page(dir);
  },
  // Parcel 2: `parcel build index.html` with no configuration (it resolves
  // "calibrank/lab" without the exports map: through lab/package.json's "module").
  async parcel(dir) {
    writeFileSync(
      join(dir, "index.html"),
      `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body><pre id="out"></pre><script type="module" src="./main.js"></script></body></html>`,
    );
    execFileSync(join(root, "node_modules/.bin/parcel"), ["build", "index.html"], { cwd: dir, stdio: "pipe", env: { ...process.env, PARCEL_WORKERS: "1" } });
  },
  async esbuild(dir) {
    const { build } = await import("esbuild");
    await build({ absWorkingDir: dir, entryPoints: ["main.js"], bundle: true, format: "esm", outdir: "dist", logLevel: "silent" });
    page(dir);
  },
  async rollup(dir) {
    const { rollup } = await import("rollup");
    const { nodeResolve } = await import("@rollup/plugin-node-resolve");
    const bundle = await rollup({ input: join(dir, "main.js"), plugins: [nodeResolve({ browser: true, rootDir: dir })], logLevel: "silent" });
    await bundle.write({ dir: join(dir, "dist"), format: "es" });
    await bundle.close();
    page(dir);
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
      const dist = join(dir, "dist");
      // No path of the machine that built the app: webpack and Parcel write the source
      // file's path in place of an `import.meta.url` outside `new URL(..., import.meta.url)`.
      for (const f of readdirSync(dist, { recursive: true }).filter((f) => String(f).endsWith(".js")))
        assert.doesNotMatch(readFileSync(join(dist, String(f)), "utf8"), /file:\/\//, `${tool}: dist/${f}`);
      if (ZERO_CONFIG.has(tool)) {
        // The app imports Pipeline and another function: the whole core's module and the
        // lab's are emitted (webpack and Parcel emit Pipeline's own too, unfetched).
        const emitted = wasmModules(dist, emittedWasm(dist));
        for (const m of ["core", "lab"]) assert.ok(emitted.includes(m), `calibrank_${m}.wasm is emitted: ${emitted}`);
        const { result, errors, wasm } = await runInChromium(dist);
        assert.ok(result, `no result: ${errors.join(" | ")}`);
        checkResult(result);
        assert.deepEqual(errors, []);
        // Pipeline runs on the whole core's module: Pipeline's own is not fetched.
        assert.deepEqual(wasmModules(dist, wasm).sort(), ["core", "lab"]);
        return;
      }
      // Without the copy: a clear error, not a bare 404 (for the core's or the lab's
      // .wasm, whichever fetch fails first).
      const missing = await runInChromium(join(dir, "dist"));
      assert.equal(missing.result, undefined);
      assert.ok(
        missing.errors.some((e) => /copy node_modules\/calibrank\/calibrank_(core|lab)\.wasm next to your bundle/.test(e)),
        `the failed fetch names the fix: ${missing.errors.join(" | ")}`,
      );
      // Nor a bare CompileError when the server answers the missing file with the app's
      // page (a single-page app's fallback): the same fix, and what came instead.
      const fallback = await runInChromium(join(dir, "dist"), "/index.html", { spa: true });
      assert.equal(fallback.result, undefined);
      assert.ok(
        fallback.errors.some((e) => /calibrank_(core|lab)\.wasm is not WebAssembly \(text\/html; charset=utf-8, starting "<!doctyp"\).*copy node_modules\/calibrank\/calibrank_\1\.wasm next to your bundle/.test(e)),
        `the page served in its place is named: ${fallback.errors.join(" | ")}`,
      );
      // With the README's step.
      copyWasm(dir);
      const { result, errors, wasm } = await runInChromium(dist);
      assert.ok(result, `no result: ${errors.join(" | ")}`);
      checkResult(result);
      assert.deepEqual(wasmModules(dist, wasm).sort(), ["core", "lab"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // An app that imports Pipeline alone: the bundler keeps browser.pipeline.js and drops
  // browser.functions.js, so calibrank_pipeline.wasm is the one module fetched (and, for
  // the tools that emit assets, the one emitted).
  test(`${tool}: an app that imports Pipeline alone loads calibrank_pipeline.wasm alone`, async () => {
    const dir = makeApp([["pipeline-only.js", "main.js"], "fixture.js"]);
    try {
      const dist = join(dir, "dist");
      mkdirSync(dist, { recursive: true });
      await bundle(dir);
      if (ZERO_CONFIG.has(tool)) {
        assert.deepEqual(wasmModules(dist, emittedWasm(dist)), ["pipeline"]);
      } else {
        const missing = await runInChromium(dist);
        assert.equal(missing.result, undefined);
        assert.ok(
          missing.errors.some((e) => /copy node_modules\/calibrank\/calibrank_pipeline\.wasm next to your bundle/.test(e)),
          `the failed fetch names the fix: ${missing.errors.join(" | ")}`,
        );
        copyWasm(dir);
      }
      const { result, errors, wasm } = await runInChromium(dist);
      assert.ok(result, `no result: ${errors.join(" | ")}`);
      checkPipelineOnly(result);
      assert.deepEqual(errors, []);
      assert.deepEqual(wasmModules(dist, wasm), ["pipeline"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test("Parcel 2: a module Web Worker scores through calibrank/init, given the .wasm Parcel serves (the README's way: Parcel wraps a worker's modules in functions, where top-level await cannot run)", async () => {
  const dir = makeApp([["parcel-worker-main.js", "main.js"], "parcel-worker.js", "fixture.js"]);
  try {
    writeFileSync(
      join(dir, "index.html"),
      `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body><pre id="out"></pre><script type="module" src="./main.js"></script></body></html>`,
    );
    execFileSync(join(root, "node_modules/.bin/parcel"), ["build", "index.html"], { cwd: dir, stdio: "pipe", env: { ...process.env, PARCEL_WORKERS: "1" } });
    const dist = join(dir, "dist");
    // The one module the worker asks for is the one Parcel emits.
    assert.deepEqual(wasmModules(dist, emittedWasm(dist)), ["pipeline"]);
    const { result, errors, wasm } = await runInChromium(dist);
    assert.ok(result && !result.workerError, `no result: ${JSON.stringify(result)} ${errors.join(" | ")}`);
    checkPipelineOnly(result);
    assert.deepEqual(wasmModules(dist, wasm), ["pipeline"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("esbuild IIFE for es2020 with calibrank/init and calibrank/lab/init: runs in Chromium (a classic script), the .wasm placed by the app", async () => {
  const dir = makeApp(["init.js", "fixture.js"]);
  try {
    mkdirSync(join(dir, "dist"), { recursive: true });
    const { build } = await import("esbuild");
    // The main entries cannot be built so (top-level await); these must, with no warning.
    const out = await build({ absWorkingDir: dir, entryPoints: { main: "init.js" }, bundle: true, format: "iife", target: "es2020", minify: true, outdir: "dist", logLevel: "silent" });
    assert.deepEqual(out.warnings, []);
    assert.doesNotMatch(readFileSync(join(dir, "dist/main.js"), "utf8"), /import\.meta|await import/);
    page(dir, { module: false });
    const missing = await runInChromium(join(dir, "dist"));
    assert.equal(missing.result, undefined);
    // The app gave init() the URL: where to serve the file, not how bundlers copy it.
    assert.ok(missing.errors.some((e) => /Serve node_modules\/calibrank\/calibrank_(core|lab)\.wasm at that URL, or give init\(\) the URL where it is\./.test(e)), missing.errors.join(" | "));
    assert.ok(!missing.errors.some((e) => /optimizeDeps/.test(e)), missing.errors.join(" | "));
    copyWasm(dir);
    const { result, errors } = await runInChromium(join(dir, "dist"));
    assert.ok(result, `no result: ${errors.join(" | ")}`);
    assert.equal(result.beforeInit, "INTERNAL", "a call before init() throws a ScoreError");
    assert.equal(result.labBeforeInit, "INTERNAL");
    assert.equal(result.initialized, true);
    checkResult(result);
    assert.deepEqual(errors, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("esbuild with calibrank/main entries refuses IIFE (why the init entries exist)", async () => {
  const dir = makeApp();
  try {
    const { build } = await import("esbuild");
    await assert.rejects(
      build({ absWorkingDir: dir, entryPoints: ["main.js"], bundle: true, format: "iife", outdir: "dist", logLevel: "silent" }),
      /[Tt]op-level await/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Cloudflare Workers without wrangler: the README's esbuild command for a Worker
// (`--conditions=workerd --loader:.wasm=copy`), the bundle run in real workerd through
// Miniflare with a `CompiledWasm` rule, both entries, its output the same as Node's to
// the last bit; bundled without the condition (esbuild then takes the browser entry,
// which finds no URL of its own in workerd), the Worker fails to start with a ScoreError
// that names the condition, not a TypeError.
test("esbuild for Cloudflare Workers: the README's command runs both entries in workerd as in Node; without the workerd condition, a ScoreError says what to do", async () => {
  const dir = makeApp([]);
  try {
    writeFileSync(
      join(dir, "scenario.js"),
      `export function scenario(core, lab) {
  const p = new core.Pipeline({ explain: true, recency: { mode: "none" } });
  const out = p.run({ query: "token cache", lists: [{ name: "bm25", ids: ["a", "b", "c"], scores: [9.5, 7.25, 3] }, { name: "dense", ids: ["b", "a"] }] });
  p.free();
  const run = lab.parseTrecRun("q Q0 a 1 2.5 t\\nq Q0 b 2 1.5 t\\n");
  const metrics = lab.evaluate({ q: { b: 1 } }, run, ["mrr", "ndcg@10"]);
  const platt = lab.fitPlatt([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1]);
  let error;
  try {
    new core.Pipeline({ topk: 1 });
  } catch (e) {
    error = { code: e.code, field: e.field, both: e instanceof core.ScoreError && e instanceof lab.ScoreError };
  }
  return { results: out.results, confidence: out.confidence, metrics, platt, error };
}
`,
    );
    writeFileSync(
      join(dir, "worker.js"),
      `import * as core from "calibrank";\nimport * as lab from "calibrank/lab";\nimport { scenario } from "./scenario.js";\nexport default { async fetch() { return new Response(JSON.stringify(scenario(core, lab))); } };\n`,
    );
    writeFileSync(join(dir, "node.js"), `import * as core from "calibrank";\nimport * as lab from "calibrank/lab";\nimport { scenario } from "./scenario.js";\nprocess.stdout.write(JSON.stringify(scenario(core, lab)));\n`);
    const inNode = execFileSync(process.execPath, ["node.js"], { cwd: dir, encoding: "utf8" });
    const { build } = await import("esbuild");
    const { Miniflare } = await import("miniflare");
    const bundle = async (out, options) => {
      await build({ absWorkingDir: dir, entryPoints: ["worker.js"], bundle: true, format: "esm", outdir: out, logLevel: "silent", ...options });
      return join(dir, out, "worker.js");
    };
    const start = (scriptPath, stderr) =>
      new Miniflare({
        scriptPath,
        // Module names are paths from here (workerd refuses `..` out of it).
        modulesRoot: dirname(scriptPath),
        modules: true,
        modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }],
        compatibilityDate: "2025-01-01",
        handleRuntimeStdio: (out, err) => {
          out.resume();
          err.on("data", (d) => stderr.push(String(d)));
        },
      });
    // The README's command.
    const logged = [];
    const mf = start(await bundle("dist", { conditions: ["workerd"], loader: { ".wasm": "copy" } }), logged);
    try {
      const res = await mf.dispatchFetch("http://worker/").catch((e) => assert.fail(`${e.message}\n${logged.join("")}`));
      const text = await res.text();
      assert.equal(res.status, 200, text);
      assert.equal(text, inNode);
      const got = JSON.parse(text);
      assert.deepEqual(got.error, { code: "UNKNOWN_FIELD", field: "config.topk", both: true });
      // a and b tie (rank 1 in one list, 2 in the other); c, in one list, falls below minConfidence.
      assert.deepEqual(got.results.map((r) => [r.id, r.explain.fused]), [["a", 1 / 61 + 1 / 62], ["b", 1 / 62 + 1 / 61]]);
      assert.equal(got.metrics.mrr, 0.5);
    } finally {
      await mf.dispose();
    }
    // Without the condition: the browser entry, which says what to do.
    const stderr = [];
    const broken = start(await bundle("dist-browser", {}), stderr);
    await assert.rejects(broken.ready, /failed to start/);
    await broken.dispose().catch(() => {});
    const said = stderr.join("");
    assert.match(said, /ScoreError: calibrank: the browser entry cannot find calibrank_\w+\.wasm beside itself: its module URL locates no file \(Invalid URL/, said);
    assert.match(said, /--conditions=workerd --loader:\.wasm=copy/, said);
    assert.doesNotMatch(said, /TypeError/, said);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
