// calibrank score playground: state, input editors, configuration form, outputs.
// Every score on the page comes from the calibrank package (compute.js); this module
// only moves data around, formats it and draws it. Data is never written with innerHTML.
import { h, fill, $, $$, fmt, fmtp, full, nextId, debounce, getPath, setPath, deletePath } from "./dom.js";
import { encodeState, decodeState } from "./url-state.js";
import { presetList, buildPreset, baseState, DEFAULT_PRESET, STATE_VERSION } from "./presets.js";
import * as compute from "./compute.js";
import * as charts from "./charts.js";
import { CONFIG_GROUPS, MULTI_OPTIONS } from "./schema.js";
import { buildOptimizer } from "./optimize.js";
import { renderOutcome, confidencePanel, carryModel, forgetModel } from "./confidence.js";

let lib = null;
let sample = null;
let defaults = null; // the package's effective default config
let state = null;
let result = null; // last successful computation
let evaluation = null; // last sample evaluation (CISI presets)
const bindings = []; // { el, read } of inputs bound to state paths
const cursors = new Map(); // figure id -> keyboard cursor
const chartCache = new Map(); // chart slot -> { sig, svg }: unchanged charts are not redrawn

main();

// ------------------------------------------------------------------ start-up

async function main() {
  try {
    // The scoring core (calibrank) and the lab (calibrank/lab: evaluation, fitting, TREC
    // runs), each with its own .wasm, fetched in parallel; one object for compute.js.
    const [core, lab] = await Promise.all([import("./pkg/browser.js"), import("./pkg/lab.browser.js")]);
    lib = { ...lab, ...core };
  } catch (e) {
    return fatal(`The calibrank WebAssembly modules could not be loaded (${e.message}). Build it with make demo.`);
  }
  if (!globalThis.Plot) return fatal("Observable Plot could not be loaded (www/vendor/ is built by make demo).");
  defaults = compute.withPipeline(lib, {}, (p) => p.config);
  try {
    const res = await fetch("data/cisi-sample.json");
    if (res.ok) sample = await res.json();
  } catch {
    sample = null;
  }
  $("#version").textContent = `Package version ${lib.version()}.`;
  setupHeader();
  let initial = null;
  try {
    initial = normalizeState(await decodeState(location.hash));
  } catch (e) {
    notice(`The link's state could not be read (${e.message}); showing the default preset.`);
  }
  $("#boot").remove();
  $("#app").hidden = false;
  loadState(initial || buildPreset(DEFAULT_PRESET, sample));
  window.addEventListener("hashchange", onHashChange);
  window.addEventListener("resize", debounce(() => renderOutputs(), 150));
  document.documentElement.dataset.ready = "true";
}

function fatal(message) {
  const boot = $("#boot");
  if (boot) boot.remove();
  showProblem({ title: "The playground could not start", message });
}

/** Fills missing parts of a decoded state; null if it is not a playground state. */
function normalizeState(s) {
  if (!s || typeof s !== "object") return null;
  if (s.v !== STATE_VERSION) throw new Error(`state version ${s.v}, expected ${STATE_VERSION}`);
  const b = baseState();
  return {
    ...b,
    ...s,
    input: { ...b.input, ...(s.input || {}) },
    multi: { ...b.multi, ...(s.multi || {}) },
    bands: { ...b.bands, ...(s.bands || {}) },
    view: { ...b.view, ...(s.view || {}) },
    config: s.config && typeof s.config === "object" ? s.config : {},
  };
}

let lastHash = "";
async function onHashChange() {
  if (location.hash === lastHash) return;
  try {
    const s = normalizeState(await decodeState(location.hash));
    if (s) loadState(s);
  } catch (e) {
    notice(`The link's state could not be read (${e.message}).`);
  }
}

const writeUrl = debounce(async () => {
  try {
    const hash = await encodeState(state);
    lastHash = hash;
    history.replaceState(null, "", hash);
  } catch {
    // The URL is a convenience; the page keeps working without it.
  }
}, 250);

function setupHeader() {
  const select = $("#preset");
  fill(select);
  const groups = new Map();
  for (const p of presetList(sample)) {
    if (!groups.has(p.group)) groups.set(p.group, h("optgroup", { label: p.group }));
    groups.get(p.group).append(h("option", { value: p.id, text: p.label }));
  }
  select.append(...groups.values(), h("option", { value: "custom", text: "Custom (edited)" }));
  select.disabled = false;
  select.addEventListener("change", () => {
    if (select.value === "custom") return;
    loadState(carryModel(buildPreset(select.value, sample)));
    notice(`Loaded preset: ${select.selectedOptions[0].textContent}`);
  });
  $("#reset-preset").addEventListener("click", () => {
    const id = state.preset;
    if (id && id !== "custom") {
      forgetModel();
      loadState(buildPreset(id, sample));
      notice("Preset restored.");
    } else {
      notice("This state is not a preset; pick one from the menu.");
    }
  });
  $("#copy-link").addEventListener("click", async () => {
    const hash = await encodeState(state);
    lastHash = hash;
    history.replaceState(null, "", hash);
    try {
      await navigator.clipboard.writeText(location.href);
      notice("Link copied: it opens the playground in exactly this state.");
    } catch {
      notice("The address bar now holds a link to this state; copy it from there.");
    }
  });
}

/** Replaces the whole state and rebuilds the page. */
function loadState(s) {
  state = s;
  evaluation = null;
  $("#preset").value = presetList(sample).some((p) => p.id === s.preset) ? s.preset : "custom";
  buildControls();
  buildOutputs();
  recompute();
}

/** Called after every edit. */
function changed({ rebuildControls = false } = {}) {
  if (rebuildControls) buildControls();
  scheduleRecompute();
}

let frame = 0;
function scheduleRecompute() {
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    recompute();
  });
}

// ------------------------------------------------------------------ problems and notices

function describeError(e) {
  if (e && (e instanceof lib?.ScoreError || e.name === "ScoreError")) {
    return { title: "The package rejected the input", code: e.code, field: e.field, message: e.message };
  }
  if (e instanceof SyntaxError) return { title: "Invalid JSON", message: e.message };
  return { title: "Something went wrong", message: e?.message || String(e) };
}

function showProblem(p) {
  const box = $("#problem");
  const parts = [h("strong", { text: p.title })];
  if (p.code) {
    parts.push(
      h("dl", { class: "error-fields" },
        h("dt", { text: "code" }), h("dd", {}, h("code", { "data-error-code": p.code, text: p.code })),
        h("dt", { text: "field" }), h("dd", {}, h("code", { "data-error-field": p.field || "", text: p.field || "(none)" })),
        h("dt", { text: "message" }), h("dd", { "data-error-message": "", text: p.message })),
    );
  } else {
    parts.push(h("p", { "data-error-message": "", text: p.message }));
  }
  if (p.hint) parts.push(h("p", { class: "hint", text: p.hint }));
  fill(box, ...parts);
  box.hidden = false;
  box.dataset.kind = p.code ? "score-error" : p.title === "Invalid JSON" ? "json" : "other";
  $("#outputs")?.classList.add("stale");
  $$("[aria-invalid=true]").forEach((el) => el.removeAttribute("aria-invalid"));
  if (p.field) {
    for (const el of $$("[data-path]")) {
      const path = el.dataset.path.replace(/^config\./, "").replace(/^input\./, "");
      if (path === p.field || p.field.startsWith(path + ".") || p.field.startsWith(path + "[")) el.setAttribute("aria-invalid", "true");
    }
  }
}

function clearProblem() {
  const box = $("#problem");
  box.hidden = true;
  fill(box);
  delete box.dataset.kind;
  $("#outputs")?.classList.remove("stale");
  $$("[aria-invalid=true]").forEach((el) => el.removeAttribute("aria-invalid"));
}

let noticeTimer = 0;
function notice(text) {
  const el = $("#notice");
  el.textContent = text;
  el.classList.add("show");
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => el.classList.remove("show"), 4000);
}

// ------------------------------------------------------------------ bound inputs

function sync() {
  const active = document.activeElement;
  for (const b of bindings) if (b.el !== active && b.el.isConnected) b.read();
  for (let i = bindings.length - 1; i >= 0; i--) if (!bindings[i].el.isConnected) bindings.splice(i, 1);
}

/** The value at `path` of the state, or the package's default for config paths. */
function valueAt(path) {
  const v = getPath(state, path);
  if (v !== undefined) return v;
  if (path.startsWith("config.")) return getPath(defaults, path.slice(7));
  return undefined;
}

/** Whether a config value differs from the package's default. */
function isOverridden(path) {
  const v = getPath(state, path);
  if (v === undefined) return false;
  return !path.startsWith("config.") || JSON.stringify(v) !== JSON.stringify(getPath(defaults, path.slice(7)));
}

