// Which .wasm a bundled app fetches, by what it imports from "calibrank" (docs/
// performance-history.md, "A module of the `Pipeline`'s own"): apps importing Pipeline alone (P),
// rrf alone (F), Pipeline with calibrate (M1) and Pipeline with rrf (M2), each bundled
// from the packed tarball by webpack, Parcel, esbuild, Rollup and Vite and run in
// headless Chromium; every .wasm the page requested named by its bytes.
//   node bench/experiments/pipeline-split/run.mjs [tool,tool,...]      (needs pkg/: make pkg)
// About 3 minutes. Prints one line per tool and app: what was fetched, in order, and what
// the bundler put in dist/.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeApp, page, runInChromium, wasmModules, root } from "../../../tests/js/app.mjs";

const APPS = {
  P: ["Pipeline"],
  F: ["rrf"],
  M1: ["Pipeline", "calibrate"],
  M2: ["Pipeline", "rrf"],
};
const source = (names) =>
  `import { ${names.join(", ")} } from "calibrank";\n` +
  `const out = {};\n` +
  (names.includes("Pipeline") ? `out.pipeline = new Pipeline({ topN: 2, minConfidence: 0 }).run({ lists: [{ name: "s", ids: ["a", "b", "c"] }] }).results.map((r) => r.id);\n` : "") +
  (names.includes("rrf") ? `out.rrf = rrf([["a", "b"], ["b"]]);\n` : "") +
  (names.includes("calibrate") ? `out.calibrate = Array.from(calibrate([0.5]));\n` : "") +
  `window.__result = out;\n`;

const copyWasm = (dir) => {
  const pkg = join(dir, "node_modules/calibrank");
  for (const f of readdirSync(pkg)) if (f.endsWith(".wasm")) copyFileSync(join(pkg, f), join(dir, "dist", f));
};
const TOOLS = {
  async webpack(dir) {
    const webpack = (await import("webpack")).default;
    await new Promise((res, rej) => webpack({ mode: "production", context: dir, entry: "./main.js", output: { path: join(dir, "dist"), filename: "main.js" } }, (e, st) => (e ? rej(e) : st.hasErrors() ? rej(new Error(st.toString("errors-only"))) : res())));
    page(dir);
  },
  async parcel(dir) {
    writeFileSync(join(dir, "index.html"), `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body><script type="module" src="./main.js"></script></body></html>`);
    execFileSync(join(root, "node_modules/.bin/parcel"), ["build", "index.html", "--no-cache"], { cwd: dir, stdio: "pipe", env: { ...process.env, PARCEL_WORKERS: "1" } });
  },
  async esbuild(dir) {
    const { build } = await import("esbuild");
    await build({ absWorkingDir: dir, entryPoints: ["main.js"], bundle: true, format: "esm", outdir: "dist", logLevel: "silent" });
    page(dir);
    copyWasm(dir);
  },
  async rollup(dir) {
    const { rollup } = await import("rollup");
    const { nodeResolve } = await import("@rollup/plugin-node-resolve");
    const b = await rollup({ input: join(dir, "main.js"), plugins: [nodeResolve({ browser: true, rootDir: dir })], logLevel: "silent" });
    await b.write({ dir: join(dir, "dist"), format: "es" });
    await b.close();
    page(dir);
    copyWasm(dir);
  },
  async vite(dir) {
    const { build } = await import("vite");
    writeFileSync(join(dir, "index.html"), `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body><script type="module" src="./main.js"></script></body></html>`);
    await build({ root: dir, logLevel: "silent", build: { outDir: join(dir, "dist"), emptyOutDir: true } });
  },
};

const only = process.argv[2]?.split(",");
for (const [tool, bundle] of Object.entries(TOOLS)) {
  if (only && !only.includes(tool)) continue;
  for (const [app, names] of Object.entries(APPS)) {
    const dir = makeApp([]);
    try {
      writeFileSync(join(dir, "main.js"), source(names));
      mkdirSync(join(dir, "dist"), { recursive: true });
      await bundle(dir);
      const dist = join(dir, "dist");
      const emitted = wasmModules(dist, readdirSync(dist, { recursive: true }).filter((f) => String(f).endsWith(".wasm")).map((f) => `/${f}`));
      const { result, errors, wasm } = await runInChromium(dist, tool === "vite" || tool === "parcel" ? "/" : "/index.html");
      const fetched = wasmModules(dist, wasm);
      console.log(`${tool.padEnd(8)} ${app.padEnd(3)} fetched ${fetched.join(" then ") || "-"}; in dist: ${emitted.filter((m) => m !== "lab").sort().join(", ")}${result ? "" : `; no result: ${errors.join(" | ")}`}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
