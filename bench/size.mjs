// Size and start-up of the package's two modules (calibrank_core.wasm, the scoring core
// that `import "calibrank"` loads, and calibrank_lab.wasm, loaded only by
// `import "calibrank/lab"`), and what the build settings trade for them.
//
//   node bench/size.mjs --wasm-opt   wasm-opt levels on the release build (the cargo
//        output in target/, as scripts/build-pkg.sh leaves it); `make bench` runs this
//        through bench/run.mjs --wasm-opt-sweep
//   node bench/size.mjs --profiles   Cargo profiles (opt-level 3 / "s" / "z", LTO,
//        codegen-units) x wasm-opt -O3 / -Oz, each built in its own target dir (slow: one
//        release build per profile); `make bench-size`, writes bench/size-matrix.json
//
// Every variant is a whole package built by scripts/build-pkg.sh (PKG_OUT, WASM_OPT_FLAGS,
// CARGO_TARGET_DIR) under target/bench-variants/. Measured: raw / gzip -9 / brotli size of
// each module, compile + instantiate time of each in a fresh Node process (median of
// several; bench/startup.mjs), and a speed probe of the core (bench/probe.mjs).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync, brotliCompressSync, constants as zlibConstants } from "node:zlib";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./timing.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const env = { ...process.env, PATH: `${join(root, "node_modules", ".bin")}:${process.env.HOME}/.cargo/bin:${process.env.PATH}` };
/** The package's modules: file name in the package, and the cargo output it is made from. */
export const MODULES = {
  core: { file: "calibrank_core.wasm", raw: "calibrank_wasm_core.wasm" },
  pipeline: { file: "calibrank_pipeline.wasm", raw: "calibrank_wasm_pipeline.wasm" },
  lab: { file: "calibrank_lab.wasm", raw: "calibrank_wasm_lab.wasm" },
};
const log = (...a) => console.error("[size]", ...a);

/**
 * A whole package in `outDir`, built by scripts/build-pkg.sh with wasm-opt `level` ("" is
 * -O0: no optimization passes), cargo building into `targetDir` (undefined: the shared
 * target/, where a build with the release profile is what `make pkg` makes anyway) with
 * the environment `cargoEnv` (profile overrides).
 */
