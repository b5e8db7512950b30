// The score playground (www/) in headless Chromium: the configuration controls (the ↺ of
// each override, the calibration card's fields and sliders, the list weights, the config
// JSON box) and the errors the page shows (the package's ScoreError on the control it
// names, invalid JSON, the problem box), with the findings of the 2026-11-29 review.
// The subtests share one page, in order: the first starts from the page as it loads (seed
// 000), each of the others picks the preset it starts from.
import assert from "node:assert/strict";
import {
  lib, sample, PRESET, run, expected, ready, settle, assertMarked, pickPreset, focusedIs,
  describedBy, rankingRows, buildPreset, playgroundTest,
  addressHolds, until,
} from "./helpers.mjs";

playgroundTest("score playground in headless Chromium: configuration controls and errors", async (t, { page, browser, watch }) => {
  const state = buildPreset(PRESET, sample);

  await t.test("clearing or resetting the only config override keeps the page working and the focus", async () => {
    const seed = buildPreset("seed-000", sample);
    const ids = expected(seed.config, seed.input).out.results.map((r) => r.id);
    const k = '#controls input[data-path="config.k"]';
    await page.fill(k, "30");
    await settle(page);
    await page.click('#controls button[aria-label="Restore the default of k"]');
    await settle(page);
    assert.ok(await page.isHidden("#problem"), await page.textContent("#problem"));
    assert.deepEqual(await page.evaluate(() => globalThis.__playground.state.config), {});
    assert.ok(await focusedIs(page, k), "the field takes the focus from its hidden ↺");
    const topN = '#controls input[data-path="config.topN"]';
    await page.fill(topN, "2");
    await settle(page);
    await page.fill(topN, "");
    await settle(page);
    assert.ok(await page.isHidden("#problem"), await page.textContent("#problem"));
    assert.deepEqual((await rankingRows(page)).map((r) => r.id), ids);
    // Buttons that rebuild the controls keep the focus.
    await page.focus('#controls [data-focus-key="reset-config"]');
    await page.keyboard.press("Enter");
    await settle(page);
    assert.ok(await focusedIs(page, '#controls [data-focus-key="reset-config"]'), "Reset to seed defaults keeps the focus");
    await page.click('summary:has-text("Edit the overrides as JSON")');
    await page.focus('#controls [data-focus-key="apply-config-json"]');
    await page.keyboard.press("Enter");
    await settle(page);
    assert.ok(await focusedIs(page, '#controls [data-focus-key="apply-config-json"]'), "Apply config JSON keeps the focus");
    await page.click('summary:has-text("Edit the overrides as JSON")');
    // Removing a list: the focus goes to the list now in its place, then to "+ Add a list".
    await page.click('#controls button[aria-label="Remove list semantic"]');
    assert.ok(await focusedIs(page, '#controls input[data-path="input.lists.0.name"]'));
    assert.equal(await page.inputValue('#controls input[data-path="input.lists.0.name"]'), "keyword");
    await page.click('#controls button[aria-label="Remove list keyword"]');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "+ Add a list");
    await pickPreset(page, "seed-000");
  });

  await t.test("a package error on a list field marks that field", async () => {
    await pickPreset(page, "seed-000");
    const weight = '#controls input[data-path="input.lists.0.weight"]';
    await assertMarked(page, weight, "-1", "lists[0].weight");
    await page.fill(weight, "");
    await settle(page);
    assert.ok(await page.isHidden("#problem"));
    assert.equal(await page.getAttribute(weight, "aria-invalid"), null);
    await pickPreset(page, "seed-000");
  });

  await t.test("invalid JSON input shows a message, not a broken page", async () => {
    await pickPreset(page, PRESET);
    const before = await rankingRows(page);
    await page.click("#tab-json");
    await page.fill("#tabpanel-json textarea", '{ "lists": [ not json');
    await page.click("#apply-input-json");
    assert.ok(await page.isVisible("#problem"));
    assert.equal(await page.getAttribute("#problem", "data-kind"), "json");
    assert.match(await page.textContent("#problem"), /Invalid JSON/);
    assert.match(await page.textContent("#tabpanel-json [data-json-error]"), /Invalid JSON/);
    assert.deepEqual(await rankingRows(page), before, "the last good results stay");
    // Only the rendered panel is controlled by a tab.
    const controls = await page.$$eval('[role="tab"]', (tabs) => tabs.map((b) => [b.id, b.getAttribute("aria-controls"), Boolean(document.getElementById(b.getAttribute("aria-controls")))]));
    assert.deepEqual(controls, [["tab-table", null, false], ["tab-json", "tabpanel-json", true], ["tab-trec", null, false]]);
    // Valid JSON of the wrong shape: the package's ScoreError, and the page still works.
    const bad = { query: "q", lists: [{ name: "a", ids: "oops" }] };
    let err;
    try {
      run(state.config, bad);
    } catch (e) {
      err = e;
    }
    assert.ok(err instanceof lib.ScoreError);
    await page.evaluate(() => (document.querySelector("#notice").textContent = ""));
    await page.fill("#tabpanel-json textarea", JSON.stringify(bad));
    await page.click("#apply-input-json");
    await settle(page);
    assert.equal(await page.getAttribute("#problem", "data-kind"), "score-error");
    assert.notEqual(await page.textContent("#notice"), "Input applied.", "no success toast for a refused input");
    assert.equal(await page.textContent("#problem [data-error-code]"), err.code);
    assert.equal(await page.textContent("#problem [data-error-field]"), err.field);
    await page.click("#tab-table");
    assert.match(await page.textContent("#tabpanel-table"), /List|list/);
  });

  await t.test("a failed proposal's error goes once a proposal succeeds; a non-object calibration is the package's error", async () => {
    await pickPreset(page, PRESET);
    const target = page.locator('label:has-text("Target precision of the hit band") + input');
    await target.fill("1.5");
    await page.click("#propose-bands");
    assert.equal(await page.getAttribute("#problem", "data-kind"), "score-error");
    await target.fill("0.85");
    await page.click("#propose-bands");
    assert.ok(await page.isHidden("#problem"), "the proposal's own error is cleared");
    assert.ok(await page.$("[data-high-floor]"));
    // A refused target takes the proposal before, and its Apply button, away.
    for (const refused of ["2", "0"]) {
      await target.fill(refused);
      await page.click("#propose-bands");
      assert.equal(await page.getAttribute("#problem", "data-kind"), "score-error", refused);
      assert.equal(await page.$$eval("#apply-bands, [data-high-floor]", (els) => els.length), 0, `target ${refused}`);
    }
    await target.fill("0.85");
    await page.click("#propose-bands");
    assert.ok(await page.isHidden("#problem"));
    assert.ok(await page.$("#apply-bands"));
    // {"calibration": "x"} through the JSON box: the package refuses it (the page threw a TypeError).
    // The controls are rebuilt after each apply: the box is found again each time.
    const applyJson = async (text) => {
      const box = "#" + (await page.getAttribute('label:has-text("Only the values set here differ")', "for"));
      if (!(await page.isVisible(box))) {
        await page.click('summary:has-text("Edit the overrides as JSON")');
        // Opening the box fills it with the current config from its `toggle` event, which
        // the browser dispatches as a task of its own: after the frames below it has run,
        // and cannot overwrite the text filled next (CI at 57a88a5 applied the current
        // config instead of `{"calibration": "x"}`, and no error came).
        await settle(page);
      }
      await page.fill(box, text);
      assert.equal(await page.inputValue(box), text);
      await page.click('button:has-text("Apply config JSON")');
      await settle(page);
    };
    await page.evaluate(() => (document.querySelector("#notice").textContent = ""));
    await applyJson(JSON.stringify({ calibration: "x" }));
    // The package's answer can come later than two frames: with judgements in the
    // state the page recomputes once the lab is in (www/compute.js `needsLab`), a
    // promise. Waited for, 10 s at most (CI at c0ab405 read the box before it was
    // shown, once; not reproduced since).
    await page.waitForSelector('#problem[data-kind="score-error"]', { timeout: 10_000 });
    assert.equal(await page.getAttribute("#problem", "data-kind"), "score-error");
    assert.notEqual(await page.textContent("#notice"), "Configuration applied.", "no success toast for a refused config");
    assert.equal(await page.textContent("#problem [data-error-field]"), "config.calibration");
    // The box stays open after the rebuild, with the refused text to mend (it closed).
    assert.equal(await page.evaluate(() => document.querySelector("#config-json").open), true);
    const box = "#" + (await page.getAttribute('label:has-text("Only the values set here differ")', "for"));
    assert.deepEqual(JSON.parse(await page.inputValue(box)), { calibration: "x" });
    // Invalid JSON: the box's message is tied to it and the box marked.
    await applyJson("{ not json");
    const jsonBox = "#" + (await page.getAttribute('label:has-text("Only the values set here differ")', "for"));
    assert.equal(await page.getAttribute(jsonBox, "aria-invalid"), "true");
    assert.match((await describedBy(page, jsonBox)).join(" "), /Invalid JSON/);
    await applyJson("{}");
    await page.waitForFunction(() => document.querySelector("#notice").textContent === "Configuration applied.", null, { timeout: 10_000 });
    assert.ok(await page.isHidden("#problem"));
    assert.equal(await page.textContent("#notice"), "Configuration applied.");
    assert.equal(await page.evaluate(() => document.querySelector("#config-json").open), true);
    await page.click('summary:has-text("Edit the overrides as JSON")');
  });

  await t.test("a field marked by a package error and then by its own message stays marked", async () => {
    await pickPreset(page, "seed-000");
    await page.$$eval("#controls details", (ds) => ds.forEach((d) => (d.open = true)));
    const weights = '#controls textarea[data-path="config.weights"]';
    await page.fill(weights, '{"semantic": -1}');
    await settle(page);
    assert.equal(await page.getAttribute("#problem", "data-kind"), "score-error");
    assert.match(await page.textContent("#problem [data-error-field]"), /^config\.weights/);
    assert.equal(await page.getAttribute(weights, "aria-invalid"), "true");
    // Now invalid JSON: the problem box changes, the field's own message holds the mark.
    await page.fill(weights, '{"semantic": ');
    await settle(page);
    assert.equal(await page.getAttribute("#problem", "data-kind"), "json");
    assert.match((await describedBy(page, weights)).join(" "), /Invalid JSON/);
    assert.equal(await page.getAttribute(weights, "aria-invalid"), "true");
    // Valid JSON the package refuses: its own message goes, the package's mark stays.
    await page.fill(weights, '{"semantic": -2}');
    await settle(page);
    assert.equal(await page.getAttribute("#problem", "data-kind"), "score-error");
    assert.equal(await page.getAttribute(weights, "aria-invalid"), "true");
    await page.fill(weights, "");
    await settle(page);
    assert.ok(await page.isHidden("#problem"));
    assert.equal(await page.getAttribute(weights, "aria-invalid"), null);
    await pickPreset(page, "seed-000");
  });

  await t.test("an invalid config shows the ScoreError code, field and message", async () => {
    let err;
    try {
      new lib.Pipeline({ ...state.config, topN: 50 });
    } catch (e) {
      err = e;
    }
    assert.ok(err instanceof lib.ScoreError);
    await pickPreset(page, PRESET);
    assert.ok(await page.isHidden("#problem"));
    // Scrolled down, the field at the top of the (sticky) controls column.
    await page.evaluate(() => {
      window.scrollTo(0, 700);
      const c = document.querySelector("#controls");
      const el = c.querySelector('[data-path="config.topN"]');
      c.scrollTop += el.getBoundingClientRect().top - c.getBoundingClientRect().top - 4;
    });
    await page.fill('#controls input[data-path="config.topN"]', "50");
    await settle(page);
    const field = await page.$eval('#controls input[data-path="config.topN"]', (e) => e.getBoundingClientRect().toJSON());
    const banner = await page.$eval("#problem", (e) => e.getBoundingClientRect().toJSON());
    assert.ok(field.top >= banner.bottom, `the banner (bottom ${banner.bottom}) covers the field (top ${field.top})`);
    assert.equal(await page.getAttribute("#problem", "data-kind"), "score-error");
    assert.equal(await page.textContent("#problem [data-error-code]"), err.code);
    assert.equal(await page.textContent("#problem [data-error-field]"), err.field);
    assert.equal(await page.textContent("#problem [data-error-message]"), err.message);
    assert.equal(await page.getAttribute('#controls input[data-path="config.topN"]', "aria-invalid"), "true");
    await page.fill('#controls input[data-path="config.topN"]', "10");
    await settle(page);
    assert.ok(await page.isHidden("#problem"));
  });

  await t.test("a review's findings (2026-11-29) stay fixed: retyping a curve value, the fitted model's note, a removed list's candidates, a damaged link", async () => {
    // Clearing the threshold falls back to the default (another slider range): the
    // field keeps what is typed next (0.035 and "1.5" gave 0.03515).
    await pickPreset(page, "seed-000");
    for (const [path, first, typed] of [["config.calibration.threshold", "0.25", "1.5"], ["config.calibration.steepness", "1000", "600"]]) {
      const sel = `#calibration input[type="number"][data-path="${path}"]`;
      await page.fill(sel, first);
      await settle(page);
      await page.click(sel);
      await page.keyboard.press("Control+A");
      await page.keyboard.press("Backspace");
      await settle(page);
      await page.keyboard.type(typed, { delay: 30 });
      await settle(page);
      const got = await page.evaluate((p) => p.split(".").slice(1).reduce((o, k) => o?.[k], globalThis.__playground.state.config), path);
      assert.equal(got, Number(typed), path);
      assert.ok(await focusedIs(page, sel), `${path} keeps the focus`);
    }
    // Removing a list: the metadata panel follows the candidates left (it kept all ten).
    await pickPreset(page, "seed-000");
    const heading = () => page.evaluate(() => [...document.querySelectorAll("h2")].map((e) => e.textContent).find((x) => x.startsWith("Candidate metadata")));
    assert.equal(await heading(), "Candidate metadata (10)");
    await page.click('#controls button[aria-label="Remove list semantic"]');
    const left = await page.evaluate(() => {
      const s = globalThis.__playground.state;
      const ids = new Set(s.input.lists.flatMap((l) => l.ids));
      for (const k of Object.keys(s.input.items || {})) if (!ids.has(k) && Object.keys(s.input.items[k] || {}).length > 0) ids.add(k);
      return ids.size;
    });
    assert.ok(left < 10, `${left}`);
    // The panel is rebuilt 400 ms after the edit (input-editor.js refreshMetadataSoon):
    // waited for, not slept on.
    await until(page, (n) => [...document.querySelectorAll("h2")].some((e) => e.textContent === `Candidate metadata (${n})`), left);
    assert.equal(await heading(), `Candidate metadata (${left})`);
    // A package error naming a metadata cell or a multi-query option marks that control
    // (neither had a path the error could be matched to).
    await pickPreset(page, "seed-000");
    const opened = await page.$$eval("details", (ds) => ds.map((d) => d.open));
    await page.$$eval("details", (ds) => ds.forEach((d) => (d.open = true)));
    await assertMarked(page, 'input[aria-label="modifiedAt of A"]', "last week", "items.A.modifiedAt");
    await page.$$eval("details", (ds, open) => ds.forEach((d, i) => (d.open = open[i] ?? d.open)), opened);
    await pickPreset(page, "seed-001-rrf");
    await assertMarked(page, '#controls [data-path="multi.options.k"]', "0", "options.k");
    // A link cut short says so (it read "Failed to fetch").
    await pickPreset(page, "seed-004");
    await page.waitForFunction(() => location.hash.startsWith("#s="));
    await addressHolds(page);
    const href = await page.evaluate(() => location.href);
    const cut = href.slice(0, href.length - Math.floor((href.length - href.indexOf("#s=")) / 2));
    const other = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    watch(other);
    await other.goto(cut);
    await ready(other);
    assert.match(await other.textContent("#notice"), /the link is damaged or incomplete/);
    await other.close();
  });

  await t.test("↺ of calibration.method restores the default sigmoid calibration, the other method's parameters dropped", async () => {
    const openAll = () => page.$$eval("#controls details", (ds) => ds.forEach((d) => (d.open = true)));
    const method = '#controls select[data-path="config.calibration.method"]';
    const restoreMethod = '#controls button[aria-label="Restore the default of calibration.method"]';
    const restored = async () => {
      await page.click(restoreMethod);
      await settle(page);
      await page.waitForFunction(() => globalThis.__playground.result?.effective?.calibration?.method === "sigmoid");
      await settle(page);
      assert.ok(await page.isHidden("#problem"), await page.textContent("#problem"));
      assert.equal(await page.evaluate(() => globalThis.__playground.state.config.calibration), undefined);
      assert.deepEqual(await page.evaluate(() => globalThis.__playground.result.effective.calibration), run({}, { lists: [{ name: "x", ids: ["a"] }] }).effective.calibration);
      assert.equal(await page.inputValue(method), "sigmoid");
      assert.equal(await page.$$eval('#controls [data-path="config.calibration.threshold"]', (els) => els.length), 1);
    };
    // Chosen by hand on a seed page: platt, then isotonic.
    for (const m of ["platt", "isotonic"]) {
      await pickPreset(page, "seed-000");
      await openAll();
      await page.selectOption(method, m);
      await page.waitForFunction((m) => globalThis.__playground.result?.effective?.calibration?.method === m, m);
      await settle(page);
      // A fitted model's parameters have no default: no ↺ beside them.
      const params = m === "platt" ? ["a", "b"] : ["x", "y"];
      for (const p of params) assert.equal(await page.$$eval(`#controls button[aria-label="Restore the default of calibration.${p}"]`, (els) => els.length), 0, p);
      await restored();
      assert.deepEqual(await page.evaluate(() => globalThis.__playground.state.config), {});
    }
    // Fitted on a CISI preset (its sigmoid replaced by the model).
    for (const fit of ["#fit-platt", "#fit-isotonic"]) {
      await pickPreset(page, PRESET);
      await page.click(fit);
      await page.waitForFunction(() => globalThis.__playground.result?.effective?.calibration?.method !== "sigmoid");
      await settle(page);
      await openAll();
      await restored();
    }
    // The other groups' ↺ of their method: the package takes their parameters whatever
    // the method (untagged), so removing the method alone is the default.
    await pickPreset(page, "seed-000");
    await openAll();
    for (const [path, value, param, paramValue] of [
      ["rerank.method", "heuristic", "rerank.candidateLimit", "3"],
      ["normalization.method", "softmax", "normalization.temperature", "2"],
      ["recency.mode", "fiscal_year", "recency.boost", "0.5"],
    ]) {
      await page.selectOption(`#controls select[data-path="config.${path}"]`, value);
      await settle(page);
      await page.fill(`#controls input[data-path="config.${param}"]`, paramValue);
      await settle(page);
      assert.ok(await page.isHidden("#problem"), await page.textContent("#problem"));
      await page.click(`#controls button[aria-label="Restore the default of ${path}"]`);
      await settle(page);
      assert.ok(await page.isHidden("#problem"), `${path}: ${await page.textContent("#problem")}`);
      const cfg = await page.evaluate(() => globalThis.__playground.state.config);
      const [group, key] = path.split(".");
      assert.equal(cfg[group][key], undefined, path);
      assert.equal(String(cfg[group][param.split(".")[1]]), paramValue, `${param} kept`);
      const seed = buildPreset("seed-000", sample);
      assert.deepEqual((await rankingRows(page)).map((r) => [r.id, Number(r.score)]), expected(cfg, seed.input).out.results.map((r) => [r.id, r.score]), path);
    }
    await pickPreset(page, "seed-000");
  });

  await t.test("a floor slider dragged past the other floor pushes it, so the floors never cross", async () => {
    await pickPreset(page, "seed-000");
    const slider = (p) => `#calibration input[type="range"][data-path="config.bands.${p}"]`;
    const bands = () => page.evaluate(() => globalThis.__playground.state.config.bands);
    await page.focus(slider("highFloor"));
    await page.keyboard.press("Home");
    await settle(page);
    assert.deepEqual(await bands(), { highFloor: 0, degradedFloor: 0 });
    assert.ok(await page.isHidden("#problem"), await page.textContent("#problem"));
    assert.equal(await page.inputValue('#calibration input[type="number"][data-path="config.bands.degradedFloor"]'), "0");
    await page.focus(slider("degradedFloor"));
    await page.keyboard.press("End");
    await settle(page);
    assert.deepEqual(await bands(), { highFloor: 1, degradedFloor: 1 });
    assert.ok(await page.isHidden("#problem"), await page.textContent("#problem"));
    const seed = buildPreset("seed-000", sample);
    assert.deepEqual((await rankingRows(page)).map((r) => r.band), expected({ bands: { highFloor: 1, degradedFloor: 1 } }, seed.input).out.results.map((r) => r.band));
    assert.match(await page.textContent("#calibration .quick"), /pushes the degraded floor down/);
    // The bands mode's sliders push too: 25 steps up from the degraded floor's 0.65 take
    // the high floor (0.85) along to 0.9.
    await pickPreset(page, "seed-002");
    await page.focus('#bands input[type="range"][data-path="config.bands.degradedFloor"]');
    for (let i = 0; i < 25; i++) await page.keyboard.press("ArrowRight");
    await settle(page);
    assert.deepEqual(await bands(), { highFloor: 0.9, degradedFloor: 0.9 });
    assert.ok(await page.isHidden("#problem"), await page.textContent("#problem"));
    const scores = buildPreset("seed-002", sample).bands.scores;
    assert.deepEqual(await page.$$eval("#bands-table tbody tr", (trs) => trs.map((tr) => tr.dataset.band)), scores.map((x) => lib.classifyBand(x, { highFloor: 0.9, degradedFloor: 0.9 }).kind));
    assert.match(await page.textContent("#bands .quick"), /pushes the high floor up/);
    await pickPreset(page, "seed-000");
  });

  await t.test("text that is no finite number in a number field is said there, and the state keeps its value", async () => {
    await pickPreset(page, "seed-000");
    await page.$$eval("#controls details", (ds) => ds.forEach((d) => (d.open = true)));
    const state = () => page.evaluate(() => globalThis.__playground.state);
    /**
     * Puts `text` in place of the field's, in one input event as a paste does (page.fill
     * refuses such text in a number input; typed key by key, "2" of "2e" is applied first).
     */
    const retype = async (sel, text) => {
      await page.focus(sel);
      await page.keyboard.press("ControlOrMeta+A");
      await page.keyboard.insertText(text);
      await settle(page);
    };
    const saysBad = async (sel, what) => {
      assert.equal(await page.getAttribute(sel, "aria-invalid"), "true", what);
      assert.match((await describedBy(page, sel)).join(" "), /Not a finite number/, what);
    };
    const fields = [
      ['#controls input[type="number"][data-path="config.topN"]', (s) => s.config.topN, 3, 4],
      ['#calibration input[type="number"][data-path="config.minConfidence"]', (s) => s.config.minConfidence, 0.001, 0.002],
      ['#controls input[data-path="input.lists.0.weight"]', (s) => s.input.lists[0].weight, 3, 4],
      ['#controls input[data-path="input.items.A.fiscalYear"]', (s) => s.input.items.A?.fiscalYear, 2023, 2024],
    ];
    for (const [sel, valueOf, before, after] of fields) {
      await retype(sel, String(before));
      assert.equal(valueOf(await state()), before, sel);
      assert.ok(await page.isHidden("#problem"), await page.textContent("#problem"));
      const rows = await rankingRows(page);
      for (const text of ["2e", "--5", "1e400"]) {
        await retype(sel, text);
        await saysBad(sel, `${sel}: ${text}`);
        assert.equal(valueOf(await state()), before, `${sel}: ${text} leaves the value before it`);
        assert.deepEqual(await rankingRows(page), rows, "the outputs are those of that value");
      }
      await retype(sel, String(after));
      assert.equal(valueOf(await state()), after, sel);
      assert.equal(await page.getAttribute(sel, "aria-invalid"), null, sel);
      assert.ok(await page.isHidden("#problem"), await page.textContent("#problem"));
    }
    await pickPreset(page, "seed-000");
  });

  await t.test("an empty list weight's placeholder is the weight it takes (config.weights, else 1)", async () => {
    await pickPreset(page, "seed-000");
    const weight = '#controls input[data-path="input.lists.0.weight"]';
    assert.equal(await page.getAttribute(weight, "placeholder"), "weight: 1");
    await page.$$eval("#controls details", (ds) => ds.forEach((d) => (d.open = true)));
    await page.fill('#controls textarea[data-path="config.weights"]', '{"semantic": 2.5}');
    await settle(page);
    assert.equal(await page.getAttribute(weight, "placeholder"), "weight: 2.5");
    assert.equal(await page.getAttribute('#controls input[data-path="input.lists.1.weight"]', "placeholder"), "weight: 1");
    const c = await page.evaluate(() => globalThis.__playground.result.rows.find((r) => r.id === "A").explain.contributions.find((x) => x.list === "semantic"));
    assert.equal(c.weight, 2.5, "the package took that weight");
    await pickPreset(page, "seed-000");
  });
});
