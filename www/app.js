// calibrank score playground: the top-level wiring (state, start-up, presets and the URL
// hash, the edit -> recompute -> render loop). Every score on the page comes from the
// calibrank package (compute.js); the page only moves data around, formats it and draws
// it, and data is never written with innerHTML. The rooms of the page live in their own
// modules, each built over `ctx` below:
//   form.js          inputs bound to state paths, collapsible panels
//   input-editor.js  query, ranked lists (table / JSON / TREC) and candidate metadata
//   config-form.js   the PipelineConfig form
//   results.js       the pipeline outputs: result, stages, curve, ranking
//   evaluation.js    the judgements card: reliability, fitting, band floors, fusion tuning
//   outcome.js       the query-level outcome card (answer / hedge / abstain)
//   confidence-panel.js  the query-confidence model of the CISI presets (confidence.js computes)
//   modes.js         the multi-query and bands modes (controls and outputs)
//   figures.js       cards, chart cursor and tooltip; notices.js: problems and notices
//   tables.js        output tables stacked into rows on phones
import { h, fill, $, debounce } from "./dom.js";
import { encodeState, decodeState, linkLimit } from "./url-state.js";
import { presetList, buildPreset, baseState, DEFAULT_PRESET, STATE_VERSION } from "./presets.js";
import * as compute from "./compute.js";
import { carryModel, forgetModel, adoptModel } from "./confidence-panel.js";
import { describeError, showProblem, clearProblem, notice, dismissNotice, announceResults } from "./notices.js";
import { createForm, section } from "./form.js";
import { createInputEditor } from "./input-editor.js";
import { createConfigForm } from "./config-form.js";
import { createPipelineView } from "./results.js";
import { createModeViews } from "./modes.js";
import { resetFigures } from "./figures.js";

let lib = null;
let core = null; // calibrank: every mode
let labLoading = null; // calibrank/lab, loaded only for what needs it (compute.needsLab, labLoaded)
let sample = null;
let defaults = null; // the package's effective default config
let state = null;
let result = null; // last successful computation
let evaluation = null; // last sample evaluation (CISI presets)

// What the rooms read and call: the current values (read at every use) and the loop.
const ctx = {
  get lib() {
    return lib;
  },
  get sample() {
    return sample;
  },
  get defaults() {
    return defaults;
  },
  get state() {
    return state;
  },
  get result() {
    return result;
  },
  get evaluation() {
    return evaluation;
  },
  out: {}, // containers of the current outputs
  changed,
  commit,
  recompute,
  labLoaded,
  renderOutputs,
  buildControls,
  writeUrl: () => writeUrl(),
};
const form = createForm(ctx);
const inputEditor = createInputEditor(ctx, form);
const configForm = createConfigForm(ctx, form);
const pipelineView = createPipelineView(ctx, form);
const modeViews = createModeViews(ctx, form, configForm);

main();

// ------------------------------------------------------------------ start-up

