// What each API module keeps about its wasm module (`ModuleState`).
import { LIMITED_FUNCTIONS, LIMIT_ALIASES, LimitTable, limitParts } from "./limits.js";
import { Wire } from "./module.js";
import { hasOwn, own, scoreError, typeError, shownValue } from "./values.js";

const propertyIsEnumerable = Object.prototype.propertyIsEnumerable;
/**
 * The package's version (scripts/build-pkg.sh defines `CALIBRANK_VERSION` from
 * package.json when it bundles this file; null in the sources run as they are).
 */
// eslint-disable-next-line no-undef
const PACKAGE_VERSION = typeof CALIBRANK_VERSION === "string" ? CALIBRANK_VERSION : null;

/**
 * What each API module (core.js, lab.js) keeps about its wasm module: the `Wire` once
 * instantiated, a loader an entry registered to instantiate it on the first call, and
 * the limits table read on first use. Operations 1-3 are common to the core's and the
 * lab's modules (calibrank_pipeline.wasm has none of them).
 */
export class ModuleState {
  /**
   * `name`: the entry, for the "not initialized" error; `imports`: the module's imports;
   * `fallback`: the state whose module serves this one's operations too while this one
   * has none of its own (the core's `Pipeline` runs on calibrank_pipeline.wasm when an
   * entry gave it that module, and on the whole core's otherwise); `tableOf(wire)`: the
   * limits table's parts for a module that has none (undefined: the module's own).
   */
  // Fields declared (defined, not assigned: js/wire/input.js `Scratch`).
  name;
  imports;
  fallback;
  tableOf;
  /** This state's own module's Wire (null before `init`). */
  own = null;
  loader = null;
  table = null;
  constructor(name, imports, fallback = null, tableOf = () => undefined) {
    this.name = name;
    this.imports = imports;
    this.fallback = fallback;
    this.tableOf = tableOf;
  }

  /** The Wire the operations run on (own, or the fallback's), null before any `init`. */
  get wire() {
    if (this.own !== null || this.loader !== null || this.fallback === null) return this.own;
    return this.fallback.wire;
  }

  /**
   * Instantiates the module (a compiled `WebAssembly.Module`); the entries call it. The
   * core's and the lab's modules carry their version in a custom section
   * (`calibrank_version`, scripts/build-pkg.sh), read before anything runs: one of another
   * release than this JavaScript (a cached or copied `.wasm` left from before an
   * upgrade), whose operations may not be the ones this JavaScript calls, is refused,
   * `INVALID_TYPE` on `field` (the init entries' `input`), or `INTERNAL` where the entry
   * found the file itself (`field` null). A module without the section (one built
   * without scripts/build-pkg.sh, calibrank_pipeline.wasm) is not checked.
   */
  init(module, field = null) {
    if (PACKAGE_VERSION !== null) {
      const section = WebAssembly.Module.customSections(module, "calibrank_version");
      const got = section.length === 0 ? PACKAGE_VERSION : new TextDecoder().decode(section[0]);
      if (got !== PACKAGE_VERSION) {
        const message = `${this.name}: ${field === null ? "its .wasm" : "the .wasm given"} is calibrank version ${shownValue(got)}, this JavaScript version "${PACKAGE_VERSION}": serve the .wasm of the same release (a cached or copied one from before an upgrade?)`;
        throw field === null ? scoreError("INTERNAL", "", message) : scoreError("INVALID_TYPE", field, message);
      }
    }
    this.own = new Wire(module, this.imports);
  }

