// Shared by the score playground's tests (tests/js/playground/*.test.mjs, one file per area
// of the page): the reference computed in Node (every value the page shows must be the
// package's own output for the same input and config), the page helpers, and
// `playgroundTest`, which serves www/, launches Chromium and opens the page for a file's
// subtests.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as core from "calibrank";
import * as lab from "calibrank/lab";
import { serve } from "../serve.mjs";
import { launch } from "../chromium.mjs";
import { cisiInput } from "../../../www/presets.js";

export { lab };
export { buildPreset, cisiInput, OOD_SHOWCASE } from "../../../www/presets.js";

// The page uses both entries (the core, and where a panel needs it the lab: evaluation,
// fitting, a fitted calibration's curve, the TREC import); so does the reference computed here.
export const lib = { ...lab, ...core };
export const root = fileURLToPath(new URL("../../..", import.meta.url));
export const samplePath = join(root, "www/data/cisi-sample.json");
export const sample = JSON.parse(readFileSync(samplePath, "utf8"));
export const BAND_COLORS = { hit: "#17803d", degraded: "#c26a00", miss: "#8a94a6" };
export const XSS = "<img src=x onerror=alert(1)>";
export const PRESET = "cisi-1";

export const run = (config, input) => {
  const p = new lib.Pipeline(config);
  try {
    return { out: p.run(input), effective: p.config };
  } finally {
    p.free();
  }
};

/** The real run plus the whole topK pool (what the page shows faded as "dropped"). */
export function expected(config, input) {
  const { out, effective } = run(config, input);
  const pool = run({ ...config, minConfidence: 0, topN: effective.topK, normalization: { ...(config.normalization || {}), minRelevance: 0 } }, input).out;
  return { out, effective, pool };
}

/** The sample's (raw, calibrated, label) triples through `config`, as the page builds them. */
export function sampleTriples(config) {
  const raws = [];
  const probs = [];
  const labels = [];
  const effective = run(config, { lists: [{ name: "x", ids: ["a"] }] }).effective;
  for (const q of sample.queries) {
    const pool = run({ ...config, minConfidence: 0, topN: effective.topK, normalization: { ...(config.normalization || {}), minRelevance: 0 } }, cisiInput(sample, q)).out;
    for (const r of pool.results) {
      raws.push(r.explain.normalized);
      probs.push(r.score);
      labels.push((q.qrels[r.id] || 0) > 0 ? 1 : 0);
    }
  }
  return { raws, probs, labels };
}

export async function ready(page) {
  await page.waitForSelector("html[data-ready=true]", { timeout: 60_000 });
}

/**
 * Waits until the address holds the page's current state (its own debounced write, 250 ms
 * after the last edit, done): a link read after it is this state's, however slow the
 * machine. Returns the hash.
 */
export async function addressHolds(page) {
  return page.evaluate(async () => {
    const { encodeState } = await import("./url-state.js");
    for (;;) {
      const hash = await encodeState(globalThis.__playground.state);
      if (location.hash === hash) return hash;
      await new Promise((ok) => setTimeout(ok, 50));
    }
  });
}

/**
 * Waits, 10 s at most, until `fn(arg)` holds in the page (a panel rebuilt after its
 * debounce, a notice written). A timeout is not an error here: the assertion that
 * follows fails with its own message.
 */
export async function until(page, fn, arg) {
  await page.waitForFunction(fn, arg, { timeout: 10_000 }).catch(() => {});
}

/** Waits until the page has recomputed (a frame after an edit). */
export async function settle(page) {
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
}

/**
 * Types `value` into the control `selector`, and checks that the package's error names
 * `field` and marks that control aria-invalid.
 */
export async function assertMarked(page, selector, value, field) {
  await page.fill(selector, value);
  await settle(page);
  assert.equal(await page.textContent("#problem [data-error-field]"), field);
  assert.equal(await page.getAttribute(selector, "aria-invalid"), "true");
}

/**
 * Checks the calibration curve drawn on `page` (its data-points): at least `minPoints`
 * points, each y bit for bit what `calibrate(xs)` gives here.
 */
export async function assertCurve(page, calibrate, minPoints = 11) {
  const points = JSON.parse(await page.getAttribute('#curve-chart [data-role="curve"]', "data-points"));
  assert.ok(points.length >= minPoints, `the curve has points: ${points.length}`);
  const ys = calibrate(points.map((p) => p[0]));
  points.forEach((p, i) => assert.equal(p[1], ys[i]));
}

export async function pickPreset(page, id) {
  await page.selectOption("#preset", id);
  await page.waitForFunction((p) => globalThis.__playground?.state?.preset === p, id);
  await settle(page);
}

/** Whether the focused element matches `selector`. */
export const focusedIs = (page, selector) => page.evaluate((sel) => Boolean(document.activeElement?.matches(sel)), selector);

/** The texts of the elements an element's aria-describedby names. */
export const describedBy = (page, selector) =>
  page.$eval(selector, (el) => (el.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean).map((id) => document.getElementById(id)?.textContent ?? null));

export const overlapping = (a, b) => a[0] < b[2] - 0.5 && b[0] < a[2] - 0.5 && a[1] < b[3] - 0.5 && b[1] < a[3] - 0.5;

