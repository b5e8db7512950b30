// An experiment's build, not a benchmark: a copy of a package whose `Pipeline.run` sends
// every id of the lists as an empty string (its items still looked up by the real ids;
// ties then left unordered, outputs not the package's). What holding the ids back and
// asking for the pool's alone could save at most (docs/performance-history.md, "Tried,
// not taken: the ids held back as the texts are"):
//   node bench/experiments/blank-ids.mjs pkg /tmp/pkg-lazy
//   node --expose-gc bench/ab.mjs pkg /tmp/pkg-lazy --sizes 10,1000,10000 --with-baseline
// The package's files are copied, node.mjs patched at one anchor (which must occur
// once: else the package's JavaScript changed and this script must follow it).
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const [from = "pkg", to] = process.argv.slice(2);
if (!to) throw new Error("usage: node bench/experiments/blank-ids.mjs PKG_DIR OUT_DIR");
const anchor = "  const ctx = encodeContext(context, lim);\n  if (hold && !inline";
const blank =
  '  { let u = 0; for (let d = 0; d < nDocs; d++) { u += strs[d].length; strs[d] = ""; } units -= u; if (ends !== null) ends.fill(0, 0, nDocs); }\n';
const src = readFileSync(join(resolve(from), "node.mjs"), "utf8");
const n = src.split(anchor).length - 1;
if (n !== 1) throw new Error(`blank-ids: expected one anchor in ${from}/node.mjs, found ${n}: the package's JavaScript changed, update this script`);
if (process.env.CALIBRANK_BENCH_CHECK === "1") {
  console.log("blank-ids: 1 patch applies");
  process.exit(0);
}
rmSync(to, { recursive: true, force: true });
cpSync(resolve(from), to, { recursive: true });
writeFileSync(join(to, "node.mjs"), src.replace(anchor, blank + anchor));
console.log(`blank-ids: ${to} written`);