  /**
   * Why `module` cannot be this API module's .wasm, or null: its exports lack the
   * boundary's, or its imports differ from the ones this side gives (the core imports
   * nothing, the lab its progress callback). The `init` entries ask before instantiating
   * what a caller handed them (the core's hands calibrank_pipeline.wasm to the Pipeline's
   * state: js/entries/init_api.js).
   */
  misfit(module) {
    const exported = WebAssembly.Module.exports(module).map((e) => e.name);
    const boundary = ["memory", "cr_reserve", "cr_call", "cr_out_of_memory"];
    if (boundary.some((name) => !exported.includes(name))) return `it does not export ${boundary.join(", ")}`;
    const want = Object.keys(this.imports).flatMap((m) => Object.keys(this.imports[m]).map((n) => `${m}.${n}`));
    const got = WebAssembly.Module.imports(module).map((i) => `${i.module}.${i.name}`);
    if (got.length !== want.length || got.some((g) => !want.includes(g)))
      return `it imports ${got.join(", ") || "nothing"}, where ${want.join(", ") || "nothing"} is expected`;
    return null;
  }

  /** Registers `load` (returning a compiled module), run on the first call instead. */
  lazy(load) {
    this.loader = load;
  }

  /** The Wire, instantiating the module first if an entry registered a loader. */
  get() {
    if (this.own === null && this.loader !== null) {
      // Dropped once the module it gave is running: a loader that throws (a .wasm not
      // found, the init entries before init()), or whose module fails to start, is run
      // again by the next call.
      this.init(this.loader());
      this.loader = null;
    }
    if (this.own !== null) return this.own;
    if (this.fallback !== null) return this.fallback.get();
    throw scoreError("INTERNAL", "", `${this.name} is not initialized: import it through one of its entries`);
  }

  /** The limits table, read on first use (not at start-up): the module's, or `tableOf`'s. */
  limits() {
    if (this.table === null) {
      const wire = this.get();
      this.table = new LimitTable(this.tableOf(wire) ?? limitParts(wire.call(3)));
    }
    return this.table;
  }

  /**
   * The limits of a call of `fn` with `options` (for the checks made before copying).
   * The module reads the options as JSON.stringify writes them, where `limits` is an own
   * enumerable property: those are the call's. A `limits` the options only inherit (from
   * a prototype of their own, a class's getter) is not written, so not the module's:
   * every limit at its ceiling then, and the module alone checks (it was applied here and
   * ignored there, refusing calls no limit refused).
   */
  limitsOf(options, fn) {
    const table = this.limits();
    if (options === undefined || options === null || typeof options !== "object") return table.defaultsFor(fn);
    if (hasOwn.call(options, "limits")) return propertyIsEnumerable.call(options, "limits") ? table.effective(options.limits, fn) : table.widest;
    return own(options, "limits") === undefined ? table.defaultsFor(fn) : table.widest;
  }

  /** The package version (operation 1). */
  version() {
    return this.get().call(1).text();
  }

  /** Every error code (operation 2). */
  errorCodes() {
    return this.get().call(2).strs();
  }

  /** A copy of the default limits, those most functions share or those of `fn`. */
  defaultLimits(fn) {
    if (fn !== undefined && typeof fn !== "string") throw typeError("fn", 'a function name (a string, as "rrf")', fn);
    const name = fn === undefined ? fn : LIMIT_ALIASES.get(fn) ?? fn;
    if (name !== undefined && !LIMITED_FUNCTIONS.includes(name))
      throw scoreError("UNKNOWN_METHOD", "fn", `no function named ${shownValue(fn)} takes limits; one of ${[...LIMITED_FUNCTIONS, ...LIMIT_ALIASES.keys()].join(", ")}`);
    return { ...this.limits().defaultsFor(name) };
  }

  /**
   * The functions both API modules export over their own module: `version()` (the
   * package version), `errorCodes()` (every code calibrank can throw) and
   * `defaultLimits(fn?)` (the default limits, those most functions share or `fn`'s).
   */
  common() {
    return { version: () => this.version(), errorCodes: () => this.errorCodes(), defaultLimits: (fn) => this.defaultLimits(fn) };
  }

  /** The hook object an API module default-exports for its entries. */
  hooks() {
    return { init: (module, field) => this.init(module, field), lazy: (load) => this.lazy(load), misfit: (module) => this.misfit(module) };
  }
}
