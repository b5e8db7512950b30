// After a trap the package makes the module again (a new instance, a new generation); the
// handles of objects made before it name slots of the dead instance. Such an object must
// neither work nor free anything in the new instance, where the same handle numbers name
// objects made since (js/lab/handles.js `handleOf` / `freeHandle`, js/core/pipeline.js
// `freeHandle`). Each case runs in a fresh Node process with a 4 MiB wasm memory ceiling,
// so that one large call traps (out of memory: INPUT_TOO_LARGE, tests/js/out-of-memory.test.mjs).
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";

const root = new URL("../..", import.meta.url).pathname;

const labChild = `
const lab = await import("calibrank/lab");
const out = {};
const run = { q1: { d1: 3, d2: 2, d3: 1 } };
const judged = { q1: { d2: 1 } };
const r1 = lab.Run.fromObject(run);
const q1 = lab.Qrels.fromObject(judged);
out.before = lab.evaluate(q1, r1, ["ndcg@3"]);
const lines = Array.from({ length: 300000 }, (_, i) => "q" + (i % 50) + " Q0 doc-" + i + " " + i + " " + 1 / (i + 1) + " tag").join("\\n");
try {
  lab.parseTrecRun(lines, { limits: { maxTextBytes: 1e8, maxTotalTextBytes: 1e8, maxTotalEntries: 1e7 } });
  out.trap = "no trap";
} catch (e) {
  out.trap = e.code + " " + /restarted/.test(e.message) + " " + JSON.stringify(e.field);
}
try {
  lab.evaluate(q1, r1, ["ndcg@3"]);
  out.lostUse = "no error";
} catch (e) {
  out.lostUse = e.code + " " + e.field + " " + /lost/.test(e.message);
}
// Made in the new instance: the first handles there, the numbers r1 and q1 had.
const q2 = lab.Qrels.fromObject(judged);
const r2 = lab.Run.fromObject(run);
r1.free();
q1.free();
try {
  out.after = lab.evaluate(q2, r2, ["ndcg@3"]);
} catch (e) {
  out.after = e.code + " " + e.message;
}
out.live = lab.__liveHandles();
console.log(JSON.stringify(out));
`;

const coreChild = `
const lib = await import("calibrank");
const out = {};
const lists = [{ name: "a", ids: ["x", "y", "z"] }, { name: "b", ids: ["y", "x", "w"] }];
const p1 = new lib.Pipeline({ topN: 1, minConfidence: 0 });
out.before = p1.run({ lists }).results.map((r) => r.id);
const p0 = new lib.Pipeline({ topN: 3, minConfidence: 0 });
out.expected = p0.run({ lists }).results.map((r) => r.id);
p0.free();
const big = Array.from({ length: 200000 }, (_, i) => "a-document-id-" + i);
try {
  lib.rrf([big, big.slice().reverse()], { limits: { maxTotalEntries: 1000000 } });
  out.trap = "no trap";
} catch (e) {
  out.trap = e.code + " " + /restarted/.test(e.message) + " " + JSON.stringify(e.field);
}
// Made in the new instance: its first handle, the number p1 had.
const p2 = new lib.Pipeline({ topN: 3, minConfidence: 0 });
p1.free();
try {
  out.after = p2.run({ lists }).results.map((r) => r.id);
} catch (e) {
  out.after = e.code + " " + e.message;
}
try {
  p1.run({ lists });
  out.freedUse = "no error";
} catch (e) {
  out.freedUse = e.code + " " + /freed/.test(e.message);
}
console.log(JSON.stringify(out));
`;

const run = (child) =>
  JSON.parse(execFileSync(process.execPath, ["--wasm-max-mem-pages=64", "--input-type=module", "-e", child], { cwd: root, encoding: "utf8" }).trim());

test("lab: a Run or Qrels made before a trap is lost, and freeing it frees nothing made since", () => {
  const out = run(labChild);
  assert.equal(out.trap, 'INPUT_TOO_LARGE true ""', "memory exhausted: a trap reported as such, naming no field");
  assert.equal(out.lostUse, "INVALID_TYPE qrels true");
  assert.deepEqual(out.after, out.before, "the objects made after the trap still evaluate");
  assert.equal(out.before["ndcg@3"], 1 / Math.log2(3));
  assert.equal(out.live, 2, "the two objects made after the trap are alive; the lost ones count for nothing");
});

