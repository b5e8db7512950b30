// `make bench`: times the calibrank package (wasm) against the idiomatic JS baseline
// (bench/baseline/) and the native Rust build (examples/bench_native.rs), prints a
// table and writes bench/results.json.
//
//   node --expose-gc --max-old-space-size=8192 bench/run.mjs [--quick] [--sizes 10,100,...]
//        [--no-native] [--no-ranx] [--no-startup] [--batch-only] [--out FILE]
//
// --batch-only: only the CISI batch comparison with ranx (parse, fuse, evaluate; plain
// objects and Run / Qrels handles), as `make bench-batch` runs it.
//
// Environment: CALIBRANK_PKG (package directory, default ./pkg), BENCH_NATIVE (native
// harness binary, default target/release/examples/bench_native), BENCH_PYTHON (python
// with ranx, default python3), CISI_DIR (default ../shared/data/cisi).
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { gzipSync, brotliCompressSync, constants as zlibConstants } from "node:zlib";
import { cpus, availableParallelism, loadavg, totalmem } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join, resolve } from "node:path";
import * as gen from "./gen.mjs";
import * as baseline from "./baseline/calibrank-baseline.mjs";
import { fmtMs, targets, verdict, driftedSides } from "./targets.mjs";
import { compare, policy, median } from "./timing.mjs";
import { wasmOptSweep, sizeTable, twoModuleRows, MODULES } from "./size.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const quick = flag("--quick");
const sizes = option("--sizes", quick ? "10,100,1000,10000" : "10,100,1000,10000,100000,1000000").split(",").map(Number);
const outFile = option("--out", join(root, "bench", "results.json"));
const pkgDir = resolve(process.env.CALIBRANK_PKG ?? join(root, "pkg"));
const cisiDir = resolve(process.env.CISI_DIR ?? join(root, "..", "shared", "data", "cisi"));
const nativeBin = resolve(process.env.BENCH_NATIVE ?? join(root, "target", "release", "examples", "bench_native"));
const python = process.env.BENCH_PYTHON ?? "python3";
const started = Date.now();
const log = (...a) => console.error(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s]`, ...a);

// The package under test: the hashes of its two .wasm files are recorded at the start and
// checked at the end (pkg/ is shared; a rebuild in the middle of a run would mix two
// builds).
const wasmHash = () =>
  Object.fromEntries(Object.values(MODULES).map(({ file }) => [file, createHash("sha256").update(readFileSync(join(pkgDir, file))).digest("hex").slice(0, 16)]));
const hashAtStart = wasmHash();
// Both entries, as one object: the scoring core (node.mjs, "calibrank") and the lab
// (lab.node.mjs, "calibrank/lab": parseTrecRun, fuseRuns for the CISI batch).
const core = await import(pathToFileURL(join(pkgDir, "node.mjs")).href);
const lab = await import(pathToFileURL(join(pkgDir, "lab.node.mjs")).href);
const lib = { ...lab, ...core };

// ------------------------------------------------------------------ machine
function machine() {
  let cpuModel = cpus()[0]?.model ?? "?";
  try {
    const m = readFileSync("/proc/cpuinfo", "utf8").match(/^model name\s*:\s*(.*)$/m);
    if (m) cpuModel = m[1];
  } catch {}
  let nproc = availableParallelism();
  try {
    nproc = Number(execFileSync("nproc", { encoding: "utf8" }).trim());
  } catch {}
  let rustc = "?";
  try {
    rustc = execFileSync("rustc", ["--version"], { encoding: "utf8" }).trim();
  } catch {}
  return { nproc, cpuModel, memoryGB: Math.round(totalmem() / 2 ** 30), node: process.version, v8: process.versions.v8, rustc, platform: `${process.platform}-${process.arch}` };
}

// ------------------------------------------------------------------ ranking checks
const close = (a, b) => Math.abs(a - b) <= 1e-12;
function sameRanking(kind, w, j) {
  if (kind === "rrf") return w.length === j.length && w.every(([id, s], i) => id === j[i][0] && s === j[i][1]);
  if (kind === "rrfColumnar") return w.order.length === j.order.length && w.order.every((d, i) => d === j.order[i] && w.scores[i] === j.scores[i]);
  if (kind === "run")
    return w.results.length === j.results.length && w.results.every((r, i) => r.id === j.results[i].id && close(r.score, j.results[i].score) && r.band === j.results[i].band);
  if (kind === "runColumnar") return w.order.length === j.order.length && w.order.every((d, i) => d === j.order[i] && close(w.scores[i], j.scores[i]) && w.bands[i] === j.bands[i]);
  return false;
}

/** A summary comparable with the native harness's `check`. */
function checkOf(kind, out) {
  if (kind === "rrf") return { count: out.length, first: out[0]?.[0] ?? "", firstScore: out[0]?.[1] ?? 0 };
  if (kind === "rrfColumnar" || kind === "runColumnar") return { count: out.order.length, first: String(out.order[0] ?? ""), firstScore: out.scores[0] ?? 0 };
  return { count: out.results.length, first: out.results[0]?.id ?? "", firstScore: out.results[0]?.score ?? 0 };
}

// ------------------------------------------------------------------ workloads
const CASES = [
  { workload: "a", api: "string", kind: "rrf", what: "RRF fusion" },
  { workload: "a", api: "columnar", kind: "rrfColumnar", what: "RRF fusion" },
  { workload: "b", api: "string", kind: "run", what: "fusion + recency + normalize + calibrate + bands + confidence" },
  { workload: "b", api: "columnar", kind: "runColumnar", what: "fusion + recency + normalize + calibrate + bands + confidence" },
  { workload: "c", api: "string", kind: "run", what: "(b) + heuristic reranker (names, types, summaries)" },
  // The same calls with the items held by an `Items` made once per size, outside the
  // timing (its cost: bench/held-items.mjs): not the call form issue 11's targets name.
  { workload: "b", api: "held", kind: "run", what: "(b), the items held (`Items`)" },
  { workload: "c", api: "held", kind: "run", what: "(c), the items held (`Items`)" },
];

function competitors(c, inputs, pipes) {
  const { strLists, inputB, inputC, columnar } = inputs;
  const { docs, offsets, nDocs } = columnar;
  switch (`${c.workload}/${c.api}`) {
    case "a/string":
      return { wasm: () => lib.rrf(strLists, { limits: gen.BENCH_LIMITS }), js: () => baseline.rrf(strLists) };
    case "a/columnar":
      return { wasm: () => lib.rrfColumnar(docs, offsets, nDocs, { limits: gen.BENCH_LIMITS }), js: () => baseline.rrfColumnar(docs, offsets, nDocs) };
    case "b/string":
      return { wasm: () => pipes.wasmB.run(inputB), js: () => pipes.jsB.run(inputB) };
    case "b/columnar":
      return { wasm: () => pipes.wasmB.runColumnar(columnar), js: () => pipes.jsB.runColumnar(columnar) };
    case "c/string":
      return { wasm: () => pipes.wasmC.run(inputC), js: () => pipes.jsC.run(inputC) };
    case "b/held": {
      const held = { ...inputB, items: new lib.Items(inputB.items) };
      return { wasm: () => pipes.wasmB.run(held), js: () => pipes.jsB.run(inputB) };
    }
    case "c/held": {
      const held = { ...inputC, items: new lib.Items(inputC.items) };
      return { wasm: () => pipes.wasmC.run(held), js: () => pipes.jsC.run(inputC) };
    }
  }
  throw new Error(c.workload);
}

function runWorkloads() {
  const pipes = {
    wasmB: new lib.Pipeline(gen.pipelineConfig(false)),
    wasmC: new lib.Pipeline(gen.pipelineConfig(true)),
    jsB: new baseline.Pipeline(gen.pipelineConfig(false)),
    jsC: new baseline.Pipeline(gen.pipelineConfig(true)),
  };
  const rows = [];
  for (const n of sizes) {
    log(`N = ${n}: generating inputs`);
    const inputs = gen.makeInputs(n);
    for (const c of CASES) {
      const comp = competitors(c, inputs, pipes);
      const w = comp.wasm();
      const j = comp.js();
      const same = sameRanking(c.kind, w, j);
      const check = checkOf(c.kind, w);
      const p = policy(n, quick);
      const t = compare(comp, p);
      const drift = { wasm: t.wasm.drift, js: t.js.drift };
      rows.push({ workload: c.workload, api: c.api, n, wasmMs: t.wasm.medianMs, jsMs: t.js.medianMs, samples: p.samples, innerWasm: t.wasm.inner, innerJs: t.js.inner, drift, sameRanking: same, check });
      // Outside bench/targets.mjs DRIFT_RANGE: the targets that read this row say
      // "unreliable (drift)" instead of a verdict.
      const moved = driftedSides(drift).map(([k, d]) => `${k} drifted x${d.toFixed(2)}`);
      log(`  ${c.workload}/${c.api.padEnd(8)} wasm ${fmtMs(t.wasm.medianMs).padStart(10)}  js ${fmtMs(t.js.medianMs).padStart(10)}  x${(t.js.medianMs / t.wasm.medianMs).toFixed(2)}${same ? "" : "  RANKING DIFFERS"}${moved.length ? `  (${moved.join(", ")})` : ""}`);
    }
  }
  return rows;
}

/**
 * String ids through the columnar API: the caller interns the ids with a JS Map, calls
 * rrfColumnar and maps the order back to ids. Informational (what the string API's
 * marshalling costs); checked against rrf.
 */
function internedColumnar() {
  const rows = [];
  for (const n of sizes.filter((x) => x >= 1000 && x <= 100_000)) {
    const { strLists } = gen.makeInputs(n);
    const run = () => {
      const { ids, docs } = gen.internByMap(strLists);
      const offsets = new Uint32Array(strLists.length + 1);
      strLists.forEach((list, i) => (offsets[i + 1] = offsets[i] + list.length));
      const out = lib.rrfColumnar(docs, offsets, ids.length);
      return Array.from(out.order, (d, i) => [ids[d], out.scores[i]]);
    };
    const t = compare({ interned: run, string: () => lib.rrf(strLists, { limits: gen.BENCH_LIMITS }) }, policy(n, quick));
    rows.push({ n, internedMs: t.interned.medianMs, stringMs: t.string.medianMs, sameScores: ((ref, got) => ref.length === got.length && got.every(([, s], i) => s === ref[i][1]))(lib.rrf(strLists, { limits: gen.BENCH_LIMITS }), run()) });
    log(`  a via JS interning + rrfColumnar, N=${n}: ${fmtMs(t.interned.medianMs)} (rrf: ${fmtMs(t.string.medianMs)})`);
  }
  return rows;
}

function ragCall() {
  const inputs = gen.makeInputs(20);
  const cfg = gen.pipelineConfig(true);
  const wasm = new lib.Pipeline(cfg);
  const wasmExplain = new lib.Pipeline({ ...cfg, explain: true });
  const js = new baseline.Pipeline(cfg);
  const p = { samples: 31, minSampleMs: 10, warmupMs: 1000 };
  const t = compare(
    {
      wasm: () => wasm.run(inputs.inputC),
      js: () => js.run(inputs.inputC),
      wasmNewPipeline: () => {
        const pl = new lib.Pipeline(cfg);
        const out = pl.run(inputs.inputC);
        pl.free();
        return out;
      },
      wasmExplain: () => wasmExplain.run(inputs.inputC),
    },
    p,
  );
  const out = {
    n: 20,
    candidates: wasm.run(inputs.inputC).stats.candidates,
    wasmUs: t.wasm.medianMs * 1000,
    jsUs: t.js.medianMs * 1000,
    wasmWithNewPipelineUs: t.wasmNewPipeline.medianMs * 1000,
    wasmExplainUs: t.wasmExplain.medianMs * 1000,
    sameRanking: sameRanking("run", wasm.run(inputs.inputC), js.run(inputs.inputC)),
    // As the workloads' rows: the RAG target reads the package's.
    drift: { wasm: t.wasm.drift, js: t.js.drift },
  };
  log(`RAG call (3 x 20, workload c): wasm ${out.wasmUs.toFixed(1)} us, js ${out.jsUs.toFixed(1)} us, new Pipeline + run ${out.wasmWithNewPipelineUs.toFixed(1)} us, with explain ${out.wasmExplainUs.toFixed(1)} us${driftedSides(out.drift).map(([k, d]) => `  (${k} drifted x${d.toFixed(2)})`).join("")}`);
  return out;
}

// ------------------------------------------------------------------ batch (CISI)
function batch(nativeRunfusion) {
  const files = ["run.bm25.txt", "run.dense.txt"].map((f) => join(cisiDir, f));
  if (!files.every(existsSync)) return { skipped: `CISI runs not found in ${cisiDir}` };
  const out = { files, rounds: 3, wasm: null, native: nativeRunfusion ?? null, ranx: null };
  const haveWasm = typeof lib.fuseRuns === "function" && typeof lib.parseTrecRun === "function";
  const haveHandles = typeof lib.Run === "function";
  const qrelsFile = join(cisiDir, "qrels.txt");
  const texts = files.map((f) => readFileSync(f, "utf8"));
  const qrelsText = readFileSync(qrelsFile, "utf8");
  const runs = haveWasm ? texts.map((t) => lib.parseTrecRun(t)) : null;
  const qrels = haveWasm ? lib.parseQrels(qrelsText) : null;
  // Issue 14: runs and judgements parsed once into wasm memory (Run / Qrels handles).
  const handles = haveHandles ? texts.map((t) => lib.Run.fromTrec(t)) : null;
  const qrelsHandle = haveHandles ? lib.Qrels.fromTrec(qrelsText) : null;
  const metrics = ["ndcg@10", "map@100", "recall@100", "mrr"];
  const cases = haveWasm
    ? [
        { case: "parse", fn: () => texts.map((t) => lib.parseTrecRun(t)) },
        ...[["rrf", undefined], ["mnz", "min-max"]].map(([method, norm]) => {
          const opts = norm ? { method, norm } : { method };
          return { case: method, fn: () => lib.fuseRuns(runs, opts), entries: Object.values(lib.fuseRuns(runs, opts)).reduce((a, d) => a + Object.keys(d).length, 0) };
        }),
        { case: "evaluate", fn: () => lib.evaluate(qrels, runs[0], metrics) },
        ...(haveHandles
          ? [
              { case: "parse (Run)", fn: () => texts.forEach((t) => lib.Run.fromTrec(t).free()) },
              ...[["rrf", undefined], ["mnz", "min-max"]].map(([method, norm]) => {
                const opts = norm ? { method, norm } : { method };
                return { case: `${method} (Run)`, fn: () => lib.fuseRuns(handles, opts).free() };
              }),
              { case: "evaluate (Run)", fn: () => lib.evaluate(qrelsHandle, handles[0], metrics) },
            ]
          : []),
      ]
    : [];
  // wasm and ranx (another process) alternate over three rounds, so that load drift
  // hits both; each figure is the median of the three rounds' medians.
  const wasmRounds = Object.fromEntries(cases.map((c) => [c.case, []]));
  const ranxRounds = {};
  let ranxInfo = null;
  for (let round = 0; round < out.rounds; round++) {
    for (const c of cases) wasmRounds[c.case].push(compare({ x: c.fn }, { samples: 11, minSampleMs: 5, warmupMs: 200 }).x.medianMs);
    const r = spawnSync(python, [join(root, "bench", "ranx_fuse.py"), ...files, "11", qrelsFile], { encoding: "utf8", maxBuffer: 1 << 24 });
    if (r.status !== 0) {
      ranxInfo = { skipped: `ranx failed: ${(r.stderr || r.error || "").toString().slice(-400)}` };
      break;
    }
    const parsed = JSON.parse(r.stdout.trim().split("\n").pop());
    ranxInfo = { ranx: parsed.ranx, python: parsed.python };
    for (const c of parsed.cases) (ranxRounds[c.case] ??= []).push(c.medianMs);
  }
  out.wasm = haveWasm ? cases.map((c) => ({ case: c.case, medianMs: median(wasmRounds[c.case]), rounds: wasmRounds[c.case], entries: c.entries })) : { skipped: "fuseRuns / parseTrecRun are not exported by this build of the package" };
  out.ranx = ranxInfo?.skipped ? ranxInfo : { ...ranxInfo, cases: Object.entries(ranxRounds).map(([c, v]) => ({ case: c, medianMs: median(v), rounds: v })) };
  const get = (x, c) => (Array.isArray(x) ? x.find((y) => y.case === c)?.medianMs : undefined);
  const getNative = (c) => (Array.isArray(out.native) ? out.native.find((y) => y.case === c)?.median_ns / 1e6 : undefined);
  for (const c of ["parse", "rrf", "mnz", "evaluate"]) {
    const withRun = haveHandles ? `, with Run handles ${fmtMs(get(out.wasm, `${c} (Run)`))}` : "";
    log(`CISI ${c.padEnd(8)}: wasm ${fmtMs(get(out.wasm, c))}${withRun}, native ${fmtMs(getNative(c))}, ranx ${fmtMs(get(out.ranx?.cases, c))}`);
  }
  if (handles) for (const h of [...handles, qrelsHandle]) h.free();
  return out;
}

// ------------------------------------------------------------------ size and start-up
/**
 * Size of both modules; start-up of the core (what `import "calibrank"` costs: the
 * figures and the targets are the core's) and, for information, of the lab.
 * `rawBytes` / `gzipBytes` / `brotliBytes` / `instantiateMs` are the core's.
 */
function sizeAndStartup(runs = 15) {
  const bytesOf = (file) => {
    const bytes = readFileSync(join(pkgDir, file));
    return {
      rawBytes: bytes.length,
      gzipBytes: gzipSync(bytes, { level: 9 }).length,
      brotliBytes: brotliCompressSync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    };
  };
  const size = {
    module: MODULES.core.file,
    ...bytesOf(MODULES.core.file),
    pipeline: { module: MODULES.pipeline.file, ...bytesOf(MODULES.pipeline.file) },
    lab: { module: MODULES.lab.file, ...bytesOf(MODULES.lab.file) },
  };
  const startup = measureStartup(pkgDir, runs);
  for (const m of ["pipeline", "lab"]) {
    size[m].readMs = startup[m].readMs;
    size[m].instantiateMs = startup[m].instantiateMs;
    delete startup[m];
  }
  log(
    `${size.module} ${size.rawBytes} B raw, ${size.gzipBytes} B gzip (zlib, level 9), ${size.brotliBytes} B brotli; compile + instantiate ${startup.instantiateMs.toFixed(2)} ms, import ${startup.importMs.toFixed(2)} ms, first call ${startup.firstCallMs.toFixed(2)} ms; ` +
      `${size.pipeline.module} ${size.pipeline.rawBytes} B raw, ${size.pipeline.gzipBytes} B gzip (zlib, level 9), compile + instantiate ${size.pipeline.instantiateMs.toFixed(2)} ms; ` +
      `${size.lab.module} ${size.lab.rawBytes} B raw, ${size.lab.gzipBytes} B gzip (zlib, level 9), compile + instantiate ${size.lab.instantiateMs.toFixed(2)} ms`,
  );
  return { ...size, ...startup };
}

export function measureStartup(dir, runs) {
  const one = (...args) => JSON.parse(execFileSync(process.execPath, [join(root, "bench", "startup.mjs"), dir, ...args], { encoding: "utf8" }));
  const a = [];
  const b = [];
  const l = [];
  const p = [];
  for (let i = 0; i < runs; i++) {
    a.push(one("instantiate", "core"));
    p.push(one("instantiate", "pipeline"));
    b.push(one("import"));
    l.push(one("instantiate", "lab"));
  }
  return {
    readMs: median(a.map((x) => x.readMs)),
    compileMs: median(a.map((x) => x.compileMs)),
    instantiateMs: median(a.map((x) => x.instantiateMs)),
    importMs: median(b.map((x) => x.importMs)),
    firstCallMs: median(b.map((x) => x.firstCallMs)),
    pipeline: { readMs: median(p.map((x) => x.readMs)), instantiateMs: median(p.map((x) => x.instantiateMs)) },
    lab: { readMs: median(l.map((x) => x.readMs)), instantiateMs: median(l.map((x) => x.instantiateMs)) },
    startupRuns: runs,
  };
}

// ------------------------------------------------------------------ native
function native() {
  if (!existsSync(nativeBin)) return { skipped: `${nativeBin} not built (cargo build --release --example bench_native)` };
  log(`native harness: ${nativeBin}`);
  const r = spawnSync(nativeBin, ["--sizes", sizes.join(","), ...(quick ? ["--quick"] : []), "--cisi", cisiDir], { encoding: "utf8", maxBuffer: 1 << 26, stdio: ["ignore", "pipe", "inherit"] });
  if (r.status !== 0) return { skipped: `native harness failed (${r.status})` };
  return JSON.parse(r.stdout);
}

// ------------------------------------------------------------------ report
const fx = (x) => (x === undefined || Number.isNaN(x) ? "-" : `${x.toFixed(2)}`);

function table(rows) {
  const lines = [];
  const head = ["workload", "API", "N", "wasm", "JS baseline", "native", "JS/wasm (x faster)", "wasm/native", "string/columnar", "same ranking"];
  lines.push(`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`);
  for (const r of rows) {
    const col = rows.find((x) => x.workload === r.workload && x.n === r.n && x.api === "columnar");
    lines.push(
      `| ${r.workload} | ${r.api} | ${r.n.toLocaleString("en-US")} | ${fmtMs(r.wasmMs)} | ${fmtMs(r.jsMs)} | ${fmtMs(r.nativeMs)} | ${fx(r.jsMs / r.wasmMs)} | ${fx(r.wasmMs / r.nativeMs)} | ${r.api === "string" && col ? fx(r.wasmMs / col.wasmMs) : ""} | ${r.sameRanking ? "yes" : "NO"}${r.nativeCheck === false ? " (native differs!)" : ""} |`,
    );
  }
  return lines.join("\n");
}


// ------------------------------------------------------------------ main
const res = { machine: machine(), date: new Date().toISOString(), package: pkgDir, version: lib.version(), quick, sizes, loadBefore: loadavg() };
log(`${res.machine.cpuModel}, ${res.machine.nproc} cores, node ${res.machine.node}; load ${res.loadBefore.map((x) => x.toFixed(2)).join(" ")}`);
// --batch-only: the CISI batch comparison with ranx alone (make bench-batch).
const batchOnly = flag("--batch-only");
res.native = flag("--no-native") ? { skipped: "--no-native" } : native();
res.workloads = batchOnly ? [] : runWorkloads();
for (const r of res.workloads) {
  const nr = res.native?.results?.find((x) => x.workload === r.workload && x.api === r.api && x.n === r.n);
  if (nr) {
    r.nativeMs = nr.median_ns / 1e6;
    r.nativeCheck = nr.check.count === r.check.count && nr.check.first === r.check.first && nr.check.firstScore === r.check.firstScore;
  }
}
res.rag = batchOnly ? null : ragCall();
res.internedColumnar = batchOnly ? [] : internedColumnar();
res.batch = flag("--no-ranx") ? { skipped: "--no-ranx" } : batch(res.native?.runfusion);
if (!flag("--no-startup") && !batchOnly) res.size = sizeAndStartup(quick ? 5 : 15);
if (flag("--wasm-opt-sweep")) {
  log("wasm-opt levels on the release build (bench/size.mjs)");
  res.wasmOptSweep = wasmOptSweep({ levels: ["", "-O3", "-O3 -ocimfs 100", "-Os", "-Oz"], quick: true });
}
res.loadAfter = loadavg();
res.wasmSha256 = hashAtStart;
const changed = Object.entries(wasmHash()).filter(([file, h]) => h !== hashAtStart[file]).map(([file]) => file);
if (changed.length) {
  res.warning = `${changed.map((f) => `${pkgDir}/${f}`).join(" and ")} changed during the run (rebuilt by someone else?): the figures may mix two builds`;
  console.error(`[bench] WARNING: ${res.warning}`);
}
res.targets = targets(res);
res.elapsedS = (Date.now() - started) / 1000;
writeFileSync(outFile, JSON.stringify(res, null, 2) + "\n");

console.log(`\ncalibrank ${res.version} benchmark: ${res.machine.cpuModel}, ${res.machine.nproc} cores, node ${res.machine.node}, ${res.machine.rustc}`);
console.log(`median of repeated samples after warm-up; wasm and JS interleaved in one process; load average before ${res.loadBefore.map((x) => x.toFixed(2)).join(" ")}, after ${res.loadAfter.map((x) => x.toFixed(2)).join(" ")}\n`);
if (res.workloads.length) console.log(table(res.workloads));
if (res.rag) console.log(`\nRAG call (3 x 20 candidates, workload c): wasm ${res.rag.wasmUs.toFixed(1)} us, JS ${res.rag.jsUs.toFixed(1)} us; with new Pipeline per call ${res.rag.wasmWithNewPipelineUs.toFixed(1)} us; with explain ${res.rag.wasmExplainUs.toFixed(1)} us`);
if (res.internedColumnar?.length) {
  console.log("\nString ids through the columnar API (JS Map interning + rrfColumnar + ids mapped back), vs rrf:\n\n| N | interned + rrfColumnar | rrf (string API) | JS baseline rrf |\n|---|---|---|---|");
  for (const r of res.internedColumnar) console.log(`| ${r.n.toLocaleString("en-US")} | ${fmtMs(r.internedMs)} | ${fmtMs(r.stringMs)} | ${fmtMs(res.workloads.find((w) => w.workload === "a" && w.api === "string" && w.n === r.n)?.jsMs)} |`);
}
console.log("\n| target | goal | measured | met | detail |\n|---|---|---|---|---|");
for (const t of res.targets) console.log(`| ${t.target} | ${t.goal} | ${t.value} | ${verdict(t)} | ${t.note} |`);
if (res.size) {
  const s = res.size;
  console.log(`\n${s.module}: ${s.rawBytes} B raw, ${s.gzipBytes} B gzip (zlib, level 9), ${s.brotliBytes} B brotli; compile + instantiate ${s.instantiateMs.toFixed(2)} ms, whole import of "calibrank" ${s.importMs.toFixed(2)} ms, first call ${s.firstCallMs.toFixed(2)} ms (medians of ${s.startupRuns} fresh processes)`);
  if (s.pipeline) console.log(`${s.pipeline.module}: ${s.pipeline.rawBytes} B raw, ${s.pipeline.gzipBytes} B gzip (zlib, level 9), ${s.pipeline.brotliBytes} B brotli; compile + instantiate ${s.pipeline.instantiateMs.toFixed(2)} ms (what a bundled app that imports Pipeline alone loads)`);
  console.log(`${s.lab.module}: ${s.lab.rawBytes} B raw, ${s.lab.gzipBytes} B gzip (zlib, level 9), ${s.lab.brotliBytes} B brotli; compile + instantiate ${s.lab.instantiateMs.toFixed(2)} ms (loaded only by "calibrank/lab")`);
}
if (Array.isArray(res.wasmOptSweep)) console.log(`\nwasm-opt levels on this build (probe figures in ms per call):\n\n${sizeTable(res.wasmOptSweep)}`);
// bench/size-matrix.json, when `make bench-size` has written it (the one committed on
// 2026-11-22 predated the two-module package; deleted on 2026-12-02).
const matrixFile = join(root, "bench", "size-matrix.json");
if (existsSync(matrixFile)) {
  const m = JSON.parse(readFileSync(matrixFile, "utf8"));
  if (twoModuleRows(m.rows)) console.log(`\nSize / speed trade-offs recorded by \`make bench-size\` on ${m.date} (bench/size-matrix.json; probe figures in ms per call):\n\n${sizeTable(m.rows)}`);
}
console.log(`\nwrote ${outFile} (${res.elapsedS.toFixed(0)} s)`);
