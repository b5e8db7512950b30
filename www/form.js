// The left column's building blocks: inputs bound to a path of the state (config paths
// show the package's default until overridden), and the collapsible panels they sit in.
import { h, nextId, getPath, setPath, deletePath, describe } from "./dom.js";
import { showProblem, fieldMessage } from "./notices.js";

export const wide = () => window.matchMedia("(min-width: 901px)").matches;

/**
 * What a number input holds: { empty: true }, { value } (a finite number) or { bad: true }:
 * text that is no finite number (`2e`, `--5`, `1e400`), which the browser hands over as
 * an empty value with validity.badInput set, or a number past the doubles (Infinity).
 */
export function readNumber(el) {
  if (el.validity?.badInput) return { bad: true };
  const text = el.value.trim();
  if (text === "") return { empty: true };
  const n = Number(text);
  return Number.isFinite(n) ? { value: n } : { bad: true };
}

/**
 * The inline message of a number input `el` (named `what` in it) for text that is no
 * finite number: bad() shows it, the input marked aria-invalid (the message made when
 * first shown, at the end of the input's field, quick control or table cell); the state
 * keeps the value it had, which the outputs show. clear() takes it back. (Not the
 * problem box: the recompute of the keystroke before, a frame later, would clear it.)
 */
export function numberMessage(el, what) {
  let message = null;
  return {
    bad() {
      if (!message) {
        const msg = h("p", { class: "field-error", hidden: true });
        (el.closest(".field, .quick-item, td") || el.parentElement).append(msg);
        message = fieldMessage(el, msg);
      }
      message.show(`Not a finite number (${what} keeps its value).`);
    },
    clear() {
      message?.clear();
    },
  };
}

// Open or closed, per panel title, kept across rebuilds of the controls.
const openMemory = new Map();
// The last box built for each key (see `remembered`).
const liveBoxes = new Map();
export function remembered(details, key, open) {
  // The element this one replaces tells its state as it is now: its `toggle` event comes
  // a task after the click, and a rebuild in between (an Enter on a button right after
  // the box was opened) would otherwise close the box the focus is about to return to.
  const before = liveBoxes.get(key);
  details.open = before ? before.open : openMemory.has(key) ? openMemory.get(key) : open;
  liveBoxes.set(key, details);
  details.addEventListener("toggle", () => openMemory.set(key, details.open));
  return details;
}

export function section(title, { id, open = true, note } = {}, ...children) {
  const d = h("details", { class: "panel", id }, h("summary", {}, h("h2", { text: title })), h("div", { class: "panel-body" }, note ? h("p", { class: "note", text: note }) : null, ...children));
  return remembered(d, id || title, open);
}

/**
 * Bound inputs over `ctx` = { state, defaults, changed() } (state and defaults read at
 * every use). Returns the input builders, sync() (re-reads every connected bound input
 * but the focused one), bind(el, read) (another element sync() re-reads) and
 * isOverridden / markOverride.
 */
