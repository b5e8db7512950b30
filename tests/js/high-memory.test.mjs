// Inputs and outputs at addresses at or above 2 GiB of wasm memory. Addresses cross the
// boundary as wasm i32, which JavaScript reads as negative numbers from 2^31 on: the
// package must read them unsigned, or every text output (JSON results, error reports,
// string tables) is read from the wrong place for the rest of the instance's life.
//
// The test grows each module's memory by 2 GiB from JavaScript (pages the engine maps
// lazily: they cost no physical memory until written), then makes one call with a
// large input and output, so that the module's allocator puts its new input and output
// buffers above 2 GiB; every call after that works there. The package does not expose
// its memory: `WebAssembly.Instance` is wrapped before the package is loaded (as in
// memory.test.mjs). A file of its own, so that no other test runs in these memories.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const instances = [];
// The highest addresses the held texts' function was given (the held texts' buffer). The
// package makes that function (a tiny module importing it as `c.t`, whose export the
// core calls through its table) on the first call that holds texts back: the wrapper
// below stays until the end of the file, and keeps only the modules with a memory.
const textsSeen = { out: 0 };
const RealInstance = WebAssembly.Instance;
WebAssembly.Instance = new Proxy(RealInstance, {
  construct(target, args, newTarget) {
    const texts = args[1]?.c?.t;
    if (typeof texts === "function") {
      args[1].c.t = (docs, n, out, cap) => {
        textsSeen.out = Math.max(textsSeen.out, out >>> 0);
        return texts(docs, n, out, cap);
      };
    }
    const instance = Reflect.construct(target, args, newTarget);
    if (instance.exports.memory) instances.push(instance);
    return instance;
  },
});
const lib = await import("calibrank");
const lab = await import("calibrank/lab");
// The Node entries instantiate on the first call.
const version = lib.version();
lab.version();
assert.equal(instances.length, 2);

const TWO_GIB_PAGES = 32768;
const memories = instances.map((i) => i.exports.memory);

/** Grows `memory` past 2 GiB, then runs `big` (a call whose input and output are large). */
function goHigh(memory, big) {
  memory.grow(TWO_GIB_PAGES);
  assert.ok(memory.buffer.byteLength > 2 ** 31);
  big();
}

test("the core's inputs and outputs above 2 GiB: text, JSON, errors and numbers read right", () => {
  const [core] = memories;
  const before = core.buffer.byteLength;
  // 2 million scores: a 16 MB input and output, placed after the grown pages.
  const n = 2_000_000;
  const scores = new Float64Array(n).map((_, i) => i);
  goHigh(core, () => {
    const out = lib.normalize(scores, "min_max", { limits: { maxListLength: n } });
    assert.equal(out[n - 1], 1);
  });
  assert.ok(core.buffer.byteLength > before + 2 ** 31, "the module's buffers were placed above the grown pages");
  // A text output.
  assert.equal(lib.version(), version);
  // A pipeline run whose explanations cross as JSON.
  const p = new lib.Pipeline({ topN: 2, minConfidence: 0, explain: true });
  const out = p.run({ query: "alpha", lists: [{ name: "a", ids: ["x", "y", "z"] }, { name: "b", ids: ["y", "x"] }] });
  assert.deepEqual(out.results.map((r) => r.id), ["x", "y"]);
  assert.equal(typeof out.results[0].explain.fused, "number");
  p.free();
  // rrf's ids (the caller's strings) and scores.
  assert.deepEqual(lib.rrf([["a", "b"], ["b"]]).map(([id]) => id), ["b", "a"]);
  // An error report (JSON from the module) is a typed ScoreError.
  assert.throws(() => lib.normalize([1], "bogus"), (e) => e instanceof lib.ScoreError && e.code === "UNKNOWN_METHOD");
});

test("the lab's inputs and outputs above 2 GiB", () => {
  const [, labMemory] = memories;
  const lines = [];
  for (let q = 0; q < 100; q++) for (let d = 0; d < 1000; d++) lines.push(`q${q} Q0 d${d} ${d + 1} ${1000 - d} run`);
  const trec = lines.join("\n");
  const before = labMemory.buffer.byteLength;
  goHigh(labMemory, () => {
    const run = lab.parseTrecRun(trec);
    assert.equal(Object.keys(run).length, 100);
  });
  assert.ok(labMemory.buffer.byteLength > before + 2 ** 31, "the module's buffers were placed above the grown pages");
  // String tables and JSON out of the lab.
  const small = lab.parseTrecRun("q1 Q0 d1 1 2.5 run\nq1 Q0 d2 2 1.5 run");
  assert.deepEqual(small, { q1: { d1: 2.5, d2: 1.5 } });
  const qrels = lab.parseQrels("q1 0 d1 1");
  assert.equal(lab.evaluate(qrels, small, ["mrr"]).mrr, 1);
  assert.throws(() => lab.evaluate(qrels, small, ["bogus@x"]), (e) => e instanceof lib.ScoreError);
});

// A pipeline with the heuristic reranker given more items than its pool holds their
// texts back; the module asks for the pool's through the held texts' function, which writes
// them into a buffer of the module's. Long texts make that buffer grow, so after the
// growth above it lands above 2 GiB; the results must be those of a process whose
// memory never got there.
const HELD = `
  const n = 300;
  const ids = Array.from({ length: n }, (_, i) => "doc-" + i);
  const items = {};
  for (let i = 0; i < n; i++) items[ids[i]] = { name: "Item" + i, summary: ("alpha beta gamma " + i + " ").repeat(1200) };
  const lists = [0, 1, 2].map((l) => ({ name: "l" + l, ids: ids.filter((_, i) => (i + l) % 3 !== 0).slice(0, 150) }));
  globalThis.__held = { query: "alpha gamma 7", lists, items };
`;
const heldRun = (lib) => {
  new Function(HELD)();
  const p = new lib.Pipeline({ topK: 100, topN: 20, minConfidence: 0, rerank: { method: "heuristic" } });
  try {
    return p.run(globalThis.__held);
  } finally {
    p.free();
  }
};

test("held texts written above 2 GiB by the held texts' function: the same results", () => {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const expected = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", `const heldRun = ${heldRun.toString().replace("new Function(HELD)();", HELD)}; import("calibrank").then((lib) => console.log(JSON.stringify(heldRun(lib))));`], { cwd: root, maxBuffer: 1 << 26 }).toString());
  const got = heldRun(lib);
  assert.ok(textsSeen.out >= 2 ** 31, `the held texts' function wrote at ${textsSeen.out}`);
  assert.deepEqual(JSON.parse(JSON.stringify(got)), expected);
});
