// Reading workload (c)'s items (bench/gen.mjs: name, type, summary, modifiedAt for 4 in
// 5) two ways, alone, as js/core/pipeline-input.js `encodeInput` reads them: one loop
// doing every step per item (looked up in the record, its fields enumerated and read,
// each text's type and length checked, the text kept in an array of 4 slots per item),
// against the lookups first in a loop of their own (the items kept in an array), then
// the same loop over them. The distinct ids in order of first appearance, as the
// package reads them. Prints ns per item, each way, best of 3 rounds.
//   node bench/items-passes.mjs [N,N,...]
import * as gen from "./gen.mjs";

const sizes = (process.argv[2] ?? "1000,10000,100000").split(",").map(Number);
let sink = 0;

function read(meta, d, held) {
  let acc = 0;
  for (const f in meta) {
    const v = meta[f];
    switch (f) {
      case "name":
      case "type":
      case "summary":
      case "content":
        if (typeof v !== "string") throw new TypeError(f);
        acc += v.length;
        held[4 * d] = v;
        break;
      case "modifiedAt":
        if (typeof v === "number") acc++;
        break;
      default:
        throw new TypeError(f);
    }
  }
  return acc;
}

console.log("N | items | one loop, ns an item | lookups first, ns an item | ratio");
for (const n of sizes) {
  const input = gen.makeInputs(n).inputC;
  const seen = new Set();
  const ids = [];
  for (const l of input.lists) for (const id of l.ids) if (!seen.has(id)) seen.add(id), ids.push(id);
  const items = input.items;
  const held = new Array(4 * ids.length);
  const found = new Array(ids.length);
  const oneLoop = () => {
    let acc = 0;
    for (let d = 0; d < ids.length; d++) {
      const meta = items[ids[d]];
      if (meta !== undefined) acc += read(meta, d, held);
    }
    return acc;
  };
  const lookupsFirst = () => {
    let acc = 0;
    for (let d = 0; d < ids.length; d++) found[d] = items[ids[d]];
    for (let d = 0; d < ids.length; d++) {
      const meta = found[d];
      if (meta !== undefined) acc += read(meta, d, held);
    }
    return acc;
  };
  const time = (fn) => {
    let best = Infinity;
    const calls = Math.max(5, Math.round(1e6 / ids.length));
    for (let r = 0; r < 3; r++) {
      for (let i = 0; i < 3; i++) sink += fn();
      const t = process.hrtime.bigint();
      for (let i = 0; i < calls; i++) sink += fn();
      best = Math.min(best, Number(process.hrtime.bigint() - t) / calls / ids.length);
    }
    return best;
  };
  const a = time(oneLoop);
  const b = time(lookupsFirst);
  console.log(`${n} | ${ids.length} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(a / b).toFixed(2)}`);
}
if (sink < 0) console.log(sink);
