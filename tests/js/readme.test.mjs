// The README's code examples, run as they are written, and what their comments claim
// checked. Every ```js and ```html block of README.md must be one of CASES below (a new
// example fails this test until it is given a way to run): Node blocks run as scripts
// inside the repository (so `calibrank` resolves to pkg/ through node_modules), the
// `using` example in Deno (Node 20 does not parse `using`), the browser ones in headless
// Chromium. Only placeholders the README leaves to the reader (file contents, a query's
// lists) are defined before a block, and `Date.now` is pinned where a claimed figure
// depends on the day.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "./serve.mjs";
import { launch, newPageWithErrors } from "./chromium.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const pkg = join(root, "pkg");
const work = join(root, "target", "readme");
const cisi = join(root, "..", "shared", "data", "cisi");
const abstain = join(root, "..", "shared", "data", "cisi-abstain");

/** The fenced code blocks of README.md: language, first line number, code. */
function blocks(text) {
  const out = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /^```(\w+)$/.exec(lines[i]);
    if (!m) continue;
    const start = i + 1;
    while (i + 1 < lines.length && lines[i + 1] !== "```") i++;
    out.push({ lang: m[1], line: start + 1, code: lines.slice(start, i + 1).join("\n") });
    i++;
  }
  return out;
}

// Each case: the block's first line, how it runs, what is defined before it and what is
// checked after it (in the block's own scope).
const CASES = [
  {
    // The quick start: the figures its comments give (two results, both misses at 0.408,
    // an answer from the rank-only estimate, the first result's contributions).
    first: "// Two retrievers, as a RAG front end has them",
    run: "node",
    after: `assert.deepEqual(out.results.map((r) => [r.id, r.score.toFixed(3), r.band]), [["auth.md", "0.408", "miss"], ["cache.md", "0.408", "miss"]]);
      assert.equal(out.stats.belowMinConfidence, 2);
      assert.equal(out.outcome.kind, "answer");
      assert.equal(out.outcome.source, "rankOnly");
      assert.equal(out.outcome.probability.toFixed(4), "0.6497");
      const c = out.results[0].explain.contributions;
      assert.deepEqual(c.map((x) => [x.list, x.rank, x.weight, x.listScore]), [["bm25", 2, 1, 9.4], ["dense", 1, 1, 0.83]]);
      assert.ok(c[0].contribution.toString().startsWith("0.01612") && c[1].contribution.toString().startsWith("0.01639"));`,
  },
  {
    first: 'import { Pipeline, rrf, classifyBand, ScoreError } from "calibrank";       // the scoring core',
    run: "node",
    after: `assert.equal(typeof Pipeline, "function"); assert.equal(typeof rrf, "function");
      assert.equal(typeof classifyBand, "function"); assert.equal(typeof evaluate, "function");
      assert.equal(typeof fitPlatt, "function"); assert.equal(typeof parseTrecRun, "function");
      assert.ok(new ScoreError("INTERNAL", "x", "y") instanceof Error);`,
  },
  {
    // Both module systems in one block: run as written (ESM) and as CommonJS (the
    // `import` line left out, the commented \`require\` line uncommented). The claimed
    // score and band hold on any day: \`now\` is given (the item was modified five days
    // before it: inside the first recency step).
    first: "// ESM",
    run: "node",
    variants: [
      { ext: "mjs" },
      { ext: "cjs", drop: /^import /, uncomment: /^\/\/ const \{ Pipeline \} = require\("calibrank"\);$/ },
    ],
    after: `assert.equal(results.length, 3);
      assert.equal(results[0].id, "auth.md#L45");
      assert.equal(results[0].score.toFixed(2), "0.88");
      assert.equal(results[0].band, "hit");
      assert.equal(typeof results[0].explain.fused, "number");
      assert.equal(typeof results[0].explain.recencyMultiplier, "number");
      assert.equal(typeof confidence.atLeastOneRelevant, "number");`,
  },
  {
    // Jest 29's configuration: here, where it points (tests/js/runners.test.mjs runs an
    // app's tests under Jest 29 with it).
    first: "// jest.config.js (Jest 29, jsdom): calibrank through its Node entries",
    run: "node",
    variants: [{ ext: "cjs" }],
    after: `assert.equal(module.exports.testEnvironment, "jsdom");
      assert.match(module.exports.moduleNameMapper["^calibrank$"], /[\\/]node\\.cjs$/);
      assert.match(module.exports.moduleNameMapper["^calibrank/lab$"], /[\\/]lab\\.node\\.cjs$/);
      assert.match(module.exports.moduleNameMapper["^calibrank/init$"], /[\\/]init\\.node\\.cjs$/);
      assert.match(module.exports.moduleNameMapper["^calibrank/lab/init$"], /[\\/]lab\\.init\\.node\\.cjs$/);`,
  },
  {
    first: 'import { rrf, calibrate } from "calibrank";',
    run: "node",
    after: `assert.deepEqual(fused.map(([id]) => id), ["b", "a", "c"]);
      assert.ok(String(fused[0][1]).startsWith("0.0325"), String(fused[0][1]));
      assert.ok(confidences instanceof Float64Array);
      assert.equal(confidences.length, 3);
      assert.ok(confidences[0] > confidences[1] && confidences[1] > confidences[2]);`,
  },
  {
    // A page that serves both .wasm files at the root, as the block asks for them.
    first: 'import init, { Pipeline } from "calibrank/init";',
    run: "chromium",
    importmap: { "calibrank/init": "/node_modules/calibrank/init.web.js", "calibrank/lab/init": "/node_modules/calibrank/lab.init.web.js" },
    after: `window.__result = { initialized: true, platt: typeof fitPlatt };`,
    expect: { initialized: true, platt: "function" },
  },
  {
    // The Web Worker: run as a module worker, a message posted at once (before the
    // package has loaded) answered. Workers read no import map: the package's URL is
    // written in.
    first: "// worker.js",
    run: "chromium-worker",
    replace: [['import("calibrank")', 'import("/node_modules/calibrank/browser.js")']],
    page: `const w = new Worker("/worker.js", { type: "module" });
      w.onmessage = ({ data }) => { window.__result = data.results.map((r) => [r.id, r.band]); };
      w.onerror = (e) => { window.__result = "error: " + e.message; };
      w.postMessage({ lists: [{ name: "a", ids: ["x", "y"] }, { name: "b", ids: ["x"] }] });`,
    expect: [["x", "miss"]],
  },
  {
    // Parcel's worker (tests/js/bundlers.test.mjs builds it with Parcel): here a plain
    // module worker, the package's URL and the file Parcel would serve written in.
    first: "// worker.js, bundled by Parcel",
    run: "chromium-worker",
    replace: [
      ['"calibrank/init"', '"/node_modules/calibrank/init.web.js"'],
      ['"npm:calibrank/calibrank_pipeline.wasm"', '"/calibrank_pipeline.wasm"'],
    ],
    page: `const w = new Worker("/worker.js", { type: "module" });
      w.onmessage = ({ data }) => { window.__result = data.results.map((r) => [r.id, r.band]); };
      w.onerror = (e) => { window.__result = "error: " + e.message; };
      w.postMessage({ lists: [{ name: "a", ids: ["x", "y"] }, { name: "b", ids: ["x"] }] });`,
    expect: [["x", "miss"]],
  },
  {
    first: '<script type="importmap">{ "imports": { "calibrank": "/node_modules/calibrank/browser.js", "calibrank/lab": "/node_modules/calibrank/lab.browser.js" } }</script>',
    run: "chromium-html",
    // The block logs its results (the core's, then the lab's through the map's second
    // entry): the page records console.log lines.
    expectLog: ['{"kind":"hit","score":0.9}', "0.0625"],
  },
  {
    first: 'import { Pipeline, ScoreError } from "calibrank"; // resolves the `workerd` condition',
    run: "node",
    // The Worker's handler called with requests (Node's Request / Response).
    module: true,
    after: `const worker = __block.default;
      const post = (body) => worker.fetch(new Request("http://worker/", { method: "POST", body: JSON.stringify(body) }));
      const ok = await post({ config: { topN: 2, minConfidence: 0 }, lists: [{ name: "a", ids: ["x", "y", "z"] }] });
      assert.equal(ok.status, 200);
      const body = await ok.json();
      assert.deepEqual(body.results.map((r) => r.id), ["x", "y"]);
      assert.equal(typeof body.confidence.atLeastOneRelevant, "number");
      const raised = await post({ config: { limits: { maxTotalEntries: 10_000_000 } }, lists: [] });
      assert.equal(raised.status, 400);
      assert.deepEqual(await raised.json(), { error: { code: "LIMITS_NOT_ALLOWED", field: "config.limits" } });
      const bad = await post({ config: { topN: -1 }, lists: [] });
      assert.equal(bad.status, 400);
      const { error } = await bad.json();
      assert.equal(typeof error.code, "string");
      assert.equal(typeof error.field, "string");
      // Every request's pipeline freed, the failed one's too (workerd has no FinalizationRegistry by default).
      const { __livePipelines } = await import("calibrank");
      const live = __livePipelines();
      for (let i = 0; i < 20; i++) await post(i % 2 ? { lists: [{ name: "a", ids: ["x"] }] } : { config: { topK: 0 }, lists: [] });
      assert.equal(__livePipelines(), live);`,
  },
  {
    // Proposed floors plugged into a pipeline: the figures its comment claims.
    first: 'import { Pipeline } from "calibrank";',
    firstTwo: 'import { proposeBands } from "calibrank/lab";',
    run: "node",
    after: `assert.deepEqual([highFloor, degradedFloor], [0.8, 0.6]);
      assert.deepEqual(pipeline.config.bands, { highFloor: 0.8, degradedFloor: 0.6, profiles: [] });
      assert.equal(typeof proposal.heldOut.hit.precision, "number");`,
  },
  {
    // The pool's explanation: the figures its comments claim.
    first: 'import { Pipeline } from "calibrank";',
    firstTwo: 'const input = { lists: [{ name: "bm25", ids: ["a", "b", "c"] }] };',
    run: "node",
    after: `assert.deepEqual(out.results.map((r) => r.id), ["a", "b"]);
      assert.equal(out.stats.belowMinRelevance, 1);
      assert.deepEqual(out.pool, { candidates: 3, normalization: { method: "min_max", min: 0.015873015873015872, max: 0.01639344262295082 } });
      assert.equal(b.normalized, (b.afterRerank - min) / (max - min));`,
  },
  {
    // Items read once: the call's output is that of the same metadata as an object.
    first: 'import { Items, Pipeline } from "calibrank";',
    run: "node",
    after: `const plain = pipeline.run({ lists: [{ name: "bm25", ids: ["doc-2", "doc-1"] }], items: { "doc-1": { name: "Token cache", modifiedAt: "2026-11-02" }, "doc-2": { summary: "Routing" } }, now: "2026-11-30" });
      assert.deepEqual(out, plain);
      assert.equal(items.size, 2);
      assert.equal(out.stats.candidates, 2);
      // What its comment says: both returned, the recency boost first.
      assert.deepEqual(out.results.map((r) => r.id), ["doc-1", "doc-2"]);`,
  },
  {
    first: 'import { readFile } from "node:fs/promises";',
    run: "deno",
    // The files the block reads: CISI's (its `readFile` import replaced by one that reads
    // them where they are).
    drop: /^import \{ readFile \} from "node:fs\/promises";$/,
    before: `import { readFile as readFileAt } from "node:fs/promises";
      const readFile = (name, enc) => readFileAt(${JSON.stringify(cisi)} + "/" + name, enc);`,
    // `using` frees the four handles at the end of the block's scope.
    capture: ['evaluate(qrels, fused, ["ndcg@10", "mrr"]);', "__out = evaluate(qrels, fused, [\"ndcg@10\", \"mrr\"]);"],
    afterScope: `const lab = await import("calibrank/lab");
      assert.equal(lab.__liveHandles(), 0);
      assert.deepEqual(Object.keys(__out).sort(), ["mrr", "ndcg@10"]);
      for (const v of Object.values(__out)) assert.ok(v > 0 && v < 1, String(v));`,
  },
  {
    // A model measured on held-out queries: the figures of its comment, and every handle freed.
    first: 'import { Run, Qrels, fitQueryConfidence, evaluateQueryConfidence } from "calibrank/lab";',
    run: "node",
    before: `import { readFileSync } from "node:fs";
      const at = (f) => readFileSync(${JSON.stringify(abstain)} + "/" + f, "utf8");
      const qrelsText = at("qrels.txt"), bm25Text = at("run.bm25.txt"), denseText = at("run.dense.txt");`,
    after: `assert.deepEqual([e.queries, e.positives, e.auroc.toFixed(3)], [73, 30, "0.946"]);
      const lab = await import("calibrank/lab");
      assert.equal(lab.__liveHandles(), 0);`,
  },
  {
    first: 'import { Pipeline } from "calibrank";',
    firstTwo: 'import { parseQrels, parseTrecRun, fitQueryConfidence } from "calibrank/lab";',
    run: "node",
    // The README's placeholders: cisi-abstain's files, and one judged query's two lists.
    before: `import { readFileSync } from "node:fs";
      const at = (f) => readFileSync(${JSON.stringify(abstain)} + "/" + f, "utf8");
      const qrelsText = at("qrels.txt"), bm25Text = at("run.bm25.txt"), denseText = at("run.dense.txt");
      const { parseTrecRun: parse } = await import("calibrank/lab");
      const q = Object.keys(parse(bm25Text))[0];
      const top = (run) => Object.entries(parse(run)[q]).sort((a, b) => b[1] - a[1]).slice(0, 20);
      const bm25Ids = top(bm25Text).map(([d]) => d), bm25Scores = top(bm25Text).map(([, s]) => s);
      const denseIds = top(denseText).map(([d]) => d), denseCosines = top(denseText).map(([, s]) => s);`,
    after: `assert.ok(["answer", "hedge", "abstain"].includes(out.outcome.kind), out.outcome.kind);
      assert.ok(out.outcome.probability >= 0 && out.outcome.probability <= 1);
      assert.equal(out.confidence.atLeastOneRelevant, out.outcome.probability);
      assert.equal(typeof JSON.parse(JSON.stringify(model)).method, "string");`,
  },
];

