// The score playground (www/) in headless Chromium: the JSON editors (the Input JSON tab,
// the configuration's "Edit the overrides as JSON" box, the multi-query queries, the bands
// mode's scores): they follow the state while shown, warn before undoing newer edits, and
// mark themselves with the package's error when what they applied is refused.
// The subtests share one page, in order; each picks the preset it starts from.
import assert from "node:assert/strict";
import { settle, pickPreset, playgroundTest } from "./helpers.mjs";

const INPUT_BOX = "#tabpanel-json textarea";
const CONFIG_BOX = "#config-json textarea";
const boxJson = async (page, sel) => JSON.parse(await page.inputValue(sel));
const warningShown = (page, sel) => page.$eval(sel, (ta) => !ta.parentElement.querySelector("[data-stale-warning]").hidden);

playgroundTest("score playground in headless Chromium: JSON editors", async (t, { page }) => {
  await t.test("the Input JSON tab follows edits made elsewhere, and warns before undoing them", async () => {
    await pickPreset(page, "seed-000");
    await page.click("#tab-json");
    await page.fill('[data-path="input.query"]', "typed after opening the JSON tab");
    await page.evaluate(() => (document.querySelector("#metadata-panel").open = true));
    await page.fill('[data-path="input.items.A.name"]', "renamed in the metadata table");
    await settle(page);
    let shown = await boxJson(page, INPUT_BOX);
    assert.equal(shown.query, "typed after opening the JSON tab");
    assert.equal(shown.items.A.name, "renamed in the metadata table");
    assert.equal(await warningShown(page, INPUT_BOX), false);

    // Edits of its own, not applied: kept, and a newer edit elsewhere is warned about.
    shown.lists[1].ids.push("D");
    await page.fill(INPUT_BOX, JSON.stringify(shown, null, 2));
    await page.fill('[data-path="input.query"]', "a newer query");
    await settle(page);
    assert.deepEqual((await boxJson(page, INPUT_BOX)).lists[1].ids.at(-1), "D", "the box keeps its own edits");
    assert.equal(await warningShown(page, INPUT_BOX), true);
    // Back to the state's text on request; then applying keeps the newer query.
    await page.click('#tabpanel-json [data-stale-warning] button');
    assert.equal((await boxJson(page, INPUT_BOX)).query, "a newer query");
    assert.equal(await warningShown(page, INPUT_BOX), false);
    assert.ok(await page.evaluate(() => document.activeElement.matches("#tabpanel-json textarea")), "the focus goes to the box");
    shown = await boxJson(page, INPUT_BOX);
    shown.lists[1].ids.push("D");
    await page.fill(INPUT_BOX, JSON.stringify(shown));
    await page.click("#apply-input-json");
    await settle(page);
    const input = await page.evaluate(() => globalThis.__playground.state.input);
    assert.equal(input.query, "a newer query");
    assert.equal(input.items.A.name, "renamed in the metadata table");
    assert.equal(input.lists[1].ids.at(-1), "D");
    assert.equal(await warningShown(page, INPUT_BOX), false);
    await page.click("#tab-table");
  });

  await t.test("the config JSON box follows the form, and warns before undoing its edits", async () => {
    await pickPreset(page, "seed-000");
    await page.evaluate(() => (document.querySelector("#config-json").open = true));
    assert.deepEqual(await boxJson(page, CONFIG_BOX), {});
    await page.fill('#controls [data-path="config.topN"]', "3");
    await page.fill('#calibration input[type=number][data-path="config.calibration.threshold"]', "0.03");
    await settle(page);
    assert.deepEqual(await boxJson(page, CONFIG_BOX), { topN: 3, calibration: { threshold: 0.03, method: "sigmoid" } });

    await page.fill(CONFIG_BOX, JSON.stringify({ topN: 3, calibration: { threshold: 0.03, method: "sigmoid" }, k: 30 }));
    await page.fill('#controls [data-path="config.topN"]', "4");
    await settle(page);
    assert.equal((await boxJson(page, CONFIG_BOX)).k, 30, "the box keeps its own edits");
    assert.equal(await warningShown(page, CONFIG_BOX), true);
    await page.click("#config-json [data-stale-warning] button");
    assert.deepEqual(await boxJson(page, CONFIG_BOX), { topN: 4, calibration: { threshold: 0.03, method: "sigmoid" } });
    await page.fill(CONFIG_BOX, JSON.stringify({ ...(await boxJson(page, CONFIG_BOX)), k: 30 }));
    await page.click('[data-focus-key="apply-config-json"]');
    await settle(page);
    assert.deepEqual(await page.evaluate(() => globalThis.__playground.state.config), { topN: 4, calibration: { threshold: 0.03, method: "sigmoid" }, k: 30 });
    assert.equal(await warningShown(page, CONFIG_BOX), false);
    await page.evaluate(() => (document.querySelector("#config-json").open = false));
  });

  await t.test("what a JSON box applied and the package refused marks that box with the package's error", async () => {
    /** The box `sel`: aria-invalid, and its inline message (aria-describedby) if shown. */
    const marked = (sel) => page.$eval(sel, (ta) => {
      const msgs = (ta.getAttribute("aria-describedby") || "").split(/\s+/).map((id) => document.getElementById(id)).filter((m) => m && m.classList.contains("field-error") && !m.hidden);
      return { invalid: ta.getAttribute("aria-invalid"), message: msgs.map((m) => m.textContent).join(" | ") };
    });
    const refused = async (sel, code, field) => {
      await settle(page);
      assert.equal(await page.textContent("#problem [data-error-code]"), code);
      assert.deepEqual(await marked(sel), { invalid: "true", message: `${code} (${field}): ${await page.textContent("#problem [data-error-message]")}` });
    };
    const cleared = async (sel) => {
      await settle(page);
      assert.ok(await page.isHidden("#problem"));
      assert.deepEqual(await marked(sel), { invalid: null, message: "" });
    };

    await pickPreset(page, "seed-000");
    await page.click("#tab-json");
    await page.fill(INPUT_BOX, JSON.stringify({ lists: [{ name: "a", ids: ["x", "y"], scores: [1] }] }));
    await page.click("#apply-input-json");
    await refused(INPUT_BOX, "LENGTH_MISMATCH", "lists[0].scores");
    await page.fill(INPUT_BOX, JSON.stringify({ lists: [{ name: "a", ids: ["x", "y"] }] }));
    await page.click("#apply-input-json");
    await cleared(INPUT_BOX);
    await page.click("#tab-table");

    await pickPreset(page, "seed-000");
    await page.evaluate(() => (document.querySelector("#config-json").open = true));
    await page.fill(CONFIG_BOX, JSON.stringify({ topk: 5 }));
    await page.click('[data-focus-key="apply-config-json"]');
    await refused(CONFIG_BOX, "UNKNOWN_FIELD", "config.topk");
    await page.fill(CONFIG_BOX, JSON.stringify({ topK: 5 }));
    await page.click('[data-focus-key="apply-config-json"]');
    await cleared(CONFIG_BOX);
    await page.evaluate(() => (document.querySelector("#config-json").open = false));

    await pickPreset(page, "seed-001-rrf");
    await page.fill("#controls textarea", JSON.stringify([[{ id: "A", score: "x" }]]));
    await page.click("#apply-multi-json");
    await refused("#controls textarea", "INVALID_TYPE", "queries[0][0].score");
    await page.fill("#controls textarea", JSON.stringify([[{ id: "A", score: 0.9 }]]));
    await page.click("#apply-multi-json");
    await cleared("#controls textarea");

    await pickPreset(page, "seed-002");
    await page.fill("#controls input.code", "0.9, 2");
    await refused("#controls input.code", "OUT_OF_RANGE", "score");
    await page.fill("#controls input.code", "0.9, 0.5");
    await cleared("#controls input.code");
    await pickPreset(page, "seed-000");
  });
});
