// A call's input as the module reads it: typed sections and one string table per call,
// written straight into wasm memory (`Input`), and the typed arrays kept between calls
// for its tables (`Scratch`).
import { F64, NONE, STRS, TEXT, U32, U8, utf8 } from "./sections.js";
import { allocate, lengthOf, typedArrayKind } from "./values.js";

/**
 * Typed arrays kept from one call to the next for an input's tables: a new typed array
 * costs about a microsecond (its backing store is allocated outside the heap and freed
 * by the collector), as much as the rest of a small call. A call takes a `Lease`, asks
 * it for zeroed arrays, and gives it back once the tables are copied into wasm memory.
 * Caller code (getters, Proxies) runs while a call reads its input and may call the
 * package again: a lease taken while another is out hands out fresh arrays.
 *
 * Large tables are kept too, with the large JavaScript arrays of `Lease.kept`, as long
 * as all of them together stay within `MAX_BYTES` (128 MiB, an array's slot counted as 8
 * bytes; one that would take them past it is made for its call alone): a backing store
 * counts as the engine's external memory, and V8 runs a full
 * collection (marking the whole heap, the caller's input included) once more than 64 MB
 * of it was allocated since the last one. A pipeline call of 3 lists of 1,000,000 ids
 * with their 1,444,000 items made 105 MB of new tables, and with them a collection of
 * 1.6 s in every call (`node --expose-gc --trace-gc`; docs/performance-history.md, "A call's
 * company"). Kept, they hold what the largest calls needed (the tables under 30 MB at
 * every function's default limits, the arrays up to 16 MB more: 5 slots per distinct id
 * of a pipeline call of 400,000 entries; 128 MiB at most), as the module's memory keeps
 * what its largest call grew it to.
 */
export class Scratch {
  static MAX_BYTES = 128 * 1024 * 1024;
  // The package's classes declare their fields: defined on each object, never assigned
  // through a setter or a read-only value of the same name on Object.prototype (a
  // caller's). tests/js/own-objects.test.mjs plants every such name.
  out = false;
  lease = new Lease(this, true);
  fresh = new Lease(this, false);
  take() {
    if (this.out) return this.fresh;
    this.out = true;
    return this.lease;
  }
  give(lease) {
    if (lease !== this.lease) return;
    // The kept arrays hold none of the caller's values between calls.
    lease.emptyArrays();
    this.out = false;
  }
  /**
   * Forgets the kept tables: the next call makes its own. A call holding the lease keeps
   * the arrays it was given (only the lease's references to them go). Returns the bytes
   * they held.
   */
  drop() {
    let bytes = 0;
    for (const b of this.lease.bufs) if (b !== undefined) bytes += b.byteLength;
    this.lease.bufs = [];
    this.lease.views = [];
    // A slot of a JavaScript array: 8 bytes (a pointer, 64-bit engines).
    for (const a of this.lease.arrays) if (a !== undefined) bytes += 8 * a.length;
    this.lease.arrays = [];
    this.lease.used = [];
    return bytes;
  }
}

