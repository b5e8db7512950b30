// Captures the bytes the package's JavaScript writes for one call of each workload (and
// for the pipelines they use), for wasm/core/examples/replay.rs: the module's share of a
// call, counted natively under callgrind without the JavaScript around it.
//   node bench/capture.mjs [PKG_DIR] [OUT_DIR]     (defaults: pkg, bench/tmp)
// then, for workload b at N = 10:
//   cargo build --release -p calibrank-wasm-core --example replay
//   valgrind --tool=callgrind target/release/examples/replay 13 OUT_DIR/cap-b10.bin CALLS \
//     OUT_DIR/cap-new-b.bin OUT_DIR/cap-new-c.bin OUT_DIR/cap-new-one.bin
// at two CALLS (say 200 and 1200): the difference of the totals over the difference of
// the calls is the module's instructions per call. Workload c at N = 1,000 (cap-c1000.bin)
// asks for the pool's held texts: REPLAY_TEXTS=OUT_DIR/cap-c1000-texts.bin gives them.
// A copy of the package's Node entry, patched to record each call's input, is imported
// from a temporary directory (bench/patched-entry.mjs: the other files linked); the
// package itself is not touched.
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import * as gen from "./gen.mjs";
import { importPatched } from "./patched-entry.mjs";

const [pkgDir = "pkg", outDir = "bench/tmp"] = process.argv.slice(2);
// Each call's input as written before `cr_call`; and the held texts the import writes (a
// pipeline with the heuristic reranker given more items than its pool), for replay.rs's
// REPLAY_TEXTS.
const { lib, dispose } = await importPatched(
  pkgDir,
  [
    ["p = this.x.cr_call(op, len)", "globalThis.__capture?.push([op, new Uint8Array(this.memory.buffer, ptr, len).slice()]);\n$&"],
    ["const len = wire.write(out >>> 0, inp, (out >>> 0) + cap);", "$&\nif (len >= 0) globalThis.__texts = new Uint8Array(wire.memory.buffer, out >>> 0, len).slice();"],
  ],
  "capture",
);
try {
  mkdirSync(outDir, { recursive: true });
  // The call of operation `op` (the last one if `op` is not given).
  const record = (name, f, op) => {
    globalThis.__capture = [];
    f();
    const calls = globalThis.__capture;
    globalThis.__capture = undefined;
    const [o, bytes] = op === undefined ? calls.at(-1) : calls.find((c) => c[0] === op);
    writeFileSync(join(outDir, `cap-${name}.bin`), bytes);
    console.log(`${name}: op ${o}, ${bytes.length} bytes`);
  };
  // Handles 1, 2, 3 in this order, as replay.rs makes them from the cap-new-*.bin files.
  const configs = { b: gen.pipelineConfig(false), c: gen.pipelineConfig(true), one: { explain: false } };
  const pipes = {};
  for (const [name, c] of Object.entries(configs)) record(`new-${name}`, () => (pipes[name] = new lib.Pipeline(c)), 10);
  const x = gen.makeInputs(10);
  record("b10", () => pipes.b.run(x.inputB));
  record("c10", () => pipes.c.run(x.inputC));
  // The RAG call (3 x 20 candidates, workload c).
  record("c20", () => pipes.c.run(gen.makeInputs(20).inputC));
  record("one", () => pipes.one.run({ lists: [{ name: "a", ids: ["x"] }] }));
  record("a10", () => lib.rrf(x.strLists, { limits: gen.BENCH_LIMITS }));
  // N = 1,000: (c) holds its texts back; the import's answer goes to cap-c1000-texts.bin.
  const y = gen.makeInputs(1000);
  record("b1000", () => pipes.b.run(y.inputB));
  globalThis.__texts = undefined;
  record("c1000", () => pipes.c.run(y.inputC));
  if (globalThis.__texts === undefined) throw new Error("workload c at N = 1,000 did not ask for held texts");
  writeFileSync(join(outDir, "cap-c1000-texts.bin"), globalThis.__texts);
  console.log(`c1000-texts: ${globalThis.__texts.length} bytes`);
} finally {
  dispose();
}
