// Mutation fuzzer of the whole API: valid calls of every export (templates below) with one
// or two values replaced by odd ones (ODD: revoked Proxies, Proxies with throwing or lying
// traps, detached / shared / resizable typed arrays, Date subclasses and fakes, an array
// claiming 10^9 entries, deep nesting, BigInt, Symbol, ...). Every error must be a
// ScoreError, one the test's own values throw (Injected), or the caller's objects'
// (below); anything else is printed with the template's index and the mutation, and the
// exit code is 1.
//   node bench/mutation-fuzz.mjs [PKG_DIR] [SEED] [CALLS]   (pkg, 1, 20000; about 5 s)
// (also `bun bench/mutation-fuzz.mjs ...`, `deno run --allow-read --allow-env bench/mutation-fuzz.mjs ...`)
// TRACE=1 writes each call's template and mutation to stderr before the call.
import { writeSync } from "node:fs";
import { resolve, join } from "node:path";
import { pathToFileURL } from "node:url";

const [dir = "pkg", seedArg = "1", callsArg = "20000"] = process.argv.slice(2);
const core = await import(pathToFileURL(join(resolve(dir), "node.mjs")).href);
const lab = await import(pathToFileURL(join(resolve(dir), "lab.node.mjs")).href);
class Injected extends Error {}
// The length an array Proxy claims: 10^9 (V8's JSON.stringify refuses its text at once;
// Bun's reads it entry by entry, minutes of the caller's own trap: 10^5 there).
const HUGE = typeof Bun === "undefined" ? 1e9 : 1e5;
// Thrown by some of the odd values' own code, with the messages of the engine's ceilings:
// the package must pass them on as they are, never take them for its own (a ScoreError
// carrying this text is a failure).
class InjectedRange extends RangeError {}
const injectedRange = (what) => new InjectedRange(`injected ${what}: Invalid string length, Map maximum size exceeded`);
let seed = Number(seedArg);
const rnd = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 2 ** 32; };
const pick = (a) => a[Math.floor(rnd() * a.length)];
const revoked = () => { const r = Proxy.revocable({}, {}); r.revoke(); return r.proxy; };
const revokedArr = () => { const r = Proxy.revocable([], {}); r.revoke(); return r.proxy; };
const ODD = [
  () => undefined, () => null, () => NaN, () => -0, () => Infinity, () => -Infinity, () => 1e308, () => 2 ** 53 + 2, () => -1, () => 0.5, () => 2 ** 32, () => -(2 ** 31),
  () => "", () => "x", () => "\uD800", () => "a".repeat(300), () => Symbol("s"), () => 10n, () => true, () => [], () => ({}), () => Object.create(null),
  () => new Map(), () => new Map([["a", 1]]), () => new Map([[1, 2]]), () => new Set([1]), () => new Date(NaN), () => new Date(0), () => Object.freeze([1]), () => [, 1], () => function f() {},
  () => new Proxy({}, { ownKeys() { throw new Injected("ownKeys"); } }), () => ({ get x() { throw new Injected("get"); } }),
  () => new Float64Array([1, NaN]), () => new Uint32Array(3), () => new Int8Array(2), () => new BigInt64Array(2), () => new DataView(new ArrayBuffer(8)), () => new ArrayBuffer(8),
  () => new Proxy([1, 2], { get(t, k) { if (k === "length") return HUGE; return t[k]; } }),
  () => [Symbol("a")], () => [10n], () => ({ [Symbol("k")]: 1 }), () => ({ __proto__: { a: 1 } }), () => JSON.parse('{"__proto__": 1}'),
  () => new String("s"), () => new Number(3), () => Object.assign([1, 2], { extra: 1 }), () => ({ length: 3 }), () => ({ toJSON() { throw new Injected("toJSON"); } }),
  () => ({ toJSON() { return 10n; } }), () => ({ toJSON: () => Symbol("x") }), () => new WeakMap(), () => Promise.resolve(1), () => /re/, () => new Error("e"),
  () => ["a", "a"], () => [0.1, 0.2], () => [[1]], () => [{ id: "a", score: 1 }], () => { const o = {}; o.self = o; return o; }, () => { const a = []; a.push(a); return a; },
  revoked, revokedArr,
  () => new Float64Array(new SharedArrayBuffer(16)), () => new Uint32Array(new SharedArrayBuffer(16)),
  () => { const a = new Float64Array([1, 2]); structuredClone(a.buffer, { transfer: [a.buffer] }); return a; },
  () => { const a = new Uint32Array([0, 1]); structuredClone(a.buffer, { transfer: [a.buffer] }); return a; },
  () => new Float64Array(new ArrayBuffer(16, { maxByteLength: 64 })), () => new Uint32Array(new ArrayBuffer(8, { maxByteLength: 64 })),
  () => { class F extends Float64Array { get length() { return 1e6; } } return new F(2); },
  () => new Proxy(new Float64Array([1, 2]), {}), () => new Proxy(new Uint32Array([0, 1]), {}),
  () => ({ [Symbol.toPrimitive]() { throw new Injected("prim"); } }), () => new Proxy({}, { getPrototypeOf() { throw new Injected("proto"); } }),
  () => new Proxy([], { getPrototypeOf() { throw new Injected("proto"); } }), () => new Proxy({ a: 1 }, { has() { throw new Injected("has"); } }),
  () => { const a = [1, 2]; Object.defineProperty(a, 0, { get() { throw new Injected("idx"); } }); return a; },
  () => { let d = []; for (let i = 0; i < 20000; i++) d = [d]; return d; }, () => { let d = {}; for (let i = 0; i < 20000; i++) d = { a: d }; return d; },
  () => { class D extends Date { getTime() { throw new Injected("getTime"); } } return new D(0); }, () => Object.create(Date.prototype),
  () => ({ toJSON() { throw injectedRange("toJSON"); } }), () => ({ get x() { throw injectedRange("get"); } }),
  () => new Proxy([1, 2], { get(t, k) { if (k === "1") throw injectedRange("trap"); return t[k]; } }),
  () => new Proxy(["a", "b"], { get(t, k) { if (k === "length") return { valueOf: () => 2, get length() { throw injectedRange("length"); } }; return t[k]; } }),
  () => ({ [Symbol.toPrimitive]() { throw injectedRange("prim"); } }),
  () => { const o = {}; Object.defineProperty(o, "k", { value: 60, enumerable: false }); return o; }, () => Object.create({ k: 1 }),
  () => new Proxy({ k: 1 }, { ownKeys: () => ["k", "k"] }), () => new Proxy({}, { ownKeys: () => ["zz"], getOwnPropertyDescriptor: () => ({ value: 1, enumerable: true, configurable: true }) }),
  () => "x".repeat(70000), () => "\u{1F600}".repeat(10), () => "\uFFFF\u0000", () => "2026-13-45T99:99:99Z", () => "1e400", () => 5e-324, () => -5e-324, () => Number.MAX_SAFE_INTEGER,
];
let lastOdd = -1;
const odd = () => { lastOdd = Math.floor(rnd() * ODD.length); return ODD[lastOdd](); };
// Templates: each returns [fn, args] with fresh values.
const T = [
  () => [core.rrf, [[["a", "b"], ["b", "c"]], { k: 60, weights: [1, 2] }]],
  () => [core.rrfColumnar, [new Uint32Array([0, 1, 1, 2]), new Uint32Array([0, 2, 4]), 3, { k: 60 }]],
  () => [core.normalize, [[1, 2, 3], "min_max", {}]],
  () => [core.calibrate, [[0.1, 0.9], { threshold: 0.5, steepness: 8 }]],
  () => [core.classifyBand, [0.7, { highFloor: 0.85, degradedFloor: 0.65 }]],
  () => [core.queryConfidence, [[0.9, 0.2], {}]],
  () => [core.fuseMultiQuery, [[[{ id: "a", score: 1, timestamp: 5 }], [{ id: "b", score: 2, timestamp: "2026-01-01T00:00:00Z" }]], { k: 60 }]],
  () => [core.rerank, ["token cache", [{ id: "a", score: 1, name: "tokenCache", type: "function", summary: "caches tokens" }, { id: "b", score: 0.5, name: "x" }], {}]],
  () => [(cfg, input) => { const p = new core.Pipeline(cfg); try { return p.run(input); } finally { p.free(); } },
    [{ k: 60, topK: 10, topN: 5, recency: { mode: "step" }, rerank: { method: "heuristic" }, normalization: { method: "min_max" }, calibration: { method: "sigmoid", threshold: 0.5, steepness: 8 }, minConfidence: 0.1, explain: true },
     { query: "token cache", lists: [{ name: "a", ids: ["x", "y"], scores: [2, 1], weight: 1 }, { name: "b", ids: ["y", "z"] }], items: { x: { name: "tokenCache", modifiedAt: 1767225600000 }, y: { summary: "s", modifiedAt: "2026-01-01T00:00:00Z" } }, now: 1767225600000, context: { taskClass: "debug", language: "rust" } }]],
  () => [(cfg) => { const p = new core.Pipeline(cfg); try { return p.config; } finally { p.free(); } }, [{ calibration: { method: "isotonic", x: [0, 1], y: [0, 1] }, bands: { highFloor: 0.8, degradedFloor: 0.4 } }]],
  () => [(cfg, input) => { const p = new core.Pipeline(cfg); try { return p.runColumnar(input); } finally { p.free(); } }, [{ topN: 3 }, { docs: new Uint32Array([0, 1, 2]), offsets: new Uint32Array([0, 2, 3]), nDocs: 3, weights: new Float64Array([1, 1]), modifiedAt: new Float64Array([1, NaN, 3]), now: 5 }]],
  () => [core.defaultLimits, ["rrf"]],
  () => [lab.parseTrecRun, ["q1 Q0 d1 1 2.5 r\nq1 Q0 d2 2 1.5 r\n", {}]],
  () => [lab.parseQrels, ["q1 0 d1 1\n", {}]],
  () => [lab.evaluate, [{ q1: { d1: 1 } }, { q1: { d1: 2, d2: 1 } }, ["ndcg@10", "map"], {}]],
  () => [lab.evaluatePerQuery, [{ q1: { d1: 1 } }, { q1: { d1: 2, d2: 1 } }, ["mrr"], {}]],
  () => [lab.fuseRuns, [[{ q1: { d1: 2, d2: 1 } }, { q1: { d2: 3 } }], { method: "rrf", params: { k: 60 } }]],
  () => [lab.fitPlatt, [[0.1, 0.8, 0.4], [0, 1, 1], {}]],
  () => [lab.fitIsotonic, [[0.1, 0.8, 0.4], [0, 1, 1], {}]],
  () => [lab.applyCalibration, [[0.2, 0.7], { method: "platt", a: 1, b: 0 }, {}]],
  () => [lab.calibrationError, [[0.2, 0.7], [0, 1], { bins: 10 }]],
  () => [lab.proposeBands, [[0.1, 0.9, 0.2, 0.8, 0.3, 0.7], [0, 1, 0, 1, 0, 1], { folds: 2, targetPrecision: 0.8 }]],
  () => [(text, options, metrics) => { const r = lab.Run.fromTrec(text, options); const q = lab.Qrels.fromTrec("q1 0 d1 1\n"); try { return [r.toObject(), lab.evaluate(q, r, metrics)]; } finally { r.free(); q.free(); } }, ["q1 Q0 d1 1 2.5 r\nq1 Q0 d2 2 1.5 r\n", {}, ["ndcg@10"]]],
  () => [(run, qrels, options) => { const r = lab.Run.fromObject(run, options); const q = lab.Qrels.fromObject(qrels); try { return [lab.evaluatePerQuery(q, r, ["mrr"]), lab.fuseRuns([r, run], { method: "rrf" }).toObject?.()]; } finally { r.free(); q.free(); } }, [{ q1: { d1: 2, d2: 1 } }, { q1: { d1: 1 } }, {}]],
  () => [(qrels, runs, options) => lab.fitQueryConfidence(qrels, runs, options), [{ a: { d1: 1 }, b: { d3: 0 } }, [{ a: { d1: 2, d2: 1 }, b: { d3: 0.5 } }, { a: { d1: 0.9 }, b: { d4: 0.1 } }], { k: 2, l2: 0.5 }]],
  () => [lab.optimizeFusion, [{ q1: { d1: 1 } }, [{ q1: { d1: 2, d2: 1 } }, { q1: { d2: 3, d1: 1 } }], { metric: "ndcg@10" }, () => {}]],
];
// Every template runs as given (else its mutations would test nothing but its own error).
for (let t = 0; t < T.length; t++) {
  const [fn, args] = T[t]();
  try {
    fn(...args);
  } catch (e) {
    console.error(`template ${t} fails unmutated: ${e}`);
    process.exit(2);
  }
}
// Mutate: walk the args, collect slots (container, key), replace one.
function slots(v, out, depth, prefix = "") {
  if (depth > 4 || v === null || typeof v !== "object" || ArrayBuffer.isView(v)) return;
  for (const k of Object.keys(v)) { const path = `${prefix}/${k}`; out.push([v, k, path]); slots(v[k], out, depth + 1, path); }
}
const bad = new Map();
let callers = 0;
const N = Number(callsArg);
for (let i = 0; i < N; i++) {
  const t = Math.floor(rnd() * T.length);
  const [fn, args] = T[t]();
  const holder = { args };
  const ss = []; slots(holder.args, ss, 0);
  const nMut = 1 + Math.floor(rnd() * 2);
  const desc = [];
  for (let m = 0; m < nMut; m++) {
    const [c, k, path] = pick(ss);
    // A later mutation inside the value replaced here would never reach the package.
    for (let j = ss.length - 1; j >= 0; j--) if (ss[j][2].startsWith(`${path}/`)) ss.splice(j, 1);
    const v = odd();
    try { c[k] = v; } catch {}
    desc.push(`${k}=odd#${lastOdd}`);
  }
  const t0 = performance.now();
  if (process.env.TRACE) writeSync(2, `${i} ${t} ${desc.join(" ")}\n`);
  try {
    fn(...holder.args);
  } catch (e) {
    if (e instanceof core.ScoreError && /^injected /.test(e.message) === false && !e.message.includes("injected ")) continue;
    if (e instanceof Injected || e instanceof InjectedRange) continue;
    // The caller's own objects misbehaving when read (docs/reliability.md, "Odd values
    // the engine refuses"): a revoked Proxy, a Proxy breaking the engine's invariants, an
    // object made from Date.prototype inside a value that crosses as JSON (its inherited
    // toJSON throws before the package's replacer runs). V8's messages.
    // (V8's messages, and JavaScriptCore's in Bun.)
    if (e instanceof TypeError && (/revoked|trap returned duplicate|duplicate names/.test(e.message) || (/not a Date object|^Type error$/.test(e.message) && /at (Date\.)?toJSON \(/.test(e.stack)))) {
      callers++;
      continue;
    }
    const key = `${t} ${e?.constructor?.name}: ${String(e?.message).slice(0, 100)}`;
    if (!bad.has(key)) bad.set(key, desc.join(" "));
  } finally {
    const dt = performance.now() - t0;
    if (dt > 500) console.log("SLOW", t, dt.toFixed(0), desc.join(" "));
  }
}
for (const [k, d] of bad) console.log(k, " <- ", d);
console.log(`${N} calls (seed ${seedArg}): ${callers} refused by the caller's own objects, ${bad.size} other errors that are not ScoreError`);
process.exitCode = bad.size === 0 ? 0 : 1;