test("core: a Pipeline made before a trap, freed after it, frees nothing made since", () => {
  const out = run(coreChild);
  assert.equal(out.trap, 'INPUT_TOO_LARGE true ""', "memory exhausted: a trap reported as such, naming no field");
  assert.deepEqual(out.before, ["x"]);
  assert.equal(out.expected.length, 3);
  assert.deepEqual(out.after, out.expected, "the pipeline made after the trap keeps its handle and configuration");
  assert.equal(out.freedUse, "INVALID_TYPE true");
});

// The old instance's memory is let go when the module is restarted (the Wire's views of
// it too: they held it, 4 GiB at most, until the next call), and a restart the engine
// cannot make (no memory for a new instance) is a ScoreError, tried again by the next
// call. `WebAssembly.Instance` is wrapped before the package loads: it keeps only weak
// references, and refuses the one instance of the core that `failNext` names.
const restartChild = `
const Instance = WebAssembly.Instance;
const made = [];
let failNext = false;
WebAssembly.Instance = function (module, imports) {
  const isCore = WebAssembly.Module.exports(module).some((e) => e.name === "cr_call");
  if (isCore && failNext) {
    failNext = false;
    throw new RangeError("WebAssembly.Instance(): Out of memory: Cannot allocate Wasm memory for new instance");
  }
  const i = new Instance(module, imports);
  if (isCore) made.push(new WeakRef(i.exports.memory));
  return i;
};
const lib = await import("calibrank");
const out = {};
const lists = [{ name: "a", ids: ["x", "y", "z"] }, { name: "b", ids: ["y", "x", "w"] }];
const p = new lib.Pipeline({ topN: 3, minConfidence: 0 });
out.before = p.run({ lists }).results.map((r) => r.id);
// A pipeline that holds texts back (more candidates than its reranker reads) puts the
// package's function in the instance's table: nothing of that may keep the instance.
const ids = Array.from({ length: 40 }, (_, i) => "d" + i);
const items = Object.fromEntries(ids.map((id) => [id, { name: "name " + id, summary: "graph things " + id }]));
const before = lib.__heldTextsCalls();
new lib.Pipeline({ rerank: { method: "heuristic" }, topK: 10, minConfidence: 0 }).run({ query: "graph", lists: [{ name: "a", ids }], items });
out.heldTexts = lib.__heldTextsCalls() > before;
const big = Array.from({ length: 200000 }, (_, i) => "a-document-id-" + i);
const trap = () => lib.rrf([big, big.slice().reverse()], { limits: { maxTotalEntries: 1000000 } });
try { trap(); } catch (e) { out.trap = e.code; }
const tick = () => new Promise((r) => setTimeout(r, 0));
await tick(); gc(); await tick(); gc(); await tick();
// The first instance's memory, with no call made since the restart.
out.firstFreed = made.length === 2 && made[0].deref() === undefined;
failNext = true;
try { trap(); out.failed = "no error"; } catch (e) {
  out.failed = e.code + " " + (e instanceof lib.ScoreError) + " " + /could not be instantiated/.test(e.message) + " " + (e.cause instanceof RangeError);
}
out.instancesAfterFailure = made.length;
// The next call makes the instance; the pipeline made before carries on.
out.next = lib.rrf([["a", "b"]]).map(([id]) => id);
out.after = p.run({ lists }).results.map((r) => r.id);
out.instances = made.length;
console.log(JSON.stringify(out));
`;

test("core: a restart lets the old memory go; a restart the engine refuses is a ScoreError, and the next call instantiates", () => {
  const out = JSON.parse(
    execFileSync(process.execPath, ["--wasm-max-mem-pages=64", "--expose-gc", "--input-type=module", "-e", restartChild], { cwd: root, encoding: "utf8" }).trim(),
  );
  assert.equal(out.trap, "INPUT_TOO_LARGE");
  assert.equal(out.heldTexts, true, "a pipeline held texts back before the trap");
  assert.equal(out.firstFreed, true, "the trapped instance's memory is collected before any further call");
  assert.equal(out.failed, "INPUT_TOO_LARGE true true true", "the refused restart said, with the engine's error as its cause");
  assert.equal(out.instancesAfterFailure, 2, "no instance made by the refused restart");
  assert.deepEqual(out.next, ["a", "b"]);
  assert.deepEqual(out.after, out.before, "the pipeline made before both restarts carries on");
  assert.equal(out.instances, 3);
});
