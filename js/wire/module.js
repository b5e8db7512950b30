// One instantiated module and the calls into it (`Wire`): an input copied in, `cr_call`,
// the output read; a trap makes the module be instantiated afresh.
import { ScoreError } from "../score_error.js";
import { SMALL_TABLE, joinedParts, writeEach, writeString } from "./input.js";
import { Output } from "./output.js";
import { F64, NONE, STRS, TEXT, U32, U8, pad8 } from "./sections.js";
import { engineLimit, lengthOf, scoreError, stackExhausted, typedArrayKind } from "./values.js";

/** Instances made so far by every Wire (their `generation`s). */
let instantiations = 0;

/**
 * Whether `module` is calibrank_pipeline.wasm (the `Pipeline` alone, no JSON): its
 * `cr_pipeline_only` export (wasm/core/src/lib.rs).
 */
export const holdsPipelineAlone = (module) => WebAssembly.Module.exports(module).some((e) => e.name === "cr_pipeline_only");

/** One instantiated module and the calls into it. */
export class Wire {
  // Fields declared (defined, not assigned: js/wire/input.js `Scratch`).
  module;
  imports;
  /** Whether a `cr_call` is running (see `call`). */
  busy = false;
  /** The core's function-table slot for its held texts (js/core/held-texts.js; -1 until a `Pipeline` is made). */
  textsSlot = -1;
  /**
   * Whether this is calibrank_pipeline.wasm, which holds no JSON: a pipeline's
   * configuration and a run's context reach it decoded (js/core/typed-config.js).
   */
  typedConfig = false;
  /** The instance's exports and memory, the buffer the views were made over, and the views. */
  x = null;
  memory = null;
  buffer = null;
  generation = 0;
  u8 = null;
  u32 = null;
  f64 = null;
  /** `module`: a compiled `WebAssembly.Module`; `imports`: its import object. */
  constructor(module, imports = {}) {
    this.module = module;
    this.imports = imports;
    this.typedConfig = holdsPipelineAlone(module);
    this.instantiate();
  }

  /**
   * A new instance in place of the old one. The old instance and every view of its
   * memory are dropped first: after a trap that exhausted the memory (up to 4 GiB),
   * nothing of the package holds it while the new instance is made (an engine short of
   * address space may need it back for that), nor after. An engine that cannot make the
   * instance (no memory for it) gives a ScoreError; this Wire then has none, and the
   * next call tries again (`live`; `again`: this is such a try, or a restart, and the
   * message says so: an entry that instantiates as it loads fails to load instead).
   */
  instantiate(again = false) {
    this.x = null;
    this.memory = null;
    this.buffer = null;
    this.u8 = this.u32 = this.f64 = null;
    // Numbered across every Wire of the API module: a second `init` (calibrank/init with a
    // main entry in one bundle) makes a new Wire whose instance is not the one the
    // handles made before it live in. Counted before the instance is made: the old
    // instance's handles are lost even when no new one starts.
    this.generation = ++instantiations;
    let x;
    try {
      x = new WebAssembly.Instance(this.module, this.imports).exports;
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      throw new ScoreError(
        `the WebAssembly module could not be instantiated (${e.message}): the engine has no memory for a new instance now${again ? "; the next call tries again" : ""}`,
        "INTERNAL",
        "",
        { cause: e },
      );
    }
    this.x = x;
    this.memory = x.memory;
  }

  /** Instantiates the module again when the last attempt failed (see `instantiate`). */
  live() {
    if (this.x === null) this.instantiate(true);
  }

  views() {
    const b = this.memory.buffer;
    if (b !== this.buffer) {
      this.buffer = b;
      this.u8 = new Uint8Array(b);
      this.u32 = new Uint32Array(b);
      this.f64 = new Float64Array(b);
    }
  }

