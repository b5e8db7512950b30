// Vite, as a user runs it (issue 12): the packed tarball installed into a fresh app
// (tests/js/app.mjs) holding tests/vite/ (index.html, and main.js importing "calibrank"
// and "calibrank/lab"); `vite build` with no configuration; headless Chromium runs the
// bundle, and the numbers must equal the package's own output in Node, bit for bit.
// Then the entries without top-level await through Vite: the app imports each .wasm
// with `?url` and hands the URL to init(). Last, the dev server (`vite`), which
// pre-bundles dependencies away from their .wasm files unless told not to.
import test from "node:test";
import assert from "node:assert/strict";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build, createServer, version as viteVersion } from "vite";
import { makeApp, runInChromium, runPage, checkResult, checkPipelineOnly, wasmModules } from "./app.mjs";

test("Vite: a production build from the tarball runs in Chromium and matches Node", async () => {
  const dir = makeApp(["index.html", "main.js", "fixture.js"]);
  try {
    await build({ root: dir, logLevel: "warn", build: { outDir: join(dir, "dist"), emptyOutDir: true } });
    const assets = readdirSync(join(dir, "dist/assets"));
    for (const m of ["core", "lab"]) assert.ok(assets.some((f) => f.startsWith(`calibrank_${m}`) && f.endsWith(".wasm")), `calibrank_${m}.wasm is emitted as an asset: ${assets}`);
    const { result, errors, wasm } = await runInChromium(join(dir, "dist"), "/");
    assert.ok(result, `no result: ${errors.join(" | ")}`);
    checkResult(result);
    assert.deepEqual(errors, []);
    // Pipeline runs on the whole core's module, which the other functions load.
    assert.deepEqual(wasmModules(join(dir, "dist"), wasm).sort(), ["core", "lab"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("Vite: an app that imports Pipeline alone fetches calibrank_pipeline.wasm alone", async () => {
  const dir = makeApp(["index.html", ["pipeline-only.js", "main.js"], "fixture.js"]);
  try {
    await build({ root: dir, logLevel: "warn", build: { outDir: join(dir, "dist"), emptyOutDir: true } });
    const dist = join(dir, "dist");
    const { result, errors, wasm } = await runInChromium(dist, "/");
    assert.ok(result, `no result: ${errors.join(" | ")}`);
    checkPipelineOnly(result);
    assert.deepEqual(errors, []);
    // Vite 7 drops the functions' entry and its loading, but still copies
    // calibrank_core.wasm into dist/assets (unreferenced; docs/performance.md).
    assert.deepEqual(wasmModules(dist, wasm), ["pipeline"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("Vite: calibrank/init and calibrank/lab/init with the .wasm imported as ?url", async () => {
  const dir = makeApp(["index.html", "init.js", "fixture.js"]);
  try {
    // init.js, but with the URLs Vite gives the assets instead of the page's own copies.
    const app = (await import("node:fs")).readFileSync(join(dir, "init.js"), "utf8");
    writeFileSync(
      join(dir, "main.js"),
      'import coreUrl from "calibrank/calibrank_core.wasm?url";\nimport labUrl from "calibrank/calibrank_lab.wasm?url";\n' +
        app.replace('init("./calibrank_core.wasm")', "init(coreUrl)").replace('initLab(fetch("./calibrank_lab.wasm"))', "initLab(fetch(labUrl))"),
    );
    await build({ root: dir, logLevel: "warn", build: { outDir: join(dir, "dist"), emptyOutDir: true, target: "es2020" } });
    const { result, errors } = await runInChromium(join(dir, "dist"), "/");
    assert.ok(result, `no result: ${errors.join(" | ")}`);
    assert.equal(result.beforeInit, "INTERNAL");
    checkResult(result);
    assert.deepEqual(errors, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("Vite dev server: with optimizeDeps.exclude (README) the page runs; without it, the error says to add it", async () => {
  const dir = makeApp(["index.html", "main.js", "fixture.js"]);
  try {
    for (const exclude of [false, true]) {
      const server = await createServer({
        root: dir,
        logLevel: "silent",
        configFile: false,
        server: { host: "127.0.0.1", strictPort: false },
        optimizeDeps: exclude ? { exclude: ["calibrank"], force: true } : { force: true },
      });
      await server.listen();
      try {
        const { result, errors } = await runPage(`http://127.0.0.1:${server.httpServer.address().port}/`);
        if (exclude) {
          assert.ok(result, `no result: ${errors.join(" | ")}`);
          checkResult(result);
          assert.deepEqual(errors, []);
        } else {
          // Vite 7 serves the pre-bundled entry from node_modules/.vite/deps/, and the
          // app's page for the .wasm it asks for there (the devDependency is Vite 7).
          // The core's and the lab's are fetched at once: either may fail first.
          assert.ok(Number(viteVersion.split(".")[0]) <= 7, `Vite ${viteVersion}: check what its dev server needs, and the README`);
          assert.equal(result, undefined, "without the exclusion the page cannot run");
          assert.ok(
            errors.some((e) => /calibrank_(core|lab)\.wasm is not WebAssembly \(text\/html.*optimizeDeps: \{ exclude: \["calibrank"\] \}/.test(e)),
            `the error names the fix: ${errors.join(" | ")}`,
          );
        }
      } finally {
        await server.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
