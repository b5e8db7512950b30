// The core module imports nothing: a reranking pipeline's held texts reach it through a
// slot of its exported function table, filled with a tiny module's wasm function on the
// first call that holds texts back (js/core/held-texts.js `canHoldTexts`, wasm/core/src/pipeline/texts.rs
// `host`). Each case runs in a fresh Node process (the package makes that function once
// per process), with `WebAssembly.Instance` watched before the package is imported.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const root = new URL("../..", import.meta.url).pathname;

// Prints { calls, made, outputs equal, ... } as JSON. `mode`: "normal"; "no-compile" (the
// engine refuses to compile wasm from bytes, as Cloudflare Workers do); "trap" (a trap
// restarts the instance between two held calls; run with a small wasm memory ceiling).
const child = `
const mode = process.argv[1];
let calls = 0;
let made = 0;
const RealInstance = WebAssembly.Instance;
WebAssembly.Instance = new Proxy(RealInstance, {
  construct(target, args, newTarget) {
    const imp = args[1];
    if (imp && imp.c && typeof imp.c.t === "function") {
      made++;
      const t = imp.c.t;
      args = [args[0], { c: { t: (...a) => (calls++, t(...a)) } }];
    }
    return Reflect.construct(target, args, newTarget);
  },
});
if (mode === "no-compile") {
  const RealModule = WebAssembly.Module;
  WebAssembly.Module = new Proxy(RealModule, {
    construct(target, args, newTarget) {
      if (args[0].byteLength < 100) throw new WebAssembly.CompileError("WebAssembly.Module(): Wasm code generation disallowed by embedder");
      return Reflect.construct(target, args, newTarget);
    },
  });
}
const lib = await import("calibrank");
const words = ["graph", "cache", "token", "router", "Über", "für", "🚀", "auth"];
const textOf = (i, n) => Array.from({ length: n }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(" ");
const ids = Array.from({ length: 30 }, (_, i) => "doc-" + i);
const lists = [
  { name: "semantic", ids: ids.filter((_, i) => (i * 3) % 7 < 4) },
  { name: "keyword", ids: ids.filter((_, i) => (i * 5) % 7 < 4).reverse() },
];
const items = Object.fromEntries(ids.map((id, i) => [id, { name: textOf(i, 2), summary: textOf(i, 5) }]));
const extras = Object.fromEntries(Array.from({ length: 15 }, (_, i) => ["extra-" + i, { name: textOf(i, 2) }]));
const query = "graph cache token für";
// The extras' ids in a list of weight 0: their fused scores 0, below the listed ids', so
// that a topK of the listed ids' number gives the pool and the output of those alone
// (the stats aside).
const listed = new Set(lists.flatMap((l) => l.ids)).size;
const heldLists = [...lists, { name: "extra", ids: Object.keys(extras), weight: 0 }];
const p = new lib.Pipeline({ topK: listed, topN: listed, minConfidence: 0, explain: true, rerank: { method: "heuristic" } });
const key = ({ results, confidence, outcome }) => JSON.stringify({ results, confidence, outcome });
const out = { made: [], calls: [] };
// As many candidates as topK: the texts cross with the input.
const inline = p.run({ query, lists, items });
out.made.push(made);
out.calls.push(calls);
out.matched = inline.results.filter((r) => r.explain.rerank.factors.multiplier > 1).length;
// 15 candidates more than topK: held.
const held = p.run({ query, lists: heldLists, items: { ...items, ...extras } });
out.made.push(made);
out.calls.push(calls);
out.heldEqual = key(held) === key(inline);
if (mode === "trap") {
  // More than the memory ceiling holds: a trap (out of memory); the instance is made again.
  const big = Array.from({ length: 200000 }, (_, i) => "a-document-id-" + i);
  try {
    lib.rrf([big, big.slice().reverse()], { limits: { maxTotalEntries: 1000000 } });
    out.trap = "no trap";
  } catch (e) {
    out.trap = e.code + " " + /restarted/.test(e.message);
  }
  out.afterTrapEqual = key(p.run({ query, lists: heldLists, items: { ...items, ...extras } })) === key(inline);
  out.made.push(made);
  out.calls.push(calls);
}
// candidateLimit 8: the reranker reads 8 of the candidates (held here, inline in the
// no-compile mode: the parent compares the two outputs).
const limitedP = new lib.Pipeline({ topK: listed, topN: listed, minConfidence: 0, explain: true, rerank: { method: "heuristic", candidateLimit: 8 } });
const callsBefore = calls;
out.limited = key(limitedP.run({ query, lists, items }));
out.limitedCalls = calls - callsBefore;
// Long texts, the pool's more than the module's first buffer (4 KiB): asked for twice in
// the first such call (the buffer grown), then once a call (the buffer kept from call to
// call), whatever the calls between.
const longItems = Object.fromEntries(ids.map((id, i) => [id, { name: textOf(i, 2), summary: textOf(i, 300) }]));
out.long = [];
out.longCalls = [];
for (const its of [longItems, items, longItems, longItems]) {
  const before = calls;
  out.long.push(key(p.run({ query, lists: heldLists, items: { ...its, ...extras } })));
  out.longCalls.push(calls - before);
}
console.log(JSON.stringify(out));
`;

