// What each way of loading the .wasm costs in bytes (issue 12): for the core and the
// lab, the JavaScript an app ships with each entry (the whole API, bundled and minified
// by esbuild, gzip -9) and the .wasm beside it (raw, gzip -9). The "inlined" rows are
// not shipped: the init entry plus the module's bytes as a base64 string decoded with
// initSync, as some wasm packages ship for tools that cannot place a .wasm.
//   node bench/entry-bytes.mjs [--json]        (make bytes; needs pkg/: make pkg)
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync, brotliCompressSync, constants } from "node:zlib";

const pkg = fileURLToPath(new URL("../pkg", import.meta.url));
// gzip -9 as scripts/build-pkg.sh and docs/performance.md measure it (the gzip program;
// zlib's level 9 if it is missing, a few per cent larger).
const gz = (b) => {
  try {
    return execFileSync("gzip", ["-9c"], { input: b, maxBuffer: 1 << 26 }).length;
  } catch {
    return gzipSync(b, { level: 9 }).length;
  }
};
const br = (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

/** The entry bundled as an app would get it: every export kept, minified. */
async function bundle(entry, { platform = "browser", format = "esm", external = [] } = {}) {
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format,
    platform,
    target: "es2022",
    external: ["*.wasm", "*.wasm?module", ...external],
    write: false,
    logLevel: "silent",
  });
  return Buffer.from(out.outputFiles[0].contents);
}

const tmp = mkdtempSync(join(tmpdir(), "calibrank-bytes-"));
const rows = [];
try {
  for (const m of ["core", "lab"]) {
    const wasm = readFileSync(join(pkg, `calibrank_${m}.wasm`));
    const pre = m === "core" ? "" : "lab.";
    const name = m === "core" ? "calibrank" : "calibrank/lab";
    const mechanisms = [
      [`${name} (browser: fetch + top-level await)`, `${pre}browser.js`, {}],
      [`${name}/init (init(url, bytes or Module))`, `${pre}init.web.js`, {}],
      [`${name} (edge-light: import "x.wasm?module")`, `${pre}edge.js`, {}],
      [`${name} (workerd: import "x.wasm")`, `${pre}workerd.js`, {}],
      [`${name} (node, ESM; read on first call)`, `${pre}node.mjs`, { platform: "node", external: ["./score_error.node.mjs"] }],
      [`${name} (node, CommonJS; read on first call)`, `${pre}node.cjs`, { platform: "node", format: "cjs", external: ["./score_error.cjs"] }],
    ];
    for (const [label, file, opts] of mechanisms) {
      const js = await bundle(join(pkg, file), opts);
      rows.push({ module: m, mechanism: label, jsMin: js.length, jsGz: gz(js), wasm: wasm.length, wasmGz: gz(wasm), wasmBr: br(wasm), total: gz(js) + gz(wasm), inline: false });
    }
    // Inlined: base64 in the JS (not shipped; measured for comparison).
    const b64 = join(tmp, `${m}.b64.js`);
    writeFileSync(b64, `export default ${JSON.stringify(wasm.toString("base64"))};\n`);
    const inline = join(tmp, `${m}.inline.js`);
    writeFileSync(
      inline,
      `import { initSync } from ${JSON.stringify(join(pkg, `${pre}init.web.js`))};\nimport b64 from ${JSON.stringify(b64)};\n` +
        `initSync(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));\nexport * from ${JSON.stringify(join(pkg, `${pre}init.web.js`))};\n`,
    );
    const js = await bundle(inline);
    rows.push({ module: m, mechanism: `${name} inlined (base64 in the JS, initSync; not shipped)`, jsMin: js.length, jsGz: gz(js), wasm: 0, wasmGz: 0, wasmBr: 0, total: gz(js), totalBr: br(js), inline: true });
    if (m === "core") {
      // An app that imports Pipeline alone: the bundler keeps browser.pipeline.js, which
      // loads calibrank_pipeline.wasm (js/entries/browser.js).
      const app = join(tmp, "pipeline-only.js");
      writeFileSync(app, `import { Pipeline } from ${JSON.stringify(join(pkg, "browser.js"))};\nglobalThis.Pipeline = Pipeline;\n`);
      const pjs = await bundle(app);
      const pw = readFileSync(join(pkg, "calibrank_pipeline.wasm"));
      rows.push({ module: m, mechanism: "calibrank, an app importing Pipeline alone (browser: calibrank_pipeline.wasm)", jsMin: pjs.length, jsGz: gz(pjs), wasm: pw.length, wasmGz: gz(pw), wasmBr: br(pw), total: gz(pjs) + gz(pw), inline: false });
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

if (process.argv.includes("--json")) {
  console.log(JSON.stringify(rows, null, 2));
} else {
  const kb = (n) => (n === 0 ? "-" : (n / 1024).toFixed(1));
  console.log("| entry (mechanism) | JS min, KB | JS min+gz | .wasm | .wasm gz | total gz |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const r of rows) console.log(`| ${r.mechanism} | ${kb(r.jsMin)} | ${kb(r.jsGz)} | ${kb(r.wasm)} | ${kb(r.wasmGz)} | **${kb(r.total)}** |`);
  console.log("\nKB = 1024 bytes; gz: gzip -9. JS: the entry bundled with esbuild --bundle --minify (every export kept).");
  for (const m of ["core", "lab"]) {
    const sep = rows.find((r) => r.module === m && r.mechanism.includes("/init"));
    const inl = rows.find((r) => r.module === m && r.inline);
    console.log(
      `${m}: inlining costs ${kb(inl.jsMin - sep.jsMin - sep.wasm)} KB more raw (+${(((inl.jsMin - sep.jsMin) / sep.wasm - 1) * 100).toFixed(0)}% of the .wasm) and ${kb(inl.total - sep.total)} KB more gzipped (+${(((inl.total - sep.jsGz) / sep.wasmGz - 1) * 100).toFixed(0)}%) than the .wasm beside the JS; brotli: ${kb(inl.totalBr)} KB vs ${kb(sep.wasmBr)} KB for the .wasm alone.`,
    );
  }
}
