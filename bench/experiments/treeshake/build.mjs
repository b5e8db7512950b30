import fs from "fs"; import path from "path"; import { createRequire } from "module"; import { spawnSync } from "child_process";
const require = createRequire(import.meta.url);
const root = "/tmp/treeshake/cases";
const which = process.argv[2].split(","); const caseFilter = process.argv[3] ? new RegExp(process.argv[3]) : /./;
const bundlers = {
  async webpack(dir, app, out) {
    const webpack = require("webpack");
    const stats = await new Promise((res, rej) => webpack({
      mode: "production", context: dir, entry: `./app-${app}.js`, target: "web", devtool: false,
      output: { path: out, filename: "main.js", clean: true },
      experiments: { topLevelAwait: true },
    }, (e, s) => (e ? rej(e) : res(s))));
    const j = stats.toJson({ all: false, errors: true, warnings: true });
    return [...j.errors, ...j.warnings].map((x) => x.message.split("\n")[0]);
  },
  async rollup(dir, app, out) {
    const { rollup } = require("rollup"); const { nodeResolve } = require("@rollup/plugin-node-resolve");
    const warns = [];
    const b = await rollup({ input: path.join(dir, `app-${app}.js`), plugins: [nodeResolve({ browser: true })], onwarn: (w) => warns.push(w.code + ": " + w.message) });
    await b.write({ dir: out, format: "es" }); await b.close(); return warns;
  },
  async esbuild(dir, app, out) {
    const r = await require("esbuild").build({ absWorkingDir: dir, entryPoints: [`app-${app}.js`], bundle: true, format: "esm", platform: "browser", target: "es2022", minify: true, outdir: out, logLevel: "silent" });
    return [...r.errors, ...r.warnings].map((x) => x.text);
  },
  async vite(dir, app, out) {
    const { build } = await import("vite"); const warns = [];
    await build({ root: dir, configFile: false, logLevel: "silent", build: { outDir: out, emptyOutDir: true, rollupOptions: { input: path.join(dir, `app-${app}.js`), onwarn: (w) => warns.push(w.code + ": " + w.message) } } });
    return warns;
  },
  async parcel(dir, app, out) {
    const { Parcel } = require("@parcel/core");
    const p = new Parcel({ entries: [path.join(dir, `app-${app}.js`)], defaultConfig: require.resolve("@parcel/config-default"), mode: "production", shouldDisableCache: true, projectRoot: dir,
      defaultTargetOptions: { shouldScopeHoist: true, sourceMaps: false },
      targets: { main: { distDir: out, outputFormat: "esmodule", context: "browser", engines: { browsers: "chrome 110" } } } });
    const r = await p.run(); return [];
  },
};
const walk = (d) => fs.existsSync(d) ? fs.readdirSync(d, { recursive: true }).map((f) => path.join(d, f)).filter((f) => fs.statSync(f).isFile()) : [];
const rows = [];
for (const c of fs.readdirSync(root).filter((c) => caseFilter.test(c))) {
  const dir = path.join(root, c); const pkg = path.join(dir, "node_modules/wasm-pkg");
  const opsBytes = fs.readFileSync(path.join(pkg, "ops.wasm")), pipeBytes = fs.readFileSync(path.join(pkg, "pipeline.wasm"));
  for (const bn of which) for (const app of ["pipeline", "rrf", "both"]) {
    const out = path.join(dir, "out", bn, app); fs.rmSync(out, { recursive: true, force: true });
    let notes = [];
    try { notes = await bundlers[bn](dir, app, out); } catch (e) { notes = ["BUILD FAILED: " + String(e.message || e).split("\n").slice(0, 3).join(" ")]; }
    const files = walk(out); const js = files.filter((f) => /\.m?js$/.test(f)).map((f) => fs.readFileSync(f, "utf8")).join("\n");
    const wasmFiles = files.filter((f) => f.endsWith(".wasm")).map((f) => fs.readFileSync(f));
    const has = (s) => (js.includes(s) ? "Y" : "n");
    const wasmOf = (bytes) => files.filter((f) => f.endsWith(".wasm") && fs.readFileSync(f).equals(bytes)).map((f) => path.basename(f));
    const ref = (lit, bytes) => (js.includes(lit) || wasmOf(bytes).some((n) => js.includes(n)) ? "Y" : "n");
    const entryJs = files.filter((f) => /\.m?js$/.test(f)).find((f) => /app|main/.test(path.basename(f)));
    let runtime = "";
    if (entryJs) { const r = spawnSync("node", ["/tmp/treeshake/run.mjs", entryJs, pkg], { encoding: "utf8" }); runtime = (r.stdout + r.stderr).trim().replace(/\d+ms /g, "").replace(/_TLA_MARK/g, ""); }
    rows.push({ case: c, bundler: bn, app,
      opsRef: ref("ops.wasm", opsBytes), opsTLA: has("OPS_TLA_MARK"), opsEmit: wasmFiles.some((b) => b.equals(opsBytes)) ? "Y" : "n",
      pipeRef: ref("pipeline.wasm", pipeBytes), pipeTLA: has("PIPELINE_TLA_MARK"), pipeEmit: wasmFiles.some((b) => b.equals(pipeBytes)) ? "Y" : "n", runtime,
      jsFiles: files.filter((f) => /\.m?js$/.test(f)).map((f) => path.relative(out, f)).join(";"), notes: [...new Set(notes)].join(" || ").slice(0, 300) });
  }
}
fs.writeFileSync(`/tmp/treeshake/results-${which.join("_")}.json`, JSON.stringify(rows, null, 1));
console.table(rows.map(({ jsFiles, notes, runtime, ...r }) => r));
for (const r of rows) console.log(r.case, r.bundler, r.app, "RUNTIME:", r.runtime);
for (const r of rows) if (r.notes) console.log(r.case, r.bundler, r.app, "NOTES:", r.notes);
