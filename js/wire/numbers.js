// Arrays of numbers and of indices from the caller: typed arrays taken as they are,
// other arrays checked and copied once.
import { scoreError, typeError, typedArrayKind, typedLength, shownValue } from "./values.js";

/**
 * A `Float64Array` or an array of numbers as something the encoder copies: the typed
 * array itself, or the array after checking each element is a number.
 */
export function numbers(value, field) {
  if (typedArrayKind(value) === "Float64Array") return plainTyped(value, Float64Array);
  if (!Array.isArray(value)) throw typeError(field, "a Float64Array or an array of numbers", value);
  return checkedCopy(
    value,
    (i, x) => typeError(`${field}[${i}]`, "a number", x),
    () => typeError(field, "a Float64Array or an array of numbers"),
  );
}

/**
 * A typed array of kind `Kind` as it is when its `length` is the engine's (this realm's
 * prototype, no own `length`), else a copy made without running its code: a subclass's
 * or an own `length` getter would be read by the checks made before the call.
 */
export function plainTyped(value, Kind) {
  if (Object.getPrototypeOf(value) === Kind.prototype && !Object.prototype.hasOwnProperty.call(value, "length") && fixedBuffer(value)) return value;
  // A detached buffer has length 0 (and `set` would throw on it).
  const n = typedLength.call(value);
  const copy = new Kind(n);
  if (n > 0) copy.set(value);
  return copy;
}

const typedBuffer = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), "buffer").get;
const bufferByteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "byteLength").get;
const bufferResizable = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "resizable")?.get;
/**
 * Whether a typed array's buffer is an ArrayBuffer of fixed length: not shared (another
 * thread could grow a growable SharedArrayBuffer between the checks and the copy into
 * wasm memory, or write it meanwhile) and not resizable (caller code run after the
 * checks could shrink or grow it). Engine getters only: no caller code runs.
 */
function fixedBuffer(v) {
  const b = typedBuffer.call(v);
  try {
    bufferByteLength.call(b);
  } catch {
    return false; // a SharedArrayBuffer
  }
  return bufferResizable === undefined || !bufferResizable.call(b);
}

/**
 * A copy of an array of numbers, each element read once: the array may be a Proxy whose
 * traps would otherwise run again when the section is written into wasm memory (and
 * could call the package in the middle of that, or answer another length). At the first
 * element that is not a number, `notNumber(i, x)` gives the error to throw, or null to
 * return null instead; `badLength()` likewise when the `length` is not a whole number
 * (a Proxy's).
 */
export function checkedCopy(value, notNumber, badLength) {
  const n = value.length;
  // A Proxy's `length` may be anything: the copy is sized by it.
  if (n >>> 0 !== n) {
    const e = badLength();
    if (e === null) return null;
    throw e;
  }
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    const x = value[i];
    if (typeof x !== "number") {
      const e = notNumber(i, x);
      if (e === null) return null;
      throw e;
    }
    out[i] = x;
  }
  return out;
}

/** Indices: a `Uint32Array` as it is, an array of numbers as f64 (checked by the module). */
export function indices(value, field) {
  if (typedArrayKind(value) === "Uint32Array") return plainTyped(value, Uint32Array);
  if (!Array.isArray(value)) throw typeError(field, "a Uint32Array or an array of whole numbers", value);
  return checkedCopy(
    value,
    (i, x) => scoreError("INVALID_TYPE", `${field}[${i}]`, `expected a whole number from 0 to 4294967295, got ${shownValue(x)}`),
    () => typeError(field, "a Uint32Array or an array of whole numbers"),
  );
}
