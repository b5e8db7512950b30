// Memory of the two WebAssembly modules over many calls, through the built package.
//
// - A million pipeline calls (MEMORY_CALLS sets the number) keep the core's linear memory
//   flat: after a warm-up it must not grow at all (it only ever grows, in 64 KiB pages),
//   so no call leaks. Successful runs, runs that fail with a ScoreError, columnar runs,
//   the free functions and constructions are mixed, since error paths are where leaks hide.
// - Pipelines live in the module until freed: free() and Symbol.dispose free them (the
//   module's count, `__livePipelines()`, goes back down), a freed Pipeline refuses to
//   run, and a forgotten one is freed by the FinalizationRegistry after a GC.
// - The lab's calls (parsing, evaluation, fusion, fitting, a grid search whose progress
//   callback throws) keep the lab's memory flat too.
//
// The package does not expose its memory: the test wraps `WebAssembly.Instance` before
// loading the package and keeps each instance's exported memory (the lab's module
// imports `calibrank.progress`, the core's nothing).
import test from "node:test";
import assert from "node:assert/strict";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

const CALLS = Number(process.env.MEMORY_CALLS || 1_000_000);
const WARMUP = 20_000;

const instances = { core: [], lab: [] };
const RealInstance = WebAssembly.Instance;
WebAssembly.Instance = new Proxy(RealInstance, {
  construct(target, args, newTarget) {
    const instance = Reflect.construct(target, args, newTarget);
    const isLab = WebAssembly.Module.imports(args[0]).some((i) => i.module === "calibrank" && i.name === "progress");
    instances[isLab ? "lab" : "core"].push(instance);
    return instance;
  },
});
const lib = await import("calibrank");
const lab = await import("calibrank/lab");
// The Node entries instantiate on the first call (not at import): one call each.
const importedInstances = instances.core.length + instances.lab.length;
lib.version();
lab.version();
WebAssembly.Instance = RealInstance;

/** The current instance's memory in pages (a trap would make the package instantiate afresh). */
const pagesOf = (which) => {
  const list = instances[which];
  assert.ok(list.length > 0, `the ${which} module was instantiated through WebAssembly.Instance`);
  return list[list.length - 1].exports.memory.buffer.byteLength / 65536;
};
const pages = () => pagesOf("core");

/** A real GC (node --test does not pass --expose-gc to the test file). */
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc");

const expectScoreError = (fn, code) =>
  assert.throws(fn, (e) => e instanceof lib.ScoreError && e.code === code, `expected ScoreError ${code}`);

test("one instance of each module, made on the first call (none at import)", () => {
  assert.equal(importedInstances, 0, "importing the Node entries instantiates nothing");
  assert.equal(instances.core.length, 1);
  assert.equal(instances.lab.length, 1);
  assert.equal(lib.ScoreError, lab.ScoreError);
});

