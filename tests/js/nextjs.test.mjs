// Next.js 16, as a user builds it (issue 12): the packed tarball installed into a fresh
// app with next, react and react-dom from the registry; `next build` (Turbopack, the
// default) and `next build --webpack`, then `next start`: a Node route, an edge route
// and a client-component page (in headless Chromium) must give the same numbers as Node,
// through both entries. Zero configuration: no next.config.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createServer } from "node:net";
import { launch, newPageWithErrors } from "./chromium.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const { probe } = await import(join(root, "tests/nextjs/app/probe.js"));
const expected = probe();
// Every route holds the reranking call's texts back, as Node does here (the edge route through
// calibrank_texts.wasm, imported as a module).
assert.equal(expected.heldAsked, 1, "the held call's texts were asked for");

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

function makeApp() {
  const dir = mkdtempSync(join(tmpdir(), "calibrank-next-"));
  execFileSync("npm", ["pack", "--silent", "--pack-destination", dir], { cwd: join(root, "pkg") });
  const tgz = readdirSync(dir).find((f) => f.endsWith(".tgz"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "next-app", private: true }));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "next@16", "react@19", "react-dom@19", `./${tgz}`], { cwd: dir, stdio: "ignore" });
  cpSync(join(root, "tests/nextjs/app"), join(dir, "app"), { recursive: true });
  return dir;
}

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

/**
 * `next start` on a free port, answering: the port is free when asked for but could be
 * taken before the server binds it (another process of the machine), so a server that
 * exits before it answers is started again on another port (three tries), and its
 * output is said when it never answers.
 */
async function start(dir) {
  let said = "";
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const server = spawn(join(dir, "node_modules/.bin/next"), ["start", "-p", String(port)], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (b) => {
      output = (output + b).slice(-4000);
    };
    server.stdout.on("data", keep);
    server.stderr.on("data", keep);
    let exited = null;
    const exit = new Promise((resolve) => server.once("exit", (code, signal) => resolve((exited = { code, signal }))));
    const base = `http://127.0.0.1:${port}`;
    // Until the server answers: a minute at most (about 1 s on a quiet machine).
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        await fetch(base + "/api/node");
        return { server, base };
      } catch (e) {
        if (exited !== null) break;
        if (Date.now() > deadline) {
          server.kill();
          throw new Error(`next start did not answer within 60 s; its output:\n${output}`, { cause: e });
        }
        await Promise.race([exit, new Promise((r) => setTimeout(r, 100))]);
      }
    }
    said += `\ntry ${attempt} (port ${port}) exited ${JSON.stringify(exited)}:\n${output}`;
    if (attempt === 3) throw new Error(`next start exited before it answered, three times:${said}`);
  }
}

async function startAndCheck(dir) {
  const { server, base } = await start(dir);
  try {
    for (const route of ["/api/node", "/api/edge"]) {
      const res = await fetch(base + route);
      assert.equal(res.status, 200, route);
      assert.deepEqual(await res.json(), expected, route);
    }
    const browser = await launch();
    try {
      const { page, errors } = await newPageWithErrors(browser);
      await page.goto(base + "/");
      await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 30_000 });
      assert.deepEqual(await page.evaluate(() => window.__result), expected, "the page");
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  } finally {
    server.kill();
  }
}

test("Next.js 16: Node route, edge route and page, with Turbopack and with webpack", { timeout: 600_000 }, async (t) => {
  const dir = makeApp();
  try {
    for (const bundler of ["turbopack", "webpack"]) {
      await t.test(bundler, async () => {
        rmSync(join(dir, ".next"), { recursive: true, force: true });
        execFileSync(join(dir, "node_modules/.bin/next"), ["build", ...(bundler === "webpack" ? ["--webpack"] : [])], { cwd: dir, env, stdio: "pipe" });
        await startAndCheck(dir);
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