const run = (mode, flags = []) => JSON.parse(execFileSync(process.execPath, [...flags, "--input-type=module", "-e", child, mode], { cwd: root, encoding: "utf8" }).trim());

test("the core module imports nothing and exports its function table", () => {
  const m = new WebAssembly.Module(readFileSync(new URL("pkg/calibrank_core.wasm", `file://${root}`)));
  assert.deepEqual(WebAssembly.Module.imports(m), []);
  assert.ok(WebAssembly.Module.exports(m).some((e) => e.name === "__indirect_function_table" && e.kind === "table"));
});

test("held texts reach the module through the table: one function made, one call per held run", () => {
  const out = run("normal");
  assert.ok(out.matched > 0, "the reranker matched some texts");
  // Nothing made for the inline call; the held call makes the function and calls it once.
  assert.deepEqual(out.made, [0, 1]);
  assert.deepEqual(out.calls, [0, 1]);
  assert.equal(out.heldEqual, true, "the held call's output is the inline call's");
});

test("a candidateLimit's held texts give the output of the texts sent with the input", () => {
  const held = run("normal");
  const inline = run("no-compile");
  assert.equal(held.limitedCalls, 1, "held: the module asked for the 8 candidates' texts");
  assert.equal(inline.limitedCalls, 0, "inline: nothing asked");
  assert.equal(held.limited, inline.limited);
});

test("the held texts' buffer is kept from call to call: grown once, then one ask a call; the outputs are the inline texts'", () => {
  const held = run("normal");
  const inline = run("no-compile");
  assert.deepEqual(held.longCalls, [2, 1, 1, 1]);
  assert.deepEqual(inline.longCalls, [0, 0, 0, 0]);
  assert.deepEqual(held.long, inline.long);
  assert.equal(held.long[0], held.long[2], "the same input, the same output after a call of short texts");
  assert.notEqual(held.long[0], held.long[1]);
});

test("an engine that compiles no wasm from bytes sends the texts with the input: the same output", () => {
  const out = run("no-compile");
  assert.deepEqual(out.made, [0, 0]);
  assert.deepEqual(out.calls, [0, 0]);
  assert.equal(out.heldEqual, true);
});

test("after a trap restarts the instance, the function is put in the new instance's table", () => {
  // 64 pages (4 MiB) of wasm memory at most: the large rrf call traps.
  const out = run("trap", ["--wasm-max-mem-pages=64"]);
  assert.equal(out.trap, "INPUT_TOO_LARGE true");
  assert.equal(out.afterTrapEqual, true);
  // The function is made once; the new instance's slot gets it and is called.
  assert.deepEqual(out.made, [0, 1, 1]);
  assert.deepEqual(out.calls, [0, 1, 2]);
});

