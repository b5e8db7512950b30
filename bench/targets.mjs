// The targets `make bench` reports (issue 11's; "(issue 6)" marks the older ones kept),
// from a results object (bench/run.mjs writes it to bench/results.json;
// bench/report.mjs recomputes them from the file).
/** A duration in ms as the benchmark prints it (us, ms or s). */
export function fmtMs(ms) {
  if (ms === undefined || ms === null || Number.isNaN(ms)) return "-";
  if (ms < 1) return `${(ms * 1000).toFixed(ms < 0.01 ? 2 : 1)} us`;
  if (ms < 1000) return `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

export function targets(res) {
  const t = [];
  const rows = res.workloads;
  const at = (w, api, n) => rows.find((r) => r.workload === w && r.api === api && r.n === n);
  const add = (name, goal, value, ok, note = "") => t.push({ target: name, goal, value, met: ok, note });
  for (const w of ["a", "b"]) {
    const rs = rows.filter((r) => r.workload === w && r.api === "columnar" && r.n >= 1000);
    if (rs.length) {
      const worst = Math.min(...rs.map((r) => r.jsMs / r.wasmMs));
      add(`columnar (${w}) vs JS, N >= 1000`, ">= 15x faster", `${worst.toFixed(2)}x (worst N)`, worst >= 15, rs.map((r) => `N=${r.n}: ${(r.jsMs / r.wasmMs).toFixed(2)}x`).join(", "));
    }
  }
  for (const w of ["a", "b", "c"]) {
    const r10 = at(w, "string", 10);
    if (r10) add(`string (${w}) vs JS, N = 10`, "no slower (>= 1x)", `${(r10.jsMs / r10.wasmMs).toFixed(2)}x`, r10.jsMs / r10.wasmMs >= 1);
    const rs = rows.filter((r) => r.workload === w && r.api === "string" && r.n >= 1000);
    if (rs.length) {
      const worst = Math.min(...rs.map((r) => r.jsMs / r.wasmMs));
      add(`string (${w}) vs JS, N >= 1000`, ">= 2x faster", `${worst.toFixed(2)}x (worst N)`, worst >= 2, rs.map((r) => `N=${r.n}: ${(r.jsMs / r.wasmMs).toFixed(2)}x`).join(", "));
    }
  }
  // The items held by an `Items` made once (not the call issue 11's targets name: the
  // caller makes it once per corpus; shown beside them).
  for (const w of ["b", "c"]) {
    const r10 = at(w, "held", 10);
    const note = "items held by an Items made once, not the call form of the target";
    if (r10) add(`held items (${w}) vs JS, N = 10`, "no slower (>= 1x)", `${(r10.jsMs / r10.wasmMs).toFixed(2)}x`, r10.jsMs / r10.wasmMs >= 1, note);
    const rs = rows.filter((r) => r.workload === w && r.api === "held" && r.n >= 1000);
    if (rs.length) {
      const worst = Math.min(...rs.map((r) => r.jsMs / r.wasmMs));
      add(`held items (${w}) vs JS, N >= 1000`, ">= 2x faster", `${worst.toFixed(2)}x (worst N)`, worst >= 2, `${note}; ${rs.map((r) => `N=${r.n}: ${(r.jsMs / r.wasmMs).toFixed(2)}x`).join(", ")}`);
    }
  }
  const nat = rows.filter((r) => r.n >= 10_000 && r.nativeMs);
  for (const r of nat) add(`wasm vs native, ${r.workload}/${r.api} N=${r.n} (issue 6)`, "<= 1.5x native", `${(r.wasmMs / r.nativeMs).toFixed(2)}x`, r.wasmMs / r.nativeMs <= 1.5);
  if (res.rag) add("RAG call (3 x 20, workload c)", "<= 25 us", `${res.rag.wasmUs.toFixed(1)} us`, res.rag.wasmUs <= 25);
  const b = res.batch;
  if (b && Array.isArray(b.ranx?.cases)) {
    for (const c of ["rrf", "mnz", "evaluate"]) {
      const rx = b.ranx.cases.find((x) => x.case === c)?.medianMs;
      if (rx === undefined) continue;
      const what = c === "evaluate" ? "evaluate" : "fuseRuns";
      const theirs = c === "evaluate" ? "ranx evaluate" : "ranx fuse";
      const h = Array.isArray(b.wasm) ? b.wasm.find((x) => x.case === `${c} (Run)`)?.medianMs : undefined;
      if (h !== undefined) add(`batch CISI ${c}: ${what} with Run handles vs ${theirs}`, "faster than ranx", `${fmtMs(h)} vs ${fmtMs(rx)} (${(rx / h).toFixed(2)}x)`, h < rx);
      if (Array.isArray(b.wasm)) {
        const w = b.wasm.find((x) => x.case === c)?.medianMs;
        add(`batch CISI ${c}: ${what} (plain objects) vs ${theirs}`, "faster than ranx", `${fmtMs(w)} vs ${fmtMs(rx)} (${(rx / w).toFixed(2)}x)`, w < rx);
      } else if (Array.isArray(b.native)) {
        const nn = b.native.find((x) => x.case === c)?.median_ns / 1e6;
        add(`batch CISI ${c}: fuse_runs (native; no JS binding yet) vs ranx fuse`, "faster than ranx", `${fmtMs(nn)} vs ${fmtMs(rx)} (${(rx / nn).toFixed(2)}x)`, nn < rx, "measured natively");
      }
    }
  }
  if (res.size) {
    const s = res.size;
    // The module a bundler emits for an app that imports Pipeline alone: Pipeline's own
    // since 2026-11-29 (tests/js/bundlers.test.mjs); the whole core's before.
    const p = s.pipeline ?? s;
    const kb = (x) => `${(x.gzipBytes / 1024).toFixed(1)} KB`;
    add(
      `${p.module ?? s.module} gzipped (what a bundled app that imports Pipeline alone loads)`,
      "<= 80 KB (stretch 50 KB)",
      `${kb(p)} (${(p.rawBytes / 1024).toFixed(1)} KB raw)`,
      p.gzipBytes <= 80 * 1024,
      `${s.pipeline ? `${s.module} (any other app, and Node, workers, calibrank/init): ${kb(s)}; ` : ""}${s.lab.module} (calibrank/lab only): ${kb(s.lab)} gzipped`,
    );
    add(
      `${p.module ?? s.module}: instantiation in Node (compile + instantiate)`,
      "<= 2 ms",
      `${p.instantiateMs.toFixed(2)} ms`,
      p.instantiateMs <= 2,
      `${s.pipeline ? `${s.module}: ${s.instantiateMs.toFixed(2)} ms; ` : ""}${s.lab.module}: ${s.lab.instantiateMs.toFixed(2)} ms`,
    );
  }
  return t;
}
