// A call that needs more memory than wasm32's 4 GiB: Rust aborts on a failed allocation
// (a trap), so the package restarts the instance, but it reports the call as
// INPUT_TOO_LARGE (field "", the size it could not get in the message) rather than as
// INTERNAL, a bug: the module notes the request its heap could not meet before it
// aborts (`cr_out_of_memory`), and the package reads it before the restart.
//
// Filling 4 GiB for real takes seconds and gigabytes (a 5-million-result explained run,
// `bench/limits.mjs`-sized inputs). Here each module's memory is grown from JavaScript
// to within a few MiB of 4 GiB (pages the engine maps lazily: no physical memory), so a
// call larger than any before it fails (a smaller one could reuse blocks freed by the
// calls before it). The calls are within their limits (raised where needed), so that
// memory alone refuses them, not a limit checked once enough memory was had. The package does not expose its memory:
// `WebAssembly.Instance` is wrapped before the package is loaded (as in
// high-memory.test.mjs). A file of its own, so that no other test runs in these memories.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const instances = [];
const RealInstance = WebAssembly.Instance;
WebAssembly.Instance = new Proxy(RealInstance, {
  construct(target, args, newTarget) {
    const instance = Reflect.construct(target, args, newTarget);
    if (instance.exports.memory) instances.push(instance);
    return instance;
  },
});
const lib = await import("calibrank");
const lab = await import("calibrank/lab");
lib.version();
lab.version();

/** The latest instance of the core's module (it has a function table) or the lab's. */
const latest = (core) => instances.findLast((i) => typeof i.exports.cr_call === "function" && (i.exports.__indirect_function_table !== undefined) === core);

/** Grows the memory of the latest core (or lab) instance to within `freeMiB` of 4 GiB. */
function fill(core, freeMiB) {
  const instance = latest(core);
  const memory = instance.exports.memory;
  const pages = memory.buffer.byteLength / 65536;
  memory.grow(65536 - pages - freeMiB * 16);
  return instance;
}

function outOfMemory(fn) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof lib.ScoreError, `${e}`);
    assert.equal(e.code, "INPUT_TOO_LARGE", e.message);
    assert.equal(e.field, "");
    assert.match(e.message, /^the call needs more memory than WebAssembly's 4 GiB \(a request of \d+ bytes could not be met\): .*the module was restarted/);
    return true;
  });
}

test("the core: a call beyond 4 GiB is INPUT_TOO_LARGE, and the restarted module gives the same results", () => {
  const ids = Array.from({ length: 200_000 }, (_, i) => `doc-${i}`);
  const lists = [ids, ids.slice().reverse()];
  const before = lib.rrf(lists);
  const pipeline = new lib.Pipeline({ topN: 3, minConfidence: 0 });
  const input = { lists: [{ name: "a", ids: ["x", "y", "z"] }, { name: "b", ids: ["y", "x"] }] };
  const ran = pipeline.run(input);
  const old = fill(true, 1);
  const more = Array.from({ length: 1_000_000 }, (_, i) => `doc-${i}`);
  outOfMemory(() => lib.rrf([more, more.slice().reverse()], { limits: { maxTotalEntries: 2_000_000, maxListLength: 1_000_000 } }));
  // A new instance: the one filled is gone, and every call works as before.
  assert.notEqual(latest(true), old);
  assert.deepEqual(lib.rrf(lists), before);
  assert.deepEqual(pipeline.run(input), ran, "a Pipeline made before carries on");
  pipeline.free();
});

test("the lab: the same, and a Run made before is lost with the old instance", () => {
  const lines = [];
  for (let q = 0; q < 50; q++) for (let d = 0; d < 2000; d++) lines.push(`q${q} Q0 d${d} ${d + 1} ${2000 - d} run`);
  const trec = lines.join("\n");
  const before = lab.parseTrecRun(trec);
  const kept = lab.Run.fromObject({ q: { d: 1 } });
  fill(false, 1);
  // Ten times the run before it (its queries renamed), within raised limits: only memory
  // refuses it.
  const larger = Array.from({ length: 10 }, (_, i) => trec.replaceAll("q", `r${i}-`)).join("\n");
  outOfMemory(() => lab.parseTrecRun(larger, { limits: { maxTotalEntries: 2_000_000 } }));
  assert.deepEqual(lab.parseTrecRun(trec), before);
  assert.throws(() => kept.toObject(), (e) => e instanceof lib.ScoreError && e.code === "INVALID_TYPE" && /lost/.test(e.message));
  assert.equal(lab.__liveHandles(), 0);
});

