// An app's Jest test (tests/js/runners.test.mjs runs it under Jest 30 and 29, in the
// node and jsdom environments): the package required as an app requires it, through
// `calibrank` and `calibrank/lab` and through the init entries, the results written to
// $CALIBRANK_RESULT for the runner's test to compare with Node's.
const { writeFileSync } = require("node:fs");
const lib = require("calibrank");
const lab = require("calibrank/lab");
const compute = require("./compute.cjs");
const fixture = require("./fixture.cjs");

test("calibrank in this environment", async () => {
  const result = compute(lib, lab, fixture);
  // The entries without top-level await, initialized from their .wasm next to them.
  const init = require("calibrank/init");
  const labInit = require("calibrank/lab/init");
  await init.default();
  await labInit.default();
  result.viaInit = compute(init, labInit, fixture);
  result.environment = typeof window === "object" && typeof document === "object" ? "jsdom" : "node";
  writeFileSync(process.env.CALIBRANK_RESULT, JSON.stringify(result));
  expect(result.results.length).toBeGreaterThan(0);
});
