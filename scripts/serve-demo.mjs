#!/usr/bin/env node
// Serves the score playground: www/ at the root and the built package (pkg/) at /pkg/,
// on 127.0.0.1 (PORT, default 8080). `make demo` builds pkg/ and www/vendor/ first.
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "../tests/js/serve.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
for (const need of ["pkg/browser.js", "pkg/lab.browser.js", "www/vendor/plot.umd.min.js", "www/vendor/d3.min.js"]) {
  if (!existsSync(join(root, need))) {
    console.error(`serve-demo: ${need} is missing; run make demo (it builds the package and copies the chart library).`);
    process.exit(1);
  }
}
const port = Number(process.env.PORT || 8080);
process.on("uncaughtException", (e) => {
  if (e.code === "EADDRINUSE") {
    console.error(`serve-demo: port ${port} is in use; try PORT=${port + 1} make demo`);
    process.exit(1);
  }
  throw e;
});
const { url } = await serve(join(root, "www"), { port, mounts: { "/pkg/": join(root, "pkg") } });
console.log(`calibrank score playground: ${url}/`);
console.log("(Ctrl+C stops the server)");
