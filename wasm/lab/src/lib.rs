//! `calibrank_lab.wasm`: the lab's exports (TREC parsing, ranx-compatible evaluation,
//! run fusion and its tuning, calibration fitting), a thin table over `calibrank::lab`.
//! Same boundary as the core module (`wasm/shared`); js/lab.js writes the inputs.

#![deny(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

use calibrank::error::{all_finite, ErrorCode, Result, ScoreError};
use calibrank::lab::runs::Run;
use calibrank::lab::{eval, fit, optimize, runfusion};
use calibrank::limits::{Budget, Limits};
use calibrank::pipeline::Calibration;
use calibrank_wasm_shared::json::{self, Json};
use calibrank_wasm_shared::options::{take_limits, with_limits};
use calibrank_wasm_shared::wire::{Reader, Writer};
use calibrank_wasm_shared::write_json;
use std::collections::BTreeMap;

calibrank_wasm_shared::export_io!(dispatch);

mod op {
    pub const PARSE_RUN: u32 = 40;
    pub const PARSE_QRELS: u32 = 41;
    pub const EVALUATE: u32 = 42;
    pub const EVALUATE_PER_QUERY: u32 = 43;
    pub const FUSE_RUNS: u32 = 44;
    pub const OPTIMIZE: u32 = 45;
    pub const FIT_PLATT: u32 = 46;
    pub const FIT_ISOTONIC: u32 = 47;
    pub const APPLY_CALIBRATION: u32 = 48;
    pub const CALIBRATION_ERROR: u32 = 49;
    pub const PROPOSE_BANDS: u32 = 50;
    pub const FIT_QUERY_CONFIDENCE: u32 = 51;
    pub const PREDICT_QUERY_CONFIDENCE: u32 = 52;
}

fn dispatch(op: u32, r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    if let Some(done) = calibrank_wasm_shared::common_op(op, w) {
        return done;
    }
    match op {
        op::PARSE_RUN => parse(r, w, eval::parse_trec_run, "parseTrecRun"),
        op::PARSE_QRELS => parse(r, w, eval::parse_qrels, "parseQrels"),
        op::EVALUATE => evaluate(r, w, false),
        op::EVALUATE_PER_QUERY => evaluate(r, w, true),
        op::FUSE_RUNS => fuse_runs(r, w),
        op::OPTIMIZE => optimize(r, w),
        op::FIT_PLATT => fit_with(r, w, |s, l| Ok(Calibration::Platt(fit::fit_platt(s, l)?))),
        op::FIT_ISOTONIC => fit_with(r, w, |s, l| {
            Ok(Calibration::Isotonic(fit::fit_isotonic(s, l)?))
        }),
        op::APPLY_CALIBRATION => apply_calibration(r, w),
        op::CALIBRATION_ERROR => calibration_error(r, w),
        op::PROPOSE_BANDS => propose_bands(r, w),
        op::FIT_QUERY_CONFIDENCE => fit_query_confidence(r, w),
        op::PREDICT_QUERY_CONFIDENCE => predict_query_confidence(r, w),
        _ => Err(calibrank_wasm_shared::unknown_op(op)),
    }
}

/// A run or qrels as JSON. Every score is finite here (the parsers and the fusion refuse
/// or never make others); a non-finite one (from an input run) is written as a sentinel
/// that js/lab.js turns back into its number.
fn write_run(w: &mut Writer, run: &Run) -> Result<()> {
    let finite = run.values().all(|d| d.values().all(|s| s.is_finite()));
    if finite {
        return write_json(w, run);
    }
    let tagged: BTreeMap<&str, BTreeMap<&str, serde_json::Value>> = run
        .iter()
        .map(|(q, docs)| {
            let docs = docs
                .iter()
                .map(|(d, &s)| {
                    let v = if s.is_finite() {
                        serde_json::json!(s)
                    } else if s.is_nan() {
                        serde_json::json!("\u{0}NaN")
                    } else if s > 0.0 {
                        serde_json::json!("\u{0}Infinity")
                    } else {
                        serde_json::json!("\u{0}-Infinity")
                    };
                    (d.as_str(), v)
                })
                .collect();
            (q.as_str(), docs)
        })
        .collect();
    write_json(w, &tagged)
}

/// The options of a function whose only option is `limits`.
fn limits_only(r: &mut Reader<'_>, function: &str) -> Result<Limits> {
    match r.opt_text()? {
        None => Ok(Limits::defaults_for(function)),
        Some(t) => {
            let mut tree = json::parse(t, "options")?;
            let limits = take_limits(&mut tree, "options", function)?;
            if let Json::Obj(fields) = &tree {
                if let Some((k, _)) = fields.first() {
                    return Err(ScoreError::new(
                        ErrorCode::UnknownField,
                        format!("options.{k}"),
                        format!("unknown field `{k}`, expected `limits`"),
                    ));
                }
            }
            Ok(limits)
        }
    }
}

