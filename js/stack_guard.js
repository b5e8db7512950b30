
// ---- calibrank: appended by scripts/build-pkg.sh (js/stack_guard.js) ----
// Every exported wasm function, wrapped so that an exception unwinding through the wasm
// frames (one thrown by the caller's own code that calibrank called into: a throwing
// getter, a Proxy trap) restores the shadow-stack pointer the frames' epilogues did not.
// Without it each such call leaks shadow stack, and after a few hundred to a few
// thousand of them every call fails with "memory access out of bounds". ScoreErrors do
// not unwind through wasm (they are returned, then thrown by the glue), so the wrapper
// costs one global read per call on the normal path. The allocator's own exports
// (`__wbindgen_*`) never call into JS and are left as they are.
function __calibrankGuard(exports) {
  const sp = exports.__calibrank_sp;
  if (!(sp instanceof WebAssembly.Global)) return exports;
  const guarded = {};
  for (const name of Object.keys(exports)) {
    const f = exports[name];
    if (typeof f !== "function" || name.startsWith("__wbindgen_") || name.startsWith("__externref_")) {
      guarded[name] = f;
      continue;
    }
    guarded[name] = function (...args) {
      const saved = sp.value;
      try {
        return f(...args);
      } catch (e) {
        sp.value = saved;
        throw e;
      }
    };
  }
  return guarded;
}
