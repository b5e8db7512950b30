// The input editor of the pipeline mode: the query, "now" and context fields, the ranked
// lists (table, JSON and TREC run tabs) and the candidates' metadata table.
import { h, fill, nextId, debounce, fmtp } from "./dom.js";
import { describeError, showProblem, notice, fieldMessage } from "./notices.js";
import { section, remembered, wide, readNumber, numberMessage } from "./form.js";
import { followState } from "./json-box.js";

/** The input's lists, or none if it has no array of lists. */
export const listsOf = (state) => (Array.isArray(state.input.lists) ? state.input.lists : []);
/** The input's items (metadata by id), or none if it has no object of items. */
export const itemsOf = (state) => (state.input.items && typeof state.input.items === "object" && !Array.isArray(state.input.items) ? state.input.items : {});

// The metadata table's columns.
/**
 * `items` and the key `id` as the package writes them in a field path: `items.A`, or
 * `items["a.b"]` for a key that is empty or holds `.`, `[`, `]`, `"` or `\`.
 */
const itemPath = (id) => (/^[^.[\]"\\]+$/.test(id) ? `items.${id}` : `items[${JSON.stringify(id)}]`);

/** A time as typed: digits are epoch milliseconds (a number), anything else ISO 8601 text. */
export const timeValue = (text) => (/^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text);

/**
 * The most candidates the metadata table lists: a table of every candidate of a large
 * input (250,000 ids) took the page 48 s to build, where the package answers in
 * milliseconds; the others are edited in the JSON tab.
 */
const META_ROWS = 500;

const META_FIELDS = [
  { key: "name", label: "name", kind: "text" },
  { key: "type", label: "type", kind: "text" },
  { key: "summary", label: "summary", kind: "text" },
  { key: "content", label: "content", kind: "text" },
  { key: "modifiedAt", label: "modifiedAt", kind: "time" },
  { key: "fiscalYear", label: "fiscalYear", kind: "number" },
  { key: "crossEncoderScore", label: "crossEncoderScore", kind: "number" },
];

/**
 * A list's text as { ids, scores? }. One line per id, best first, blank lines skipped.
 * Without scores the whole line is the id (spaces and trailing numbers included:
 * "chapter 1"). With scores (the list's "Lines end with a score" box), a line's last
 * space-separated word is its score, a finite number, and the rest the id; a line
 * without one is an error, and so are two lines giving one id (the score split off
 * "chapter 1" and "chapter 2" would merge them into "chapter"). Throws an Error saying
 * which line.
 */
export function parseListText(text, withScores) {
  const ids = [];
  const scores = [];
  const lineOf = new Map();
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const n = i + 1;
    if (!withScores) {
      ids.push(line);
      return;
    }
    const cut = line.search(/\s\S*$/);
    if (cut < 0) throw new Error(`line ${n}: no score (with "Lines end with a score", a line is its id, a space, then its score)`);
    const word = line.slice(cut).trim();
    const score = Number(word);
    if (!Number.isFinite(score)) throw new Error(`line ${n}: the score "${word}" is not a finite number`);
    const id = line.slice(0, cut).trim();
    if (lineOf.has(id)) throw new Error(`lines ${lineOf.get(id)} and ${n} both give the id "${id}" once their last word is taken as the score: untick "Lines end with a score" if the numbers belong to the ids`);
    lineOf.set(id, n);
    ids.push(id);
    scores.push(score);
  });
  return withScores ? { ids, scores } : { ids };
}

/**
 * The input panels over `ctx` = { state, lib, sample, changed(), commit(), labLoaded(),
 * writeUrl() } and the
 * bound inputs of `form` (createForm). Returns { inputPanel, metadataPanel }.
 */
