// The .d.ts against what the package returns at run time: `Pipeline.config` of several
// configurations, written as literals typed `EffectivePipelineConfig` into a TypeScript
// file and compiled by the real compiler (`tsc --strict`). A key the package returns that
// the type lacks fails as an excess property; a key the type requires that the package
// leaves out fails as a missing one; a `null` where the type says `number` fails too.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as lib from "calibrank";
import * as lab from "calibrank/lab";
import * as coreInit from "calibrank/init";
import * as labInit from "calibrank/lab/init";

const root = new URL("../..", import.meta.url).pathname;
const tsc = join(root, "node_modules/.bin/tsc");

function compile(source) {
  // Inside the checkout, so that "calibrank" resolves through its node_modules.
  const dir = mkdtempSync(join(root, "tests/ts/.generated-"));
  try {
    writeFileSync(join(dir, "check.mts"), source);
    execFileSync(tsc, ["--strict", "--noEmit", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext", "--lib", "es2022,dom", join(dir, "check.mts")], {
      cwd: root,
      encoding: "utf8",
      stdio: "pipe",
    });
    return "";
  } catch (e) {
    return (e.stdout || "") + (e.stderr || "") || String(e);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("Pipeline.config matches EffectivePipelineConfig (every field present, unset options null)", () => {
  const fitted = lab.fitPlatt([0.1, 0.4, 0.6, 0.9], [0, 0, 1, 1]);
  const configs = [
    {},
    { rerank: { method: "heuristic", candidateLimit: 20, heuristic: { stopwords: ["the"] } } },
    { rerank: { method: "cross_encoder" }, normalization: { method: "softmax", temperature: 2 } },
    { recency: { mode: "fiscal_year", fiscalYear: { window: 3, latestYear: 2024 } }, calibration: fitted },
    { calibration: lab.fitIsotonic([0.1, 0.4, 0.6, 0.9], [0, 0, 1, 1]), confidence: { k: 3 } },
    { bands: { profiles: [{ name: "strict", highFloor: 0.9, degradedFloor: 0.7 }] }, weights: { semantic: 2 } },
  ];
  const seen = configs.map((c) => new lib.Pipeline(c).config);
  // The nulls the type must allow are there.
  assert.equal(seen[0].rerank.candidateLimit, null);
  assert.equal(seen[0].rerank.heuristic.stopwords, null);
  assert.equal(seen[0].confidence.k, null);
  assert.equal(seen[0].confidence.model, null);
  const literals = seen.map((c, i) => `export const c${i}: EffectivePipelineConfig = ${JSON.stringify(c)};`).join("\n");
  const ok = compile(`import type { EffectivePipelineConfig } from "calibrank";\n${literals}\n`);
  assert.equal(ok, "", "every returned configuration type-checks");
  // The check can fail: a key the type does not know, a missing one, a null for a number.
  const extra = { ...seen[0], extra: 1 };
  const { topK, ...missing } = seen[0];
  const nullK = { ...seen[0], k: null };
  for (const [what, c] of [["an unknown key", extra], ["a missing key", missing], ["null for a number", nullK]]) {
    const out = compile(`import type { EffectivePipelineConfig } from "calibrank";\nexport const c: EffectivePipelineConfig = ${JSON.stringify(c)};\n`);
    assert.match(out, /error TS/, `${what} is refused`);
  }
  assert.equal(typeof topK, "number");
});

test("every runtime export of each entry is declared in its .d.ts, and nothing more", () => {
  const entries = [
    ["calibrank", lib],
    ["calibrank/lab", lab],
    ["calibrank/init", coreInit],
    ["calibrank/lab/init", labInit],
  ];
  for (const [spec, mod] of entries) {
    const names = Object.keys(mod).sort();
    // Imported by name: an export the .d.ts lacks is TS2305 / TS2724.
    // (`default`, the init entries' `init`, imported under a name of its own.)
    const local = (n) => (n === "default" ? "defaultExport" : n);
    const src = `import { ${names.map((n) => (n === "default" ? `default as ${local(n)}` : n)).join(", ")} } from "${spec}";\nexport const all = [${names.map(local).join(", ")}];\n`;
    assert.equal(compile(src), "", `${spec}: ${names.join(", ")}`);
    // The check can fail: a name the runtime lacks is refused.
    assert.match(compile(`import { notExported } from "${spec}";\nexport const x = notExported;\n`), /error TS/);
    // And the .d.ts declares no value the runtime lacks: a namespace import's keys, typed.
    const declared = compile(
      `import * as m from "${spec}";\n` +
        `type Values = { [K in keyof typeof m as (typeof m)[K] extends object | ((...a: never[]) => unknown) ? K : never]: 1 };\n` +
        `export const keys: { [K in keyof Values]-?: 1 } = ${JSON.stringify(Object.fromEntries(names.map((n) => [n, 1])))};\n`,
    );
    assert.equal(declared, "", `${spec}: the declared values are the runtime's`);
  }
});

// The names the lab's types list (FusionMethod, TunedFusionMethod, RunNormalization) are
// the names its module takes: those its UNKNOWN_METHOD messages list, each of which runs,
// and the normalizations' two aliases (src/lab/runfusion/mod.rs `NORMS`' documentation).
test("the lab's method and normalization unions are the names the module takes", () => {
  const listed = (f) => {
    try {
      f();
    } catch (e) {
      assert.equal(e.code, "UNKNOWN_METHOD", e.message);
      return e.message;
    }
    assert.fail("an unknown name was taken");
  };
  const run = { q1: { d1: 0.9, d2: 0.5 }, q2: { d3: 0.7, d1: 0.2 } };
  const qrels = { q1: { d1: 1 }, q2: { d3: 1 } };
  // The list after `marker`, up to the message's next clause ("; did you mean ...").
  const after = (msg, marker) =>
    msg
      .slice(msg.indexOf(marker) + marker.length)
      .split(/;| \(/)[0]
      .split(", ")
      .map((s) => s.trim());
  const methods = after(listed(() => lab.fuseRuns([run, run], { method: "nope" })), "expected one of ");
  const norms = [...after(listed(() => lab.fuseRuns([run, run], { method: "sum", norm: "nope" })), "expected one of "), "min_max", "min_max_inverted"];
  const tuned = [...listed(() => lab.optimizeFusion(qrels, [run, run], { method: "nope" })).matchAll(/"([a-z_]+)"/g)].map((m) => m[1]).filter((m) => m !== "nope");
  assert.ok(methods.length >= 20 && norms.length >= 8 && tuned.length >= 10, `${methods} / ${norms} / ${tuned}`);
  // Each runs (the parameters a method needs given).
  const params = { rbc: { phi: 0.8 }, gmnz: { gamma: 1 } };
  for (const method of methods) assert.ok(lab.fuseRuns([run, run], { method, params: params[method] }), method);
  for (const norm of norms) assert.ok(lab.fuseRuns([run, run], { method: "sum", norm }), norm);
  for (const method of tuned) assert.ok(lab.optimizeFusion(qrels, [run, run], { method, step: 0.5, kValues: [10] }).best, method);
  // Every listed name is in its union, and the union holds no other (a name too many or
  // missing either way is a compile error).
  const same = (type, names) =>
    `{ const all: ${type}[] = ${JSON.stringify(names)}; const back: ${names.map((n) => JSON.stringify(n)).join(" | ")} = null as unknown as ${type}; console.log(all, back); }\n`;
  const src =
    `import type { FusionMethod, TunedFusionMethod, RunNormalization } from "calibrank/lab";\n` +
    same("FusionMethod", methods) +
    same("TunedFusionMethod", tuned) +
    same("RunNormalization", norms);
  assert.equal(compile(src), "");
  // The check can fail: a union without one of the module's names is refused.
  assert.match(compile(`import type { FusionMethod } from "calibrank/lab";\n` + same("FusionMethod", methods.slice(1))), /error TS/);
  assert.match(compile(`import type { FusionMethod } from "calibrank/lab";\n` + same("FusionMethod", [...methods, "extra"])), /error TS/);
});

test("a module re-exporting both entries with `export *`: TypeScript refuses the names Node leaves ambiguous, and only those", async () => {
  // The names both entries export as bindings of their own (each entry asks its own
  // module); ScoreError is one class, one binding, in both.
  const ambiguous = Object.keys(lib).filter((k) => k in lab && lib[k] !== lab[k]).sort();
  assert.deepEqual(ambiguous, ["defaultLimits", "errorCodes", "version"]);
  assert.equal(lab.ScoreError, lib.ScoreError);
  // At run time: a namespace import leaves them out, a named import fails to link.
  const dir = mkdtempSync(join(root, "tests/ts/.generated-"));
  try {
    writeFileSync(join(dir, "kit.mjs"), 'export * from "calibrank";\nexport * from "calibrank/lab";\n');
    writeFileSync(join(dir, "named.mjs"), 'export { version } from "./kit.mjs";\n');
    const kit = await import(join(dir, "kit.mjs"));
    for (const name of ambiguous) assert.equal(name in kit, false, name);
    assert.equal(kit.ScoreError, lib.ScoreError);
    assert.equal(kit.Pipeline, lib.Pipeline);
    assert.equal(kit.fitPlatt, lab.fitPlatt);
    await assert.rejects(import(join(dir, "named.mjs")), (e) => e instanceof SyntaxError && /conflicting star exports/.test(e.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // The declarations say the same: TS2308 on those names, no other error.
  const out = compile('export * from "calibrank";\nexport * from "calibrank/lab";\n');
  const refused = [...out.matchAll(/error TS2308: [^\n]*member named '(\w+)'/g)].map((m) => m[1]).sort();
  assert.deepEqual(refused, ambiguous, out);
  assert.equal(out.split("\n").filter((l) => /error TS/.test(l)).length, ambiguous.length, out);
  // Named re-exports resolve it (as TypeScript's message advises).
  assert.equal(compile('export * from "calibrank";\nexport { fitPlatt, Run, type OptimizeReport } from "calibrank/lab";\n'), "");
});
