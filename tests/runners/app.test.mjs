// An app's Vitest test in the jsdom environment (tests/js/runners.test.mjs): the package
// imported as an app imports it, the results written to $CALIBRANK_RESULT.
// @vitest-environment jsdom
import { test, expect } from "vitest";
import { writeFileSync } from "node:fs";
import * as lib from "calibrank";
import * as lab from "calibrank/lab";
import compute from "./compute.cjs";
import * as fixture from "./fixture.js";

test("calibrank in jsdom", () => {
  const result = compute(lib, lab, fixture);
  result.environment = typeof window === "object" && typeof document === "object" ? "jsdom" : "node";
  writeFileSync(process.env.CALIBRANK_RESULT, JSON.stringify(result));
  expect(result.results.length).toBeGreaterThan(0);
});