/** A number input bound to a state path. */
function numberInput(path, { min, max, step = "any", optional = false, id, label, onChange, placeholder = "none" } = {}) {
  const el = h("input", { type: "number", step, min, max, inputmode: "decimal", id: id || nextId("n"), "data-path": path, "aria-label": label });
  const read = () => {
    const v = valueAt(path);
    el.value = v === undefined || v === null ? "" : String(v);
    if (optional) el.placeholder = placeholder;
  };
  el.addEventListener("input", () => {
    const text = el.value.trim();
    if (text === "") {
      if (!optional && path.startsWith("input.")) return;
      deletePath(state, path);
    } else {
      const n = Number(text);
      if (!Number.isFinite(n)) return;
      setPath(state, path, n);
    }
    markOverride(el, path);
    sync();
    onChange ? onChange() : changed();
  });
  bindings.push({ el, read });
  read();
  return el;
}

/** A range slider bound to the same path (moves at once, re-renders every frame). */
function rangeInput(path, { min, max, step, label }) {
  const el = h("input", { type: "range", min, max, step, "data-path": path, "aria-label": label });
  const read = () => {
    const v = valueAt(path);
    if (typeof v === "number") el.value = String(v);
  };
  el.addEventListener("input", () => {
    setPath(state, path, Number(el.value));
    sync();
    changed();
  });
  bindings.push({ el, read });
  read();
  return el;
}

function textInput(path, { id, label, placeholder, onChange, optional = true, multiline = false } = {}) {
  const attrs = { id: id || nextId("t"), "data-path": path, "aria-label": label, placeholder, autocomplete: "off", spellcheck: "false" };
  const el = multiline ? h("textarea", { ...attrs, rows: 2 }) : h("input", { type: "text", ...attrs });
  const read = () => {
    const v = valueAt(path);
    el.value = v === undefined || v === null ? "" : String(v);
  };
  el.addEventListener("input", () => {
    if (el.value === "" && optional) deletePath(state, path);
    else setPath(state, path, el.value);
    sync();
    onChange ? onChange() : changed();
  });
  bindings.push({ el, read });
  read();
  return el;
}

function selectInput(path, options, { id, label, onChange } = {}) {
  const el = h("select", { id: id || nextId("s"), "data-path": path, "aria-label": label }, options.map((o) => h("option", { value: o, text: o })));
  const read = () => {
    const v = valueAt(path);
    if (v !== undefined) el.value = String(v);
  };
  el.addEventListener("change", () => {
    setPath(state, path, el.value);
    markOverride(el, path);
    sync();
    onChange ? onChange() : changed();
  });
  bindings.push({ el, read });
  read();
  return el;
}

/** A JSON textarea bound to a path: shows an inline message while the JSON is invalid. */
function jsonInput(path, { rows = 3, label, optional = true, id = nextId("j") } = {}) {
  const msg = h("p", { class: "field-error", id: id + "-msg", hidden: true });
  const el = h("textarea", { id, rows, spellcheck: "false", "data-path": path, "aria-label": label, "aria-describedby": msg.id, class: "code" });
  const read = () => {
    const v = valueAt(path);
    el.value = v === undefined ? "" : JSON.stringify(v);
    msg.hidden = true;
  };
  el.addEventListener("input", () => {
    const text = el.value.trim();
    if (text === "" && optional) {
      deletePath(state, path);
      msg.hidden = true;
      markOverride(el, path);
      return changed();
    }
    try {
      setPath(state, path, JSON.parse(text));
      msg.hidden = true;
      markOverride(el, path);
      changed();
    } catch (e) {
      msg.textContent = `Invalid JSON: ${e.message}`;
      msg.hidden = false;
      showProblem({ title: "Invalid JSON", message: `${path.replace(/^config\./, "")}: ${e.message}` });
    }
  });
  bindings.push({ el, read });
  read();
  return h("div", { class: "json-field" }, el, msg);
}

function checkboxInput(path, { label, id } = {}) {
  const el = h("input", { type: "checkbox", id, "data-path": path, "aria-label": label });
  const read = () => (el.checked = Boolean(valueAt(path)));
  el.addEventListener("change", () => {
    setPath(state, path, el.checked);
    markOverride(el, path);
    changed();
  });
  bindings.push({ el, read });
  read();
  return el;
}

function markOverride(el, path) {
  const field = el.closest(".field");
  if (!field) return;
  field.classList.toggle("overridden", isOverridden(path));
  const badge = field.querySelector(".default-note");
  if (badge) badge.hidden = !isOverridden(path);
}

// ------------------------------------------------------------------ controls (left column)

const wide = () => window.matchMedia("(min-width: 901px)").matches;

// Open or closed, per panel title, kept across rebuilds of the controls.
const openMemory = new Map();
function remembered(details, key, open) {
  details.open = openMemory.has(key) ? openMemory.get(key) : open;
  details.addEventListener("toggle", () => openMemory.set(key, details.open));
  return details;
}

function section(title, { id, open = true, note } = {}, ...children) {
  const d = h("details", { class: "panel", id }, h("summary", {}, h("h2", { text: title })), h("div", { class: "panel-body" }, note ? h("p", { class: "note", text: note }) : null, ...children));
  return remembered(d, id || title, open);
}

function buildControls() {
  const root = $("#controls");
  const focused = document.activeElement?.dataset?.path;
  fill(root);
  if (state.mode === "pipeline") buildPipelineControls(root);
  else if (state.mode === "multiquery") buildMultiControls(root);
  else buildBandsControls(root);
  // Quick controls in the outputs are bound too: re-read them.
  sync();
  if (focused) $(`#controls [data-path="${CSS.escape(focused)}"]`)?.focus();
}

function buildPipelineControls(root) {
  const qid = nextId("query");
  const nowId = nextId("now");
  const inputPanel = section(
    "Query and ranked lists",
    { id: "inputs-panel" },
    h("div", { class: "field" }, h("label", { for: qid, text: "Query" }), textInput("input.query", { id: qid, optional: false, multiline: true })),
    h("div", { class: "field-row" },
      h("div", { class: "field" }, h("label", { for: nowId, text: "Now (for step recency)" }), textInput("input.now", { id: nowId, placeholder: "ISO 8601 or epoch ms", onChange: () => changed() }))),
    contextFields(),
    listsTabs(),
  );
  root.append(inputPanel);
  root.append(metadataPanel());
  if (state.judgements) {
    const n = Object.values(state.judgements).filter((g) => g > 0).length;
    root.append(section("Judgements", { open: false }, h("p", { class: "note", text: `${n} documents are judged relevant for this query (CISI qrels). Unlisted documents count as not relevant.` })));
  }
  root.append(configPanel());
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
  const current = state.view.inputTab || "table";
  const buttons = tabs.map((t) => {
    const b = h("button", { type: "button", role: "tab", id: `tab-${t.key}`, "aria-controls": `tabpanel-${t.key}`, "aria-selected": String(t.key === current), tabindex: t.key === current ? "0" : "-1", text: t.label });
    b.addEventListener("click", () => select(t.key, true));
    return b;
  });
  tablist.append(...buttons);
  tablist.addEventListener("keydown", (e) => {
    const i = tabs.findIndex((t) => t.key === (state.view.inputTab || "table"));
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
    state.view.inputTab = key;
    buttons.forEach((b, i) => {
      const on = tabs[i].key === key;
      b.setAttribute("aria-selected", String(on));
      b.tabIndex = on ? 0 : -1;
      if (on && focus) b.focus();
    });
    const t = tabs.find((x) => x.key === key);
    fill(panels, h("div", { role: "tabpanel", id: `tabpanel-${key}`, "aria-labelledby": `tab-${key}`, class: "tab-panel" }, t.build()));
    writeUrl();
  }
  select(current, false);
  return h("div", { class: "lists-editor" }, tablist, panels);
}

/** "id" or "id score" per line. */
function listText(list) {
  if (!Array.isArray(list.ids)) return "";
  return list.ids.map((id, i) => (Array.isArray(list.scores) ? `${id} ${list.scores[i]}` : id)).join("\n");
}

const inputLists = () => (Array.isArray(state.input.lists) ? state.input.lists : []);
const inputItems = () => (state.input.items && typeof state.input.items === "object" && !Array.isArray(state.input.items) ? state.input.items : {});

function parseListText(text) {
  const lines = text.split("\n").map((l) => l.trim()).filter(Boolean);
  const ids = [];
  const scores = [];
  let withScore = 0;
  for (const line of lines) {
    const parts = line.split(/\s+/);
    const last = parts.at(-1);
    if (parts.length > 1 && last !== "" && Number.isFinite(Number(last))) {
      ids.push(parts.slice(0, -1).join(" "));
      scores.push(Number(last));
      withScore++;
    } else {
      ids.push(line);
    }
  }
  if (withScore > 0 && withScore < lines.length) throw new Error("give a score on every line or on none");
  return withScore ? { ids, scores } : { ids };
}

function listsTable() {
  const tbody = h("tbody");
  const table = h("table", { class: "lists-table" },
    h("caption", { class: "visually-hidden", text: "Ranked lists: name, weight and ids, best first" }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "List" }), h("th", { scope: "col", text: "Weight" }), h("th", { scope: "col", text: "Ids, best first (one per line, optional score)" }), h("th", { scope: "col" }, h("span", { class: "visually-hidden", text: "Remove" })))),
    tbody);
  const rebuild = () => {
    fill(tbody);
    inputLists().forEach((list, i) =>
      tbody.append(list && typeof list === "object" ? listRow(list, i, rebuild) : h("tr", {}, h("td", { class: "field-error", text: `List ${i + 1} is not an object: edit it in the JSON tab.` }))));
  };
  rebuild();
  const add = h("button", { type: "button", class: "secondary small", text: "+ Add a list" });
  add.addEventListener("click", () => {
    if (!Array.isArray(state.input.lists)) state.input.lists = [];
    const n = state.input.lists.length + 1;
    state.input.lists.push({ name: `list${n}`, ids: [] });
    rebuild();
    tbody.lastElementChild?.querySelector("input")?.focus();
    changed();
  });
  return h("div", {}, h("p", { class: "note", text: "Each list: its name, its weight (empty: 1), then its ids, best first, one per line with an optional score." }), h("div", { class: "table-scroll" }, table), add);
}

