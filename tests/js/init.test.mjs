// The entries without top-level await, in Node (issue 12): calibrank/init and
// calibrank/lab/init through the package's exports map (ESM and CommonJS). Before init
// every function throws a ScoreError that says what to call; init() takes every kind of
// input it documents (each in a fresh process, tests/js/init-child.mjs) and rejects the
// rest with INVALID_TYPE; after it, the whole JS suite and the golden vectors pass through
// these entries. Last, server bundles (esbuild --platform=node) from the packed tarball:
// of these entries, and of the main entries in each format.
import test from "node:test";
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as main from "calibrank";
import * as mainLab from "calibrank/lab";
import * as core from "calibrank/init";
import labInit, * as lab from "calibrank/lab/init";
import { tests } from "./suite.js";
import { serve } from "./serve.mjs";
import { makeApp } from "./app.mjs";
import { input, config, scores, labels } from "../vite/fixture.js";

const req = createRequire(import.meta.url);
const golden = JSON.parse(readFileSync(new URL("../golden/vectors.json", import.meta.url), "utf8"));
const outcome = (f) => {
  try {
    f();
    return "no error";
  } catch (e) {
    return e instanceof main.ScoreError ? { code: e.code, field: e.field, message: e.message } : `not a ScoreError: ${e}`;
  }
};

