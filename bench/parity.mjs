// What the parity scripts (bench/*-parity.mjs) share: a call's outcome as comparable
// text, and their seeded random numbers.

/** The 16 hex digits of a number's IEEE 754 bits (so -0, NaN's bits and the last bit count). */
export function hex(x) {
  const v = new DataView(new ArrayBuffer(8));
  v.setFloat64(0, x);
  return v.getBigUint64(0).toString(16);
}

/** A value as JSON text with every number as its bits (key order counts). */
export const bitsJson = (value) => JSON.stringify(value, (k, v) => (typeof v === "number" ? hex(v) : v));

/**
 * What `f()` gives, as text to compare across builds: its value as `bitsJson` (and
 * `suffix(value)` after a space, if given), or `ERR code field message` (without the
 * message when `messages` is false).
 */
export function outcome(f, { messages = true, suffix } = {}) {
  try {
    const v = f();
    return suffix ? `${bitsJson(v)} ${suffix(v)}` : bitsJson(v);
  } catch (e) {
    return messages ? `ERR ${e.code} ${e.field} ${e.message}` : `ERR ${e.code} ${e.field}`;
  }
}

/**
 * A seeded linear congruential generator (`rnd()` in [0, 1)), with `pick(xs)` and
 * `int(n)` drawn from it: the same sequence on every run.
 */
export function lcg(seed) {
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  return { rnd, pick: (xs) => xs[Math.floor(rnd() * xs.length)], int: (n) => Math.floor(rnd() * n) };
}
