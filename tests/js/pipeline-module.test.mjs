// calibrank_pipeline.wasm, the Pipeline's own module (the one a bundled app that imports
// Pipeline alone loads: js/entries/browser.js), in Node: the whole suite with Pipeline on
// it (every other function on calibrank_core.wasm), the golden pipelines on it with no
// other module given, and what `init` says when it is given where the whole core's
// module is expected. The API modules are imported from pkg/ directly and handed the
// compiled modules, as the browser entries hand them over.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { tests, computeGolden } from "./suite.js";

const pkg = new URL("../../pkg/", import.meta.url);
const compiled = (m) => new WebAssembly.Module(readFileSync(new URL(`calibrank_${m}.wasm`, pkg)));
const golden = JSON.parse(readFileSync(new URL("../golden/vectors.json", import.meta.url), "utf8"));
const pipelineModule = compiled("pipeline");

const { default: coreHooks, ...core } = await import(new URL("core.js", pkg));
const { default: labHooks, ...lab } = await import(new URL("lab_api.js", pkg));
coreHooks.init(compiled("core"));
coreHooks.pipeline.init(pipelineModule);
labHooks.init(compiled("lab"));
const split = { ...lab, ...core };

for (const t of tests(split, golden)) test(`Pipeline on calibrank_pipeline.wasm: ${t.name}`, t.fn);

test("calibrank_pipeline.wasm alone: the golden pipelines bit for bit; the other functions are not there", async () => {
  // A second instance of the core's API module, given Pipeline's module and nothing else.
  const { default: hooks, ...alone } = await import(new URL("core.js?pipeline-alone", pkg));
  hooks.pipeline.init(pipelineModule);
  const cases = golden.cases.filter((c) => c.kind === "pipeline");
  assert.ok(cases.length >= 3, `golden pipeline cases: ${cases.length}`);
  for (const c of cases) assert.deepEqual(computeGolden(alone, c), c.expected);
  const live = alone.__livePipelines(); // the golden cases' pipelines, not freed yet
  const p = new alone.Pipeline({ topN: 2, minConfidence: 0 });
  assert.deepEqual(p.config, new core.Pipeline({ topN: 2, minConfidence: 0 }).config);
  assert.equal(alone.__livePipelines(), live + 1);
  p.free();
  assert.equal(alone.__livePipelines(), live);
  // Errors keep their codes and fields on it.
  assert.throws(() => new alone.Pipeline({ topN: 0 }), (e) => e instanceof alone.ScoreError && e.code === "INVALID_TOP_N" && e.field === "config.topN");
  assert.throws(() => new alone.Pipeline({ rerank: { method: "nope" } }), (e) => e.code === "UNKNOWN_METHOD" && e.field === "config.rerank.method");
  for (const call of [() => alone.rrf([["a"]]), () => alone.version(), () => alone.calibrate([0.5])])
    assert.throws(call, (e) => e instanceof alone.ScoreError && e.code === "INTERNAL" && /calibrank is not initialized/.test(e.message));
});

test("calibrank_pipeline.wasm answers the other functions' operations as unknown", async () => {
  const { Wire, Input } = await import(new URL("wire.js", pkg));
  const wire = new Wire(pipelineModule, {});
  // rrf, rrfColumnar, fuseMultiQuery, rerank, normalize, calibrate, classifyBand, queryConfidence
  for (let op = 20; op <= 27; op++) assert.throws(() => wire.call(op, new Input()), /unknown operation/, `operation ${op}`);
  // and the common ones as every module does
  assert.equal(wire.call(1, new Input()).text(), core.version());
});

test("browser.js exports what the core's API module exports (its list is written out)", () => {
  const text = readFileSync(new URL("browser.js", pkg), "utf8");
  const names = [...text.matchAll(/^export \{([^}]*)\} from/gm)].flatMap((m) => m[1].split(",").map((n) => n.trim()));
  assert.deepEqual([...names].sort(), Object.keys(core).sort());
});

test("a Pipeline made on the whole core's module, then moved to its own, frees the handle it leaves behind", async () => {
  const { default: hooks, ...api } = await import(new URL("core.js?moved", pkg));
  hooks.init(compiled("core"));
  const p = new api.Pipeline({ topN: 2, minConfidence: 0 });
  assert.equal(hooks.livePipelinesInCore(), 1);
  hooks.pipeline.init(pipelineModule);
  // Made again on Pipeline's own module at its next call; the core's copy freed.
  assert.deepEqual(p.run({ lists: [{ name: "s", ids: ["a", "b", "c"] }] }).results.map((r) => r.id), ["a", "b"]);
  assert.equal(api.__livePipelines(), 1, "on Pipeline's own module");
  assert.equal(hooks.livePipelinesInCore(), 0, "none left in the core's");
  p.free();
  assert.equal(api.__livePipelines(), 0);
});

test("calibrank/init refuses calibrank_pipeline.wasm, which holds Pipeline alone", async () => {
  const { init, initSync, isInitialized } = await import("calibrank/init");
  const says = /^calibrank\/init: the module given is not calibrank_core\.wasm: it is calibrank_pipeline\.wasm, which holds Pipeline alone/;
  assert.throws(() => initSync(pipelineModule), (e) => e.code === "INVALID_TYPE" && e.field === "input" && says.test(e.message));
  await assert.rejects(init(readFileSync(new URL("calibrank_pipeline.wasm", pkg))), (e) => e.code === "INVALID_TYPE" && says.test(e.message));
  assert.equal(isInitialized(), false);
  initSync(compiled("core"));
  assert.equal(isInitialized(), true);
});
