// A JSON editor of a part of the state (the Input JSON tab, the configuration's "Edit the
// overrides as JSON" box) that follows the state while it is shown: edits made elsewhere
// on the page (the query field, the metadata table, the form) appear in its text at once
// unless the box holds edits of its own not applied yet; then it says that applying them
// would undo the newer changes, and offers the current text instead.
import { h } from "./dom.js";

/**
 * Keeps `ta` showing `JSON.stringify(read(), null, 2)` through `form.bind` (re-read at every
 * sync of the page, but while `ta` has the focus). `what`: the part, in words ("input").
 * `onLoad()`: called when the box is given the state's text (its own messages go).
 * Returns { warning (the element to place under the box), applied() (call once the box's
 * text became the state, before the page recomputes), load() }.
 */
export function followState(form, ta, read, { what, onLoad = () => {} }) {
  const text = () => JSON.stringify(read() ?? null, null, 2);
  let base = null; // the state's text when the box last agreed with the state
  let written = null; // the box's text then
  const loadBtn = h("button", { type: "button", class: "secondary small", text: `Show the current ${what}` });
  const warning = h("div", { class: "stale-warning", role: "status", hidden: true, "data-stale-warning": "" },
    h("p", { text: `The ${what} changed elsewhere on the page since this text was loaded: applying it would undo those changes.` }),
    loadBtn);

  function load() {
    base = text();
    ta.value = base;
    written = ta.value; // as the textarea keeps it
    warning.hidden = true;
    onLoad();
  }

  /** The state moved on: the box follows it when it has no edits of its own, else warns. */
  function follow() {
    const now = text();
    if (now === base) {
      warning.hidden = true;
      return;
    }
    if (ta.value === written) load();
    else warning.hidden = false;
  }

  loadBtn.addEventListener("click", () => {
    load();
    ta.focus();
  });
  load();
  form.bind(ta, follow);
  return {
    warning,
    load,
    applied() {
      base = text();
      written = ta.value;
      warning.hidden = true;
    },
  };
}
