// The score playground (www/) in headless Chromium: inputs the presets do not have: long
// ids that share a long prefix (one chart row and one label per candidate, the whole id
// reachable) and a pool of 1,000 candidates (the charts draw a capped number of rows and
// say so; an edit stays quick).
// The subtests share one page, in order; each applies the input it starts from.
import assert from "node:assert/strict";
import { settle, pickPreset, textLayout, playgroundTest } from "./helpers.mjs";

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
});
