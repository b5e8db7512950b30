// Size and start-up of the package's .wasm, and what the build settings trade for them.
//
//   node bench/size.mjs --wasm-opt [RAW_WASM]   wasm-opt levels on the release build's
//        cargo output (default target/wasm32-unknown-unknown/release/calibrank.wasm, as
//        left by scripts/build-pkg.sh); `make bench` runs this through bench/run.mjs
//   node bench/size.mjs --profiles              Cargo profiles (opt-level 3 / "s" / "z",
//        LTO, codegen-units) x wasm-opt -O3 / -Oz, each built in its own target dir
//        (slow: one release build per profile); `make bench-size`, writes
//        bench/size-matrix.json
//
// Every variant: raw / gzip -9 / brotli size, compile + instantiate time in a fresh Node
// process (median of several), and a speed probe (bench/probe.mjs).
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { gzipSync, brotliCompressSync, constants as zlibConstants } from "node:zlib";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./timing.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => {
  const local = join(root, "node_modules", ".bin", name);
  return existsSync(local) ? local : name;
};
const env = { ...process.env, PATH: `${join(root, "node_modules", ".bin")}:${process.env.HOME}/.cargo/bin:${process.env.PATH}` };
/** wasm-opt flags besides the level, as in Cargo.toml's wasm-pack metadata. */
export const WASM_OPT_FEATURES = ["--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext", "--enable-mutable-globals"];
const log = (...a) => console.error("[size]", ...a);

/** A loadable package directory (web half + Node ESM entry) from a cargo-built .wasm. */
export function buildVariant(rawWasm, outDir, level) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, "web"), { recursive: true });
  execFileSync("wasm-bindgen", ["--target", "web", "--out-dir", join(outDir, "web"), "--out-name", "calibrank", rawWasm], { env, stdio: "inherit" });
  const wasm = join(outDir, "web", "calibrank_bg.wasm");
  const t0 = Date.now();
  if (level) execFileSync(bin("wasm-opt"), [level, ...WASM_OPT_FEATURES, wasm, "-o", wasm], { env, stdio: "inherit" });
  for (const f of ["node.mjs", "score_error.js"]) copyFileSync(join(root, "js", f), join(outDir, f));
  writeFileSync(join(outDir, "package.json"), '{"type":"module"}\n');
  return { wasmOptSeconds: (Date.now() - t0) / 1000 };
}

