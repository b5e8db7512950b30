// The words of an unknown key: the keys there are, listed as serde lists them, and the
// nearest one when it is near. The list: wasm/shared/src/json.rs `unknown_key_words`
// words the core module's alike, character for character (tests/js/pipeline-module.test.mjs
// compares the two modules' errors). The nearest key or name: here alone, added by
// values.js `scoreError` to every message of those codes, a module's or the
// JavaScript's own, so that no module holds it.

import { utf8 } from "./sections.js";

/** `s`'s characters (code points), ASCII letters lowercased. */
const lowered = (s) => Array.from(s, (c) => (c >= "A" && c <= "Z" ? String.fromCharCode(c.charCodeAt(0) + 32) : c));

/** The edit distance of two arrays of characters, with swaps of two neighbours (the optimal string alignment distance). */
function editDistance(a, b) {
  const width = b.length + 1;
  let before = new Array(width).fill(0);
  let above = Array.from({ length: width }, (_, j) => j);
  let row = new Array(width).fill(0);
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    for (let j = 1; j < width; j++) {
      const ca = a[i - 1];
      const cb = b[j - 1];
      let v = Math.min(above[j - 1] + (ca === cb ? 0 : 1), above[j] + 1, row[j - 1] + 1);
      if (i > 1 && j > 1 && ca === b[j - 2] && a[i - 2] === cb) v = Math.min(v, before[j - 2] + 1);
      row[j] = v;
    }
    [before, above, row] = [above, row, before];
  }
  return above[width - 1];
}

/**
 * The keys of `keys` nearest to `k` when they are near: at most 2 edits of characters
 * (insertions, deletions, substitutions, swaps of two neighbours; ASCII letters without
 * their case) and at most a third of the key's length; every key at the least distance,
 * in `keys`' order (`rprecision` is one edit from both `precision` and `r-precision`).
 * Empty for a key of more than 64 characters, or none near.
 */
function nearestKeys(k, keys) {
  // More than 128 UTF-16 units is more than 64 characters: no array made of a long key.
  if (k.length > 128) return [];
  const given = lowered(k);
  if (given.length > 64) return [];
  let best = [];
  let bestD = Infinity;
  for (const key of keys) {
    const candidate = lowered(key);
    const d = editDistance(given, candidate);
    if (d > 2 || d * 3 > candidate.length || d > bestD || best.includes(key)) continue;
    if (d < bestD) best = [];
    best.push(key);
    bestD = d;
  }
  return best;
}

/** Names suggested, each quoted by `q`: "`a`", "`a` or `b`", "`a`, `b` or `c`". */
function either(names, q) {
  const quoted = names.map(q);
  return quoted.length < 2 ? quoted.join("") : `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`;
}

const HEAD = "unknown field `";
const LIST = "`, expected ";
const NEAR = "; did you mean `";

/**
 * An unknown key's message with the nearest key added when one is near ("; did you mean
 * `topK`?"): the key and the keys there are read from the message, in serde's words
 * ("unknown field `k`, expected one of `a`, `b`", as the modules and serde word it;
 * the keys listed are the package's own and hold no backtick, so the last "`, expected "
 * ends the key given). Any other message is returned as it is.
 */
