// Vite, as a user runs it (issue 12): the packed tarball installed into a fresh app
// (tests/js/app.mjs) holding tests/vite/ (index.html, and main.js importing "calibrank"
// and "calibrank/lab"); `vite build` with no configuration; headless Chromium runs the
// bundle, and the numbers must equal the package's own output in Node, bit for bit.
// Then the entries without top-level await through Vite: the app imports each .wasm
// with `?url` and hands the URL to init().
import test from "node:test";
import assert from "node:assert/strict";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "vite";
import { makeApp, runInChromium, checkResult } from "./app.mjs";

test("Vite: a production build from the tarball runs in Chromium and matches Node", async () => {
  const dir = makeApp(["index.html", "main.js", "fixture.js"]);
  try {
    await build({ root: dir, logLevel: "warn", build: { outDir: join(dir, "dist"), emptyOutDir: true } });
    const assets = readdirSync(join(dir, "dist/assets"));
    for (const m of ["core", "lab"]) assert.ok(assets.some((f) => f.startsWith(`calibrank_${m}`) && f.endsWith(".wasm")), `calibrank_${m}.wasm is emitted as an asset: ${assets}`);
    const { result, errors } = await runInChromium(join(dir, "dist"), "/");
    assert.ok(result, `no result: ${errors.join(" | ")}`);
    checkResult(result);
    assert.deepEqual(errors, []);
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
