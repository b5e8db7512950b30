// Self time by function of a V8 .cpuprofile: node bench/cpuprof-summary.mjs FILE [top]
// or, by source line within one function (its sampled ticks per line, with the line's
// text when SOURCE is given, e.g. the package's node.mjs):
//   node bench/cpuprof-summary.mjs FILE --lines FUNCTION [SOURCE]
import { readFileSync } from "node:fs";

const prof = JSON.parse(readFileSync(process.argv[2], "utf8"));
if (process.argv[3] === "--lines") {
  const fn = process.argv[4];
  const source = process.argv[5] ? readFileSync(process.argv[5], "utf8").split("\n") : [];
  const ticks = new Map();
  for (const n of prof.nodes)
    if (n.callFrame.functionName === fn) for (const t of n.positionTicks ?? []) ticks.set(t.line, (ticks.get(t.line) ?? 0) + t.ticks);
  const all = [...ticks.values()].reduce((a, b) => a + b, 0);
  for (const [line, t] of [...ticks].sort((a, b) => b[1] - a[1]).slice(0, 20))
    console.log(`${((100 * t) / all).toFixed(1).padStart(5)}%  ${String(line).padStart(5)}  ${(source[line - 1] ?? "").trim().slice(0, 110)}`);
  process.exit(0);
}
const top = Number(process.argv[3] ?? 30);
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = prof.timeDeltas;
prof.samples.forEach((id, i) => {
  const n = byId.get(id);
  const f = n.callFrame;
  const key = `${f.functionName || "(anonymous)"} ${f.url ? f.url.split("/").pop() + ":" + f.lineNumber : ""}`;
  self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${(v / 1000).toFixed(1).padStart(9)} ms ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k.slice(0, 160)}`);

// With a third argument PATTERN: the call stacks (3 frames up) that lead to functions
// whose name contains PATTERN, by self time.
if (process.argv[4]) {
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const hits = new Map();
  prof.samples.forEach((id, i) => {
    const n = byId.get(id);
    if (!n.callFrame.functionName.includes(process.argv[4])) return;
    const chain = [];
    let p = parent.get(id);
    for (let d = 0; d < 4 && p !== undefined; d++, p = parent.get(p)) chain.push(byId.get(p).callFrame.functionName.slice(0, 70));
    const k = chain.join(" <- ");
    hits.set(k, (hits.get(k) ?? 0) + (dt[i] ?? 0));
  });
  console.log(`\ncallers of *${process.argv[4]}*:`);
  for (const [k, v] of [...hits].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`${(v / 1000).toFixed(1).padStart(9)} ms  ${k}`);
}
