// A copy of a package whose Node entry (node.mjs) is patched for a measurement: the
// package's other files are linked, node.mjs is copied with each patch applied, and each
// patch's anchor must occur exactly once (else the entry changed and the script that
// patches it must be updated). The package itself is never touched.
//   const { lib, dispose } = await importPatched("pkg", [[anchor, replacement], ...], "capture");
// A replacement may use `$&` for the anchor itself (String.prototype.replace's pattern).
// With CALIBRANK_BENCH_CHECK=1 in the environment the process ends once the patches
// apply, before anything is measured (tests/js/bench-scripts.test.mjs runs each script
// that patches the entry so: an anchor the package's JavaScript lost is found by
// `make test`, not by the next session that needs the script).
import { mkdtempSync, readFileSync, writeFileSync, symlinkSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

export async function importPatched(dir, patches, what) {
  const from = resolve(dir);
  const tmp = mkdtempSync(join(tmpdir(), `calibrank-${what}-`));
  try {
    for (const f of readdirSync(from)) if (f !== "node.mjs") symlinkSync(join(from, f), join(tmp, f));
    let src = readFileSync(join(from, "node.mjs"), "utf8");
    for (const [anchor, to] of patches) {
      const n = src.split(anchor).length - 1;
      if (n !== 1) throw new Error(`${what}: expected one "${anchor}" in ${from}/node.mjs, found ${n}: the package's JavaScript changed, update the patch`);
      src = src.replace(anchor, to);
    }
    if (process.env.CALIBRANK_BENCH_CHECK === "1") {
      console.log(`${what}: ${patches.length} patches apply to ${from}/node.mjs`);
      process.exit(0);
    }
    writeFileSync(join(tmp, "node.mjs"), src);
    const lib = await import(pathToFileURL(join(tmp, "node.mjs")).href);
    return { lib, dispose: () => rmSync(tmp, { recursive: true, force: true }) };
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}
