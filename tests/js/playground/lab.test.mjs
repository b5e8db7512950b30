// The score playground (www/) in headless Chromium: the panels that need calibrank/lab
// (fitting a calibration from the judgements, proposing band floors, the fusion search in
// the Web Worker, the query-level outcome and the query-confidence model fitted in the
// worker), each against the package's output in Node.
// The subtests share one page, in order: "propose band floors ..." starts from the CISI
// preset "the fit buttons ..." leaves, "an out-of-domain query abstains ..." from the model
// "query confidence: fitted in the worker ..." applied, and "optimize fusion runs in a
// worker ..." counts the .wasm files this file's page fetched before it and with it (the
// core's, the lab's once a CISI preset needs it, the worker's: no other page is watched
// before); the last, "the query-confidence and fusion-search buttons ...", holds the worker's
// messages back while it runs.
import assert from "node:assert/strict";
import {
  lib, sample, PRESET, run, expected, sampleTriples, ready, settle, assertMarked, assertCurve,
  pickPreset, focusedIs, rankingRows, heldOutHalf, referenceModel, withModel, buildPreset,
  cisiInput, OOD_SHOWCASE, playgroundTest, sampleQrels, sampleRuns,
  addressHolds,
} from "./helpers.mjs";

playgroundTest("score playground in headless Chromium: lab panels: fitting, band floors, fusion search, query confidence", async (t, { page, browser, url, wasmRequests, watch }) => {
  const state = buildPreset(PRESET, sample);
  const exp = expected(state.config, state.input);

  await t.test("fit Platt from the judgements: the fitted model becomes the calibration", async () => {
    await pickPreset(page, PRESET);
    await page.click("#fit-platt");
    await settle(page);
    const { raws, labels } = sampleTriples(state.config);
    const model = lib.fitPlatt(raws, labels);
    const cal = await page.evaluate(() => globalThis.__playground.state.config.calibration);
    assert.deepEqual(cal, model);
    const after = expected({ ...state.config, calibration: model }, state.input).out;
    const rows = await rankingRows(page);
    assert.deepEqual(rows.map((r) => [r.id, Number(r.score)]), after.results.map((r) => [r.id, r.score]));
    await assertCurve(page, (xs) => lib.applyCalibration(xs, model), 1);
    // The card's note follows the model in use (an edit of `a` kept the fitted one).
    const note = () => page.$eval("#calibration .quick", (q) => q.parentElement.querySelector("p.note")?.textContent);
    assert.match(await note(), /a = -?\d/);
    const wasOpen = await page.$$eval("#controls details", (ds) => ds.map((d) => d.open));
    await page.$$eval("#controls details", (ds) => ds.forEach((d) => (d.open = true)));
    await page.fill('#controls [data-path="config.calibration.a"]', "-50");
    await settle(page);
    assert.match(await note(), /a = -50\.00,/);
    // A slope that would rank upside down is the package's error on that control.
    await assertMarked(page, '#controls [data-path="config.calibration.a"]', "2", "config.calibration.a");
    await page.fill('#controls [data-path="config.calibration.a"]', "-50");
    await settle(page);
    assert.ok(await page.isHidden("#problem"), await page.textContent("#problem"));
    await page.$$eval("#controls details", (ds, open) => ds.forEach((d, i) => (d.open = open[i] ?? d.open)), wasOpen);
  });

  await t.test("the fit buttons keep the focus through the rebuild they cause", async () => {
    await pickPreset(page, PRESET);
    for (const id of ["#fit-isotonic", "#restore-sigmoid", "#fit-platt"]) {
      await page.focus(id);
      await page.keyboard.press("Enter");
      await settle(page);
      await page.waitForFunction(() => !document.querySelector("[aria-busy=true]"));
      assert.ok(await focusedIs(page, id), `${id} keeps the focus (now ${await page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName)})`);
    }
    await pickPreset(page, PRESET);
  });

  await t.test("propose band floors from the judgements", async () => {
    await page.click("#propose-bands");
    const attrs = await page.$eval("[data-high-floor]", (e) => ({ ...e.dataset }));
    const cal = await page.evaluate(() => globalThis.__playground.state.config);
    const { probs, labels } = sampleTriples(cal);
    const p = lib.proposeBands(probs, labels, { targetPrecision: 0.85 });
    assert.equal(Number(attrs.highFloor), p.highFloor);
    assert.equal(Number(attrs.degradedFloor), p.degradedFloor);
  });

  await t.test("a sample query the package refuses is said in the judgements card, naming it; the current query's results stand", async () => {
    await pickPreset(page, "cisi-7");
    const cisi7 = buildPreset("cisi-7", sample);
    const config = { ...cisi7.config, limits: { maxTotalTextBytes: 1200 } };
    // In Node: the current query passes; a sample query (a longer document text) does not.
    const refusal = (q) => {
      try {
        run(config, cisiInput(sample, q));
        return null;
      } catch (e) {
        return e;
      }
    };
    const refused = sample.queries.find((q) => refusal(q) !== null);
    assert.ok(refused, "a sample query is over the limit");
    const err = refusal(refused);
    const field = '#config-panel [data-path="config.limits.maxTotalTextBytes"]';
    const wasOpen = await page.$$eval("#config-panel details", (ds) => ds.map((d) => d.open));
    await page.$$eval("#config-panel details", (ds) => ds.forEach((d) => (d.open = true)));
    await page.fill(field, "1200");
    await settle(page);
    assert.ok(await page.isHidden("#problem"), await page.textContent("#problem"));
    assert.equal(await page.getAttribute(field, "aria-invalid"), null);
    const rows = await rankingRows(page);
    assert.deepEqual(rows.map((r) => [r.id, Number(r.score)]), expected(config, cisi7.input).out.results.map((r) => [r.id, r.score]));
    assert.ok(await page.isVisible("#evaluation-error"));
    assert.equal(await page.getAttribute("#evaluation-error", "data-query"), refused.id);
    const said = await page.textContent("#evaluation-error");
    assert.ok(said.startsWith(`Sample query ${refused.id.startsWith("ood") ? refused.id : `Q${refused.id}`} (`), said);
    assert.ok(said.includes(`${err.code} (${err.field}): ${err.message}`), said);
    assert.equal(await page.$$eval("#evaluation .metric", (ms) => ms.length), 0, "no figures of a sample it could not score");
    for (const id of ["#fit-platt", "#fit-isotonic", "#propose-bands"]) assert.ok(await page.isDisabled(id), id);
    // The limit cleared: the sample's figures come back.
    await page.fill(field, "");
    await settle(page);
    assert.ok(await page.isHidden("#evaluation-error"));
    assert.ok(await page.$$eval("#evaluation .metric", (ms) => ms.length) > 0);
    assert.ok(await page.isEnabled("#propose-bands"));
    await page.$$eval("#config-panel details", (ds, open) => ds.forEach((d, i) => (d.open = open[i] ?? d.open)), wasOpen);
    await pickPreset(page, PRESET);
  });

  await t.test("optimize fusion runs in a worker with a progress bar", async () => {
    await pickPreset(page, PRESET);
    await page.selectOption("#optimize-method", "wsum");
    await page.selectOption("#optimize-grid", "0.01");
    await page.click("#optimize-run");
    await page.waitForSelector("#optimize-progress[data-done]", { timeout: 60_000 });
    const qrels = sampleQrels;
    const runs = sampleRuns;
    const report = lib.optimizeFusion(qrels, runs, { method: "wsum", metric: "ndcg@10", step: 0.01 }, () => {});
    assert.equal(Number(await page.getAttribute("#optimize-result [data-best-score]", "data-best-score")), report.best.score);
    const { value, max } = await page.$eval("#optimize-progress", (e) => ({ value: e.value, max: e.max }));
    assert.equal(max, report.trials.length);
    assert.equal(value, max);
    const updates = Number(await page.getAttribute("#optimize-progress", "data-updates"));
    assert.equal(updates, report.trials.length, "one progress report per configuration");
    // rbc at its default step: ranx's grid, 99 values of phi.
    await page.selectOption("#optimize-method", "rbc");
    await page.selectOption("#optimize-grid", "default");
    await page.click("#optimize-run");
    await page.waitForFunction(() => document.querySelector("#optimize-progress")?.max === 99 && document.querySelector("#optimize-progress")?.hasAttribute("data-done"), null, { timeout: 60_000 });
    const rbc = lib.optimizeFusion(qrels, runs, { method: "rbc", metric: "ndcg@10" }, () => {});
    assert.equal(rbc.trials.length, 99);
    assert.equal(Number(await page.getAttribute("#optimize-result [data-best-score]", "data-best-score")), rbc.best.score);
    // The page loads both modules; the worker only the lab's (optimizeFusion).
    assert.deepEqual([...wasmRequests].sort(), ["/pkg/calibrank_core.wasm", "/pkg/calibrank_lab.wasm", "/pkg/calibrank_lab.wasm"], `wasm requested: ${wasmRequests}`);
  });

  await t.test("the query-level outcome: answer / hedge / abstain from the rank-only estimate", async () => {
    await pickPreset(page, PRESET);
    const o = await page.$eval("#outcome", (e) => ({ ...e.dataset, text: e.textContent }));
    assert.equal(o.kind, exp.out.outcome.kind);
    assert.equal(Number(o.probability), exp.out.outcome.probability);
    assert.equal(o.source, "rankOnly");
    assert.equal(Number(o.answerFloor), exp.effective.confidence.answerFloor);
    assert.equal(Number(o.hedgeFloor), exp.effective.confidence.hedgeFloor);
    assert.equal(exp.out.outcome.probability, exp.out.confidence.atLeastOneRelevant);
    assert.match(o.text, new RegExp(`answer ≥ ${exp.effective.confidence.answerFloor}`));
    assert.match(await page.textContent("#outcome-explain"), /rank-only estimate/);
    // A floor moved in the configuration changes the outcome's floors at once.
    await page.$$eval("#controls details", (ds) => ds.forEach((d) => {
      if (d.querySelector(":scope > summary")?.textContent === "Query confidence") d.open = true;
    }));
    await page.fill('#controls input[data-path="config.confidence.answerFloor"]', "0.999999");
    await settle(page);
    const moved = expected({ ...state.config, confidence: { answerFloor: 0.999999 } }, state.input).out.outcome;
    assert.equal(await page.getAttribute("#outcome", "data-kind"), moved.kind);
    assert.equal(Number(await page.getAttribute("#outcome", "data-answer-floor")), 0.999999);
    await pickPreset(page, PRESET);
  });

  await t.test("query confidence: fitted in the worker on half the sample, measured on the other half, applied", async () => {
    await pickPreset(page, PRESET);
    await page.click("#fit-confidence");
    await page.waitForSelector("#confidence-model", { timeout: 60_000 });
    const model = referenceModel();
    const shown = JSON.parse(await page.getAttribute("#confidence-model", "data-model"));
    assert.deepEqual(shown, model, "the worker's model is bit-identical to Node's");
    assert.deepEqual(JSON.parse(await page.getAttribute("#confidence-training", "data-training")), model.training);
    const coefs = await page.$$eval("#confidence-model tbody tr", (trs) => trs.map((tr) => [tr.dataset.feature, Number(tr.dataset.coefficient)]));
    assert.deepEqual(coefs, [...model.features.map((f, j) => [f, model.coefficients[j]]), ["intercept", model.intercept]]);
    // Held out: each query's outcome without and with the model, as the package gives them.
    const rankOnly = new lib.Pipeline(state.config);
    const withM = new lib.Pipeline(withModel(state.config, model));
    const ref = heldOutHalf.map((q) => {
      const input = cisiInput(sample, q);
      const top = lib.rrf(sample.runs.map((n) => q.runs[n].ids), { k: model.rrfK, weights: model.weights }).slice(0, model.k);
      return { id: q.id, label: top.some(([id]) => (q.qrels[id] || 0) > 0) ? 1 : 0, ro: rankOnly.run(input).outcome, mo: withM.run(input).outcome };
    });
    rankOnly.free();
    withM.free();
    const rows = await page.$$eval("#confidence-queries tbody tr", (trs) => trs.map((tr) => ({ ...tr.dataset })));
    assert.deepEqual(rows.map((r) => [r.id, Number(r.label), Number(r.rankOnly), r.rankOnlyKind, Number(r.model), r.modelKind]), ref.map((r) => [r.id, r.label, r.ro.probability, r.ro.kind, r.mo.probability, r.mo.kind]));
    const labels = ref.map((r) => r.label);
    assert.ok(labels.includes(0) && labels.includes(1), "both classes held out");
    const figs = Object.fromEntries(await page.$$eval("#confidence-heldout tbody tr", (trs) => trs.map((tr) => [tr.dataset.estimate, { ece: Number(tr.dataset.ece), auroc: Number(tr.dataset.auroc), brier: Number(tr.dataset.brier) }])));
    for (const [key, probs] of [["rankOnly", ref.map((r) => r.ro.probability)], ["model", ref.map((r) => r.mo.probability)]]) {
      const rep = lib.calibrationError(probs, labels, { bins: 10, strategy: "uniform" });
      assert.equal(figs[key].ece, rep.ece, `${key} ECE`);
      assert.equal(figs[key].brier, rep.brier, `${key} Brier`);
      // AUROC: pairs (relevant, not relevant) in the right order, ties half.
      let right = 0;
      let pairs = 0;
      probs.forEach((p, i) => probs.forEach((n, j) => {
        if (labels[i] === 1 && labels[j] === 0) {
          pairs++;
          right += p > n ? 1 : p === n ? 0.5 : 0;
        }
      }));
      assert.equal(figs[key].auroc, right / pairs, `${key} AUROC`);
    }
    // The point of the model: a held-out out-of-domain query the rank-only estimate answers is abstained on.
    assert.ok(ref.some((r) => r.id.startsWith("ood") && r.ro.kind === "answer" && r.mo.kind === "abstain"), JSON.stringify(ref));

    // Applying the model: the outcome of the current query now comes from it.
    assert.equal(await page.getAttribute("#outcome", "data-source"), "rankOnly");
    await page.click("#apply-confidence-model");
    await settle(page);
    const cfg = await page.evaluate(() => globalThis.__playground.state.config);
    assert.deepEqual(cfg.confidence.model, model);
    const after = expected(withModel(state.config, model), state.input).out;
    assert.equal(after.outcome.source, "model");
    assert.equal(await page.getAttribute("#outcome", "data-source"), "model");
    assert.equal(Number(await page.getAttribute("#outcome", "data-probability")), after.outcome.probability);
    assert.equal(await page.getAttribute("#outcome", "data-kind"), after.outcome.kind);
    // Its features for this query: each list's best raw score, and the probability with each coefficient at 0.
    const feats = Object.fromEntries(await page.$$eval("#outcome-features tbody tr", (trs) => trs.map((tr) => [tr.dataset.feature, { value: Number(tr.dataset.value), without: Number(tr.dataset.without) }])));
    assert.equal(feats["top[0]"].value, Math.max(...state.input.lists[0].scores));
    assert.equal(feats["top[1]"].value, Math.max(...state.input.lists[1].scores));
    assert.ok(feats.rankOnly.value > 0 && feats.rankOnly.value < 1);
    model.features.forEach((f, j) => {
      const zeroed = { ...model, coefficients: model.coefficients.map((c, i) => (i === j ? 0 : c)) };
      assert.equal(feats[f].without, expected(withModel(state.config, zeroed), state.input).out.outcome.probability, `${f} at 0`);
    });
    assert.equal(await page.getAttribute("#apply-confidence-model", "disabled"), "");
  });

  await t.test("an out-of-domain query abstains once the model is applied", async () => {
    const id = `cisi-${OOD_SHOWCASE}`;
    const ood = buildPreset(id, sample);
    const model = referenceModel();
    assert.ok(heldOutHalf.some((q) => q.id === OOD_SHOWCASE), "the showcase query is not a training query");
    await pickPreset(page, id);
    assert.deepEqual(await page.evaluate(() => globalThis.__playground.state.config.confidence?.model), model, "the applied model is carried to the CISI presets");
    const withM = expected(withModel(ood.config, model), ood.input).out.outcome;
    const rankOnly = expected(ood.config, ood.input).out.outcome;
    assert.equal(withM.kind, "abstain");
    assert.notEqual(rankOnly.kind, "abstain", "the rank-only estimate does not see it");
    const o = await page.$eval("#outcome", (e) => ({ ...e.dataset }));
    assert.deepEqual([o.kind, o.source, Number(o.probability)], ["abstain", "model", withM.probability]);
    assert.match(await page.textContent("#outcome"), /Abstain/);
    // Back to the rank-only estimate.
    await page.click("#remove-confidence-model");
    await settle(page);
    const back = await page.$eval("#outcome", (e) => ({ ...e.dataset }));
    assert.deepEqual([back.kind, back.source, Number(back.probability)], [rankOnly.kind, "rankOnly", rankOnly.probability]);
    assert.equal(await page.evaluate(() => globalThis.__playground.state.config.confidence?.model ?? null), null);
  });

  await t.test("cancelling a fusion search does not strand a fit queued behind it in the worker", async () => {
    const other = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    watch(other);
    await other.goto(`${url}/`);
    await ready(other);
    await pickPreset(other, PRESET);
    await other.selectOption("#optimize-method", "w_condorcet");
    await other.selectOption("#optimize-grid", "0.005");
    await other.evaluate(async () => {
      document.querySelector("#optimize-run").click();
      while (!(Number(document.querySelector("#optimize-progress").value) > 0)) await new Promise((r) => setTimeout(r, 5));
      document.querySelector("#fit-confidence").click();
      await new Promise((r) => setTimeout(r, 30));
      document.querySelector("#optimize-run + button").click();
    });
    // The fit waited for ever, its button disabled.
    await other.waitForFunction(() => !document.querySelector("#fit-confidence").disabled, null, { timeout: 10_000 });
    assert.match(await other.textContent("#confidence-status"), /worker was stopped/);
    assert.equal(await other.textContent("#optimize-status"), "Cancelled.");
    // And a fit afterwards works (a new worker).
    await other.click("#fit-confidence");
    await other.waitForFunction(() => /^Fitted in the worker/.test(document.querySelector("#confidence-status").textContent), null, { timeout: 30_000 });
    await other.close();
  });

  await t.test("the optimizer's table of best configurations holds the reported best, first among its ties", async () => {
    await pickPreset(page, PRESET);
    await page.selectOption("#optimize-method", "rrf");
    await page.selectOption("#optimize-metric", "ndcg@20");
    await page.selectOption("#optimize-grid", "k10");
    await page.click("#optimize-run");
    await page.waitForSelector("#optimize-progress[data-done]", { timeout: 60_000 });
    const qrels = sampleQrels;
    const runs = sampleRuns;
    const report = lib.optimizeFusion(qrels, runs, { method: "rrf", metric: "ndcg@20", kValues: Array.from({ length: 10 }, (_, i) => (i + 1) * 10) }, () => {});
    // The case: more than the table's 8 rows tie at the best score.
    assert.ok(report.trials.filter((x) => x.score === report.best.score).length > 8, "a tie longer than the table");
    assert.match(await page.textContent("#optimize-result p"), new RegExp(`k = ${report.best.params.k}\\.`));
    const rows = await page.$$eval("#optimize-result table tbody tr", (trs) => trs.map((tr) => ({ text: tr.cells[0].textContent, best: "best" in tr.dataset, score: Number(tr.dataset.score) })));
    assert.equal(rows.length, 8);
    assert.ok(rows[0].best && rows[0].text.startsWith(`k = ${report.best.params.k},`), JSON.stringify(rows));
    assert.equal(rows.filter((r) => r.best).length, 1);
    rows.forEach((r, i) => i && assert.ok(r.score <= rows[i - 1].score, "best first"));
    await page.selectOption("#optimize-metric", "ndcg@10");
  });

  await t.test("an applied query-confidence model is carried across the CISI presets after a reload too", async () => {
    const first = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    watch(first);
    await first.goto(`${url}/`);
    await ready(first);
    await pickPreset(first, PRESET);
    await first.click("#fit-confidence");
    await first.waitForSelector("#apply-confidence-model", { timeout: 60_000 });
    await first.click("#apply-confidence-model");
    await settle(first);
    assert.match(await first.textContent("#notice"), /stays on for the CISI presets/);
    const model = referenceModel();
    await first.waitForFunction(() => location.hash.startsWith("#s=") && Boolean(globalThis.__playground.state.config.confidence?.model));
    await addressHolds(first);
    const link = await first.evaluate(() => location.href);
    await first.close();
    // The link opened anew (a reload): the model is in its state, and goes on with the next preset.
    const other = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    watch(other);
    await other.goto(link);
    await ready(other);
    await settle(other);
    assert.deepEqual(await other.evaluate(() => globalThis.__playground.state.config.confidence?.model), model);
    const id = `cisi-${OOD_SHOWCASE}`;
    await pickPreset(other, id);
    assert.deepEqual(await other.evaluate(() => globalThis.__playground.state.config.confidence?.model), model, "carried after the reload");
    const ood = buildPreset(id, sample);
    assert.equal(await other.getAttribute("#outcome", "data-source"), "model");
    assert.equal(Number(await other.getAttribute("#outcome", "data-probability")), expected(withModel(ood.config, model), ood.input).out.outcome.probability);
    // Removed there, it is not carried any more; a seed preset between keeps it off.
    await other.click("#remove-confidence-model");
    await settle(other);
    await pickPreset(other, "seed-000");
    await pickPreset(other, PRESET);
    assert.equal(await other.evaluate(() => globalThis.__playground.state.config.confidence?.model ?? null), null);
    await other.close();
  });

  await t.test("the query-confidence and fusion-search buttons keep the focus, or hand it to the button that undoes them", async () => {
    await pickPreset(page, PRESET);
    const press = async (id) => {
      await page.focus(id);
      await page.keyboard.press("Enter");
      await settle(page);
    };
    const focus = [];
    const expected = ["fit-confidence", "remove-confidence-model", "apply-confidence-model"];
    const focused = async () => focus.push(await page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName));
    // Disabled while the worker runs, each takes the focus back after. (The worker's
    // messages held back 300 ms: its warm answer came before the next frame, before the
    // browser moved the focus off the disabled button.)
    await page.evaluate(() => {
      const post = Worker.prototype.postMessage;
      globalThis.__post = post;
      Worker.prototype.postMessage = function (...args) {
        setTimeout(() => post.apply(this, args), 300);
      };
    });
    try {
      await press("#fit-confidence");
      await page.waitForFunction(() => /^Fitted/.test(document.querySelector("#confidence-status").textContent), null, { timeout: 60_000 });
      await focused();
      // The panel is rebuilt: "Use this model" is then disabled (in use), "Back …" the other way.
      await press("#apply-confidence-model");
      await focused();
      await press("#remove-confidence-model");
      await focused();
      await page.selectOption("#optimize-method", "rrf");
      await page.selectOption("#optimize-grid", "k1");
      await press("#optimize-run");
      await page.waitForSelector("#optimize-progress[data-done]", { timeout: 60_000 });
      await focused();
      expected.push("optimize-run");
    } finally {
      await page.evaluate(() => (Worker.prototype.postMessage = globalThis.__post));
    }
    assert.deepEqual(focus, expected);
  });
});
