// Replays calls captured by bench/capture.mjs (the bytes the package's JavaScript writes
// before `cr_call`) into a module as V8 runs it, with no other JavaScript per call than
// the copy of the input: the module's own instructions, of two builds or two wasm-opt
// settings, under callgrind (wasm/core/examples/replay.rs does the same natively, where
// wasm-opt's work and the module's allocator are not what runs).
//   node --single-threaded --predictable --no-liftoff bench/wasm-replay.mjs WASM OP INPUT.bin CALLS [NEW_CONFIG.bin]...
// prints the last call's status. Instructions per call: run under
//   valgrind --tool=callgrind node ... with CALLS = 200 and 1,200 and divide the difference
// by 1,000 (bench/wasm-icount.sh does that for a list of builds). The held texts' table slot
// keeps the module's own function (NaN): replay inputs that hold no texts.
import { readFileSync } from "node:fs";

const [wasm, op, inputFile, calls, ...configs] = process.argv.slice(2);
const module = new WebAssembly.Module(readFileSync(wasm));
const x = new WebAssembly.Instance(module, {}).exports;

function call(bytes, operation) {
  // No room beyond the input: the captured calls are the string API's (the package asks
  // for room only for the columnar calls' tables, js/core/shared.js `columnarRoom`).
  const p = x.cr_reserve(bytes.length, 0);
  new Uint8Array(x.memory.buffer).set(bytes, p);
  const out = x.cr_call(operation, bytes.length);
  return new Uint32Array(x.memory.buffer)[out >>> 2];
}

for (const c of configs) {
  const status = call(readFileSync(c), 10);
  if (status !== 0) throw new Error(`PIPELINE_NEW of ${c}: status ${status}`);
}
const input = readFileSync(inputFile);
let status = 0;
for (let i = 0; i < Number(calls); i++) status = call(input, Number(op));
console.log(`status ${status}`);