/**
 * Per svg matching `selector`: its texts, those that reach past its edges (`outside`), and
 * the first text of each overlapping pair (`clashes`).
 */
export async function textLayout(page, selector) {
  const layouts = await page.$$eval(selector, (svgs) => svgs.map((svg) => {
    const box = svg.getBoundingClientRect();
    const texts = [...svg.querySelectorAll("text")].filter((t) => t.textContent.trim() && t.getBoundingClientRect().width > 0);
    const rects = texts.map((t) => t.getBoundingClientRect());
    const outside = texts.filter((t, i) => rects[i].left < box.left - 1 || rects[i].right > box.right + 1).map((t) => t.textContent);
    return { outside, rects: rects.map((r) => [r.left, r.top, r.right, r.bottom]), texts: texts.map((t) => t.textContent) };
  }));
  return layouts.map(({ outside, rects, texts }) => ({
    outside,
    texts,
    clashes: rects.flatMap((a, i) => rects.slice(i + 1).filter((b) => overlapping(a, b)).map(() => texts[i])),
  }));
}

/** WCAG contrast ratio of two "rgb(r, g, b)" colours. */
export function contrast(c1, c2) {
  const lum = (c) => {
    const [r, g, b] = c.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [lum(c1), lum(c2)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}

export const rankingRows = (page) =>
  page.$$eval("#ranking-table tbody tr", (trs) => trs.map((tr) => ({ ...tr.dataset, idText: tr.querySelector("th").textContent })));

// The query-confidence protocol of the page, rebuilt here: every other judged sample query
// (in the sample's order) to fit, the rest held out.
const judged = sample.queries.filter((q) => Object.keys(q.qrels).length > 0);
const fitHalf = judged.filter((_, i) => i % 2 === 0);
export const heldOutHalf = judged.filter((_, i) => i % 2 === 1);
const asRun = (list) => Object.fromEntries(list.ids.map((id, i) => [id, list.scores[i]]));
export function referenceModel() {
  const qrels = Object.fromEntries(fitHalf.map((q) => [q.id, q.qrels]));
  const runs = sample.runs.map((name) => Object.fromEntries(fitHalf.map((q) => [q.id, asRun(q.runs[name])])));
  return lab.fitQueryConfidence(qrels, runs);
}
/** A ranking as a run whose scores leave no tie (n for the first, down to 1). */
/** The sample's judgements and its runs (their scores), as the optimizer panel sends them. */
export const sampleQrels = Object.fromEntries(sample.queries.map((q) => [q.id, q.qrels]));
export const sampleRuns = sample.runs.map((name) => Object.fromEntries(sample.queries.map((q) => [q.id, Object.fromEntries(q.runs[name].ids.map((id, i) => [id, q.runs[name].scores[i]]))])));

export const rankingRun = (ids) => Object.fromEntries(ids.map((id, i) => [id, ids.length - i]));
/** nDCG@k of a ranking, by its definition (linear gains, as ranx's ndcg). */
export function ndcgOf(ids, qrels, k = 10) {
  const dcg = (gains) => gains.slice(0, k).reduce((s, g, i) => s + g / Math.log2(i + 2), 0);
  const ideal = dcg(Object.values(qrels).filter((g) => g > 0).sort((a, b) => b - a));
  return ideal ? dcg(ids.map((id) => Math.max(0, qrels[id] || 0))) / ideal : 0;
}
export const withModel = (config, model) => ({ ...config, confidence: { ...(config.confidence || {}), model } });

/**
 * Serves www/ (pkg/ mounted at /pkg/), launches Chromium and opens the playground at
 * 1280 x 900, ready. `watch(page)` makes a page's uncaught and console errors land in
 * `errors`, its dialogs (dismissed) in `dialogs`, and the .wasm files it and its worker
 * fetch in `wasmRequests`, in order; the page opened here is watched. `close()` closes
 * the browser and the server.
 */
export async function startPlayground() {
  const { server, url } = await serve(join(root, "www"), { mounts: { "/pkg/": join(root, "pkg") } });
  let browser;
  const close = async () => {
    await browser?.close();
    server.close();
  };
  const errors = [];
  const dialogs = [];
  const wasmRequests = []; // the .wasm files fetched by the page and its worker, in order
  const watch = (page) => {
    page.on("request", (r) => {
      const path = new URL(r.url()).pathname;
      if (path.endsWith(".wasm")) wasmRequests.push(path);
    });
    page.on("pageerror", (e) => errors.push(`pageerror: ${e}`));
    page.on("console", (m) => m.type() === "error" && errors.push(`console: ${m.text()}`));
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      d.dismiss().catch(() => {});
    });
  };
  try {
    browser = await launch();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    watch(page);
    await page.goto(`${url}/`);
    await ready(page);
    return { url, browser, page, errors, dialogs, wasmRequests, watch, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/**
 * A file's test: `body(t, playground)` runs the file's subtests (t.test) on the page of
 * `startPlayground()`, one after another, each free to start from the state the one
 * before left. Then, whatever they gave, no page the file watched may have logged an
 * error or opened a dialog.
 */
export function playgroundTest(name, body) {
  return test(name, async (t) => {
    const playground = await startPlayground();
    try {
      await body(t, playground);
      assert.deepEqual(playground.errors, []);
      assert.deepEqual(playground.dialogs, []);
    } finally {
      await playground.close();
    }
  });
}
