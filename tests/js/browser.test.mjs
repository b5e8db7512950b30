// The same JS suite in headless Chromium, loading the package through a plain
// <script type="module"> (import map to pkg/browser.js).
import test from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { serve } from "./serve.mjs";
import { launch, newPageWithErrors } from "./chromium.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));

test("JS suite in headless Chromium", async (t) => {
  const { server, url } = await serve(root);
  const browser = await launch();
  try {
    const { page, errors } = await newPageWithErrors(browser);
    await page.goto(`${url}/tests/js/browser.html`);
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 60_000 });
    const result = await page.evaluate(() => window.__result);
    const log = await page.textContent("#log");
    for (const line of log.trim().split("\n")) await t.test(`chromium: ${line.replace(/^(not )?ok - /, "")}`, () => assert.ok(line.startsWith("ok"), line));
    assert.deepEqual(result.failures, []);
    assert.ok(result.passed >= 12, `passed ${result.passed}`);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.close();
  }
});