function listRow(list, i, rebuild) {
  const name = h("input", { type: "text", value: String(list.name ?? ""), "aria-label": `Name of list ${i + 1}`, "data-path": `input.lists.${i}.name`, spellcheck: "false" });
  name.addEventListener("input", () => {
    list.name = name.value;
    changed();
  });
  const weight = h("input", { type: "number", step: "any", min: 0, value: list.weight ?? "", placeholder: "weight: 1", "aria-label": `Weight of list ${list.name}`, "data-path": `input.lists.${i}.weight`, class: "narrow" });
  weight.addEventListener("input", () => {
    if (weight.value.trim() === "") delete list.weight;
    else if (Number.isFinite(Number(weight.value))) list.weight = Number(weight.value);
    changed();
  });
  const msg = h("p", { class: "field-error", hidden: true, id: nextId("lm") });
  const ids = h("textarea", { rows: 5, class: "code", spellcheck: "false", "aria-label": `Ids of list ${list.name}, best first`, "aria-describedby": msg.id, "data-path": `input.lists.${i}.ids` });
  ids.value = listText(list);
  ids.addEventListener("input", () => {
    try {
      const parsed = parseListText(ids.value);
      list.ids = parsed.ids;
      if (parsed.scores) list.scores = parsed.scores;
      else delete list.scores;
      msg.hidden = true;
      ids.removeAttribute("aria-invalid");
      changed();
      refreshMetadataSoon();
    } catch (e) {
      msg.textContent = e.message;
      msg.hidden = false;
      ids.setAttribute("aria-invalid", "true");
    }
  });
  const remove = h("button", { type: "button", class: "icon", "aria-label": `Remove list ${list.name}`, title: "Remove this list", text: "×" });
  remove.addEventListener("click", () => {
    state.input.lists.splice(i, 1);
    rebuild();
    changed();
  });
  return h("tr", {}, h("td", {}, name), h("td", {}, weight), h("td", {}, ids, msg), h("td", {}, remove));
}

function inputJsonEditor() {
  const id = nextId("json");
  const msg = h("p", { class: "field-error", id: id + "-msg", hidden: true, "data-json-error": "" });
  const ta = h("textarea", { id, rows: 14, class: "code", spellcheck: "false", "aria-describedby": msg.id });
  ta.value = JSON.stringify(state.input, null, 2);
  const apply = () => {
    let parsed;
    try {
      parsed = JSON.parse(ta.value);
    } catch (e) {
      msg.textContent = `Invalid JSON: ${e.message}`;
      msg.hidden = false;
      ta.setAttribute("aria-invalid", "true");
      showProblem({ title: "Invalid JSON", message: e.message, hint: "The input was not changed. Fix the JSON and apply it again." });
      return;
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
      msg.textContent = "The input must be a JSON object: { query, lists, items, now, context }.";
      msg.hidden = false;
      showProblem({ title: "Invalid input", message: msg.textContent });
      return;
    }
    msg.hidden = true;
    ta.removeAttribute("aria-invalid");
    state.input = parsed;
    if (!Array.isArray(state.input.lists)) state.input.lists = state.input.lists ?? [];
    changed();
    rebuildMetadata();
    notice("Input applied.");
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
    ta, msg, h("div", { class: "button-row" }, button, h("span", { class: "note", text: "Ctrl+Enter applies." })));
}

function trecImporter() {
  const id = nextId("trec");
  const qidId = nextId("qid");
  const msg = h("p", { class: "field-error", hidden: true });
  const ta = h("textarea", { id, rows: 10, class: "code", spellcheck: "false", placeholder: "qid Q0 docid rank score tag\n1 Q0 722 1 10.85 bm25\n1 Q0 722 1 0.63 dense" });
  const qid = h("input", { id: qidId, type: "text", class: "narrow", placeholder: "first", spellcheck: "false" });
  const replace = h("input", { type: "checkbox", checked: true, id: nextId("rep") });
  const importBtn = h("button", { type: "button", text: "Import lists" });
  importBtn.addEventListener("click", () => {
    try {
      // One list per run tag (the sixth column); the package parses each part.
      const parts = new Map();
      for (const line of ta.value.split("\n")) {
        const cols = line.trim().split(/\s+/);
        if (cols.length < 2) continue;
        const tag = cols[5] || "run";
        if (!parts.has(tag)) parts.set(tag, []);
        parts.get(tag).push(line);
      }
      if (parts.size === 0) throw new Error("paste at least one line: qid Q0 docid rank score tag");
      const lists = [];
      let chosen = qid.value.trim();
      for (const [tag, lines] of parts) {
        const run = lib.parseTrecRun(lines.join("\n"));
        if (!chosen) chosen = Object.keys(run)[0];
        const docs = run[chosen];
        if (!docs) continue;
        // Best first: by the run's score, descending (ties keep the parsed order).
        const entries = Object.entries(docs).sort((a, b) => b[1] - a[1]);
        lists.push({ name: tag, ids: entries.map((e) => e[0]), scores: entries.map((e) => e[1]) });
      }
      if (lists.length === 0) throw new Error(`no line for query ${chosen}`);
      if (replace.checked) state.input.lists = lists;
      else for (const l of lists) {
        const at = state.input.lists.findIndex((x) => x.name === l.name);
        if (at >= 0) state.input.lists[at] = l;
        else state.input.lists.push(l);
      }
      msg.hidden = true;
      changed();
      rebuildMetadata();
      notice(`Imported ${lists.length} list(s) for query ${chosen}: ${lists.map((l) => `${l.name} (${l.ids.length})`).join(", ")}.`);
    } catch (e) {
      const d = describeError(e);
      msg.textContent = d.code ? `${d.code} (${d.field}): ${d.message}` : d.message;
      msg.hidden = false;
      showProblem(d.code ? d : { title: "The TREC run could not be imported", message: d.message });
    }
  });
  const row = [importBtn];
  const q = sample ? sample.queries.find((x) => `cisi-${x.id}` === state.preset) : null;
  if (q) {
    const fillBtn = h("button", { type: "button", class: "secondary", text: `Paste CISI Q${q.id}'s runs` });
    fillBtn.addEventListener("click", () => {
      ta.value = sample.runs.flatMap((name) => q.runs[name].ids.map((doc, i) => `${q.id} Q0 ${doc} ${i + 1} ${q.runs[name].scores[i]} ${name}`)).join("\n");
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
      h("div", { class: "field checkbox" }, replace, h("label", { for: replace.id, text: "Replace all lists" }))),
    msg,
    h("div", { class: "button-row" }, ...row));
}

// ---- candidate metadata

const META_FIELDS = [
  { key: "name", label: "name", kind: "text" },
  { key: "type", label: "type", kind: "text" },
  { key: "summary", label: "summary", kind: "text" },
  { key: "content", label: "content", kind: "text" },
  { key: "modifiedAt", label: "modifiedAt", kind: "time" },
  { key: "fiscalYear", label: "fiscalYear", kind: "number" },
  { key: "crossEncoderScore", label: "crossEncoderScore", kind: "number" },
];

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
  for (const id of ids) {
    const item = inputItems()[id] || {};
    const cells = META_FIELDS.map((f) => {
      const v = item[f.key];
      const el = h("input", {
        type: f.kind === "number" ? "number" : "text",
        step: f.kind === "number" ? "any" : undefined,
        value: v === undefined ? "" : String(v),
        "aria-label": `${f.label} of ${id}`,
        class: f.key === "name" || f.key === "summary" || f.key === "content" ? "wide" : "narrow",
        spellcheck: "false",
      });
      el.addEventListener("input", () => {
        if (inputItems() !== state.input.items) state.input.items = {};
        const it = (state.input.items[id] ??= {});
        const text = el.value;
        if (text.trim() === "") delete it[f.key];
        else if (f.kind === "number") {
          if (!Number.isFinite(Number(text))) return;
          it[f.key] = Number(text);
        } else if (f.kind === "time" && /^-?\d+(\.\d+)?$/.test(text.trim())) it[f.key] = Number(text);
        else it[f.key] = text;
        if (Object.keys(it).length === 0) delete state.input.items[id];
        changed();
      });
      return h("td", {}, el);
    });
    body.append(h("tr", {}, h("th", { scope: "row", class: "id-cell", text: id }), cells));
  }
  fill(metadataHost, h("div", { class: "table-scroll" }, h("table", { class: "meta-table" }, h("caption", { class: "visually-hidden", text: "Candidate metadata" }), h("thead", {}, head), body)));
}

