// Exports the module's shadow-stack pointer (`__stack_pointer`, a mutable i32 global
// that Rust's wasm32 output keeps private) as `__calibrank_sp`, so that the JS glue can
// restore it when an exception thrown by the caller's own code (a throwing getter, a
// Proxy trap) unwinds through the wasm frames: the frames' epilogues do not run, and
// without the restore every such call leaks shadow stack until, after a few hundred to a
// few thousand calls, the instance fails with "memory access out of bounds"
// (docs/reliability.md). See js/stack_guard.js for the other half.
//
//   node scripts/export-stack-pointer.mjs FILE.wasm...
//
// The stack pointer is the module's first defined global, a mutable i32 initialised by
// an i32.const (LLVM's layout for wasm32); the script checks exactly that, and the name
// section when there is one, and refuses to patch otherwise.
import { readFileSync, writeFileSync } from "node:fs";

const EXPORT_NAME = "__calibrank_sp";

function readU32(bytes, pos) {
  let result = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[pos++];
    result |= (b & 0x7f) << shift;
    if ((b & 0x80) === 0) return [result >>> 0, pos];
    shift += 7;
  }
}

function writeU32(value) {
  const out = [];
  do {
    let b = value & 0x7f;
    value >>>= 7;
    if (value !== 0) b |= 0x80;
    out.push(b);
  } while (value !== 0);
  return out;
}

function readName(bytes, pos) {
  const [len, p] = readU32(bytes, pos);
  return [new TextDecoder().decode(bytes.subarray(p, p + len)), p + len];
}

function skipLimits(bytes, pos) {
  const flags = bytes[pos++];
  [, pos] = readU32(bytes, pos);
  if (flags & 1) [, pos] = readU32(bytes, pos);
  return pos;
}

function sections(bytes) {
  const out = [];
  let pos = 8;
  while (pos < bytes.length) {
    const id = bytes[pos];
    const [size, start] = readU32(bytes, pos + 1);
    out.push({ id, headerStart: pos, start, end: start + size });
    pos = start + size;
  }
  return out;
}

/** Global index of the stack pointer, and its initial value. */
function findStackPointer(bytes, secs) {
  let importedGlobals = 0;
  const imports = secs.find((s) => s.id === 2);
  if (imports) {
    let [count, pos] = readU32(bytes, imports.start);
    for (let i = 0; i < count; i++) {
      [, pos] = readName(bytes, pos);
      [, pos] = readName(bytes, pos);
      const kind = bytes[pos++];
      if (kind === 0) [, pos] = readU32(bytes, pos);
      else if (kind === 1) pos = skipLimits(bytes, pos + 1);
      else if (kind === 2) pos = skipLimits(bytes, pos);
      else if (kind === 3) {
        importedGlobals++;
        pos += 2;
      } else throw new Error(`import kind ${kind} not understood`);
    }
  }
  const globals = secs.find((s) => s.id === 6);
  if (!globals) throw new Error("no global section");
  const [count, pos] = readU32(bytes, globals.start);
  if (count < 1) throw new Error("no defined global");
  const [valtype, mutable, opcode] = [bytes[pos], bytes[pos + 1], bytes[pos + 2]];
  if (valtype !== 0x7f || mutable !== 1 || opcode !== 0x41) {
    throw new Error("the first defined global is not a mutable i32 set by i32.const: not the stack pointer");
  }
  const index = importedGlobals;
  // The name section, when present, must agree.
  for (const s of secs.filter((s) => s.id === 0)) {
    const [name, p0] = readName(bytes, s.start);
    if (name !== "name") continue;
    let p = p0;
    while (p < s.end) {
      const sub = bytes[p];
      const [size, start] = readU32(bytes, p + 1);
      if (sub === 7) {
        let [n, q] = readU32(bytes, start);
        for (let i = 0; i < n; i++) {
          let idx;
          let gname;
          [idx, q] = readU32(bytes, q);
          [gname, q] = readName(bytes, q);
          if (idx === index && gname !== "__stack_pointer") throw new Error(`global ${index} is named ${gname}, not __stack_pointer`);
        }
      }
      p = start + size;
    }
  }
  return index;
}

function patch(file) {
  const bytes = new Uint8Array(readFileSync(file));
  const secs = sections(bytes);
  const exp = secs.find((s) => s.id === 7);
  if (!exp) throw new Error("no export section");
  let [count, pos] = readU32(bytes, exp.start);
  for (let i = 0; i < count; i++) {
    let name;
    [name, pos] = readName(bytes, pos);
    if (name === EXPORT_NAME) return `${file}: already exported`;
    pos += 1;
    [, pos] = readU32(bytes, pos);
  }
  const index = findStackPointer(bytes, secs);
  const nameBytes = new TextEncoder().encode(EXPORT_NAME);
  const entry = [...writeU32(nameBytes.length), ...nameBytes, 0x03, ...writeU32(index)];
  const [, entriesStart] = readU32(bytes, exp.start);
  const body = [...writeU32(count + 1), ...bytes.subarray(entriesStart, exp.end), ...entry];
  const section = [7, ...writeU32(body.length), ...body];
  const out = new Uint8Array(bytes.length - (exp.end - exp.headerStart) + section.length);
  out.set(bytes.subarray(0, exp.headerStart), 0);
  out.set(section, exp.headerStart);
  out.set(bytes.subarray(exp.end), exp.headerStart + section.length);
  // The patched module must still compile and export the global.
  const mod = new WebAssembly.Module(out);
  if (!WebAssembly.Module.exports(mod).some((e) => e.name === EXPORT_NAME && e.kind === "global")) {
    throw new Error("the patched module does not export the global");
  }
  writeFileSync(file, out);
  return `${file}: global ${index} exported as ${EXPORT_NAME}`;
}

let failed = false;
for (const file of process.argv.slice(2)) {
  try {
    console.log(`[export-stack-pointer] ${patch(file)}`);
  } catch (e) {
    console.error(`[export-stack-pointer] ${file}: ${e.message}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