class Lease {
  static KEEP_FROM = 16384;
  scratch;
  reuse;
  bufs = [];
  views = [];
  // JavaScript arrays kept from call to call (`kept`), and how many of each one's first
  // slots may hold a value of the caller's.
  arrays = [];
  used = [];
  constructor(scratch, reuse) {
    this.scratch = scratch;
    this.reuse = reuse;
  }
  /**
   * An array whose first `n` slots are `undefined`, kept in slot `i` from one call to
   * the next (js/core/pipeline-input.js `encodeInput`: the items it looked up, the texts
   * a pipeline call holds back): a new array of more than
   * 16,384 slots (128 KiB) is allocated apart from V8's pages, mapped and zeroed for each
   * call (`node bench/large-arrays.mjs`: 57,776 slots, the held texts of (c) at
   * N = 10,000, a quarter of them written, 313 µs a call made new, 84 µs kept and
   * emptied; 5,776 slots 5.0 and 5.3 µs). Its slots are emptied when the lease is given
   * back (`emptyArrays`): it keeps none of the caller's values alive between calls. One
   * of fewer than `KEEP_FROM` slots (made within V8's pages, and then no dearer than
   * emptying one), or one that would take what the lease keeps (tables and arrays, 8
   * bytes a slot) past `Scratch.MAX_BYTES`, is made for its call alone.
   */
  kept(i, n) {
    if (!this.reuse || n < Lease.KEEP_FROM) return new Array(n);
    let a = this.arrays[i];
    // Asked again within one call (an input encoded a second time): emptied first.
    this.empty(i);
    if (a === undefined || a.length < n) {
      if (this.keptBytes(-1, i) + 8 * n > Scratch.MAX_BYTES) return new Array(n);
      a = this.arrays[i] = new Array(n);
    }
    this.used[i] = n;
    return a;
  }
  /**
   * The bytes the lease keeps (its tables, and its arrays at 8 bytes a slot: a pointer,
   * 64-bit engines), but table `table` and array `array` (-1: none).
   */
  keptBytes(table, array) {
    let bytes = 0;
    for (let j = 0; j < this.bufs.length; j++) if (j !== table && this.bufs[j] !== undefined) bytes += this.bufs[j].byteLength;
    for (let j = 0; j < this.arrays.length; j++) if (j !== array && this.arrays[j] !== undefined) bytes += 8 * this.arrays[j].length;
    return bytes;
  }
  /** Empties kept array `i` (its first `n` slots: those its call wrote, when it knows). */
  empty(i, n = this.used[i]) {
    const a = this.arrays[i];
    if (a === undefined) return;
    for (let j = 0; j < n; j++) a[j] = undefined;
    this.used[i] = 0;
  }
  emptyArrays() {
    for (let i = 0; i < this.arrays.length; i++) this.empty(i);
  }
  /**
   * A zeroed array of `n` elements of `Kind` (Uint32Array, Float64Array or Uint8Array),
   * kept in slot `i` (one per table, so that a table keeps its buffer whatever the
   * others do) within `Scratch.MAX_BYTES`.
   */
  array(Kind, n, i, field) {
    if (!this.reuse) return allocate(Kind, n, field);
    let b = this.bufs[i];
    if (b === undefined || b.length < n || !(b instanceof Kind)) {
      // What else the lease keeps (summed only when a table grows: a few slots).
      const size = Math.max(n, 256);
      if (this.keptBytes(i, -1) + size * Kind.BYTES_PER_ELEMENT > Scratch.MAX_BYTES) return allocate(Kind, n, field);
      b = this.bufs[i] = allocate(Kind, size, field);
      this.views[i] = undefined;
    }
    b.fill(0, 0, n);
    // The last view of this buffer when it has the length asked for (calls of one size
    // follow each other): making a view costs a few hundred nanoseconds.
    let v = this.views[i];
    if (v === undefined || v.length !== n) v = this.views[i] = b.subarray(0, n);
    return v;
  }
  /** `field`: the input the table is for (named by the error when it cannot be allocated). */
  u32(n, slot, field) {
    return this.array(Uint32Array, n, slot, field);
  }
  f64(n, slot, field) {
    return this.array(Float64Array, n, slot, field);
  }
}

/** The first `n` entries of a table kept by the caller (`null` stays `null`). */
export const firstOf = (a, n) => (a === null || a.length === n ? a : a.subarray(0, n));

/** The sections of one call's input, collected before anything is written. */
export class Input {
  tags = [];
  values = [];
  // Bytes needed if every string is ASCII (tried first), and at most (3 bytes per
  // UTF-16 unit).
  bound = 0;
  worst = 0;
  // The UTF-16 units of each string table, in order, and the running sums of its first
  // strings' lengths when the caller kept them (or null; see `strs`).
  units = [];
  ends = [];
  // Functions run by `Wire.call` before it writes anything (see `later`).
  late = null;
  // Bytes of tables the call will make, for the module to grow its memory once for
  // them before the call (`roomFor`; wasm/shared `make_room`).
  room = 0;
  /**
   * Asks the module for room for `bytes` of the call's tables, made before the call: its
   * memory then grows once for the whole call instead of several times during it (each
   * growth costs a full collection of the JavaScript heap in V8). A hint only: any
   * number is taken (clamped to a u32; not a number: none).
   */
  roomFor(bytes) {
    this.room = bytes > 0 ? Math.min(Math.floor(bytes), 0xffffffff) : 0;
    return this;
  }
  /**
   * Runs `fn` when the call is made, after every argument was read: it fills a section
   * whose length is already fixed (a handle, looked up after the caller's code that
   * could free the object and make another in its slot has run).
   */
  later(fn) {
    (this.late ??= []).push(fn);
    return this;
  }
  none() {
    this.tags.push(NONE);
    this.values.push(null);
    this.bound += 8;
    this.worst += 8;
    return this;
  }
  /** UTF-8 text (`undefined`: NONE). */
  text(s) {
    if (s === undefined) return this.none();
    this.tags.push(TEXT);
    this.values.push(s);
    this.bound += 16 + s.length;
    this.worst += 16 + 3 * s.length;
    return this;
  }
  /** f64 values: a Float64Array or an array of numbers (`undefined`: NONE). */
  f64s(a) {
    if (a === undefined) return this.none();
    this.tags.push(F64);
    this.values.push(a);
    const n = lengthOf(a);
    this.bound += 16 + 8 * n;
    this.worst += 16 + 8 * n;
    return this;
  }
  u32s(a) {
    if (a === undefined) return this.none();
    this.tags.push(U32);
    this.values.push(a);
    const n = lengthOf(a);
    this.bound += 16 + 4 * n;
    this.worst += 16 + 4 * n;
    return this;
  }
  /** Bytes: a Uint8Array. */
  u8s(a) {
    this.tags.push(U8);
    this.values.push(a);
    const n = lengthOf(a);
    this.bound += 16 + n;
    this.worst += 16 + n;
    return this;
  }
  /** A Uint32Array as U32, any other array of numbers as F64 (see `indices`). */
  indices(a) {
    return typedArrayKind(a) === "Uint32Array" ? this.u32s(a) : this.f64s(a);
  }
  /**
   * A string table; `units` is the sum of the strings' lengths when the caller knows it.
   * `ends`, when the caller kept them as it read the strings: a Uint32Array of the running
   * sums of the lengths of the table's first `ends.length` strings (all of them or a
   * prefix), from which an ASCII table's offsets are copied instead of read from each
   * string again (many strings lie scattered over the heap: a cache miss each;
   * docs/performance-history.md, "Strings read once").
   */
  strs(list, units, ends = null) {
    if (units === undefined) {
      units = 0;
      for (let i = 0; i < list.length; i++) units += list[i].length;
    }
    this.tags.push(STRS);
    this.values.push(list);
    this.units.push(units);
    this.ends.push(ends);
    this.bound += 32 + 4 * list.length + units;
    this.worst += 32 + 4 * list.length + 3 * units;
    return this;
  }
}

