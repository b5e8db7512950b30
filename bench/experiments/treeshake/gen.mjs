import fs from "fs"; import path from "path";
const root = "/tmp/treeshake/cases";
// minimal wasm exporting one func returning i32 const
// plus an 8000-byte custom section "pad" so it is above Vite's 4 KiB assetsInlineLimit (realistic size)
const pad = Buffer.concat([Buffer.from([0, 0xc0, 0x3e, 3]), Buffer.from("pad"), Buffer.alloc(8000 - 4, 0x61)]); // section size 8000 = LEB 0xc0 0x3e
const wasm = (name, val) => Buffer.concat([Buffer.from([0,0x61,0x73,0x6d,1,0,0,0, 1,5,1,0x60,0,1,0x7f, 3,2,1,0, 7,5,1,1,name.charCodeAt(0),0,0, 0x0a,6,1,4,0,0x41,val,0x0b]), pad]);
const loadJs = `export async function loadWasm(url, label) {
  globalThis.__log?.("start " + label);
  const res = await fetch(url);
  const { instance } = await WebAssembly.instantiate(await res.arrayBuffer());
  globalThis.__log?.("done " + label);
  return instance;
}
`;
const variants = {
  A: {
    "pipeline-entry.js": `import { loadWasm } from "./load.js";
const wasm = await loadWasm(new URL("./pipeline.wasm", import.meta.url), "PIPELINE_TLA_MARK");
export class Pipeline { run() { return wasm.exports.f(); } }
`,
    "ops-entry.js": `import { loadWasm } from "./load.js";
const wasm = await loadWasm(new URL("./ops.wasm", import.meta.url), "OPS_TLA_MARK");
export function rrf() { return wasm.exports.g(); }
`,
  },
  B: { // shared errors.js class used by both (at top level and in bodies), re-exported from index
    "errors.js": `export class WasmError extends Error { constructor(m) { super(m); this.name = "WasmError"; } }
`,
    "pipeline-entry.js": `import { loadWasm } from "./load.js";
import { WasmError } from "./errors.js";
const wasm = await loadWasm(new URL("./pipeline.wasm", import.meta.url), "PIPELINE_TLA_MARK").catch((e) => { throw new WasmError("pipeline load failed: " + e); });
export class Pipeline { run() { if (!wasm) throw new WasmError("PIPELINE_BODY_MARK"); return wasm.exports.f(); } }
`,
    "ops-entry.js": `import { loadWasm } from "./load.js";
import { WasmError } from "./errors.js";
const wasm = await loadWasm(new URL("./ops.wasm", import.meta.url), "OPS_TLA_MARK").catch((e) => { throw new WasmError("ops load failed: " + e); });
export function rrf() { if (!wasm) throw new WasmError("OPS_BODY_MARK"); return wasm.exports.g(); }
`,
  },
};
const seVariants = { false: false, pipe: ["./pipeline-entry.js"], none: undefined, entries: ["./pipeline-entry.js", "./ops-entry.js"], idxpipe: ["./index.js", "./pipeline-entry.js"] };
const apps = {
  pipeline: `import { Pipeline } from "wasm-pkg";\nconsole.log("APP pipeline ->", new Pipeline().run());\n`,
  rrf: `import { rrf } from "wasm-pkg";\nconsole.log("APP rrf ->", rrf());\n`,
  both: `import { Pipeline, rrf } from "wasm-pkg";\nconsole.log("APP both ->", new Pipeline().run(), rrf());\n`,
};
fs.rmSync(root, { recursive: true, force: true });
for (const [v, files] of Object.entries(variants)) for (const [se, seVal] of Object.entries(seVariants)) {
  const dir = path.join(root, `${v}-se_${se}`); const pkg = path.join(dir, "node_modules/wasm-pkg");
  fs.mkdirSync(pkg, { recursive: true });
  const pj = { name: "wasm-pkg", version: "1.0.0", type: "module", exports: { ".": { browser: "./index.js", default: "./index.js" } }, browser: "./index.js", module: "./index.js", main: "./index.js" };
  if (seVal !== undefined) pj.sideEffects = seVal;
  fs.writeFileSync(path.join(pkg, "package.json"), JSON.stringify(pj, null, 2));
  fs.writeFileSync(path.join(pkg, "index.js"), `export * from "./pipeline-entry.js";\nexport * from "./ops-entry.js";\n` + (v === "B" ? `export * from "./errors.js";\n` : ""));
  fs.writeFileSync(path.join(pkg, "load.js"), loadJs);
  for (const [f, c] of Object.entries(files)) fs.writeFileSync(path.join(pkg, f), c);
  fs.writeFileSync(path.join(pkg, "pipeline.wasm"), wasm("f", 11));
  fs.writeFileSync(path.join(pkg, "ops.wasm"), wasm("g", 22));
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }, null, 2));
  for (const [a, c] of Object.entries(apps)) fs.writeFileSync(path.join(dir, `app-${a}.js`), c);
}
console.log(fs.readdirSync(root));
