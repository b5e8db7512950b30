// The lab's entry files are the core's with the module swapped: `calibrank/lab` for
// `calibrank`, lab_api.js for core.js, calibrank_lab.wasm for calibrank_core.wasm (still a
// string literal in each generated file, where bundlers look for it). One source per
// kind of entry, in js/entries/; scripts/build-pkg.sh writes the lab's twins.
//   node scripts/lab-entries.mjs OUT_DIR FILE...
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

const [out, ...files] = process.argv.slice(2);
const swaps = [
  ['"./core.js"', '"./lab_api.js"'],
  ["calibrank_core.wasm", "calibrank_lab.wasm"],
  ["`calibrank/init`", "`calibrank/lab/init`"],
  ['initApi(internals, "calibrank",', 'initApi(internals, "calibrank/lab",'],
  ["core's wasm", "lab's wasm"],
];
for (const file of files) {
  // The held texts' module (calibrank_texts.wasm) is the core's alone: its lines go.
  let text = readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => !/calibrank_texts|internals\.texts|held texts' function/.test(line))
    .join("\n");
  for (const [from, to] of swaps) {
    if (!text.includes(from) && from === '"./core.js"') throw new Error(`${file}: no "./core.js" import to swap`);
    text = text.split(from).join(to);
  }
  if (text.includes("core.js") || text.includes("calibrank_core")) throw new Error(`${file}: a core reference survived the swap`);
  writeFileSync(join(out, `lab.${basename(file)}`), text);
}
