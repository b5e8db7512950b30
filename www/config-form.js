// The configuration form of the pipeline mode: every PipelineConfig value by group
// (schema.js), each with the package's default and a reset, and the overrides as JSON.
import { h, fill, $, nextId, fmtp, getPath, deletePath, describe } from "./dom.js";
import { showProblem, notice, fieldMessage } from "./notices.js";
import { CONFIG_GROUPS } from "./schema.js";
import { section, remembered, wide } from "./form.js";
import { followState } from "./json-box.js";

/**
 * The configuration form over `ctx` = { state, defaults, result, changed(opts),
 * commit(opts), buildControls() } and the bound inputs of `form` (createForm).
 * Returns { configPanel, configField }.
 */
export function createConfigForm(ctx, form) {
  const { sync, isOverridden, markOverride, numberInput, selectInput, jsonInput, checkboxInput } = form;

  let jsonMessageNow = null; // the message of the JSON box last built (applying rebuilds it)

  function configPanel() {
    const groups = CONFIG_GROUPS.map((g) => configGroup(g));
    const jsonId = nextId("cfg");
    const msg = h("p", { class: "field-error", hidden: true });
    const ta = h("textarea", { id: jsonId, rows: 10, class: "code", spellcheck: "false" });
    const jsonMessage = fieldMessage(ta, msg);
    jsonMessageNow = jsonMessage;
    // The text follows the configuration while the box holds no edits of its own (json-box.js).
    const box = followState(form, ta, () => ctx.state.config, { what: "configuration", onLoad: () => jsonMessage.clear() });
    // Keyed: applying rebuilds the controls, and the new button takes the focus back.
    const apply = h("button", { type: "button", "data-focus-key": "apply-config-json", text: "Apply config JSON" });
    apply.addEventListener("click", async () => {
      let parsed;
      try {
        parsed = JSON.parse(ta.value || "{}");
        if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new SyntaxError("the config must be a JSON object");
      } catch (e) {
        jsonMessage.show(`Invalid JSON: ${e.message}`);
        showProblem({ title: "Invalid JSON", message: e.message });
        return;
      }
      ctx.state.config = parsed;
      jsonMessage.clear();
      box.applied();
      // Refused, the package's error goes beside the text (in the box rebuilt meanwhile).
      if (await ctx.commit({ rebuildControls: true })) notice("Configuration applied.");
      else jsonMessageNow.showProblem();
    });
    const effective = h("button", { type: "button", class: "secondary", text: "Fill with the effective config" });
    effective.addEventListener("click", () => {
      if (ctx.result?.effective) ta.value = JSON.stringify(ctx.result.effective, null, 2);
    });
    const reset = h("button", { type: "button", class: "secondary", "data-focus-key": "reset-config", text: "Reset to seed defaults" });
    reset.addEventListener("click", async () => {
      ctx.state.config = {};
      if (await ctx.commit({ rebuildControls: true })) notice("Every configuration value is back at the seed default.");
    });
    // Remembered: applying rebuilds the controls, and the box stays open with the text
    // applied (and the package's error beside it when the configuration is refused).
    const jsonBox = remembered(h("details", { class: "sub", id: "config-json" }, h("summary", { text: "Edit the overrides as JSON" }),
      h("label", { for: jsonId, class: "block-label", text: "Only the values set here differ from the seed defaults." }), ta, msg, box.warning, h("div", { class: "button-row" }, apply, effective)), "config-json", false);
    return section("Configuration", { id: "config-panel", open: wide(), note: "Every PipelineConfig value, starting at the seed defaults. Changed values are marked; ↺ restores the default." }, ...groups, jsonBox, h("div", { class: "button-row" }, reset));
  }

  function configGroup(group) {
    const body = h("div", { class: "fields" });
    const renderFields = () => {
      fill(body);
      for (const f of group.fields) {
        if (f.when && !f.when(ctx.state, ctx.defaults)) continue;
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
    const after = f.rebuild ? () => { ctx.changed(); rerender(); } : undefined;
    if (f.type === "select") control = selectInput(path, f.options, { id, onChange: f.onSelect ? () => { f.onSelect(ctx.state); ctx.changed({ rebuildControls: true }); } : after });
    else if (f.type === "json") control = jsonInput(path, { id, optional: f.optional !== false });
    else if (f.type === "bool") control = checkboxInput(path, { id });
    else control = numberInput(path, { id, min: f.min, max: f.max, step: f.step || "any", optional: f.optional });
    const def = getPath(ctx.defaults, f.path);
    const resetBtn = h("button", { type: "button", class: "icon reset", title: "Restore the default", "aria-label": `Restore the default of ${f.path}`, text: "↺" });
    resetBtn.addEventListener("click", () => {
      // A field whose default is more than its own value (calibration.method) says how.
      if (f.reset) f.reset(ctx.state);
      else deletePath(ctx.state, path);
      sync();
      markOverride(control.tagName === "DIV" ? control.querySelector("textarea") : control, path);
      ctx.changed();
      if (f.rebuild || f.onSelect) ctx.buildControls();
      // The button hides with its field back at the default: the field takes the focus.
      $(`#controls [data-path="${CSS.escape(path)}"]`)?.focus();
    });
    const note = f.required ? null : h("span", { class: "default-note", hidden: !isOverridden(path) }, `default ${def === undefined ? "none" : typeof def === "object" ? JSON.stringify(def) : fmtp(def)} `, resetBtn);
    // The help text describes the control (a JSON field's: its textarea).
    const help = f.help ? describe(control.tagName === "DIV" ? control.querySelector("textarea") : control, h("p", { class: "help", text: f.help })) : null;
    const field = h("div", { class: ["field", f.type === "bool" ? "checkbox" : null, isOverridden(path) ? "overridden" : null] },
      h("label", { for: id, text: f.label }), control, note, help);
    return field;
  }

  return { configPanel, configField };
}
