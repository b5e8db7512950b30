// Exceptions thrown by the caller's own code (getters, Proxy traps, toJSON, a progress
// callback) while calibrank reads an input: each case is called 50 times (warm-up),
// its module's memory is read, the case is called CALLS times more (default 5,000),
// then a known call of each module must still give the known
// answer, and neither module's linear memory may have grown (docs/reliability.md,
// "Exceptions from the caller's own code"). Exits 1 when a module is broken or grew.
//
//   node bench/caller-exceptions.mjs [CALLS]
//
// With the data-only boundary (js/wire.js) the caller's code runs in JS before the one
// call into wasm, so its exceptions never cross a wasm frame; the exception is
// optimizeFusion's progress callback, called from inside the lab module (its import
// catches the exception and the call rethrows it once the search has returned). This
// script checks that this stays so. The package does not expose its memory: the
// script wraps `WebAssembly.Instance` before loading it and keeps each instance.
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
// Each module is instantiated on its entry's first call.
lib.rrf([["a"]]);
lab.parseQrels("q 0 a 1\n");
WebAssembly.Instance = RealInstance;
if (!instances.core.length || !instances.lab.length) throw new Error("the package's modules were not instantiated through WebAssembly.Instance");

const CALLS = Number(process.argv[2] || 5000);
if (!Number.isInteger(CALLS) || CALLS < 1) {
  console.error(`usage: node bench/caller-exceptions.mjs [CALLS] (a whole number >= 1: calls per case after the warm-up; got ${process.argv[2]})`);
  process.exit(2);
}
const WARMUP = 50;
const pages = (m) => instances[m].at(-1).exports.memory.buffer.byteLength / 65536;
const boom = () => {
  throw new Error("boom");
};
const pipeline = new lib.Pipeline();
const qrels = { q: { a: 1 } };
const runs = [{ q: { a: 1, b: 0.5 } }, { q: { b: 1, a: 0.2 } }];
// [name, module whose memory is watched, call]
const cases = [
  ["rrf: index getter", "core", () => lib.rrf([Object.defineProperty(["a", "b"], 1, { get: boom })])],
  ["rrf: Proxy length", "core", () => lib.rrf([new Proxy(["a"], { get: (t, k) => (k === "length" ? boom() : t[k]) })])],
  // Items are looked up by the lists' ids (no `ownKeys` since the twenty-fifth session).
  ["run: items get trap", "core", () => pipeline.run({ lists: [{ name: "a", ids: ["x"] }], items: new Proxy({ x: {} }, { get: boom }) })],
  ["run: item property getter", "core", () => pipeline.run({ lists: [{ name: "a", ids: ["x"] }], items: { x: { get name() { return boom(); } } } })],
  ["run: toJSON in context", "core", () => pipeline.run({ lists: [{ name: "a", ids: ["x"] }], context: { toJSON: boom } })],
  ["normalize: index getter", "core", () => lib.normalize(Object.defineProperty([1, 2], 1, { get: boom }), "max")],
  ["rrf: options ownKeys trap", "core", () => lib.rrf([["a"]], new Proxy({}, { ownKeys: boom }))],
  ["rrf: getPrototypeOf trap", "core", () => lib.rrf(new Proxy([["a"]], { getPrototypeOf: boom }))],
  ["Pipeline: config getter", "core", () => new lib.Pipeline({ get topN() { return boom(); } })],
  ["fuseRuns: ownKeys trap", "lab", () => lab.fuseRuns([{ q: { d: 1 } }, new Proxy({}, { ownKeys: boom })], { method: "sum" })],
  ["fitPlatt: index getter", "lab", () => lab.fitPlatt(Object.defineProperty([0.1, 0.9], 1, { get: boom }), [0, 1])],
  ["optimizeFusion: progress", "lab", () => lab.optimizeFusion(qrels, runs, { method: "wsum", metric: "ndcg@10", step: 0.25 }, boom)],
];
const expectedCore = JSON.stringify(lib.rrf([["a", "b"], ["b"]]));
const expectedLab = JSON.stringify(lab.fuseRuns(runs, { method: "sum" }));
const usable = () => {
  try {
    return JSON.stringify(lib.rrf([["a", "b"], ["b"]])) === expectedCore && JSON.stringify(lab.fuseRuns(runs, { method: "sum" })) === expectedLab;
  } catch {
    return false;
  }
};
let failed = 0;
for (const [name, module, f] of cases) {
  const thrown = {};
  const once = () => {
    let kind = "returned";
    try {
      f();
    } catch (e) {
      kind = e instanceof lib.ScoreError ? `ScoreError ${e.code}` : `${e.constructor.name}: ${e.message}`;
    }
    thrown[kind] = (thrown[kind] || 0) + 1;
  };
  for (let i = 0; i < WARMUP; i++) once();
  const p0 = pages(module);
  // CALLS calls after the baseline (with CALLS <= WARMUP, counting the warm-up in them
  // left none after it, and the memory check passed without a call to watch).
  for (let i = 0; i < CALLS; i++) once();
  const p1 = pages(module);
  const ok = usable();
  const flat = p1 === p0;
  if (!ok || !flat) failed++;
  console.log(`${name.padEnd(28)} ${JSON.stringify(thrown)}; modules ${ok ? "usable" : "BROKEN"}; ${module} memory ${p0} -> ${p1} pages${flat ? "" : " (GREW)"}`);
}
const restarts = { core: instances.core.length - 1, lab: instances.lab.length - 1 };
console.log(`module restarts (traps): core ${restarts.core}, lab ${restarts.lab}`);
process.exit(failed || restarts.core || restarts.lab ? 1 : 0);