test(`${CALLS} pipeline calls keep wasm memory flat`, () => {
  const livesBefore = lib.__livePipelines();
  const pipeline = new lib.Pipeline({ topN: 3, minConfidence: 0, calibration: { method: "sigmoid", threshold: 0.02 }, explain: false });
  const explaining = new lib.Pipeline({ topN: 5, minConfidence: 0, explain: true, rerank: { method: "heuristic" } });
  const inputs = [
    { lists: [{ name: "semantic", ids: ["a", "b", "c"] }, { name: "keyword", ids: ["c", "a"] }] },
    { query: "auth", lists: [{ name: "s", ids: ["x", "y"], scores: [0.9, 0.1] }], items: { x: { modifiedAt: "2026-11-01" } }, now: "2026-11-18" },
  ];
  const bad = { lists: [{ name: "s", ids: ["a"], scores: [1, 2] }] };
  const badTime = { lists: [{ name: "s", ids: ["a"] }], items: { a: { modifiedAt: "yesterday" } }, now: 0 };
  const columnar = { docs: new Uint32Array([0, 1, 2, 1]), offsets: new Uint32Array([0, 3, 4]), nDocs: 3 };
  const badColumnar = { docs: new Uint32Array([0, 5]), offsets: new Uint32Array([0, 2]), nDocs: 3 };
  const scores = new Float64Array([0.9, 0.5, 0.1, 0.03]);
  const hits = [
    [{ id: "a", score: 0.9 }, { id: "b", score: 0.8, timestamp: "2026-11-01" }],
    [{ id: "b", score: 0.7 }, { id: "c", score: 0.65 }],
  ];
  const candidates = [{ id: "a", score: 0.5, name: "Auth", type: "class" }, { id: "b", score: 0.4, name: "x", content: "short" }];
  let errors = 0;
  let checksum = 0;
  const fails = (f) => {
    try {
      f();
    } catch (e) {
      if (!(e instanceof lib.ScoreError)) throw e;
      errors++;
      return;
    }
    throw new Error("expected a ScoreError");
  };
  const call = (i) => {
    switch (i % 16) {
      case 6:
        return fails(() => pipeline.run(bad));
      case 7:
        checksum += pipeline.runColumnar(columnar).order[0];
        return;
      case 8:
        return fails(() => pipeline.run(badTime));
      case 9:
        return fails(() => pipeline.runColumnar(badColumnar));
      case 10:
        checksum += explaining.run(inputs[1]).results.length;
        return;
      case 11:
        checksum += lib.rrf([["a", "b"], ["b", "c"]])[0][1];
        return;
      case 12:
        checksum += lib.calibrate(scores)[0] + lib.normalize(scores, "softmax")[0] + lib.queryConfidence(scores).k;
        return;
      case 13:
        return fails(() => lib.normalize([1, NaN], "max"));
      case 14:
        return fails(() => lib.rrf([["a"]], { k: -1 }));
      case 15:
        checksum += lib.fuseMultiQuery(hits, { verbose: true, method: ["rrf", "score_sum", "score_max"][(i >> 4) % 3] }).results.length;
        return;
      case 5:
        checksum += lib.rerank("auth", candidates)[0].rerankedScore;
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
  // Constructing and freeing pipelines (with config decoding) does not leak either, nor
  // does a construction that fails.
  for (let i = 0; i < 20_000; i++) {
    new lib.Pipeline({ topN: 2, weights: { a: 2 } }).free();
    if (i % 4 === 0) fails(() => new lib.Pipeline({ topN: 0 }));
  }
  const end = pages();
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    `core wasm memory: ${start} pages at start, ${afterWarmup} after ${WARMUP} warm-up calls, ${end} after ${CALLS} calls ` +
      `(${errors} ScoreErrors, ${(CALLS / seconds / 1000).toFixed(0)}k calls/s, checksum ${checksum})`,
  );
  assert.ok(errors > 0 && checksum > 0);
  assert.equal(end, afterWarmup, `wasm memory grew from ${afterWarmup} to ${end} pages`);
  assert.equal(lib.__livePipelines(), livesBefore + 2, "only the two pipelines of the loop are alive");
  pipeline.free();
  explaining.free();
  assert.equal(lib.__livePipelines(), livesBefore);
  assert.equal(instances.core.length, 1, "the module never trapped (no re-instantiation)");
});

test("fuseMultiQuery keeps memory flat across resultsPerQuery values and large result sets (seed 001)", () => {
  const query = (q, n) => Array.from({ length: n }, (_, i) => ({ id: `d${(i * 7 + q * 13) % (2 * n)}`, score: 1 - i / (2 * n), timestamp: i % 3 ? undefined : 1.7e12 + i }));
  const sets = [1, 5, 10].map((nq) => Array.from({ length: nq }, (_, q) => query(q, 2_000)));
  const call = (i) => {
    const queries = sets[i % 3];
    const resultsPerQuery = [1, 20, 100, 2_000][(i >> 2) % 4];
    const out = lib.fuseMultiQuery(queries, { resultsPerQuery, similarityThreshold: 0, limit: 50, verbose: i % 2 === 0, method: ["rrf", "score_sum", "score_max"][i % 3] });
    if (i % 5 === 0) {
      try {
        lib.fuseMultiQuery([[{ id: "a", score: NaN }]]);
      } catch (e) {
        if (!(e instanceof lib.ScoreError)) throw e;
      }
    }
    return out.stats.uniqueItems;
  };
  for (let i = 0; i < 200; i++) call(i);
  const afterWarmup = pages();
  let unique = 0;
  for (let i = 0; i < 2_000; i++) unique += call(i);
  console.log(`fuseMultiQuery: ${afterWarmup} pages after 200 warm-up calls, ${pages()} after 2,000 more (checksum ${unique})`);
  assert.ok(unique > 0);
  assert.equal(pages(), afterWarmup, `wasm memory grew from ${afterWarmup} to ${pages()} pages`);
});

test("free() and Symbol.dispose free pipelines; a freed pipeline refuses to run", () => {
  const before = lib.__livePipelines();
  const input = { lists: [{ name: "s", ids: ["a", "b"] }] };
  const cfg = { minConfidence: 0 };

  const a = new lib.Pipeline(cfg);
  const b = new lib.Pipeline(cfg);
  assert.equal(lib.__livePipelines(), before + 2);
  assert.deepEqual(a.run(input).results.map((r) => r.id), ["a", "b"]);
  a.free();
  assert.equal(lib.__livePipelines(), before + 1);
  a.free(); // twice: nothing happens
  assert.equal(lib.__livePipelines(), before + 1);
  expectScoreError(() => a.run(input), "INVALID_TYPE");
  expectScoreError(() => a.runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1 }), "INVALID_TYPE");
  expectScoreError(() => a.config, "INVALID_TYPE");
  assert.equal(typeof b[Symbol.dispose], "function");
  b[Symbol.dispose]();
  assert.equal(lib.__livePipelines(), before);
  expectScoreError(() => b.run(input), "INVALID_TYPE");
  b.free(); // after dispose: nothing happens
  assert.equal(lib.__livePipelines(), before);

  // What `using p = new Pipeline(cfg)` compiles to (Node 20 does not parse `using` yet):
  // dispose runs however the block ends.
  const disposeAfter = (f) => {
    const p = new lib.Pipeline(cfg);
    try {
      return f(p);
    } finally {
      p[Symbol.dispose]();
    }
  };
  for (let i = 0; i < 1000; i++) {
    disposeAfter((p) => p.run(input));
    try {
      disposeAfter((p) => p.run({ lists: [{ name: "s", ids: ["a"], scores: [1, 2] }] }));
    } catch (e) {
      assert.ok(e instanceof lib.ScoreError);
    }
  }
  assert.equal(lib.__livePipelines(), before);

  // Many at once, then all freed: the count and the memory come back.
  const m0 = pages();
  for (let round = 0; round < 3; round++) {
    const many = Array.from({ length: 5000 }, (_, i) => new lib.Pipeline({ topN: 1 + (i % 7), weights: { s: 1 + (i % 3) } }));
    assert.equal(lib.__livePipelines(), before + 5000);
    for (const p of many) p.free();
    assert.equal(lib.__livePipelines(), before);
  }
  const m1 = pages();
  for (let round = 0; round < 3; round++) {
    const many = Array.from({ length: 5000 }, () => new lib.Pipeline({ topN: 3 }));
    for (const p of many) p[Symbol.dispose]();
  }
  assert.equal(pages(), m1, `memory grew from ${m1} to ${pages()} pages over rounds of 5,000 pipelines (${m0} before the first)`);
});

