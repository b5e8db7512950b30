// Problems and notices: the error box above the outputs (a ScoreError's code, field and
// message, with the offending inputs marked aria-invalid) and the transient notice.
import { h, fill, $, $$, nextId, describe } from "./dom.js";

/** A thrown value as { title, code?, field?, message } (`lib`: the loaded package). */
export function describeError(e, lib) {
  if (e && (e instanceof lib?.ScoreError || e.name === "ScoreError")) {
    return { title: "The package rejected the input", code: e.code, field: e.field, message: e.message };
  }
  if (e instanceof SyntaxError) return { title: "Invalid JSON", message: e.message };
  return { title: "Something went wrong", message: e?.message || String(e) };
}

let current = null; // the problem shown, null when none
let folded = false; // the problem box shows its title line only (its toggle; kept for the next problem)
// Inline messages showing the current problem (fieldMessage's showProblem): they go with it.
const problemMessages = new Set();

/** A problem in one line, for an inline message: "CODE (field): message". */
export const problemText = (p) => (p.code ? `${p.code} (${p.field || "no field"}): ${p.message}` : p.message);

export function showProblem(p) {
  // Results computed before the problem are not announced after it (the box says it).
  clearTimeout(announceTimer);
  for (const m of [...problemMessages]) m.clear();
  current = p;
  const box = $("#problem");
  const parts = [];
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
  const body = h("div", { class: "problem-body", id: "problem-body", hidden: folded }, ...parts);
  // Folded, the box is its title line (with the code and field): sticky, it covered a
  // third of a phone's screen with a long message.
  const toggle = h("button", { type: "button", class: "problem-toggle", "aria-controls": "problem-body", "aria-expanded": String(!folded), text: folded ? "Show details" : "Hide details" });
  toggle.addEventListener("click", () => {
    folded = !folded;
    body.hidden = folded;
    toggle.setAttribute("aria-expanded", String(!folded));
    toggle.textContent = folded ? "Show details" : "Hide details";
  });
  const head = h("div", { class: "problem-head" }, h("strong", { text: p.title }), p.code ? h("span", { class: "problem-brief", text: `${p.code}${p.field ? ` · ${p.field}` : ""}` }) : null, toggle);
  fill(box, head, body);
  box.hidden = false;
  trackHeight(box);
  keepFocusVisible(box);
  box.dataset.kind = p.code ? "score-error" : p.title === "Invalid JSON" ? "json" : "other";
  // Who raised it, for clearProblemFrom (an action's own error goes once the action works).
  if (p.source) box.dataset.source = p.source;
  else delete box.dataset.source;
  $("#outputs")?.classList.add("stale");
  unmarkInvalid();
  if (p.field) markInvalid(p.field);
}

/** A package error's field as a state path: `lists[0].weight` is `lists.0.weight`. */
const fieldPath = (field) => field.replace(/\[(\d+)\]/g, ".$1");

/** Marks aria-invalid the bound inputs (data-path) of the field a package error names. */
function markInvalid(field) {
  const target = fieldPath(field);
  for (const el of $$("[data-path]")) {
    // Errors of the configuration name `config.…` (the Pipeline's argument); those of
    // the input name its fields alone (`lists[0].ids`), and those of the multi-query
    // page its call's arguments (`options.k`, `queries[0][1].score`).
    const path = el.dataset.path.replace(/^(input|multi)\./, "");
    // Below it: a field (`.name`), an element or a quoted key (`[0]`, `["a.b"]`).
    if (path === target || target.startsWith(path + ".") || target.startsWith(path + "[")) {
      el.setAttribute("aria-invalid", "true");
      el.dataset.problemInvalid = "";
    }
  }
}

/**
 * Unmarks what markInvalid marked. A control stays aria-invalid while either mark holds:
 * the problem box's (data-problem-invalid) or its own inline message's
 * (data-message-invalid, fieldMessage).
 */
