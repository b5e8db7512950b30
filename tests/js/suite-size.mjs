// How many tests the JS suite registers with both entries in Node: another runtime's run
// of the suite must have run and passed as many (not a share of them).
import { readFileSync } from "node:fs";
import * as core from "calibrank";
import * as lab from "calibrank/lab";
import { tests } from "./suite.js";

export function suiteSize() {
  const golden = JSON.parse(readFileSync(new URL("../golden/vectors.json", import.meta.url), "utf8"));
  return tests({ ...lab, ...core }, golden).length;
}