export function createForm(ctx) {
  const bindings = []; // { el, read } of inputs bound to state paths

  function sync() {
    const active = document.activeElement;
    for (const b of bindings) if (b.el !== active && b.el.isConnected) b.read();
    for (let i = bindings.length - 1; i >= 0; i--) if (!bindings[i].el.isConnected) bindings.splice(i, 1);
  }

  /** Registers `el` with `read` (which shows the state's value in it), shows it now. */
  function bound(el, read) {
    bindings.push({ el, read });
    read();
    return el;
  }

  /** The value at `path` of the state, or the package's default for config paths. */
  function valueAt(path) {
    const v = getPath(ctx.state, path);
    if (v !== undefined) return v;
    if (path.startsWith("config.")) return getPath(ctx.defaults, path.slice(7));
    return undefined;
  }

  /** Whether a config value differs from the package's default. */
  function isOverridden(path) {
    const v = getPath(ctx.state, path);
    if (v === undefined) return false;
    return !path.startsWith("config.") || JSON.stringify(v) !== JSON.stringify(getPath(ctx.defaults, path.slice(7)));
  }

  /** A number input bound to a state path. */
  function numberInput(path, { min, max, step = "any", optional = false, id, label, onChange, placeholder = "none" } = {}) {
    const el = h("input", { type: "number", step, min, max, inputmode: "decimal", id: id || nextId("n"), "data-path": path, "aria-label": label });
    const message = numberMessage(el, path.replace(/^(config|input|multi)\./, ""));
    const read = () => {
      const v = valueAt(path);
      el.value = v === undefined || v === null ? "" : String(v);
      if (optional) el.placeholder = placeholder;
      message.clear();
    };
    el.addEventListener("input", () => {
      const typed = readNumber(el);
      if (typed.bad) return message.bad();
      message.clear();
      if (typed.empty) {
        if (!optional && path.startsWith("input.")) return;
        deletePath(ctx.state, path);
      } else {
        setPath(ctx.state, path, typed.value);
      }
      markOverride(el, path);
      sync();
      onChange ? onChange() : ctx.changed();
    });
    return bound(el, read);
  }

  /**
   * A range slider bound to the same path (moves at once, re-renders every frame).
   * `keep`: { path, side } of a value it carries along, to stay `side` ("below" or
   * "above") of it: a floor dragged past the other floor pushes it (the package refuses
   * crossed floors, and a drag cannot stop where they meet).
   */
  function rangeInput(path, { min, max, step, label, keep }) {
    const el = h("input", { type: "range", min, max, step, "data-path": path, "aria-label": label });
    const read = () => {
      const v = valueAt(path);
      if (typeof v === "number") el.value = String(v);
    };
    el.addEventListener("input", () => {
      const v = Number(el.value);
      setPath(ctx.state, path, v);
      if (keep) {
        const other = valueAt(keep.path);
        if (typeof other === "number" && (keep.side === "below" ? other > v : other < v)) setPath(ctx.state, keep.path, v);
      }
      sync();
      ctx.changed();
    });
    return bound(el, read);
  }

  /** A text input bound to a path; `parse` turns the text into the value stored. */
  function textInput(path, { id, label, placeholder, onChange, optional = true, multiline = false, parse = (text) => text } = {}) {
    const attrs = { id: id || nextId("t"), "data-path": path, "aria-label": label, placeholder, autocomplete: "off", spellcheck: "false" };
    const el = multiline ? h("textarea", { ...attrs, rows: 2 }) : h("input", { type: "text", ...attrs });
    const read = () => {
      const v = valueAt(path);
      el.value = v === undefined || v === null ? "" : String(v);
    };
    el.addEventListener("input", () => {
      if (el.value === "" && optional) deletePath(ctx.state, path);
      else setPath(ctx.state, path, parse(el.value));
      sync();
      onChange ? onChange() : ctx.changed();
    });
    return bound(el, read);
  }

  function selectInput(path, options, { id, label, onChange } = {}) {
    const el = h("select", { id: id || nextId("s"), "data-path": path, "aria-label": label }, options.map((o) => h("option", { value: o, text: o })));
    const read = () => {
      const v = valueAt(path);
      if (v !== undefined) el.value = String(v);
    };
    el.addEventListener("change", () => {
      setPath(ctx.state, path, el.value);
      markOverride(el, path);
      sync();
      onChange ? onChange() : ctx.changed();
    });
    return bound(el, read);
  }

  /** A JSON textarea bound to a path: shows an inline message while the JSON is invalid. */
  function jsonInput(path, { rows = 3, label, optional = true, id = nextId("j") } = {}) {
    const msg = h("p", { class: "field-error", hidden: true });
    const el = h("textarea", { id, rows, spellcheck: "false", "data-path": path, "aria-label": label, class: "code" });
    const message = fieldMessage(el, msg);
    const read = () => {
      const v = valueAt(path);
      el.value = v === undefined ? "" : JSON.stringify(v);
      message.clear();
    };
    el.addEventListener("input", () => {
      const text = el.value.trim();
      if (text === "" && optional) {
        deletePath(ctx.state, path);
        message.clear();
        markOverride(el, path);
        return ctx.changed();
      }
      try {
        setPath(ctx.state, path, JSON.parse(text));
        message.clear();
        markOverride(el, path);
        ctx.changed();
      } catch (e) {
        message.show(`Invalid JSON: ${e.message}`);
        showProblem({ title: "Invalid JSON", message: `${path.replace(/^config\./, "")}: ${e.message}` });
      }
    });
    bound(el, read);
    return h("div", { class: "json-field" }, el, msg);
  }

  function checkboxInput(path, { label, id } = {}) {
    const el = h("input", { type: "checkbox", id, "data-path": path, "aria-label": label });
    const read = () => (el.checked = Boolean(valueAt(path)));
    el.addEventListener("change", () => {
      setPath(ctx.state, path, el.checked);
      markOverride(el, path);
      ctx.changed();
    });
    return bound(el, read);
  }

  function markOverride(el, path) {
    const field = el.closest(".field");
    if (!field) return;
    field.classList.toggle("overridden", isOverridden(path));
    const badge = field.querySelector(".default-note");
    if (badge) badge.hidden = !isOverridden(path);
  }

  /** Number + slider pairs for the outputs' quick controls. */
  function quickControls(items) {
    return h("div", { class: "quick" }, items.map(({ label, path, min, max, step, note, keep }) => {
      const id = nextId("q");
      const num = numberInput(path, { id, min, step: "any" });
      const range = rangeInput(path, { min, max, step, label: `${label} slider`, keep });
      const help = note ? h("span", { class: "help", text: note }) : null;
      if (help) [range, num].forEach((c) => describe(c, help));
      return h("div", { class: "quick-item" }, h("label", { for: id, text: label }), h("div", { class: "quick-inputs" }, range, num), help);
    }));
  }

  return { sync, bind: bound, isOverridden, markOverride, numberInput, rangeInput, textInput, selectInput, jsonInput, checkboxInput, quickControls };
}
