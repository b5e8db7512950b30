// The score playground (www/) in headless Chromium: the charts' labels, colours and
// contrast, the narrow layouts (390 and 375 px), and the screenshots `make
// test-playground` leaves in test-results/ (playground.png, playground-375.png).
// The subtests share one page, in order; each picks the preset it starts from, or opens a
// page of its own.
import { after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  root, PRESET, ready, settle, pickPreset, overlapping, textLayout, contrast, playgroundTest,
} from "./helpers.mjs";

const shots = [];
after(() => shots.length && console.log(`screenshots: ${shots.join(", ")}`));

playgroundTest("score playground in headless Chromium: layout, accessibility and screenshots", async (t, { page, browser, url, errors, dialogs, watch }) => {
  await t.test("chart labels stay inside their charts and clear of each other", async () => {
    for (const id of ["seed-003", "seed-004"]) {
      await pickPreset(page, id);
      for (const sel of ["#curve-chart svg", "#stage-chart svg"])
        for (const l of await textLayout(page, sel)) assert.deepEqual(l.outside, [], `${id} ${sel}: labels past the edge`);
      const labels = await page.$$eval("#curve-chart [data-point-label]", (els) => els.map((e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }));
      assert.ok(labels.length > 0, `${id}: some points are labelled`);
      labels.forEach((a, i) => labels.slice(i + 1).forEach((b) => assert.ok(!overlapping(a, b), `${id}: point labels overlap`)));
    }
    // seed-004 has minConfidence 0: its label sits above the rule, off the x axis' tick labels.
    const clash = await page.$eval("#curve-chart svg", (svg) => {
      const label = [...svg.querySelectorAll("text")].find((t) => t.textContent.startsWith("minConfidence")).getBoundingClientRect();
      return [...svg.querySelectorAll('[aria-label="x-axis tick label"] text')].map((t) => t.getBoundingClientRect()).some((r) => label.left < r.right && r.left < label.right && label.top < r.bottom && r.top < label.bottom);
    });
    assert.equal(clash, false);
    await pickPreset(page, "seed-001-rrf");
    for (const l of await textLayout(page, "#multi-chart svg")) assert.deepEqual(l.outside, [], "multi-query value labels past the edge");
  });

  await t.test("colours: focus ring, chips and faded labels keep their contrast", async () => {
    await pickPreset(page, PRESET);
    await page.check("#show-dropped");
    await page.focus('#controls input[data-path="config.topN"]');
    const ring = await page.$eval('#controls input[data-path="config.topN"]', (e) => getComputedStyle(e).outlineColor);
    assert.ok(contrast(ring, "rgb(255, 255, 255)") >= 3, `focus ring ${ring}`);
    const chips = await page.$$eval("#ranking-table .chip", (els) => els.map((e) => [e.dataset.band, getComputedStyle(e).backgroundColor, getComputedStyle(e).color]));
    assert.ok(new Set(chips.map((c) => c[0])).size >= 2, JSON.stringify(chips));
    for (const [band, bg, fg] of chips) assert.ok(contrast(bg, fg) >= 4.5, `${band} chip ${fg} on ${bg}`);
    const faded = await page.$$eval('#stage-chart text[data-returned="false"]', (els) => els.map((e) => Number(e.getAttribute("fill-opacity") ?? 1)));
    assert.ok(faded.length > 0, "dropped candidates are labelled");
    for (const o of faded) assert.ok(o >= 0.7, `label opacity ${o}`);
  });

  await t.test("the bands' labels (the band strip's, the curve's floors) keep 4.5:1 on the band behind them", async () => {
    // Each label's fill against what is painted under its centre: the chart's areas (a
    // band's colour at its opacity) over the white card.
    const ratios = (sel, texts) => page.$$eval(sel, (els, texts) => els.filter((e) => texts.some((x) => e.textContent.startsWith(x))).map((e) => {
      const r = e.getBoundingClientRect();
      const under = document.elementsFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2).filter((x) => x.tagName === "rect" && x.closest("svg") === e.closest("svg"));
      let bg = [255, 255, 255];
      for (const x of under.reverse()) {
        const cs = getComputedStyle(x);
        const c = cs.fill.match(/\d+/g).map(Number);
        const a = Number(cs.fillOpacity);
        bg = bg.map((v, i) => v * (1 - a) + c[i] * a);
      }
      return [e.textContent, getComputedStyle(e).fill, `rgb(${bg.map((v) => v.toFixed(1)).join(", ")})`];
    }), texts);
    await pickPreset(page, "seed-002");
    const strip = await ratios("#bands-chart svg text", ["hit", "degraded", "miss"]);
    await pickPreset(page, "seed-000");
    const floors = await ratios("#curve-chart svg text", ["high floor", "degraded floor"]);
    assert.equal(strip.length, 3);
    assert.equal(floors.length, 2);
    for (const [text, fg, bg] of [...strip, ...floors]) assert.ok(contrast(fg, bg) >= 4.5, `${text}: ${fg} on ${bg}, ${contrast(fg, bg).toFixed(2)}:1`);
  });

  await t.test("at 390 px every output table fits its width and ranking rows are three lines", async () => {
    const narrow = await browser.newPage({ viewport: { width: 390, height: 844 } });
    watch(narrow);
    await narrow.goto(`${url}/`);
    await ready(narrow);
    const fits = async () => {
      const tables = await narrow.$$eval("#outputs table", (ts) => ts.map((t) => ({ id: t.id, width: t.scrollWidth, box: t.closest(".table-scroll").clientWidth })));
      for (const x of tables) assert.ok(x.width <= x.box, `#${x.id} is ${x.width} px wide in ${x.box} px`);
      return tables.map((x) => x.id);
    };
    await pickPreset(narrow, PRESET);
    await narrow.click("#fit-confidence");
    await narrow.waitForSelector("#confidence-model", { timeout: 60_000 });
    await narrow.click("#apply-confidence-model");
    await settle(narrow);
    const ids = await fits();
    for (const id of ["ranking-table", "outcome-features", "confidence-model", "confidence-queries"]) assert.ok(ids.includes(id), `${id} in ${ids}`);
    // rank | id | score, the name, then judged · fused · raw: beside the name's own lines, two of about 30 px.
    const rows = await narrow.$$eval("#ranking-table tbody tr", (trs) => trs.map((tr) => tr.getBoundingClientRect().height - tr.querySelector(".name-cell").getBoundingClientRect().height));
    for (const h of rows) assert.ok(h <= 80, `a ranking row is ${h} px beside its name`);
    await pickPreset(narrow, "seed-001-rrf");
    assert.deepEqual(await fits(), ["multi-table"]);
    await pickPreset(narrow, "seed-002");
    assert.deepEqual(await fits(), ["bands-table"]);
    await narrow.close();
  });

  await t.test("a calibration curve's point label covers no result's dot, and every dot takes the pointer", async () => {
    for (const id of ["seed-004", "seed-003"]) {
      await pickPreset(page, id);
      await page.locator("#curve-chart").scrollIntoViewIfNeeded();
      const layout = await page.$eval("#curve-chart svg", (svg) => {
        const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
        const dots = [...svg.querySelectorAll('circle[data-stage="curve"]')].map((c) => {
          const [l, t, r, b] = box(c);
          const hit = document.elementFromPoint((l + r) / 2, (t + b) / 2);
          return { id: c.dataset.id, box: [l, t, r, b], top: hit === c };
        });
        return { dots, labels: [...svg.querySelectorAll("[data-point-label]")].map((e) => ({ text: e.textContent, box: box(e) })) };
      });
      assert.ok(layout.labels.length > 0, `${id}: some points are labelled`);
      for (const d of layout.dots) {
        assert.ok(d.top, `${id}: ${d.id}'s dot is under something`);
        for (const l of layout.labels) assert.ok(!overlapping(l.box, d.box), `${id}: the label ${l.text} covers ${d.id}'s dot`);
      }
    }
    // Seed 004: the #1 result's label took the #2's dot ("overview"), which no longer hides it.
    await pickPreset(page, "seed-004");
    const labels = await page.$$eval("#curve-chart [data-point-label]", (els) => els.map((e) => e.textContent));
    assert.ok(labels.includes("policy-fy2025") && labels.includes("overview"), labels.join(", "));
    await page.hover('#curve-chart circle[data-stage="curve"][data-id="overview"]');
    assert.equal(await page.getAttribute("#tip", "data-for"), "overview");
    assert.ok(await page.isVisible("#tip"));
    await page.mouse.move(0, 0);
  });

  await t.test("no console errors, no dialogs; screenshots", async () => {
    // A full CISI state for the picture: proposed floors and a fusion search done.
    await pickPreset(page, PRESET);
    await page.click("#propose-bands");
    await page.selectOption("#optimize-method", "rrf");
    await page.click("#optimize-run");
    await page.waitForSelector("#optimize-progress[data-done]", { timeout: 60_000 });
    await page.evaluate(() => {
      document.activeElement?.blur();
      window.scrollTo(0, 0);
      document.querySelector("#controls").scrollTop = 0;
      document.querySelector("#notice").classList.remove("show");
    });
    await page.waitForTimeout(400);
    mkdirSync(join(root, "test-results"), { recursive: true });
    const shot = join(root, "test-results/playground.png");
    await page.screenshot({ path: shot, fullPage: true });
    const narrow = await browser.newPage({ viewport: { width: 375, height: 800 } });
    watch(narrow);
    await narrow.goto(page.url());
    await ready(narrow);
    await settle(narrow);
    const overflow = await narrow.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(overflow <= 375, `the page is ${overflow} px wide at 375`);
    const shotNarrow = join(root, "test-results/playground-375.png");
    await narrow.screenshot({ path: shotNarrow, fullPage: true });
    await narrow.close();
    assert.deepEqual(errors, []);
    assert.deepEqual(dialogs, []);
    shots.push(`${shot} (1280 px wide)`, `${shotNarrow} (375 px wide)`);
  });
});
