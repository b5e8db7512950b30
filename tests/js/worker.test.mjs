// The Worker example in real workerd through Miniflare. The package is resolved the
// way a Worker bundler does it: through the exports map's `workerd` condition.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Miniflare } from "miniflare";

const root = fileURLToPath(new URL("../..", import.meta.url));
const pkgDir = join(root, "pkg");
const pkgJson = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
const workerdEntry = pkgJson.exports["."].workerd;
assert.ok(workerdEntry, "the exports map has a workerd condition");

// Modules named as workerd will resolve them: the worker imports "calibrank".
const entryDir = dirname(join(pkgDir, workerdEntry));
const modules = [
  { type: "ESModule", path: join(root, "worker.js"), contents: readFileSync(join(root, "examples/worker/src/index.js"), "utf8") },
  { type: "ESModule", path: join(root, "calibrank"), contents: readFileSync(join(pkgDir, workerdEntry), "utf8") },
  { type: "ESModule", path: join(root, "web/calibrank.js"), contents: readFileSync(join(entryDir, "web/calibrank.js"), "utf8") },
  { type: "ESModule", path: join(root, "score_error.js"), contents: readFileSync(join(entryDir, "score_error.js"), "utf8") },
  { type: "CompiledWasm", path: join(root, "web/calibrank_bg.wasm"), contents: readFileSync(join(entryDir, "web/calibrank_bg.wasm")) },
  { type: "ESModule", path: join(root, "golden.js"), contents: `export default ${readFileSync(join(root, "tests/golden/vectors.json"), "utf8")};` },
  { type: "ESModule", path: join(root, "suite.js"), contents: readFileSync(join(root, "tests/js/suite.js"), "utf8") },
];

async function withWorker(script, fn) {
  const mf = new Miniflare({ modules: script ? [{ ...modules[0], contents: script }, ...modules.slice(1)] : modules, modulesRoot: root, compatibilityDate: "2025-01-01" });
  try {
    await fn(mf);
  } finally {
    await mf.dispose();
  }
}

const post = (mf, body, headers = {}) => mf.dispatchFetch("http://localhost/", { method: "POST", body, headers: { "content-type": "application/json", ...headers } });

