// `Pipeline.run`'s input beyond the lists: `items` looked up by the lists' ids, the
// `Items` of a corpus, texts held back for the reranker, `context`.

import { hexOf, assert, eq, throwsScoreError } from "./helpers.js";

export function itemsTests(test, lib) {
  test("Pipeline.run: errors inside `context` name the field under `context`, wherever they are found", () => {
    const p = new lib.Pipeline({ minConfidence: 0, bands: { profiles: [{ name: "go", language: "go", highFloor: 0.9, degradedFloor: 0.5 }] } });
    const lists = [{ name: "l", ids: ["d"] }];
    // Found by the JavaScript (not an object) and by the module (a field's type, an unknown key).
    throwsScoreError(lib, () => p.run({ lists, context: 5 }), "INVALID_TYPE", "context");
    throwsScoreError(lib, () => p.run({ lists, context: { language: 5 } }), "INVALID_TYPE", "context.language");
    throwsScoreError(lib, () => p.run({ lists, context: { lang: "go" } }), "UNKNOWN_FIELD", "context.lang");
    eq(p.run({ lists, context: { language: "go" } }).results.length, 1);
    p.free();
    // A run's error about a configuration value is within `config`, as at construction.
    const r = new lib.Pipeline({ rerank: { method: "heuristic" } });
    throwsScoreError(lib, () => r.runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1 }), "INVALID_CONFIG", "config.rerank.method");
    r.free();
    const big = new lib.Pipeline({ minConfidence: 0, rerank: { method: "heuristic", heuristic: { exactNameMultiplier: 1e308, nameTermWeight: 1e308 } } });
    throwsScoreError(lib, () => big.run({ query: "alpha", lists: [{ name: "l", ids: ["d"], scores: [1] }], items: { d: { name: "alpha" } } }), "NON_FINITE_SCORE", "config.rerank.heuristic");
    big.free();
  });

  test("runColumnar refuses an infinite modifiedAt of a listed document, as run refuses it; NaN is unknown", () => {
    const p = new lib.Pipeline({ minConfidence: 0 });
    const now = Date.UTC(2026, 10, 29);
    const col = (modifiedAt) => p.runColumnar({ docs: new Uint32Array([0, 1]), offsets: new Uint32Array([0, 2]), nDocs: 3, modifiedAt: new Float64Array(modifiedAt), now });
    try {
      throwsScoreError(lib, () => col([now, Infinity, now]), "INVALID_TIMESTAMP", "modifiedAt[1]");
      throwsScoreError(lib, () => col([-Infinity, now, now]), "INVALID_TIMESTAMP", "modifiedAt[0]");
      // In every recency mode, as run refuses it.
      const none = new lib.Pipeline({ recency: { mode: "none" }, minConfidence: 0 });
      try {
        throwsScoreError(lib, () => none.runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1, modifiedAt: [Infinity] }), "INVALID_TIMESTAMP", "modifiedAt[0]");
        throwsScoreError(lib, () => none.run({ lists: [{ name: "a", ids: ["x"] }], items: { x: { modifiedAt: Infinity } } }), "INVALID_TIMESTAMP");
        eq(Array.from(none.runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1, modifiedAt: [NaN] }).order), [0]);
        // One time per document in every mode, as with step recency (a short array left documents unread).
        throwsScoreError(lib, () => none.runColumnar({ docs: new Uint32Array([1]), offsets: new Uint32Array([0, 1]), nDocs: 2, modifiedAt: [Infinity] }), "LENGTH_MISMATCH", "modifiedAt");
        throwsScoreError(lib, () => none.runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1, modifiedAt: [1, 2] }), "LENGTH_MISMATCH", "modifiedAt");
      } finally {
        none.free();
      }
      throwsScoreError(lib, () => p.run({ lists: [{ name: "a", ids: ["x"] }], items: { x: { modifiedAt: Infinity } }, now }), "INVALID_TIMESTAMP");
      // Document 2 is in no list: its time is not read.
      const known = col([now, now, Infinity]);
      const unknown = col([NaN, now, NaN]);
      // As run gives them: both boosted (x1.2 under 7 days), or document 1 alone.
      const asRun = (items) => p.run({ lists: [{ name: "a", ids: ["x", "y"] }], items, now }).results.map((r) => [r.id, r.score]);
      eq(Array.from(known.order, (d, i) => [["x", "y"][d], known.scores[i]]), asRun({ x: { modifiedAt: now }, y: { modifiedAt: now } }), "known");
      eq(Array.from(unknown.order, (d, i) => [["x", "y"][d], unknown.scores[i]]), asRun({ y: { modifiedAt: now } }), "NaN: unknown");
      eq(Array.from(unknown.order), [1, 0], "NaN: unboosted");
    } finally {
      p.free();
    }
  });

  test("Pipeline: texts held back for a heuristic reranker give the output of texts sent inline", () => {
    // A pipeline given more candidates than its reranker reads (topK, or candidateLimit)
    // sends the items' texts only for the pool it reranks, when the module asks for them.
    const words = ["graph", "cache", "token", "router", "Über", "für", "🚀", "auth", ""];
    const textOf = (i, n) => Array.from({ length: n }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(" ");
    const ids = Array.from({ length: 30 }, (_, i) => (i % 5 === 0 ? `dök-${i}` : `doc-${i}`));
    const pick = (seed) => ids.filter((_, i) => (i * seed) % 7 < 4);
    const lists = [
      { name: "semantic", ids: pick(3) },
      { name: "keyword", ids: pick(5).reverse() },
      { name: "graph", ids: pick(2) },
    ];
    const item = (i) => {
      const m = {};
      if (i % 4 !== 3) m.name = i % 6 === 0 ? "graphCacheToken" : textOf(i, 2);
      if (i % 3 === 0) m.type = ["class", "function", "Modul"][i % 3 === 0 ? (i / 3) % 3 : 0];
      if (i % 2 === 0) m.summary = textOf(i, 6);
      if (i % 5 === 1) m.content = i % 10 === 1 ? "" : textOf(i, 3);
      return m;
    };
    const items = Object.fromEntries(ids.map((id, i) => [id, item(i)]));
    const extras = Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`extra-${i}`, { name: textOf(i, 2), summary: "x" }]));
    // The extras' ids in a list of weight 0: 45 candidates, the extras' fused scores 0,
    // below the 30 others, so that a topK of 30 gives the pool and the output of the
    // 30 alone (the stats aside: lists, candidates, duplicates, beyondTopK).
    const heldLists = [...lists, { name: "extra", ids: Object.keys(extras), weight: 0 }];
    const core = ({ results, confidence, outcome }) => ({ results, confidence, outcome });
    const query = "graph cache token für Über";
    const cfg = { topK: 30, topN: 30, minConfidence: 0, explain: true, rerank: { method: "heuristic" } };
    const p = new lib.Pipeline(cfg);
    const inline = p.run({ query, lists, items });
    eq(inline.results.length, 30);
    assert(inline.results.some((r) => r.explain.rerank.factors.multiplier > 1), "the reranker matched some texts");
    // 45 candidates > topK 30: held, as an object and as a Map. The module asks for the
    // pool's texts once per call, through a tiny module's function (compiled from bytes,
    // or in workerd from the module the entry imports).
    const asked = lib.__heldTextsCalls();
    eq(core(p.run({ query, lists: heldLists, items: { ...items, ...extras } })), core(inline), "held (object)");
    eq(core(p.run({ query, lists: heldLists, items: new Map(Object.entries({ ...extras, ...items })) })), core(inline), "held (Map)");
    eq(lib.__heldTextsCalls() - asked, 2, "the module asked for the held texts");
    // From 16,384 slots on (4 per candidate: 4,130 candidates here) the array of held
    // texts is kept from call to call (js/wire/input.js `Lease.kept`) and emptied after
    // each: a call whose items have fewer texts reads none of the call before's.
    const many = { name: "many", ids: Array.from({ length: 4100 }, (_, i) => `many-${i}`), weight: 0 };
    const manyLists = [...lists, many];
    const rich = Object.fromEntries([...ids, ...many.ids].map((id) => [id, { name: "graphCacheToken", type: "class", summary: query, content: "x" }]));
    const richOut = p.run({ query, lists: manyLists, items: rich });
    assert(JSON.stringify(core(richOut)) !== JSON.stringify(core(inline)), "the richer texts rank otherwise");
    eq(core(p.run({ query, lists: manyLists, items })), core(inline), "held, after a call with more texts");
    // Within one call too: a getter that changes Object.prototype makes the input encoded
    // again (`keyByKey`), and the texts of the first encoding are not read. doc-3 has no
    // name; its getter gives one the first time only.
    let reads = 0;
    const planted = { ...items };
    planted["doc-3"] = {
      ...items["doc-3"],
      get name() {
        if (reads++ > 0) return undefined;
        Object.defineProperty(Object.prototype, "plantedDuringTheCall", { value: 1, configurable: true });
        return "graphCacheToken";
      },
    };
    try {
      eq(core(p.run({ query, lists: manyLists, items: planted })), core(inline), "held, the input encoded again");
      eq(reads, 2, "doc-3's name read in each encoding");
    } finally {
      delete Object.prototype.plantedDuringTheCall;
    }
    // candidateLimit 8: the reranker reads the 8 best after recency (no recency here:
    // fusion order, which rrf gives); the other items' texts do not matter, so the input
    // with the 8's items alone gives the same output (both held: 30 candidates; held
    // against inline for this case: tests/js/held-texts.test.mjs).
    const limited = new lib.Pipeline({ ...cfg, rerank: { method: "heuristic", candidateLimit: 8 } });
    const best8 = lib.rrf(lists.map((l) => l.ids)).slice(0, 8).map(([id]) => id);
    const few = limited.run({ query, lists, items: Object.fromEntries(best8.map((id) => [id, items[id]])) });
    eq(few.stats.beyondCandidateLimit, 22);
    eq(limited.run({ query, lists, items }), few, "held, candidateLimit: the other items' texts do not matter");
    // Errors: the same in both modes (type errors before the call; limits exactly).
    const bad = { ...items, ...extras, "extra-3": { name: 5 } };
    throwsScoreError(lib, () => p.run({ query, lists: heldLists, items: bad }), "INVALID_TYPE", "items.extra-3.name");
    const units = (o) => Object.entries(o).reduce((n, [k, m]) => n + k.length + Object.values(m).reduce((a, v) => a + v.length, 0), 0);
    const all = { ...items, ...extras };
    const idUnits = units(all) + query.length + 8 + 7 + 5 + 5;
    const wide = { ...cfg, topK: 50, topN: 50 };
    const at = (max, c = cfg) => new lib.Pipeline({ ...c, limits: { maxTotalTextBytes: max } });
    // The smallest maxTotalTextBytes a call passes inline (the module counts each list
    // entry's id and each item key, in UTF-8 bytes).
    const edgeOf = (input) => {
      let lo = 1;
      let hi = 1 << 20;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        try {
          at(mid, wide).run(input);
          hi = mid;
        } catch {
          lo = mid + 1;
        }
      }
      return lo;
    };
    const lo = edgeOf({ query, lists: heldLists, items: all });
    assert(lo > idUnits && lo < 3 * idUnits, `the edge ${lo} is between the table's units and 3 times them`);
    eq(core(at(lo).run({ query, lists: heldLists, items: all })), core(inline), "held, at the limit");
    const over = throwsScoreError(lib, () => at(lo - 1).run({ query, lists: heldLists, items: all }), "INPUT_TOO_LARGE");
    const overInline = throwsScoreError(lib, () => at(lo - 1, wide).run({ query, lists: heldLists, items: all }), "INPUT_TOO_LARGE");
    eq([over.field, over.message], [overInline.field, overInline.message], "the inline call's error");
    // Over for sure (more UTF-16 units in the table than the limit): encoded again inline.
    const sure = throwsScoreError(lib, () => at(idUnits - 1).run({ query, lists: heldLists, items: all }), "INPUT_TOO_LARGE");
    const sureInline = throwsScoreError(lib, () => at(idUnits - 1, wide).run({ query, lists: heldLists, items: all }), "INPUT_TOO_LARGE");
    eq([sure.field, sure.message], [sureInline.field, sureInline.message], "the inline call's error, over for sure");
    // Long ids in every list: the module's total counts them once per entry and once more
    // as item keys, far more than the string table holds.
    const rid = Array.from({ length: 30 }, (_, i) => `document-${i}`.padEnd(40, "-"));
    const rinput = {
      query: "name document",
      lists: [...[0, 1, 2].map((j) => ({ name: `l${j}`, ids: j === 1 ? [...rid].reverse() : rid })), heldLists[3]],
      items: { ...Object.fromEntries(rid.map((id, i) => [id, { name: `name ${i}` }])), ...extras },
    };
    const redge = edgeOf(rinput);
    eq(core(at(redge).run(rinput)), core(at(redge, { ...wide, topN: 30 }).run(rinput)), "held, ids repeated, at the limit");
    const rover = throwsScoreError(lib, () => at(redge - 1).run(rinput), "INPUT_TOO_LARGE");
    const roverInline = throwsScoreError(lib, () => at(redge - 1, wide).run(rinput), "INPUT_TOO_LARGE");
    eq([rover.field, rover.message], [roverInline.field, roverInline.message], "the inline call's error, ids repeated");
    // One text over maxTextBytes in UTF-8 only (60 units, 120 bytes; the others fit).
    const long = { ...all, "extra-1": { summary: "é".repeat(60) } };
    const one = throwsScoreError(lib, () => new lib.Pipeline({ ...cfg, limits: { maxTextBytes: 100 } }).run({ query, lists: heldLists, items: long }), "INPUT_TOO_LARGE", "items.extra-1.summary");
    const oneInline = throwsScoreError(lib, () => new lib.Pipeline({ ...cfg, topK: 50, topN: 50, limits: { maxTextBytes: 100 } }).run({ query, lists: heldLists, items: long }), "INPUT_TOO_LARGE", "items.extra-1.summary");
    eq(one.message, oneInline.message);
    // A getter that throws on a held text: the caller's error, the module still usable.
    const boom = { ...all, "doc-2": { get summary() { throw new RangeError("boom"); } } };
    let caught;
    try {
      p.run({ query, lists: heldLists, items: boom });
    } catch (e) {
      caught = e;
    }
    assert(caught instanceof RangeError && caught.message === "boom", `the getter's error: ${caught}`);
    eq(core(p.run({ query, lists: heldLists, items: all })), core(inline), "usable after, held");
  });

  test("Pipeline: items are looked up by the lists' ids; an entry whose key is in no list is never read", () => {
    const cfg = { minConfidence: 0, topK: 100, topN: 100, explain: true, recency: { mode: "step" }, rerank: { method: "heuristic" } };
    const p = new lib.Pipeline(cfg);
    const now = 1.7e12;
    const query = "graph cache";
    // Ids that name Object.prototype's own properties: no item unless the record has one.
    const lists = [{ name: "a", ids: ["x", "toString", "y"] }, { name: "b", ids: ["__proto__", "x", "constructor"] }];
    const items = { x: { name: "graph cache", modifiedAt: now - 86400000 }, y: { summary: "graph" } };
    const want = p.run({ query, lists, items, now });
    const explainOf = (out, id) => out.results.find((r) => r.id === id).explain;
    eq(explainOf(want, "x").recencyMultiplier, 1.2, "x's item is read (modified a day ago)");
    eq(explainOf(want, "__proto__").rerank.factors.multiplier, 1, "no item for __proto__");
    // Entries in no list that every check would refuse: a wrong type, an unknown field, a
    // time that does not parse, a key over maxIdBytes, a getter that throws.
    const others = { ...items, z: { name: 5 }, w: { colour: "red" }, v: { modifiedAt: "last week" }, ["k".repeat(2000)]: {} };
    Object.defineProperty(others, "u", { enumerable: true, get: () => { throw new RangeError("read"); } });
    eq(p.run({ query, lists, items: others, now }), want, "an object with entries in no list");
    // A Map: keys that are not strings are in no list either.
    const map = new Map([[5, { name: 5 }], ...Object.entries(items), [{}, {}], ["z", { name: 5 }]]);
    eq(p.run({ query, lists, items: map, now }), want, "a Map with entries in no list");
    // Only own entries are items, whatever the record's prototype.
    eq(p.run({ query, lists, items: Object.assign(Object.create(null), items), now }), want, "a record without a prototype");
    const inherited = Object.assign(Object.create({ y: { name: "graph cache" } }), { x: items.x });
    eq(p.run({ query, lists, items: inherited, now }), p.run({ query, lists, items: { x: items.x }, now }), "an inherited entry is not an item");
    const ownProto = Object.assign(JSON.parse('{"__proto__": {"name": "graph cache"}}'), items);
    const withProto = p.run({ query, lists, items: ownProto, now });
    assert(withProto.results.find((r) => r.id === "__proto__").explain.rerank.factors.multiplier > 1, "an own __proto__ entry is read");
    // Limits count the items found: 6 list entries and 2 items.
    const limited = (max) => new lib.Pipeline({ ...cfg, limits: { maxTotalEntries: max, maxTotalTextBytes: 200 } });
    const many = { ...items };
    for (let i = 0; i < 1000; i++) many[`other-${i}`] = { summary: "s".repeat(100) };
    eq(limited(8).run({ query, lists, items: many, now }).results, want.results, "1,000 entries in no list, within 8 entries and 200 bytes");
    throwsScoreError(lib, () => limited(7).run({ query, lists, items: many, now }), "INPUT_TOO_LARGE", "items");
    // Over maxTotalEntries, the limit is the error before an item's own fault (as the
    // module checks them): 2 ids and 2 items found, x's name over maxTextBytes.
    const tight = new lib.Pipeline({ minConfidence: 0, limits: { maxTotalEntries: 3, maxTextBytes: 3 } });
    throwsScoreError(lib, () => tight.run({ lists: [{ name: "a", ids: ["x", "y"] }], items: { x: { name: "abcdef" }, y: {} } }), "INPUT_TOO_LARGE", "items");
    // A key someone defined on Object.prototype (not enumerable, as some libraries do) is
    // not an own entry: no item, in a small call and in one of 128 ids or more (which
    // look values up differently: see js/core/pipeline-input.js, LOOK_OVER_FROM).
    const big = { name: "big", ids: Array.from({ length: 300 }, (_, i) => `n${i}`) };
    for (const [what, desc] of [["a value", { value: { name: "graph cache" } }], ["a getter", { get: () => ({ colour: "red" }) }]]) {
      Object.defineProperty(Object.prototype, "planted", { ...desc, configurable: true });
      try {
        for (const ls of [[...lists, { name: "c", ids: ["planted"] }], [...lists, { name: "c", ids: ["planted"] }, big]]) {
          const out = p.run({ query, lists: ls, items, now });
          eq(explainOf(out, "planted").rerank.factors.multiplier, 1, `${what} on Object.prototype is not an item (${ls.length} lists)`);
        }
      } finally {
        delete Object.prototype.planted;
      }
    }
    // `__proto__` redefined there (a value; a getter): not an item either.
    const protoDesc = Object.getOwnPropertyDescriptor(Object.prototype, "__proto__");
    for (const desc of [{ value: { name: "graph cache" }, writable: true }, { get: () => ({ name: "graph cache" }) }]) {
      Object.defineProperty(Object.prototype, "__proto__", { ...desc, configurable: true });
      try {
        const out = p.run({ query, lists: [...lists, big], items, now });
        eq(explainOf(out, "__proto__").rerank.factors.multiplier, 1, "a redefined __proto__ is not an item");
      } finally {
        if (protoDesc) Object.defineProperty(Object.prototype, "__proto__", protoDesc);
        else delete Object.prototype.__proto__;
      }
    }
    // A getter of the caller's that defines such a key while the items are read: the
    // items are read again, each key asked.
    const sneaky = { ...items };
    Object.defineProperty(sneaky, "y", {
      enumerable: true,
      get() {
        Object.defineProperty(Object.prototype, "planted", { value: { name: "graph cache" }, configurable: true });
        return items.y;
      },
    });
    try {
      const out = p.run({ query, lists: [...lists, { name: "c", ids: ["planted"] }, big], items: sneaky, now });
      eq(explainOf(out, "planted").rerank.factors.multiplier, 1, "a key defined on Object.prototype during the call is not an item");
    } finally {
      delete Object.prototype.planted;
    }
    // And with a standard Object.prototype, in a call of 128 ids or more: the ids that
    // name its properties find no item (`__proto__` not even counted: 306 list entries
    // and 2 items within maxTotalEntries 308), an own entry under such a name is one.
    const large = [...lists, big];
    eq(explainOf(p.run({ query, lists: large, items, now }), "toString").rerank.factors.multiplier, 1, "toString, large call");
    eq(new lib.Pipeline({ ...cfg, limits: { maxTotalEntries: 308 } }).run({ query, lists: large, items, now }).results.length, 100, "__proto__ not counted");
    throwsScoreError(lib, () => new lib.Pipeline({ ...cfg, limits: { maxTotalEntries: 307 } }).run({ query, lists: large, items, now }), "INPUT_TOO_LARGE", "items");
    // Near the limit the items are counted before they are read, each looked up once.
    let gets = 0;
    const counted = { ...items };
    Object.defineProperty(counted, "x", { enumerable: true, get: () => (gets++, items.x) });
    new lib.Pipeline({ ...cfg, limits: { maxTotalEntries: 8 } }).run({ query, lists, items: counted, now });
    eq(gets, 1, "x's entry looked up once near the limit");
    // A time that does not parse is named with its text (the module's walk of a refused
    // input, `run_ref`'s checks).
    const badTime = throwsScoreError(lib, () => p.run({ query, lists, items: { ...items, x: { modifiedAt: "yesterday" } }, now }), "INVALID_TIMESTAMP", "items.x.modifiedAt");
    eq(badTime.message, 'cannot parse "yesterday" as an ISO 8601 date or date-time');
    const badNow = throwsScoreError(lib, () => p.run({ query, lists, items, now: "garbage" }), "INVALID_TIMESTAMP", "now");
    eq(badNow.message, 'cannot parse "garbage" as an ISO 8601 date or date-time');
    // Only the documented forms: no whitespace around the text (ASCII or not), no leap
    // second, in an item's time, in `now` and in a multi-query timestamp alike.
    for (const t of [" 2026-01-01", "2026-01-01\n", "\u30002026-01-01\u3000", "2026-01-01T00:00Z\u2028", "2026-06-15T10:20:60Z", "2016-12-31T23:59:60Z"]) {
      throwsScoreError(lib, () => p.run({ query, lists, items: { ...items, x: { modifiedAt: t } }, now }), "INVALID_TIMESTAMP", "items.x.modifiedAt");
      throwsScoreError(lib, () => p.run({ query, lists, items, now: t }), "INVALID_TIMESTAMP", "now");
      throwsScoreError(lib, () => lib.fuseMultiQuery([[{ id: "a", score: 1, timestamp: t }]]), "INVALID_TIMESTAMP", "queries[0][0].timestamp");
    }
    p.run({ query, lists, items: { ...items, x: { modifiedAt: "2016-12-31T23:59:59.999Z" } }, now });
    // At any size every item is looked up before any is read (js/core/pipeline-input.js
    // `encodeInput`): a lookup that throws (a Proxy's trap, a getter of the record's) is
    // the error, before the fault of an item the lists name earlier, and the items'
    // getters run after every lookup.
    const trap = new Error("the trap for y");
    const order = [];
    const trapped = new Proxy(
      { x: { get name() { order.push("x.name"); return 5; } }, y: {} },
      { get: (t, k) => { order.push(`items.${String(k)}`); if (k === "y") throw trap; return t[k]; } },
    );
    let thrown;
    try {
      p.run({ query, lists, items: trapped, now });
    } catch (e) {
      thrown = e;
    }
    assert(thrown === trap, `the trap's error, got ${thrown}`);
    eq(order.includes("x.name"), false, "no item read before every lookup");
    const logged = [];
    const logging = new Proxy({ x: { get name() { logged.push("x.name"); return "graph"; } }, y: { get summary() { logged.push("y.summary"); return "cache"; } } }, { get: (t, k) => { if (typeof k === "string" && !k.startsWith("__")) logged.push(`items.${k}`); return t[k]; } });
    p.run({ query, lists, items: logging, now });
    eq(logged.slice(-2), ["x.name", "y.summary"], "the fields read after the lookups");
    assert(logged.indexOf("items.y") < logged.indexOf("x.name"), `the lookups first: ${logged}`);
    const ownToString = { ...items, toString: { name: "graph cache" } };
    assert(explainOf(p.run({ query, lists: large, items: ownToString, now }), "toString").rerank.factors.multiplier > 1, "an own toString entry is read, large call");
    assert(explainOf(p.run({ query, lists, items: ownToString, now }), "toString").rerank.factors.multiplier > 1, "an own toString entry is read, small call");
  });

  test("Pipeline: a getter that runs a pipeline while its input is read gets tables of its own", () => {
    // `run` encodes an input's item tables into typed arrays kept from call to call
    // (js/wire/input.js `Scratch`); a call made from the caller's getter while the outer call
    // holds them must not write into them, and a throw must give them back.
    const day = 86400000;
    const now = 1.7e12;
    const p = new lib.Pipeline({ minConfidence: 0, topK: 30, topN: 30, recency: { mode: "step" } });
    // 40 + 28 list entries in the outer call, 70 in the inner: their docs tables are
    // leased too (64 entries or more).
    const ids = (pre) => Array.from({ length: pre === "o" ? 40 : 72 }, (_, i) => `${pre}${i}`);
    const itemsOf = (pre, shift) => Object.fromEntries(ids(pre).map((id, i) => [id, { modifiedAt: now - ((i * 5 + shift) % 40) * day }]));
    const outer = { lists: [{ name: "a", ids: ids("o") }, { name: "b", ids: ids("o").reverse().slice(0, 28) }], items: itemsOf("o", 0), now };
    const inner = { lists: [{ name: "c", ids: ids("in").slice(2) }], items: itemsOf("in", 3), now };
    const want = p.run(outer);
    const wantInner = p.run(inner);
    assert(new Set(want.results.map((r) => r.score)).size > 2, "the items' dates change the scores");
    let got;
    const items = { ...outer.items };
    Object.defineProperty(items, "o4", {
      enumerable: true,
      get() {
        got = p.run(inner);
        return outer.items.o4;
      },
    });
    eq(p.run({ ...outer, items }), want, "the outer call, its tables untouched");
    eq(got, wantInner, "the inner call");
    const boom = { ...outer.items, get o6() { throw new RangeError("boom"); } };
    let caught;
    try {
      p.run({ ...outer, items: boom });
    } catch (e) {
      caught = e;
    }
    assert(caught instanceof RangeError, `the getter's error: ${caught}`);
    eq(p.run(outer), want, "after a throw");
    eq(p.run(inner), wantInner);
  });

  test("Items: a corpus's items read once give every run the output and the errors of the same items given as an object", () => {
    // Generated corpora: every item field, dates as numbers, ISO strings and Dates, items
    // given null, ids of no item, keys in various orders; pipelines reading every field.
    const day = 86400000;
    const now = Date.UTC(2026, 0, 1);
    const words = ["graph", "cache", "token", "router", "Über", "für", "🚀", "auth", ""];
    const textOf = (i, n) => Array.from({ length: n }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(" ");
    const corpus = (size, seed) => {
      const items = {};
      for (let i = 0; i < size; i++) {
        const id = i % 9 === 0 ? `dök-${i}` : `doc-${i}`;
        if (seed !== 2 && (i + seed) % 11 === 5) {
          items[id] = null;
          continue;
        }
        const m = {};
        // The fields in an order of the item's own (the strings' order crosses).
        const fields = [
          () => (i % 4 !== 3 ? (m.name = i % 6 === 0 ? "graphCacheToken" : textOf(i + seed, 2)) : 0),
          () => (i % 3 === 0 ? (m.type = ["class", "function", "Modul"][i % 3]) : 0),
          () => (i % 2 === 0 ? (m.summary = textOf(i, 6)) : 0),
          () => (i % 5 === 1 ? (m.content = textOf(i, 3)) : 0),
          () => {
            const k = (i + seed) % 4;
            if (k === 0) m.modifiedAt = now - (i % 40) * day;
            else if (k === 1) m.modifiedAt = new Date(now - (i % 9) * day).toISOString();
            else if (k === 2) m.modifiedAt = new Date(now - (i % 20) * day);
          },
          () => (i % 3 === 1 ? (m.fiscalYear = 2019 + (i % 7)) : 0),
          // Every item has a score at seed 2 (the cross-encoder then reranks).
          () => (i % 2 === 1 || seed === 2 ? (m.crossEncoderScore = ((i * 37) % 101) / 10 - 3) : 0),
        ];
        for (let f = 0; f < fields.length; f++) fields[(f + i + seed) % fields.length]();
        items[id] = m;
      }
      return items;
    };
    const configs = [
      { minConfidence: 0, topK: 40, topN: 40 },
      { minConfidence: 0, explain: true, rerank: { method: "heuristic" }, topK: 12 },
      { minConfidence: 0, explain: true, recency: { mode: "fiscal_year" }, rerank: { method: "cross_encoder", candidateLimit: 15 } },
      { minConfidence: 0, recency: { mode: "step" }, rerank: { method: "heuristic", candidateLimit: 5 } },
    ];
    const ran = { calls: 0, errors: 0 };
    for (const size of [6, 30, 300]) {
      for (let seed = 0; seed < 3; seed++) {
        const items = corpus(size, seed);
        const ids = Object.keys(items);
        const pick = (k) => ids.filter((_, i) => (i * k + seed) % 7 < 4);
        const lists = [
          { name: "semantic", ids: pick(3) },
          { name: "keyword", ids: [...pick(5).reverse(), ...(seed === 2 ? [] : ["no-item", "no-item-2"])] },
          { name: "graph", ids: [...pick(2), ...(seed === 2 ? [] : ["no-item"])] },
        ];
        const held = new lib.Items(items);
        eq(held.size, ids.length, "size");
        const asMap = new lib.Items(new Map(Object.entries(items)));
        for (const cfg of configs) {
          const p = new lib.Pipeline(cfg);
          const input = { query: "graph cache token für Über", lists, now };
          // The output, or the error (the cross-encoder refuses a candidate without a score).
          const outcomeOf = (items) => {
            try {
              return p.run({ ...input, items });
            } catch (e) {
              assert(e instanceof lib.ScoreError, String(e));
              return { code: e.code, field: e.field, message: e.message };
            }
          };
          const want = outcomeOf(items);
          if (want.code === undefined) assert(want.results.length > 0, "results");
          else ran.errors++;
          ran.calls++;
          // Bit for bit: every number as its bits (JSON text alone says -0 as 0).
          const bits = (o) => JSON.stringify(o, (k, v) => (typeof v === "number" ? hexOf(v) : v));
          eq(bits(outcomeOf(held)), bits(want), `size ${size}, seed ${seed}, ${JSON.stringify(cfg)}`);
          eq(outcomeOf(asMap), want, "from a Map");
          // The same Items again, and lists without any of its ids.
          eq(outcomeOf(held), want, "a second call");
          if (cfg.rerank?.method !== "cross_encoder") eq(p.run({ query: "x", lists: [{ name: "s", ids: ["no-item", "no-item-2"] }], items: held }), p.run({ query: "x", lists: [{ name: "s", ids: ["no-item", "no-item-2"] }] }), "no item listed");
          p.free();
        }
      }
    }
    assert(ran.errors > 0 && ran.errors < ran.calls / 4, `errors compared too: ${JSON.stringify(ran)}`);
    // A copy: a change to the object later is not seen.
    const source = { a: { modifiedAt: now - 2 * day }, b: { modifiedAt: now - 20 * day } };
    const held = new lib.Items(source);
    const p = new lib.Pipeline({ minConfidence: 0 });
    const input = { lists: [{ name: "s", ids: ["b", "a"] }], now };
    const want = p.run({ ...input, items: source });
    source.a.modifiedAt = now - 300 * day;
    delete source.b;
    eq(p.run({ ...input, items: held }), want, "the items as they were");
    eq(new lib.Items(held).size, 2, "an Items of an Items holds the same");
    // A list's id that is not a string, whether or not an item's key came before it.
    throwsScoreError(lib, () => p.run({ lists: [{ name: "s", ids: ["a", 5] }], items: held }), "INVALID_TYPE", "lists[0].ids[1]");
    throwsScoreError(lib, () => p.run({ lists: [{ name: "s", ids: ["zz", null] }], items: held }), "INVALID_TYPE", "lists[0].ids[1]");
    eq(new lib.Items({}).size, 0);
    eq(new lib.Items({ a: undefined, b: null }).size, 1, "an undefined value is no item");
    // Every entry `run` would find by looking an id up: a record's own keys, enumerable or
    // not; not an inherited one.
    const hidden = Object.create({ inherited: { modifiedAt: now - day } });
    Object.defineProperty(hidden, "quiet", { value: { modifiedAt: now - 3 * day }, enumerable: false });
    hidden.loud = { modifiedAt: now - 40 * day };
    const hiddenIn = { lists: [{ name: "s", ids: ["loud", "quiet", "inherited"] }], now };
    eq(p.run({ ...hiddenIn, items: new lib.Items(hidden) }), p.run({ ...hiddenIn, items: hidden }), "a record's own keys, enumerable or not");
    eq(new lib.Items(hidden).size, 2);

    // Faults of kind and key are found when the Items are made, with the errors `run`
    // gives (code, field and message); faults of value when a call lists the item.
    const same = (items, code, field) => {
      const e1 = throwsScoreError(lib, () => p.run({ lists: [{ name: "s", ids: Object.keys(items) }], items }), code, field);
      const e2 = throwsScoreError(lib, () => new lib.Items(items), code, field);
      eq(e2.message, e1.message, "message");
    };
    same({ a: { name: 5 } }, "INVALID_TYPE", "items.a.name");
    same({ a: {}, b: { nmae: "x" } }, "UNKNOWN_FIELD", "items.b.nmae");
    same({ a: 7 }, "INVALID_TYPE", "items.a");
    same({ a: new Map() }, "INVALID_TYPE", "items.a");
    same({ "x.y": { fiscalYear: "2024" } }, "INVALID_TYPE", 'items["x.y"].fiscalYear');
    same({ a: { modifiedAt: true } }, "INVALID_TYPE", "items.a.modifiedAt");
    // Not items at all: `run`'s error for the same value as `items`.
    for (const notItems of [5, "x", [{ name: "x" }], new lib.Pipeline()]) {
      const e1 = throwsScoreError(lib, () => p.run({ lists: [{ name: "s", ids: ["a"] }], items: notItems }), "INVALID_TYPE", "items");
      const e2 = throwsScoreError(lib, () => new lib.Items(notItems), "INVALID_TYPE", "items");
      eq(e2.message, e1.message, "message");
    }
    throwsScoreError(lib, () => new lib.Items(null), "INVALID_TYPE", "items");
    throwsScoreError(lib, () => new lib.Items(), "INVALID_TYPE", "items");
    // A Map's keys as Map.prototype.keys gives them (a `keys` of its own not called). A key
    // that is not a string, which no list id finds, is refused (it was left out, and
    // `new Items(new Map([[1, meta]]))` held nothing without a word); `run` never meets it,
    // as it looks up the listed ids only.
    const numbered = new Map([["a", { modifiedAt: now - day }], [1, { modifiedAt: now }]]);
    eq(throwsScoreError(lib, () => new lib.Items(numbered), "INVALID_TYPE", "items").message, "expected a Map whose keys are ids (strings), got 1");
    eq(p.run({ lists: [{ name: "s", ids: ["a", "1"] }], now, items: numbered }), p.run({ lists: [{ name: "s", ids: ["a", "1"] }], now, items: { a: { modifiedAt: now - day } } }), "run looks up \"1\", not 1");
    const own = new Map([["a", { modifiedAt: now - day }], ["b", null]]);
    own.keys = function* () {
      yield "b";
    };
    const ownIn = { lists: [{ name: "s", ids: ["b", "a"] }], now };
    eq(p.run({ ...ownIn, items: new lib.Items(own) }), p.run({ ...ownIn, items: own }), "a Map with a keys of its own");
    eq(new lib.Items(own).size, 2, "both keys held");
    for (const bad of [{ a: { modifiedAt: "yesterday" } }, { a: { fiscalYear: 2024.5 } }, { a: { crossEncoderScore: NaN } }, { a: { modifiedAt: Infinity } }]) {
      const cfg = { recency: { mode: "fiscal_year" }, rerank: { method: "cross_encoder" } };
      const q = new lib.Pipeline(cfg);
      const heldBad = new lib.Items(bad);
      let want;
      try {
        q.run({ lists: [{ name: "s", ids: ["a"] }], items: bad, now });
      } catch (e) {
        want = e;
      }
      assert(want instanceof lib.ScoreError, `a fault of value: ${JSON.stringify(bad)} ${want}`);
      const got = throwsScoreError(lib, () => q.run({ lists: [{ name: "s", ids: ["a"] }], items: heldBad, now }), want.code, want.field);
      eq(got.message, want.message);
      // Not listed: no error, as for an object.
      p.run({ lists: [{ name: "s", ids: ["b"] }], items: heldBad, now });
      q.free();
    }
    // The pipeline's own limits hold at each call: a text over its maxTextBytes is refused
    // where the item is listed, as for an object.
    const long = { a: { summary: "x".repeat(300) } };
    const small = new lib.Pipeline({ limits: { maxTextBytes: 256 }, rerank: { method: "heuristic" } });
    const e1 = throwsScoreError(lib, () => small.run({ lists: [{ name: "s", ids: ["a"] }], items: long }), "INPUT_TOO_LARGE", "items.a.summary");
    const e2 = throwsScoreError(lib, () => small.run({ lists: [{ name: "s", ids: ["a"] }], items: new lib.Items(long) }), "INPUT_TOO_LARGE", "items.a.summary");
    eq(e2.message, e1.message);
    // Each held text checked by its own length, in the caller's key order (the summary
    // first here, within the limit; then the name, over it).
    const order = { a: { summary: "s", name: "n".repeat(300) } };
    const e3 = throwsScoreError(lib, () => small.run({ lists: [{ name: "s", ids: ["a"] }], items: order }), "INPUT_TOO_LARGE", "items.a.name");
    eq(throwsScoreError(lib, () => small.run({ lists: [{ name: "s", ids: ["a"] }], items: new lib.Items(order) }), "INPUT_TOO_LARGE", "items.a.name").message, e3.message);
    small.free();
    // Texts held back (more candidates than the reranker reads) over maxTextBytes in UTF-8
    // alone (100 units, 200 bytes): the call sends them after all, and the module refuses.
    const wide = { a: { summary: "é".repeat(100) }, b: {}, c: {}, d: {} };
    const few = new lib.Pipeline({ topK: 2, topN: 2, limits: { maxTextBytes: 150 }, rerank: { method: "heuristic" } });
    const wideIn = { query: "é", lists: [{ name: "s", ids: ["b", "a", "c", "d"] }] };
    const w1 = throwsScoreError(lib, () => few.run({ ...wideIn, items: wide }), "INPUT_TOO_LARGE", "items.a.summary");
    const w2 = throwsScoreError(lib, () => few.run({ ...wideIn, items: new lib.Items(wide) }), "INPUT_TOO_LARGE", "items.a.summary");
    eq(w2.message, w1.message);
    few.free();
    // `size` read on something else.
    throwsScoreError(lib, () => Object.getOwnPropertyDescriptor(lib.Items.prototype, "size").get.call({}), "INVALID_TYPE", "this");
    eq(lib.Items.name, "Items");

    // A call made by the caller's code while another call reads its lists (a Proxy's
    // trap) with the same Items numbers its documents apart: both get their own output.
    const big = corpus(60, 1);
    const heldBig = new lib.Items(big);
    const q = new lib.Pipeline({ minConfidence: 0, topK: 60, topN: 60, recency: { mode: "step" } });
    const bigIds = Object.keys(big);
    const outerIn = { lists: [{ name: "a", ids: bigIds.slice(0, 40) }, { name: "b", ids: bigIds.slice(20).reverse() }], now };
    const innerIn = { lists: [{ name: "c", ids: bigIds.slice(10, 50).reverse() }], now };
    const wantOuter = q.run({ ...outerIn, items: big });
    const wantInner = q.run({ ...innerIn, items: big });
    let inner;
    const trapped = new Proxy(outerIn.lists[1].ids, {
      get(target, key, receiver) {
        if (key === "7" && inner === undefined) inner = q.run({ ...innerIn, items: heldBig });
        return Reflect.get(target, key, receiver);
      },
    });
    eq(q.run({ lists: [outerIn.lists[0], { name: "b", ids: trapped }], now, items: heldBig }), wantOuter, "the outer call");
    eq(inner, wantInner, "the inner call");
    eq(q.run({ ...outerIn, items: heldBig }), wantOuter, "after");
    q.free();
    p.free();
  });

  test("an items entry given null is an item with no fields", () => {
    const p = new lib.Pipeline({ minConfidence: 0, limits: { maxTotalEntries: 2 } });
    const lists = [{ name: "s", ids: ["a"] }];
    eq(p.run({ lists, items: { a: null } }), p.run({ lists, items: { a: {} } }));
    eq(p.run({ lists, items: new Map([["a", null]]) }), p.run({ lists, items: { a: {} } }));
    // It is counted as an item: one list entry and one item fill a budget of 2.
    throwsScoreError(lib, () => p.run({ lists: [{ name: "s", ids: ["a", "b"] }], items: { a: null } }), "INPUT_TOO_LARGE", "items");
    p.free();
  });
}
