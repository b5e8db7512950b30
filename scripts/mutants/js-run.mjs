// One run of the JS suite (tests/js/suite.js) on the package in DIR, as the mutation
// harness needs it: through the Node entries (every function on calibrank_core.wasm),
// then with `Pipeline` on calibrank_pipeline.wasm as a bundled app that imports it alone
// gets it (the API modules handed the compiled modules, as
// tests/js/pipeline-module.test.mjs does). Exit 0 when every test passes both ways,
// 1 with the failures' names.
//   node scripts/mutants/js-run.mjs DIR
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const dir = pathToFileURL(resolve(process.argv[2] ?? "pkg") + "/");
// An object `typeof` calls undefined, as `document.all` is in a browser (js.py runs this
// with --allow-natives-syntax; without it the suite's check of one is skipped).
try {
  globalThis.__calibrankUndetectable = new Function("return %GetUndetectable()")();
} catch {}
const here = new URL("../../", import.meta.url);
const { runSuite } = await import(new URL("tests/js/suite.js", here));
const golden = JSON.parse(readFileSync(new URL("tests/golden/vectors.json", here), "utf8"));
const compiled = (m) => new WebAssembly.Module(readFileSync(new URL(`calibrank_${m}.wasm`, dir)));

const core = await import(new URL("node.mjs", dir));
const lab = await import(new URL("lab.node.mjs", dir));
const { default: coreHooks, ...split } = await import(new URL("core.js", dir));
const { default: labHooks, ...splitLab } = await import(new URL("lab_api.js", dir));
coreHooks.init(compiled("core"));
coreHooks.pipeline.init(compiled("pipeline"));
labHooks.init(compiled("lab"));
let failed = 0;
for (const [way, lib] of [["node entries", { ...lab, ...core }], ["Pipeline on calibrank_pipeline.wasm", { ...splitLab, ...split }]]) {
  const r = runSuite(lib, golden, () => {});
  for (const f of r.failures) console.log(`FAIL: ${f.name} (${way})`);
  failed += r.failed;
}
process.exit(failed ? 1 : 0);