test("Worker example in workerd", async (t) => {
  await withWorker(null, async (mf) => {
    await t.test("a good request is scored", async () => {
      const res = await post(mf, JSON.stringify({
        config: { topN: 3, minConfidence: 0, calibration: { method: "sigmoid", threshold: 0.02 } },
        query: "q",
        lists: [{ name: "semantic", ids: ["a", "b", "c"] }, { name: "keyword", ids: ["c", "a"] }],
      }));
      assert.equal(res.status, 200);
      const out = await res.json();
      assert.deepEqual(out.results.map((r) => r.id), ["a", "c", "b"]);
      assert.equal(out.results[0].explain.fused, 1 / 61 + 1 / 62);
      assert.equal(out.stats.lists, 2);
    });
    await t.test("malformed JSON is a 400", async () => {
      const res = await post(mf, "{ not json");
      assert.equal(res.status, 400);
      assert.equal((await res.json()).error.code, "INVALID_JSON");
    });
    await t.test("an invalid config is a 400 with the code and field", async () => {
      const res = await post(mf, JSON.stringify({ config: { topN: 0 }, lists: [] }));
      assert.equal(res.status, 400);
      const { error } = await res.json();
      assert.equal(error.code, "INVALID_TOP_N");
      assert.equal(error.field, "topN");
    });
    await t.test("a body over the limit is a 413", async () => {
      const res = await post(mf, JSON.stringify({ lists: [{ name: "x", ids: ["y".repeat(1_100_000)] }] }));
      assert.equal(res.status, 413);
      assert.equal((await res.json()).error.code, "BODY_TOO_LARGE");
    });
    const good = () => post(mf, JSON.stringify({ config: { minConfidence: 0 }, lists: [{ name: "s", ids: ["a", "b"] }] }));
    const noStack = (text) => assert.ok(!/\bat .*\.(m?js|wasm)|wasm-function|\n\s+at |Error:|RuntimeError|TypeError/.test(text), text);
    await t.test("other methods are a 405", async () => {
      const res = await mf.dispatchFetch("http://localhost/", { method: "GET" });
      assert.equal(res.status, 405);
      assert.equal((await res.json()).error.code, "METHOD_NOT_ALLOWED");
    });
    await t.test("JSON that is not an object is a 400", async () => {
      for (const body of ["[1, 2]", "null", "42", '"text"', ""]) {
        const res = await post(mf, body);
        assert.equal(res.status, 400, body);
        assert.equal((await res.json()).error.code, "INVALID_JSON", body);
      }
    });
    await t.test("a chunked body over the limit is a 413 (no content-length)", async () => {
      const chunk = new TextEncoder().encode(" ".repeat(64 * 1024));
      let sent = 0;
      const stream = new ReadableStream({
        pull(controller) {
          // Just over the limit, so the client has sent everything when the Worker stops reading.
          if (sent > 1_000_000) return controller.close();
          sent += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
      const res = await mf.dispatchFetch("http://localhost/", { method: "POST", body: stream, duplex: "half" });
      assert.equal(res.status, 413);
      assert.equal((await res.json()).error.code, "BODY_TOO_LARGE");
    });
    await t.test("an invalid input is a 400 with the code and field", async () => {
      const res = await post(mf, JSON.stringify({ lists: [{ name: "s", ids: ["a"] }], items: { a: { modifiedAt: "yesterday" } }, now: 0 }));
      assert.equal(res.status, 400);
      const { error } = await res.json();
      assert.deepEqual([error.code, error.field], ["INVALID_TIMESTAMP", "items.a.modifiedAt"]);
    });
    await t.test("hostile JSON is a 400 and leaves the module working", async () => {
      const deep = "[".repeat(100_000) + "]".repeat(100_000);
      const bodies = [
        [`{"config": {"x": ${deep}}, "lists": []}`, "INVALID_TYPE"],
        [`{"config": {"calibration": ${deep}}, "lists": []}`, "INVALID_TYPE"],
        [`{"lists": [], "now": ${deep}}`, "INVALID_TYPE"],
        ['{"config": {"weights": [null]}, "lists": []}', "INVALID_TYPE"],
        ['{"lists": [], "items": [null, null]}', "INVALID_TYPE"],
        ['{"lists": [{"name": "s", "ids": ["a"]}], "__proto__": {"x": 1}}', "UNKNOWN_FIELD"],
        ['{"config": {"topK": 1e400}, "lists": []}', "INVALID_TYPE"],
      ];
      for (const [body, code] of bodies) {
        const res = await post(mf, body);
        const text = await res.text();
        assert.equal(res.status, 400, text.slice(0, 200));
        assert.equal(JSON.parse(text).error.code, code, text.slice(0, 200));
        noStack(text);
        const after = await good();
        assert.equal(after.status, 200, "the next request still works");
        assert.deepEqual((await after.json()).results.map((r) => r.id), ["a", "b"]);
      }
    });
    await t.test("no response carries a stack trace", async () => {
      const res = await post(mf, JSON.stringify({ lists: [{ name: "x", ids: ["a"], scores: [1, 2] }] }));
      assert.equal(res.status, 400);
      const text = await res.text();
      assert.ok(!/at .*\.js|wasm-function|Error:/.test(text), text);
      assert.equal(JSON.parse(text).error.code, "LENGTH_MISMATCH");
    });
  });
});

test("golden vectors and the JS suite in workerd", async () => {
  const script = `
    import * as lib from "calibrank";
    import golden from "./golden.js";
    import { runSuite } from "./suite.js";
    export default { async fetch() { return Response.json(runSuite(lib, golden, () => {})); } };`;
  await withWorker(script, async (mf) => {
    const result = await (await mf.dispatchFetch("http://localhost/")).json();
    assert.deepEqual(result.failures, []);
    assert.ok(result.passed >= 12);
  });
});
