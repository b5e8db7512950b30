// The score playground (www/) in headless Chromium: links and loading that go wrong: a
// link whose state holds a value the page does not know, and calibrank/lab failing to
// load (its fetch aborted). Each subtest opens a page of its own.
import assert from "node:assert/strict";
import { sample, ready, settle, expected, buildPreset, playgroundTest } from "./helpers.mjs";

const link = (state) => `#j=${Buffer.from(JSON.stringify(state)).toString("base64url")}`;

playgroundTest("score playground in headless Chromium: odd links and a lab that does not load", async (t, { browser, url, watch }) => {
  await t.test("a link whose input tab is unknown opens the Table tab", async () => {
    for (const [tab, shown] of [["foo", "table"], ["json", "json"], [7, "table"]]) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      watch(page);
      const state = buildPreset("seed-000", sample);
      await page.goto(`${url}/${link({ ...state, view: { ...state.view, inputTab: tab } })}`);
      await ready(page);
      await settle(page);
      assert.equal(await page.getAttribute(`#tab-${shown}`, "aria-selected"), "true", `inputTab ${tab}`);
      assert.ok(await page.isVisible(`#tabpanel-${shown}`), `inputTab ${tab}: the panel is shown`);
      assert.ok(await page.$$eval("#ranking-table tbody tr", (trs) => trs.length) > 0);
      assert.equal(await page.evaluate(() => globalThis.__playground.state.view.inputTab), shown);
      await page.close();
    }
  });

  await t.test("a link whose mode is unknown is not read: the page says so and shows the default preset", async () => {
    const seed = buildPreset("seed-000", sample);
    for (const mode of ["bogus", 7, null]) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      watch(page);
      await page.goto(`${url}/${link({ ...buildPreset("seed-002", sample), mode })}`);
      await ready(page);
      await settle(page);
      assert.match(await page.textContent("#notice"), new RegExp(`The link's state could not be read \\(unknown mode ${JSON.stringify(mode)}`), `mode ${mode}`);
      assert.equal(await page.evaluate(() => globalThis.__playground.state.preset), "seed-000", `mode ${mode}`);
      assert.equal(await page.$$eval("#bands-table", (els) => els.length), 0, `mode ${mode}: not the bands page`);
      assert.equal(await page.$$eval("#ranking-table tbody tr", (trs) => trs.length), expected(seed.config, seed.input).out.results.length);
      // Opened from the address bar later (hashchange): said too, the page kept.
      await page.evaluate((hash) => (location.hash = hash), link({ ...buildPreset("seed-001-rrf", sample), mode: "bogus" }).slice(1));
      await page.waitForFunction(() => /could not be read \(unknown mode "bogus"/.test(document.querySelector("#notice").textContent));
      assert.equal(await page.evaluate(() => globalThis.__playground.state.preset), "seed-000");
      await page.close();
    }
  });

  await t.test("a link opened while the page writes its own address is the one read", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    watch(page);
    await page.goto(`${url}/`);
    await ready(page);
    await settle(page);
    // The page's debounced address write (a replaceState of its own state) landing
    // between the link put in the address bar and the hashchange that link fires: what
    // a busy machine did to the subtest above. The link's preset must be the one shown.
    const opened = link(buildPreset("seed-001-rrf", sample));
    const own = link(buildPreset("seed-002", sample));
    await page.evaluate(([hash, mine]) => {
      location.hash = hash;
      history.replaceState(null, "", mine);
    }, [opened.slice(1), own]);
    await page.waitForFunction(() => globalThis.__playground.state.preset === "seed-001-rrf", null, { timeout: 10_000 });
    await settle(page);
    assert.equal(await page.evaluate(() => globalThis.__playground.state.preset), "seed-001-rrf");
    await page.close();
  });

  await t.test("a CISI preset picked while calibrank/lab does not load: the menu keeps naming the page's preset", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // Not watched: the failed fetch is a console error of its own. Its uncaught errors are counted here.
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.route(/calibrank_lab\.wasm$/, (r) => r.abort());
    await page.goto(`${url}/`);
    await ready(page);
    await page.selectOption("#preset", "cisi-1");
    await page.waitForFunction(() => /calibrank\/lab could not be loaded/.test(document.querySelector("#problem").textContent));
    await settle(page);
    assert.equal(await page.evaluate(() => globalThis.__playground.state.preset), "seed-000");
    assert.equal(await page.inputValue("#preset"), "seed-000");
    assert.equal(await page.getAttribute("#outputs", "aria-busy"), null);
    // A preset that needs the core only still loads.
    await page.selectOption("#preset", "seed-003");
    await page.waitForFunction(() => globalThis.__playground.state.preset === "seed-003");
    assert.equal(await page.inputValue("#preset"), "seed-003");
    assert.deepEqual(errors, []);
    await page.close();
  });
});
