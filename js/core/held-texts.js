// The texts a pipeline holds back: given more candidates than its heuristic reranker reads
// (the topK pool), `Pipeline.run` copies none of their texts into the call, and the
// module asks for the pool's texts mid-run through `writeHeldTexts` (wasm/core/src/
// pipeline/texts.rs, `host`; docs/performance.md "The boundary").
import { Input } from "../wire.js";
import { pipelineState as state } from "./shared.js";

// The texts `Pipeline.run` held back for the call in flight (see `encodeInput`), and the
// function that writes those of the topK pool when the reranker asks.
let heldCall = null;
/** How many calls had their held texts asked for (`__heldTextsCalls`, for tests). */
let heldRuns = 0;
/**
 * Writes the held texts of `n` documents (u32 indices at `docs`) at `out`, at most `cap`
 * bytes, as a U32 section of flags (1 name, 2 type, 4 summary, 8 content) and a string
 * table of the present texts in that order. Returns the bytes written, minus the bytes
 * needed when they do not fit, NaN when nothing is held. Reads only strings
 * `encodeInput` already took from the caller's input (no caller code runs) and throws
 * nothing into wasm.
 */
function writeHeldTexts(docs, n, out, cap) {
  const h = heldCall;
  if (h === null) return NaN;
  h.asked = true;
  try {
    const wire = state.wire;
    wire.views();
    const u32 = wire.u32;
    const flags = new Array(n);
    const list = [];
    let units = 0;
    const at = docs >>> 2;
    for (let i = 0; i < n; i++) {
      // Document d's texts at `4 d` (`encodeInput`); a document without an item has none.
      const d = u32[at + i];
      const slot = 4 * d;
      let f = 0;
      if (d < h.nDocs) {
        for (let j = 0; j < 4; j++) {
          const t = h.texts[slot + j];
          if (t !== undefined) {
            f |= 1 << j;
            list.push(t);
            units += t.length;
          }
        }
      }
      flags[i] = f;
    }
    const inp = new Input().u32s(flags).strs(list, units);
    if (inp.worst > cap) return -inp.worst;
    // `out` crosses as a wasm i32 (negative at or above 2 GiB).
    const len = wire.write(out >>> 0, inp, (out >>> 0) + cap);
    return len < 0 ? -inp.worst : len;
  } catch {
    return NaN;
  }
}

// The module imports nothing: an imported JavaScript function would cost every
// instantiation the wrapper V8 compiles for it (about 0.15 ms of the core's start-up,
// docs/performance.md "Start-up"). It calls the held texts' function through a slot of
// its exported function table instead (wasm/core/src/pipeline/texts.rs, `host`), and a table
// holds only wasm functions: this tiny module's export `f` calls its import `c.t`
// (`writeHeldTexts`)
//   (type (func (param i32 i32 i32 i32) (result f64)))
//   (import "c" "t" (func 0))
//   (func (export "f") (type 0) local.get 0 local.get 1 local.get 2 local.get 3 call 0)
// It is compiled on the first call that holds texts back. Engines that compile no wasm
// from bytes (Cloudflare Workers, edge runtimes) get it compiled from
// calibrank_texts.wasm (these bytes; scripts/build-pkg.sh writes the file) through their
// entry's module import; given neither, a call holds no texts back: they cross with the
// input (the same output, see `encodeInput`; slower for large inputs).
const TEXTS_MODULE = [
  0, 97, 115, 109, 1, 0, 0, 0,
  1, 9, 1, 0x60, 4, 0x7f, 0x7f, 0x7f, 0x7f, 1, 0x7c,
  2, 7, 1, 1, 99, 1, 116, 0, 0,
  3, 2, 1, 0,
  7, 5, 1, 1, 102, 0, 1,
  10, 14, 1, 12, 0, 0x20, 0, 0x20, 1, 0x20, 2, 0x20, 3, 0x10, 0, 0x0b,
];
/** The wasm function calling `writeHeldTexts` (undefined before the first try, null when the engine refused it). */
let textsFn;
/** TEXTS_MODULE compiled, when an entry gave it (`texts` of the default export). */
let textsModule = null;
/**
 * The generation of the instance whose slot holds `textsFn` (a restarted instance has its
 * own table; generations are numbered across every Wire). A number, not the instance's
 * exports: those would keep a trapped instance's memory after its restart.
 */
let textsIn = 0;

/** Whether held texts can reach the module in this engine (makes the function on the first ask). */
export function canHoldTexts() {
  if (textsFn === undefined) {
    try {
      const m = textsModule ?? new WebAssembly.Module(new Uint8Array(TEXTS_MODULE));
      textsFn = new WebAssembly.Instance(m, { c: { t: writeHeldTexts } }).exports.f;
    } catch {
      textsFn = null;
    }
  }
  return textsFn !== null && state.wire.textsSlot >= 0;
}

/** Puts `textsFn` in the slot of the current instance's table (once per instance). */
function placeTexts(wire) {
  wire.live();
  if (textsIn === wire.generation) return;
  wire.x.__indirect_function_table.set(wire.textsSlot, textsFn);
  textsIn = wire.generation;
}

/** `TEXTS_MODULE` compiled by an entry (the default export's `texts`). */
export function setTextsModule(module) {
  textsModule = module;
}

/**
 * Calls operation `op` of the current module with `inp`, its held texts (`held`, as
 * `encodeInput` made them, or null) answered while it runs.
 */
export function callHolding(op, inp, held) {
  if (held !== null) placeTexts(state.wire);
  heldCall = held;
  try {
    return state.wire.call(op, inp);
  } finally {
    heldCall = null;
    if (held !== null && held.asked) heldRuns++;
  }
}

/** How many calls had their held texts asked for by the module (for tests: whether texts were held back). */
export function __heldTextsCalls() {
  return heldRuns;
}