export function createInputEditor(ctx, form) {
  const { textInput, bind } = form;
  const inputLists = () => listsOf(ctx.state);
  const inputItems = () => itemsOf(ctx.state);

  function inputPanel() {
    const qid = nextId("query");
    const nowId = nextId("now");
    return section(
      "Query and ranked lists",
      { id: "inputs-panel" },
      h("div", { class: "field" }, h("label", { for: qid, text: "Query" }), textInput("input.query", { id: qid, optional: false, multiline: true })),
      h("div", { class: "field-row" },
        h("div", { class: "field" }, h("label", { for: nowId, text: "Now (for step recency)" }), textInput("input.now", { id: nowId, placeholder: "ISO 8601 or epoch ms", parse: timeValue, onChange: () => ctx.changed() }))),
      contextFields(),
      listsTabs(),
    );
  }

  /** input.context: selects a band profile (config.bands.profiles). */
  function contextFields() {
    const fields = ["taskClass", "language", "buildSystem"].map((key) => {
      const id = nextId("ctx");
      return h("div", { class: "field" }, h("label", { for: id, text: key }), textInput(`input.context.${key}`, { id, placeholder: "any" }));
    });
    return remembered(h("details", { class: "sub" }, h("summary", { text: "Context (selects a band profile)" }), h("div", { class: "field-row" }, fields)), "context", false);
  }

  // ---- ranked lists: table / JSON / TREC tabs

  function listsTabs() {
    const tabs = [
      { key: "table", label: "Table", build: listsTable },
      { key: "json", label: "JSON", build: inputJsonEditor },
      { key: "trec", label: "TREC run", build: trecImporter },
    ];
    const tablist = h("div", { role: "tablist", "aria-label": "How to edit the ranked lists", class: "tabs" });
    const panels = h("div", { class: "tab-panels" });
    // A link's tab that is none of these (an old or edited link) opens the table.
    const current = tabs.some((t) => t.key === ctx.state.view.inputTab) ? ctx.state.view.inputTab : "table";
    const buttons = tabs.map((t) => {
      // aria-selected and tabindex: select(current) below.
      const b = h("button", { type: "button", role: "tab", id: `tab-${t.key}`, text: t.label });
      b.addEventListener("click", () => select(t.key, true));
      return b;
    });
    tablist.append(...buttons);
    tablist.addEventListener("keydown", (e) => {
      const i = tabs.findIndex((t) => t.key === (ctx.state.view.inputTab || "table"));
      let j = null;
      if (e.key === "ArrowRight") j = (i + 1) % tabs.length;
      else if (e.key === "ArrowLeft") j = (i + tabs.length - 1) % tabs.length;
      else if (e.key === "Home") j = 0;
      else if (e.key === "End") j = tabs.length - 1;
      if (j === null) return;
      e.preventDefault();
      select(tabs[j].key, true);
    });
    function select(key, focus) {
      ctx.state.view.inputTab = key;
      buttons.forEach((b, i) => {
        const on = tabs[i].key === key;
        b.setAttribute("aria-selected", String(on));
        // Only the selected tab's panel is rendered: the others control nothing.
        if (on) b.setAttribute("aria-controls", `tabpanel-${key}`);
        else b.removeAttribute("aria-controls");
        b.tabIndex = on ? 0 : -1;
        if (on && focus) b.focus();
      });
      const t = tabs.find((x) => x.key === key);
      fill(panels, h("div", { role: "tabpanel", id: `tabpanel-${key}`, "aria-labelledby": `tab-${key}`, class: "tab-panel" }, t.build()));
      ctx.writeUrl();
    }
    select(current, false);
    return h("div", { class: "lists-editor" }, tablist, panels);
  }

  /** The list as lines: the id, then (with scores) a space and its score. */
  function listText(list, withScores) {
    if (!Array.isArray(list.ids)) return "";
    return list.ids.map((id, i) => (withScores && Array.isArray(list.scores) ? `${id} ${list.scores[i]}` : String(id))).join("\n");
  }

  function listsTable() {
    const tbody = h("tbody");
    const table = h("table", { class: "lists-table" },
      h("caption", { class: "visually-hidden", text: "Ranked lists: name, weight and ids, best first" }),
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "List" }), h("th", { scope: "col", text: "Weight" }), h("th", { scope: "col", text: "Ids, best first (one per line; a score after the last space if ticked)" }), h("th", { scope: "col" }, h("span", { class: "visually-hidden", text: "Remove" })))),
      tbody);
    const add = h("button", { type: "button", class: "secondary small", text: "+ Add a list" });
    // After a removal, the focus goes to the list now in its place, else to "+ Add a list".
    const removed = (i) => {
      rebuild();
      (tbody.rows[i]?.querySelector("input") || add).focus();
    };
    const rebuild = () => {
      fill(tbody);
      inputLists().forEach((list, i) =>
        tbody.append(list && typeof list === "object" ? listRow(list, i, removed) : h("tr", {}, h("td", { class: "field-error", text: `List ${i + 1} is not an object: edit it in the JSON tab.` }))));
    };
    rebuild();
    add.addEventListener("click", () => {
      if (!Array.isArray(ctx.state.input.lists)) ctx.state.input.lists = [];
      const n = ctx.state.input.lists.length + 1;
      ctx.state.input.lists.push({ name: `list${n}`, ids: [] });
      rebuild();
      tbody.lastElementChild?.querySelector("input")?.focus();
      ctx.changed();
    });
    return h("div", {}, h("p", { class: "note", text: "Each list: its name, its weight (empty: config.weights' value for the name, else 1), then its ids, best first, one per line: the whole line is the id, spaces and numbers included. Tick \u201cLines end with a score\u201d to give the list's scores: each line's last word, after a space, is then its score (a finite number) and the rest its id." }), h("div", { class: "table-scroll" }, table), add);
  }

  function listRow(list, i, removed) {
    const name = h("input", { type: "text", value: String(list.name ?? ""), "aria-label": `Name of list ${i + 1}`, "data-path": `input.lists.${i}.name`, spellcheck: "false" });
    name.addEventListener("input", () => {
      list.name = name.value;
      nameControls();
      ctx.changed();
    });
    const weight = h("input", { type: "number", step: "any", min: 0, value: list.weight ?? "", "data-path": `input.lists.${i}.weight`, class: "narrow" });
    // Empty, the list takes config.weights[name], else 1: the placeholder shows which,
    // kept current as the configuration changes (sync re-reads it).
    bind(weight, () => {
      const w = ctx.state.config?.weights?.[list.name];
      weight.placeholder = `weight: ${typeof w === "number" && Number.isFinite(w) ? fmtp(w) : 1}`;
    });
    const weightMessage = numberMessage(weight, "the weight");
    weight.addEventListener("input", () => {
      const typed = readNumber(weight);
      if (typed.bad) return weightMessage.bad();
      weightMessage.clear();
      if (typed.empty) delete list.weight;
      else list.weight = typed.value;
      ctx.changed();
    });
    const msg = h("p", { class: "field-error", hidden: true });
    const ids = h("textarea", { rows: 5, class: "code", spellcheck: "false", "data-path": `input.lists.${i}.ids` });
    const idsMessage = fieldMessage(ids, msg);
    const scored = h("input", { type: "checkbox", id: nextId("scored"), checked: Array.isArray(list.scores), "data-list-scores": i });
    const placeholder = () => (ids.placeholder = scored.checked ? "id score, one per line (the last word is the score)\ndoc-7 0.92\nchapter 1 0.85" : "one id per line, the whole line (chapter 1)");
    placeholder();
    ids.value = listText(list, scored.checked);
    /** Reads the text into the list; false (the list unchanged, the outputs stale) if it cannot be read. */
    const apply = () => {
      let parsed;
      try {
        parsed = parseListText(ids.value, scored.checked);
      } catch (e) {
        idsMessage.show(e.message);
        showProblem({ title: "A ranked list could not be read", message: `${list.name}: ${e.message}` });
        return false;
      }
      list.ids = parsed.ids;
      if (parsed.scores) list.scores = parsed.scores;
      else delete list.scores;
      idsMessage.clear();
      ctx.changed();
      refreshMetadataSoon();
      return true;
    };
    ids.addEventListener("input", apply);
    scored.addEventListener("change", () => {
      placeholder();
      // Unticked: the scores go, the ids stay (as read with them, if they could be).
      if (!scored.checked) {
        try {
          ids.value = parseListText(ids.value, true).ids.join("\n");
        } catch {
          // Not id-score lines: each line is an id already.
        }
      }
      apply();
    });
    const scoredField = h("span", { class: "checkbox" }, scored, h("label", { for: scored.id, text: "Lines end with a score" }));
    const remove = h("button", { type: "button", class: "icon", title: "Remove this list", text: "×" });
    /** The row's controls named after the list (again once it is renamed). */
    function nameControls() {
      weight.setAttribute("aria-label", `Weight of list ${list.name}`);
      ids.setAttribute("aria-label", `Ids of list ${list.name}, best first`);
      // Its visible label first, then the list.
      scored.setAttribute("aria-label", `Lines end with a score, list ${list.name}`);
      remove.setAttribute("aria-label", `Remove list ${list.name}`);
    }
    nameControls();
    remove.addEventListener("click", () => {
      ctx.state.input.lists.splice(i, 1);
      removed(i);
      ctx.changed();
      // Its ids may have been the only ones of some candidates (the panel kept them).
      refreshMetadataSoon();
    });
    return h("tr", {}, h("td", {}, name), h("td", {}, weight), h("td", {}, ids, scoredField, msg), h("td", {}, remove));
  }

  function inputJsonEditor() {
    const id = nextId("json");
    const msg = h("p", { class: "field-error", hidden: true, "data-json-error": "" });
    const ta = h("textarea", { id, rows: 14, class: "code", spellcheck: "false" });
    const message = fieldMessage(ta, msg);
    // The text follows the input while the box holds no edits of its own (json-box.js).
    const box = followState(form, ta, () => ctx.state.input, { what: "input", onLoad: () => message.clear() });
    const apply = async () => {
      let parsed;
      try {
        parsed = JSON.parse(ta.value);
      } catch (e) {
        message.show(`Invalid JSON: ${e.message}`);
        showProblem({ title: "Invalid JSON", message: e.message, hint: "The input was not changed. Fix the JSON and apply it again." });
        return;
      }
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
        message.show("The input must be a JSON object: { query, lists, items, now, context }.");
        showProblem({ title: "Invalid input", message: msg.textContent });
        return;
      }
      message.clear();
      ctx.state.input = parsed;
      if (!Array.isArray(ctx.state.input.lists)) ctx.state.input.lists = ctx.state.input.lists ?? [];
      box.applied();
      const accepted = await ctx.commit();
      rebuildMetadata();
      if (accepted) notice("Input applied.");
      else message.showProblem();
    };
    ta.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        apply();
      }
    });
    const button = h("button", { type: "button", id: "apply-input-json", text: "Apply JSON" });
    button.addEventListener("click", apply);
    return h("div", {},
      h("label", { for: id, class: "block-label", text: "PipelineInput as JSON: { query, lists: [{ name, ids, scores?, weight? }], items, now, context }" }),
      ta, msg, box.warning, h("div", { class: "button-row" }, button, h("span", { class: "note", text: "Ctrl+Enter applies." })));
  }

  function trecImporter() {
    const id = nextId("trec");
    const qidId = nextId("qid");
    const msg = h("p", { class: "field-error", hidden: true });
    const ta = h("textarea", { id, rows: 10, class: "code", spellcheck: "false", placeholder: "qid Q0 docid rank score tag\n1 Q0 722 1 10.85 bm25\n1 Q0 722 1 0.63 dense" });
    const message = fieldMessage(ta, msg);
    const qid = h("input", { id: qidId, type: "text", class: "narrow", placeholder: "first pasted", spellcheck: "false" });
    const replace = h("input", { type: "checkbox", checked: true, id: nextId("rep") });
    const importBtn = h("button", { type: "button", text: "Import lists" });
    importBtn.addEventListener("click", async () => {
      if (!(await ctx.labLoaded())) return; // parseTrecRun is in calibrank/lab
      try {
        // One list per run tag (the sixth column); the package parses each part. A part
        // keeps every line's place (other tags' lines blank, which the parser skips), so
        // an error's "line N" is the pasted text's.
        const pasted = ta.value.split("\n");
        const parts = new Map();
        // The query: the one asked for, else the first pasted (parseTrecRun's object lists
        // integer-like query ids first, by value: "9" before "10").
        let chosen = qid.value.trim();
        // Each document's first line, by tag and query: tied scores keep the pasted order.
        const lineOf = new Map();
        pasted.forEach((line, i) => {
          const cols = line.trim().split(/\s+/);
          if (cols.length < 2) return;
          if (!chosen) chosen = cols[0];
          const tag = cols[5] || "run";
          if (!parts.has(tag)) parts.set(tag, new Array(pasted.length).fill(""));
          parts.get(tag)[i] = line;
          const key = JSON.stringify([tag, cols[0], cols[2]]);
          if (!lineOf.has(key)) lineOf.set(key, i);
        });
        if (parts.size === 0) throw new Error("paste at least one line: qid Q0 docid rank score tag");
        const lists = [];
        for (const [tag, lines] of parts) {
          const run = ctx.lib.parseTrecRun(lines.join("\n"));
          const docs = run[chosen];
          if (!docs) continue;
          // Best first: by the run's score, descending; ties in the pasted order (the
          // object lists integer-like ids by value).
          const at = (doc) => lineOf.get(JSON.stringify([tag, chosen, doc])) ?? Infinity;
          const entries = Object.entries(docs).sort((a, b) => b[1] - a[1] || at(a[0]) - at(b[0]));
          lists.push({ name: tag, ids: entries.map((e) => e[0]), scores: entries.map((e) => e[1]) });
        }
        if (lists.length === 0) throw new Error(`no line for query ${chosen}`);
        let dropped = 0;
        if (replace.checked) {
          ctx.state.input.lists = lists;
          // The replaced lists' candidate metadata goes with them (an id still listed keeps its own).
          const listed = new Set(lists.flatMap((l) => l.ids));
          const items = inputItems();
          for (const id of Object.keys(items)) {
            if (listed.has(id)) continue;
            delete items[id];
            dropped++;
          }
        } else for (const l of lists) {
          const at = ctx.state.input.lists.findIndex((x) => x.name === l.name);
          if (at >= 0) ctx.state.input.lists[at] = l;
          else ctx.state.input.lists.push(l);
        }
        message.clear();
        const accepted = await ctx.commit();
        rebuildMetadata();
        if (accepted) notice(`Imported ${lists.length} list(s) for query ${chosen}: ${lists.map((l) => `${l.name} (${l.ids.length})`).join(", ")}.${dropped ? ` The metadata of ${dropped} candidate(s) no longer listed was removed.` : ""}`);
      } catch (e) {
        const d = describeError(e, ctx.lib);
        message.show(d.code ? `${d.code} (${d.field}): ${d.message}` : d.message);
        showProblem(d.code ? d : { title: "The TREC run could not be imported", message: d.message });
      }
    });
    const row = [importBtn];
    const q = ctx.sample ? ctx.sample.queries.find((x) => `cisi-${x.id}` === ctx.state.preset) : null;
    if (q) {
      const fillBtn = h("button", { type: "button", class: "secondary", text: `Paste CISI Q${q.id}'s runs` });
      fillBtn.addEventListener("click", () => {
        ta.value = ctx.sample.runs.flatMap((name) => q.runs[name].ids.map((doc, i) => `${q.id} Q0 ${doc} ${i + 1} ${q.runs[name].scores[i]} ${name}`)).join("\n");
        qid.value = q.id;
        ta.focus();
      });
      row.push(fillBtn);
    }
    return h("div", {},
      h("label", { for: id, class: "block-label", text: "TREC run lines: qid Q0 docid rank score tag (one list per tag)" }),
      ta,
      h("div", { class: "field-row" },
        h("div", { class: "field" }, h("label", { for: qidId, text: "Query id" }), qid),
        h("div", { class: "field checkbox" }, replace, h("label", { for: replace.id, text: "Replace all lists (and their candidates' metadata)" }))),
      msg,
      h("div", { class: "button-row" }, ...row));
  }

  // ---- candidate metadata

  function candidateIds() {
    const seen = new Set();
    for (const l of inputLists()) if (l && Array.isArray(l.ids)) for (const id of l.ids) seen.add(String(id));
    for (const id of Object.keys(inputItems())) seen.add(id);
    return [...seen];
  }

  let metadataHost = null;
  function metadataPanel() {
    metadataHost = h("div", {});
    const ids = candidateIds();
    const panel = section(`Candidate metadata (${ids.length})`, { id: "metadata-panel", open: ids.length <= 6 && wide(), note: "Used by recency (modifiedAt, fiscalYear) and the rerankers (name, type, summary, content, crossEncoderScore). Empty cells are absent." }, metadataHost);
    rebuildMetadata();
    return panel;
  }

  let metadataKey = "";
  const refreshMetadataSoon = debounce(() => {
    if (candidateIds().join("\n") !== metadataKey) rebuildMetadata();
  }, 400);

  function rebuildMetadata() {
    if (!metadataHost || !metadataHost.isConnected && metadataHost.parentNode === null) return;
    const ids = candidateIds();
    metadataKey = ids.join("\n");
    const summary = metadataHost.closest("details")?.querySelector("h2");
    if (summary) summary.textContent = `Candidate metadata (${ids.length})`;
    const head = h("tr", {}, h("th", { scope: "col", text: "id" }), META_FIELDS.map((f) => h("th", { scope: "col", text: f.label })));
    const body = h("tbody");
    const items = inputItems();
    for (const id of ids.length > META_ROWS ? ids.slice(0, META_ROWS) : ids) {
      const item = items[id] || {};
      const cells = META_FIELDS.map((f) => {
        const v = item[f.key];
        const el = h("input", {
          type: f.kind === "number" ? "number" : "text",
          step: f.kind === "number" ? "any" : undefined,
          value: v === undefined ? "" : String(v),
          "aria-label": `${f.label} of ${id}`,
          // The path a package error names this cell by (`items.A.modifiedAt`), for
          // notices.js `markInvalid` and to find the cell again after a rebuild.
          "data-path": `input.${itemPath(id)}.${f.key}`,
          class: f.key === "name" || f.key === "summary" || f.key === "content" ? "wide" : "narrow",
          spellcheck: "false",
        });
        const message = f.kind === "number" ? numberMessage(el, `${f.label} of ${id}`) : null;
        el.addEventListener("input", () => {
          const typed = f.kind === "number" ? readNumber(el) : null;
          if (typed?.bad) return message.bad();
          message?.clear();
          if (inputItems() !== ctx.state.input.items) ctx.state.input.items = {};
          const it = (ctx.state.input.items[id] ??= {});
          const text = el.value;
          if (typed ? typed.empty : text.trim() === "") delete it[f.key];
          else if (typed) it[f.key] = typed.value;
          else if (f.kind === "time") it[f.key] = timeValue(text);
          else it[f.key] = text;
          if (Object.keys(it).length === 0) delete ctx.state.input.items[id];
          ctx.changed();
        });
        return h("td", {}, el);
      });
      body.append(h("tr", {}, h("th", { scope: "row", class: "id-cell", title: id, text: id }), cells));
    }
    const table = h("div", { class: "table-scroll" }, h("table", { class: "meta-table" }, h("caption", { class: "visually-hidden", text: "Candidate metadata" }), h("thead", {}, head), body));
    const more = ids.length > META_ROWS ? h("p", { class: "note", "data-meta-more": "", text: `The first ${META_ROWS} of ${ids.length} candidates; edit the others' metadata in the JSON tab (input.items).` }) : null;
    fill(metadataHost, more ? [more, table] : table);
  }

  return { inputPanel, metadataPanel };
}