test("the arrays a pipeline call keeps for the next hold none of its input", async () => {
  // Pipeline.run keeps its large JavaScript arrays from call to call (js/wire/input.js
  // `Lease.kept`: from 16,384 slots on, the items it found and the texts it held back)
  // and empties them when the call returns: the call's items are collected after it.
  // (A FinalizationRegistry tells: a WeakRef made in this module's evaluation is kept
  // while it lasts.)
  const p = new lib.Pipeline({ topK: 20, minConfidence: 0, rerank: { method: "heuristic" } });
  let collected = 0;
  const registry = new FinalizationRegistry(() => collected++);
  (() => {
    const ids = Array.from({ length: 20000 }, (_, i) => `kept-${i}`);
    const items = Object.fromEntries(ids.map((id) => [id, { name: `name of ${id}`, summary: "graph cache" }]));
    for (const id of [ids[0], ids[19999]]) registry.register(items[id], id);
    assert.ok(p.run({ query: "graph", lists: [{ name: "l", ids }], items }).results.length > 0);
  })();
  for (let i = 0; i < 50 && collected < 2; i++) {
    gc();
    await new Promise((ok) => setTimeout(ok, 20));
  }
  assert.equal(collected, 2, "the call's first and last items were collected");
  p.free();
});

test("a forgotten pipeline is freed by the FinalizationRegistry after a GC", async () => {
  const before = lib.__livePipelines();
  (() => {
    for (let i = 0; i < 1000; i++) new lib.Pipeline({ topN: 3 }).run({ lists: [{ name: "s", ids: ["a"] }] });
  })();
  assert.ok(lib.__livePipelines() > before, "the forgotten pipelines are still alive before a GC");
  // Finalizers run after a GC, on a later task.
  for (let i = 0; i < 50 && lib.__livePipelines() > before; i++) {
    gc();
    await new Promise((ok) => setTimeout(ok, 20));
  }
  assert.equal(lib.__livePipelines(), before, "every forgotten pipeline was freed");
});

