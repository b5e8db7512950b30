// `classifyBand` and `queryConfidence` on two builds of the package (A, B: directories like
// pkg/): 3,000 random calls of each (scores and floors out of range, NaN, -0, Infinity, bad
// weights and k), results compared with every number as its bits, errors by code, field and
// message.
//   node bench/small-outputs-parity.mjs A B
import { pathToFileURL } from "node:url";
import { lcg, outcome as text } from "./parity.mjs";
const [A, B] = process.argv.slice(2);
const a = await import(pathToFileURL(`${A}/node.mjs`).href);
const b = await import(pathToFileURL(`${B}/node.mjs`).href);
const { rnd } = lcg(5);
const num = () => { const r = rnd(); return r < 0.05 ? -0 : r < 0.08 ? NaN : r < 0.1 ? 1.5 : r < 0.12 ? -0.2 : r < 0.14 ? Infinity : rnd(); };
let diff = 0;
for (let t = 0; t < 3000; t++) {
  const s = num();
  const o = rnd() < 0.5 ? undefined : { highFloor: rnd() < 0.1 ? 2 : 0.5 + rnd() * 0.5, degradedFloor: rnd() * 0.5 };
  const scores = Array.from({ length: Math.floor(rnd() * 9) }, num);
  const qo = rnd() < 0.5 ? undefined : { k: rnd() < 0.1 ? 0 : 1 + Math.floor(rnd() * 6), ...(rnd() < 0.3 ? { weights: [0.5, 0.2, 0.1, 0.1, rnd() < 0.1 ? -1 : 0.1] } : {}) };
  for (const [x, y] of [[text(() => a.classifyBand(s, o)), text(() => b.classifyBand(s, o))], [text(() => a.queryConfidence(scores, qo)), text(() => b.queryConfidence(scores, qo))]])
    if (x !== y && diff++ < 5) console.log(x, "\n", y);
}
console.log("3000 x (classifyBand, queryConfidence):", diff, "differ");
