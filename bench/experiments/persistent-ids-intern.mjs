// The interning alone of bench/experiments/persistent-ids.patch: workload (b)'s three
// lists (bench/gen.mjs) interned in a `Map` made for each call (`gen.internByMap`)
// against a table kept across calls (each id a row, numbered per call by a stamp per
// row), alternately, in one process.
// docs/performance-history.md, "A table of ids kept across calls".
//   node bench/experiments/persistent-ids-intern.mjs [N] [MODE] [--no-drop]
// MODE: `same` (the same lists every call), `fresh` (parsed anew from JSON: new strings,
// the same ids), `new` (ids renamed for each call: none met before). --no-drop: the kept
// table is never dropped but at 262,144 ids (without it: after a call that found fewer
// than half its ids in it, or when it holds over four times the call's ids).
import * as gen from "../gen.mjs";
import { MODES, inputsOf } from "./persistent-ids-inputs.mjs";

const args = process.argv.slice(2);
const drop = !args.includes("--no-drop");
const [nArg = "1000", mode = "same"] = args.filter((a) => a !== "--no-drop");
const n = Number(nArg);
if (!(n >= 1) || !MODES.includes(mode)) {
  console.error("usage: node bench/experiments/persistent-ids-intern.mjs [N] [same|fresh|new] [--no-drop]");
  process.exit(2);
}
const base = gen.makeInputs(n).strLists;
const total = base.reduce((s, l) => s + l.length, 0);
const listsFor = inputsOf(JSON.stringify(base), mode);

const callsMap = (lists) => gen.internByMap(lists).ids.length;

const NO_DROP_CAP = 1 << 18;
let kept = new Map();
let rows = [];
let stamp = new Uint32Array(16);
let slot = new Uint32Array(16);
let mark = 0;
function keptTable(lists) {
  if (!drop && rows.length + total > NO_DROP_CAP) {
    kept = new Map();
    rows = [];
    stamp.fill(0);
  }
  const startRows = rows.length;
  mark++;
  const ids = [];
  const docs = new Uint32Array(total);
  let k = 0;
  let hits = 0;
  for (const l of lists)
    for (let j = 0; j < l.length; j++) {
      const id = l[j];
      let r = kept.get(id);
      let d;
      if (r === undefined || stamp[r] !== mark) {
        if (r === undefined) {
          if (typeof id !== "string") throw new TypeError("id");
          r = rows.length;
          kept.set(id, r);
          rows.push(id);
          if (r >= stamp.length) {
            const s2 = new Uint32Array(2 * stamp.length);
            s2.set(stamp);
            stamp = s2;
            const t2 = new Uint32Array(2 * slot.length);
            t2.set(slot);
            slot = t2;
          }
        } else hits++;
        stamp[r] = mark;
        d = ids.length;
        slot[r] = d;
        ids.push(id);
      } else d = slot[r];
      docs[k++] = d;
    }
  const D = ids.length;
  if (drop && ((startRows > 0 && 2 * hits < D) || rows.length > 4 * D + 1024)) {
    kept = new Map();
    rows = [];
    stamp = new Uint32Array(16);
    slot = new Uint32Array(16);
    mark = 0;
  }
  return D;
}

const reps = Math.max(20, Math.floor(1e6 / n));
const inputs = Array.from({ length: reps }, listsFor);
function time(f) {
  const t = performance.now();
  let s = 0;
  for (let i = 0; i < reps; i++) s += f(inputs[i]);
  if (s === 0) throw new Error("no ids");
  return ((performance.now() - t) / reps) * 1000;
}
for (let r = 0; r < 4; r++)
  console.log(`N=${n} ${mode}${drop ? "" : " --no-drop"}: the call's Map ${time(callsMap).toFixed(1)} us  a kept table ${time(keptTable).toFixed(1)} us`);
