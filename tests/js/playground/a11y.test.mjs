// The score playground (www/) in headless Chromium: what assistive technology gets: the
// results announced (politely, once edits pause), the controls' accessible names and
// descriptions, focus rings that are not clipped, and a problem box that a phone's
// screen can fold away.
// The subtests share one page, in order; each picks the preset it starts from, or opens a
// page of its own.
import assert from "node:assert/strict";
import { ready, settle, pickPreset, playgroundTest } from "./helpers.mjs";

playgroundTest("score playground in headless Chromium: announcements, names and focus", async (t, { page, browser, url, watch }) => {
  await t.test("a change of the results is announced once the edits pause: outcome and returned count", async () => {
    await pickPreset(page, "seed-000");
    await page.waitForTimeout(1000); // the preset's own announcement
    await page.evaluate(() => {
      globalThis.__said = [];
      new MutationObserver(() => globalThis.__said.push(document.querySelector("#results-live").textContent)).observe(document.querySelector("#results-live"), { childList: true, characterData: true, subtree: true });
    });
    assert.equal(await page.getAttribute("#results-live", "aria-live"), "polite");
    const before = await page.getAttribute("#outcome", "data-kind");
    // 60 steps of the slider, each input event dispatched once the page drew the step
    // before (two frames): a drag, with no round trip from the test between steps. The
    // gaps between steps are measured: a step that came 400 ms or more after the one
    // before (a busy machine) may let the page's 800 ms pause pass, and so allows one
    // announcement more; at the usual tens of milliseconds a step, one in all.
    await page.focus('input[type=range][data-path="config.calibration.threshold"]');
    const gaps = await page.evaluate(async () => {
      const el = document.activeElement;
      const out = [];
      let last = performance.now();
      for (let i = 0; i < 60; i++) {
        el.stepUp();
        el.dispatchEvent(new Event("input", { bubbles: true }));
        await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
        const now = performance.now();
        out.push(now - last);
        last = now;
      }
      return out;
    });
    const pauses = gaps.filter((g) => g >= 400).length;
    await settle(page);
    const after = await page.getAttribute("#outcome", "data-kind");
    assert.notEqual(after, before, "the outcome changed");
    // The announcement, then time for any other to come.
    await page.waitForFunction(() => globalThis.__said.length > 0);
    await page.waitForTimeout(1200);
    const said = await page.evaluate(() => globalThis.__said);
    assert.ok(said.length >= 1 && said.length <= 1 + pauses, `one announcement for 60 steps (${pauses} steps came 400 ms or more after the one before): ${JSON.stringify(said)}`);
    const returned = await page.$$eval("#ranking-table tbody tr", (trs) => trs.length);
    const candidates = await page.evaluate(() => globalThis.__playground.result.out.stats.candidates);
    assert.match(said.at(-1), new RegExp(`^Outcome: ${after}, probability \\d\\.\\d\\d\\. ${returned ? `${returned} results? returned \\(` : "No result returned"}.* of ${candidates} candidates\\.$`));
    // A redraw that changes nothing says nothing.
    await page.uncheck("#show-dropped");
    await page.check("#show-dropped");
    await page.waitForTimeout(1200);
    assert.equal((await page.evaluate(() => globalThis.__said)).length, said.length);
    await pickPreset(page, "seed-000");
  });

  await t.test("accessible names: panels without their glyph, a list's controls after its name, help texts as descriptions", async () => {
    await pickPreset(page, "seed-000");
    const cdp = await page.context().newCDPSession(page);
    const names = async (role) => (await cdp.send("Accessibility.getFullAXTree")).nodes.filter((n) => !n.ignored && n.role?.value === role).map((n) => n.name?.value ?? "");
    const panels = await names("DisclosureTriangle");
    assert.ok(panels.includes("Query and ranked lists") && panels.includes("Configuration"), JSON.stringify(panels));
    for (const n of panels) assert.doesNotMatch(n, /▸/);

    // A renamed list: every control of its row says the new name; its checkbox names the list too.
    await page.fill('[data-path="input.lists.0.name"]', "bm25");
    await settle(page);
    const row = await page.$$eval("#tabpanel-table tbody tr:first-child :is(input, textarea, button)", (els) => els.map((e) => e.getAttribute("aria-label")));
    assert.deepEqual(row, ["Name of list 1", "Weight of list bm25", "Ids of list bm25, best first", "Lines end with a score, list bm25", "Remove list bm25"]);
    const boxes = (await names("checkbox")).filter((n) => n.startsWith("Lines end with a score"));
    assert.deepEqual(boxes, ["Lines end with a score, list bm25", "Lines end with a score, list keyword"]);
    await cdp.detach();

    // Every help text of the configuration describes its control.
    const wasOpen = await page.$$eval("#controls details", (ds) => ds.map((d) => d.open));
    await page.evaluate(() => document.querySelectorAll("#controls details").forEach((d) => (d.open = true)));
    const helps = await page.$$eval("#controls .field", (fields) => fields.filter((f) => f.querySelector(".help")).map((f) => {
      const c = f.querySelector("input, select, textarea");
      const ids = (c.getAttribute("aria-describedby") || "").split(/\s+/);
      return [c.dataset.path, ids.includes(f.querySelector(".help").id)];
    }));
    assert.ok(helps.length >= 10, JSON.stringify(helps));
    assert.deepEqual(helps.filter(([, described]) => !described), []);
    await page.$$eval("#controls details", (ds, open) => ds.forEach((d, i) => (d.open = open[i] ?? d.open)), wasOpen);
    await pickPreset(page, "seed-000");
  });

  await t.test("the focus ring of a control at a table scroller's edge is not clipped", async () => {
    await pickPreset(page, "seed-000");
    await page.click('[data-path="input.now"]');
    for (let i = 0; i < 10 && !(await page.evaluate(() => document.activeElement.matches('[data-path="input.lists.0.name"]'))); i++) await page.keyboard.press("Tab");
    // The ring (outline and its offset) within the scroller's padding box, which clips it.
    const fit = await page.evaluate(() => {
      const el = document.activeElement;
      const cs = getComputedStyle(el);
      const ring = parseFloat(cs.outlineWidth) + parseFloat(cs.outlineOffset);
      const r = el.getBoundingClientRect();
      const box = el.closest(".table-scroll");
      const s = box.getBoundingClientRect();
      const left = s.left + box.clientLeft;
      const top = s.top + box.clientTop;
      return { path: el.dataset.path, style: cs.outlineStyle, ring, inside: r.left - ring >= left - 0.5 && r.top - ring >= top - 0.5 && r.right + ring <= left + box.clientWidth + 0.5 && r.bottom + ring <= top + box.clientHeight + 0.5 };
    });
    assert.deepEqual(fit, { path: "input.lists.0.name", style: "solid", ring: 5, inside: true });
  });

  await t.test("at 375 x 667 the sticky problem box holds at most a third of the screen, and folds to its title line", async () => {
    const phone = await browser.newPage({ viewport: { width: 375, height: 667 } });
    watch(phone);
    await phone.goto(`${url}/`);
    await ready(phone);
    // A long package message: an unknown key of the configuration, the keys listed.
    await phone.evaluate(() => {
      const box = document.querySelector("#config-json");
      box.open = true;
      box.closest("details.panel").open = true; // closed on a phone
    });
    await phone.fill("#config-json textarea", JSON.stringify({ topk: 5 }));
    await phone.click('[data-focus-key="apply-config-json"]');
    await settle(phone);
    await phone.evaluate(() => window.scrollTo(0, 900));
    const box = () => phone.$eval("#problem", (p) => ({ height: p.offsetHeight, top: p.getBoundingClientRect().top }));
    const open = await box();
    assert.ok(open.height <= 667 / 3, `the box is ${open.height} px high`);
    assert.equal(open.top, 0, "sticky at the top");
    const toggle = "#problem .problem-toggle";
    assert.equal(await phone.getAttribute(toggle, "aria-expanded"), "true");
    await phone.click(toggle);
    assert.equal(await phone.getAttribute(toggle, "aria-expanded"), "false");
    assert.ok(await phone.isHidden("#problem-body"));
    assert.ok((await box()).height <= 80, `folded, the box is ${(await box()).height} px high`);
    assert.equal(await phone.textContent("#problem .problem-brief"), "UNKNOWN_FIELD · config.topk");
    assert.ok(await phone.evaluate(() => document.activeElement.matches("#problem .problem-toggle")));
    // The next problem comes folded too; unfolded, its details are back.
    await phone.fill("#config-json textarea", JSON.stringify({ topn: 5 }));
    await phone.click('[data-focus-key="apply-config-json"]');
    await settle(phone);
    assert.equal(await phone.textContent("#problem .problem-brief"), "UNKNOWN_FIELD · config.topn");
    assert.ok(await phone.isHidden("#problem-body"));
    await phone.click(toggle);
    assert.ok(await phone.isVisible("#problem [data-error-message]"));
    await phone.close();
  });
});
