// A million pipeline calls in a loop keep the wasm memory flat: after a warm-up, the
// linear memory (which only ever grows, in 64 KiB pages) must not grow at all, so no
// call leaks. Successful runs, runs that fail with a ScoreError, columnar runs and
// constructions are mixed, since error paths are where leaks hide. MEMORY_CALLS sets the
// number of calls (default 1,000,000). Prints the page count at start and end.
import test from "node:test";
import assert from "node:assert/strict";
import * as lib from "calibrank";

const CALLS = Number(process.env.MEMORY_CALLS || 1_000_000);
const WARMUP = 20_000;

// The module's exports (initSync returns the instance the entry module created).
const wasm = lib.initSync();
const pages = () => wasm.memory.buffer.byteLength / 65536;

test(`${CALLS} pipeline calls keep wasm memory flat`, () => {
  const pipeline = new lib.Pipeline({ topN: 3, minConfidence: 0, calibration: { method: "sigmoid", threshold: 0.02 }, explain: false });
  const inputs = [
    { lists: [{ name: "semantic", ids: ["a", "b", "c"] }, { name: "keyword", ids: ["c", "a"] }] },
    { query: "auth", lists: [{ name: "s", ids: ["x", "y"], scores: [0.9, 0.1] }], items: { x: { modifiedAt: "2026-11-01" } }, now: "2026-11-18" },
  ];
  const bad = { lists: [{ name: "s", ids: ["a"], scores: [1, 2] }] };
  const columnar = { docs: new Uint32Array([0, 1, 2, 1]), offsets: new Uint32Array([0, 3, 4]), nDocs: 3 };
  let errors = 0;
  let checksum = 0;
  const call = (i) => {
    switch (i % 8) {
      case 6:
        try {
          pipeline.run(bad);
        } catch (e) {
          if (!(e instanceof lib.ScoreError)) throw e;
          errors++;
        }
        return;
      case 7:
        checksum += pipeline.runColumnar(columnar).order[0];
        return;
      default:
        checksum += pipeline.run(inputs[i % 2]).results.length;
    }
  };

  const start = pages();
  for (let i = 0; i < WARMUP; i++) call(i);
  const afterWarmup = pages();
  const t0 = performance.now();
  for (let i = WARMUP; i < CALLS; i++) {
    call(i);
    if (i % 100_000 === 0) {
      // A leak shows up long before the end: fail fast, with the call number.
      assert.equal(pages(), afterWarmup, `wasm memory grew to ${pages()} pages after ${i} calls`);
    }
  }
  // Constructing and freeing pipelines (with config decoding) does not leak either.
  for (let i = 0; i < 20_000; i++) new lib.Pipeline({ topN: 2, weights: { a: 2 } }).free();
  const end = pages();
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    `wasm memory: ${start} pages at start, ${afterWarmup} after ${WARMUP} warm-up calls, ${end} after ${CALLS} calls ` +
      `(${errors} ScoreErrors, ${(CALLS / seconds / 1000).toFixed(0)}k calls/s, checksum ${checksum})`,
  );
  assert.ok(errors > 0 && checksum > 0);
  assert.equal(end, afterWarmup, `wasm memory grew from ${afterWarmup} to ${end} pages`);
});
