// Workload (c)'s items read as js/core/pipeline-input.js reads them (each listed id
// looked up, then each item's texts type-checked, measured and kept for the pool), in
// variants, timed alone or, with --interleave, each call after the JS baseline's (as
// `make bench` interleaves them: the caches are then cold). Variants: `kept` (today's:
// the texts stored in a kept array, checked in the same loop), `fresh` (a new array per
// call), `noStore` (checked, not stored: a floor), `split` (stored first, checked in a
// loop of their own), `touch` / `touchSplit` (the lookups' loop also reads each record's
// type, so that the item loop finds it in the cache).
//   node bench/items-cold.mjs N [--interleave]
import * as gen from "./gen.mjs";
import * as baseline from "./baseline/calibrank-baseline.mjs";
const n = Number(process.argv[2] ?? 10000);
const il = process.argv.includes("--interleave");
const x = gen.makeInputs(n);
const items = x.inputC.items;
const ids = [];
{ const seen = new Map(); for (const l of x.strLists) for (const id of l) if (!seen.has(id)) { seen.set(id, ids.length); ids.push(id); } }
const nDocs = ids.length;
const kept = new Array(4 * nDocs).fill(undefined);
const keptFound = new Array(nDocs).fill(undefined);
const jsC = new baseline.Pipeline(gen.pipelineConfig(true));
function read(found, held) {
  let units = 0;
  for (let d = 0; d < nDocs; d++) found[d] = items[ids[d]];
  for (let d = 0; d < nDocs; d++) {
    const meta = found[d];
    for (const f in meta) {
      const v = meta[f];
      let field = 0;
      switch (f) { case "name": field = 1; break; case "type": field = 2; break; case "summary": field = 3; break; case "content": field = 4; break; default: continue; }
      if (typeof v !== "string") throw new Error();
      units += v.length;
      if (held) held[4 * d + field - 1] = v;
    }
  }
  return units;
}
function readSplit(found, held) {
  let units = 0;
  for (let d = 0; d < nDocs; d++) found[d] = items[ids[d]];
  for (let d = 0; d < nDocs; d++) {
    const meta = found[d];
    for (const f in meta) {
      const v = meta[f];
      let field = 0;
      switch (f) { case "name": field = 1; break; case "type": field = 2; break; case "summary": field = 3; break; case "content": field = 4; break; default: continue; }
      held[4 * d + field - 1] = v;
    }
  }
  for (let i = 0; i < 4 * nDocs; i++) {
    const v = held[i];
    if (v === undefined) continue;
    if (typeof v !== "string") throw new Error();
    units += v.length;
  }
  return units;
}
function readTouchSplit(found, held) {
  let units = 0, objs = 0;
  for (let d = 0; d < nDocs; d++) { const m = (found[d] = items[ids[d]]); if (typeof m === "object") objs++; }
  for (let d = 0; d < nDocs; d++) {
    const meta = found[d];
    for (const f in meta) {
      const v = meta[f];
      let field = 0;
      switch (f) { case "name": field = 1; break; case "type": field = 2; break; case "summary": field = 3; break; case "content": field = 4; break; default: continue; }
      held[4 * d + field - 1] = v;
    }
  }
  for (let i = 0; i < 4 * nDocs; i++) {
    const v = held[i];
    if (v === undefined) continue;
    if (typeof v !== "string") throw new Error();
    units += v.length;
  }
  return units + objs;
}
function readTouch(found, held) {
  let units = 0, objs = 0;
  for (let d = 0; d < nDocs; d++) { const m = (found[d] = items[ids[d]]); if (typeof m === "object") objs++; }
  for (let d = 0; d < nDocs; d++) {
    const meta = found[d];
    for (const f in meta) {
      const v = meta[f];
      let field = 0;
      switch (f) { case "name": field = 1; break; case "type": field = 2; break; case "summary": field = 3; break; case "content": field = 4; break; default: continue; }
      if (typeof v !== "string") throw new Error();
      units += v.length;
      held[4 * d + field - 1] = v;
    }
  }
  return units + objs;
}
const variants = {
  touchSplit: () => { const r = readTouchSplit(keptFound, kept); kept.fill(undefined); keptFound.fill(undefined); return r; },
  touch: () => { const r = readTouch(keptFound, kept); kept.fill(undefined); keptFound.fill(undefined); return r; },
  split: () => { const r = readSplit(keptFound, kept); kept.fill(undefined); keptFound.fill(undefined); return r; },
  kept: () => { const r = read(keptFound, kept); kept.fill(undefined); keptFound.fill(undefined); return r; },
  fresh: () => read(new Array(nDocs), new Array(4 * nDocs)),
  noStore: () => read(keptFound, null),
};
const now = () => performance.now();
for (let round = 0; round < 3; round++) {
  for (const [k, f] of Object.entries(variants)) {
    const ts = [];
    for (let i = 0; i < 80; i++) { if (il) jsC.run(x.inputC); const a = now(); f(); ts.push(now() - a); }
    ts.sort((a, b) => a - b);
    console.log(round, k.padEnd(8), ts[ts.length >> 1].toFixed(3), "ms");
  }
}