test("after an out-of-memory call, the next calls give their own errors and results", () => {
  fill(false, 1);
  outOfMemory(() => lab.parseTrecRun(Array.from({ length: 1_000_000 }, (_, i) => `q Q0 d${i} ${i + 1} 1 run`).join("\n"), { limits: { maxTotalEntries: 2_000_000 } }));
  assert.throws(() => lab.parseTrecRun("q Q0 d 1 x run"), (e) => e instanceof lib.ScoreError && e.code === "PARSE_ERROR");
  assert.deepEqual(lab.parseTrecRun("q Q0 d 1 2 run"), { q: { d: 2 } });
});

// A trap that is not a failed request stays INTERNAL, and a noted request is read only
// when the call trapped. A stand-in module whose `cr_call` traps (`unreachable`) and whose
// `cr_out_of_memory` answers 0 or 1234 is given to `calibrank/init` in a child process:
//   (module (memory (export "memory") 1)
//     (func (export "cr_reserve") (param i32) (result i32) (i32.const 1024))
//     (func (export "cr_call") (param i32 i32) (result i32) (unreachable))
//     (func (export "cr_out_of_memory") (result i32) (i32.const N)))
// (binaryen's wasm-as made the bytes).
const standIn = (n) => {
  const low = n === 0 ? [65, 0] : [65, 210, 9];
  const body = [low.length + 2, 0, ...low, 11];
  return Uint8Array.from([0, 97, 115, 109, 1, 0, 0, 0, 1, 16, 3, 96, 1, 127, 1, 127, 96, 2, 127, 127, 1, 127, 96, 0, 1, 127, 3, 4, 3, 0, 1, 2, 5, 3, 1, 0, 1, 7, 52, 4, 6, 109, 101, 109, 111, 114, 121, 2, 0, 10, 99, 114, 95, 114, 101, 115, 101, 114, 118, 101, 0, 0, 7, 99, 114, 95, 99, 97, 108, 108, 0, 1, 16, 99, 114, 95, 111, 117, 116, 95, 111, 102, 95, 109, 101, 109, 111, 114, 121, 0, 2, 10, 15 + body.length - 4, 3, 5, 0, 65, 128, 8, 11, 3, 0, 0, 11, ...body]);
};

test("a trap with no failed request is INTERNAL; with one, INPUT_TOO_LARGE (a stand-in module)", () => {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const dir = `${root}target/out-of-memory`;
  mkdirSync(dir, { recursive: true });
  const child = `
import { readFileSync } from "node:fs";
const { initSync, rrf, ScoreError } = await import("calibrank/init");
initSync(readFileSync(process.argv[1]));
const out = [];
for (let i = 0; i < 2; i++) {
  try { rrf([["a"]]); out.push("no error"); } catch (e) { out.push(e instanceof ScoreError ? [e.code, e.field, e.message] : String(e)); }
}
console.log(JSON.stringify(out));`;
  for (const [n, code, message] of [
    [0, "INTERNAL", /^the WebAssembly module trapped \(unreachable\); it was restarted$/],
    [1234, "INPUT_TOO_LARGE", /^the call needs more memory than WebAssembly's 4 GiB \(a request of 1234 bytes could not be met\)/],
  ]) {
    const file = `${dir}/stand-in-${n}.wasm`;
    writeFileSync(file, standIn(n));
    const out = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", child, file], { cwd: root, encoding: "utf8" }).trim());
    // Each call traps, and each is restarted and reported alike.
    for (const got of out) {
      assert.ok(Array.isArray(got), String(got));
      assert.equal(got[0], code);
      assert.equal(got[1], "");
      assert.match(got[2], message);
    }
  }
});
