// The score playground (www/) in headless Chromium: the presets and what the page shows of
// the pipeline's output (the ranking, the stage charts, the calibration curve, relative vs
// absolute scores, the reliability diagram, nDCG@10, the summary), the multi-query and
// bands modes, and which .wasm each page fetches. Every value shown must be the package's
// own output for the same input and config, computed here in Node.
// The subtests share one page, in order: the first two read the page as it loads (seed
// 000, the core's .wasm alone), those from "the CISI preset's ranking ..." to "the chart
// explains ..." the CISI preset the first of them picks; the others pick their preset.
import test from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import {
  lib, lab, samplePath, sample, BAND_COLORS, PRESET, run, expected, sampleTriples, ready,
  settle, assertCurve, pickPreset, describedBy, textLayout, rankingRows, rankingRun, ndcgOf,
  buildPreset, cisiInput, OOD_SHOWCASE, playgroundTest,
  addressHolds,
} from "./helpers.mjs";
import { buildSample, serialize, CISI_DIR, ABSTAIN_DIR } from "../../../scripts/make-cisi-sample.mjs";

const dataMissing = [CISI_DIR, ABSTAIN_DIR].find((d) => !existsSync(d));
test("the CISI sample is the committed script's output", { skip: dataMissing && `${dataMissing} is not here` }, () => {
  const text = readFileSync(samplePath, "utf8");
  assert.equal(text, serialize(buildSample()) + "\n");
  // Small enough to fetch with the page (1.5 times the 8-query sample of 29,995 bytes).
  assert.ok(text.length <= 45_000, `${text.length} bytes`);
  assert.ok(sample.queries.length >= 12 && sample.queries.length <= 24);
  for (const q of sample.queries) {
    assert.equal(q.runs.bm25.ids.length, 20);
    assert.equal(q.runs.dense.ids.length, 20);
    assert.ok(Object.keys(q.qrels).length > 0, `query ${q.id} is judged`);
  }
  // Out-of-domain queries: judged, nothing relevant.
  const ood = sample.queries.filter((q) => q.id.startsWith("ood"));
  assert.ok(ood.length >= 4);
  for (const q of ood) assert.ok(Object.values(q.qrels).every((g) => g === 0), q.id);
  assert.ok(ood.some((q) => q.id === OOD_SHOWCASE));
});

