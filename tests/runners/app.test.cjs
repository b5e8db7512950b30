// An app's Jest test (tests/js/runners.test.mjs runs it under Jest 30 and 29, in the
// node and jsdom environments): the package required as an app requires it, the
// results written to $CALIBRANK_RESULT for the runner's test to compare with Node's.
const { writeFileSync } = require("node:fs");
const lib = require("calibrank");
const lab = require("calibrank/lab");
const compute = require("./compute.cjs");
const fixture = require("./fixture.cjs");

test("calibrank in this environment", () => {
  const result = compute(lib, lab, fixture);
  result.environment = typeof window === "object" && typeof document === "object" ? "jsdom" : "node";
  writeFileSync(process.env.CALIBRANK_RESULT, JSON.stringify(result));
  expect(result.results.length).toBeGreaterThan(0);
});
