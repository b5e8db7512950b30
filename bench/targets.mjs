// The targets `make bench` reports (issue 11's; "(issue 6)" marks the older ones kept),
// from a results object (bench/run.mjs writes it to bench/results.json;
// bench/report.mjs recomputes them from the file).
//
// Each target is `{ target, goal, value, met, note }`; `met` is what the figures say.
// A target computed from timings whose samples still moved during the run (a side's
// `drift`, bench/timing.mjs `compare`, outside DRIFT_RANGE) also carries `drifted` (the
// rows and sides that moved, e.g. "b/string N=10 wasm x1.93") and its verdict (`verdict`)
// is "unreliable (drift)" whatever `met` says. Results written before `drift` was
// recorded (or rows without it) are taken as steady.

/** The drift (last third's median over the first third's) of a steady run. */
export const DRIFT_RANGE = [0.8, 1.25];

/** The sides of a `drift` object (`{ wasm, js }`) outside DRIFT_RANGE, as `[side, drift]`. */
export function driftedSides(drift, sides = ["wasm", "js"]) {
  if (!drift) return [];
  return sides.filter((k) => typeof drift[k] === "number" && (drift[k] < DRIFT_RANGE[0] || drift[k] > DRIFT_RANGE[1])).map((k) => [k, drift[k]]);
}

/** A target's verdict as the tables print it: "yes", "**no**" or "unreliable (drift)". */
export function verdict(t) {
  if (t.drifted?.length) return "unreliable (drift)";
  return t.met ? "yes" : "**no**";
}
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
  // `from`: the rows (or `{ label, drift }`) the figures come from; `sides`: whose drift
  // counts (the JS baseline's does not for a comparison with native code).
  const add = (name, goal, value, ok, note = "", from = [], sides = ["wasm", "js"]) => {
    const drifted = from.flatMap((r) => driftedSides(r.drift, sides).map(([k, d]) => `${r.label ?? `${r.workload}/${r.api} N=${r.n}`} ${k} x${d.toFixed(2)}`));
    const entry = { target: name, goal, value, met: ok, note };
    if (drifted.length) {
      entry.drifted = drifted;
      entry.note = `${note ? `${note}; ` : ""}drift outside ${DRIFT_RANGE.join("-")}: ${drifted.join(", ")}`;
    }
    t.push(entry);
  };
  for (const w of ["a", "b"]) {
    const rs = rows.filter((r) => r.workload === w && r.api === "columnar" && r.n >= 1000);
    if (rs.length) {
      const worst = Math.min(...rs.map((r) => r.jsMs / r.wasmMs));
      add(`columnar (${w}) vs JS, N >= 1000`, ">= 15x faster", `${worst.toFixed(2)}x (worst N)`, worst >= 15, rs.map((r) => `N=${r.n}: ${(r.jsMs / r.wasmMs).toFixed(2)}x`).join(", "), rs);
    }
  }
  for (const w of ["a", "b", "c"]) {
    const r10 = at(w, "string", 10);
    if (r10) add(`string (${w}) vs JS, N = 10`, "no slower (>= 1x)", `${(r10.jsMs / r10.wasmMs).toFixed(2)}x`, r10.jsMs / r10.wasmMs >= 1, "", [r10]);
    const rs = rows.filter((r) => r.workload === w && r.api === "string" && r.n >= 1000);
    if (rs.length) {
      const worst = Math.min(...rs.map((r) => r.jsMs / r.wasmMs));
      add(`string (${w}) vs JS, N >= 1000`, ">= 2x faster", `${worst.toFixed(2)}x (worst N)`, worst >= 2, rs.map((r) => `N=${r.n}: ${(r.jsMs / r.wasmMs).toFixed(2)}x`).join(", "), rs);
    }
  }
  // The items held by an `Items` made once (not the call issue 11's targets name: the
  // caller makes it once per corpus; shown beside them).
  for (const w of ["b", "c"]) {
    const r10 = at(w, "held", 10);
    const note = "items held by an Items made once, not the call form of the target";
    if (r10) add(`held items (${w}) vs JS, N = 10`, "no slower (>= 1x)", `${(r10.jsMs / r10.wasmMs).toFixed(2)}x`, r10.jsMs / r10.wasmMs >= 1, note, [r10]);
    const rs = rows.filter((r) => r.workload === w && r.api === "held" && r.n >= 1000);
    if (rs.length) {
      const worst = Math.min(...rs.map((r) => r.jsMs / r.wasmMs));
      add(`held items (${w}) vs JS, N >= 1000`, ">= 2x faster", `${worst.toFixed(2)}x (worst N)`, worst >= 2, `${note}; ${rs.map((r) => `N=${r.n}: ${(r.jsMs / r.wasmMs).toFixed(2)}x`).join(", ")}`, rs);
    }
  }
  const nat = rows.filter((r) => r.n >= 10_000 && r.nativeMs);
  for (const r of nat) add(`wasm vs native, ${r.workload}/${r.api} N=${r.n} (issue 6)`, "<= 1.5x native", `${(r.wasmMs / r.nativeMs).toFixed(2)}x`, r.wasmMs / r.nativeMs <= 1.5, "", [r], ["wasm"]);
  if (res.rag) add("RAG call (3 x 20, workload c)", "<= 25 us", `${res.rag.wasmUs.toFixed(1)} us`, res.rag.wasmUs <= 25, "", [{ label: "RAG call", drift: res.rag.drift }], ["wasm"]);
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
