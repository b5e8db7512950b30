// The package's own objects (its classes' instances, the option and limit tables it makes,
// the results and errors it hands back) are defined key by key, never assigned keys they
// lack: such an assignment goes through Object.prototype, where a caller's setter of the
// same name would run instead (the object left without the key) and a read-only value
// would throw a TypeError in the package's strict code, at import or in any later call.
// Every property name the package's JavaScript assigns (harvested from the Node entries'
// bundles, calibrank/init's included) and every key of its answers is planted on
// Object.prototype, in child processes (tests/js/own-objects-child.mjs), as read-only
// values and as accessors: each call answers as in a process without them, and no setter
// runs from the package's code (the assigned names before the package loads, all of them
// after: Node's module loader reads some of the answers' keys from objects of its own).
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const root = new URL("../..", import.meta.url).pathname;
const child = new URL("./own-objects-child.mjs", import.meta.url).pathname;
const run = (plant, phase, names) =>
  JSON.parse(execFileSync(process.execPath, [child], { cwd: root, encoding: "utf8", env: { ...process.env, PLANT: plant, PHASE: phase, NAMES: names.join(",") } }).trim());

// Names no program survives on Object.prototype: a property descriptor's keys (every
// descriptor object would inherit them) and names Node assigns on its own objects while
// it starts (its streams), which stop Node before any of the package's code runs.
const NODE_OWN = new Set(["value", "writable", "get", "set", "enumerable", "configurable", "length", "read", "end"]);

function keysOf(v, into) {
  if (Array.isArray(v)) for (const x of v) keysOf(x, into);
  else if (v !== null && typeof v === "object")
    for (const [k, x] of Object.entries(v)) {
      if (!/^\d+$/.test(k)) into.add(k);
      keysOf(x, into);
    }
  return into;
}

test("a caller's setter or read-only value on Object.prototype, of any name the package assigns or answers with, changes nothing", () => {
  const clean = run("none", "before", []);
  assert.equal(clean.importError, undefined);
  assert.deepEqual(clean.setterRuns, []);
  assert.ok(clean["run large explain heuristic"].ok && clean["fuseMultiQuery verbose"].ok && clean["optimizeFusion"].ok, "the calls answer");
  assert.equal(clean["rrf cyclic options"].error[4], "TypeError", "the engine's error kept as the cause");
  const names = new Set();
  for (const f of ["pkg/node.mjs", "pkg/lab.node.mjs", "pkg/init.node.mjs", "pkg/score_error.cjs"]) {
    const text = readFileSync(root + f, "utf8");
    // Assignments to a property (`o.x = ...`, `o.x += ...`, `o.x ||= ...`, `o.x++`...),
    // by name or by a quoted key (`o["x"] = ...`).
    const assigning = String.raw`\s*(?:=(?![=>])|\+=|-=|\*=|\/=|%=|\*\*=|\|=|&=|\^=|<<=|>>>?=|\?\?=|\|\|=|&&=|\+\+|--)`;
    for (const m of text.matchAll(new RegExp(String.raw`\.([A-Za-z_$][\w$]*)` + assigning, "g"))) names.add(m[1]);
    for (const m of text.matchAll(new RegExp(String.raw`\[\s*"([^"]+)"\s*\]` + assigning, "g"))) names.add(m[1]);
    // Class fields (a line of a name, or of a name and its initializer): defined, but
    // planted too, so that one written back as an assignment in a constructor fails here.
    for (const m of text.matchAll(/^\s+([A-Za-z_$][\w$]*)(?:\s*=[^=>].*)?;$/gm)) names.add(m[1]);
    // Keys defined one by one, and the options a ScoreError is made with (`cause`, which
    // Error's constructor defines).
    for (const m of text.matchAll(/defineProperty\([^,]+,\s*"([^"]+)"/g)) names.add(m[1]);
    for (const m of text.matchAll(/new ScoreError\d*\([^;\n]*\{ ([A-Za-z_$][\w$]*)\b/g)) names.add(m[1]);
  }
  for (const n of NODE_OWN) names.delete(n);
  // The bundles' assignments of their classes' fields and of the objects they build.
  for (const n of ["busy", "tags", "lease", "units", "textsSlot", "lastSlots", "generation", "cause"]) assert.ok(names.has(n), `${n} harvested`);
  const assigned = [...names].sort();
  // With the answers' keys: results, explanations, limits, lab reports. (Planted only once
  // the package is imported: Node's module loader reads some of them, `source`, from
  // objects of its own.)
  for (const answer of Object.values(clean)) if (answer.ok !== undefined) keysOf(answer.ok, names);
  for (const n of NODE_OWN) names.delete(n);
  for (const n of ["listScore", "queryScores", "maxTotalEntries", "contributions", "ece"]) assert.ok(names.has(n), `${n} harvested`);
  assert.ok(assigned.length > 50 && names.size > assigned.length, `${assigned.length} names assigned, ${names.size} with the answers' keys`);
  const all = [...names].sort();
  for (const plant of ["value", "accessor"])
    for (const [phase, list] of [
      ["before", assigned],
      ["after", all],
    ]) {
      const got = run(plant, phase, list);
      const what = `${plant}, planted ${phase} the import`;
      assert.equal(got.importError, undefined, `${what}: the package imports`);
      assert.deepEqual(got.setterRuns, [], `${what}: no setter runs from the package's code`);
      for (const k of Object.keys(clean)) assert.deepEqual(got[k], clean[k], `${what}: ${k}`);
    }
});
