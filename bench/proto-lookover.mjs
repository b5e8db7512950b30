// What `encodeInput` (js/core/pipeline-input.js) pays to keep inherited values out of
// the items: a look-over of Object.prototype (`standardObjectPrototype`, made twice a
// call from `LOOK_OVER_FROM` distinct ids on) against `key in Object.prototype` for
// each item found (below that), on ids shaped like bench/gen.mjs's. Medians of ROUNDS
// batches, from the sources in js/ (no build).
//   node bench/proto-lookover.mjs [ROUNDS]
import { docId } from "./gen.mjs";

const { standardObjectPrototype } = await import("../js/core/pipeline-input.js");
const ROUNDS = Number(process.argv[2] || 15);
const ids = Array.from({ length: 14 }, (_, d) => docId(d * 7));
const OP = Object.prototype;
const batch = 100_000;
const time = (f) => {
  const t = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    f();
    t.push(((performance.now() - t0) * 1e6) / batch);
  }
  return t.sort((a, b) => a - b)[ROUNDS >> 1];
};
let sink = 0;
const lookOver = () => {
  for (let i = 0; i < batch; i++) sink += standardObjectPrototype() ? 1 : 0;
};
const asked = () => {
  for (let i = 0; i < batch; i++) for (let j = 0; j < ids.length; j++) sink += ids[j] in OP ? 1 : 0;
};
lookOver();
asked();
const a = time(lookOver);
const b = time(asked) / ids.length;
console.log(`a look-over: ${a.toFixed(0)} ns; a key asked: ${b.toFixed(1)} ns; they break even at ${Math.round((2 * a) / b)} ids (${sink > 0 ? "standard" : "?"})`);