test("a second init (a main entry and calibrank/init in one bundle share core.js): pipelines made before it run in the new instance, held texts included", async () => {
  // pkg/core.js is the plain ESM API module the browser, workerd and init entries share
  // (the Node entries bundle their own copy): its hook instantiates the module; a second
  // `init` makes a new Wire. Before, a pipeline made before it kept its old handle (the
  // generation numbers restarted at 1 in each Wire) and ran another pipeline's
  // configuration in the new instance.
  const api = await import(new URL("pkg/core.js", `file://${root}`).href);
  const module = new WebAssembly.Module(readFileSync(new URL("pkg/calibrank_core.wasm", `file://${root}`)));
  api.default.init(module);
  const lists = [{ name: "a", ids: ["x", "y", "z"] }, { name: "b", ids: ["y", "x", "w"] }];
  const one = new api.Pipeline({ topN: 1, minConfidence: 0 });
  const expected = one.run({ lists });
  assert.equal(expected.results.length, 1);
  api.default.init(module);
  // A pipeline made in the new instance takes the first handle there.
  const three = new api.Pipeline({ topN: 3, minConfidence: 0, explain: true });
  assert.equal(three.run({ lists }).results.length, 3);
  assert.deepEqual(one.run({ lists }), expected, "the first pipeline keeps its own configuration");
  // Held texts in the second instance, from a pipeline made in the first.
  const ids = Array.from({ length: 12 }, (_, i) => `d${i}`);
  const items = Object.fromEntries(ids.map((id, i) => [id, { name: i % 2 ? "graph cache" : "token", summary: `about ${id}` }]));
  const reranking = (topK) => new api.Pipeline({ topK, topN: topK, minConfidence: 0, rerank: { method: "heuristic" } });
  const held = reranking(4);
  api.default.init(module);
  const asked = api.__heldTextsCalls();
  const got = held.run({ query: "graph", lists: [{ name: "a", ids }], items });
  assert.equal(api.__heldTextsCalls() - asked, 1, "the texts were held back and asked for");
  // The pool's 4 alone as candidates (as many as topK: their texts cross inline) give
  // the same pool, results and confidence (the stats count the other candidates).
  const before = api.__heldTextsCalls();
  const inline = reranking(4).run({ query: "graph", lists: [{ name: "a", ids: ids.slice(0, 4) }], items });
  assert.equal(api.__heldTextsCalls(), before, "the texts crossed with the input");
  assert.ok(got.results.some((r) => r.score !== got.results[0].score), "the reranker told the candidates apart");
  const core = ({ results, confidence, outcome }) => ({ results, confidence, outcome });
  assert.deepEqual(core(got), core(inline), "the pool's texts read (the output of the pool's items sent inline)");
});

test("calibrank/init: an init() still pending when initSync() ran does not instantiate the module again", () => {
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", `
    import { readFileSync } from "node:fs";
    let instances = 0;
    const Real = WebAssembly.Instance;
    WebAssembly.Instance = new Proxy(Real, { construct: (t, a, nt) => (instances++, Reflect.construct(t, a, nt)) });
    const { init, initSync, Pipeline } = await import("calibrank/init");
    const bytes = readFileSync("pkg/calibrank_core.wasm");
    const pending = init(bytes);
    initSync(bytes);
    const lists = [{ name: "a", ids: ["x", "y", "z"] }];
    const one = new Pipeline({ topN: 1, minConfidence: 0 });
    await pending;
    new Pipeline({ topN: 3, minConfidence: 0 });
    console.log(one.run({ lists }).results.length, instances);
  `], { cwd: root, encoding: "utf8" });
  assert.equal(out.trim(), "1 1", "one result, one instance");
});