async function main() {
  try {
    // The scoring core (calibrank) now; the lab (calibrank/lab: evaluation, fitting, TREC
    // runs, a fitted calibration's curve), with its own .wasm, only when a state needs it
    // (compute.needsLab) or the TREC import is used: the seed pages never fetch it.
    core = await import("./pkg/browser.js");
    lib = { ...core };
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
  const first = initial || buildPreset(DEFAULT_PRESET, sample);
  // The lab before a first page that needs it is built (loadState would wait for it too).
  if (compute.needsLab(first)) await loadLab().catch(() => {});
  $("#boot").remove();
  $("#app").hidden = false;
  loadState(first);
  window.addEventListener("hashchange", onHashChange);
  window.addEventListener("resize", debounce(() => renderOutputs(), 150));
  document.documentElement.dataset.ready = "true";
}

function fatal(message) {
  const boot = $("#boot");
  if (boot) boot.remove();
  showProblem({ title: "The playground could not start", message });
}

// The page's modes: a state names one of them (or none: the pipeline).
const MODES = ["pipeline", "multiquery", "bands"];

/**
 * Fills missing parts of a decoded state; null if it is not a playground state. Throws
 * for a state the page cannot show (another version, a mode it does not know).
 */
function normalizeState(s) {
  if (!s || typeof s !== "object") return null;
  if (s.v !== STATE_VERSION) throw new Error(`state version ${s.v}, expected ${STATE_VERSION}`);
  if (s.mode !== undefined && !MODES.includes(s.mode)) throw new Error(`unknown mode ${JSON.stringify(s.mode)}, expected one of ${MODES.join(", ")}`);
  const b = baseState();
  return {
    ...b,
    ...s,
    input: { ...b.input, ...(s.input || {}) },
    multi: { ...b.multi, ...(s.multi || {}) },
    bands: { ...b.bands, ...(s.bands || {}), ...(Array.isArray(s.bands?.scores) ? {} : { scores: b.bands.scores }) },
    view: { ...b.view, ...(s.view || {}) },
    config: s.config && typeof s.config === "object" ? s.config : {},
  };
}

let lastHash = "";
// The hash the event names, not `location.hash`: the page's own debounced address write
// (`writeUrl`, a `history.replaceState`) can land between a link opened from the address
// bar and this event, and the link would then be lost (read as the page's own state).
async function onHashChange(event) {
  const hash = new URL(event.newURL).hash;
  if (hash === lastHash) return;
  try {
    const s = normalizeState(await decodeState(hash));
    if (s) loadState(s);
  } catch (e) {
    notice(`The link's state could not be read (${e.message}).`);
  }
}

/** Whether `hash` fits in a link; says so once per state that does not. */
let saidTooLong = null;
function fitsInLink(hash) {
  if (hash.length <= linkLimit.chars) return true;
  if (saidTooLong !== hash) {
    saidTooLong = hash;
    notice(`This state is too large for a link (${(hash.length / 1e6).toFixed(1)} million characters, where a browser opens up to ${(linkLimit.chars / 1e6).toFixed(1)} million): the address keeps the last state that fitted, which a reload shows.`);
  }
  return false;
}

const writeUrl = debounce(async () => {
  try {
    const hash = await encodeState(state);
    if (!fitsInLink(hash)) return;
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
  select.addEventListener("change", async () => {
    if (select.value === "custom") return;
    const label = select.selectedOptions[0].textContent;
    if (await loadState(carryModel(buildPreset(select.value, sample)))) notice(`Loaded preset: ${label}`);
  });
  $("#reset-preset").addEventListener("click", async () => {
    const id = state.preset;
    if (id && id !== "custom") {
      forgetModel();
      if (await loadState(buildPreset(id, sample))) notice("Preset restored.");
    } else {
      notice("This state is not a preset; pick one from the menu.");
    }
  });
  $("#copy-link").addEventListener("click", async () => {
    const hash = await encodeState(state);
    saidTooLong = null;
    if (!fitsInLink(hash)) return;
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

/** calibrank/lab, added to `lib` (the core's exports win for the names both have). */
function loadLab() {
  // A failed load is not tried again: the browser keeps a module's evaluation error
  // for its URL, so only a reload retries (the problem box says so).
  labLoading ??= import("./pkg/lab.browser.js").then((lab) => {
    lib = { ...lab, ...core };
  });
  return labLoading;
}

/** Whether the lab is in `lib`. */
const labReady = () => typeof lib.applyCalibration === "function";

const LAB_LOADING = "Loading calibrank/lab…";

/** The outputs marked busy (style.css dims them) while the lab loads, and the page says so. */
function busy(on) {
  const outputs = $("#outputs");
  if (on) outputs.setAttribute("aria-busy", "true");
  else outputs.removeAttribute("aria-busy");
  if (on) notice(LAB_LOADING, { persist: true });
  else dismissNotice(LAB_LOADING);
}

let labWait = null; // the load in flight (one busy state and notice for every caller)

/** Loads calibrank/lab (the outputs busy meanwhile); resolves whether it is in. */
function labLoaded() {
  if (labReady()) return Promise.resolve(true);
  labWait ??= (async () => {
    busy(true);
    try {
      await loadLab();
      busy(false);
      return true;
    } catch (e) {
      busy(false);
      labWait = null; // a later call says so again
      showProblem({ title: "calibrank/lab could not be loaded", message: `${e.message}; the judged presets, fitted calibrations and the TREC import need it. Reload to try again.` });
      return false;
    }
  })();
  return labWait;
}

let pendingState = null;

/**
 * Replaces the whole state and rebuilds the page, once the modules it needs are in.
 * Resolves true once shown, false if the lab failed or another state came meanwhile.
 */
async function loadState(s) {
  pendingState = s;
  if (compute.needsLab(s) && !(await labLoaded())) {
    // The page still shows the state before: so does the menu (it named the preset picked).
    if (pendingState === s) {
      pendingState = null;
      if (state) showPreset(state);
    }
    return false;
  }
  if (pendingState !== s) return false;
  pendingState = null;
  state = s;
  // A CISI state's query-confidence model is the one carried to the next CISI preset.
  adoptModel(s);
  evaluation = null;
  showPreset(s);
  buildControls();
  buildOutputs();
  recompute();
  return true;
}

/** The preset menu names `s`'s preset ("Custom (edited)" for a state that is none). */
function showPreset(s) {
  $("#preset").value = presetList(sample).some((p) => p.id === s.preset) ? s.preset : "custom";
}

/** Called after every edit. */
function changed({ rebuildControls = false } = {}) {
  if (rebuildControls) buildControls();
  scheduleRecompute();
}

/** An edit applied now (not on the next frame); resolves whether the package accepted it. */
function commit({ rebuildControls = false } = {}) {
  if (rebuildControls) buildControls();
  return recompute();
}

let frame = 0;
function scheduleRecompute() {
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    recompute();
  });
}

// ------------------------------------------------------------------ controls (left column)

function buildControls() {
  const root = $("#controls");
  const focused = focusKey(document.activeElement);
  fill(root);
  if (state.mode === "pipeline") buildPipelineControls(root);
  else if (state.mode === "multiquery") modeViews.buildMultiControls(root);
  else modeViews.buildBandsControls(root);
  // Quick controls in the outputs are bound too: re-read them.
  form.sync();
  if (focused) $(`#controls ${focused}`)?.focus();
}

/** A selector finding a focused control of the left column again after a rebuild. */
function focusKey(el) {
  if (!el || !$("#controls").contains(el)) return null;
  if (el.dataset.focusKey) return `[data-focus-key="${CSS.escape(el.dataset.focusKey)}"]`;
  if (el.dataset.path) return `[data-path="${CSS.escape(el.dataset.path)}"]`;
  return null;
}

function buildPipelineControls(root) {
  root.append(inputEditor.inputPanel());
  root.append(inputEditor.metadataPanel());
  if (state.judgements) {
    const n = Object.values(state.judgements).filter((g) => g > 0).length;
    root.append(section("Judgements", { open: false }, h("p", { class: "note", text: `${n} documents are judged relevant for this query (CISI qrels). Unlisted documents count as not relevant.` })));
  }
  root.append(configForm.configPanel());
}

// ------------------------------------------------------------------ outputs (right column)

function buildOutputs() {
  const root = $("#outputs");
  fill(root);
  for (const k of Object.keys(ctx.out)) delete ctx.out[k];
  resetFigures();
  if (state.mode === "pipeline") pipelineView.build(root);
  else if (state.mode === "multiquery") modeViews.buildMultiOutputs(root);
  else modeViews.buildBandsOutputs(root);
  form.sync();
}

let labRerun = null; // the one rerun pending until the lab is in
let computed = 0; // recomputes that ran (not those deferred until the lab is in)

/**
 * Computes and renders the current state; returns whether the package accepted it (a
 * promise of that when the state waits for the lab).
 */
function recompute() {
  if (compute.needsLab(state) && !labReady()) {
    // A fitted calibration chosen on a seed page: drawn once the lab is in (the link
    // records the edit meanwhile), by one rerun however many edits came meanwhile.
    writeUrl();
    labRerun ??= labLoaded().then((ok) => {
      labRerun = null;
      // A whole state waiting for the lab too (loadState) is shown after this: not the old one first.
      return ok && pendingState === null && recompute();
    });
    return labRerun;
  }
  computed++;
  try {
    // A sigmoid parameter set by hand on the default calibration needs its tag (another
    // value, `"x"` from the JSON box or a link, is the package's to refuse).
    const cal = state.config.calibration;
    if (cal && typeof cal === "object" && !Array.isArray(cal) && !cal.method) cal.method = "sigmoid";
    if (state.mode === "pipeline") {
      result = compute.pipeline(lib, state);
      result.curveDomain = curveDomain(result);
      result.curvePoints = compute.curve(lib, result.effective.calibration, gridOver(result.curveDomain, result.effective.calibration));
      if (state.judgements && sample) evaluateSample();
    } else if (state.mode === "multiquery") {
      result = compute.multi(lib, state);
    } else {
      result = compute.bands(lib, state);
    }
    clearProblem();
    renderOutputs();
    return true;
  } catch (e) {
    showProblem(describeError(e, lib));
    return false;
  } finally {
    writeUrl();
  }
}

/**
 * The judgements card's evaluation of every sample query through the current config.
 * Its error is the card's to show (`evaluation.error`, with the sample query refused):
 * the current query's results stand, the sample's figures wait for a config every sample
 * query passes.
 */
function evaluateSample() {
  // Band floors do not change the sample's scores: skip the rerun while they move.
  const key = JSON.stringify([{ ...state.config, bands: undefined }, state.view.bins, state.view.binStrategy]);
  if (evaluation?.key === key) return;
  try {
    evaluation = compute.sampleEvaluation(lib, sample, state.config, { bins: state.view.bins, strategy: state.view.binStrategy });
  } catch (e) {
    const refused = e instanceof compute.SampleQueryError;
    evaluation = { error: describeError(refused ? e.cause : e, lib), query: refused ? e.query : null };
  }
  evaluation.key = key;
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
  const { out } = ctx;
  if (result.mode === "pipeline" && out.summary) {
    pipelineView.render();
    announceResults(pipelineView.summary());
  } else if (result.mode === "multiquery" && out.multi) {
    modeViews.renderMulti();
    announceResults(modeViews.multiSummary());
  } else if (result.mode === "bands" && out.bands) {
    modeViews.renderBands();
    announceResults(modeViews.bandsSummary());
  }
  form.sync();
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
  /** How many times the outputs were computed (a deferred edit counts when it runs). */
  get computed() {
    return computed;
  },
  /** The longest hash a link carries (the tests lower it to test a state too large). */
  linkLimit,
};
