// The data-only boundary, JavaScript side (wasm/shared/src/lib.rs is the Rust side).
//
// A call writes one input buffer into the module's memory (sections: text, f64, u32,
// u8, a string table), calls `cr_call(op, bytes)` once, and reads one output buffer.
// Caller code (getters, Proxy traps, toJSON) runs only here, before wasm is entered,
// so an exception it throws never crosses a wasm frame. A wasm trap (a bug) makes the
// module be instantiated afresh, and the call throws a ScoreError `INTERNAL`.
// The parts (js/wire/):
//   sections.js  the section kinds and text codecs of the wire format
//   values.js    reading the caller's values (brand checks, own keys, dates), errors
//   json.js      configurations and options as JSON text (numbers as their bits)
//   keys.js      the words of an unknown key (the keys there are, the nearest)
//   limits.js    the limits table and the size checks made before copying
//   numbers.js   arrays of numbers and indices, copied once
//   input.js     a call's input: sections, the string table, the scratch arrays
//   output.js    a call's output, read in place
//   module.js    one instantiated module and the calls into it (`Wire`)
//   state.js     what each API keeps about its module (`ModuleState`)
// scripts/build-pkg.sh bundles them into the package's one wire.js, which the core's
// and the lab's API modules share.
export { DISPOSE, typedArrayKind, notRecord, timeOf, hasOwn, own, fromObjectPrototype, isMap, mapAsObject, scoreError, typeError, quoted, shownValue, toWellFormed, keyPath, keyField, keySegment, engineLimit, allocate, Interner, setOwn, shownName, HANDLE_KEY, clonedHandle, isHandleKind, markHandle } from "./wire/values.js";
export { notArray, plainObjectExpected, emptyInstance, wellFormedName, wellFormedText, toJson, objectJson, wellFormed, jsonParse } from "./wire/json.js";
export { LimitTable, limitParts, precheck, utf8Length } from "./wire/limits.js";
export { numbers, plainTyped, checkedCopy, indices } from "./wire/numbers.js";
export { Scratch, firstOf, Input } from "./wire/input.js";
export { Output } from "./wire/output.js";
export { Wire, holdsPipelineAlone } from "./wire/module.js";
export { ModuleState } from "./wire/state.js";
export { compareUtf8 } from "./wire/sections.js";
export { unknownKeyWords, headOf } from "./wire/keys.js";
