// Child of tests/js/own-objects.test.mjs: plants NAMES (comma-separated) on Object.prototype
// as PLANT says (`value`: a read-only value; `accessor`: a getter answering undefined and a
// setter that records its caller), then imports both entries and prints, as JSON, the
// answer of every call below and the setter runs made by the package's own code.
import { readFileSync } from "node:fs";

const names = (process.env.NAMES || "").split(",").filter(Boolean);
// The pipeline's own module, read before anything is planted (Node's file reading reads
// option objects of its own).
const pipelineBytes = readFileSync(new URL("../../pkg/calibrank_pipeline.wasm", import.meta.url));
// Printed once the planted names are gone (Node's own code assigns some of them).
const print = (o) => {
  for (const n of names) delete Object.prototype[n];
  console.log(JSON.stringify(o));
};
const plant = process.env.PLANT || "none";
const setterRuns = [];
const pkgFrames = /calibrank|\/pkg\//;
function plantAll() {
  for (const n of names) {
    if (plant === "value") Object.defineProperty(Object.prototype, n, { value: Symbol(n), writable: false, enumerable: false, configurable: true });
    if (plant === "accessor")
      Object.defineProperty(Object.prototype, n, {
        get() {
          return undefined;
        },
        set() {
          // The frame that assigned (the first below this setter), or the one that called
          // the builtin that assigned (Object.assign, Reflect.set...): the package's, or
          // Node's own.
          const [, , first = "", second = ""] = new Error().stack.split("\n");
          const caller = pkgFrames.test(first) ? first : /<anonymous>/.test(first) && pkgFrames.test(second) ? second : "";
          if (caller !== "") setterRuns.push(`${n} at ${caller.trim()}`);
        },
        enumerable: false,
        configurable: true,
      });
  }
}
// PHASE=before: planted before the package is imported; after: once both entries are
// imported, before their first call (each makes its module's instance then).
const before = process.env.PHASE !== "after";
if (before) plantAll();
// Without a prototype: the calls' names are planted too ("rerank").
const out = Object.create(null);
const plainJson = (k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : typeof v === "symbol" ? `symbol ${v.description}` : v);
const call = (name, f) => {
  try {
    out[name] = { ok: JSON.parse(JSON.stringify(f(), plainJson)) };
  } catch (e) {
    out[name] = { error: e instanceof lib.ScoreError ? [e.name, e.code, e.field, e.message, Object.hasOwn(e, "cause") ? String(e.cause.name) : ""] : `not a ScoreError: ${e}` };
  }
};
let lib, lab, typed;
try {
  lib = await import("calibrank");
  lab = await import("calibrank/lab");
  // `Pipeline` on calibrank_pipeline.wasm (the typed configuration, js/core/typed-config.js),
  // as a bundled app that imports it alone gets it.
  typed = await import("calibrank/init");
} catch (e) {
  print({ importError: String(e), setterRuns });
  process.exit(0);
}
if (!before) plantAll();
call("initSync with the pipeline's module", () => typed.initSync(new WebAssembly.Module(pipelineBytes)) ?? null);
// Small and large calls (the large ones take the kept tables, the Map of ids, held texts).
const ids = (n, p) => Array.from({ length: n }, (_, i) => `${p}${(i * 7) % n}`);
const big = [ids(300, "d"), ids(200, "d"), ids(100, "e")];
const items = Object.fromEntries(
  ids(300, "d").map((id, i) => [id, { name: `AuthToken${i}`, type: "class", summary: `token cache ${i}`, modifiedAt: 1767225600000 - i * 3600000 }]),
);
for (const explain of [false, true])
  for (const method of ["none", "heuristic", "cross_encoder"]) {
    const p = new lib.Pipeline({ explain, topK: 50, rerank: { method, candidateLimit: 40 }, recency: { mode: "step" }, minConfidence: 0 });
    const tag = `${explain ? "explain" : "plain"} ${method}`;
    call(`run small ${tag}`, () =>
      p.run({
        query: "auth token",
        lists: [
          { name: "a", ids: ["x", "y"] },
          { name: "b", ids: ["y", "z"], scores: [2, 1], weight: 2 },
        ],
        items: { x: { name: "Auth", crossEncoderScore: 1 }, y: { modifiedAt: "2025-12-01T00:00:00Z", crossEncoderScore: 0 }, z: { crossEncoderScore: 2 } },
        now: 1767225600000,
      }),
    );
    call(`run large ${tag}`, () => p.run({ query: "auth token", lists: big.map((l, i) => ({ name: `l${i}`, ids: l, weight: i + 1 })), items, now: new Date(1767225600000) }));
    call(`runColumnar ${tag}`, () =>
      p.runColumnar({ docs: new Uint32Array([0, 1, 2, 1, 0]), offsets: new Uint32Array([0, 3, 5]), nDocs: 3, modifiedAt: new Float64Array([1767225600000, NaN, 0]), now: 1767225600000 }),
    );
    call(`run error ${tag}`, () => p.run({ lists: [{ name: "a", ids: ["x", 3] }] }));
    call(`config ${tag}`, () => p.config);
    p.free();
  }
