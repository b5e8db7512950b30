// (a)'s 3 x N ids (bench/gen.mjs) interned two ways in one process, the collector run
// before each: a `Map` (bench/gen.mjs `internByMap`, as js/core/fuse.js `rrf` interns), and every entry's id written as
// UTF-8 (joined in parts of 16,384, `encodeInto`) for this directory's module to intern.
// Prints each way's time, the module's way split into its JavaScript and its module.
// The benchmark's ids are ASCII: an entry's end is its running UTF-16 length.
//   node --expose-gc run.mjs [N] [--fresh]   (--fresh: lists parsed anew from JSON)
import * as gen from "../../gen.mjs";
import { readFileSync } from "node:fs";

const n = Number(process.argv[2] ?? 100000);
let lists = gen.makeInputs(n).strLists;
if (process.argv.includes("--fresh")) lists = JSON.parse(JSON.stringify(lists));
const total = lists.reduce((s, l) => s + l.length, 0);
const wasm = readFileSync(new URL("target/wasm32-unknown-unknown/release/large_intern.wasm", import.meta.url));
const x = (await WebAssembly.instantiate(wasm)).instance.exports;
const enc = new TextEncoder();
x.alloc(64 << 20, total);

const viaMap = () => gen.internByMap(lists).ids.length;

function viaModule() {
  const mem = x.memory.buffer;
  const ends = new Uint32Array(mem, x.ends_ptr(), total);
  const buf = new Uint8Array(mem, x.buf_ptr(), 64 << 20);
  const t0 = performance.now();
  let k = 0;
  let end = 0;
  let pos = 0;
  const part = [];
  for (const ids of lists)
    for (let j = 0; j < ids.length; j++) {
      const id = ids[j];
      if (typeof id !== "string") throw new TypeError("an id that is not a string");
      end += id.length;
      ends[k++] = end;
      part.push(id);
      if (part.length === 16384) {
        pos += enc.encodeInto(part.join(""), buf.subarray(pos)).written;
        part.length = 0;
      }
    }
  enc.encodeInto(part.join(""), buf.subarray(pos));
  const t1 = performance.now();
  const distinct = x.run();
  return { distinct, jsMs: t1 - t0, moduleMs: performance.now() - t1 };
}

if (viaMap() !== viaModule().distinct) throw new Error("the two ways disagree on the distinct ids");
for (let r = 0; r < 7; r++) {
  globalThis.gc?.();
  let t = performance.now();
  viaMap();
  const mapMs = performance.now() - t;
  globalThis.gc?.();
  t = performance.now();
  const m = viaModule();
  const allMs = performance.now() - t;
  console.log(`Map ${mapMs.toFixed(1)} ms; the module's way ${allMs.toFixed(1)} ms (JavaScript ${m.jsMs.toFixed(1)}, module ${m.moduleMs.toFixed(1)})`);
}