export function withNearestKey(message) {
  if (!message.startsWith(HEAD)) return message;
  const at = message.lastIndexOf(LIST);
  // (Already added: the pipeline module returns the errors js/core/typed-config.js made.)
  if (at < HEAD.length || message.includes(NEAR, at)) return message;
  const keys = Array.from(message.slice(at + LIST.length).matchAll(/`([^`]*)`/g), (m) => m[1]);
  const near = nearestKeys(message.slice(HEAD.length, at), keys);
  return near.length === 0 ? message : `${message}; did you mean ${either(near, (n) => `\`${n}\``)}?`;
}

// String built-ins taken at load (a caller may replace String.prototype's later).
const charCodeAt = String.prototype.charCodeAt;
const sliceOf = String.prototype.slice;

/** Characters (code points) of a caller's name or value an error message shows at most (the crate's `error::NAME_SHOWN`). */
const NAME_SHOWN = 64;

/**
 * `s` cut after `NAME_SHOWN` characters (a surrogate pair is one), or `s` itself when it
 * is no longer: what an error message shows of a name or value of the caller's.
 */
export function headOf(s) {
  let end = 0;
  for (let n = 0; n < NAME_SHOWN && end < s.length; n++) {
    const u = charCodeAt.call(s, end);
    const next = charCodeAt.call(s, end + 1);
    end += u >= 0xd800 && u <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return end < s.length ? sliceOf.call(s, 0, end) : s;
}

/**
 * From this many UTF-16 units on, `utf8Length` lets TextEncoder count, a chunk of
 * `CHUNK` units at a time: the loop below takes about 15 ns a unit (1.5 s for a text of
 * 100 MB that a limit refuses, where the refusal's message says its bytes), TextEncoder
 * about 0.3 ns.
 */
const LONG = 4096;
const CHUNK = 16384;
let chunkBytes = null;

/** The UTF-8 length of `s` as TextEncoder encodes it (a lone surrogate is U+FFFD, 3 bytes). */
export function utf8Length(s) {
  if (s.length >= LONG) return encodedLength(s);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = charCodeAt.call(s, i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length && (charCodeAt.call(s, i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** `utf8Length` of a long text: encoded a chunk at a time into one buffer, its bytes counted. */
function encodedLength(s) {
  // CHUNK + 1 units at most (a pair kept whole), 3 bytes a unit at most.
  chunkBytes ??= new Uint8Array(3 * (CHUNK + 1));
  let n = 0;
  for (let i = 0; i < s.length; ) {
    let end = i + CHUNK < s.length ? i + CHUNK : s.length;
    // A chunk that would end between the two halves of a pair takes the second too (a
    // lone high half, or one before another pair's, ends it as it is).
    if (end < s.length && (charCodeAt.call(s, end - 1) & 0xfc00) === 0xd800 && (charCodeAt.call(s, end) & 0xfc00) === 0xdc00) end++;
    n += utf8.encodeInto(sliceOf.call(s, i, end), chunkBytes).written;
    i = end;
  }
  return n;
}

/**
 * "unknown field `k`, expected one of `a`, `b`, `c`": the keys listed as serde lists
 * them (one "`a`", two "`a` or `b`", more "one of ..."), as json.rs `unknown_key_words`
 * words the core module's (`scoreError` then adds the nearest, to either). A key of more
 * than 64 characters is shown cut, "`head`... (N bytes)", as the crate's `error::key_name`.
 */
export function unknownKeyWords(k, keys) {
  const q = keys.map((key) => `\`${key}\``);
  const expected = q.length === 0 ? "there are no fields" : q.length === 1 ? `expected ${q[0]}` : q.length === 2 ? `expected ${q[0]} or ${q[1]}` : `expected one of ${q.join(", ")}`;
  const head = headOf(k);
  return `unknown field \`${head}\`${head === k ? "" : `... (${utf8Length(k)} bytes)`}, ${expected}`;
}

/** A name in a message's double quotes: `"…"` with `\"` and `\\` inside. */
const QUOTED_NAME = '"((?:[^"\\\\]|\\\\.)*)"';
// `"x" is not one of "a", "b"` (calibrank::error::not_one_of, the decoders' and serde's
// unknown variants); `unknown normalization "x"; expected one of a, b` (the core's and the
// lab's own names, a metric's list ending in a note in parentheses; `unknown tie rule
// "x"; expected "a" or "b"`; `unknown method "x", expected "a"`); `no function named "x"
// takes limits; one of a, b` (defaultLimits).
const NOT_ONE_OF = new RegExp(`^${QUOTED_NAME} is not one of (.*)$`);
const ONE_OF = new RegExp(`^(unknown [^"]*|no function named) ${QUOTED_NAME}[^;,]*[;,] (?:expected )?(?:one of )?(.*?)(?: \\([^()]*\\))?$`);
const NEAR_NAME = '; did you mean "';

/** A name as given, from its quoted form (the crate's `error::quoted`: `\"`, `\\`, `\n`, `\r`, `\t`, `\0`, `\u{1b}`). */
const unquoted = (q) =>
  q.replace(/\\(u\{([0-9a-f]+)\}|.)/g, (_, e, hex) =>
    hex !== undefined ? (parseInt(hex, 16) <= 0x10ffff ? String.fromCodePoint(parseInt(hex, 16)) : "\uFFFD") : e === "n" ? "\n" : e === "r" ? "\r" : e === "t" ? "\t" : e === "0" ? "\0" : e,
  );