export function buildVariant(outDir, level, { targetDir, cargoEnv = {} } = {}) {
  const t0 = Date.now();
  execFileSync("bash", [join(root, "scripts", "build-pkg.sh")], {
    cwd: root,
    env: { ...env, ...cargoEnv, PKG_OUT: outDir, WASM_OPT_FLAGS: level || "-O0", ...(targetDir ? { CARGO_TARGET_DIR: targetDir } : {}) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return { buildSeconds: (Date.now() - t0) / 1000 };
}

export function sizes(wasmFile) {
  const bytes = readFileSync(wasmFile);
  return {
    rawBytes: bytes.length,
    gzipBytes: gzipSync(bytes, { level: 9 }).length,
    brotliBytes: brotliCompressSync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/** Sizes of both modules of a package directory: `{ core: {...}, lab: {...} }`. */
export function packageSizes(dir) {
  return Object.fromEntries(Object.entries(MODULES).map(([m, { file }]) => [m, sizes(join(dir, file))]));
}

/**
 * Compile + instantiate time of module `which` ("core" or "lab") of each build, in fresh
 * processes, builds taken in turn.
 */
export function instantiateMs(dirs, runs, which = "core") {
  const t = Object.fromEntries(dirs.map((d) => [d, []]));
  for (let i = 0; i < runs; i++) {
    for (const d of dirs) t[d].push(JSON.parse(execFileSync(process.execPath, [join(root, "bench", "startup.mjs"), d, "instantiate", which], { encoding: "utf8" })).instantiateMs);
  }
  return Object.fromEntries(dirs.map((d) => [d, median(t[d])]));
}

/** bench/probe.mjs on every build at once (interleaved in one process). */
export function probe(dirs, quick) {
  return JSON.parse(execFileSync(process.execPath, ["--expose-gc", join(root, "bench", "probe.mjs"), ...(quick ? ["--quick"] : []), ...dirs], { encoding: "utf8", maxBuffer: 1 << 24 }));
}

/** Builds the variants (wasm-opt levels on one cargo build), without measuring. */
function sweepBuilds(levels, label, opts = {}) {
  return levels.map((level) => {
    const dir = join(root, "target", "bench-variants", `${label.replace(/\W+/g, "_")}${(level || "_none").replace(/\s+/g, "_")}`);
    log(`${label}, wasm-opt ${level || "(none: -O0)"} -> ${dir}`);
    const { buildSeconds } = buildVariant(dir, level, opts);
    return { dir, row: { profile: label, wasmOpt: level || "none", buildSeconds, modules: packageSizes(dir) } };
  });
}

/** Start-up and speed of built variants, measured together. */
function measure(builds, quick) {
  const dirs = builds.map((b) => b.dir);
  log(`measuring ${dirs.length} builds (start-up in turn, speed interleaved in one process)`);
  const runs = quick ? 5 : 11;
  const core = instantiateMs(dirs, runs, "core");
  const lab = instantiateMs(dirs, runs, "lab");
  const speed = probe(dirs, quick);
  return builds.map((b) => ({ ...b.row, instantiateMs: core[b.dir], labInstantiateMs: lab[b.dir], probe: speed[b.dir] }));
}

/** wasm-opt levels on the release build in the shared target/ (cargo: a no-op once `make pkg` ran). */
export function wasmOptSweep({ levels = ["", "-O3", "-O3 -ocimfs 100", "-Os", "-Oz"], quick = false, label = "release profile" } = {}) {
  try {
    return measure(sweepBuilds(levels, label), quick);
  } catch (e) {
    return { skipped: `the variants could not be built: ${e.message.split("\n")[0]}` };
  }
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
    // The flags scripts/build-pkg.sh builds with, so that its build reuses this one.
    const RUSTFLAGS = execFileSync("bash", [join(root, "scripts", "rustflags.sh")], { encoding: "utf8", cwd: root, env }).trim();
    execFileSync("cargo", ["build", "--quiet", "--release", "--target", "wasm32-unknown-unknown", "-p", "calibrank-wasm-core", "-p", "calibrank-wasm-lab", "--target-dir", targetDir], { env: { ...env, ...p.env, RUSTFLAGS }, stdio: "inherit", cwd: root });
    const cargoBuildSeconds = (Date.now() - t0) / 1000;
    for (const b of sweepBuilds(["-O3", "-Oz"], p.label, { targetDir, cargoEnv: p.env })) builds.push({ ...b, row: { ...b.row, cargoBuildSeconds } });
  }
  return measure(builds, false);
}

/** True for rows measured on the two-module package (older files hold one module). */
export const twoModuleRows = (rows) => Array.isArray(rows) && rows.length > 0 && rows.every((r) => r.modules?.core && r.modules?.lab);

export function sizeTable(rows) {
  const kb = (b) => (b / 1024).toFixed(1);
  const ms = (x) => (typeof x === "number" ? x.toFixed(2) : "-");
  const probes = Object.keys(rows.find((r) => r.probe)?.probe ?? {});
  const lines = [
    `| profile | wasm-opt | core raw KB | core gzip KB | core brotli KB | lab raw KB | lab gzip KB | lab brotli KB | core instantiate ms | lab instantiate ms | ${probes.map((p) => `${p} ms`).join(" | ")} |`,
    `|---|---|---|---|---|---|---|---|---|---|${probes.map(() => "---").join("|")}|`,
  ];
  for (const r of rows) {
    const { core, lab } = r.modules;
    lines.push(
      `| ${r.profile} | ${r.wasmOpt} | ${kb(core.rawBytes)} | ${kb(core.gzipBytes)} | ${kb(core.brotliBytes)} | ${kb(lab.rawBytes)} | ${kb(lab.gzipBytes)} | ${kb(lab.brotliBytes)} | ${ms(r.instantiateMs)} | ${ms(r.labInstantiateMs)} | ${probes.map((p) => (r.probe[p] < 0.1 ? r.probe[p].toFixed(4) : r.probe[p].toFixed(2))).join(" | ")} |`,
    );
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
  } else if (process.argv.includes("--wasm-opt")) {
    const rows = wasmOptSweep({ levels: ["", "-O2", "-O3", "-O3 -ocimfs 100", "-O4", "-Os", "-Oz"], quick: process.argv.includes("--quick") });
    console.log(Array.isArray(rows) ? sizeTable(rows) : rows.skipped);
  } else {
    console.error("usage: node bench/size.mjs --wasm-opt [--quick] | --profiles");
    process.exit(2);
  }
}