call("Pipeline config error", () => new lib.Pipeline({ topK: -1 }));
// The same configurations on the pipeline's own module: decoded and echoed in JavaScript.
for (const explain of [false, true]) {
  const config = {
    explain,
    topK: 50,
    weights: { l0: 2 },
    rerank: { method: "heuristic", candidateLimit: 40, heuristic: { typeMultipliers: { class: 2 }, stopwords: ["the"] } },
    recency: { mode: "step", steps: [{ maxAgeDays: 7, multiplier: 1.5 }] },
    calibration: { method: "isotonic", x: [0, 0.5, 1], y: [0, 0.4, 1] },
    bands: { highFloor: 0.8, degradedFloor: 0.5, profiles: [{ name: "ts", taskClass: "code", highFloor: 0.9, degradedFloor: 0.6 }] },
    minConfidence: 0,
    limits: { maxLists: 9 },
  };
  call(`typed ${explain ? "explain" : "plain"}`, () => {
    const p = new typed.Pipeline(config);
    const answer = [p.config, p.run({ query: "auth token", lists: big.map((l, i) => ({ name: `l${i}`, ids: l })), items, now: 1767225600000, context: { taskClass: "code" } })];
    p.free();
    return answer;
  });
}
call("typed config error", () => new typed.Pipeline({ calibration: { method: "platt", a: NaN, b: 0 } }));
call("rrf small", () => lib.rrf([["a", "b"], ["b", "c"]]));
call("rrf large", () => lib.rrf(big, { k: 10, weights: [1, 2, 3], limits: { maxLists: 8 } }));
call("rrf options as JSON", () => lib.rrf([["a"]], { weights: new Map() }));
call("rrf cyclic options", () => {
  const o = { k: 60 };
  o.self = o;
  return lib.rrf([["a"]], o);
});
call("rrfColumnar", () => lib.rrfColumnar(new Uint32Array([0, 1, 2, 2, 1]), new Uint32Array([0, 3, 5]), 3));
call("fuseMultiQuery", () => lib.fuseMultiQuery([[{ id: "a", score: 1 }, { id: "b", score: 0.5 }], [{ id: "b", score: 2 }]]));
call("fuseMultiQuery verbose", () => lib.fuseMultiQuery([[{ id: "a", score: 1 }], [{ id: "a", score: 2 }, { id: "b", score: 1 }]], { verbose: true }));
call("fuseMultiQuery large", () => lib.fuseMultiQuery(big.map((l) => l.map((id, i) => ({ id, score: 1 / (i + 1) }))), { verbose: true }));
call("rerank", () => lib.rerank("auth token cache", [{ id: "a", score: 1, name: "AuthToken", summary: "token cache" }, { id: "b", score: 2, name: "x", type: "file" }]));
call("normalize", () => lib.normalize([1, 2, 3], "min_max"));
call("normalize error", () => lib.normalize([1, NaN], "min_max"));
call("calibrate", () => lib.calibrate([0.1, 0.5, 0.9], { threshold: 0.5, steepness: 8 }));
call("classifyBand", () => lib.classifyBand(0.7));
call("queryConfidence", () => lib.queryConfidence([0.9, 0.5, 0.2]));
call("defaultLimits", () => [lib.defaultLimits(), lib.defaultLimits("rrf")]);
const run = "q1 Q0 d1 1 3.0 r\nq1 Q0 d2 2 2.0 r\nq1 Q0 d3 3 1.0 r\nq2 Q0 d2 1 5.0 r\nq2 Q0 d4 2 1.0 r\n";
const run2 = "q1 Q0 d3 1 3.0 s\nq1 Q0 d1 2 2.0 s\nq2 Q0 d4 1 5.0 s\nq2 Q0 d9 2 1.0 s\nq3 Q0 d1 1 1.0 s\n";
const qrels = "q1 0 d1 1\nq1 0 d3 0\nq2 0 d4 2\nq2 0 d7 1\nq3 0 d1 0\nq4 0 d2 1\n";
const [r1, r2, q] = [lab.parseTrecRun(run), lab.parseTrecRun(run2), lab.parseQrels(qrels)];
call("parse", () => [r1, q]);
call("evaluate", () => lab.evaluate(q, r1, ["ndcg@10", "map", "mrr", "recall@2"]));
call("evaluatePerQuery", () => lab.evaluatePerQuery(q, r1, ["ndcg@10"]));
call("Run and Qrels handles", () => {
  const [hr, hq] = [lab.Run.fromTrec(run), lab.Qrels.fromObject(q)];
  const answer = [lab.evaluate(hq, hr, ["mrr"]), hr.size, hr.queryIds, hr.toObject()];
  hr.free();
  hq.free();
  return answer;
});
call("fuseRuns", () => [lab.fuseRuns([r1, r2], { method: "rrf" }), lab.fuseRuns([r1, r2], { method: "wsum", norm: "min-max", weights: [0.3, 0.7] })]);
call("optimizeFusion", () => lab.optimizeFusion(q, [r1, r2], { method: "wsum", metric: "ndcg@10" }));
const sc = [0.1, 0.2, 0.3, 0.6, 0.7, 0.9, 0.4, 0.8];
const lb = [0, 0, 1, 0, 1, 1, 0, 1];
call("fitPlatt", () => lab.fitPlatt(sc, lb));
call("fitIsotonic", () => lab.fitIsotonic(sc, lb));
call("applyCalibration", () => lab.applyCalibration(sc, lab.fitIsotonic(sc, lb)));
call("calibrationError", () => lab.calibrationError(sc, lb));
call("proposeBands", () => lab.proposeBands(sc, lb, { folds: 2 }));
call("fitQueryConfidence", () => {
  const model = lab.fitQueryConfidence(q, [r1, r2], { k: 1 });
  return [model, lab.predictQueryConfidence(model, [r1, r2])];
});
call("lab parse error", () => lab.parseTrecRun("bad line"));
out.setterRuns = setterRuns;
print(out);
