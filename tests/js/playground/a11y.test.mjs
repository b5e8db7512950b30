// The score playground (www/) in headless Chromium: what assistive technology gets: the
// results announced (politely, once edits pause), the controls' accessible names and
// descriptions, focus rings that are not clipped, and a problem box that a phone's
// screen can fold away.
// The subtests share one page, in order; each picks the preset it starts from, or opens a
// page of its own.
import assert from "node:assert/strict";
import { settle, pickPreset, playgroundTest } from "./helpers.mjs";

playgroundTest("score playground in headless Chromium: announcements, names and focus", async (t, { page }) => {
  await t.test("a change of the results is announced once the edits pause: outcome and returned count", async () => {
    await pickPreset(page, "seed-000");
    await page.waitForTimeout(1000); // the preset's own announcement
    await page.evaluate(() => {
      globalThis.__said = [];
      new MutationObserver(() => globalThis.__said.push(document.querySelector("#results-live").textContent)).observe(document.querySelector("#results-live"), { childList: true, characterData: true, subtree: true });
    });
    assert.equal(await page.getAttribute("#results-live", "aria-live"), "polite");
    const before = await page.getAttribute("#outcome", "data-kind");
    await page.focus('input[type=range][data-path="config.calibration.threshold"]');
    for (let i = 0; i < 60; i++) await page.keyboard.press("ArrowRight");
    await settle(page);
    const after = await page.getAttribute("#outcome", "data-kind");
    assert.notEqual(after, before, "the outcome changed");
    await page.waitForTimeout(1200);
    const said = await page.evaluate(() => globalThis.__said);
    assert.equal(said.length, 1, `one announcement for 60 steps: ${JSON.stringify(said)}`);
    const returned = await page.$$eval("#ranking-table tbody tr", (trs) => trs.length);
    const candidates = await page.evaluate(() => globalThis.__playground.result.out.stats.candidates);
    assert.match(said[0], new RegExp(`^Outcome: ${after}, probability \\d\\.\\d\\d\\. ${returned ? `${returned} results? returned \\(` : "No result returned"}.* of ${candidates} candidates\\.$`));
    // A redraw that changes nothing says nothing.
    await page.uncheck("#show-dropped");
    await page.check("#show-dropped");
    await page.waitForTimeout(1200);
    assert.equal((await page.evaluate(() => globalThis.__said)).length, 1);
    await pickPreset(page, "seed-000");
  });
});
