// Problems and notices: the error box above the outputs (a ScoreError's code, field and
// message, with the offending inputs marked aria-invalid) and the transient notice.
import { h, fill, $, $$ } from "./dom.js";

/** A thrown value as { title, code?, field?, message } (`lib`: the loaded package). */
export function describeError(e, lib) {
  if (e && (e instanceof lib?.ScoreError || e.name === "ScoreError")) {
    return { title: "The package rejected the input", code: e.code, field: e.field, message: e.message };
  }
  if (e instanceof SyntaxError) return { title: "Invalid JSON", message: e.message };
  return { title: "Something went wrong", message: e?.message || String(e) };
}

export function showProblem(p) {
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
  // Who raised it, for clearProblemFrom (an action's own error goes once the action works).
  if (p.source) box.dataset.source = p.source;
  else delete box.dataset.source;
  $("#outputs")?.classList.add("stale");
  $$("[aria-invalid=true]").forEach((el) => el.removeAttribute("aria-invalid"));
  if (p.field) {
    for (const el of $$("[data-path]")) {
      // Errors of the configuration name `config.…` (the Pipeline's argument); those of
      // the input name its fields alone (`lists[0].ids`).
      const path = el.dataset.path.replace(/^input\./, "");
      if (path === p.field || p.field.startsWith(path + ".") || p.field.startsWith(path + "[")) el.setAttribute("aria-invalid", "true");
    }
  }
}

/** Clears the problem if `source` raised it (an action that now succeeded). */
export function clearProblemFrom(source) {
  if ($("#problem")?.dataset.source === source) clearProblem();
}

export function clearProblem() {
  const box = $("#problem");
  box.hidden = true;
  fill(box);
  delete box.dataset.kind;
  delete box.dataset.source;
  $("#outputs")?.classList.remove("stale");
  $$("[aria-invalid=true]").forEach((el) => el.removeAttribute("aria-invalid"));
}

let noticeTimer = 0;
export function notice(text) {
  const el = $("#notice");
  el.textContent = text;
  el.classList.add("show");
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => el.classList.remove("show"), 4000);
}