/// `parseTrecRun` / `parseQrels`. In: options, text. Out: the run (JSON).
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn parse(
    r: &mut Reader<'_>,
    w: &mut Writer,
    f: fn(&str) -> Result<Run>,
    function: &str,
) -> Result<()> {
    let limits = limits_only(r, function)?;
    let text = r.text()?;
    limits.check_total_text(text.len(), "text")?;
    let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
    limits.check_entries(lines, "text")?;
    write_run(w, &f(text)?)
}

/// Decodes a run (JSON) and charges its entries and strings to `budget`.
fn decode_run(text: &str, field: &str, budget: &mut Budget) -> Result<Run> {
    let run: Run = json::from_text(text, field)?;
    charge_run(&run, field, budget)?;
    Ok(run)
}

/// Charges a run's entries and the bytes of its ids.
fn charge_run(run: &Run, field: &str, budget: &mut Budget) -> Result<()> {
    budget.entries(run.values().map(BTreeMap::len).sum(), field)?;
    let bytes: usize = run
        .iter()
        .map(|(q, docs)| q.len() + docs.keys().map(String::len).sum::<usize>())
        .sum();
    budget.text(bytes, field)
}

fn decode_runs(text: &str, budget: &mut Budget) -> Result<Vec<Run>> {
    let tree = json::parse(text, "runs")?;
    let Json::Arr(items) = &tree else {
        return Err(ScoreError::new(
            ErrorCode::InvalidType,
            "runs",
            "expected an array of runs",
        ));
    };
    budget.limits.check_lists(items.len(), "runs")?;
    items
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let field = format!("runs[{i}]");
            let run: Run = json::decode(t, &field)?;
            charge_run(&run, &field, budget)?;
            Ok(run)
        })
        .collect()
}

/// `evaluate` / `evaluatePerQuery`. In: options, qrels, run, metrics (JSON each). Out:
/// JSON.
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn evaluate(r: &mut Reader<'_>, w: &mut Writer, per_query: bool) -> Result<()> {
    let limits = limits_only(
        r,
        if per_query {
            "evaluatePerQuery"
        } else {
            "evaluate"
        },
    )?;
    let mut budget = Budget::new(limits);
    let qrels = decode_run(r.text()?, "qrels", &mut budget)?;
    let run = decode_run(r.text()?, "run", &mut budget)?;
    let metrics: Vec<String> = json::from_text(r.text()?, "metrics")?;
    Limits::default().check_lists(metrics.len(), "metrics")?;
    let names: Vec<&str> = metrics.iter().map(String::as_str).collect();
    let ev = eval::evaluate(&qrels, &run, &names)?;
    if per_query {
        let per: BTreeMap<String, BTreeMap<&str, f64>> = ev
            .means
            .iter()
            .filter_map(|(name, _)| Some((name.clone(), ev.query_values(name)?)))
            .collect();
        write_json(w, &per)
    } else {
        let means: BTreeMap<&str, f64> = ev.means.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        write_json(w, &means)
    }
}

/// `fuseRuns`. In: options, runs (JSON each). Out: the fused run (JSON).
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn fuse_runs(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let (limits, opts): (Limits, runfusion::FuseRunsOptions) = match r.opt_text()? {
        Some(t) => with_limits(Some(t), "options", "fuseRuns")?,
        None => {
            return Err(ScoreError::new(
                ErrorCode::InvalidType,
                "options",
                "expected the options, with at least `method`",
            ))
        }
    };
    let runs = decode_runs(r.text()?, &mut Budget::new(limits))?;
    let fused = runfusion::fuse_runs(&runs, &opts).map_err(|e| {
        if e.field.starts_with("runs") || e.field.starts_with("result") {
            e
        } else {
            e.within("options")
        }
    })?;
    write_run(w, &fused)
}

/// Options errors name `options.*`; errors about the judgements or runs keep their
/// own field.
fn within_options(e: ScoreError) -> ScoreError {
    if ["qrels", "runs", "model"]
        .iter()
        .any(|f| e.field.starts_with(f))
    {
        e
    } else {
        e.within("options")
    }
}

/// `fitQueryConfidence`. In: options (JSON or NONE), qrels, runs (JSON each). Out: the
/// model (JSON).
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn fit_query_confidence(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let (limits, opts): (Limits, fit::FitQueryConfidenceOptions) =
        with_limits(r.opt_text()?, "options", "fitQueryConfidence")?;
    let mut budget = Budget::new(limits);
    let qrels = decode_run(r.text()?, "qrels", &mut budget)?;
    let runs = decode_runs(r.text()?, &mut budget)?;
    let model = fit::fit_query_confidence(&qrels, &runs, &opts).map_err(within_options)?;
    write_json(w, &model)
}

/// `predictQueryConfidence`. In: options (JSON or NONE: `limits` only), model, runs
/// (JSON each). Out: `{ queryId: probability }` (JSON).
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn predict_query_confidence(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let limits = limits_only(r, "predictQueryConfidence")?;
    let mut budget = Budget::new(limits);
    let model: calibrank::confidence::model::QueryConfidenceModel =
        json::from_text(r.text()?, "model")?;
    let runs = decode_runs(r.text()?, &mut budget)?;
    let p = fit::predict_query_confidence(&model, &runs)?;
    write_json(w, &p)
}