test("lab calls keep the lab module's memory flat", () => {
  const calls = Math.max(2000, Math.floor(CALLS / 50));
  const text = Array.from({ length: 40 }, (_, i) => `q${i % 4} Q0 d${i} ${(i % 10) + 1} ${(1 - i / 40).toFixed(4)} run`).join("\n");
  const run = lab.parseTrecRun(text);
  const run2 = lab.fuseRuns([run, run], { method: "sum" });
  const qrels = lab.parseQrels("q0 0 d0 1\nq1 0 d5 2\nq2 0 d10 1\nq3 0 d99 1");
  const scores = [0.1, 0.2, 0.35, 0.4, 0.55, 0.6, 0.8, 0.9];
  const labels = [0, 0, 1, 0, 1, 0, 1, 1];
  const boom = new Error("boom");
  let errors = 0;
  let checksum = 0;
  const call = (i) => {
    try {
      switch (i % 10) {
        case 0:
          checksum += Object.keys(lab.parseTrecRun(text)).length;
          break;
        case 1:
          checksum += lab.evaluate(qrels, run, ["ndcg@10", "map", "mrr"])["ndcg@10"];
          break;
        case 2:
          checksum += Object.keys(lab.evaluatePerQuery(qrels, run2, ["recall@5"])["recall@5"]).length;
          break;
        case 3:
          checksum += Object.keys(lab.fuseRuns([run, run2], { method: "rrf" })).length;
          break;
        case 4:
          checksum += lab.fitPlatt(scores, labels).a;
          break;
        case 5:
          checksum += lab.applyCalibration(scores, lab.fitIsotonic(scores, labels))[7];
          break;
        case 6:
          checksum += lab.calibrationError(scores, labels, { bins: 4 }).brier;
          break;
        case 7:
          lab.parseTrecRun("q0 Q0 d0 not-a-rank 1.0 run");
          break;
        case 8:
          lab.fitPlatt(scores, [0, 2]);
          break;
        case 9:
          // A progress callback that throws: rethrown after the search, not through wasm.
          lab.optimizeFusion(qrels, [run, run2], { method: "wsum", metric: "ndcg@10", step: 0.5 }, () => {
            throw boom;
          });
          break;
      }
    } catch (e) {
      if (!(e instanceof lib.ScoreError) && e !== boom) throw e;
      errors++;
    }
  };
  for (let i = 0; i < 500; i++) call(i);
  const afterWarmup = pagesOf("lab");
  for (let i = 500; i < calls; i++) call(i);
  console.log(`lab wasm memory: ${afterWarmup} pages after 500 warm-up calls, ${pagesOf("lab")} after ${calls} (${errors} errors, checksum ${checksum})`);
  assert.ok(errors > 0 && Number.isFinite(checksum));
  assert.equal(pagesOf("lab"), afterWarmup, `lab wasm memory grew from ${afterWarmup} to ${pagesOf("lab")} pages`);
  assert.equal(instances.lab.length, 1, "the lab module never trapped (no re-instantiation)");
});

