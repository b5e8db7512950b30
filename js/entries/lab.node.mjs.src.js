// Node.js, ES modules. The .wasm is located with new URL("./x.wasm", import.meta.url),
// which bundlers of server code follow: Turbopack emits the file and gives its file: URL;
// webpack (Next.js --webpack) rewrites it to a public path, so the same name is also
// tried from import.meta.url alone (which webpack sets to the original module's file).
// Read and compiled on the first call. Built with ScoreError taken from score_error.cjs,
// so ESM and CommonJS users share one class.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import internals from "./lab_api.js";

const asset = new URL("./calibrank_lab.wasm", import.meta.url);
const name = "calibrank_lab.wasm";

internals.lazy(() => {
  const tried = [];
  for (const url of [asset, new URL(name, import.meta.url)]) {
    tried.push(String(url));
    if (url.protocol !== "file:") continue;
    try {
      return new WebAssembly.Module(readFileSync(fileURLToPath(url)));
    } catch {
      // the next place
    }
  }
  throw new Error(`calibrank: cannot read ${name} (tried ${tried.join(", ")}); copy node_modules/calibrank/*.wasm next to your server bundle`);
});

export * from "./lab_api.js";