// Before init (this module's top level runs before any test).
const before = {
  version: outcome(() => core.version()),
  versionAgain: outcome(() => core.version()),
  pipeline: outcome(() => new core.Pipeline(config)),
  rrf: outcome(() => core.rrf([["a"]])),
  fitPlatt: outcome(() => lab.fitPlatt(scores, labels)),
  initialized: [core.isInitialized(), lab.isInitialized()],
};
const badInputs = [];
for (const bad of [42, null, {}, true, [1, 2]]) {
  badInputs.push(await core.init(bad).then(() => "resolved", (e) => (e instanceof main.ScoreError ? `${e.code} ${e.field}` : String(e))));
}
// Inputs that do not lead to the module: a ScoreError on `input` that says why, the
// engine's or the file system's error as its `cause`.
const why = (e) => (e instanceof main.ScoreError ? { code: e.code, field: e.field, message: e.message, cause: e.cause?.code ?? e.cause?.name } : `not a ScoreError: ${e}`);
const wasmBytes = (m) => readFileSync(new URL(`../../pkg/calibrank_${m}.wasm`, import.meta.url));
const refused = {
  notWasm: await core.init(new Uint8Array([1, 2, 3, 4])).then(() => "resolved", why),
  labBytesToCore: await core.init(wasmBytes("lab")).then(() => "resolved", why),
  coreModuleToLab: await lab.init(new WebAssembly.Module(wasmBytes("core"))).then(() => "resolved", why),
  otherModule: await core.init(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(() => "resolved", why),
  missingFile: await core.init("/nonexistent/calibrank_core.wasm").then(() => "resolved", why),
  // A promise that rejects (a failed `fetch(url)`, as the README's `initLab(fetch(...))`),
  // and a Request whose fetch fails (nothing listens on port 9 here).
  rejectedPromise: await core.init(Promise.reject(new TypeError("network down"))).then(() => "resolved", why),
  failedFetch: await lab.init(fetch("http://127.0.0.1:9/calibrank_lab.wasm")).then(() => "resolved", why),
  failedRequest: await core.init(new Request("http://127.0.0.1:9/calibrank_core.wasm")).then(() => "resolved", why),
  // A reason that cannot be printed (no prototype: String() throws) is still described.
  oddRejection: await core.init(Promise.reject(Object.create(null))).then(() => "resolved", why),
  // A Response made in the program has no URL: the message names the file instead.
  htmlResponse: await core.init(new Response("<!doctype html>", { headers: { "content-type": "text/html" } })).then(() => "resolved", why),
  syncNotWasm: (() => {
    try {
      core.initSync(new Uint8Array([1, 2, 3, 4]));
      return "no error";
    } catch (e) {
      return why(e);
    }
  })(),
};
const syncBad = outcome(() => lab.initSync("calibrank_lab.wasm"));
const stillNot = core.isInitialized();
await Promise.all([core.init(), labInit()]);

test("before init(), every function throws a ScoreError that names init()", () => {
  for (const [name, o] of Object.entries(before)) {
    if (name === "initialized") continue;
    assert.equal(o.code, "INTERNAL", name);
    assert.match(o.message, /not initialized: call \(and await\) init\(\) from "calibrank(\/lab)?\/init"/, name);
  }
  assert.match(before.fitPlatt.message, /calibrank_lab\.wasm/);
  assert.deepEqual(before.initialized, [false, false]);
});

test("init() rejects what it does not take, with INVALID_TYPE on `input`, and stays usable", () => {
  assert.deepEqual(badInputs, Array(5).fill("INVALID_TYPE input"));
  const expect = {
    notWasm: [/calibrank\/init: what was given cannot be calibrank_core\.wasm \(CompileError: /, "CompileError"],
    labBytesToCore: [/calibrank\/init: the module given is not calibrank_core\.wasm: it imports calibrank\.progress, where nothing is expected/, undefined],
    coreModuleToLab: [/calibrank\/lab\/init: the module given is not calibrank_lab\.wasm: it imports nothing, where calibrank\.progress is expected/, undefined],
    otherModule: [/the module given is not calibrank_core\.wasm: it does not export memory, cr_reserve, cr_call, cr_out_of_memory/, undefined],
    missingFile: [/cannot read \/nonexistent\/calibrank_core\.wasm \(ENOENT\)/, "ENOENT"],
    rejectedPromise: [/^calibrank\/init: the promise given for calibrank_core\.wasm rejected \(network down\)$/, "TypeError"],
    failedFetch: [/^calibrank\/lab\/init: the promise given for calibrank_lab\.wasm rejected \(fetch failed\)$/, "TypeError"],
    // The URL is the caller's: no advice about where a bundler puts the package's files.
    failedRequest: [/^calibrank: could not fetch http:\/\/127\.0\.0\.1:9\/calibrank_core\.wasm \(fetch failed\)\. Serve node_modules\/calibrank\/calibrank_core\.wasm at that URL, or give init\(\) the URL where it is\.$/, "TypeError"],
    oddRejection: [/^calibrank\/init: the promise given for calibrank_core\.wasm rejected \(a value that cannot be printed\)$/, undefined],
    syncNotWasm: [/calibrank\/init: the bytes given cannot be calibrank_core\.wasm \(CompileError: /, "CompileError"],
    htmlResponse: [/^calibrank: the Response given for calibrank_core\.wasm is not WebAssembly \(text\/html, starting /, undefined],
  };
  for (const [k, [message, cause]] of Object.entries(expect)) {
    const got = refused[k];
    assert.equal(typeof got, "object", `${k}: ${got}`);
    assert.equal(got.code, "INVALID_TYPE", k);
    assert.equal(got.field, "input", k);
    assert.match(got.message, message, k);
    assert.equal(got.cause, cause, k);
  }
  assert.equal(syncBad.code, "INVALID_TYPE", "initSync takes bytes or a module, not a URL");
  assert.match(syncBad.message, /^calibrank\/lab\/init: initSync\(\) takes the bytes .* or WebAssembly\.Module of calibrank_lab\.wasm \(a URL or Response needs await init\(\)\); got string$/);
  assert.equal(stillNot, false);
  assert.deepEqual([core.isInitialized(), lab.isInitialized()], [true, true]);
});

test("the init entries share ScoreError with the main entries (ESM and CommonJS)", () => {
  assert.equal(core.ScoreError, main.ScoreError);
  assert.equal(lab.ScoreError, main.ScoreError);
  assert.equal(req("calibrank/init").ScoreError, main.ScoreError);
  assert.equal(req("calibrank/lab/init").ScoreError, mainLab.ScoreError);
  assert.match(req.resolve("calibrank/init"), /init\.node\.cjs$/);
  assert.match(req.resolve("calibrank/lab/init"), /lab\.init\.node\.cjs$/);
  assert.equal(core.default, core.init);
});

const lib = { ...lab, ...core };
for (const t of tests(lib, golden)) test(`init entries: ${t.name}`, t.fn);

test("every documented input, ESM and CommonJS, gives the main entry's numbers", async () => {
  const pkg = fileURLToPath(new URL("../../pkg", import.meta.url));
  const { server, url } = await serve(pkg);
  try {
    const out = new main.Pipeline(config).run(input);
    const expected = {
      initialized: [true, true],
      results: out.results.map((r) => [r.id, r.score, r.band]),
      confidence: out.confidence,
      platt: mainLab.fitPlatt(scores, labels),
    };
    const child = fileURLToPath(new URL("./init-child.mjs", import.meta.url));
    const kinds = ["none", "fileUrl", "fileString", "filePath", "relativePath", "buffer", "arrayBuffer", "dataView", "syncDataView", "module", "promise", "response", "untypedResponse", "httpUrl", "httpFetch", "request", "syncBytes", "syncModule"];
    for (const [format, list] of [["esm", kinds], ["cjs", ["none", "fileUrl", "filePath", "relativePath", "buffer", "response", "httpUrl", "syncModule"]]]) {
      for (const kind of list) {
        const got = await new Promise((resolve, reject) =>
          execFile(process.execPath, [child, format, kind, url], (err, stdout, stderr) => (err ? reject(new Error(`${format} ${kind}: ${stderr}`)) : resolve(stdout))),
        );
        assert.deepEqual(JSON.parse(got), expected, `${format} ${kind}`);
      }
    }
    // init() twice at once compiles once; once initialized, init() resolves at once, whatever it is given.
    const twice = execFileSync(process.execPath, [child, "esm", "twice", url], { encoding: "utf8" });
    assert.deepEqual(JSON.parse(twice), expected);
    // A pending init whose input fails: a call made meanwhile tries its own input (it
    // was given the first one's failure); initSync meanwhile makes the pending one resolve.
    for (const kind of ["badThenGood", "badThenSync", "hungThenSync", "otherRelease"]) for (const format of ["esm", "cjs"]) assert.deepEqual(JSON.parse(execFileSync(process.execPath, [child, format, kind, url], { encoding: "utf8", timeout: 60_000 })), expected, `${format} ${kind}`);
  } finally {
    server.close();
  }
});

test("a CommonJS server bundle (esbuild --platform=node --format=cjs --target=node18) from the tarball: says what to do without the .wasm, runs with it", async () => {
  const dir = makeApp(["fixture.js"]);
  try {
    writeFileSync(
      join(dir, "server.js"),
      `import { init, Pipeline } from "calibrank/init";
import { init as initLab, fitPlatt } from "calibrank/lab/init";
import { input, config, scores, labels } from "./fixture.js";
// Each entry's failure said (Promise.all would say whichever file read failed first).
Promise.allSettled([init(), initLab()]).then((settled) => {
  const failed = settled.filter((s) => s.status === "rejected");
  if (failed.length > 0) {
    for (const f of failed) console.error(String(f.reason));
    process.exit(1);
  }
  const out = new Pipeline(config).run(input);
  console.log(JSON.stringify({ results: out.results.map((r) => [r.id, r.score, r.band]), platt: fitPlatt(scores, labels) }));
});
`,
    );
    const { build } = await import("esbuild");
    mkdirSync(join(dir, "dist"));
    const built = await build({ absWorkingDir: dir, entryPoints: ["server.js"], bundle: true, platform: "node", format: "cjs", target: "node18", outfile: "dist/server.cjs", logLevel: "silent" });
    assert.deepEqual(built.warnings, []);
    const run = () => execFileSync(process.execPath, [join(dir, "dist/server.cjs")], { encoding: "utf8", stdio: "pipe" });
    for (const m of ["core", "lab"])
      assert.throws(run, (e) => new RegExp(`copy node_modules/calibrank/calibrank_${m}\\.wasm next to your server bundle`).test(e.stderr), m);
    for (const m of ["core", "lab"]) copyFileSync(join(dir, "node_modules/calibrank", `calibrank_${m}.wasm`), join(dir, "dist", `calibrank_${m}.wasm`));
    const out = new main.Pipeline(config).run(input);
    assert.deepEqual(JSON.parse(run()), { results: out.results.map((r) => [r.id, r.score, r.band]), platt: mainLab.fitPlatt(scores, labels) });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("server bundles of the main entries (ESM source to CommonJS, CommonJS, ESM): importing works without the .wasm, the first call says what to do, and a call after the copy runs", async () => {
  const dir = makeApp(["fixture.js"]);
  try {
    // One process: the first call fails, the file is copied, the next call runs (the
    // loader is not spent by a failure).
    const body = (imports) => `${imports}
const out = [];
const call = () => new Pipeline(config).run(input).results.map((r) => [r.id, r.score, r.band]);
const attempt = () => {
  try {
    out.push(call());
  } catch (e) {
    out.push({ scoreError: e instanceof ScoreError, code: e.code, field: e.field, message: e.message });
  }
};
attempt();
// A file that is not WebAssembly (a failed download, a page): named too.
writeFileSync(join(process.env.DIST, "calibrank_core.wasm"), "<!doctype html>");
attempt();
copyFileSync(process.env.WASM, join(process.env.DIST, "calibrank_core.wasm"));
out.push(call());
console.log(JSON.stringify(out));
`;
    writeFileSync(
      join(dir, "esm.mjs"),
      body(`import { Pipeline, ScoreError } from "calibrank";
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { input, config } from "./fixture.js";`),
    );
    // A CommonJS source: require() only.
    writeFileSync(
      join(dir, "cjs.cjs"),
      body(`const { Pipeline, ScoreError } = require("calibrank");
const { copyFileSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");
const { input, config } = require("./fixture.js");`),
    );
    const { build } = await import("esbuild");
    const expected = new main.Pipeline(config).run(input).results.map((r) => [r.id, r.score, r.band]);
    for (const [entry, format, out] of [
      ["esm.mjs", "cjs", "a.cjs"],
      ["cjs.cjs", "cjs", "b.cjs"],
      ["esm.mjs", "esm", "c.mjs"],
    ]) {
      const dist = join(dir, `dist-${out}`);
      mkdirSync(dist);
      const built = await build({ absWorkingDir: dir, entryPoints: [entry], bundle: true, platform: "node", format, target: "node18", outfile: join(dist, out), logLevel: "silent" });
      assert.deepEqual(built.warnings, [], out);
      const env = { ...process.env, WASM: join(dir, "node_modules/calibrank/calibrank_core.wasm"), DIST: dist };
      const [first, broken, second] = JSON.parse(execFileSync(process.execPath, [join(dist, out)], { encoding: "utf8", env }));
      assert.equal(first.scoreError, true, `${out}: ${JSON.stringify(first)}`);
      assert.equal(first.code, "INTERNAL", out);
      assert.equal(first.field, "", out);
      assert.match(first.message, /^calibrank: cannot read calibrank_core\.wasm \(tried [^)]*dist-[^)]*: ENOENT\); copy node_modules\/calibrank\/calibrank_core\.wasm next to your server bundle, or import from "calibrank\/init"/, out);
      assert.equal(broken.scoreError, true, `${out}: ${JSON.stringify(broken)}`);
      assert.match(broken.message, /^calibrank: cannot compile calibrank_core\.wasm \(tried [^)]*dist-[^)]*: WebAssembly\.Module\(\): expected magic word/, out);
      assert.deepEqual(second, expected, `${out}: runs once the file is there`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a module of yours re-exporting both entries (`export *` of each), run by Node and bundled for Node by esbuild (ESM and CommonJS output) from the tarball: it exports ScoreError, the one class both entries throw, and drops the names the entries export as different functions (README)", async () => {
  const dir = makeApp([]);
  try {
    writeFileSync(join(dir, "all.mjs"), `export * from "calibrank";\nexport * from "calibrank/lab";\n`);
    writeFileSync(
      join(dir, "app.mjs"),
      `import * as all from "./all.mjs";
const caught = (f) => {
  try {
    f();
    return "no error";
  } catch (e) {
    return { scoreError: e instanceof all.ScoreError, code: e.code, field: e.field };
  }
};
console.log(JSON.stringify({
  names: Object.keys(all).sort(),
  core: caught(() => all.rrf([["a", 1]])),
  lab: caught(() => all.parseQrels(42)),
}));
`,
    );
    const coreNames = Object.keys(main);
    const labNames = Object.keys(mainLab);
    const twice = coreNames.filter((k) => labNames.includes(k));
    // The names both entries export: ScoreError is one binding, the rest are each entry's own.
    assert.deepEqual(twice.sort(), ["ScoreError", "defaultLimits", "errorCodes", "version"]);
    assert.equal(main.ScoreError, mainLab.ScoreError);
    const kept = [...new Set([...coreNames, ...labNames])].filter((k) => k === "ScoreError" || !twice.includes(k)).sort();
    const expected = {
      names: kept,
      core: { scoreError: true, ...pick(outcome(() => main.rrf([["a", 1]]))) },
      lab: { scoreError: true, ...pick(outcome(() => mainLab.parseQrels(42))) },
    };
    assert.equal(expected.core.code, "INVALID_TYPE");
    assert.equal(expected.lab.code, "INVALID_TYPE");
    assert.deepEqual(JSON.parse(execFileSync(process.execPath, [join(dir, "app.mjs")], { encoding: "utf8" })), expected, "Node, unbundled");
    const { build } = await import("esbuild");
    for (const [format, out] of [
      ["esm", "app.mjs"],
      ["cjs", "app.cjs"],
    ]) {
      const dist = join(dir, `dist-${format}`);
      mkdirSync(dist);
      const built = await build({ absWorkingDir: dir, entryPoints: ["app.mjs"], bundle: true, platform: "node", format, target: "node18", outfile: join(dist, out), logLevel: "silent" });
      assert.deepEqual(built.warnings, [], format);
      for (const m of ["core", "lab"]) copyFileSync(join(dir, "node_modules/calibrank", `calibrank_${m}.wasm`), join(dist, `calibrank_${m}.wasm`));
      assert.deepEqual(JSON.parse(execFileSync(process.execPath, [join(dist, out)], { encoding: "utf8" })), expected, `esbuild --platform=node --format=${format}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** An outcome's code and field (its message left to the tests of errors). */
function pick(o) {
  return { code: o.code, field: o.field };
}
