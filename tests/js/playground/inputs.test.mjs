// The score playground (www/) in headless Chromium: the input editors (the Table tab's
// lines and scores, the JSON tab, "Now", the TREC import), a hostile candidate name, and
// the state kept in the URL.
// The subtests share one page, in order; each picks the preset it starts from.
import assert from "node:assert/strict";
import {
  sample, XSS, PRESET, expected, ready, settle, pickPreset, describedBy, rankingRows,
  buildPreset, playgroundTest,
  addressHolds, until,
} from "./helpers.mjs";

playgroundTest("score playground in headless Chromium: inputs, import and URL state", async (t, { page, browser, dialogs, watch }) => {
  await t.test("a TREC import's error names the line of the pasted text", async () => {
    await pickPreset(page, PRESET);
    await page.click("#tab-trec");
    const box = "#" + (await page.getAttribute('label:has-text("TREC run lines")', "for"));
    // The bad line is the third pasted, the second of its tag.
    await page.fill(box, ["1 Q0 a 1 1.0 bm25", "1 Q0 b 1 0.5 dense", "1 Q0 c 2 xyz dense"].join("\n"));
    await page.click('button:has-text("Import lists")');
    assert.equal(await page.textContent("#problem [data-error-code]"), "PARSE_ERROR");
    assert.equal(await page.textContent("#problem [data-error-field]"), "line 3");
    assert.match(await page.textContent("#problem [data-error-message]"), /^line 3:/);
    assert.equal(await page.getAttribute(box, "aria-invalid"), "true");
    assert.match((await describedBy(page, box)).join(" "), /line 3/);
    await page.click("#tab-table");
    await pickPreset(page, PRESET);
  });

  await t.test("an input without candidates says so, not that the filters dropped everything", async () => {
    await pickPreset(page, PRESET);
    await page.click("#tab-json");
    const box = "#" + (await page.getAttribute('label:has-text("PipelineInput as JSON")', "for"));
    await page.fill(box, JSON.stringify({ query: "q", lists: [{ name: "a", ids: [] }] }));
    await page.click("#apply-input-json");
    await settle(page);
    assert.equal(await page.getAttribute("#ranking-table, [data-empty]", "data-empty"), "no-candidates");
    await page.click("#tab-table");
    await pickPreset(page, "seed-000");
    await pickPreset(page, PRESET);
  });

  await t.test("a hostile candidate name is shown as text and stays inert", async () => {
    await pickPreset(page, "seed-000");
    const input = { query: "x", lists: [{ name: "semantic", ids: [XSS, "b"] }, { name: "keyword", ids: [XSS] }], items: { [XSS]: { name: XSS, summary: XSS } } };
    await page.click("#tab-json");
    await page.fill("#tabpanel-json textarea", JSON.stringify(input));
    await page.click("#apply-input-json");
    await settle(page);
    const rows = await rankingRows(page);
    assert.equal(rows[0].id, XSS);
    assert.equal(rows[0].idText, XSS);
    assert.equal(await page.textContent("#ranking-table tbody tr td.name-cell"), XSS);
    // Hover its bar: the tooltip shows the name as text too.
    await page.hover(`#stage-chart rect[data-stage="calibrated"][data-id="${XSS}"]`);
    assert.ok((await page.textContent("#tip")).includes(XSS));
    assert.equal(await page.evaluate(() => document.querySelectorAll("img").length), 0);
    await page.waitForTimeout(200);
    assert.deepEqual(dialogs, []);
  });

  await t.test("the state lives in the URL: a copied link restores it", async () => {
    await pickPreset(page, PRESET);
    await page.fill('#calibration input[type="number"][data-path="config.bands.degradedFloor"]', "0.7");
    await settle(page);
    await page.waitForFunction(() => location.hash.startsWith("#s=") && globalThis.__playground.state.config.bands?.degradedFloor === 0.7);
    await addressHolds(page);
    const link = await page.evaluate(() => location.href);
    const rows = await rankingRows(page);
    const other = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    watch(other);
    await other.goto(link);
    await ready(other);
    await settle(other);
    assert.equal(await other.inputValue('#calibration input[type="number"][data-path="config.bands.degradedFloor"]'), "0.7");
    assert.deepEqual(await rankingRows(other), rows);
    await other.close();
  });

  await t.test("the Table tab reads a whole line as the id unless the list's lines end with a score, and never merges ids", async () => {
    await pickPreset(page, "seed-000");
    const ta = '#controls textarea[data-path="input.lists.1.ids"]';
    const box = '#controls input[data-list-scores="1"]';
    const list = () => page.evaluate(() => globalThis.__playground.state.input.lists[1]);
    // The rule is on the page: the note, and the box's label.
    assert.match(await page.textContent("#tabpanel-table .note"), /whole line is the id/);
    assert.equal(await page.isChecked(box), false, "seed 000's keyword list has no scores");
    assert.match(await page.getAttribute(ta, "placeholder"), /whole line/);
    await page.fill(ta, "chapter 1\nchapter 2\nchapter 3");
    await settle(page);
    assert.deepEqual(await list(), { name: "keyword", ids: ["chapter 1", "chapter 2", "chapter 3"] });
    assert.ok(await page.isHidden("#problem"));
    const seed = buildPreset("seed-000", sample);
    const edited = { ...seed.input, lists: [seed.input.lists[0], { name: "keyword", ids: ["chapter 1", "chapter 2", "chapter 3"] }] };
    assert.equal(await page.evaluate(() => globalThis.__playground.result.out.stats.candidates), expected(seed.config, edited).out.stats.candidates);
    // Ticked, the same lines would merge into one id "chapter": refused, the list kept.
    await page.check(box);
    await settle(page);
    assert.equal(await page.$eval(box, (e) => document.querySelector(`label[for="${e.id}"]`).textContent), "Lines end with a score");
    assert.match((await describedBy(page, ta)).join(" "), /lines 1 and 2 both give the id "chapter"/);
    assert.deepEqual((await list()).ids, ["chapter 1", "chapter 2", "chapter 3"]);
    assert.match(await page.getAttribute(ta, "placeholder"), /last word is the score/);
    await page.fill(ta, "chapter 1 0.9\nchapter 2 0.8");
    await settle(page);
    assert.deepEqual(await list(), { name: "keyword", ids: ["chapter 1", "chapter 2"], scores: [0.9, 0.8] });
    assert.ok(await page.isHidden("#problem"));
    assert.equal(await page.getAttribute(ta, "aria-invalid"), null);
    // Unticked: the scores go, the ids stay.
    await page.uncheck(box);
    await settle(page);
    assert.deepEqual(await list(), { name: "keyword", ids: ["chapter 1", "chapter 2"] });
    assert.equal(await page.inputValue(ta), "chapter 1\nchapter 2");
    // A CISI list (scored): its text is id, space, score, and reads back the same.
    await pickPreset(page, PRESET);
    assert.equal(await page.isChecked(box), true);
    const before = await list();
    const text = await page.inputValue(ta);
    assert.equal(text.split("\n")[0], `${before.ids[0]} ${before.scores[0]}`);
    await page.fill(ta, text);
    await settle(page);
    assert.deepEqual(await list(), before);
    await pickPreset(page, "seed-000");
  });

  await t.test("a non-finite score in the Table tab says so and marks the outputs stale", async () => {
    await pickPreset(page, PRESET);
    const ta = '#controls textarea[data-path="input.lists.1.ids"]';
    const before = await page.evaluate(() => globalThis.__playground.state.input.lists[1]);
    const stale = () => page.$eval("#outputs", (e) => e.classList.contains("stale"));
    for (const bad of ["NaN", "Infinity", "-Infinity", "1e999", "x"]) {
      await page.fill(ta, `469 0.9\n60 ${bad}\n599 0.5`);
      await settle(page);
      const said = (await describedBy(page, ta)).join(" ");
      assert.match(said, new RegExp(`line 2: the score "${bad}" is not a finite number`), bad);
      assert.doesNotMatch(said, /every line or on none/);
      assert.equal(await page.getAttribute(ta, "aria-invalid"), "true");
      assert.ok(await page.isVisible("#problem"), bad);
      assert.match(await page.textContent("#problem [data-error-message]"), /not a finite number/);
      assert.ok(await stale(), `${bad}: the outputs are marked stale`);
      assert.deepEqual(await page.evaluate(() => globalThis.__playground.state.input.lists[1]), before, "the list is kept");
    }
    await page.fill(ta, "469 0.9\n60 0.7\n599 0.5");
    await settle(page);
    assert.ok(await page.isHidden("#problem"));
    assert.ok(!(await stale()));
    assert.equal(await page.getAttribute(ta, "aria-invalid"), null);
    await pickPreset(page, PRESET);
  });

  await t.test("\"Now\" typed as epoch milliseconds is a number the package takes", async () => {
    await pickPreset(page, "seed-000");
    const now = '#controls [data-path="input.now"]';
    assert.match(await page.getAttribute(now, "placeholder"), /epoch ms/);
    const seed = buildPreset("seed-000", sample);
    // 26 days after the seed's now: A (5 days old at x1.2) is then 31 days old (x1).
    const ms = Date.parse(seed.input.now) + 26 * 86_400_000;
    await page.fill(now, String(ms));
    await settle(page);
    assert.ok(await page.isHidden("#problem"), await page.textContent("#problem"));
    assert.equal(await page.evaluate(() => globalThis.__playground.state.input.now), ms);
    const { out } = expected(seed.config, { ...seed.input, now: ms });
    assert.deepEqual((await rankingRows(page)).map((r) => [r.id, Number(r.afterRecency)]), out.results.map((r) => [r.id, r.explain.afterRecency]));
    assert.notDeepEqual(out.results.map((r) => r.explain.afterRecency), expected(seed.config, seed.input).out.results.map((r) => r.explain.afterRecency), "the new now moves a score");
    // ISO 8601 stays text.
    await page.fill(now, "2025-06-01T00:00:00Z");
    await settle(page);
    assert.equal(await page.evaluate(() => globalThis.__playground.state.input.now), "2025-06-01T00:00:00Z");
    assert.ok(await page.isHidden("#problem"));
    await pickPreset(page, "seed-000");
  });

  await t.test("a TREC import without a query id takes the first pasted; replacing the lists replaces their metadata; ties keep the pasted order", async () => {
    await pickPreset(page, "seed-000");
    const heading = () => page.evaluate(() => [...document.querySelectorAll("h2")].map((e) => e.textContent).find((x) => x.startsWith("Candidate metadata")));
    assert.equal(await heading(), "Candidate metadata (10)");
    await page.click("#tab-trec");
    const box = "#" + (await page.getAttribute('label:has-text("TREC run lines")', "for"));
    assert.equal(await page.getAttribute('#tabpanel-trec input[type="text"]', "placeholder"), "first pasted");
    // Query 10 first, then 9 (the run's object lists "9" first); in query 10, docs 30 and 4 tie.
    await page.fill(box, ["10 Q0 30 1 3.2 bm25", "10 Q0 4 2 3.2 bm25", "10 Q0 docB 3 2.1 bm25", "9 Q0 docX 1 7.0 bm25", "9 Q0 docY 2 6.0 bm25"].join("\n"));
    await page.click('button:has-text("Import lists")');
    await settle(page);
    assert.ok(await page.isHidden("#problem"), await page.textContent("#problem"));
    const input = await page.evaluate(() => globalThis.__playground.state.input);
    assert.deepEqual(input.lists, [{ name: "bm25", ids: ["30", "4", "docB"], scores: [3.2, 3.2, 2.1] }]);
    assert.match(await page.textContent("#notice"), /for query 10:/);
    // Seed 000's metadata (A, B, C, J) went with its lists.
    assert.deepEqual(input.items, {});
    await until(page, () => [...document.querySelectorAll("h2")].some((e) => e.textContent === "Candidate metadata (3)"));
    assert.equal(await heading(), "Candidate metadata (3)");
    assert.deepEqual((await rankingRows(page)).map((r) => r.id), expected(buildPreset("seed-000", sample).config, input).out.results.map((r) => r.id));
    // Added (not replacing): the metadata stays.
    await pickPreset(page, "seed-000");
    const items = await page.evaluate(() => structuredClone(globalThis.__playground.state.input.items));
    await page.click("#tab-trec");
    await page.fill("#" + (await page.getAttribute('label:has-text("TREC run lines")', "for")), "7 Q0 A 1 1.5 extra");
    await page.uncheck('#tabpanel-trec input[type="checkbox"]');
    await page.click('button:has-text("Import lists")');
    await settle(page);
    const added = await page.evaluate(() => globalThis.__playground.state.input);
    assert.deepEqual(added.lists.map((l) => l.name), ["semantic", "keyword", "extra"]);
    assert.deepEqual(added.items, items);
    await page.click("#tab-table");
    await pickPreset(page, "seed-000");
  });
  await t.test("a large input lists 500 candidates' metadata, and a state too large for a link is kept out of the address", async () => {
    await pickPreset(page, "seed-000");
    // The JSON tab first: the tab is part of the state, and a tab chosen after the address
    // was read would reach it 250 ms later, before the large input if the page is slow.
    await page.click("#tab-json");
    // The address takes a state 250 ms after its last edit: read once it holds this one
    // (read before, it could be the last subtest's, replaced meanwhile by this one's).
    const hashBefore = await addressHolds(page);
    // 3,000 candidates: the metadata table lists the first 500 and says where the rest are.
    const ids = Array.from({ length: 3000 }, (_, i) => `doc-${i}`);
    const input = { query: "q", lists: [{ name: "a", ids }], items: { "doc-2999": { name: "last" } } };
    const box = "#" + (await page.getAttribute('label:has-text("PipelineInput as JSON")', "for"));
    // A link limit below this state's hash (the tests' own hook), so that it is too large.
    await page.evaluate(() => (globalThis.__playground.linkLimit.chars = 2000));
    await page.fill(box, JSON.stringify(input));
    await page.click("#apply-input-json");
    await settle(page);
    // The metadata panel (rebuilt 400 ms after the edit) and the notice (the address
    // write's, 250 ms after it): waited for, not slept on.
    await until(page, () => document.querySelectorAll("#metadata-panel table.meta-table tbody tr").length === 500 && /too large for a link/.test(document.querySelector("#notice").textContent));
    const rows = await page.$$eval("#metadata-panel table.meta-table tbody tr", (trs) => trs.length);
    assert.equal(rows, 500);
    assert.match(await page.textContent("#metadata-panel [data-meta-more]"), /^The first 500 of 3000 candidates; edit the others' metadata in the JSON tab/);
    assert.deepEqual((await page.evaluate(() => globalThis.__playground.state.input)).items, input.items, "the items not listed are kept");
    // The address keeps the last state that fitted, and the page says why.
    assert.equal(await page.evaluate(() => location.hash), hashBefore);
    assert.match(await page.textContent("#notice"), /too large for a link .* the address keeps the last state that fitted/);
    await page.click("#copy-link");
    assert.match(await page.textContent("#notice"), /too large for a link/);
    assert.equal(await page.evaluate(() => location.hash), hashBefore);
    await page.evaluate(() => (globalThis.__playground.linkLimit.chars = 2_000_000));
    await page.click("#tab-table");
    await pickPreset(page, "seed-000");
  });
});