const readme = readFileSync(join(root, "README.md"), "utf8");
const examples = blocks(readme).filter((b) => b.lang === "js" || b.lang === "html");

/** The case of a block (by its first line, and second where two blocks share a first). */
function caseOf(b) {
  const [l1, l2] = b.code.split("\n");
  const found = CASES.filter((c) => c.first === l1 && (c.firstTwo === undefined || c.firstTwo === l2));
  const exact = found.filter((c) => c.firstTwo !== undefined);
  return exact.length === 1 ? exact[0] : found.length === 1 ? found[0] : undefined;
}

// The README's table of error codes ("Errors"): every code of errorCodes() has a row,
// and each row's example throws its code, run as written with the package's exports.
test("the README's table of error codes: every code, and each example throws it", async () => {
  const core = await import("calibrank");
  const lab = await import("calibrank/lab");
  const text = readFileSync(join(root, "README.md"), "utf8");
  const from = text.indexOf("\n## Errors\n");
  const errors = text.slice(from, text.indexOf("\n## ", from + 1));
  // Rows `| `CODE` | when | `example` (lab)? |` (no cell holds a `|`).
  const rows = errors
    .split("\n")
    .filter((l) => /^\| `[A-Z_]+` \|/.test(l))
    .map((l) => {
      const cells = l.split("|").slice(1, -1).map((c) => c.trim());
      assert.equal(cells.length, 3, l);
      const m = /^`([^`]+)`( \(lab\))?$/.exec(cells[2]);
      return [cells[0].slice(1, -1), m?.[1], m?.[2] !== undefined];
    });
  assert.deepEqual(rows.map(([code]) => code), core.errorCodes(), "one row per code, in errorCodes()'s order");
  // An example marked (lab) runs with calibrank/lab's exports alone, any other with
  // calibrank's alone: the mark says where the function comes from.
  let run = 0;
  for (const [code, example, fromLab] of rows) {
    if (example === undefined) continue;
    const scope = fromLab ? lab : core;
    const names = Object.keys(scope).filter((n) => /^[A-Za-z]\w*$/.test(n));
    const call = new Function(...names, `return (${example});`);
    assert.throws(() => call(...names.map((n) => scope[n])), (e) => e instanceof core.ScoreError && e.code === code, `${code}: ${example}`);
    run++;
  }
  assert.equal(run, core.errorCodes().length - 2, "every code but INTERNAL and REENTRANT_CALL has an example");
});

test("every js and html block of the README is run by this test", () => {
  assert.ok(examples.length >= 8, `found ${examples.length} blocks`);
  for (const b of examples) assert.ok(caseOf(b), `README.md line ${b.line}: no case runs this block (add one to CASES)`);
  const used = new Set(examples.map(caseOf));
  for (const c of CASES) assert.ok(used.has(c), `a case matches no README block any more: ${c.first}`);
});

/** The block's imports hoisted (static imports must stay at the top of a module). */
function splitImports(code) {
  const imports = [];
  const rest = [];
  for (const line of code.split("\n")) (/^import /.test(line) ? imports : rest).push(line);
  return { imports: imports.join("\n"), rest: rest.join("\n") };
}

/** Runs `source` (a file under target/readme) with `cmd`; fails with its output. */
function runScript(name, source, cmd, args = []) {
  mkdirSync(work, { recursive: true });
  const file = join(work, name);
  writeFileSync(file, source);
  try {
    execFileSync(cmd, [...args, file], { cwd: root, stdio: "pipe", timeout: 120_000 });
  } catch (e) {
    assert.fail(`${name} failed:\n${e.stdout ?? ""}\n${e.stderr ?? ""}\n--- script ---\n${source}`);
  }
}

for (const b of examples) {
  const c = caseOf(b);
  if (!c) continue;
  const name = `README.md line ${b.line} (${c.run})`;
  if (c.run === "node" && c.module) {
    test(name, () => {
      // The block is a module of its own; the checks import it.
      runScript(`block-${b.line}.mjs`, b.code, process.execPath);
      const check = `import assert from "node:assert/strict";\nconst __block = await import("./block-${b.line}.mjs");\n${c.after}\n`;
      runScript(`check-${b.line}.mjs`, check, process.execPath);
    });
  } else if (c.run === "node") {
    for (const v of c.variants ?? [{ ext: "mjs" }]) {
      test(`${name}, ${v.ext}`, () => {
        let lines = b.code.split("\n");
        if (v.drop) lines = lines.filter((l) => !v.drop.test(l));
        if (v.uncomment) {
          assert.equal(lines.filter((l) => v.uncomment.test(l)).length, 1, `the block no longer holds ${v.uncomment}`);
          lines = lines.map((l) => (v.uncomment.test(l) ? l.slice(3) : l));
        }
        const code = lines.join("\n");
        const src =
          v.ext === "cjs"
            ? `const assert = require("node:assert/strict");\n${c.before ?? ""}\n${code}\n${c.after ?? ""}\n`
            : (() => {
                const { imports, rest } = splitImports(code);
                return `import assert from "node:assert/strict";\n${imports}\n${c.before ?? ""}\n${rest}\n${c.after ?? ""}\n`;
              })();
        runScript(`block-${b.line}.${v.ext}`, src, process.execPath);
      });
    }
  } else if (c.run === "deno") {
    const deno = join(root, "node_modules", ".bin", "deno");
    test(name, () => {
      const code = c.drop ? b.code.split("\n").filter((l) => !c.drop.test(l)).join("\n") : b.code;
      assert.ok(!c.drop || code !== b.code, `the block no longer holds ${c.drop}`);
      const { imports, rest } = splitImports(code);
      const [from, to] = c.capture;
      assert.ok(rest.includes(from), `the block no longer holds: ${from}`);
      const src = `import assert from "node:assert/strict";\n${imports}\n${c.before}\nlet __out;\n{\n${rest.replace(from, to)}\n}\n${c.afterScope}\n`;
      runScript(`block-${b.line}.mjs`, src, deno, ["run", "--allow-read", "--allow-env"]);
    });
  } else if (c.run === "chromium" || c.run === "chromium-html" || c.run === "chromium-worker") {
    test(name, async () => {
      const site = join(work, `site-${b.line}`);
      rmSync(site, { recursive: true, force: true });
      mkdirSync(site, { recursive: true });
      for (const f of ["calibrank_core.wasm", "calibrank_lab.wasm", "calibrank_pipeline.wasm"]) copyFileSync(join(pkg, f), join(site, f));
      if (c.run === "chromium-worker") {
        let code = b.code;
        for (const [from, to] of c.replace) {
          assert.ok(code.includes(from), `the block no longer holds ${from}`);
          code = code.replace(from, to);
        }
        writeFileSync(join(site, "worker.js"), code);
      }
      const page =
        c.run === "chromium"
          ? `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="importmap">${JSON.stringify({ imports: c.importmap })}</script>
<script type="module">\n${b.code}\n${c.after}\n</script>`
          : c.run === "chromium-worker"
            ? `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">\n<script type="module">\n${c.page}\n</script>`
            : `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">\n${b.code}`;
      writeFileSync(join(site, "index.html"), page);
      const { server, url } = await serve(site, { mounts: { "/node_modules/calibrank/": pkg } });
      const browser = await launch();
      try {
        const { page: p, errors } = await newPageWithErrors(browser);
        const logs = [];
        p.on("console", (m) => m.type() === "log" && logs.push(m));
        await p.goto(`${url}/`);
        if (c.expect) {
          await p.waitForFunction(() => window.__result !== undefined, null, { timeout: 60_000 });
          assert.deepEqual(await p.evaluate(() => window.__result), c.expect);
        } else {
          await p.waitForFunction(() => document.readyState === "complete", null, { timeout: 60_000 });
          const deadline = Date.now() + 30_000;
          while (logs.length < c.expectLog.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
          // A logged object's value, as the page holds it.
          const values = await Promise.all(logs.map((m) => m.args()[0].jsonValue()));
          assert.deepEqual(values.map((v) => JSON.stringify(v)), c.expectLog);
        }
        assert.deepEqual(errors, []);
      } finally {
        await browser.close();
        server.close();
      }
    });
  }
}
