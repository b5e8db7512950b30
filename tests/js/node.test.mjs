// The JS suite against the built package in Node: through the ESM entry (import) and
// the CommonJS entry (require), both resolved by the package's exports map.
import test from "node:test";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as esm from "calibrank";
import { tests } from "./suite.js";

const golden = JSON.parse(readFileSync(new URL("../golden/vectors.json", import.meta.url), "utf8"));
const cjs = createRequire(import.meta.url)("calibrank");

for (const t of tests(esm, golden)) test(`esm: ${t.name}`, t.fn);
for (const t of tests(cjs, golden)) test(`cjs: ${t.name}`, t.fn);

test("the exports map resolves node entries", () => {
  const req = createRequire(import.meta.url);
  const resolved = req.resolve("calibrank");
  if (!resolved.endsWith("node.cjs")) throw new Error(`require resolved to ${resolved}`);
  if (!(esm.ScoreError.prototype instanceof Error)) throw new Error("ScoreError extends Error");
});
