// The playground's edits with a large input, in headless Chromium: two lists of 1,000
// ids, topK = topN = 1,000, minConfidence 0; ten keystrokes in the Query box (no
// reranker reads it) and ten steps of the sigmoid threshold's slider (every result
// changes), each step until the page has drawn it, three rounds.
//   node bench/playground-edits.mjs [WWW_DIR] [PKG_DIR]      (defaults: www, pkg)
// For a build before a change: `git worktree add /tmp/old REV`, then
// `node bench/playground-edits.mjs /tmp/old/www pkg` (the page of REV, this package).
import { resolve } from "node:path";
import { serve } from "../tests/js/serve.mjs";
import { launch } from "../tests/js/chromium.mjs";

const [www = "www", pkg = "pkg"] = process.argv.slice(2);
const { server, url } = await serve(resolve(www), { mounts: { "/pkg/": resolve(pkg) } });
const browser = await launch();
const settle = (page) => page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(url + "/");
  await page.waitForSelector("html[data-ready=true]", { timeout: 60000 });
  const n = 1000;
  const a = Array.from({ length: n }, (_, i) => `doc-${i}`);
  const b = Array.from({ length: n }, (_, i) => `doc-${(i * 7) % n}`);
  await page.click("#tab-json");
  await page.fill("#tabpanel-json textarea", JSON.stringify({ query: "q", lists: [{ name: "a", ids: a }, { name: "b", ids: b }], items: {}, now: "2025-06-01T00:00:00.000Z" }));
  await page.click("#apply-input-json");
  await page.evaluate(() => (document.querySelector("#config-json").open = true));
  await page.fill("#config-json textarea", JSON.stringify({ topK: n, topN: n, minConfidence: 0 }));
  await page.click('[data-focus-key="apply-config-json"]');
  await page.evaluate(() => (document.querySelector("#config-json").open = false));
  await page.click("#tab-table");
  await settle(page);
  const returned = await page.evaluate(() => globalThis.__playground.result.out.results.length);
  console.log(`${resolve(www)}: ${returned} results returned`);
  for (let round = 0; round < 3; round++) {
    await page.click('[data-path="input.query"]');
    const t0 = performance.now();
    for (let i = 0; i < 10; i++) {
      await page.keyboard.type("x");
      await settle(page);
    }
    const typed = performance.now() - t0;
    await page.focus('#calibration input[type=range][data-path="config.calibration.threshold"]');
    const t1 = performance.now();
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press("ArrowRight");
      await settle(page);
    }
    console.log(`round ${round + 1}: 10 keystrokes ${typed.toFixed(0)} ms, 10 threshold steps ${(performance.now() - t1).toFixed(0)} ms`);
  }
} finally {
  await browser.close();
  server.close();
}
