// Ids made to hash alike under FxHash (the crate's interning hash, which has no key):
// 16 ASCII bytes whose second word cancels the first word's state, so every id leaves
// the hasher in the same state. (The first word is printable; the second is kept when
// all its bytes are ASCII, one word in 256: printable alone would be one in 2,800, and
// 50,000 ids took minutes to find.) Shared by bench/intern-flood.mjs and
// bench/rerank-ids.mjs, with the ordinary ids of the same length they are timed against.
const M = (1n << 64n) - 1n;
const SEED = 0x517cc1b727220a95n;
const rotl = (x, r) => ((x << BigInt(r)) | (x >> BigInt(64 - r))) & M;
const bytes = (w) => Array.from({ length: 8 }, (_, i) => Number((w >> BigInt(8 * i)) & 0xffn));

/** `n` distinct ids of 16 ASCII bytes whose FxHash states agree after both words. */
export function collidingIds(n) {
  const target = 0x4142434445464748n;
  const out = [];
  for (let i = 0n; out.length < n; i++) {
    // The first word: eight printable bytes counting up.
    let w1 = 0n;
    let x = i;
    for (let b = 0n; b < 8n; b++) {
      w1 |= (0x21n + (x % 94n)) << (8n * b);
      x /= 94n;
    }
    const w2 = rotl((w1 * SEED) & M, 5) ^ target;
    if ((w2 & 0x8080808080808080n) === 0n) out.push(String.fromCharCode(...bytes(w1), ...bytes(w2)));
  }
  return out;
}

/** `n` ordinary ids of 16 bytes. */
export const ordinaryIds = (n) => Array.from({ length: n }, (_, i) => `doc-${String(i).padStart(12, "0")}`);