/**
 * trec_eval's names of the metrics the lab computes (as `-m` takes them and as its output
 * prints them), and ranx's name for each: `P_10` is `precision@10`.
 */
const TREC_EVAL_METRICS = [
  [/^P[_.@]([1-9]\d*)$/, "precision@"],
  [/^recall[_.]([1-9]\d*)$/, "recall@"],
  [/^ndcg_cut[_.@]([1-9]\d*)$/, "ndcg@"],
  [/^map_cut[_.@]([1-9]\d*)$/, "map@"],
  [/^success[_.@]([1-9]\d*)$/, "hit_rate@"],
  [/^recip_rank$/, "mrr"],
  [/^Rprec$/, "r-precision"],
];

/**
 * A metric's cut-off and relevance level as the lab takes them (`@10`, `-l2`, `@5-l2`;
 * a cut-off of at least 1).
 */
const METRIC_SUFFIX = /^(@[1-9]\d*)?(-l-?\d+)?$/;

/** A metric's name and a cut-off without its `@` (`ndcg10`; its relevance level cut off before). */
const GLUED_CUT = /^(.*?\D)([1-9]\d*)$/;
/** The largest cut-off the lab takes, 2^64 - 1. */
const MAX_CUT = "18446744073709551615";
/** Whether a cut-off's digits (no leading 0) are one the lab takes: compared by length, then as text. */
const takenCut = (digits) => digits.length < MAX_CUT.length || (digits.length === MAX_CUT.length && digits <= MAX_CUT);

/**
 * An unknown method's (mode's, metric's, strategy's, function's) message with the nearest
 * name added when one is near, as `withNearestKey` adds the nearest key: `"minmax" is not
 * one of "none", "max", "min_max", "z_score", "softmax"; did you mean "min_max"?`. A
 * metric is compared without its cut-off and options, which the name suggested keeps
 * (`NDCG@10` -> `ndcg@10`; a cut-off without its `@` too, `ndcg10` -> `ndcg@10`), and a
 * trec_eval name is given ranx's (`P_10`, `P@10` -> `precision@10`); a fusion method named as the literature names it is compared without
 * its `Comb` (`CombMNZ` -> `mnz`). Any other message is returned as it is.
 */
export function withNearestName(message) {
  if (message.includes(NEAR_NAME)) return message;
  let given;
  let names;
  let what = "";
  let m = NOT_ONE_OF.exec(message);
  if (m !== null) {
    given = m[1];
    names = Array.from(m[2].matchAll(new RegExp(QUOTED_NAME, "g")), (x) => unquoted(x[1]));
  } else if ((m = ONE_OF.exec(message)) !== null) {
    what = m[1];
    given = m[2];
    names = m[3].split(/, | or /).map((n) => (n.length > 1 && n.startsWith('"') && n.endsWith('"') ? unquoted(n.slice(1, -1)) : n));
  } else return message;
  let base = unquoted(given);
  let suffix = "";
  // The names near `base`, when found on the way.
  let found = null;
  if (what === "unknown metric") {
    for (const [re, ranx] of TREC_EVAL_METRICS) {
      const t = re.exec(base);
      if (t !== null) return `${message}${NEAR_NAME}${ranx}${t[1] ?? ""}"?`;
    }
    const cut = base.search(/@|-l-?\d/);
    if (cut > 0) {
      if (METRIC_SUFFIX.test(base.slice(cut))) suffix = base.slice(cut);
      base = base.slice(0, cut);
    }
    // A cut-off written without its `@` (`ndcg10`, `mrr5-l2`: the name's own digits, not
    // a relevance level's), after a name near one.
    const glued = suffix.startsWith("@") ? null : GLUED_CUT.exec(base);
    const gluedNear = glued !== null && takenCut(glued[2]) ? nearestKeys(glued[1], names) : [];
    if (gluedNear.length > 0) {
      base = glued[1];
      suffix = `@${glued[2]}${suffix}`;
      found = gluedNear;
    }
  }
  // `r-precision` takes no cut-off (its cut-off is R): only its relevance level is kept.
  let near = (found ?? nearestKeys(base, names)).map((n) => n + (n === "r-precision" ? suffix.replace(/^@\d+/, "") : suffix));
  if (near.length === 0 && what === "unknown fusion method" && /^comb./i.test(base)) near = nearestKeys(base.slice(4), names);
  return near.length === 0 ? message : `${message}; did you mean ${either(near, (n) => `"${n}"`)}?`;
}
