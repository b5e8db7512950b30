// Renders bench/results.json (and bench/size-matrix.json) as the Markdown tables of
// docs/performance.md: `node bench/report.mjs [results.json]`.
import { readFileSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { sizeTable, twoModuleRows } from "./size.mjs";
import { targets, verdict } from "./targets.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const r = JSON.parse(readFileSync(process.argv[2] ?? join(root, "bench", "results.json"), "utf8"));
const fmt = (ms) => {
  if (ms === undefined || ms === null || Number.isNaN(ms)) return "-";
  if (ms < 1) return `${(ms * 1000).toFixed(ms < 0.01 ? 2 : 1)} µs`;
  if (ms < 1000) return `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
};
const x = (v) => (v === undefined || Number.isNaN(v) ? "-" : v.toFixed(2));
const m = r.machine;
// The .wasm hashes: one per module (a string in results written before the split).
const hashes = typeof r.wasmSha256 === "string" ? r.wasmSha256 : Object.entries(r.wasmSha256 ?? {}).map(([f, h]) => `${f} ${h}…`).join(", ");
const out = [];
out.push(`Machine: ${m.cpuModel} (\`/proc/cpuinfo\` model name), \`nproc\` = ${m.nproc}, ${m.memoryGB} GB, Node ${m.node} (V8 ${m.v8}), ${m.rustc}, ${m.platform}. Run of ${r.date}, ${r.elapsedS.toFixed(0)} s for bench/run.mjs; load average ${r.loadBefore.map((v) => v.toFixed(2)).join(" / ")} before, ${r.loadAfter.map((v) => v.toFixed(2)).join(" / ")} after; package ${r.version}, .wasm sha256 ${hashes}${r.warning ? ` **${r.warning}**` : ""}`);
out.push("");
out.push("| workload | API | N | wasm | JS baseline | native | JS / wasm (x faster) | wasm / native | string / columnar | same ranking |");
out.push("|---|---|---:|---:|---:|---:|---:|---:|---:|---|");
for (const w of r.workloads) {
  const col = r.workloads.find((c) => c.workload === w.workload && c.n === w.n && c.api === "columnar");
  out.push(
    `| ${w.workload} | ${w.api} | ${w.n.toLocaleString("en-US")} | ${fmt(w.wasmMs)} | ${fmt(w.jsMs)} | ${fmt(w.nativeMs)} | ${x(w.jsMs / w.wasmMs)} | ${x(w.wasmMs / w.nativeMs)} | ${w.api === "string" && col ? x(w.wasmMs / col.wasmMs) : ""} | ${w.sameRanking ? "yes" : "NO"}${w.nativeCheck === false ? " (native differs)" : ""} |`,
  );
}
out.push("");
const rag = r.rag;
out.push(`RAG call (3 x 20 candidates, ${rag.candidates} distinct, workload c, explain off): wasm **${rag.wasmUs.toFixed(1)} µs**, JS baseline ${rag.jsUs.toFixed(1)} µs; \`new Pipeline(cfg)\` + \`run\` + \`free\` per call ${rag.wasmWithNewPipelineUs.toFixed(1)} µs; with \`explain: true\` ${rag.wasmExplainUs.toFixed(1)} µs.`);
out.push("");
if (r.internedColumnar?.length) {
  out.push("| N | JS `Map` interning + `rrfColumnar` + ids mapped back | `rrf` (string API) | JS baseline `rrf` |");
  out.push("|---:|---:|---:|---:|");
  for (const i of r.internedColumnar) out.push(`| ${i.n.toLocaleString("en-US")} | ${fmt(i.internedMs)} | ${fmt(i.stringMs)} | ${fmt(r.workloads.find((w) => w.workload === "a" && w.api === "string" && w.n === i.n)?.jsMs)} |`);
  out.push("");
}
const b = r.batch;
if (b && !b.skipped) {
  const get = (arr, c) => (Array.isArray(arr) ? arr.find((y) => y.case === c)?.medianMs : undefined);
  const nat = (c) => (Array.isArray(b.native) ? b.native.find((y) => y.case === c)?.median_ns / 1e6 : undefined);
  out.push(`| CISI, 2 runs x 76 queries x 100 docs | calibrank wasm (\`parseTrecRun\` / \`fuseRuns\`) | calibrank native | ranx ${b.ranx?.ranx ?? ""} (Python ${b.ranx?.python ?? ""}) | ranx / wasm |`);
  out.push("|---|---:|---:|---:|---:|");
  for (const [c, label] of [["parse", "parse both TREC files"], ["rrf", "fuse: RRF (norm min-max, as ranx)"], ["mnz", "fuse: CombMNZ, min-max"]]) {
    out.push(`| ${label} | ${fmt(get(b.wasm, c))} | ${fmt(nat(c))} | ${fmt(get(b.ranx?.cases, c))} | ${x(get(b.ranx?.cases, c) / get(b.wasm, c))} |`);
  }
  out.push("");
}
if (r.size) {
  const s = r.size;
  const core = s.module ?? "calibrank_core.wasm";
  out.push(
    `Scoring core (\`pkg/${core}\`, what \`import "calibrank"\` loads${s.pipeline ? " in Node, workers and any app that imports more than Pipeline" : ""}; release build): ${(s.rawBytes / 1024).toFixed(1)} KB raw, **${(s.gzipBytes / 1024).toFixed(1)} KB gzip (zlib, level 9)**, ${(s.brotliBytes / 1024).toFixed(1)} KB brotli. In a fresh Node process (median of ${s.startupRuns}): read ${s.readMs.toFixed(2)} ms, **compile + instantiate ${s.instantiateMs.toFixed(2)} ms** (as the Node entry does it: \`new WebAssembly.Module\`, then instantiation), whole \`import\` of the package entry ${s.importMs.toFixed(2)} ms, first pipeline call after it ${s.firstCallMs.toFixed(2)} ms.`,
  );
  if (s.pipeline) {
    out.push("");
    out.push(`Pipeline's own module (\`pkg/${s.pipeline.module}\`, what a bundled app that imports \`Pipeline\` alone loads): ${(s.pipeline.rawBytes / 1024).toFixed(1)} KB raw, **${(s.pipeline.gzipBytes / 1024).toFixed(1)} KB gzip (zlib, level 9)**, ${(s.pipeline.brotliBytes / 1024).toFixed(1)} KB brotli; **compile + instantiate ${s.pipeline.instantiateMs.toFixed(2)} ms**.`);
  }
  if (s.lab) {
    out.push("");
    out.push(`Lab (\`pkg/${s.lab.module}\`, loaded only by \`import "calibrank/lab"\`): ${(s.lab.rawBytes / 1024).toFixed(1)} KB raw, ${(s.lab.gzipBytes / 1024).toFixed(1)} KB gzip (zlib, level 9), ${(s.lab.brotliBytes / 1024).toFixed(1)} KB brotli; compile + instantiate ${s.lab.instantiateMs.toFixed(2)} ms.`);
  }
  out.push("");
}
out.push("| target | goal | measured | met | detail |");
out.push("|---|---|---|---|---|");
// Recomputed from the figures: the goals are the current ones even for an older run.
for (const t of targets(r)) out.push(`| ${t.target} | ${t.goal} | ${t.value} | ${verdict(t)} | ${t.note} |`);
const matrix = join(root, "bench", "size-matrix.json");
if (existsSync(matrix) && twoModuleRows(JSON.parse(readFileSync(matrix, "utf8")).rows)) {
  const sm = JSON.parse(readFileSync(matrix, "utf8"));
  out.push("");
  out.push(`Size / speed matrix (\`make bench-size\`, ${sm.date}, Node ${sm.node}; probe columns in ms per call, all builds interleaved in one process):`);
  out.push("");
  out.push(sizeTable(sm.rows));
}
console.log(out.join("\n"));