function unmarkInvalid() {
  for (const el of $$("[data-problem-invalid]")) {
    delete el.dataset.problemInvalid;
    if (!("messageInvalid" in el.dataset)) el.removeAttribute("aria-invalid");
  }
}

/**
 * The inline message `msg` of `control` (given an id here), tied to it by aria-describedby: show(text)
 * shows it and marks the control aria-invalid, clear() hides it and unmarks the control
 * unless the problem box's mark holds too (unmarkInvalid).
 */
export function fieldMessage(control, msg) {
  if (!msg.id) msg.id = nextId("msg");
  describe(control, msg);
  const message = {
    show(text) {
      problemMessages.delete(message);
      msg.textContent = text;
      msg.hidden = false;
      control.setAttribute("aria-invalid", "true");
      control.dataset.messageInvalid = "";
    },
    clear() {
      problemMessages.delete(message);
      msg.hidden = true;
      delete control.dataset.messageInvalid;
      if (!("problemInvalid" in control.dataset)) control.removeAttribute("aria-invalid");
    },
    /**
     * Shows the package's error standing (a ScoreError: what this control applied was
     * refused) until the problem goes or another replaces it.
     */
    showProblem() {
      if (!current?.code) return;
      message.show(problemText(current));
      problemMessages.add(message);
    },
  };
  return message;
}

let heightObserver = null;
/**
 * --problem-h on the root: the sticky problem box's height (0 when hidden), kept current;
 * the sticky controls column and the scroll padding sit below it (style.css).
 */
function trackHeight(box) {
  const set = () => document.documentElement.style.setProperty("--problem-h", `${box.hidden ? 0 : box.offsetHeight}px`);
  if (!heightObserver) {
    heightObserver = new ResizeObserver(set);
    heightObserver.observe(box);
  }
  set();
}

/** Scrolls the focused control out from under the problem box (which may name it). */
function keepFocusVisible(box) {
  const el = document.activeElement;
  if (!el || el === document.body || box.contains(el)) return;
  if (el.getBoundingClientRect().top < box.getBoundingClientRect().bottom) el.scrollIntoView({ block: "nearest" });
}

/** Clears the problem if `source` raised it (an action that now succeeded). */
export function clearProblemFrom(source) {
  if ($("#problem")?.dataset.source === source) clearProblem();
}

export function clearProblem() {
  for (const m of [...problemMessages]) m.clear();
  current = null;
  const box = $("#problem");
  box.hidden = true;
  fill(box);
  delete box.dataset.kind;
  delete box.dataset.source;
  $("#outputs")?.classList.remove("stale");
  unmarkInvalid();
}

let noticeTimer = 0;
/** Shows a transient notice (for 4 s, or until replaced or dismissed when `persist`). */
export function notice(text, { persist = false } = {}) {
  const el = $("#notice");
  el.textContent = text;
  el.classList.add("show");
  clearTimeout(noticeTimer);
  if (!persist) noticeTimer = setTimeout(() => el.classList.remove("show"), 4000);
}

/** Hides the notice if it still says `text`. */
export function dismissNotice(text) {
  const el = $("#notice");
  if (el.textContent === text) el.classList.remove("show");
}

// The results' summary for screen readers (#results-live, polite): said once the edits
// pause, and only when it changed (a slider dragged through 60 steps is one announcement;
// a resize or a redraw that changes nothing, none).
const ANNOUNCE_MS = 800;
let announced = null;
let announceTimer = 0;

/**
 * Announces `text` (the outcome and the returned count) ANNOUNCE_MS after the last call;
 * the first call (the page as it loads) is not said.
 */
export function announceResults(text) {
  clearTimeout(announceTimer);
  if (announced === null) {
    announced = text;
    return;
  }
  announceTimer = setTimeout(() => {
    if (text === announced) return;
    announced = text;
    $("#results-live").textContent = text;
  }, ANNOUNCE_MS);
}
