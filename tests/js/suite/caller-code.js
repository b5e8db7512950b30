// The caller's own code and objects: getters, Proxies, prototypes, re-entry and
// exceptions run before the module is entered and leave it usable.

import { AssertionError, assert, eq, throwsScoreError, seedInput } from "./helpers.js";

export function callerCodeTests(test, lib) {
  test("a copy of a Run, Qrels or Items (structuredClone, postMessage, JSON) is refused with what to send instead, not read as an empty run or no items", () => {
    // Their data live in the module (private fields): a copy holds their mark alone.
    const copies = (h) => [JSON.parse(JSON.stringify(h)), ...(typeof structuredClone === "function" ? [structuredClone(h)] : [])];
    const lists = [{ name: "a", ids: ["a", "b"] }];
    const p = new lib.Pipeline({ minConfidence: 0, explain: false });
    if (lib.Items) {
      const items = new lib.Items({ a: { fiscalYear: 2025 } });
      eq(Object.keys(items), ["calibrankHandle"]);
      for (const c of copies(items)) {
        eq(c, { calibrankHandle: "Items" });
        const e = throwsScoreError(lib, () => p.run({ lists, items: c }), "INVALID_TYPE", "items");
        assert(e.message.startsWith("a copy of an Items (by structuredClone, postMessage or JSON) holds none of its data") && e.message.endsWith("send the items themselves and make the Items where they are used"), e.message);
        throwsScoreError(lib, () => new lib.Items(c), "INVALID_TYPE", "items");
        throwsScoreError(lib, () => p.run({ lists, items: { a: c } }), "INVALID_TYPE", "items.a");
      }
      // The Items itself, and a record with no listed id, are read as before.
      eq(p.run({ lists, items }).results.length, 2);
      eq(p.run({ lists, items: { z: {} } }).results.length, 2);
      // An id of that name is an item like any other.
      eq(p.run({ lists: [{ name: "a", ids: ["calibrankHandle"] }], items: { calibrankHandle: { name: "x" } } }).results.length, 1);
    }
    if (lib.Run) {
      const run = lib.Run.fromObject({ q: { a: 1, b: 0.5 } });
      const qrels = lib.Qrels.fromObject({ q: { a: 1 } });
      try {
        eq(lib.evaluate(qrels, run, ["mrr"]), { mrr: 1 });
        for (const c of copies(run)) {
          const e = throwsScoreError(lib, () => lib.evaluate(qrels, c, ["mrr"]), "INVALID_TYPE", "run");
          assert(e.message.includes("a copy of a Run") && e.message.includes("send run.toObject()"), e.message);
          throwsScoreError(lib, () => lib.fuseRuns([run, c], { method: "rrf" }), "INVALID_TYPE", "runs[1]");
          throwsScoreError(lib, () => lib.fuseRuns([c, { q: { a: 1 } }], { method: "rrf" }), "INVALID_TYPE", "runs[0]");
          throwsScoreError(lib, () => lib.Run.fromObject(c), "INVALID_TYPE", "run");
        }
        for (const c of copies(qrels)) {
          const e = throwsScoreError(lib, () => lib.evaluate(c, run, ["mrr"]), "INVALID_TYPE", "qrels");
          assert(e.message.includes("a copy of a Qrels") && e.message.includes("send qrels.toObject()"), e.message);
        }
        // What toObject() gives is read as the run was.
        eq(lib.evaluate(qrels, JSON.parse(JSON.stringify(run.toObject())), ["mrr"]), { mrr: 1 });
      } finally {
        run.free();
        qrels.free();
      }
    }
    p.free();
  });

  test("an instance of a class without fields of its own (a Pipeline, a Run, a Set) is refused where options, a configuration or items go, not read as empty", () => {
    const p = new lib.Pipeline({ topN: 2 });
    const handles = [p, new Set(), new (class Options {})()];
    if (lib.Run) handles.push(lib.Run.fromObject({ q: { a: 1 } }));
    const lists = [{ name: "a", ids: ["a"] }];
    for (const h of handles) {
      throwsScoreError(lib, () => new lib.Pipeline(h), "INVALID_TYPE", "config");
      throwsScoreError(lib, () => lib.rrf([["a"]], h), "INVALID_TYPE", "options");
      throwsScoreError(lib, () => lib.classifyBand(0.5, h), "INVALID_TYPE", "options");
      throwsScoreError(lib, () => lib.fuseMultiQuery([[{ id: "a", score: 1 }]], h), "INVALID_TYPE", "options");
      throwsScoreError(lib, () => p.run({ lists, items: h }), "INVALID_TYPE", "items");
      if (lib.fuseRuns) throwsScoreError(lib, () => lib.fuseRuns([{ q: { a: 1 } }], h), "INVALID_TYPE", "options");
    }
    // And as an item, a context, a part of a configuration (read once per Pipeline) or a
    // run or judgements object of the lab and one of its queries, where each was read as
    // an empty one (JSON reads a Set as {}). Inside options, read at every call, a part is
    // read as JSON reads it (README, "Errors").
    const said = (f, field, message) => eq(throwsScoreError(lib, f, "INVALID_TYPE", field).message, message, field);
    const empty = "expected a plain object, not an instance of a class without fields of its own (a Pipeline, a Set?), which would be read as empty, got ";
    for (const h of handles) {
      const shown = h instanceof Set ? "a Set" : "an object";
      const item = h instanceof Set ? "expected an object with the item's fields, got a Set" : "expected an object with the item's fields, not an instance of a class without fields of its own (a Pipeline?), which would be read as an item without any, got an object";
      said(() => p.run({ lists, items: { a: h } }), "items.a", item);
      if (lib.Items) said(() => new lib.Items({ a: h, b: {} }), "items.a", item);
      said(() => p.run({ lists, context: h }), "context", empty + shown);
      said(() => p.runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1, context: h }), "context", empty + shown);
      // Inside a configuration, a value of no JSON kind (as a function is): refused on its
      // own path with what the field expects.
      const kind = h instanceof Set ? "a Set" : "an instance of a class without fields of its own";
      said(() => new lib.Pipeline({ bands: h }), "config.bands", `expected an object, got ${kind}`);
      said(() => new lib.Pipeline({ recency: { fiscalYear: h } }), "config.recency.fiscalYear", `expected an object, got ${kind}`);
      said(() => new lib.Pipeline({ bands: { profiles: [{ name: "p", highFloor: 0.8, degradedFloor: 0.5 }, h] } }), "config.bands.profiles[1]", `expected an object, got ${kind}`);
      said(() => new lib.Pipeline({ limits: h }), "config.limits", `expected an object, got ${kind}`);
      // Where the field is no object (a diff review's cases: a Set of stopwords was said
      // to need "a plain object", and one inside a Map of weights was put on `config`).
      said(() => new lib.Pipeline({ rerank: { method: "heuristic", heuristic: { stopwords: h } } }), "config.rerank.heuristic.stopwords", `expected an array, got ${kind}`);
      said(() => new lib.Pipeline({ topK: h }), "config.topK", `expected a whole number from 0 to 4294967295, got ${kind}`);
      said(() => new lib.Pipeline({ weights: new Map([["a", h]]) }), "config.weights.a", `expected a number, got ${kind}`);
      // (A `Run`'s JSON holds its mark, `calibrankHandle`: an unknown key there.)
      if (lib.Run && h instanceof lib.Run) throwsScoreError(lib, () => lib.rrf([["a"]], { limits: h }), "UNKNOWN_FIELD", "options.limits.calibrankHandle");
      else eq(lib.rrf([["a"]], { limits: h }), lib.rrf([["a"]]));
      if (lib.evaluate && !(h instanceof lib.Run)) {
        const q = { q: { a: 1 } };
        const record = (what) => `expected a record of ${what}, not an instance of a class without entries of its own (a Pipeline, a Set?), which would be read as empty, got ${shown}`;
        said(() => lib.evaluate(q, h, ["mrr"]), "run", record("query id -> document id -> score"));
        said(() => lib.evaluate(h, q, ["mrr"]), "qrels", record("query id -> document id -> grade"));
        said(() => lib.Run.fromObject(h), "run", record("query id -> document id -> score"));
        said(() => lib.evaluate(q, { q: h }, ["mrr"]), "run.q", record("document id -> score"));
        said(() => lib.Qrels.fromObject({ q: h }), "qrels.q", record("document id -> grade"));
        said(() => lib.fuseRuns([q, { q: h }], { method: "sum" }), "runs[1].q", record("document id -> score"));
        const run = lib.Run.fromObject(q);
        try {
          said(() => lib.fuseRuns([run, h], { method: "sum" }), "runs[1]", record("query id -> document id -> score"));
        } finally {
          run.free();
        }
      }
    }
    // Empty records of their own kinds are read as before.
    eq(p.run({ lists, items: { a: {} }, context: {} }).stats.candidates, 1);
    eq(new lib.Pipeline({ bands: {}, recency: {} }).config.bands, new lib.Pipeline().config.bands);
    if (lib.evaluate) eq(lib.evaluate({ q: { a: 1 } }, { q: {} }, ["mrr"]), { mrr: 0 });
    for (const h of handles) h.free?.();
    // A Date or a URL has a toJSON, which makes it options' JSON text (a string, refused
    // as such), but items are looked up, not read as JSON: no items, refused.
    const dated = [new Date(0)];
    if (typeof URL === "function") dated.push(new URL("https://example.com/"));
    const fresh = new lib.Pipeline({ topN: 2 });
    assert(throwsScoreError(lib, () => fresh.run({ lists, items: new Date(0) }), "INVALID_TYPE", "items").message.endsWith(", got a Date"), "said with what was given");
    for (const v of dated) {
      throwsScoreError(lib, () => fresh.run({ lists, items: v }), "INVALID_TYPE", "items");
      if (lib.Items) throwsScoreError(lib, () => new lib.Items(v), "INVALID_TYPE", "items");
    }
    fresh.free();
    // What is read as written: a class instance with fields of its own, a Map, a record
    // without a prototype, an empty record.
    const Config = class {
      topN = 1;
    };
    eq(new lib.Pipeline(new Config()).config.topN, 1);
    eq(new lib.Pipeline(new Map([["topN", 1]])).config.topN, 1);
    eq(new lib.Pipeline(Object.assign(Object.create(null), { topN: 1 })).config.topN, 1);
    eq(new lib.Pipeline({}).config.topN, 5);
    const q = new lib.Pipeline({ minConfidence: 0 });
    eq(q.run({ lists, items: new Map([["a", { modifiedAt: 0 }]]), now: 0 }).results.length, 1);
    eq(q.run({ lists, items: {} }).results.length, 1);
    q.free();
  });

  test("a field on Object.prototype (a value, read-only or not, an accessor; enumerable or not) is not read as an input's field", () => {
    // Each field of each kind of record the package reads, planted on Object.prototype as
    // a symbol (a read of it would be INVALID_TYPE): every call answers as without it,
    // those of records missing a required field too (its missing-field error, not the
    // symbol's). js/core's `cleanPrototype` checks each of these keys by name.
    const p = new lib.Pipeline({ minConfidence: 0 });
    const u32 = (...xs) => new Uint32Array(xs);
    const calls = {
      run: () => p.run({ lists: [{ name: "l", ids: ["a", "b"] }] }),
      runNoLists: () => p.run({}),
      runNoName: () => p.run({ lists: [{ ids: ["a"] }] }),
      runNoIds: () => p.run({ lists: [{ name: "l" }] }),
      columnar: () => p.runColumnar({ docs: u32(0, 1), offsets: u32(0, 2), nDocs: 2 }),
      columnarNoDocs: () => p.runColumnar({ offsets: u32(0, 2), nDocs: 2 }),
      columnarNoOffsets: () => p.runColumnar({ docs: u32(0, 1), nDocs: 2 }),
      columnarNoNDocs: () => p.runColumnar({ docs: u32(0, 1), offsets: u32(0, 2) }),
      rerank: () => lib.rerank("q", [{ id: "a", score: 1, name: "n" }]),
      rerankNoId: () => lib.rerank("q", [{ score: 1, name: "n" }]),
      rerankNoName: () => lib.rerank("q", [{ id: "a", score: 1 }]),
      rerankNoScore: () => lib.rerank("q", [{ id: "a", name: "n" }]),
      hits: () => lib.fuseMultiQuery([[{ id: "a", score: 1 }]]),
      hitsNoId: () => lib.fuseMultiQuery([[{ score: 1 }]]),
      hitsNoScore: () => lib.fuseMultiQuery([[{ id: "a" }]]),
    };
    const outcome = (f) => {
      try {
        return { ok: f() };
      } catch (e) {
        assert(e instanceof lib.ScoreError, `${e}`);
        return { code: e.code, field: e.field, message: e.message };
      }
    };
    const before = Object.fromEntries(Object.entries(calls).map(([name, f]) => [name, outcome(f)]));
    assert(before.run.ok && before.columnar.ok && before.rerank.ok && before.hits.ok, "the complete calls answer");
    // Every field of each record kind, as the records' UNKNOWN_FIELD messages list them (so
    // a field added to a kind is planted here too).
    const keys = new Set();
    for (const bad of [
      () => p.run({ lists: [], zz: 1 }),
      () => p.run({ lists: [{ name: "l", ids: [], zz: 1 }] }),
      () => p.runColumnar({ docs: u32(0), offsets: u32(0, 1), nDocs: 1, zz: 1 }),
      () => lib.rerank("q", [{ id: "a", score: 1, name: "n", zz: 1 }]),
      () => lib.fuseMultiQuery([[{ id: "a", score: 1, zz: 1 }]]),
    ]) {
      const e = outcome(bad);
      eq(e.code, "UNKNOWN_FIELD");
      const listed = e.message.split("expected one of ")[1].match(/`[^`]+`/g);
      for (const k of listed) keys.add(k.slice(1, -1));
    }
    eq(keys.size, 21);
    // Planted four ways: a writable value, a read-only one, an accessor whose getter
    // gives the symbol and whose setter records a call (the records' fields were once
    // copied into a plain object, which ran the setter or threw on the read-only value).
    let set = 0;
    // And an enumerable value, which every record's keys then meet (each is read key by key).
    const plantings = [
      (key) => ({ value: Symbol(key), writable: true, enumerable: false }),
      (key) => ({ value: Symbol(key), writable: false, enumerable: false }),
      (key) => ({ get: () => Symbol(key), set: () => void set++, enumerable: false }),
      (key) => ({ value: Symbol(key), writable: true, enumerable: true }),
    ];
    for (const key of keys)
      for (const planting of plantings) {
        Object.defineProperty(Object.prototype, key, { ...planting(key), configurable: true });
        try {
          for (const [name, f] of Object.entries(calls)) eq(outcome(f), before[name], `${key}, ${name}`);
        } finally {
          delete Object.prototype[key];
        }
      }
    assert(set === 0, `a setter on Object.prototype ran ${set} times`);
    p.free();
  });

  test("an enumerable key added to Object.prototype is not an option, an item or a field", () => {
    const clean = lib.rrf([["a", "b"], ["b"]], {});
    const p = new lib.Pipeline({ minConfidence: 0 });
    const input = { lists: [{ name: "l", ids: ["a", "b"] }], items: { a: { name: "A" } }, now: 0 };
    const run = p.run(input);
    for (const [key, value] of [["k", 1], ["weights", [5, 5]], ["fiscalYear", 1999], ["weight", 3]]) {
      Object.prototype[key] = value;
      try {
        eq(lib.rrf([["a", "b"], ["b"]], {}), clean, key);
        eq(p.run(input), run, key);
      } finally {
        delete Object.prototype[key];
      }
    }
    p.free();
  });

  test("caller code cannot reach a call in flight: onProgress re-entry, handles freed by getters, shared and detached buffers, lists read once", () => {
    // onProgress runs while the search is in the lab's module: a lab call from it is
    // refused (and rethrown by optimizeFusion), a core call is another module and works.
    const a = { q: { x: 3, y: 2, z: 1 } };
    const b = { q: { z: 9, x: 1 } };
    const keep = lib.Run.fromObject(a);
    let inner = null;
    let innerField = null;
    let coreInside = null;
    const progress = () => {
      if (inner !== null) return;
      coreInside = lib.rrf([["m", "n"]]);
      try {
        lib.Run.fromObject(b);
        inner = "no error";
      } catch (e) {
        inner = e.code;
        innerField = e.field;
        throw e;
      }
    };
    throwsScoreError(lib, () => lib.optimizeFusion({ q: { z: 1 } }, [keep, b], { method: "wsum", metric: "mrr" }, progress), "REENTRANT_CALL");
    eq(inner, "REENTRANT_CALL");
    eq(innerField, "", "a re-entrant call names no field");
    eq(coreInside, lib.rrf([["m", "n"]]));
    eq(keep.toObject(), a, "a Run made before is intact");
    eq(lib.optimizeFusion({ q: { z: 1 } }, [keep, b], { method: "wsum", metric: "mrr" }).best.score, 1);
    // A refused optimizeFusion from onProgress (caught there) leaves the call in flight
    // reporting its progress to the end (its callback was cleared by the refused call).
    let reports = 0;
    let nested = null;
    lib.optimizeFusion({ q: { z: 1 } }, [keep, b], { method: "wsum", metric: "mrr" }, () => {
      reports++;
      if (reports === 1) {
        try {
          lib.optimizeFusion({ q: { z: 1 } }, [a, b], { method: "wsum", metric: "mrr" });
        } catch (e) {
          nested = e.code;
        }
      }
    });
    eq(nested, "REENTRANT_CALL");
    eq(reports, 11);
    // An exception of onProgress stops the search: no configuration is tried after it
    // (there were 11), and the exception itself is what optimizeFusion throws.
    class Stop extends Error {}
    let calls = 0;
    let stopped = null;
    const before = lib.__progressReports();
    try {
      lib.optimizeFusion({ q: { z: 1 } }, [keep, b], { method: "wsum", metric: "mrr" }, (p) => {
        calls++;
        if (p.done === 3) throw new Stop("enough");
      });
    } catch (e) {
      stopped = e;
    }
    assert(stopped instanceof Stop, `the callback's exception: ${stopped}`);
    eq(calls, 3, "no callback after the exception");
    eq(lib.__progressReports() - before, 3, "and no configuration tried after it (the module reports each)");
    eq(lib.optimizeFusion({ q: { z: 1 } }, [keep, b], { method: "wsum", metric: "mrr" }).best.score, 1, "the module is usable");
    // free() from onProgress is refused and the Run stays live (it was marked freed
    // before the module refused: leaked, and its later free() did nothing).
    const live = lib.__liveHandles();
    const victim = lib.Run.fromObject(b);
    let freeError = null;
    lib.optimizeFusion({ q: { z: 1 } }, [keep, b], { method: "wsum", metric: "mrr" }, () => {
      if (freeError !== null) return;
      try {
        victim.free();
        freeError = "no error";
      } catch (e) {
        freeError = e.code;
      }
    });
    eq(freeError, "REENTRANT_CALL");
    eq(victim.toObject(), b, "the Run is still usable");
    victim.free();
    eq(lib.__liveHandles(), live, "and freed by the next free()");
    keep.free();
    // A handle is looked up after the caller's code has run: a getter that frees the
    // pipeline (and makes another, which takes its slot) makes the call fail, not run
    // on the other pipeline.
    const lists = [{ name: "a", ids: ["x", "y", "z"] }];
    let other = null;
    const p = new lib.Pipeline({ topN: 3, minConfidence: 0 });
    throwsScoreError(lib, () => p.run({ lists, get query() { p.free(); other = new lib.Pipeline({ topN: 1, minConfidence: 0 }); return ""; } }), "INVALID_TYPE", "this");
    eq(other.run({ lists }).results.length, 1);
    other.free();
    const pc = new lib.Pipeline({ topN: 3, minConfidence: 0 });
    const columnar = { docs: new Uint32Array([0, 1, 2]), offsets: new Uint32Array([0, 3]) };
    throwsScoreError(lib, () => pc.runColumnar({ ...columnar, get nDocs() { pc.free(); other = new lib.Pipeline({ topN: 1, minConfidence: 0 }); return 3; } }), "INVALID_TYPE", "this");
    other.free();
    const qa = lib.Qrels.fromObject({ q1: { d1: 1 } });
    let made = null;
    const evil = { q1: { get d1() { qa.free(); made = lib.Qrels.fromObject({ q1: { d2: 1 } }); return 2; }, d2: 1 } };
    throwsScoreError(lib, () => lib.evaluate(qa, evil, ["mrr"]), "INVALID_TYPE", "qrels");
    made.free();
    const r1 = lib.Run.fromObject({ q: { d1: 1 } });
    const r2 = lib.Run.fromObject({ q: { d2: 1 } });
    const laterRun = { q: { get d3() { r2.free(); made = lib.Run.fromObject({ q: { d9: 1 } }); return 1; } } };
    throwsScoreError(lib, () => lib.fuseRuns([r1, r2, laterRun], { method: "sum" }), "INVALID_TYPE", "runs[1]");
    made.free();
    r1.free();
    // Typed arrays on a shared or resizable buffer are copied before the checks; a
    // detached one reads as empty.
    const want = lib.rrfColumnar(new Uint32Array([0, 1, 1, 2]), new Uint32Array([0, 2, 4]), 3);
    if (typeof SharedArrayBuffer === "function") {
      const docs = new Uint32Array(new SharedArrayBuffer(16));
      docs.set([0, 1, 1, 2]);
      eq(lib.rrfColumnar(docs, new Uint32Array([0, 2, 4]), 3), want, "shared buffer");
    }
    let resizable = null;
    try {
      resizable = new ArrayBuffer(16, { maxByteLength: 64 });
    } catch {}
    if (resizable !== null && resizable.resizable) {
      const docs = new Uint32Array(resizable);
      docs.set([0, 1, 1, 2]);
      // Shrunk by an options getter after `docs` was read: the copy keeps its length.
      eq(lib.rrfColumnar(docs, new Uint32Array([0, 2, 4]), 3, { get k() { resizable.resize(4); return 60; } }), want, "resizable buffer");
    }
    if (typeof structuredClone === "function") {
      const docs = new Uint32Array([0, 1]);
      structuredClone(docs.buffer, { transfer: [docs.buffer] });
      eq(lib.rrfColumnar(docs, new Uint32Array([0, 0]), 3), lib.rrfColumnar(new Uint32Array(0), new Uint32Array([0, 0]), 3), "detached reads as empty");
    }
    // A list whose length answers differently on each read: read once.
    let reads = 0;
    const shifty = new Proxy(["a", "b", "c"], { get: (t, k) => (k === "length" ? [3, 1, 3][Math.min(reads++, 2)] : t[k]) });
    eq(lib.rrf([shifty]), lib.rrf([["a", "b", "c"]]));
    // Options getters: `rrf` reads its options once in the compact form; where they must
    // cross as JSON (here a `k` that is not a number), once for the checks made before the
    // copy and once by JSON.stringify. `rrfColumnar` takes its limits before copying its
    // arrays and the rest after: the limits twice either way, nothing a third time.
    const counted = (k) => {
      const n = { limits: 0, k: 0 };
      return [n, { get k() { n.k++; return k; }, get limits() { n.limits++; return { maxLists: 5 }; } }];
    };
    const [n1, o1] = counted(60);
    eq(lib.rrf([["a"], ["b"]], o1), lib.rrf([["a"], ["b"]]));
    eq(n1, { limits: 1, k: 1 }, "rrf, compact options: each read once");
    const [n2, o2] = counted("60");
    throwsScoreError(lib, () => lib.rrf([["a"], ["b"]], o2), "INVALID_TYPE", "options.k");
    eq(n2, { limits: 2, k: 2 }, "rrf, options as JSON");
    const cols = () => [new Uint32Array([0, 1]), new Uint32Array([0, 1, 2]), 2];
    const [n3, o3] = counted(60);
    eq(lib.rrfColumnar(...cols(), o3), lib.rrfColumnar(...cols()));
    eq(n3, { limits: 2, k: 1 }, "rrfColumnar, compact options");
    const [n4, o4] = counted("60");
    throwsScoreError(lib, () => lib.rrfColumnar(...cols(), o4), "INVALID_TYPE", "options.k");
    eq(n4, { limits: 2, k: 2 }, "rrfColumnar, options as JSON");
    // `fuseMultiQuery` decides from the keys alone whether its options cross as numbers:
    // without `limits` each value is read once; with it, once for the checks and once by
    // JSON.stringify, nothing a third time.
    const hitsOf = () => [[{ id: "a", score: 0.9 }]];
    const nm = { k: 0 };
    eq(lib.fuseMultiQuery(hitsOf(), { get k() { nm.k++; return 60; } }), lib.fuseMultiQuery(hitsOf()));
    eq(nm, { k: 1 }, "fuseMultiQuery, options as numbers");
    const [n5, o5] = counted(60);
    eq(lib.fuseMultiQuery(hitsOf(), o5), lib.fuseMultiQuery(hitsOf()));
    eq(n5, { limits: 2, k: 1 }, "fuseMultiQuery, options as JSON");
  });

  test("exceptions from the caller's own code propagate and leave the module usable", () => {
    // A throwing index getter or Proxy trap runs in the package's JavaScript before the
    // module is entered (js/wire.js). When the bindings read the caller's objects from
    // inside wasm, its exception unwound through the wasm frames, and each such call
    // leaked shadow stack until a guard was patched into the generated glue: the module
    // broke after about 350 (dev build) to 2,000 (release) of them. Thousands of calls
    // here hold whatever reads the caller's values to that.
    class Boom extends Error {}
    const boom = () => {
      throw new Boom("boom");
    };
    const cases = [
      () => lib.rrf([Object.defineProperty(["a", "b"], 1, { get: boom })]),
      () => lib.rrf([new Proxy(["a"], { get: (t, k) => (k === "length" ? boom() : t[k]) })]),
      () => new lib.Pipeline().run({ lists: [{ name: "a", ids: ["x"] }], items: new Proxy({ x: {} }, { get: boom }) }),
      () => lib.normalize(Object.defineProperty([1, 2], 1, { get: boom }), "max"),
      () => lib.fuseRuns([{ q: { d: 1 } }, new Proxy({}, { ownKeys: boom })], { method: "sum" }),
    ];
    const expected = lib.rrf([["a", "b"], ["b"]]);
    for (const [i, call] of cases.entries()) {
      for (let n = 0; n < 3000; n++) {
        try {
          call();
          throw new AssertionError(`case ${i}: no exception`);
        } catch (e) {
          assert(e instanceof Boom || e instanceof lib.ScoreError, `case ${i}, call ${n}: ${e && e.constructor && e.constructor.name}: ${e}`);
        }
      }
      eq(lib.rrf([["a", "b"], ["b"]]), expected, `case ${i}: the module still works`);
    }
  });

  test("an array given as a Proxy, or a typed array with a length of its own, is read before the module is entered", () => {
    // Arrays of numbers (scores, weights, columnar indices) are copied while they are
    // checked: a Proxy's traps run then, never while the call's input is written into
    // wasm memory (where a trap that answered another length, claimed a typed array's
    // prototype or called the package would have written past its section or into the
    // input of the call in flight).
    const s = [0.5, 1, 2];
    const want = lib.normalize(s, "min_max");
    const p = new lib.Pipeline({ minConfidence: 0 });
    const pwant = p.run(seedInput());
    let typed = false;
    const liar = new Proxy([...s], {
      getPrototypeOf: () => ((typed = true), Float64Array.prototype),
      get: (t, k) => (k === "length" ? (typed ? 100000 : 3) : typed ? NaN : t[k]),
    });
    eq(lib.normalize(liar, "min_max"), want, "a Proxy that claims a typed array's prototype");
    let calls = 0;
    const reentrant = new Proxy([...s], {
      get: (t, k) => {
        if (k === "0" && calls++ === 0) lib.rrf(Array.from({ length: 40 }, (_, i) => [`x${i}`, "y"]));
        return t[k];
      },
    });
    eq(lib.normalize(reentrant, "min_max"), want, "a Proxy whose trap calls the package");
    // `rrf` of 64 entries or more reads into tables of the package's scratch: a list whose
    // trap calls `rrf` (of such a size too) while they are out gets tables of its own.
    const ids = (p, n) => Array.from({ length: n }, (_, i) => `${p}${(i * 7919) % n}`);
    // (Its ids of other lengths, each twice: other indices and lengths in every table.)
    const inner = [ids("i", 90).flatMap((id, i) => [id + "z".repeat(i % 5), id + "z".repeat(i % 5)]), ids("j", 70)];
    const outer = [ids("o", 80), ids("p", 60)];
    let innerOut = null;
    const trapped = new Proxy(outer[0], { get: (t, k) => (k === "40" && innerOut === null ? ((innerOut = lib.rrf(inner)), t[k]) : t[k]) });
    eq(lib.rrf([trapped, outer[1]]), lib.rrf(outer), "the outer call");
    eq(innerOut, lib.rrf(inner), "the call made from the trap");
    // A Proxy's length need not be a whole number (an array's is): the tables are sized
    // by it, so it is refused (was a RangeError, or INTERNAL from 64 entries on).
    const ids100 = Array.from({ length: 100 }, (_, i) => `d${i}`);
    const lying = (a, len) => new Proxy(a, { get: (t, k) => (k === "length" ? len : t[k]) });
    for (const len of [70.5, 2.5, -1, 2 ** 32]) {
      throwsScoreError(lib, () => lib.rrf([lying(ids100, len)]), "INVALID_TYPE", "lists[0]");
      throwsScoreError(lib, () => lib.fuseMultiQuery([lying(ids100.map((id) => ({ id, score: 1 })), len)]), "INVALID_TYPE", "queries[0]");
      throwsScoreError(lib, () => new lib.Pipeline().run({ lists: [{ name: "s", ids: lying(ids100, len) }] }), "INVALID_TYPE", "lists[0].ids");
    }
    eq(lib.rrf([lying(ids100, 70)]), lib.rrf([ids100.slice(0, 70)]), "a whole length is read as given");
    eq(Array.from(lib.calibrate(new Proxy([...s], {}), { threshold: 1, steepness: 2 })), Array.from(lib.calibrate(s, { threshold: 1, steepness: 2 })));
    eq(lib.rrf([["a", "b"], ["b"]], { weights: new Proxy([2, 1], {}) }), lib.rrf([["a", "b"], ["b"]], { weights: [2, 1] }));
    // A typed array whose `length` is caller code (an own getter; a subclass): its real
    // length crosses and the getter never runs.
    let asked = 0;
    const own = Object.defineProperty(new Float64Array(s), "length", { get: () => (asked++, 1) });
    eq(lib.normalize(own, "min_max"), want, "an own length getter");
    class Sub extends Float64Array {
      get length() {
        asked++;
        return 100000;
      }
    }
    eq(lib.normalize(new Sub(s), "min_max"), want, "a subclass's length");
    eq(Array.from(lib.rrfColumnar(Object.defineProperty(new Uint32Array([0, 1, 1]), "length", { get: () => (asked++, 1) }), new Uint32Array([0, 2, 3]), 2).scores), Array.from(lib.rrfColumnar(new Uint32Array([0, 1, 1]), new Uint32Array([0, 2, 3]), 2).scores));
    const pc = new lib.Pipeline({ minConfidence: 0 });
    const col = (docs, offsets) => pc.runColumnar({ docs, offsets, nDocs: 3 });
    const lengthOf1 = (a) => Object.defineProperty(a, "length", { get: () => (asked++, 1) });
    eq(col(lengthOf1(new Uint32Array([0, 1, 2, 1])), lengthOf1(new Uint32Array([0, 3, 4]))), col(new Uint32Array([0, 1, 2, 1]), new Uint32Array([0, 3, 4])), "runColumnar");
    pc.free();
    eq(asked, 0, "no length getter ran");
    eq(p.run(seedInput()), pwant, "a pipeline made before is intact");
  });

  test("a Date read by its time value (an object that only inherits from Date.prototype is INVALID_TYPE); a detached typed array reads as empty", () => {
    // `Object.create(Date.prototype)` passes `instanceof Date` but holds no time value:
    // `getTime` threw the engine's TypeError out of the package before.
    const fake = () => Object.create(Date.prototype);
    const t = Date.UTC(2026, 0, 1);
    const p = new lib.Pipeline({ recency: { mode: "step" }, minConfidence: 0 });
    const input = (m, now) => ({ lists: [{ name: "a", ids: ["x", "y"] }], items: { x: { modifiedAt: m }, y: { modifiedAt: t - 400 * 86400000 } }, now });
    throwsScoreError(lib, () => p.run(input(fake(), t)), "INVALID_TYPE", "items.x.modifiedAt");
    throwsScoreError(lib, () => p.run(input(t, fake())), "INVALID_TYPE", "now");
    throwsScoreError(lib, () => lib.fuseMultiQuery([[{ id: "a", score: 1, timestamp: fake() }]]), "INVALID_TYPE", "queries[0][0].timestamp");
    throwsScoreError(lib, () => p.runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1, modifiedAt: new Float64Array([t]), now: fake() }), "INVALID_TYPE", "now");
    // A time that is not finite: refused by `runColumnar` as by `run`, with or without
    // `modifiedAt`, whatever the recency mode (it was let through).
    const col = { docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1 };
    for (const now of [NaN, Infinity, new Date(NaN)]) {
      // Said alike by both.
      const said = throwsScoreError(lib, () => p.run({ lists: [{ name: "a", ids: ["x"] }], now }), "INVALID_TIMESTAMP", "now").message;
      eq(said, `timestamp must be finite epoch milliseconds, got ${Number(now)}`);
      eq(throwsScoreError(lib, () => p.runColumnar({ ...col, now }), "INVALID_TIMESTAMP", "now").message, said);
      const none = new lib.Pipeline({ recency: { mode: "none" } });
      throwsScoreError(lib, () => none.runColumnar({ ...col, modifiedAt: [0], now }), "INVALID_TIMESTAMP", "now");
      none.free();
    }
    // A Date subclass is read by its time value, not by a `getTime` of its own.
    class Shifted extends Date {
      getTime() {
        return 0;
      }
    }
    const want = p.run(input(new Date(t - 86400000), new Date(t)));
    eq(p.run(input(new Shifted(t - 86400000), new Shifted(t))), want, "a Date subclass");
    eq(want.results.map((r) => r.id), ["x", "y"], "the recent item first");
    // A typed array whose buffer was transferred has no elements (Array.from threw on it
    // when an option held one): read as an empty array, the same error as `[]`.
    const a = new Float64Array([1, 2]);
    try {
      structuredClone(a.buffer, { transfer: [a.buffer] });
    } catch {
      // No transfer here: the typed array stays attached, and the rest is not checked.
    }
    if (a.buffer.byteLength === 0) {
      // (A configuration crosses as JSON text: the replacer reads typed arrays.)
      const e = throwsScoreError(lib, () => new lib.Pipeline({ topN: [] }), "INVALID_TYPE", "config.topN");
      const d = throwsScoreError(lib, () => new lib.Pipeline({ topN: a }), e.code, e.field);
      eq(d.message, e.message, "the message of []");
    }
    p.free();
  });
}
