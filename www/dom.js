// DOM helpers. Data never goes through innerHTML: text is set with textContent or
// text nodes, attributes with setAttribute.

const PROPS = new Set(["value", "checked", "disabled", "hidden", "selected", "readOnly", "multiple", "open", "indeterminate"]);

/** Creates an element: h("button", { class: "x", onclick: fn, "aria-label": "..." }, "text", child). */
export function h(tag, props = {}, ...children) {
  const svg = tag.startsWith("svg:");
  const el = svg ? document.createElementNS("http://www.w3.org/2000/svg", tag.slice(4)) : document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    else if (key === "text") el.textContent = String(value);
    else if (key === "dataset") for (const [k, v] of Object.entries(value)) el.dataset[k] = String(v);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (PROPS.has(key)) el[key] = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replaces the children of `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/**
 * Whether the focus fell to the page's body: where it goes from a control disabled or
 * removed while focused (a button disabled while its task runs, a panel re-rendered).
 */
export const focusLost = () => !document.activeElement || document.activeElement === document.body;

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

/** A number for display (the full value stays in a data attribute or title). */
export function fmt(x, digits) {
  if (x === null || x === undefined) return "–";
  if (typeof x !== "number") return String(x);
  if (!Number.isFinite(x)) return String(x);
  if (digits !== undefined) return x.toFixed(digits);
  const a = Math.abs(x);
  if (a === 0) return "0";
  if (a >= 1000) return x.toFixed(0);
  if (a >= 10) return x.toFixed(2);
  if (a >= 1) return x.toFixed(3);
  if (a >= 0.001) return x.toFixed(4);
  return x.toExponential(2);
}

/** A parameter for display: up to 6 significant digits, no trailing zeros. */
export function fmtp(x) {
  return typeof x === "number" && Number.isFinite(x) ? String(Number(x.toPrecision(6))) : fmt(x);
}

/** Full-precision text of a number (round-trips through Number()). */
export const full = (x) => (typeof x === "number" ? String(x) : "");

let uid = 0;
export const nextId = (prefix = "f") => `${prefix}-${++uid}`;

/** Adds `el` (given an id if it has none) to `control`'s aria-describedby; returns `el`. */
export function describe(control, el) {
  if (!el.id) el.id = nextId("d");
  const ids = new Set((control.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean));
  control.setAttribute("aria-describedby", [...ids.add(el.id)].join(" "));
  return el;
}

/** Debounces `fn` by `ms`. */
export function debounce(fn, ms) {
  let t;
  return (...args) => {
    clearTimeout(t);
    t = setTimeout(() => fn(...args), ms);
  };
}

/** Path helpers on plain objects ("a.b.c"). */
export function getPath(obj, path) {
  let cur = obj;
  for (const key of path.split(".")) {
    if (cur === null || cur === undefined) return undefined;
    cur = cur[key];
  }
  return cur;
}

export function setPath(obj, path, value) {
  const keys = path.split(".");
  let cur = obj;
  for (const key of keys.slice(0, -1)) {
    if (cur[key] === null || typeof cur[key] !== "object" || Array.isArray(cur[key])) cur[key] = {};
    cur = cur[key];
  }
  cur[keys.at(-1)] = value;
}

/**
 * Deletes a path and prunes the objects left empty, never a key of `obj` itself other
 * than the path's own: `deletePath(state, "config.k")` leaves `state.config` as `{}`.
 */
export function deletePath(obj, path) {
  const keys = path.split(".");
  const trail = [obj];
  for (const key of keys.slice(0, -1)) {
    const next = trail.at(-1)?.[key];
    if (!next || typeof next !== "object") return;
    trail.push(next);
  }
  delete trail.at(-1)[keys.at(-1)];
  for (let i = trail.length - 1; i > 1; i--) {
    if (Object.keys(trail[i]).length === 0) delete trail[i - 1][keys[i - 1]];
    else break;
  }
}