export function sizes(wasmFile) {
  const bytes = readFileSync(wasmFile);
  return {
    rawBytes: bytes.length,
    gzipBytes: gzipSync(bytes, { level: 9 }).length,
    brotliBytes: brotliCompressSync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/** Compile + instantiate time of each build, in fresh processes, builds taken in turn. */
export function instantiateMs(dirs, runs) {
  const t = Object.fromEntries(dirs.map((d) => [d, []]));
  for (let i = 0; i < runs; i++) {
    for (const d of dirs) t[d].push(JSON.parse(execFileSync(process.execPath, [join(root, "bench", "startup.mjs"), d, "instantiate"], { encoding: "utf8" })).instantiateMs);
  }
  return Object.fromEntries(dirs.map((d) => [d, median(t[d])]));
}

/** bench/probe.mjs on every build at once (interleaved in one process). */
export function probe(dirs, quick) {
  return JSON.parse(execFileSync(process.execPath, ["--expose-gc", join(root, "bench", "probe.mjs"), ...(quick ? ["--quick"] : []), ...dirs], { encoding: "utf8", maxBuffer: 1 << 24 }));
}

/** Builds the variants (wasm-opt levels on one cargo build), without measuring. */
function sweepBuilds(rawWasm, levels, label) {
  return levels.map((level) => {
    const dir = join(root, "target", "bench-variants", `${label.replace(/\W+/g, "_")}${level || "_none"}`);
    log(`${label}, wasm-opt ${level || "(none)"}`);
    const { wasmOptSeconds } = buildVariant(rawWasm, dir, level);
    return { dir, row: { profile: label, wasmOpt: level || "none", wasmOptSeconds, ...sizes(join(dir, "web", "calibrank_bg.wasm")) } };
  });
}

/** Start-up and speed of built variants, measured together. */
function measure(builds, quick) {
  const dirs = builds.map((b) => b.dir);
  log(`measuring ${dirs.length} builds (start-up in turn, speed interleaved in one process)`);
  const inst = instantiateMs(dirs, quick ? 5 : 11);
  const speed = probe(dirs, quick);
  return builds.map((b) => ({ ...b.row, instantiateMs: inst[b.dir], probe: speed[b.dir] }));
}

/** wasm-opt levels on one cargo build. */
export function wasmOptSweep(rawWasm = join(root, "target", "wasm32-unknown-unknown", "release", "calibrank.wasm"), { levels = ["", "-O3", "-Os", "-Oz"], quick = false, label = "release profile" } = {}) {
  if (!existsSync(rawWasm)) return { skipped: `${rawWasm} not found (run scripts/build-pkg.sh first)` };
  return measure(sweepBuilds(rawWasm, levels, label), quick);
}

/** The Cargo profile variants of `--profiles`. */
const PROFILES = [
  { label: "opt3 lto cgu1 (shipped)", env: {} },
  { label: "opt-s lto cgu1", env: { CARGO_PROFILE_RELEASE_OPT_LEVEL: "s" } },
  { label: "opt-z lto cgu1", env: { CARGO_PROFILE_RELEASE_OPT_LEVEL: "z" } },
  { label: "opt3 no-lto cgu16", env: { CARGO_PROFILE_RELEASE_LTO: "false", CARGO_PROFILE_RELEASE_CODEGEN_UNITS: "16" } },
];

export function profileMatrix() {
  const builds = [];
  for (const p of PROFILES) {
    const targetDir = join(root, "target", "bench-size", p.label.replace(/\W+/g, "_"));
    log(`cargo build --release (${p.label}) in ${targetDir}`);
    const t0 = Date.now();
    execFileSync("cargo", ["build", "--quiet", "--release", "--lib", "--target", "wasm32-unknown-unknown", "--target-dir", targetDir], { env: { ...env, ...p.env }, stdio: "inherit", cwd: root });
    const buildSeconds = (Date.now() - t0) / 1000;
    const raw = join(targetDir, "wasm32-unknown-unknown", "release", "calibrank.wasm");
    for (const b of sweepBuilds(raw, ["-O3", "-Oz"], p.label)) builds.push({ ...b, row: { ...b.row, cargoBuildSeconds: buildSeconds } });
  }
  return measure(builds, false);
}

export function sizeTable(rows) {
  const kb = (b) => (b / 1024).toFixed(1);
  const probes = Object.keys(rows.find((r) => r.probe)?.probe ?? {});
  const lines = [
    `| profile | wasm-opt | raw KB | gzip KB | brotli KB | instantiate ms | ${probes.map((p) => `${p} ms`).join(" | ")} |`,
    `|---|---|---|---|---|---|${probes.map(() => "---").join("|")}|`,
  ];
  for (const r of rows) {
    lines.push(`| ${r.profile} | ${r.wasmOpt} | ${kb(r.rawBytes)} | ${kb(r.gzipBytes)} | ${kb(r.brotliBytes)} | ${r.instantiateMs.toFixed(2)} | ${probes.map((p) => (r.probe[p] < 0.1 ? r.probe[p].toFixed(4) : r.probe[p].toFixed(2))).join(" | ")} |`);
  }
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes("--profiles")) {
    const rows = profileMatrix();
    const out = join(root, "bench", "size-matrix.json");
    writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), node: process.version, rows }, null, 2) + "\n");
    console.log(sizeTable(rows));
    console.log(`\nwrote ${out}`);
  } else {
    const i = process.argv.indexOf("--wasm-opt");
    const raw = i >= 0 && process.argv[i + 1] && !process.argv[i + 1].startsWith("--") ? resolve(process.argv[i + 1]) : undefined;
    const rows = wasmOptSweep(raw, { levels: ["", "-O2", "-O3", "-O4", "-Os", "-Oz"] });
    console.log(Array.isArray(rows) ? sizeTable(rows) : rows.skipped);
  }
}
