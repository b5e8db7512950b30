// Calls at the documented ceilings, one after another, in one instance: the columnar
// path at maxColumnarEntries' and maxListLength's ceiling (50 million entries) must not
// run the core module out of wasm32's 4 GiB. The module kept each call's input and
// output buffers (200 MB in, 600 MB out here) under the next call's allocations: the
// second call trapped (out of memory) and the instance was restarted. Since
// wasm/shared's `KEEP_BYTES`, buffers above 16 MiB are given back after use.
//
// About 4.6 GB of memory and 20 s; a file of its own (one process, one instance).
import test from "node:test";
import assert from "node:assert/strict";

const instances = [];
const RealInstance = WebAssembly.Instance;
WebAssembly.Instance = new Proxy(RealInstance, {
  construct(target, args, newTarget) {
    const instance = Reflect.construct(target, args, newTarget);
    instances.push(instance);
    return instance;
  },
});
const lib = await import("calibrank");
lib.version();
WebAssembly.Instance = RealInstance;
const memory = () => instances.at(-1).exports.memory.buffer.byteLength;

const mib = () => `${(memory() / 2 ** 20).toFixed(0)} MiB`;

test("repeated columnar calls of 10 million entries reuse the module's memory", (t) => {
  const n = 10_000_000;
  const docs = new Uint32Array(n).map((_, i) => i);
  const options = { limits: { maxColumnarEntries: n, maxListLength: n } };
  lib.rrfColumnar(docs, new Uint32Array([0, n / 2, n]), n, options);
  const after = memory();
  for (let i = 0; i < 2; i++) lib.rrfColumnar(docs, new Uint32Array([0, n / 2, n]), n, options);
  assert.equal(memory(), after, "the second and third calls fit in what the first one left");
  t.diagnostic(`wasm memory after three calls of 10 million entries: ${mib()}`);
});

test("calls at the columnar ceiling (50 million entries) one after another: no trap, same instance", (t) => {
  const n = 50_000_000;
  const docs = new Uint32Array(n).map((_, i) => i);
  const limits = { maxColumnarEntries: n, maxListLength: n };
  const before = instances.length;
  const one = lib.rrfColumnar(docs, new Uint32Array([0, n]), n, { limits });
  assert.equal(one.order.length, n);
  t.diagnostic(`after one call at the ceiling: ${mib()}`);
  const two = lib.rrfColumnar(docs, new Uint32Array([0, n / 2, n]), n, { limits });
  assert.equal(two.order.length, n);
  const p = new lib.Pipeline({ limits, topK: 100 });
  assert.equal(p.runColumnar({ docs, offsets: new Uint32Array([0, n / 2, n]), nDocs: n }).candidates, n);
  p.free();
  assert.equal(lib.rrfColumnar(docs, new Uint32Array([0, n]), n, { limits }).order.length, n);
  assert.equal(instances.length, before, "the module never trapped (a trap makes a new instance)");
  assert.ok(memory() < 4 * 2 ** 30);
  t.diagnostic(`after four calls at the ceiling: ${mib()}`);
});
