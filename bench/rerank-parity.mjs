// `rerank` on two builds of the package (A, B: directories like pkg/): the same results,
// bit for bit, and the same error codes and fields, on fixed cases and 3,000 random inputs;
// with `--time`, the time of a call of 20 and 200 candidates on each (interleaved, 15 rounds).
//   node bench/rerank-parity.mjs A B [--time]
import { pathToFileURL } from "node:url";
import { lcg, outcome } from "./parity.mjs";
const [A, B, flag] = process.argv.slice(2);
const a = await import(pathToFileURL(A + "/node.mjs").href);
const b = await import(pathToFileURL(B + "/node.mjs").href);
// Errors by code and field (the messages of type errors were reworded when candidates
// stopped crossing as JSON).
const run = (lib, q, c, o) => outcome(() => lib.rerank(q, c, o), { messages: false });
const C = (over = {}) => ({ id: "a", score: 1, name: "GraphTraversal", ...over });
const cases = [
  ["GraphTraversal", [C(), C({ id: "b", name: "graph", summary: "traversal of graphs", type: "class" }), C({ id: "c", name: "x", content: "short", type: "file" })]],
  ["q", []],
  ["q", [C({ score: -0 }), C({ id: "b", score: 0 })]],
  ["q", [C({ score: NaN })]],
  ["q", [C({ score: Infinity })]],
  ["q", [C({ score: -1 })]],
  ["q", [C({ score: "1" })]],
  ["q", [C({ id: 1 })]],
  ["q", [C({ id: null })]],
  ["q", [{ score: 1, name: "n" }]],
  ["q", [{ id: "a", name: "n" }]],
  ["q", [{ id: "a", score: 1 }]],
  ["q", [C({ name: null })]],
  ["q", [C({ type: null, summary: null, content: null })]],
  ["q", [C({ type: 3 })]],
  ["q", [C({ summary: {} })]],
  ["q", [C({ content: [] })]],
  ["q", [C({ bogus: 1 })]],
  ["q", [C(), C()]],
  ["q", [C({ id: "x\uD800" })]],
  ["q\uD800", [C({ name: "q\uD800", summary: "\uDC00" })]],
  ["q", [1]],
  ["q", [null]],
  ["q", [[1, 2]]],
  ["q", [new Map([["id", "a"]])]],
  ["q", [C()], { exactNameMultiplier: -1 }],
  ["q", [C()], { bogus: 1 }],
  ["q", [C({ score: "x" })], { bogus: 1 }],
  ["alpha", [C({ name: "alpha" }), C({ id: "b", name: "alpha" })], { limits: { maxTotalEntries: 1 } }],
  ["alpha", [C({ name: "alpha" })], { limits: { maxTotalTextBytes: 10 } }],
  ["alpha", [C({ name: "alpha", summary: "0123456789" })], { limits: { maxTotalTextBytes: 20 } }],
  ["alpha", [C({ name: "alpha", summary: "0123456789" })], { limits: { maxTotalTextBytes: 21 } }],
  ["alpha", [C({ name: "alpha", summary: "0123456789" })], { limits: { maxTotalTextBytes: 22 } }],
  ["alphaalphaalpha", [C({ name: "alpha" })], { limits: { maxTotalTextBytes: 10 } }],
  ["alpha", [C({ name: "alpha", content: "é".repeat(20) })], { limits: { maxTextBytes: 30 } }],
  ["alpha", [C({ id: "é".repeat(20), name: "alpha" })], { limits: { maxIdBytes: 30 } }],
  ["q", [C({ score: 1e308 })], { exactNameMultiplier: 1e308 }],
  ["Ünïcode Straße", [C({ name: "ÜNÏCODE straße" }), C({ id: "b", name: "x", summary: "straße and ünïcode" })]],
  ["q", [C({ type: undefined, summary: undefined })]],
  [1, [C()]],
  ["q", "x"],
];
let diff = 0;
for (const [q, c, o] of cases) {
  const x = run(a, q, c, o), y = run(b, q, c, o);
  if (x !== y) { diff++; console.log("DIFF", JSON.stringify([q, c, o]).slice(0, 150), "\n  old:", x.slice(0, 200), "\n  new:", y.slice(0, 200)); }
}
// random
const { rnd } = lcg(7);
const words = ["graph", "Traversal", "node", "edge", "HTTPServer", "parse_json", "Ünï", "straße", "class", "x", "the", "of"];
const pick = () => words[Math.floor(rnd() * words.length)];
const phrase = (n) => Array.from({ length: n }, pick).join(rnd() < 0.5 ? " " : "_");
let rdiff = 0;
for (let t = 0; t < 3000; t++) {
  const n = Math.floor(rnd() * 12);
  const c = [];
  for (let i = 0; i < n; i++) {
    const o = { id: rnd() < 0.05 ? "dup" : `d${Math.floor(rnd() * 50)}`, score: rnd() < 0.3 ? Math.floor(rnd() * 3) / 2 : rnd(), name: phrase(1 + Math.floor(rnd() * 3)) };
    if (rnd() < 0.5) o.type = ["class", "function", "file", "module", "weird"][Math.floor(rnd() * 5)];
    if (rnd() < 0.5) o.summary = phrase(Math.floor(rnd() * 6));
    if (rnd() < 0.5) o.content = phrase(Math.floor(rnd() * 10));
    c.push(o);
  }
  const q = phrase(1 + Math.floor(rnd() * 3));
  const x = run(a, q, c), y = run(b, q, c);
  if (x !== y) { rdiff++; if (rdiff < 4) console.log("RDIFF", x.slice(0, 150), y.slice(0, 150)); }
}
console.log(`${cases.length} cases: ${diff} differ; 3000 random: ${rdiff} differ`);
if (flag === "--time") {
  const gen = await import("./gen.mjs");
  for (const N of [20, 200]) {
    const cands = Array.from({ length: N }, (_, d) => ({ id: gen.docId(d), name: gen.nameOf(d), type: gen.typeOf(d), score: 1 / (d + 1), summary: gen.summaryOf(d) }));
    const t = { a: [], b: [] };
    for (let r = 0; r < 15; r++) for (const [k, lib] of [["a", a], ["b", b]]) {
      const reps = Math.ceil(20000 / N); const s = performance.now();
      for (let i = 0; i < reps; i++) lib.rerank(gen.QUERY, cands);
      t[k].push((performance.now() - s) / reps * 1000);
    }
    const med = (x) => x.sort((p, q) => p - q)[7];
    console.log(`N=${N}: old ${med(t.a).toFixed(1)} µs, new ${med(t.b).toFixed(1)} µs`);
  }
}
