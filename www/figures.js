// The right column's building blocks: cards, chart figures with hover and keyboard
// exploration (the tooltip), and the cache of unchanged charts.
import { h, fill, $, $$ } from "./dom.js";

const cursors = new Map(); // figure -> keyboard cursor
export const chartCache = new Map(); // chart slot -> { sig, svg }: unchanged charts are not redrawn

/** Forgets the cursors and cached charts (the outputs are being rebuilt). */
export function resetFigures() {
  cursors.clear();
  chartCache.clear();
}

export function card(id, title, ...children) {
  return h("section", { class: "card", id, "aria-labelledby": `${id}-title` }, h("h2", { id: `${id}-title`, text: title }), ...children);
}

/** A chart figure the arrow keys step through (`noun`: what they step through). */
export function figureBox(id, label, noun = "results") {
  return h("figure", { class: "chart", id, tabindex: "0", role: "group", "aria-label": `${label}. Use the arrow keys to step through the ${noun}.` });
}

/**
 * Fills `fig` with a message instead of a chart (`attrs`: the message's own, such as
 * data-empty); the arrow keys then have nothing to step through, not the last chart's ids.
 */
export function emptyFigure(fig, text, attrs = {}) {
  fill(fig, h("p", { class: "empty", ...attrs, text }));
  cursor(fig, [], () => []);
}

export function width(el, min = 260) {
  return Math.max(min, Math.floor(el.clientWidth || el.parentElement?.clientWidth || 600));
}

export function bandChip(band) {
  return h("span", { class: `chip band-${band}`, "data-band": band, text: band });
}

// ------------------------------------------------------------------ chart cursor and tooltip

/** Hover and keyboard (arrow keys) exploration of a chart whose marks carry data-id. */
export function cursor(fig, ids, describe) {
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