// ---- configuration form

function configPanel() {
  const groups = CONFIG_GROUPS.map((g) => configGroup(g));
  const jsonId = nextId("cfg");
  const msg = h("p", { class: "field-error", hidden: true });
  const ta = h("textarea", { id: jsonId, rows: 10, class: "code", spellcheck: "false" });
  const refresh = () => (ta.value = JSON.stringify(state.config, null, 2));
  refresh();
  const apply = h("button", { type: "button", text: "Apply config JSON" });
  apply.addEventListener("click", () => {
    try {
      const parsed = JSON.parse(ta.value || "{}");
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new SyntaxError("the config must be a JSON object");
      state.config = parsed;
      msg.hidden = true;
      changed({ rebuildControls: true });
      notice("Configuration applied.");
    } catch (e) {
      msg.textContent = `Invalid JSON: ${e.message}`;
      msg.hidden = false;
      showProblem({ title: "Invalid JSON", message: e.message });
    }
  });
  const effective = h("button", { type: "button", class: "secondary", text: "Fill with the effective config" });
  effective.addEventListener("click", () => {
    if (result?.effective) ta.value = JSON.stringify(result.effective, null, 2);
  });
  const reset = h("button", { type: "button", class: "secondary", text: "Reset to seed defaults" });
  reset.addEventListener("click", () => {
    state.config = {};
    changed({ rebuildControls: true });
    notice("Every configuration value is back at the seed default.");
  });
  const jsonBox = h("details", { class: "sub" }, h("summary", { text: "Edit the overrides as JSON" }),
    h("label", { for: jsonId, class: "block-label", text: "Only the values set here differ from the seed defaults." }), ta, msg, h("div", { class: "button-row" }, apply, effective));
  jsonBox.addEventListener("toggle", refresh);
  return section("Configuration", { id: "config-panel", open: wide(), note: "Every PipelineConfig value, starting at the seed defaults. Changed values are marked; ↺ restores the default." }, ...groups, jsonBox, h("div", { class: "button-row" }, reset));
}

function configGroup(group) {
  const body = h("div", { class: "fields" });
  const renderFields = () => {
    fill(body);
    for (const f of group.fields) {
      if (f.when && !f.when(state, defaults)) continue;
      body.append(configField(f, renderFields));
    }
  };
  renderFields();
  return remembered(h("details", { class: "sub" }, h("summary", { text: group.title }), body), `group:${group.key}`, Boolean(group.open));
}

function configField(f, rerender) {
  const path = `config.${f.path}`;
  const id = nextId("c");
  let control;
  const after = f.rebuild ? () => { changed(); rerender(); } : undefined;
  if (f.type === "select") control = selectInput(path, f.options, { id, onChange: f.onSelect ? () => { f.onSelect(state); changed({ rebuildControls: true }); } : after });
  else if (f.type === "json") control = jsonInput(path, { id, optional: f.optional !== false });
  else if (f.type === "bool") control = checkboxInput(path, { id });
  else control = numberInput(path, { id, min: f.min, max: f.max, step: f.step || "any", optional: f.optional });
  const def = getPath(defaults, f.path);
  const resetBtn = h("button", { type: "button", class: "icon reset", title: "Restore the default", "aria-label": `Restore the default of ${f.path}`, text: "↺" });
  resetBtn.addEventListener("click", () => {
    deletePath(state, path);
    sync();
    markOverride(control.tagName === "DIV" ? control.querySelector("textarea") : control, path);
    changed();
    if (f.rebuild || f.onSelect) buildControls();
  });
  const note = h("span", { class: "default-note", hidden: !isOverridden(path) }, `default ${def === undefined ? "none" : typeof def === "object" ? JSON.stringify(def) : fmtp(def)} `, resetBtn);
  const field = h("div", { class: ["field", f.type === "bool" ? "checkbox" : null, isOverridden(path) ? "overridden" : null] },
    h("label", { for: id, text: f.label }), control, note, f.help ? h("p", { class: "help", text: f.help }) : null);
  return field;
}

// ---- multi-query controls (seed 001)