/**
 * A string table of at most this many UTF-16 units is written string by string (see
 * `write`): joining the strings and calling TextEncoder once costs a fixed few hundred
 * nanoseconds, the JavaScript loop a few nanoseconds per character.
 */
export const SMALL_TABLE = 96;

/**
 * Writes `s` as UTF-8 at `pos`, before `limit`; returns the end, or -1 if it does not
 * fit. Short ASCII strings skip TextEncoder.
 */
export function writeString(u8, pos, s, limit) {
  const n = s.length;
  if (n <= 64 && pos + n <= limit) {
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c > 0x7f) break;
      u8[pos + i] = c;
    }
    if (i === n) return pos + n;
  }
  if (n === 0) return pos;
  const r = utf8.encodeInto(s, u8.subarray(pos, limit));
  return r.read < n ? -1 : pos + r.written;
}

/**
 * The UTF-16 units of each part `joinedParts` encodes at once: its flat copy (made by
 * `encodeInto`) stays under 128 KiB, within V8's pages (a larger string is allocated
 * apart, mapped and zeroed for each call).
 */
const PART_UNITS = 16384;

/**
 * Writes strings `v` one after the other from `base` as UTF-8, in parts of about
 * `PART_UNITS` units, each concatenated (a rope, flattened by `encodeInto`) and encoded
 * with one `encodeInto`; returns the end, -1 if they do not fit before `limit`, -2 as
 * soon as a part is not ASCII (the offsets are then not the running lengths: the caller
 * writes the strings one by one instead). One `join` of the whole table, encoded at
 * once, cost up to four times as much: the join builds one flat string of the whole
 * table, which from 128 KiB on V8 allocates apart from its pages (`node
 * bench/join-parts.mjs` gives the figures).
 */
export function joinedParts(u8, base, v, limit) {
  const n = v.length;
  let pos = base;
  let i = 0;
  while (i < n) {
    let part = "";
    for (let units = 0; i < n && units < PART_UNITS; i++) {
      const s = v[i];
      part += s;
      units += s.length;
    }
    if (part.length === 0) continue;
    if (pos > limit) return -1;
    const r = utf8.encodeInto(part, u8.subarray(pos, limit));
    if (r.read < part.length) return -1;
    if (r.written !== part.length) return -2;
    pos += r.written;
  }
  return pos;
}

/**
 * Writes strings `v` one after the other from `base` and their end offsets (from `base`)
 * at `u32[o + 1..]`; returns the end, or -1 if they do not fit before `limit`.
 */
export function writeEach(u8, u32, o, base, v, limit) {
  let end = base;
  for (let i = 0; i < v.length; i++) {
    end = writeString(u8, end, v[i], limit);
    if (end < 0) return -1;
    u32[o + i + 1] = end - base;
  }
  return end;
}
