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
// Unsigned (an address at or above 2 GiB stays positive; `& ~7` would make it negative).
export const pad8 = (n) => ((n + 7) >>> 3) * 8;