test("Run / Qrels handles: made, fused, evaluated and freed in a loop keep memory flat; forgotten ones are freed after a GC", async () => {
  const text = Array.from({ length: 40 }, (_, i) => `${i % 4} Q0 ${i} ${(i % 10) + 1} ${(1 - (i % 8) / 8).toFixed(3)} run`).join("\n");
  const qrels = lab.Qrels.fromTrec("0 0 0 1\n1 0 5 2\n2 0 10 1\n3 0 99 1");
  const live = lab.__liveHandles();
  const round = () => {
    const a = lab.Run.fromTrec(text);
    const b = lab.Run.fromObject({ 0: { 0: 1, 4: 2 }, 1: { 5: 1 } });
    const fused = lab.fuseRuns([a, b], { method: "rrf" });
    const m = lab.evaluate(qrels, fused, ["ndcg@10", "mrr"], { ties: "trec_eval" });
    for (const h of [a, b, fused]) h.free();
    return m.mrr;
  };
  for (let i = 0; i < 500; i++) round();
  const afterWarmup = pagesOf("lab");
  for (let i = 0; i < 5000; i++) round();
  assert.equal(lab.__liveHandles(), live, "every handle of the loop was freed");
  assert.equal(pagesOf("lab"), afterWarmup, `lab wasm memory grew from ${afterWarmup} to ${pagesOf("lab")} pages`);
  (() => {
    for (let i = 0; i < 1000; i++) lab.fuseRuns([lab.Run.fromTrec(text), lab.Run.fromTrec(text)], { method: "sum" });
  })();
  assert.ok(lab.__liveHandles() > live, "the forgotten runs are still alive before a GC");
  for (let i = 0; i < 50 && lab.__liveHandles() > live; i++) {
    gc();
    await new Promise((ok) => setTimeout(ok, 20));
  }
  assert.equal(lab.__liveHandles(), live, "every forgotten Run was freed by the FinalizationRegistry");
  qrels.free();
});