function buildMultiControls(root) {
  const id = nextId("mq");
  const msg = h("p", { class: "field-error", hidden: true });
  const ta = h("textarea", { id, rows: 16, class: "code", spellcheck: "false" });
  ta.value = JSON.stringify(state.multi.queries, null, 1).replace(/\{\n\s+/g, "{ ").replace(/,\n\s+"/g, ', "').replace(/\n\s+\}/g, " }");
  const apply = h("button", { type: "button", id: "apply-multi-json", text: "Apply queries" });
  apply.addEventListener("click", () => {
    try {
      const parsed = JSON.parse(ta.value);
      if (!Array.isArray(parsed)) throw new SyntaxError("expected an array of queries, each an array of { id, score, timestamp? }");
      state.multi.queries = parsed;
      msg.hidden = true;
      changed();
    } catch (e) {
      msg.textContent = `Invalid JSON: ${e.message}`;
      msg.hidden = false;
      showProblem({ title: "Invalid JSON", message: e.message });
    }
  });
  root.append(section("Queries and their hits", { note: "One array per query, hits best first: { id, score, timestamp? }. fuseMultiQuery keeps the hits at or above similarityThreshold." },
    h("label", { for: id, class: "block-label", text: "Queries (JSON)" }), ta, msg, h("div", { class: "button-row" }, apply)));
  const fields = MULTI_OPTIONS.map((f) => {
    const path = `multi.options.${f.path}`;
    const fid = nextId("mo");
    const control = f.type === "select" ? selectInput(path, f.options, { id: fid }) : numberInput(path, { id: fid, min: f.min, max: f.max, step: f.step || "any", optional: true, placeholder: `default ${f.default}` });
    return h("div", { class: "field" }, h("label", { for: fid, text: f.label }), control, f.help ? h("p", { class: "help", text: f.help }) : null);
  });
  root.append(section("fuseMultiQuery options", { note: "Empty fields use the seed defaults." }, h("div", { class: "fields" }, fields)));
}

// ---- bands controls (seed 002)

function buildBandsControls(root) {
  const id = nextId("scores");
  const msg = h("p", { class: "field-error", hidden: true });
  const ta = h("input", { id, type: "text", class: "code", spellcheck: "false", value: state.bands.scores.join(", ") });
  ta.addEventListener("input", () => {
    const parts = ta.value.split(/[\s,;]+/).filter(Boolean);
    const nums = parts.map(Number);
    if (nums.some((n) => !Number.isFinite(n))) {
      msg.textContent = "Scores are numbers separated by commas or spaces.";
      msg.hidden = false;
      return;
    }
    msg.hidden = true;
    state.bands.scores = nums;
    changed();
  });
  root.append(section("Scores to classify", { note: "Calibrated scores in [0, 1], classified by classifyBand with the floors below." },
    h("label", { for: id, class: "block-label", text: "Scores" }), ta, msg));
  // classifyBand takes the two floors (profiles need a pipeline context).
  const group = CONFIG_GROUPS.find((g) => g.key === "bands");
  const fields = group.fields.filter((f) => f.path !== "bands.profiles").map((f) => configField(f, () => {}));
  root.append(section("Band floors", {}, h("div", { class: "fields" }, fields)));
}

// ------------------------------------------------------------------ outputs (right column)

const out = {}; // containers of the current outputs

function card(id, title, ...children) {
  return h("section", { class: "card", id, "aria-labelledby": `${id}-title` }, h("h2", { id: `${id}-title`, text: title }), ...children);
}

function figureBox(id, label) {
  const fig = h("figure", { class: "chart", id, tabindex: "0", role: "group", "aria-label": `${label}. Use the arrow keys to step through the results.` });
  return fig;
}

function buildOutputs() {
  const root = $("#outputs");
  fill(root);
  for (const k of Object.keys(out)) delete out[k];
  cursors.clear();
  chartCache.clear();
  if (state.mode === "pipeline") buildPipelineOutputs(root);
  else if (state.mode === "multiquery") buildMultiOutputs(root);
  else buildBandsOutputs(root);
  sync();
}

function quickControls(items) {
  return h("div", { class: "quick" }, items.map(({ label, path, min, max, step, note }) => {
    const id = nextId("q");
    const num = numberInput(path, { id, min, step: "any" });
    const range = rangeInput(path, { min, max, step, label: `${label} slider` });
    return h("div", { class: "quick-item" }, h("label", { for: id, text: label }), h("div", { class: "quick-inputs" }, range, num), note ? h("span", { class: "help", text: note }) : null);
  }));
}

function buildPipelineOutputs(root) {
  out.outcome = h("div", { class: "outcome-box" });
  out.summary = h("div", { class: "summary" });
  root.append(card("result", "Result", out.outcome, out.summary));

  out.stageLegend = h("div", { class: "legend" });
  const dropped = h("input", { type: "checkbox", id: "show-dropped", checked: state.view.showDropped });
  dropped.addEventListener("change", () => {
    state.view.showDropped = dropped.checked;
    renderOutputs();
    writeUrl();
  });
  out.stages = figureBox("stage-chart", "The pipeline, stage by stage");
  root.append(card("stages", "The pipeline, stage by stage",
    h("p", { class: "note", text: "Each result's value after every stage, from result.explain. Hover a bar, or focus the chart and use the arrow keys, to see the contributing lists and ranks." }),
    h("div", { class: "toolbar" }, out.stageLegend, h("span", { class: "checkbox" }, dropped, h("label", { for: "show-dropped", text: "Show dropped candidates (faded)" }))),
    out.stages));

  out.curveControls = h("div", {});
  out.curve = figureBox("curve-chart", "Calibration curve");
  out.curveNote = h("p", { class: "note" });
  root.append(card("calibration", "Calibration curve", out.curveNote, out.curveControls, out.curve));

  out.relFig = h("figure", { class: "chart", id: "relative-chart", tabindex: "0", role: "group", "aria-label": "Max-normalized scores. Use the arrow keys to step through the results." });
  out.absFig = h("figure", { class: "chart", id: "absolute-chart", tabindex: "0", role: "group", "aria-label": "Calibrated scores. Use the arrow keys to step through the results." });
  out.relative = h("div", { class: "pair" }, out.relFig, out.absFig);
  root.append(card("relative", "Relative vs absolute",
    h("p", { class: "note", text: "The same results: max-normalization, normalize(scores, \"max\") of the scores before normalization, always puts the best at 1.0 however weak it is; the calibrated confidence keeps an absolute meaning across queries." }),
    out.relative));

  out.ranking = h("div", {});
  root.append(card("ranking", "Final ranking", out.ranking));

  if (state.judgements && sample) {
    out.evaluation = h("div", {});
    root.append(card("evaluation", "Judgements: calibration quality, fitting and fusion tuning", out.evaluation));
    buildEvaluationSkeleton();
    out.confidence = confidencePanel({
      lib,
      sample,
      getState: () => state,
      changed: () => changed({ rebuildControls: true }),
      notice,
      problem: (e) => showProblem(e.code ? { title: "The package rejected the fit", code: e.code, field: e.field, message: e.message } : describeError(e)),
    });
    root.append(card("query-confidence", "Query confidence: know when nothing relevant was found", out.confidence.root));
  }
}

function renderCurveControls() {
  const cal = result?.effective?.calibration || defaults.calibration;
  // Slider ranges follow the raw scores (not the threshold, so a drag never rescales).
  const rawMax = Math.max(0, ...(result?.rows || []).filter((x) => x.explain).map((x) => x.explain.normalized));
  const tMax = cal.method === "sigmoid" ? Math.max(niceMax(rawMax * 2), niceMax(cal.threshold)) : 0;
  const sMax = cal.method === "sigmoid" ? Math.max(400, niceMax(cal.steepness)) : 0;
  const key = `${cal.method}:${tMax}:${sMax}`;
  if (out.curveControls.dataset.key === key) return;
  out.curveControls.dataset.key = key;
  const items = [];
  if (cal.method === "sigmoid") {
    items.push({ label: "Sigmoid threshold", path: "config.calibration.threshold", min: 0, max: tMax, step: tMax / 500 });
    items.push({ label: "Sigmoid steepness", path: "config.calibration.steepness", min: 1, max: sMax, step: 1 });
  }
  items.push({ label: "High floor (hit ≥)", path: "config.bands.highFloor", min: 0, max: 1, step: 0.01 });
  items.push({ label: "Degraded floor (degraded ≥)", path: "config.bands.degradedFloor", min: 0, max: 1, step: 0.01 });
  items.push({ label: "minConfidence (drop below)", path: "config.minConfidence", min: 0, max: 1, step: 0.01 });
  const active = document.activeElement?.dataset?.path;
  const wasRange = document.activeElement?.type === "range";
  fill(out.curveControls, quickControls(items));
  if (cal.method !== "sigmoid") {
    out.curveControls.prepend(h("p", { class: "note", text: `Fitted ${cal.method} calibration in use${cal.method === "platt" ? `: a = ${fmt(cal.a)}, b = ${fmt(cal.b)}` : ` (${cal.x.length} knots)`}. Choose "sigmoid" in Configuration › Calibration to go back.` }));
  }
  if (active) $$(`[data-path="${CSS.escape(active)}"]`, out.curveControls).find((el) => (el.type === "range") === wasRange)?.focus();
}

function niceMax(x) {
  if (!(x > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= x) return m * p;
  return 10 * p;
}

function recompute() {
  // A sigmoid parameter set by hand on the default calibration needs its tag.
  if (state.config.calibration && !state.config.calibration.method) state.config.calibration.method = "sigmoid";
  try {
    if (state.mode === "pipeline") {
      result = compute.pipeline(lib, state);
      result.curveDomain = curveDomain(result);
      result.curvePoints = compute.curve(lib, result.effective.calibration, gridOver(result.curveDomain, result.effective.calibration));
      if (state.judgements && sample) {
        // Band floors do not change the sample's scores: skip the rerun while they move.
        const key = JSON.stringify([{ ...state.config, bands: undefined }, state.view.bins, state.view.binStrategy]);
        if (!evaluation || evaluation.key !== key) {
          evaluation = compute.sampleEvaluation(lib, sample, state.config, { bins: state.view.bins, strategy: state.view.binStrategy });
          evaluation.key = key;
        }
      }
    } else if (state.mode === "multiquery") {
      result = compute.multi(lib, state);
    } else {
      result = compute.bands(lib, state);
    }
    clearProblem();
    renderOutputs();
  } catch (e) {
    showProblem(describeError(e));
  }
  writeUrl();
}

/** The raw-score axis of the calibration curve: every shown result and the threshold. */
function curveDomain(r) {
  const raws = r.rows.filter((x) => x.explain).map((x) => x.explain.normalized);
  const cal = r.effective.calibration;
  let lo = Math.min(0, ...raws);
  let hi = Math.max(...raws, 0);
  if (cal.method === "sigmoid") hi = Math.max(hi, cal.threshold * 2);
  if (cal.method === "isotonic") {
    lo = Math.min(lo, cal.x[0]);
    hi = Math.max(hi, cal.x.at(-1));
  }
  if (!(hi > lo)) hi = lo + 1;
  return [lo, hi + (hi - lo) * 0.06];
}

/** 241 evenly spaced raw scores (plus the isotonic knots), where the curve is evaluated. */
function gridOver([lo, hi], cal) {
  const xs = Array.from({ length: 241 }, (_, i) => lo + ((hi - lo) * i) / 240);
  if (cal.method === "isotonic") xs.push(...cal.x.filter((x) => x >= lo && x <= hi));
  return [...new Set(xs)].sort((a, b) => a - b);
}

function renderOutputs() {
  if (!result) return;
  if (result.mode === "pipeline" && out.summary) renderPipeline();
  else if (result.mode === "multiquery" && out.multi) renderMulti();
  else if (result.mode === "bands" && out.bands) renderBands();
  sync();
}

function width(el, min = 260) {
  return Math.max(min, Math.floor(el.clientWidth || el.parentElement?.clientWidth || 600));
}

function bandChip(band) {
  return h("span", { class: `chip band-${band}`, "data-band": band, text: band });
}

function renderPipeline() {
  const r = result;
  const shown = state.view.showDropped ? r.rows : r.rows.filter((x) => x.returned);
  const rows = shown.filter((x) => x.explain);
  const listNames = [...new Set(inputLists().map((l) => String(l?.name)))];

  // The query-level outcome, then query confidence, bands, stats, metrics.
  renderOutcome(out.outcome, { lib, state, result: r, seedSigmoid: { threshold: defaults.calibration.threshold, steepness: defaults.calibration.steepness } });
  const c = r.out.confidence;
  const s = r.out.stats;
  const metric = (key, label, value, hint) => h("div", { class: "metric", "data-key": key, "data-value": full(value) }, h("span", { class: "metric-label", text: label }), h("span", { class: "metric-value", text: fmt(value, 3) }), hint ? h("span", { class: "metric-hint", text: hint }) : null);
  const figures = [
    metric("weightedTop5", "Query confidence (weighted top-5)", c.weightedTop5),
    metric("expectedPrecision", "Expected precision", c.expectedPrecision, `mean of the top ${c.k}`),
    metric("atLeastOneRelevant", "P(at least one relevant)", c.atLeastOneRelevant, r.out.outcome.source === "model" ? "from the fitted model" : `over the top ${c.k}`),
  ];
  if (r.metrics) figures.push(metric("ndcg10", "nDCG@10 vs judgements", r.metrics.fused["ndcg@10"], listMetricsHint(r.metrics)));
  fill(out.summary,
    h("div", { class: "metrics" }, figures),
    h("p", { class: "stats", "data-stats": JSON.stringify(s) },
      `${s.returned} returned of ${s.candidates} candidates (${s.inSeveralLists} in several lists): `,
      bandChip("hit"), ` ${s.hits}  `, bandChip("degraded"), ` ${s.degraded}  `, bandChip("miss"), ` ${s.misses}. `,
      `Dropped: ${s.beyondTopK} beyond topK, ${s.beyondCandidateLimit} beyond the rerank limit, ${s.belowMinRelevance} below minRelevance, ${s.belowMinConfidence} below minConfidence, ${s.beyondTopN} beyond topN.`,
      s.bandProfile ? ` Band profile: ${s.bandProfile}.` : ""));

  // Stage chart.
  fill(out.stageLegend, listNames.map((n, i) => h("span", { class: "legend-item" }, h("span", { class: "swatch", "data-color": i }), n)),
    charts.BANDS.map((b) => h("span", { class: "legend-item" }, h("span", { class: `swatch band-${b}` }), b)));
  $$(".swatch[data-color]", out.stageLegend).forEach((el) => (el.style.background = charts.LIST_COLORS[Number(el.dataset.color) % charts.LIST_COLORS.length]));
  if (rows.length === 0) {
    fill(out.stages, h("p", { class: "empty", text: r.out.results.length ? "explain is off: turn it on to see the stages." : "No candidate reached calibration." }));
  } else {
    const w = width(out.stages);
    const cols = w >= 1100 ? 3 : w >= 640 ? 2 : 1;
    const panelWidth = Math.floor((w - (cols - 1) * 16) / cols);
    const panels = charts.stagePanels(rows, { width: panelWidth, listNames, effective: r.effective, floors: r.floors, cache: chartCache });
    fill(out.stages, h("div", { class: "panels", "data-cols": cols }, panels.map((p) => h("div", { class: "panel-chart", "data-panel": p.key }, h("h3", { text: p.title }), h("p", { class: "panel-note", text: p.note }), p.svg))));
    cursor(out.stages, rows.map((x) => x.id), describeRow);
  }

  // Calibration curve.
  const cal = r.effective.calibration;
  out.curveNote.textContent =
    cal.method === "sigmoid"
      ? `1 / (1 + exp(−${fmtp(cal.steepness)} · (raw − ${fmtp(cal.threshold)}))), evaluated by the package over the raw-score axis; the results sit on it, coloured by band. Move a floor or the threshold: the bands re-colour at once.`
      : `The fitted ${cal.method} calibration, evaluated by the package (applyCalibration) over the raw-score axis.`;
  if (r.floors.profile) out.curveNote.textContent += ` Band profile “${r.floors.profile}” is in force (floors ${fmtp(r.floors.highFloor)} / ${fmtp(r.floors.degradedFloor)}); the floor sliders set the default floors.`;
  renderCurveControls();
  const cw = width(out.curve);
  fill(out.curve, charts.calibrationCurve({
    points: r.curvePoints,
    rows,
    width: cw,
    floors: r.floors,
    minConfidence: r.effective.minConfidence,
    threshold: cal.method === "sigmoid" ? cal.threshold : undefined,
    domain: r.curveDomain,
    labelPoints: rows.filter((x) => x.returned).length <= 6,
  }));
  cursor(out.curve, rows.map((x) => x.id), describeRow);

  // Relative vs absolute.
  const rw = width(out.relative, 300);
  const pairCols = rw >= 620 ? 2 : 1;
  const pw = Math.floor((rw - (pairCols - 1) * 16) / pairCols);
  const ra = charts.relativeAbsolute(rows, { width: pw, floors: r.floors, cache: chartCache });
  fill(out.relFig, h("figcaption", { text: "Relative: normalize(raw, \"max\")" }), ra.relative);
  fill(out.absFig, h("figcaption", { text: "Absolute: calibrated confidence" }), ra.absolute);
  out.relative.dataset.cols = pairCols;
  cursor(out.relFig, rows.map((x) => x.id), describeRow);
  cursor(out.absFig, rows.map((x) => x.id), describeRow);

  renderRanking();
  if (out.evaluation) renderEvaluation();
  if (out.confidence) out.confidence.render();
}

function listMetricsHint(m) {
  return Object.entries(m).filter(([k]) => k !== "fused").map(([k, v]) => `${k} ${fmt(v["ndcg@10"], 3)}`).join(" · ");
}

function nameOf(id) {
  const name = inputItems()[id]?.name;
  return typeof name === "string" ? name : undefined;
}

function describeRow(id) {
  const row = result.rows.find((x) => x.id === id);
  if (!row) return [id];
  const x = row.explain;
  const lines = [];
  const name = nameOf(id);
  lines.push({ strong: name && name !== id ? `${id} · ${name}` : id });
  lines.push(row.returned ? `#${row.rank}, ${row.band}, calibrated ${fmt(row.score)}` : `dropped (${row.reason}), ${row.band}, calibrated ${fmt(row.score)}`);
  if (x) {
    for (const c of x.contributions) lines.push(`${c.list} rank ${c.rank}${c.listScore !== undefined ? ` (score ${fmt(c.listScore)})` : ""}, weight ${fmtp(c.weight)}: +${fmt(c.contribution)}`);
    lines.push(`fused ${fmt(x.fused)} · ×${fmtp(x.recencyMultiplier)} recency → ${fmt(x.afterRecency)}`);
    if (x.rerank.method === "heuristic") lines.push(`heuristic ×${fmtp(x.rerank.factors.multiplier)} → ${fmt(x.afterRerank)}`);
    else if (x.rerank.method === "cross_encoder") lines.push(`cross-encoder ${fmt(x.rerank.raw)} → ${fmt(x.rerank.normalized)} ×${fmtp(x.rerankRecencyMultiplier)} → ${fmt(x.afterRerank)}`);
    lines.push(`normalized ${fmt(x.normalized)} → calibrated ${fmt(x.calibrated)}`);
  }
  if (row.judgement !== undefined) lines.push(row.judgement > 0 ? "judged relevant" : "not judged relevant");
  return lines;
}

function renderRanking() {
  const r = result;
  if (r.out.results.length === 0) {
    fill(out.ranking, h("p", { class: "empty", text: "No result passed the filters (minRelevance, minConfidence). Lower minConfidence or the sigmoid threshold to see results." }));
    return;
  }
  const hasJudgements = Boolean(state.judgements);
  const head = h("tr", {},
    ["#", "id", "name", "confidence · band"].map((t) => h("th", { scope: "col", text: t })),
    hasJudgements ? h("th", { scope: "col", text: "judged" }) : null,
    ["fused", "raw score"].map((t) => h("th", { scope: "col", class: "num", text: t })));
  const body = h("tbody");
  for (const row of r.rows.filter((x) => x.returned)) {
    const x = row.explain;
    const bar = h("span", { class: `bar band-${row.band}` });
    bar.style.width = `${Math.max(0, Math.min(1, row.score)) * 100}%`;
    const tr = h("tr", {
      "data-id": row.id,
      "data-rank": row.rank,
      "data-score": full(row.score),
      "data-band": row.band,
      "data-fused": x ? full(x.fused) : undefined,
      "data-after-recency": x ? full(x.afterRecency) : undefined,
      "data-after-rerank": x ? full(x.afterRerank) : undefined,
      "data-normalized": x ? full(x.normalized) : undefined,
      "data-judgement": row.judgement,
    },
    h("td", { class: "num", text: row.rank }),
    h("th", { scope: "row", class: "id-cell", text: row.id }),
    h("td", { class: "name-cell", text: nameOf(row.id) || "" }),
    h("td", { class: "score-cell" }, h("span", { class: "score-line" }, h("span", { class: "score-num", text: fmt(row.score, 4) }), bandChip(row.band)), h("span", { class: "bar-track" }, bar)),
    hasJudgements ? h("td", { class: ["judged", row.judgement > 0 ? "yes" : null], text: row.judgement > 0 ? "✓ relevant" : "not relevant" }) : null,
    h("td", { class: "num", text: x ? fmt(x.fused) : "" }),
    h("td", { class: "num", text: x ? fmt(x.normalized) : "" }));
    body.append(tr);
  }
  fill(out.ranking, h("div", { class: "table-scroll" }, h("table", { class: "ranking", id: "ranking-table" }, h("caption", { class: "visually-hidden", text: "Final ranking" }), h("thead", {}, head), body)));
}

// ---- judgements: reliability, fitting, band proposal, fusion tuning

const evalUi = {};

function buildEvaluationSkeleton() {
  const binsId = nextId("bins");
  const stratId = nextId("strat");
  const bins = h("select", { id: binsId }, [5, 10, 15, 20].map((n) => h("option", { value: n, text: n, selected: n === state.view.bins })));
  const strategy = h("select", { id: stratId }, ["uniform", "quantile"].map((s) => h("option", { value: s, text: s, selected: s === state.view.binStrategy })));
  const onBins = () => {
    state.view.bins = Number(bins.value);
    state.view.binStrategy = strategy.value;
    recompute();
  };
  bins.addEventListener("change", onBins);
  strategy.addEventListener("change", onBins);
  evalUi.caption = h("p", { class: "note" });
  evalUi.metrics = h("div", { class: "metrics" });
  evalUi.chart = h("figure", { class: "chart", id: "reliability-chart", tabindex: "0", "aria-label": "Reliability diagram" });
  evalUi.table = h("div", {});

  const fitPlatt = h("button", { type: "button", id: "fit-platt", text: "Fit Platt scaling" });
  const fitIso = h("button", { type: "button", id: "fit-isotonic", text: "Fit isotonic regression" });
  const restore = h("button", { type: "button", id: "restore-sigmoid", class: "secondary", text: "Back to the preset's sigmoid" });
  evalUi.fitNote = h("p", { class: "note", "aria-live": "polite" });
  fitPlatt.addEventListener("click", () => fit("platt"));
  fitIso.addEventListener("click", () => fit("isotonic"));
  restore.addEventListener("click", () => {
    const base = buildPreset(state.preset, sample);
    state.config.calibration = base.config.calibration;
    if (!state.config.calibration) delete state.config.calibration;
    evalUi.fitNote.textContent = "Calibration restored.";
    changed({ rebuildControls: true });
  });

  const targetId = nextId("target");
  evalUi.target = h("input", { id: targetId, type: "number", min: 0.05, max: 1, step: 0.05, value: 0.85, class: "narrow" });
  const propose = h("button", { type: "button", id: "propose-bands", text: "Propose band floors" });
  evalUi.proposal = h("div", { "aria-live": "polite" });
  propose.addEventListener("click", proposeFloors);

  evalUi.optimize = buildOptimizer({
    lib,
    getEvaluation: () => evaluation,
    getState: () => state,
    changed: () => changed({ rebuildControls: true }),
    notice,
    problem: (e) => showProblem(e.code ? { title: "The package rejected the search", code: e.code, field: e.field, message: e.message } : describeError(e)),
  });

  fill(out.evaluation,
    evalUi.caption,
    evalUi.metrics,
    h("h3", { text: "Reliability diagram" }),
    h("div", { class: "field-row" },
      h("div", { class: "field" }, h("label", { for: binsId, text: "Bins" }), bins),
      h("div", { class: "field" }, h("label", { for: stratId, text: "Strategy" }), strategy)),
    h("div", { class: "split" }, evalUi.chart, evalUi.table),
    h("h3", { text: "Fit the calibration from the judgements" }),
    h("p", { class: "note", text: "Fits on (raw score before calibration, relevant or not) for every candidate of every sample query; the fitted model becomes the pipeline's calibration." }),
    h("div", { class: "button-row" }, fitPlatt, fitIso, restore),
    evalUi.fitNote,
    h("h3", { text: "Propose band floors" }),
    h("div", { class: "field-row" }, h("div", { class: "field fixed" }, h("label", { for: targetId, text: "Target precision of the hit band" }), evalUi.target), h("div", { class: "button-row" }, propose)),
    evalUi.proposal,
    h("h3", { text: "Optimize fusion" }),
    evalUi.optimize.root);
}

function renderEvaluation() {
  const ev = evaluation;
  if (!ev) return;
  const positives = ev.labels.filter((l) => l === 1).length;
  evalUi.caption.textContent = `All ${sample.queries.length} CISI sample queries through the current configuration: ${ev.labels.length} candidates (the topK pool of each query), ${positives} judged relevant.`;
  const rep = ev.report;
  const metric = (key, label, value) => h("div", { class: "metric small", "data-key": key, "data-value": full(value) }, h("span", { class: "metric-label", text: label }), h("span", { class: "metric-value", text: fmt(value, 3) }));
  fill(evalUi.metrics,
    metric("ece", "ECE", rep.ece), metric("mce", "MCE", rep.mce), metric("brier", "Brier", rep.brier), metric("logLoss", "Log loss", rep.logLoss),
    ...Object.entries(ev.metrics).map(([name, m]) => metric(`ndcg-${name}`, `nDCG@10 ${name === "fused" ? "pipeline" : name}`, m["ndcg@10"])));
  fill(evalUi.chart, charts.reliability(rep, { width: width(evalUi.chart), cache: chartCache }));
  fill(evalUi.table, h("div", { class: "table-scroll" }, h("table", { class: "bins", id: "bins-table" },
    h("caption", { text: "Reliability bins" }),
    h("thead", {}, h("tr", {}, ["bin", "n", "mean conf.", "relevant"].map((t, i) => h("th", { scope: "col", class: i ? "num" : null, text: t })))),
    h("tbody", {}, rep.bins.map((b) => h("tr", { "data-count": b.count, "data-mean": full(b.meanConfidence), "data-fraction": full(b.fractionPositive) },
      h("td", { text: `${fmt(b.lower, 2)}–${fmt(b.upper, 2)}` }), h("td", { class: "num", text: b.count }), h("td", { class: "num", text: b.count ? fmt(b.meanConfidence, 3) : "–" }), h("td", { class: "num", text: b.count ? fmt(b.fractionPositive, 3) : "–" })))))));
}

function fit(method) {
  const ev = evaluation;
  if (!ev) return;
  try {
    const model = method === "platt" ? lib.fitPlatt(ev.raws, ev.labels) : lib.fitIsotonic(ev.raws, ev.labels);
    state.config.calibration = model;
    evalUi.fitNote.textContent = method === "platt" ? `Platt: a = ${fmt(model.a)}, b = ${fmt(model.b)}, now the pipeline's calibration.` : `Isotonic: ${model.x.length} knots, now the pipeline's calibration.`;
    changed({ rebuildControls: true });
  } catch (e) {
    showProblem(describeError(e));
  }
}

function proposeFloors() {
  const ev = evaluation;
  if (!ev) return;
  try {
    const target = Number(evalUi.target.value);
    const p = lib.proposeBands(ev.probs, ev.labels, { targetPrecision: target });
    const m = (b) => (b === null || b === undefined ? "–" : fmt(b, 3));
    const apply = h("button", { type: "button", id: "apply-bands", text: `Apply floors ${fmtp(p.highFloor)} / ${fmtp(p.degradedFloor)}` });
    apply.addEventListener("click", () => {
      setPath(state, "config.bands.highFloor", p.highFloor);
      setPath(state, "config.bands.degradedFloor", p.degradedFloor);
      changed({ rebuildControls: true });
      notice("Band floors applied.");
    });
    fill(evalUi.proposal,
      h("p", { "data-high-floor": full(p.highFloor), "data-degraded-floor": full(p.degradedFloor) },
        `High floor ${fmtp(p.highFloor)}, degraded floor ${fmtp(p.degradedFloor)} (${p.count} judged, ${p.positives} relevant; target ${fmt(p.targetPrecision, 2)} ${p.targetReached ? "reached" : "not reached"}). `,
        `Held out over ${p.folds.length} folds: hit precision ${m(p.heldOut.hit.precision)}, recall ${m(p.heldOut.hit.recall)}; degraded precision ${m(p.heldOut.degraded.precision)}.`),
      p.warnings.length ? h("ul", { class: "warnings" }, p.warnings.map((w) => h("li", { text: w }))) : null,
      h("div", { class: "button-row" }, apply));
  } catch (e) {
    showProblem(describeError(e));
  }
}

// ---- multi-query outputs

function buildMultiOutputs(root) {
  out.multi = h("div", {});
  out.multiChart = figureBox("multi-chart", "Multi-query fusion by method");
  out.multiTable = h("div", {});
  const method = selectInput("multi.options.method", ["rrf", "score_sum", "score_max"], { id: "multi-method" });
  root.append(card("multiquery", "Multi-query fusion (fuseMultiQuery)",
    h("p", { class: "note", text: "Items found by several queries gain: RRF sums 1/(k + rank), score_sum sums the similarities, score_max boosts the best similarity by multiQueryBoost per extra query." }),
    h("div", { class: "field inline" }, h("label", { for: "multi-method", text: "Method" }), method),
    out.multi, out.multiChart, out.multiTable));
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

function renderMulti() {
  const r = result;
  const m = r.main;
  fill(out.multi, h("p", { class: "stats", "data-stats": JSON.stringify(m.stats) },
    `${m.stats.queries} queries, ${m.stats.uniqueItems} items (${m.stats.itemsInMultipleQueries} in several queries), ${plural(m.stats.belowThreshold, "hit")} below the similarity threshold, ${m.stats.beyondResultsPerQuery} beyond resultsPerQuery.`));
  const order = r.main.results.map((x) => x.id);
  for (const res of Object.values(r.byMethod)) for (const x of res.results) if (!order.includes(x.id)) order.push(x.id);
  const w = width(out.multiChart);
  const cols = w >= 900 ? 3 : 1;
  const pw = Math.floor((w - (cols - 1) * 16) / cols);
  const panels = charts.multiPanels(r.byMethod, { width: pw, order, selected: r.method });
  fill(out.multiChart, h("div", { class: "panels", "data-cols": cols }, panels.map((p) => h("div", { class: ["panel-chart", p.method === r.method ? "selected" : null], "data-panel": p.method }, h("h3", { text: p.method === r.method ? `${p.method} (selected)` : p.method }), p.svg))));
  cursor(out.multiChart, order, (id) => {
    const lines = [{ strong: id }];
    for (const [method, res] of Object.entries(r.byMethod)) {
      const i = res.results.findIndex((x) => x.id === id);
      lines.push(i < 0 ? `${method}: not returned` : `${method}: #${i + 1}, ${fmt(res.results[i].score)}`);
    }
    const x = m.results.find((y) => y.id === id);
    if (x?.queryRanks) lines.push(Object.entries(x.queryRanks).map(([q, rank]) => `query ${Number(q) + 1} rank ${rank} (${fmt(x.queryScores[q])})`).join("; "));
    return lines;
  });
  const nq = state.multi.queries.length;
  const head = h("tr", {}, ["#", "id", "score", "queries"].map((t) => h("th", { scope: "col", text: t })), Array.from({ length: nq }, (_, q) => h("th", { scope: "col", text: `query ${q + 1}: rank (score)` })));
  const body = h("tbody", {}, m.results.map((x, i) => h("tr", { "data-id": x.id, "data-score": full(x.score), "data-rank": i + 1 },
    h("td", { class: "num", text: i + 1 }), h("th", { scope: "row", class: "id-cell", text: x.id }), h("td", { class: "num", text: fmt(x.score) }), h("td", { class: "num", text: x.appearedInQueryCount ?? "" }),
    Array.from({ length: nq }, (_, q) => h("td", { class: "num", text: x.queryRanks?.[q] !== undefined ? `#${x.queryRanks[q]} (${fmt(x.queryScores[q])})` : "–" })))));
  fill(out.multiTable, h("div", { class: "table-scroll" }, h("table", { class: "ranking", id: "multi-table" }, h("caption", { text: `Fused with ${r.method}` }), h("thead", {}, head), body)));
}

// ---- bands outputs

function buildBandsOutputs(root) {
  out.bands = h("div", {});
  out.bandsChart = figureBox("bands-chart", "Scores on the bands");
  const controls = quickControls([
    { label: "High floor (hit ≥)", path: "config.bands.highFloor", min: 0, max: 1, step: 0.01 },
    { label: "Degraded floor (degraded ≥)", path: "config.bands.degradedFloor", min: 0, max: 1, step: 0.01 },
  ]);
  root.append(card("bands", "Bands: hit, degraded, miss (classifyBand)",
    h("p", { class: "note", text: "hit when score ≥ high floor, degraded when degraded floor ≤ score < high floor, miss below. Move a floor: the scores re-colour at once." }),
    controls, out.bandsChart, out.bands));
}

function renderBands() {
  const r = result;
  fill(out.bandsChart, charts.bandStrip(r.rows, { width: width(out.bandsChart), floors: r.floors }));
  const ids = r.rows.map((x) => String(x.index));
  $$("[data-index]", out.bandsChart).forEach((el) => el.setAttribute("data-id", el.dataset.index));
  cursor(out.bandsChart, ids, (id) => {
    const row = r.rows[Number(id)];
    return [{ strong: `score ${fmt(row.score)}` }, `classifyBand → ${JSON.stringify(row.outcome)}`];
  });
  fill(out.bands, h("div", { class: "table-scroll" }, h("table", { class: "ranking", id: "bands-table" },
    h("caption", { text: `Floors: high ${fmtp(r.floors.highFloor)}, degraded ${fmtp(r.floors.degradedFloor)}` }),
    h("thead", {}, h("tr", {}, ["score", "band", "RetrievalOutcome"].map((t) => h("th", { scope: "col", text: t })))),
    h("tbody", {}, r.rows.map((x) => h("tr", { "data-score": full(x.score), "data-band": x.outcome.kind }, h("td", { class: "num", text: fmt(x.score) }), h("td", {}, bandChip(x.outcome.kind)), h("td", {}, h("code", { text: JSON.stringify(x.outcome) }))))))));
}

// ------------------------------------------------------------------ chart cursor and tooltip

/** Hover and keyboard (arrow keys) exploration of a chart whose marks carry data-id. */
function cursor(fig, ids, describe) {
  let c = cursors.get(fig);
  if (!c) {
    c = { ids, describe, active: -1 };
    cursors.set(fig, c);
    fig.addEventListener("keydown", (e) => {
      const n = c.ids.length;
      if (!n) return;
      let i = c.active;
      if (e.key === "ArrowDown" || e.key === "ArrowRight") i = Math.min(n - 1, i + 1);
      else if (e.key === "ArrowUp" || e.key === "ArrowLeft") i = Math.max(0, i - 1);
      else if (e.key === "Home") i = 0;
      else if (e.key === "End") i = n - 1;
      else if (e.key === "Escape") return hideTip(fig);
      else return;
      e.preventDefault();
      show(fig, i, true);
    });
    fig.addEventListener("focus", () => show(fig, Math.max(0, c.active), true));
    fig.addEventListener("blur", () => hideTip(fig));
    fig.addEventListener("pointermove", (e) => {
      const el = e.target.closest?.("[data-id]");
      if (!el || !fig.contains(el)) return hideTip(fig, true);
      const i = c.ids.indexOf(el.dataset.id);
      if (i >= 0 && (i !== c.active || $("#tip").hidden)) show(fig, i, false, el);
    });
    fig.addEventListener("pointerleave", () => hideTip(fig, true));
  }
  c.ids = ids;
  c.describe = describe;
  if (c.active >= ids.length) c.active = -1;
  if (c.active >= 0 && document.activeElement === fig) show(fig, c.active, true);
}

function show(fig, i, announce, anchor) {
  const c = cursors.get(fig);
  if (!c || i < 0 || i >= c.ids.length) return;
  c.active = i;
  const id = c.ids[i];
  $$(".is-active", fig).forEach((el) => el.classList.remove("is-active"));
  const marks = $$(`[data-id="${CSS.escape(id)}"]`, fig);
  marks.forEach((el) => el.classList.add("is-active"));
  const lines = c.describe(id);
  const tip = $("#tip");
  fill(tip, lines.map((l) => (typeof l === "string" ? h("div", { text: l }) : h("div", { class: "tip-title", text: l.strong }))));
  tip.hidden = false;
  const target = anchor || marks.find((el) => el.tagName === "circle") || marks.at(-1) || fig;
  const box = target.getBoundingClientRect();
  const tw = tip.offsetWidth;
  const th = tip.offsetHeight;
  let left = box.right + 10;
  if (left + tw > window.innerWidth - 8) left = Math.max(8, box.left - tw - 10);
  let top = box.top + box.height / 2 - th / 2;
  top = Math.max(8, Math.min(window.innerHeight - th - 8, top));
  tip.style.left = `${left + window.scrollX}px`;
  tip.style.top = `${top + window.scrollY}px`;
  tip.dataset.for = id;
  if (announce) $("#live").textContent = lines.map((l) => (typeof l === "string" ? l : l.strong)).join(". ");
}

function hideTip(fig, pointerOnly) {
  if (pointerOnly && document.activeElement === fig) return;
  $("#tip").hidden = true;
  $$(".is-active", fig).forEach((el) => el.classList.remove("is-active"));
}

// Exposed for the tests and the console: the current state and results (read-only use).
globalThis.__playground = {
  get state() {
    return state;
  },
  get result() {
    return result;
  },
  get evaluation() {
    return evaluation;
  },
};