playgroundTest("score playground in headless Chromium: presets, pipeline outputs and charts", async (t, { page, browser, errors, wasmRequests, watch }) => {
  const state = buildPreset(PRESET, sample);
  const exp = expected(state.config, state.input);

  await t.test("it loads the default preset (seed 000) with the package", async () => {
    const state = buildPreset("seed-000", sample);
    const { out } = expected(state.config, state.input);
    const rows = await rankingRows(page);
    assert.deepEqual(rows.map((r) => r.id), out.results.map((r) => r.id));
    assert.deepEqual(rows.map((r) => Number(r.score)), out.results.map((r) => r.score));
    const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', "content");
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
    assert.doesNotMatch(csp.match(/script-src[^;]*/)[0], /unsafe-inline/);
  });

  await t.test("the default seed page fetches the core only; its sigmoid curve is the lab's applyCalibration bit for bit", async () => {
    assert.deepEqual(wasmRequests, ["/pkg/calibrank_core.wasm"]);
    const seed = buildPreset("seed-000", sample);
    const { effective } = run(seed.config, seed.input);
    await assertCurve(page, (xs) => lab.applyCalibration(xs, effective.calibration));
  });

  await t.test("the CISI preset's ranking is the package's output", async () => {
    await pickPreset(page, PRESET);
    const rows = await rankingRows(page);
    assert.equal(rows.length, exp.out.results.length);
    assert.ok(rows.length >= 5, "the preset returns results");
    exp.out.results.forEach((r, i) => {
      const row = rows[i];
      assert.equal(row.id, r.id);
      assert.equal(row.idText, r.id);
      assert.equal(Number(row.rank), i + 1);
      assert.equal(Number(row.score), r.score, `score of ${r.id}`);
      assert.equal(row.band, r.band);
      assert.equal(Number(row.fused), r.explain.fused);
      assert.equal(Number(row.afterRecency), r.explain.afterRecency);
      assert.equal(Number(row.afterRerank), r.explain.afterRerank);
      assert.equal(Number(row.normalized), r.explain.normalized);
      assert.equal(Number(row.judgement), state.judgements[r.id] || 0);
    });
    const figures = await page.$$eval("#result .metric", (els) => Object.fromEntries(els.map((e) => [e.dataset.key, Number(e.dataset.value)])));
    assert.equal(figures.weightedTop5, exp.out.confidence.weightedTop5);
    assert.equal(figures.expectedPrecision, exp.out.confidence.expectedPrecision);
    assert.equal(figures.atLeastOneRelevant, exp.out.confidence.atLeastOneRelevant);
    assert.equal(figures.ndcg10, lib.evaluate({ q: state.judgements }, { q: rankingRun(exp.out.results.map((r) => r.id)) }, ["ndcg@10"])["ndcg@10"]);
    const stats = JSON.parse(await page.getAttribute("#result .stats", "data-stats"));
    assert.deepEqual(stats, exp.out.stats);
  });

  await t.test("the stage charts draw the package's explain values", async () => {
    const marks = await page.$$eval("#stage-chart [data-stage]", (els) => els.map((e) => ({ ...e.dataset, tag: e.tagName })));
    const byStage = (stage) => new Map(marks.filter((m) => m.stage === stage).map((m) => [m.id, m]));
    const shown = [...exp.out.results, ...exp.pool.results.filter((p) => !exp.out.results.some((r) => r.id === p.id))];
    for (const stage of ["afterRecency", "afterRerank", "normalized", "calibrated"]) {
      const m = byStage(stage);
      assert.equal(m.size, shown.length, `${stage}: one bar per candidate`);
      for (const r of shown) assert.equal(Number(m.get(r.id).value), r.explain[stage], `${stage} of ${r.id}`);
    }
    const fused = byStage("fused");
    for (const r of shown) assert.equal(Number(fused.get(r.id).value), r.explain.fused);
    const contributions = marks.filter((m) => m.stage === "contribution");
    for (const r of exp.out.results) {
      for (const c of r.explain.contributions) {
        const m = contributions.find((x) => x.id === r.id && x.list === c.list);
        assert.ok(m, `contribution ${r.id} ${c.list}`);
        assert.equal(Number(m.rank), c.rank);
        assert.equal(Number(m.value), c.contribution);
      }
    }
    // Returned results are drawn at full strength, dropped ones faded.
    const returned = marks.filter((m) => m.stage === "calibrated" && m.returned === "true").map((m) => m.id);
    assert.deepEqual(returned, exp.out.results.map((r) => r.id));
  });

  await t.test("the normalization panel says what the pool gave it (output.pool)", async () => {
    // On a page of its own (this page's state, by its link), left as it was.
    await addressHolds(page);
    const fresh = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // Its errors counted, not its .wasm requests (the tests of which .wasm a page fetches
    // count this file's main page's).
    fresh.on("pageerror", (e) => errors.push(`pageerror: ${e}`));
    fresh.on("console", (m) => m.type() === "error" && errors.push(`console: ${m.text()}`));
    try {
      await fresh.goto(await page.evaluate(() => location.href));
      await ready(fresh);
      const select = '#controls select[data-path="config.normalization.method"]';
      const note = () => fresh.$eval('#stage-chart [data-panel="normalized"] .panel-note', (e) => e.textContent);
      assert.match(await note(), /^normalization: none/);
      // Its group opened, as a user does.
      await fresh.$eval(select, (e) => {
        for (let d = e.closest("details"); d; d = d.parentElement.closest("details")) d.open = true;
      });
      await fresh.selectOption(select, "min_max");
      await fresh.waitForFunction(() => globalThis.__playground.result?.effective?.normalization?.method === "min_max");
      await settle(fresh);
      const shown = await fresh.evaluate(() => globalThis.__playground.result);
      const { out } = run(shown.effective, await fresh.evaluate(() => globalThis.__playground.state.input));
      const { candidates, normalization } = out.pool;
      assert.equal(normalization.method, "min_max");
      assert.deepEqual(shown.pool, out.pool);
      const text = await note();
      assert.ok(text.startsWith(`min_max over ${candidates} candidates (min `), text);
      // The figures as the page rounds them (four significant digits).
      const [min, max] = [...text.matchAll(/(?:min|max) (-?[\d.]+(?:e-?\d+)?)/g)].map((m) => Number(m[1]));
      const near = (shownValue, v) => Math.abs(shownValue - v) <= 5e-4 * Math.abs(v);
      assert.ok(near(min, normalization.min) && near(max, normalization.max), `${text} against ${JSON.stringify(normalization)}`);
    } finally {
      await fresh.close();
    }
  });

  await t.test("the calibration curve is the package's sigmoid, with the results on it", async () => {
    const cal = exp.effective.calibration;
    await assertCurve(page, (xs) => lib.calibrate(xs, { threshold: cal.threshold, steepness: cal.steepness }), 200);
    const dots = await page.$$eval('#curve-chart circle[data-stage="curve"]', (els) => els.map((e) => ({ ...e.dataset, fill: e.getAttribute("fill") })));
    for (const r of exp.out.results) {
      const d = dots.find((x) => x.id === r.id);
      assert.ok(d, `dot of ${r.id}`);
      assert.equal(Number(d.value), r.score);
      assert.equal(Number(d.raw), r.explain.normalized);
      assert.equal(d.band, r.band);
      assert.equal(d.fill, BAND_COLORS[r.band]);
    }
    const floors = await page.$$eval("#curve-chart [data-floor]", (els) => els.map((e) => Number(e.dataset.value)));
    assert.deepEqual(floors.sort(), [exp.effective.bands.degradedFloor, exp.effective.bands.highFloor].sort());
  });

  await t.test("relative vs absolute: normalize(max) and calibration on the same results", async () => {
    const shown = [...exp.out.results, ...exp.pool.results.filter((p) => !exp.out.results.some((r) => r.id === p.id))];
    const relative = lib.normalize(shown.map((r) => r.explain.afterRerank), "max");
    const rel = await page.$$eval('#relative-chart [data-stage="relative"]', (els) => els.map((e) => [e.dataset.id, Number(e.dataset.value)]));
    const abs = await page.$$eval('#absolute-chart [data-stage="absolute"]', (els) => els.map((e) => [e.dataset.id, Number(e.dataset.value)]));
    assert.deepEqual(rel, shown.map((r, i) => [r.id, relative[i]]));
    assert.deepEqual(abs, shown.map((r) => [r.id, r.score]));
  });

  await t.test("the reliability diagram is calibrationError over the judged sample", async () => {
    const { probs, labels } = sampleTriples(state.config);
    const report = lib.calibrationError(probs, labels, { bins: 10, strategy: "uniform" });
    const m = await page.$$eval("#evaluation .metric", (els) => Object.fromEntries(els.map((e) => [e.dataset.key, Number(e.dataset.value)])));
    assert.equal(m.ece, report.ece);
    assert.equal(m.mce, report.mce);
    assert.equal(m.brier, report.brier);
    assert.equal(m.logLoss, report.logLoss);
    assert.equal(m.auroc, report.auroc);
    assert.ok(report.auroc > 0.5 && report.auroc < 1, `the sample's AUROC ${report.auroc}`);
    const dots = await page.$$eval("#reliability-chart circle[data-bin]", (els) => els.map((e) => ({ bin: Number(e.dataset.bin), count: Number(e.dataset.count), mean: Number(e.dataset.mean), fraction: Number(e.dataset.fraction) })));
    const nonEmpty = report.bins.map((b, i) => ({ ...b, i })).filter((b) => b.count > 0);
    assert.deepEqual(dots, nonEmpty.map((b) => ({ bin: b.i, count: b.count, mean: b.meanConfidence, fraction: b.fractionPositive })));
    // A dot's area is in proportion to its bin's count (r^2 / count the same for all).
    const areas = await page.$$eval("#reliability-chart circle[data-bin]", (els) => els.map((e) => Number(e.getAttribute("r")) ** 2 / Number(e.dataset.count)));
    for (const a of areas) assert.ok(Math.abs(a / areas[0] - 1) < 1e-6, `area per count ${a} vs ${areas[0]}`);
    // Counts are the dots' areas, not labels that collide; the cursor reads each bin.
    for (const [bins, strategy] of [[10, "quantile"], [20, "quantile"], [10, "uniform"]]) {
      await page.selectOption("#evaluation .field-row select >> nth=0", String(bins));
      await page.selectOption("#evaluation .field-row select >> nth=1", strategy);
      await settle(page);
      const [layout] = await textLayout(page, "#reliability-chart svg");
      assert.ok(!layout.texts.some((x) => x.startsWith("n=")), "no n= labels");
      assert.deepEqual(layout.clashes, [], `${bins} ${strategy} bins`);
    }
    await page.focus("#reliability-chart");
    await page.keyboard.press("ArrowRight");
    const b = nonEmpty[1];
    assert.equal(await page.textContent("#tip"), `${b.lower.toFixed(2)}–${b.upper.toFixed(2)}: n=${b.count}, mean ${b.meanConfidence.toFixed(3)}, ${(b.fractionPositive * 100).toFixed(1)}% relevant`);
    await page.keyboard.press("Escape");
  });

  await t.test("moving a band floor re-colours the results at once", async () => {
    const floor = page.locator('#calibration input[type="number"][data-path="config.bands.highFloor"]');
    await floor.fill("0.8");
    await settle(page);
    let exp2 = expected({ ...state.config, bands: { highFloor: 0.8 } }, state.input).out;
    let rows = await rankingRows(page);
    assert.deepEqual(rows.map((r) => r.band), exp2.results.map((r) => r.band));
    assert.notDeepEqual(exp2.results.map((r) => r.band), exp.out.results.map((r) => r.band), "the move changes some band");
    let dots = await page.$$eval('#curve-chart circle[data-stage="curve"][data-returned="true"]', (els) => els.map((e) => [e.dataset.id, e.dataset.band, e.getAttribute("fill")]));
    assert.deepEqual(dots, exp2.results.map((r) => [r.id, r.band, BAND_COLORS[r.band]]));
    // The slider, by keyboard: five steps of 0.01 down, to 0.75.
    const slider = page.locator('#calibration input[type="range"][data-path="config.bands.highFloor"]');
    await slider.focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowLeft");
    await settle(page);
    assert.equal(await floor.inputValue(), "0.75");
    const hf = await page.evaluate(() => globalThis.__playground.state.config.bands.highFloor);
    exp2 = expected({ ...state.config, bands: { highFloor: hf } }, state.input).out;
    rows = await rankingRows(page);
    assert.deepEqual(rows.map((r) => r.band), exp2.results.map((r) => r.band));
    dots = await page.$$eval('#stage-chart rect[data-stage="calibrated"][data-returned="true"]', (els) => els.map((e) => [e.dataset.id, e.dataset.band, e.getAttribute("fill")]));
    assert.deepEqual(dots, exp2.results.map((r) => [r.id, r.band, BAND_COLORS[r.band]]));
  });

  await t.test("the chart explains a result on keyboard focus", async () => {
    await page.focus("#stage-chart");
    await page.keyboard.press("ArrowDown");
    const tip = await page.textContent("#tip");
    assert.ok(await page.isVisible("#tip"));
    const second = exp.out.results[1];
    assert.ok(tip.includes(second.id), tip);
    for (const c of second.explain.contributions) assert.ok(tip.includes(`${c.list} rank ${c.rank}`), tip);
    await page.keyboard.press("Escape");
    assert.ok(await page.isHidden("#tip"));
  });

  await t.test("seed 001 goes through fuseMultiQuery, seed 002 through classifyBand", async () => {
    const mq = buildPreset("seed-001-rrf", sample);
    await pickPreset(page, "seed-001-rrf");
    const fused = lib.fuseMultiQuery(mq.multi.queries, { ...mq.multi.options, verbose: true }).results;
    const rows = await page.$$eval("#multi-table tbody tr", (trs) => trs.map((tr) => [tr.dataset.id, Number(tr.dataset.score)]));
    assert.deepEqual(rows, fused.map((r) => [r.id, r.score]));
    assert.equal(rows[0][0], "A", "A (ranks 3 and 1) beats B (rank 1 once)");
    await pickPreset(page, "seed-002");
    const bands = await page.$$eval("#bands-table tbody tr", (trs) => trs.map((tr) => [Number(tr.dataset.score), tr.dataset.band]));
    assert.deepEqual(bands, [0.95, 0.75, 0.4].map((s) => [s, lib.classifyBand(s).kind]));
    assert.deepEqual(bands.map((b) => b[1]), ["hit", "degraded", "miss"]);
  });

  await t.test("empty multi-query and bands inputs say why nothing is shown", async () => {
    await pickPreset(page, "seed-001-rrf");
    const box = "#" + (await page.getAttribute('label:has-text("Queries (JSON)")', "for"));
    const applyQueries = async (queries) => {
      await page.fill(box, JSON.stringify(queries));
      await page.click("#apply-multi-json");
      await settle(page);
    };
    await page.fill(box, "[ not json");
    await page.click("#apply-multi-json");
    assert.equal(await page.getAttribute(box, "aria-invalid"), "true");
    assert.match((await describedBy(page, box)).join(" "), /Invalid JSON/);
    await applyQueries([]);
    assert.equal(await page.getAttribute(box, "aria-invalid"), null);
    assert.equal(await page.getAttribute("#multi-chart [data-empty]", "data-empty"), "no-hits");
    assert.equal(await page.$$eval("#multi-table tbody tr", (trs) => trs.length), 0);
    // The chart's keyboard cursor has nothing left to show (it kept the last result's ids).
    await page.focus("#multi-chart");
    await page.keyboard.press("ArrowDown");
    assert.ok(await page.isHidden("#tip"), "no tooltip of a result no longer shown");
    // A hit under the default similarityThreshold (0.6): dropped, and the page says so.
    await applyQueries([[{ id: "a", score: 0.1 }]]);
    assert.equal(await page.getAttribute("#multi-chart [data-empty]", "data-empty"), "below-threshold");
    await applyQueries([[{ id: "a", score: 0.9 }]]);
    assert.equal(await page.$$eval("#multi-chart [data-empty]", (els) => els.length), 0);
    assert.equal(await page.$$eval("#multi-table tbody tr", (trs) => trs.length), 1);
    await pickPreset(page, "seed-002");
    const scores = "#" + (await page.getAttribute('label:has-text("Scores")', "for"));
    await page.fill(scores, "0.9, x");
    assert.equal(await page.getAttribute(scores, "aria-invalid"), "true");
    assert.match((await describedBy(page, scores)).join(" "), /numbers/);
    await page.fill(scores, "");
    await settle(page);
    assert.equal(await page.getAttribute(scores, "aria-invalid"), null);
    assert.equal(await page.getAttribute("#bands-chart [data-empty]", "data-empty"), "no-scores");
    assert.equal(await page.$$eval("#bands-table", (els) => els.length), 0);
    await page.fill(scores, "0.9, 0.1");
    await settle(page);
    assert.equal(await page.$$eval("#bands-table tbody tr", (trs) => trs.length), 2);
    // A negative cosine similarity is a miss, drawn on the strip's axis from -1.
    await page.fill(scores, "0.9, -0.5");
    await settle(page);
    assert.ok(await page.isHidden("#problem"));
    assert.equal(await page.$$eval("#bands-table tbody tr", (trs) => trs.length), 2);
    assert.match(await page.textContent("#bands-table tbody tr:last-child"), /miss/);
    // Text that cannot be read after scores the package refused: the problem box says
    // the text's error, not the package's about the scores before.
    await page.fill(scores, "-2");
    await settle(page);
    assert.equal(await page.getAttribute("#problem [data-error-code]", "data-error-code"), "OUT_OF_RANGE");
    await page.fill(scores, "0.9 abc");
    await settle(page);
    assert.equal(await page.$$eval("#problem [data-error-code]", (els) => els.length), 0, await page.textContent("#problem"));
    assert.match(await page.textContent("#problem"), /The scores could not be read.*Not a finite number: abc/);
    assert.ok(await page.$eval("#outputs", (el) => el.classList.contains("stale")), "the outputs, of the scores before, marked stale");
    assert.deepEqual(await describedBy(page, scores), ["Scores are numbers separated by commas or spaces."]);
    await page.fill(scores, "0.9");
    await settle(page);
    assert.ok(await page.isHidden("#problem"));
    assert.equal(await page.getAttribute(scores, "aria-invalid"), null);
  });

  await t.test("a multi-query, bands or seed pipeline page fetches the core's .wasm only; the lab's comes with a panel that needs it", async () => {
    await pickPreset(page, "seed-002");
    await page.waitForFunction(() => location.hash.length > 3);
    await addressHolds(page);
    const link = await page.evaluate(() => location.href);
    const fresh = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    watch(fresh);
    const fetched = [];
    fresh.on("request", (r) => {
      const path = new URL(r.url()).pathname;
      if (path.endsWith(".wasm")) fetched.push(path);
    });
    await fresh.goto(link);
    await ready(fresh);
    await settle(fresh);
    assert.equal(await fresh.evaluate(() => globalThis.__playground.state.mode), "bands");
    assert.equal(await fresh.$$eval("#bands-table tbody tr", (trs) => trs.length), 3);
    await pickPreset(fresh, "seed-001-rrf");
    assert.ok((await fresh.$$eval("#multi-table tbody tr", (trs) => trs.length)) > 0);
    assert.deepEqual(fetched, ["/pkg/calibrank_core.wasm"], "the bands and multi-query modes need no lab");
    await pickPreset(fresh, "seed-000");
    const state = buildPreset("seed-000", sample);
    const rows = await rankingRows(fresh);
    assert.deepEqual(rows.map((r) => r.id), expected(state.config, state.input).out.results.map((r) => r.id));
    assert.deepEqual(fetched, ["/pkg/calibrank_core.wasm"], "the seed pipeline draws its sigmoid with the core");
    // A fitted calibration chosen by hand: its curve needs the lab's applyCalibration.
    await fresh.selectOption('#controls select[data-path="config.calibration.method"]', "platt");
    await fresh.waitForFunction(() => globalThis.__playground.result?.effective?.calibration?.method === "platt");
    await settle(fresh);
    assert.deepEqual(fetched, ["/pkg/calibrank_core.wasm", "/pkg/calibrank_lab.wasm"]);
    const platt = await fresh.evaluate(() => globalThis.__playground.result.effective.calibration);
    await assertCurve(fresh, (xs) => lab.applyCalibration(xs, platt));
    await fresh.close();

    // A fresh page of the default state whose lab .wasm is held until `release()`.
    const labHeld = async () => {
      const held = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      watch(held);
      let release;
      const gate = new Promise((ok) => (release = ok));
      await held.route("**/calibrank_lab.wasm", async (route) => {
        await gate;
        await route.continue();
      });
      await held.goto(link.replace(/#.*/, ""));
      await ready(held);
      return { held, release };
    };

    // Edits made while the lab loads: one rerun when it is in, with the last of them.
    const { held: burst, release: open } = await labHeld();
    await burst.selectOption('#controls select[data-path="config.calibration.method"]', "platt");
    await burst.waitForFunction(() => document.querySelector("#outputs").getAttribute("aria-busy") === "true");
    const before = await burst.evaluate(() => globalThis.__playground.computed);
    for (const n of ["2", "3", "4"]) {
      await burst.fill('#controls input[data-path="config.topN"]', n);
      await settle(burst);
    }
    assert.equal(await burst.evaluate(() => globalThis.__playground.computed), before, "nothing is computed before the lab is in");
    open();
    await burst.waitForFunction(() => globalThis.__playground.result?.effective?.calibration?.method === "platt");
    await settle(burst);
    await burst.waitForTimeout(200);
    assert.equal(await burst.evaluate(() => globalThis.__playground.computed), before + 1, "one rerun for the burst");
    assert.equal(await burst.evaluate(() => globalThis.__playground.result.effective.topN), 4);
    await burst.close();

    // A judged (CISI) preset from the default page: busy while the lab loads, then the toast.
    const { held: slow, release } = await labHeld();
    await slow.selectOption("#preset", PRESET);
    await slow.waitForFunction(() => document.querySelector("#outputs").getAttribute("aria-busy") === "true");
    // Dimmed like stale outputs (style.css) while busy.
    await slow.waitForFunction(() => getComputedStyle(document.querySelector("#outputs")).opacity === "0.45");
    assert.equal(await slow.textContent("#notice"), "Loading calibrank/lab…");
    release();
    await slow.waitForFunction((p) => globalThis.__playground.state.preset === p, PRESET);
    await settle(slow);
    assert.equal(await slow.getAttribute("#outputs", "aria-busy"), null);
    assert.ok(!(await slow.$eval("#outputs", (e) => e.classList.contains("stale"))));
    await slow.waitForFunction(() => getComputedStyle(document.querySelector("#outputs")).opacity === "1");
    assert.match(await slow.textContent("#notice"), /^Loaded preset: Q1/);
    assert.ok((await slow.$$eval("#evaluation .metric", (els) => els.length)) > 0, "the evaluation panel is built");
    await slow.close();
  });

  await t.test("the heuristic rerank's tooltip shows its factors and the rerank stage's fiscal-year multiplier, so the line adds up", async () => {
    const p6 = (x) => String(Number(x.toPrecision(6)));
    await pickPreset(page, "seed-004");
    await page.$$eval("#controls details", (ds) => ds.forEach((d) => (d.open = true)));
    await page.selectOption('#controls select[data-path="config.rerank.method"]', "heuristic");
    await settle(page);
    const seed = buildPreset("seed-004", sample);
    const cfg = await page.evaluate(() => globalThis.__playground.state.config);
    assert.equal(cfg.rerank.method, "heuristic");
    const { out } = expected(cfg, seed.input);
    // A result the rerank stage's fiscal-year boost moves (seed 004's FY2025 policy).
    const r = out.results.find((x) => x.explain.rerankRecencyMultiplier !== 1);
    assert.ok(r, "some result has a fiscal-year multiplier after rerank");
    const x = r.explain;
    await page.hover(`#stage-chart rect[data-stage="afterRerank"][data-id="${r.id}"]`);
    const lines = await page.$$eval("#tip div", (ds) => ds.map((d) => d.textContent));
    const line = lines.find((l) => l.startsWith("heuristic ×"));
    assert.ok(line, lines.join(" // "));
    assert.ok(line.startsWith(`heuristic ×${p6(x.rerank.factors.multiplier)} ×${p6(x.rerankRecencyMultiplier)} fiscal year → `), line);
    const factors = lines.find((l) => l.startsWith("heuristic factors:"));
    assert.ok(factors, lines.join(" // "));
    for (const k of ["exactName", "nameTerms", "summaryTerms", "entityType", "shortContent"]) assert.ok(factors.includes(`${k} ×${p6(x.rerank.factors[k])}`), `${k} in ${factors}`);
    // The product shown is the package's: afterRecency × multiplier × fiscal year = afterRerank.
    const near = (a, b) => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b));
    assert.ok(near(x.afterRecency * x.rerank.factors.multiplier * x.rerankRecencyMultiplier, x.afterRerank));
    const note = await page.$eval('#stage-chart [data-panel="afterRerank"] .panel-note', (e) => e.textContent);
    assert.match(note, /fiscal-year boost \(recencyBoost /, note);
    await page.mouse.move(0, 0);
    await pickPreset(page, "seed-000");
  });

  await t.test("nDCG@10 is that of the ranking shown, tied scores and integer-like ids included (cisi-3)", async () => {
    const id = "cisi-3";
    const s3 = buildPreset(id, sample);
    const { out } = expected(s3.config, s3.input);
    await pickPreset(page, id);
    const shownIds = (await rankingRows(page)).map((r) => r.id);
    assert.deepEqual(shownIds, out.results.map((r) => r.id));
    // The case: tied scores among integer-like ids, which a { id: score } object lists by id.
    const scores = out.results.map((r) => r.score);
    assert.ok(scores.some((x, i) => i > 0 && x === scores[i - 1]), "cisi-3 has tied scores");
    const asScores = lib.evaluate({ q: s3.judgements }, { q: Object.fromEntries(out.results.map((r) => [r.id, r.score])) }, ["ndcg@10"])["ndcg@10"];
    const card = Number(await page.getAttribute('#result .metric[data-key="ndcg10"]', "data-value"));
    const byDefinition = ndcgOf(shownIds, s3.judgements);
    assert.ok(Math.abs(card - byDefinition) < 1e-12, `card ${card}, the ranking's nDCG@10 ${byDefinition}`);
    assert.ok(Math.abs(asScores - byDefinition) > 1e-3, `the score object gives another figure (${asScores}): the test tells them apart`);
    assert.equal(card, lib.evaluate({ q: s3.judgements }, { q: rankingRun(shownIds) }, ["ndcg@10"])["ndcg@10"]);
    // The sample's "nDCG@10 pipeline": each query's ranking as the pipeline returns it.
    const p = new lib.Pipeline(s3.config);
    const qrels = {};
    const runs = {};
    let byHand = 0;
    for (const q of sample.queries) {
      const ids = p.run(cisiInput(sample, q)).results.map((r) => r.id);
      qrels[q.id] = q.qrels;
      runs[q.id] = rankingRun(ids);
      byHand += ndcgOf(ids, q.qrels);
    }
    p.free();
    const pipelineFigure = Number(await page.getAttribute('#evaluation .metric[data-key="ndcg-fused"]', "data-value"));
    assert.equal(pipelineFigure, lib.evaluate(qrels, runs, ["ndcg@10"])["ndcg@10"]);
    assert.ok(Math.abs(pipelineFigure - byHand / sample.queries.length) < 1e-12, `${pipelineFigure} against ${byHand / sample.queries.length}`);
  });

  await t.test("explain off: the stage card says its stages come from a shadow run", async () => {
    await pickPreset(page, "seed-000");
    assert.ok(await page.isHidden("#explain-off"));
    await page.$$eval("#controls details", (ds) => ds.forEach((d) => (d.open = true)));
    await page.uncheck('#controls input[data-path="config.explain"]');
    await settle(page);
    assert.equal(await page.evaluate(() => globalThis.__playground.result.effective.explain), false);
    assert.equal(await page.evaluate(() => globalThis.__playground.result.out.results.some((r) => r.explain)), false, "the real run explains nothing");
    assert.ok(await page.isVisible("#explain-off"));
    assert.match(await page.textContent("#explain-off"), /shadow run with explain on/);
    assert.match(await page.$eval('#controls input[data-path="config.explain"]', (e) => e.closest(".field").textContent), /shadow run/);
    await pickPreset(page, "seed-000");
    assert.ok(await page.isHidden("#explain-off"));
  });

  await t.test("the summary names repeated ids and the candidates it counts but does not draw", async () => {
    await pickPreset(page, "seed-000");
    await page.fill('#controls textarea[data-path="input.lists.1.ids"]', "C\nB\nB\nA\nC");
    await settle(page);
    const s = await page.evaluate(() => globalThis.__playground.result.out.stats);
    assert.deepEqual(s.duplicates, [0, 2]);
    assert.equal(await page.getAttribute("#result .stats [data-duplicates]", "data-duplicates"), JSON.stringify([0, 2]));
    assert.match(await page.textContent("#result .stats"), /Repeated ids ignored .*: 2 in keyword\./);
    assert.equal(await page.$$eval("#result .stats [data-undrawn]", (els) => els.length), 0, "seed 000 draws every candidate");
    // Seed 004: nine candidates beyond the rerank limit, counted, not drawn.
    await pickPreset(page, "seed-004");
    const s4 = await page.evaluate(() => globalThis.__playground.result.out.stats);
    const undrawn = s4.beyondTopK + s4.beyondCandidateLimit;
    assert.ok(undrawn > 0);
    assert.equal(Number(await page.getAttribute("#result .stats [data-undrawn]", "data-undrawn")), undrawn);
    const drawn = await page.$$eval('#stage-chart [data-stage="fused"]', (els) => els.length);
    assert.equal(drawn + undrawn, s4.candidates, "drawn and not drawn make the candidates");
    assert.match(await page.textContent("#result .stats"), new RegExp(`the ${undrawn} beyond topK or the rerank limit are counted here, not drawn`));
    assert.equal(await page.$$eval("#result .stats [data-duplicates]", (els) => els.length), 0, "seed 004 repeats no id");
    await pickPreset(page, "seed-000");
  });
});