test("a large first call grows wasm memory in a few steps, not one collection of the caller's heap per 64 KiB", async () => {
  // Each memory.grow makes V8 collect the JavaScript heap (external memory grew); with
  // the memory grown by each request (the standard allocator), the first fuseMultiQuery
  // of 300,000 hits in a fresh process caused 69 full collections (9.2 s). Counted with
  // --trace-gc in a child process.
  const { execFileSync } = await import("node:child_process");
  const run = (body) =>
    execFileSync(process.execPath, ["--trace-gc", "--input-type=module", "-e", body], {
      cwd: new URL("../..", import.meta.url).pathname,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
  const collectionsDuring = (out) => {
    const lines = out.split("\n");
    const from = lines.indexOf("BEGIN");
    const to = lines.indexOf("END");
    assert.ok(from >= 0 && to > from, out.slice(-2000));
    return lines.slice(from, to).filter((l) => l.includes("Mark-Compact")).length;
  };
  const limits = "{ maxTotalEntries: 10_000_000, maxTotalTextBytes: 512 * 1024 * 1024 }";
  const core = run(`
    const lib = await import("calibrank");
    lib.version();
    const queries = [0, 1, 2].map((q) => Array.from({ length: 100_000 }, (_, i) => ({ id: "d" + ((i * 7 + q * 13) % 150_000), score: 1 / (i + 2) })));
    console.log("BEGIN");
    lib.fuseMultiQuery(queries, { limits: ${limits} });
    console.log("END");
  `);
  // 77 before the heap grew geometrically, 4 after (the lab's large calls, whose tables
  // grow by doubling, measured 2 either way).
  const count = collectionsDuring(core);
  assert.ok(count <= 12, `${count} full collections during the call`);
});

/**
 * Runs `body` in a child process where every `cr_reserve` and `cr_call` of the core's
 * module is watched: `watch(label, fn)` runs `fn` and prints, as JSON after `label`,
 * whether the module's memory grew during the last reserve and the last call (`fn`'s
 * operation: a first call of a function may make another before it, for the limits
 * table; a growth replaces `memory.buffer`). Returns the lines printed.
 */
async function watchedChild(body) {
  const { execFileSync } = await import("node:child_process");
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", `
    const seen = [];
    let on = false;
    const Real = WebAssembly.Instance;
    WebAssembly.Instance = new Proxy(Real, {
      construct(target, args, newTarget) {
        const x = Reflect.construct(target, args, newTarget).exports;
        if (typeof x.cr_call !== "function") return { exports: x };
        const grew = (fn) => (...a) => {
          const before = x.memory.buffer;
          const r = fn(...a);
          if (on) seen.push(x.memory.buffer !== before);
          return r;
        };
        return { exports: { ...x, cr_reserve: grew(x.cr_reserve), cr_call: grew(x.cr_call) } };
      },
    });
    const lib = await import("calibrank");
    lib.version();
    const watch = (label, fn) => {
      seen.length = 0;
      on = true;
      let result;
      try {
        result = fn();
      } catch (e) {
        result = e.code;
      }
      on = false;
      console.log(label + " " + JSON.stringify({ reserve: seen.at(-2), call: seen.at(-1), result }));
    };
    ${body}
  `], { cwd: new URL("../..", import.meta.url).pathname, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return out.split("\n");
}

/** What `watch(label, ...)` printed in a child's `lines`. */
const watched = (lines, label) => {
  const line = lines.find((l) => l.startsWith(label + " "));
  assert.ok(line, lines.slice(-40).join("\n"));
  return JSON.parse(line.slice(label.length + 1));
};

const COLUMNAR_INPUT = `
  const n = 1_500_000;
  const docs = new Uint32Array(3_000_000);
  for (let i = 0; i < docs.length; i++) docs[i] = i % n;
  const offsets = new Uint32Array([0, 1_000_000, 2_000_000, 3_000_000]);
  const modifiedAt = new Float64Array(n).fill(1.7e12);
`;

test("a large columnar call grows wasm memory once, before it starts, for all its tables; a refused one not at all", async () => {
  // Each growth of the memory can bring on a full collection of the caller's JavaScript
  // heap: with 730 MB of objects in it, the first runColumnar of 3 x 1,000,000 entries
  // took 10-15 s (four collections) where the next took 0.2 s. A columnar call asks the
  // module for room for its tables (Input.roomFor, wasm/shared make_room): the memory
  // grows in cr_reserve, and not during the call (it grew during the call before).
  const lines = await watchedChild(`
    ${COLUMNAR_INPUT}
    // (Made before: a Pipeline's construction is a call of its own.)
    const p = new lib.Pipeline({ recency: { mode: "step" } });
    watch("tooMany", () => p.runColumnar({ docs: docs.subarray(0, 10), offsets: new Uint32Array([0, 10]), nDocs: 5_000_000 }));
    watch("notWhole", () => lib.rrfColumnar(docs.subarray(0, 10), new Uint32Array([0, 10]), Infinity));
    watch("run", () => p.runColumnar({ docs, offsets, nDocs: n, modifiedAt, now: 1.8e12 }).candidates);
    watch("again", () => p.runColumnar({ docs, offsets, nDocs: n, modifiedAt, now: 1.8e12 }).candidates);
  `);
  // nDocs above maxColumnarEntries (4,000,000) or not a u32: refused, and no room made for it.
  assert.deepEqual(watched(lines, "tooMany"), { reserve: false, call: false, result: "INPUT_TOO_LARGE" });
  assert.deepEqual(watched(lines, "notWhole"), { reserve: false, call: false, result: "INVALID_TYPE" });
  assert.deepEqual(watched(lines, "run"), { reserve: true, call: false, result: 1_500_000 });
  // The next call finds its room made.
  assert.deepEqual(watched(lines, "again"), { reserve: false, call: false, result: 1_500_000 });
  const other = await watchedChild(`
    ${COLUMNAR_INPUT}
    watch("fuse", () => lib.rrfColumnar(docs, offsets, n).order.length);
  `);
  assert.deepEqual(watched(other, "fuse"), { reserve: true, call: false, result: 1_500_000 });
});

test("Input.roomFor: a hint, clamped to what cr_reserve takes (a u32), none for what is not a positive number", async () => {
  const { Input } = await import(new URL("../../pkg/wire.js", import.meta.url).href);
  const room = (v) => new Input().roomFor(v).room;
  assert.equal(new Input().room, 0);
  assert.equal(room(120_000_000), 120_000_000);
  assert.equal(room(1.5), 1);
  assert.equal(room(2 ** 40), 0xffffffff);
  assert.equal(room(Infinity), 0xffffffff);
  for (const v of [0, -5, NaN, -Infinity]) assert.equal(room(v), 0, String(v));
});

test("the scratch keeps a large call's tables for the next call, within its bytes: new backing stores would bring on full collections", async () => {
  // A typed array's backing store is external memory to V8, which collects the whole heap
  // once more than 64 MB of it was allocated since the last collection: a pipeline call
  // of 3 x 1,000,000 ids made 105 MB of new tables and a 1.6 s collection in every call
  // (docs/performance-history.md, "A call's company"). The package's own scratch (js/wire/input.js).
  const { Scratch } = await import(new URL("../../pkg/wire.js", import.meta.url).href);
  assert.ok(Scratch.MAX_BYTES >= 105_000_000, "the tables of 3 lists of 1,000,000 ids and their 1,444,000 items fit");
  const s = new Scratch();
  const n = 1_500_000; // the item table of 187,500 items
  let lease = s.take();
  const a = lease.u32(n, 1, "items");
  a[5] = 7;
  s.give(lease);
  lease = s.take();
  const b = lease.u32(n, 1, "items");
  assert.equal(b.buffer, a.buffer, "the same backing store for the next call");
  assert.equal(b[5], 0, "handed out zeroed");
  // A lease taken while another is out (caller code calling the package): arrays of its own.
  const inner = s.take();
  assert.notEqual(inner.u32(n, 1, "items").buffer, a.buffer);
  s.give(inner);
  s.give(lease);
  // The kept tables together stay within MAX_BYTES: a table that would take them past it
  // is made for its call alone, and the ones kept stay kept.
  const before = Scratch.MAX_BYTES;
  try {
    Scratch.MAX_BYTES = 4 * n + 8 * 100_000; // slot 1 (6 MB) and 100,000 f64
    lease = s.take();
    const f = lease.f64(100_000, 2, "items");
    s.give(lease);
    lease = s.take();
    assert.equal(lease.f64(100_000, 2, "items").buffer, f.buffer, "within the bytes: kept");
    const over = lease.f64(100_001, 2, "items");
    assert.notEqual(over.buffer, f.buffer, "past the bytes: made anew");
    s.give(lease);
    lease = s.take();
    assert.notEqual(lease.f64(100_001, 2, "items").buffer, over.buffer, "and not kept");
    assert.equal(lease.f64(100_000, 2, "items").buffer, f.buffer, "the kept one still is");
    assert.equal(lease.u32(n, 1, "items").buffer, a.buffer);
    s.give(lease);
  } finally {
    Scratch.MAX_BYTES = before;
  }
});
