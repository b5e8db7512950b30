// One fresh process per way of handing over the .wasm (tests/js/init.test.mjs): prints
// the Pipeline result and a lab result as JSON, through calibrank/init and
// calibrank/lab/init, ESM (import) or CommonJS (require).
//   node tests/js/init-child.mjs <esm|cjs> <kind> [http base URL of pkg/]
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { input, config, scores, labels } from "../vite/fixture.js";

const [format, kind, base] = process.argv.slice(2);
const req = createRequire(import.meta.url);
const core = format === "cjs" ? req("calibrank/init") : await import("calibrank/init");
const lab = format === "cjs" ? req("calibrank/lab/init") : await import("calibrank/lab/init");
const fileUrl = (m) => new URL(`../../pkg/calibrank_${m}.wasm`, import.meta.url);
const bytes = (m) => readFileSync(fileUrl(m));
const wasm = "application/wasm";
const kinds = {
  none: (m, api) => api.init(),
  fileUrl: (m, api) => api.init(fileUrl(m)),
  fileString: (m, api) => api.init(fileUrl(m).href),
  filePath: (m, api) => api.init(fileURLToPath(fileUrl(m))),
  relativePath: (m, api) => api.init(relative(process.cwd(), fileURLToPath(fileUrl(m)))),
  buffer: (m, api) => api.init(bytes(m)),
  arrayBuffer: (m, api) => api.init(new Uint8Array(bytes(m)).buffer),
  // A DataView (an ArrayBufferView, as the declarations take it) over bytes with others
  // around them: the engine refuses a DataView, so the package reads the bytes it views.
  dataView: (m, api) => {
    const b = bytes(m);
    const padded = new Uint8Array(b.length + 16);
    padded.set(b, 8);
    return api.init(new DataView(padded.buffer, 8, b.length));
  },
  syncDataView: (m, api) => {
    const b = bytes(m);
    return api.initSync(new DataView(b.buffer, b.byteOffset, b.length));
  },
  module: (m, api) => api.init(new WebAssembly.Module(bytes(m))),
  promise: (m, api) => api.init(Promise.resolve(bytes(m))),
  response: (m, api) => api.init(new Response(bytes(m), { headers: { "content-type": wasm } })),
  untypedResponse: (m, api) => api.init(new Response(bytes(m))),
  httpUrl: (m, api) => api.init(`${base}/calibrank_${m}.wasm`),
  httpFetch: (m, api) => api.init(fetch(`${base}/calibrank_${m}.wasm`)),
  request: (m, api) => api.init(new Request(`${base}/calibrank_${m}.wasm`)),
  syncBytes: (m, api) => api.initSync(bytes(m)),
  syncModule: (m, api) => api.initSync(new WebAssembly.Module(bytes(m))),
  twice: (m, api) => Promise.all([api.init(bytes(m)), api.init(bytes(m))]).then(() => api.init(42)),
  // A first init whose input fails while a second one waits: the second tries its own.
  badThenGood: async (m, api) => {
    const first = api.init(new Uint8Array([0, 97, 115, 109, 9, 9, 9, 9])).then(
      () => {
        throw new Error("the first init resolved with bytes of no module");
      },
      (e) => {
        if (!(e instanceof api.ScoreError) || e.code !== "INVALID_TYPE" || e.field !== "input") throw e;
      },
    );
    await api.init(bytes(m));
    await first;
  },
  // A module of another release (the version in its custom section changed, so that it is a valid
  // module of the right shape): refused, and the entry stays uninitialized until the
  // right one is given.
  otherRelease: async (m, api) => {
    const b = bytes(m);
    // The last occurrence: the custom section scripts/build-pkg.sh appends.
    const at = b.lastIndexOf(JSON.parse(readFileSync(new URL("../../pkg/package.json", import.meta.url), "utf8")).version);
    if (at < 0) throw new Error("the version is not in the module");
    const other = Buffer.from(b);
    other.write("9.9.9", at);
    await api.init(other).then(
      () => {
        throw new Error("a module of another release was accepted");
      },
      (e) => {
        if (!(e instanceof api.ScoreError) || e.code !== "INVALID_TYPE" || e.field !== "input" || !e.message.includes('version "9.9.9"')) throw e;
      },
    );
    if (api.isInitialized()) throw new Error("initialized by a module of another release");
    await api.init(b);
  },
  // An init whose input never settles (a hung fetch), another waiting for it, then
  // initSync: both resolve.
  hungThenSync: async (m, api) => {
    const hung = api.init(new Promise(() => {}));
    const waiting = api.init(bytes(m));
    api.initSync(bytes(m));
    await Promise.all([hung, waiting]);
  },
  // initSync while an init of bad bytes is pending: that init resolves (the module is ready).
  badThenSync: async (m, api) => {
    const first = api.init(Promise.resolve(new Uint8Array([1, 2, 3])));
    api.initSync(bytes(m));
    await first;
  },
};
await kinds[kind]("core", core);
await kinds[kind]("lab", lab);
const out = new core.Pipeline(config).run(input);
console.log(
  JSON.stringify({
    initialized: [core.isInitialized(), lab.isInitialized()],
    results: out.results.map((r) => [r.id, r.score, r.band]),
    confidence: out.confidence,
    platt: lab.fitPlatt(scores, labels),
  }),
);