  /**
   * Writes `input` (an `Input`), calls operation `op` and returns its `Output`. A call
   * made while another call into this module is running (the only caller code that
   * runs with wasm on the stack is `optimizeFusion`'s `onProgress`, an import of the
   * lab's module) is refused: it would write over the input and output of the call in
   * flight, and a trap in it would restart the instance under that call.
   */
  call(op, input) {
    if (this.busy)
      throw scoreError("REENTRANT_CALL", "", "called while another call into the same module is running (from optimizeFusion's onProgress): call it once that call has returned");
    this.live();
    if (input && input.late !== null) for (const f of input.late) f();
    let ptr, len;
    // Whether the error came from the module (a trap) or from this side's writing.
    let inWasm = false;
    try {
      // Addresses cross as wasm i32: one at or above 2 GiB reads negative in JavaScript.
      inWasm = true;
      ptr = this.x.cr_reserve(input ? input.bound : 0, input ? input.room : 0) >>> 0;
      inWasm = false;
      len = input ? this.write(ptr, input, ptr + input.bound) : 0;
      if (len < 0) {
        // Some strings are not ASCII and took more room than the first guess.
        inWasm = true;
        ptr = this.x.cr_reserve(input.worst, input.room) >>> 0;
        inWasm = false;
        len = this.write(ptr, input, ptr + input.worst);
        if (len < 0) throw scoreError("INTERNAL", "", "wire: the input does not fit the room reserved for it");
      }
      let p;
      this.busy = true;
      try {
        inWasm = true;
        p = this.x.cr_call(op, len) >>> 0;
        inWasm = false;
      } finally {
        this.busy = false;
      }
      this.views();
      const status = this.u32[p >>> 2];
      const out = new Output(this, p + 8, p + 8 + this.u32[(p >>> 2) + 1]);
      if (status !== 0) {
        // An error: its code, field and message, as three texts.
        const code = out.text();
        const field = out.text();
        throw scoreError(code, field, out.text());
      }
      return out;
    } catch (e) {
      if (!inWasm && e instanceof RangeError && /string length/i.test(e.message)) {
        // A string table part longer than the engine's longest string (see
        // `joinedParts`): the module was not entered, so it stays as it is.
        throw engineLimit("", "the strings of the input, joined", e);
      }
      if (inWasm && (e instanceof WebAssembly.RuntimeError || (e instanceof RangeError && !(e instanceof ScoreError)))) {
        // A trap (a bug, or memory exhausted): the instance is in an unknown state. A
        // request its heap could not meet is noted before Rust aborts (an older module
        // has no such export).
        const wanted = typeof this.x.cr_out_of_memory === "function" ? this.x.cr_out_of_memory() >>> 0 : 0;
        // A new instance the engine cannot make: the trap (or the request not met) said
        // in words before the refusal, whose engine error is the cause; the next call
        // tries again.
        try {
          this.instantiate(true);
        } catch (again) {
          if (!(again instanceof ScoreError)) throw again;
          throw new ScoreError(`${wanted !== 0 ? `the call needed more memory than the module could get (a request of ${wanted} bytes)` : `the WebAssembly module trapped (${e.message})`}; ${again.message}`, wanted !== 0 ? "INPUT_TOO_LARGE" : "INTERNAL", "", { cause: again.cause });
        }
        if (wanted !== 0)
          throw scoreError(
            "INPUT_TOO_LARGE",
            "",
            `the call needs more memory than WebAssembly's 4 GiB (a request of ${wanted} bytes could not be met): ask for fewer results (topK, topN), turn explanations off, or split the input; the module was restarted (as after a trap: a Pipeline made before carries on, a calibrank/lab Run or Qrels made before is lost)`,
          );
        // The engine's stack exhausted in the module: most often the caller's own (a call
        // made from deep recursion), restarted all the same (the instance stopped midway).
        if (stackExhausted(e))
          throw scoreError("INTERNAL", "", `the WebAssembly module ran out of stack (${e.message}): the call was made with too little stack left (from deep recursion?); it was restarted`);
        throw scoreError("INTERNAL", "", `the WebAssembly module trapped (${e.message}); it was restarted`);
      }
      throw e;
    }
  }

  /** Writes the sections; returns the length, or -1 when they do not fit before `limit`. */
  write(ptr, input, limit) {
    this.views();
    const u8 = this.u8;
    const u32 = this.u32;
    const f64 = this.f64;
    let pos = ptr;
    const { tags, values } = input;
    let table = 0;
    for (let s = 0; s < tags.length; s++) {
      const tag = tags[s];
      const v = values[s];
      const h = pos >>> 2;
      if (pos + 8 > limit) return -1;
      u32[h] = tag;
      pos += 8;
      switch (tag) {
        case NONE:
          u32[h + 1] = 0;
          break;
        case TEXT: {
          const end = writeString(u8, pos, v, limit);
          if (end < 0) return -1;
          u32[h + 1] = end - pos;
          pos = pad8(end);
          break;
        }
        case F64: {
          // Sections hold the package's own arrays or typed arrays (`numbers` and
          // `indices` copy any other array); neither the length nor the brand check
          // below runs caller code (`instanceof` would: a prototype can be a Proxy).
          const n = lengthOf(v);
          if (pos + 8 * n > limit) return -1;
          u32[h + 1] = n;
          if (typedArrayKind(v) === "Float64Array") {
            // A typed array is the caller's own (see `plainTyped`); detached since the
            // checks, its length reads 0 and `set` would throw.
            if (n > 0) f64.set(v, pos >>> 3);
          }
          else {
            const o = pos >>> 3;
            for (let i = 0; i < n; i++) f64[o + i] = v[i];
          }
          pos += 8 * n;
          break;
        }
        case U32: {
          const n = lengthOf(v);
          if (pos + 4 * n > limit) return -1;
          u32[h + 1] = n;
          if (typedArrayKind(v) === "Uint32Array") {
            if (n > 0) u32.set(v, pos >>> 2);
          }
          else {
            const o = pos >>> 2;
            for (let i = 0; i < n; i++) u32[o + i] = v[i];
          }
          pos += pad8(4 * n);
          break;
        }
        case U8: {
          const n = lengthOf(v);
          if (pos + n > limit) return -1;
          u32[h + 1] = n;
          u8.set(v, pos);
          pos += pad8(n);
          break;
        }
        case STRS: {
          const n = v.length;
          u32[h + 1] = n;
          const o = pos >>> 2;
          const base = pos + pad8(4 * (n + 1));
          u32[o] = 0;
          const ends = input.ends[table];
          if (input.units[table++] <= SMALL_TABLE) {
            // A few short strings: written one by one (ASCII ones without TextEncoder),
            // cheaper than joining them first.
            const end = writeEach(u8, u32, o, base, v, limit);
            if (end < 0) return -1;
            pos = pad8(end);
            break;
          }
          // The table's strings in parts (`joinedParts`); when every string is ASCII (as
          // many bytes as UTF-16 units) the offsets are the running lengths.
          let end = joinedParts(u8, base, v, limit);
          if (end === -1) return -1;
          if (end >= 0) {
            let i = 0;
            let off = 0;
            if (ends !== null && ends.length > 0) {
              i = ends.length;
              u32.set(ends, o + 1);
              off = ends[i - 1];
            }
            for (; i < n; i++) {
              off += v[i].length;
              u32[o + i + 1] = off;
            }
          } else {
            end = writeEach(u8, u32, o, base, v, limit);
            if (end < 0) return -1;
          }
          pos = pad8(end);
          break;
        }
      }
    }
    return pos - ptr;
  }
}