#[allow(unsafe_code)]
mod host {
    #[cfg(target_arch = "wasm32")]
    #[link(wasm_import_module = "calibrank")]
    extern "C" {
        fn progress(done: f64, total: f64, best: f64);
    }

    /// Reports search progress to js/lab.js, which calls the caller's `onProgress`
    /// synchronously inside the import and catches anything it throws, so nothing
    /// unwinds through wasm frames.
    pub fn report(done: usize, total: usize, best: f64) {
        #[cfg(target_arch = "wasm32")]
        // SAFETY: an import taking and returning plain numbers; js/lab.js provides it
        // and it never throws (it catches the callback's exceptions).
        unsafe {
            progress(done as f64, total as f64, best)
        }
        #[cfg(not(target_arch = "wasm32"))]
        let _ = (done, total, best);
    }
}

/// `optimizeFusion`. In: options, qrels, runs (JSON each), whether to report progress
/// (F64). Out: the report (JSON).
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn optimize(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let (limits, opts): (Limits, optimize::OptimizeOptions) =
        with_limits(r.opt_text()?, "options", "optimizeFusion")?;
    let mut budget = Budget::new(limits);
    let qrels = decode_run(r.text()?, "qrels", &mut budget)?;
    let runs = decode_runs(r.text()?, &mut budget)?;
    let report_progress = r.f64()? != 0.0;
    optimize::check_work(&runs, &opts, &limits).map_err(|e| match e.field.as_str() {
        "runs" => e,
        _ => e.within("options"),
    })?;
    let mut progress = |p: optimize::Progress| {
        if report_progress {
            host::report(p.done, p.total, p.best_score);
        }
    };
    let report =
        optimize::optimize_fusion(&qrels, &runs, &opts, &mut progress).map_err(|e| {
            match e.field.as_str() {
                "runs" | "qrels" => e,
                _ if e.field.starts_with("runs") => e,
                _ => e.within("options"),
            }
        })?;
    write_json(w, &report)
}

fn scores_labels<'a>(
    r: &mut Reader<'a>,
    limits: &Limits,
    names: [&str; 2],
) -> Result<(&'a [f64], &'a [f64])> {
    let s = r.f64s()?;
    limits.check_array(s.len(), names[0])?;
    let l = r.f64s()?;
    limits.check_array(l.len(), names[1])?;
    Ok((s, l))
}

/// `fitPlatt` / `fitIsotonic`. In: options, scores, labels. Out: the calibration (JSON).
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn fit_with(
    r: &mut Reader<'_>,
    w: &mut Writer,
    f: fn(&[f64], &[f64]) -> Result<Calibration>,
) -> Result<()> {
    let limits = limits_only(r, "fit")?;
    let (s, l) = scores_labels(r, &limits, ["scores", "labels"])?;
    write_json(w, &f(s, l)?)
}

/// `applyCalibration`. In: options, calibration (JSON), an isotonic model's x and y (F64
/// or NONE each), scores. Out: F64.
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn apply_calibration(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let limits = limits_only(r, "applyCalibration")?;
    let text = r.text()?;
    limits.check_total_text(text.len(), "calibration")?;
    let mut cal: Calibration = json::from_text(text, "calibration")?;
    // An isotonic model's knots come as numbers (js/lab.js), not in the JSON.
    if let (Some(x), Some(y)) = (r.opt_f64s()?, r.opt_f64s()?) {
        if let Calibration::Isotonic(m) = &mut cal {
            m.x = x.to_vec();
            m.y = y.to_vec();
        }
    }
    if let Calibration::Isotonic(m) = &cal {
        limits.check_array(m.x.len(), "calibration.x")?;
        limits.check_array(m.y.len(), "calibration.y")?;
    }
    cal.validate().map_err(|e| e.within("calibration"))?;
    let scores = r.f64s()?;
    limits.check_array(scores.len(), "scores")?;
    all_finite(scores, "scores")?;
    w.f64s(&cal.apply_many(scores));
    Ok(())
}

/// `calibrationError`. In: options, probabilities, labels. Out: the report (JSON).
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn calibration_error(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let (limits, opts): (Limits, fit::CalibrationErrorOptions) =
        with_limits(r.opt_text()?, "options", "calibrationError")?;
    let (p, l) = scores_labels(r, &limits, ["probabilities", "labels"])?;
    write_json(w, &fit::calibration_error(p, l, &opts)?)
}

/// `proposeBands`. In: options, scores, labels. Out: the proposal (JSON).
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn propose_bands(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let (limits, opts): (Limits, fit::ProposeBandsOptions) =
        with_limits(r.opt_text()?, "options", "proposeBands")?;
    let (s, l) = scores_labels(r, &limits, ["scores", "labels"])?;
    write_json(w, &fit::propose_bands(s, l, &opts)?)
}
