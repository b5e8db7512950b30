// Node.js, ES modules. The .wasm is located with new URL("./x.wasm", import.meta.url),
// which bundlers of server code follow: Turbopack emits the file and gives its file: URL;
// webpack (Next.js --webpack) rewrites it to a public path, so the same name is also
// tried from import.meta.url alone (which webpack sets to the original module's file).
// In a CommonJS bundle of this file (esbuild --format=cjs) import.meta is empty: then the
// file is looked for next to the bundle. Read and compiled on the first call; a .wasm
// found nowhere (or that does not compile) is a ScoreError that says what to do, at that
// call, not at import. Built with ScoreError taken from score_error.cjs (through
// score_error.node.mjs, one ES binding for both entries' `export *`), so ESM and CommonJS
// users share one class.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import internals from "./core.js";
import { besideThisFile, missingWasm } from "./load.js";

const name = "calibrank_core.wasm";
// Written out at the top level, where bundlers look for it; `new URL` of an undefined
// base throws, hence the guard.
let asset = null;
try {
  asset = new URL("./calibrank_core.wasm", import.meta.url);
} catch {
  // a CommonJS bundle: no import.meta.url
}

internals.lazy(() => {
  const tried = [];
  let cause;
  for (const place of [asset, besideThisFile(name, import.meta.url)]) {
    if (place === null || place === undefined) continue;
    if (place instanceof URL && place.protocol !== "file:") {
      tried.push(String(place));
      continue;
    }
    const path = place instanceof URL ? fileURLToPath(place) : place;
    if (tried.includes(path)) continue;
    tried.push(path);
    try {
      return new WebAssembly.Module(readFileSync(path));
    } catch (e) {
      // The next place (a missing file, or one that is not this module's).
      cause ??= e;
    }
  }
  throw missingWasm(name, tried, cause);
});

export * from "./core.js";
