// A call's output, read in place: sections in order, strings decoded on demand.
import { F64, NONE, STRS, TEXT, U32, U8, fromUtf8, pad8 } from "./sections.js";
import { ScoreError } from "../score_error.js";
import { scoreError } from "./values.js";

const fromCharCodes = String.fromCharCode;
/** Decodes UTF-8; short ASCII without TextDecoder (one native call, a flat string). */
function readString(u8, start, end) {
  if (end - start <= 128) {
    let ascii = true;
    for (let i = start; i < end; i++) if (u8[i] > 0x7f) ascii = false;
    if (ascii) return fromCharCodes.apply(null, u8.subarray(start, end));
  }
  return fromUtf8.decode(u8.subarray(start, end));
}

/**
 * An output text the engine cannot make into a string, or its objects (Node's
 * ERR_STRING_TOO_LONG past 2^29 - 24 characters, a browser's RangeError: evaluatePerQuery
 * of 500,000 queries x 64 metrics): INPUT_TOO_LARGE, the engine's error as its cause.
 * Any other error is returned as it is (the caller rethrows it).
 */
function tooLong(cause, size) {
  // Only the engine's refusal of a length: anything else is no size problem (rethrown).
  if (!(cause instanceof RangeError || cause?.code === "ERR_STRING_TOO_LONG")) return cause;
  return new ScoreError(`the result is ${size} of JSON, more than this JavaScript engine holds in one string: ask for less at a time (fewer queries, metrics or results)`, "INPUT_TOO_LARGE", "", { cause });
}

/** The sections of one call's output, read in order. Views are valid until the next call. */
export class Output {
  // Fields declared (defined, not assigned: js/wire/input.js `Scratch`).
  w;
  pos;
  end;
  /** The length of the section the last index reader passed. */
  n = 0;
  constructor(wire, pos, end) {
    this.w = wire;
    this.pos = pos;
    this.end = end;
  }
  header(want) {
    const tag = this.w.u32[this.pos >>> 2];
    const count = this.w.u32[(this.pos >>> 2) + 1];
    this.pos += 8;
    if (tag === NONE) return -1;
    if (tag !== want) throw scoreError("INTERNAL", "", `wire: output section ${tag}, expected ${want}`);
    return count;
  }
  text() {
    const n = this.header(TEXT);
    if (n < 0) return undefined;
    let s;
    try {
      s = readString(this.w.u8, this.pos, this.pos + n);
    } catch (e) {
      throw tooLong(e, `${n} bytes`);
    }
    this.pos += pad8(n);
    return s;
  }
  json() {
    const t = this.text();
    if (t === undefined) return undefined;
    try {
      return JSON.parse(t);
    } catch (e) {
      throw tooLong(e, `${t.length} characters`);
    }
  }
  // Index readers: no typed array is created (a subarray costs about as much as a small
  // call's other work). Each moves past a section and returns the index of its first
  // element in the wire's view (`w.f64`, `w.u32`, `w.u8`, valid until the next call),
  // its length in `n`; a NONE section gives -1 and `n` 0.
  f64At() {
    const n = this.header(F64);
    if (n < 0) return (this.n = 0), -1;
    const i = this.pos >>> 3;
    this.pos += 8 * n;
    this.n = n;
    return i;
  }
  u32At() {
    const n = this.header(U32);
    if (n < 0) return (this.n = 0), -1;
    const i = this.pos >>> 2;
    this.pos += pad8(4 * n);
    this.n = n;
    return i;
  }
  u8At() {
    const n = this.header(U8);
    if (n < 0) return (this.n = 0), -1;
    const i = this.pos;
    this.pos += pad8(n);
    this.n = n;
    return i;
  }
  /** A view into wasm memory (copy it before the next call). */
  f64View() {
    const i = this.f64At();
    return i < 0 ? undefined : this.w.f64.subarray(i, i + this.n);
  }
  /** A copy (one typed array made, not a view and a copy). */
  f64s() {
    const i = this.f64At();
    return i < 0 ? undefined : this.w.f64.slice(i, i + this.n);
  }
  u32View() {
    const i = this.u32At();
    return i < 0 ? undefined : this.w.u32.subarray(i, i + this.n);
  }
  u32s() {
    const i = this.u32At();
    return i < 0 ? undefined : this.w.u32.slice(i, i + this.n);
  }
  /** A view into wasm memory (copy it before the next call). */
  u8View() {
    const i = this.u8At();
    return i < 0 ? undefined : this.w.u8.subarray(i, i + this.n);
  }
  u8s() {
    const i = this.u8At();
    return i < 0 ? undefined : this.w.u8.slice(i, i + this.n);
  }
  strs() {
    const n = this.header(STRS);
    if (n < 0) return undefined;
    const o = this.pos >>> 2;
    const base = this.pos + pad8(4 * (n + 1));
    const u32 = this.w.u32;
    const out = new Array(n);
    for (let i = 0; i < n; i++) out[i] = readString(this.w.u8, base + u32[o + i], base + u32[o + i + 1]);
    this.pos = base + pad8(u32[o + n]);
    return out;
  }
}
