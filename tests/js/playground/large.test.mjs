// The score playground (www/) in headless Chromium: inputs the presets do not have: long
// ids that share a long prefix (one chart row and one label per candidate, the whole id
// reachable) and a pool of 1,000 candidates (the charts draw a capped number of rows and
// say so, the ranking lists 200 until asked for all; an edit stays quick).
// The subtests share one page, in order; each applies the input it starts from.
import assert from "node:assert/strict";
import { settle, expected, pickPreset, focusedIs, textLayout, playgroundTest } from "./helpers.mjs";

/** Applies `input` through the Input JSON tab and `config` through the config JSON box. */
async function applyState(page, input, config) {
  await page.click("#tab-json");
  await page.fill("#tabpanel-json textarea", JSON.stringify(input));
  await page.click("#apply-input-json");
  await settle(page);
  await page.evaluate(() => (document.querySelector("#config-json").open = true));
  await page.fill("#config-json textarea", JSON.stringify(config));
  await page.click('[data-focus-key="apply-config-json"]');
  await settle(page);
  await page.evaluate(() => (document.querySelector("#config-json").open = false));
  await page.click("#tab-table");
}

const long = (n) => `knowledge-base/articles/${"deeply-nested-section/".repeat(4)}article-${n}.md`;

playgroundTest("score playground in headless Chromium: long ids and large pools", async (t, { page }) => {
  await t.test("ids sharing a long prefix: one chart row and one label each, the whole id reachable", async () => {
    const ids = [1, 2, 3, 4, 5, 6].map(long);
    const input = { query: "q", lists: [{ name: "semantic", ids }, { name: "keyword", ids: [ids[1], ids[0], ids[5]] }], items: { [ids[0]]: { name: "An article" } }, now: "2025-06-01" };
    await applyState(page, input, { calibration: { threshold: 0.02 }, topN: 2 });
    assert.ok(await page.isChecked("#show-dropped"));
    const charts = await page.$$eval("#stage-chart svg, #relative-chart svg, #absolute-chart svg", (svgs) => svgs.map((svg) => {
      const bars = [...svg.querySelectorAll("rect[data-stage]:not([data-stage=contribution])")];
      const ticks = [...svg.querySelectorAll('[aria-label="y-axis tick label"] text')];
      return {
        ids: bars.map((b) => b.dataset.id),
        rowsAt: new Set(bars.map((b) => b.getAttribute("y"))).size,
        labels: ticks.map((x) => x.textContent),
        tickIds: ticks.map((x) => x.dataset.id),
      };
    }));
    assert.equal(charts.length, 7);
    for (const c of charts.slice(1)) {
      assert.deepEqual([...c.ids].sort(), [...ids].sort(), "a bar per candidate");
      assert.equal(c.rowsAt, ids.length, "each on its own row");
    }
    for (const c of charts) {
      assert.equal(new Set(c.labels).size, ids.length, `one label per row: ${c.labels}`);
      assert.deepEqual([...c.tickIds].sort(), [...ids].sort(), "each label names its row's id");
      for (const l of c.labels) assert.ok(l.length <= 26, l);
    }
    // The labels keep the end that tells the ids apart.
    for (const c of charts) assert.deepEqual(c.labels.map((l) => l.slice(-6)), c.tickIds.map((id) => id.slice(-6)), c.labels.join());
    for (const l of await textLayout(page, "#stage-chart svg")) assert.deepEqual(l.outside, [], "labels inside their charts");
    // Hovering a cut label shows the row's tooltip with the whole id.
    await page.hover(`#stage-chart [data-panel="fused"] [aria-label="y-axis tick label"] text[data-id="${ids[3]}"]`);
    assert.equal(await page.getAttribute("#tip", "data-for"), ids[3]);
    assert.match(await page.textContent("#tip .tip-title"), new RegExp(`^${ids[3]}`));
    await page.mouse.move(0, 0);
    // The tables cut the id with an ellipsis: its title holds the whole id.
    const ranked = await page.$$eval("#ranking-table .id-cell", (ths) => ths.map((th) => [th.title, th.textContent]));
    assert.deepEqual(ranked.map((r) => r[0]).sort(), [ids[0], ids[1]]);
    for (const [title, text] of ranked) assert.equal(title, text);
    await page.evaluate(() => (document.querySelector("#metadata-panel").open = true));
    const meta = await page.$$eval("#metadata-panel .id-cell", (ths) => ths.map((th) => [th.title, th.textContent]));
    for (const [title, text] of meta) assert.equal(title, text);
    assert.deepEqual(meta.map((m) => m[0]).sort(), [...ids].sort());
    await page.evaluate(() => (document.querySelector("#metadata-panel").open = false));
  });

  await t.test("at 375 px a long id wraps in the ranking, clear of the score", async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await settle(page);
    const rows = await page.$$eval("#ranking-table tbody tr", (trs) => trs.map((tr) => {
      const id = tr.querySelector(".id-cell").getBoundingClientRect();
      const score = tr.querySelector(".score-cell").getBoundingClientRect();
      const cell = tr.querySelector(".id-cell");
      return { clipped: cell.scrollWidth > cell.clientWidth, clear: id.right <= score.left };
    }));
    assert.equal(rows.length, 2);
    for (const r of rows) assert.deepEqual(r, { clipped: false, clear: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await pickPreset(page, "seed-000");
  });

  await t.test("a pool of 1,000 candidates: the charts draw 60 rows and say so, and an edit stays quick", async (st) => {
    const N = 1000;
    const ids = Array.from({ length: N }, (_, i) => `doc-${(i * 7919) % N}`);
    const input = { query: "q", now: "2025-06-01", lists: [
      { name: "bm25", ids, scores: ids.map((_, i) => 20 - i * 0.01) },
      { name: "dense", ids: [...ids].reverse(), scores: ids.map((_, i) => 0.9 - i * 0.0001) },
    ] };
    await applyState(page, input, { topK: N, topN: 50, minConfidence: 0, calibration: { threshold: 0.02 } });
    assert.ok(await page.isChecked("#show-dropped"));
    const drawn = (sel, stage) => page.$$eval(`${sel} rect[data-stage="${stage}"]`, (els) => els.map((e) => [e.dataset.id, e.dataset.returned]));
    const calibrated = await drawn("#stage-chart", "calibrated");
    assert.equal(calibrated.length, 60);
    assert.equal(calibrated.filter(([, returned]) => returned === "true").length, 50, "the returned results first");
    assert.equal((await drawn("#absolute-chart", "absolute")).length, 60);
    assert.equal(await page.$$eval('#curve-chart circle[data-stage="curve"]', (els) => els.length), 60);
    assert.equal(await page.$$eval("#ranking-table tbody tr", (trs) => trs.length), 50, "the ranking lists every returned result");
    assert.equal(await page.getAttribute("#chart-cap", "data-drawn"), "60");
    assert.equal(await page.getAttribute("#chart-cap", "data-of"), String(N));
    assert.match(await page.textContent("#chart-cap"), /draw 60 of the 1000 candidates: the 50 returned, then the 10 best-scored of the 950 dropped; the other 940 are counted in the summary/);
    // Returned results alone: all drawn, nothing to say.
    await page.uncheck("#show-dropped");
    await settle(page);
    assert.equal((await drawn("#stage-chart", "calibrated")).length, 50);
    assert.ok(await page.isHidden("#chart-cap"));
    await page.check("#show-dropped");
    await settle(page);

    // A step of the threshold slider stays quick because the charts stay 60 rows (they
    // drew all 1,000 once: a 79,000 px page, 0.4 to 1.2 s a step). Checked by what is
    // drawn after each step, not by a time (a busy machine takes any time): the times are
    // printed as a diagnostic.
    const steps = await page.evaluate(async () => {
      const el = document.querySelector('input[type=range][data-path="config.calibration.threshold"]');
      const out = [];
      for (let i = 0; i < 7; i++) {
        const t0 = performance.now();
        el.value = String(Number(el.value) + Number(el.step));
        el.dispatchEvent(new Event("input", { bubbles: true }));
        await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(ok, 0))));
        out.push({
          ms: performance.now() - t0,
          rows: document.querySelectorAll('#stage-chart rect[data-stage="calibrated"]').length,
          height: document.documentElement.scrollHeight,
        });
      }
      return out;
    });
    st.diagnostic(`a slider step: ${steps.map((x) => x.ms.toFixed(0)).join(", ")} ms`);
    for (const { rows, height } of steps) {
      assert.equal(rows, 60, "each step draws 60 rows");
      assert.ok(height < 20_000, `the page stays ${height} px tall, not the 79,000 px of 1,000 rows`);
    }
    st.diagnostic(`the page's height: ${steps.map((x) => x.height).join(", ")} px`);
    await pickPreset(page, "seed-000");
  });

  await t.test("1,000 returned results: the ranking lists 200 until asked for all, and an edit that changes none of them leaves it be", async () => {
    const N = 1000;
    const a = Array.from({ length: N }, (_, i) => `doc-${i}`);
    const input = { query: "q", now: "2025-06-01", lists: [{ name: "a", ids: a }, { name: "b", ids: a.map((_, i) => a[(i * 7) % N]) }] };
    const config = { topK: N, topN: N, minConfidence: 0 };
    await applyState(page, input, config);
    const want = expected(config, input).out.results.map((r) => [r.id, r.score]);
    assert.equal(want.length, N);
    const listed = () => page.$$eval("#ranking-table tbody tr", (trs) => trs.map((tr) => [tr.dataset.id, Number(tr.dataset.score)]));
    assert.deepEqual(await listed(), want.slice(0, 200), "the first 200, the package's");
    assert.equal(await page.getAttribute("#ranking-cap", "data-listed"), "200");
    assert.equal(await page.getAttribute("#ranking-cap", "data-of"), String(N));
    assert.match(await page.textContent("#ranking-cap"), /The first 200 of the 1000 returned results/);
    assert.match(await page.textContent("#chart-cap"), /the final ranking lists the first 200, all on request/);
    // The query typed (no reranker reads it): the table is left as it is, the same element.
    await page.$eval("#ranking-table tbody", (tb) => (tb.dataset.before = ""));
    await page.focus('[data-path="input.query"]');
    await page.keyboard.type("xy");
    await settle(page);
    assert.equal(await page.evaluate(() => globalThis.__playground.state.input.query), "qxy");
    assert.equal(await page.$$eval("#ranking-table tbody[data-before]", (els) => els.length), 1, "not rebuilt");
    // Show all, then the first 200 again; the button keeps the focus.
    await page.focus("#ranking-all");
    await page.keyboard.press("Enter");
    await settle(page);
    assert.deepEqual(await listed(), want);
    assert.match(await page.textContent("#ranking-cap"), /All 1000 returned results/);
    assert.ok(await focusedIs(page, "#ranking-all"));
    // A change the rows show rebuilds them, all still listed.
    await page.$$eval("#controls details", (ds) => ds.forEach((d) => (d.open = true)));
    await page.fill('#controls input[type="number"][data-path="config.calibration.threshold"]', "0.02");
    await settle(page);
    assert.equal(await page.$$eval("#ranking-table tbody[data-before]", (els) => els.length), 0, "rebuilt");
    assert.deepEqual(await listed(), expected({ ...config, calibration: { threshold: 0.02 } }, input).out.results.map((r) => [r.id, r.score]));
    await page.click("#ranking-all");
    await settle(page);
    assert.equal((await listed()).length, 200);
    await pickPreset(page, "seed-000");
  });
});
