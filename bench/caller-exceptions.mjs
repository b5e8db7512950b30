// Exceptions thrown by the caller's own code (getters, Proxy traps) while calibrank
// reads an input: each case is called CALLS times (default 5,000), then a known call
// must still give the known answer; prints what was thrown and the wasm memory and
// externref-table growth (docs/reliability.md, "Exceptions from the caller's own code").
//
//   node bench/caller-exceptions.mjs [CALLS]
import * as lib from "calibrank";

const CALLS = Number(process.argv[2] || 5000);
const wasm = lib.initSync();
const pages = () => wasm.memory.buffer.byteLength / 65536;
const slots = () => wasm.__wbindgen_externrefs.length;
const boom = () => {
  throw new Error("boom");
};
const pipeline = new lib.Pipeline();
const cases = {
  "rrf: index getter": () => lib.rrf([Object.defineProperty(["a", "b"], 1, { get: boom })]),
  "rrf: Proxy length": () => lib.rrf([new Proxy(["a"], { get: (t, k) => (k === "length" ? boom() : t[k]) })]),
  "run: items ownKeys trap": () => pipeline.run({ lists: [{ name: "a", ids: ["x"] }], items: new Proxy({ x: {} }, { ownKeys: boom }) }),
  "run: item property getter": () => pipeline.run({ lists: [{ name: "a", ids: ["x"] }], items: { x: { get name() { return boom(); } } } }),
  "normalize: index getter": () => lib.normalize(Object.defineProperty([1, 2], 1, { get: boom }), "max"),
  "fuseRuns: ownKeys trap": () => lib.fuseRuns([{ q: { d: 1 } }, new Proxy({}, { ownKeys: boom })], { method: "sum" }),
  "rrf: options ownKeys trap": () => lib.rrf([["a"]], new Proxy({}, { ownKeys: boom })),
  "rrf: getPrototypeOf trap": () => lib.rrf(new Proxy([["a"]], { getPrototypeOf: boom })),
};
const expected = JSON.stringify(lib.rrf([["a", "b"], ["b"]]));
let broken = 0;
for (const [name, f] of Object.entries(cases)) {
  const [p0, s0] = [pages(), slots()];
  const thrown = {};
  for (let i = 0; i < CALLS; i++) {
    let kind = "returned";
    try {
      f();
    } catch (e) {
      kind = e instanceof lib.ScoreError ? `ScoreError ${e.code}` : `${e.constructor.name}: ${e.message}`;
    }
    thrown[kind] = (thrown[kind] || 0) + 1;
  }
  let ok;
  try {
    ok = JSON.stringify(lib.rrf([["a", "b"], ["b"]])) === expected;
  } catch {
    ok = false;
  }
  if (!ok) broken++;
  console.log(`${name.padEnd(28)} ${JSON.stringify(thrown)}; module ${ok ? "usable" : "BROKEN"}; memory ${p0} -> ${pages()} pages, externref table ${s0} -> ${slots()}`);
}
process.exit(broken ? 1 : 0);
