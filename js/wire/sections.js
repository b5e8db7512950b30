// The wire format's section kinds and the text codecs (wasm/shared/src/wire.rs reads and
// writes the same layout).
export const NONE = 0;
export const TEXT = 1;
export const F64 = 2;
export const U32 = 3;
export const U8 = 4;
export const STRS = 5;

export const utf8 = new TextEncoder();
export const fromUtf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * The order of two strings' UTF-8 bytes (Rust's `str` order; lone surrogates written as
 * U+FFFD, as the string tables write them): negative, 0 or positive. Below the first unit
 * where they differ they encode alike; where neither unit there is a surrogate, UTF-8
 * orders as the code points, which are those units (an ended string first).
 */
export function compareUtf8(a, b) {
  const n = a.length < b.length ? a.length : b.length;
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  const x = i < a.length ? a.charCodeAt(i) : -1;
  const y = i < b.length ? b.charCodeAt(i) : -1;
  if ((x & 0xf800) !== 0xd800 && (y & 0xf800) !== 0xd800) return x - y;
  const p = utf8.encode(a);
  const q = utf8.encode(b);
  const m = p.length < q.length ? p.length : q.length;
  for (let j = 0; j < m; j++) if (p[j] !== q[j]) return p[j] - q[j];
  return p.length - q.length;
}
// Unsigned (an address at or above 2 GiB stays positive; `& ~7` would make it negative).
export const pad8 = (n) => ((n + 7) >>> 3) * 8;
