//! `calibrank_lab.wasm`: the lab's exports (TREC parsing, ranx-compatible evaluation,
//! run fusion and its tuning, calibration fitting), a thin table over `calibrank::lab`.
//! Same boundary as the core module (`wasm/shared`); js/lab.js writes the inputs.

#![deny(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod handles;

use calibrank::error::{all_finite, ErrorCode, Result, ScoreError};
use calibrank::lab::eval::Ties;
use calibrank::lab::runs::{ranx_sort, to_run, OrderedRun, Qrels, Run};
use calibrank::lab::{eval, fit, optimize, runfusion};
use calibrank::limits::{Budget, LimitedFunction, Limits};
use calibrank::pipeline::Calibration;
use calibrank_wasm_shared::json;
use calibrank_wasm_shared::options::{given_with_limits, with_limits, within_if, within_unless};
use calibrank_wasm_shared::wire::{Reader, Writer};
use calibrank_wasm_shared::write_json;
use handles::{Arg, Args, Stored};
use serde::Deserialize;
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
    pub const EVALUATE_QUERY_CONFIDENCE: u32 = 53;
    // Run and Qrels handles (60-79).
    pub const RUN_FROM_TREC: u32 = 60;
    pub const QRELS_FROM_TREC: u32 = 61;
    pub const RUN_FROM_OBJECT: u32 = 62;
    pub const QRELS_FROM_OBJECT: u32 = 63;
    pub const HANDLE_TO_OBJECT: u32 = 64;
    pub const HANDLE_INFO: u32 = 65;
    pub const HANDLE_FREE: u32 = 66;
    pub const HANDLES_LIVE: u32 = 67;
    pub const HANDLE_SELECT: u32 = 68;
    pub const RUN_RANKING: u32 = 69;
}

fn dispatch(op: u32, r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    if let Some(done) = calibrank_wasm_shared::common_op(op, w) {
        return done;
    }
    match op {
        op::PARSE_RUN => parse(r, w, LimitedFunction::ParseTrecRun, |t, w| {
            handles::write_run(w, &eval::parse_trec_run_ordered(t)?)
        }),
        op::PARSE_QRELS => parse(r, w, LimitedFunction::ParseQrels, |t, w| {
            handles::write_qrels(w, &eval::parse_qrels(t)?)
        }),
        op::EVALUATE => evaluate(r, w, false),
        op::EVALUATE_PER_QUERY => evaluate(r, w, true),
        op::FUSE_RUNS => fuse_runs(r, w),
        op::OPTIMIZE => optimize(r, w),
        op::FIT_PLATT => fit_with(r, w, LimitedFunction::FitPlatt, |s, l| {
            Ok(Calibration::Platt(fit::fit_platt(s, l)?))
        }),
        op::FIT_ISOTONIC => fit_with(r, w, LimitedFunction::FitIsotonic, |s, l| {
            Ok(Calibration::Isotonic(fit::fit_isotonic(s, l)?))
        }),
        op::APPLY_CALIBRATION => apply_calibration(r, w),
        op::CALIBRATION_ERROR => calibration_error(r, w),
        op::PROPOSE_BANDS => propose_bands(r, w),
        op::FIT_QUERY_CONFIDENCE => fit_query_confidence(r, w),
        op::PREDICT_QUERY_CONFIDENCE => predict_query_confidence(r, w),
        op::EVALUATE_QUERY_CONFIDENCE => evaluate_query_confidence(r, w),
        op::RUN_FROM_TREC => new_handle(r, w, Kind::RunTrec),
        op::QRELS_FROM_TREC => new_handle(r, w, Kind::QrelsTrec),
        op::RUN_FROM_OBJECT => new_handle(r, w, Kind::RunObject),
        op::QRELS_FROM_OBJECT => new_handle(r, w, Kind::QrelsObject),
        op::HANDLE_TO_OBJECT => handle_to_object(r, w),
        op::HANDLE_INFO => handle_info(r, w),
        op::HANDLE_SELECT => handle_select(r, w),
        op::RUN_RANKING => run_ranking(r, w),
        op::HANDLE_FREE => {
            handles::free(r.u32()?);
            Ok(())
        }
        op::HANDLES_LIVE => {
            w.f64s(&[handles::live() as f64]);
            Ok(())
        }
        _ => Err(calibrank_wasm_shared::unknown_op(op)),
    }
}

/// The options of a function whose only option is `limits`: an object (or none), its
/// other keys `UNKNOWN_FIELD`, anything else (`"utf8"`, `42`, a function) `INVALID_TYPE`
/// on `options` worded as every other function's options are ("expected an object, got
/// "utf8""). The limits were taken off a tree of any kind before: a string or a number
/// was read as no options.
#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct LimitsOnly {}

/// The limits of a function whose only option is `limits` (see [`LimitsOnly`]).
fn limits_only(r: &mut Reader<'_>, function: LimitedFunction) -> Result<Limits> {
    let (limits, LimitsOnly {}) = with_limits(r.opt_text()?, "options", function)?;
    Ok(limits)
}

/// `parseTrecRun` / `parseQrels`. In: options, text. Out: the run (JSON; a run's
/// documents in file order, so that the object ranks ties as ranx ranks the file).
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn parse(
    r: &mut Reader<'_>,
    w: &mut Writer,
    function: LimitedFunction,
    f: fn(&str, &mut Writer) -> Result<()>,
) -> Result<()> {
    let limits = limits_only(r, function)?;
    let text = r.text()?;
    check_trec_text(&limits, text)?;
    f(text, w)
}

/// A TREC text against the limits: its bytes, and its non-blank lines as entries.
fn check_trec_text(limits: &Limits, text: &str) -> Result<()> {
    limits.check_total_text(text.len(), "text")?;
    let lines = eval::text_lines(text)
        .filter(|l| !l.trim().is_empty())
        .count();
    limits.check_entries(lines, "text")
}

/// Options of `evaluate` / `evaluatePerQuery` (besides `limits`).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct EvaluateOptions {
    /// The tie rule: `"ranx"` (default) or `"trec_eval"`.
    #[serde(default)]
    ties: Option<String>,
}

impl EvaluateOptions {
    fn ties(&self) -> Result<Ties> {
        match self.ties.as_deref() {
            None | Some("ranx") => Ok(Ties::Ranx),
            Some("trec_eval") => Ok(Ties::TrecEval),
            Some(other) => Err(ScoreError::new(
                ErrorCode::UnknownMethod,
                "options.ties",
                // Worded as every unknown name is (the name given cut after 64
                // characters; the package adds the nearest name).
                calibrank::error::not_one_of(other, &["ranx", "trec_eval"]),
            )),
        }
    }
}

/// The judgements of an object argument, decoded (`None` for a handle: see [`qrels_arg`]).
/// Either is charged to `budget`: a handle's judgements count as the same object's
/// would (a handle saves reading them, not judging with them).
fn decode_qrels(arg: Arg<'_>, budget: &mut Budget) -> Result<Option<Qrels>> {
    match arg {
        Arg::Object(o) => Ok(Some(handles::decode_qrels(&o, "qrels", budget)?)),
        Arg::Handle(h) => {
            handles::with(|store| {
                let q = handles::qrels(store, h, "qrels")?;
                handles::charge_qrels(q, "qrels", budget)
            })?;
            Ok(None)
        }
    }
}

fn qrels_arg<'s>(
    store: &'s calibrank_wasm_shared::Slab<Stored>,
    arg: Arg<'_>,
    owned: &'s Option<Qrels>,
) -> Result<&'s Qrels> {
    match (owned, arg) {
        (Some(q), _) => Ok(q),
        (None, Arg::Handle(h)) => handles::qrels(store, h, "qrels"),
        (None, Arg::Object(_)) => Err(ScoreError::new(ErrorCode::Internal, "qrels", "not decoded")),
    }
}

/// A run from an argument: decoded from an object (owned) or a handle's (borrowed).
fn run_arg<'s>(
    store: &'s calibrank_wasm_shared::Slab<Stored>,
    arg: Arg<'_>,
    owned: &'s Option<OrderedRun>,
    field: &str,
    budget: &mut Budget,
) -> Result<&'s OrderedRun> {
    match (owned, arg) {
        (Some(r), _) => Ok(r),
        (None, Arg::Handle(h)) => handles::run(store, h, field, budget),
        (None, Arg::Object(_)) => Err(ScoreError::new(ErrorCode::Internal, field, "not decoded")),
    }
}

/// `evaluate` / `evaluatePerQuery`. In: options, qrels, run (an object or a handle each,
/// see [`handles::arg`]), metrics (JSON). Out: JSON.
///
/// A run object is read as ranx's `Run(dict)` reads a dict (its key order, then ranx's
/// sort); a `Run` handle is already in that order.
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn evaluate(r: &mut Reader<'_>, w: &mut Writer, per_query: bool) -> Result<()> {
    let function = if per_query {
        LimitedFunction::EvaluatePerQuery
    } else {
        LimitedFunction::Evaluate
    };
    let (limits, opts): (Limits, EvaluateOptions) =
        with_limits(r.opt_text()?, "options", function)?;
    let ties = opts.ties()?;
    let mut budget = Budget::new(limits);
    let q_arg = handles::arg(r)?;
    let r_arg = handles::arg(r)?;
    let metrics: Vec<String> = json::from_text(r.text()?, "metrics")?;
    limits.check_lists(metrics.len(), "metrics")?;
    let names: Vec<&str> = metrics.iter().map(String::as_str).collect();
    let owned_q = decode_qrels(q_arg, &mut budget)?;
    let owned_r = match r_arg {
        Arg::Object(o) => Some(handles::decode_run(&o, "run", &mut budget)?),
        Arg::Handle(_) => None,
    };
    let ev = handles::with(|store| {
        let qrels = qrels_arg(store, q_arg, &owned_q)?;
        let run = run_arg(store, r_arg, &owned_r, "run", &mut budget)?;
        match ties {
            // Handles and decoded objects are checked (finite, no duplicate) already.
            Ties::Ranx => eval::evaluate_ranked_checked(qrels, run, &names),
            Ties::TrecEval => eval::evaluate_ties(qrels, run, &names, Ties::TrecEval),
        }
    })?;
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

/// Runs from a runs argument: decoded from objects (each as ranx's `Run(dict)`), or the
/// handles' (borrowed). Calls `f` with them.
fn with_runs<T>(
    args: &Args<'_>,
    budget: &mut Budget,
    f: impl FnOnce(&[&OrderedRun]) -> Result<T>,
) -> Result<T> {
    match args {
        Args::Objects(objects) => {
            budget.limits.check_lists(objects.len(), "runs")?;
            let runs = objects
                .iter()
                .enumerate()
                .map(|(i, o)| handles::decode_run(o, &format!("runs[{i}]"), budget))
                .collect::<Result<Vec<OrderedRun>>>()?;
            let refs: Vec<&OrderedRun> = runs.iter().collect();
            f(&refs)
        }
        Args::Handles(hs) => {
            budget.limits.check_lists(hs.len(), "runs")?;
            handles::with(|store| {
                let refs = hs
                    .iter()
                    .enumerate()
                    .map(|(i, h)| handles::run(store, *h, &format!("runs[{i}]"), budget))
                    .collect::<Result<Vec<&OrderedRun>>>()?;
                f(&refs)
            })
        }
    }
}

/// The runs of an argument as maps, for the functions whose results do not depend on
/// the runs' order (the query-confidence model's features).
fn runs_as_maps(args: &Args<'_>, budget: &mut Budget) -> Result<Vec<Run>> {
    with_runs(args, budget, |runs| {
        Ok(runs.iter().map(|r| to_run(r)).collect())
    })
}

/// `fuseRuns`. In: options, runs (objects, or a `U32` section of `Run` handles: see
/// [`handles::args`]).
/// Out: the fused run: JSON (each query's documents in ranx's order) for objects, a new
/// handle (`U32`) for handles.
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn fuse_runs(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let (limits, opts): (Limits, runfusion::FuseRunsOptions) = match r.opt_text()? {
        Some(t) => given_with_limits(t, "options", LimitedFunction::FuseRuns)?,
        None => {
            return Err(ScoreError::new(
                ErrorCode::InvalidType,
                "options",
                "expected the options, with at least `method`",
            ))
        }
    };
    let args = handles::args(r)?;
    let fused = with_runs(&args, &mut Budget::new(limits), |runs| {
        // Every run was checked for a document listed twice when it was read (an object
        // by `handles::read`, a handle when it was made): not checked again.
        runfusion::fuse_unique(runs, &opts).map_err(|e| {
            if e.field.starts_with("runs") {
                e
            } else {
                e.within("options")
            }
        })
    })?;
    match args {
        Args::Handles(_) => {
            w.u32s(&[handles::insert(Stored::Run(fused))]);
            Ok(())
        }
        Args::Objects(_) => handles::write_run(w, &fused),
    }
}

/// What `new_handle` reads.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    RunTrec,
    QrelsTrec,
    RunObject,
    QrelsObject,
}

/// `Run.fromTrec` / `Qrels.fromTrec` / `Run.fromObject` / `Qrels.fromObject`. In:
/// options, then the TREC text, or the object's path (TEXT) and the object (see
/// [`handles::arg`]). Out: the handle
/// (U32).
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn new_handle(r: &mut Reader<'_>, w: &mut Writer, kind: Kind) -> Result<()> {
    let function = match kind {
        Kind::RunTrec | Kind::RunObject => LimitedFunction::ParseTrecRun,
        Kind::QrelsTrec | Kind::QrelsObject => LimitedFunction::ParseQrels,
    };
    let limits = limits_only(r, function)?;
    let mut budget = Budget::new(limits);
    let stored = match kind {
        Kind::RunTrec | Kind::QrelsTrec => {
            let text = r.text()?;
            check_trec_text(&limits, text)?;
            if kind == Kind::RunTrec {
                let mut run = eval::parse_trec_run_ordered(text)?;
                ranx_sort(&mut run);
                Stored::Run(run)
            } else {
                Stored::Qrels(eval::parse_qrels(text)?)
            }
        }
        Kind::RunObject | Kind::QrelsObject => {
            // The object's path (`run`, `qrels`, or `runs[i]` of a call mixing Runs and
            // objects), then its sections (never a handle).
            let field = r.text()?;
            let Arg::Object(o) = handles::arg(r)? else {
                return Err(ScoreError::new(
                    ErrorCode::Internal,
                    "",
                    "wire: expected an object's sections",
                ));
            };
            if kind == Kind::RunObject {
                Stored::Run(handles::decode_run(&o, field, &mut budget)?)
            } else {
                Stored::Qrels(handles::decode_qrels(&o, field, &mut budget)?)
            }
        }
    };
    w.u32s(&[handles::insert(stored)]);
    Ok(())
}

/// `run.toObject()` / `qrels.toObject()`. In: the handle. Out: JSON (a run's documents
/// in its order).
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn handle_to_object(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let h = r.u32()?;
    handles::with(|store| match store.get(h)? {
        Stored::Run(run) => handles::write_run(w, run),
        Stored::Qrels(q) => handles::write_qrels(w, q),
    })
}

/// `size`, `queryIds`. In: the handle. Out: the query ids (STRS), then `[entries]`
/// (F64).
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn handle_info(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let h = r.u32()?;
    handles::with(|store| {
        let (ids, entries): (Vec<&str>, usize) = match store.get(h)? {
            Stored::Run(run) => (
                run.keys().map(String::as_str).collect(),
                run.values().map(Vec::len).sum(),
            ),
            Stored::Qrels(q) => (
                q.keys().map(String::as_str).collect(),
                q.values().map(BTreeMap::len).sum(),
            ),
        };
        w.strs(ids.iter().copied());
        w.f64s(&[entries as f64]);
        Ok(())
    })
}

/// `run.select(queryIds)` / `qrels.select(queryIds)`. In: the handle, the query ids
/// (STRS). Out: a new handle (U32) holding those of its queries, each as it is (a run's
/// documents in the same order: a split of a run gives ranx's figures, where a run
/// object of the same queries would be sorted again); an id it does not hold is left out.
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn handle_select(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let h = r.u32()?;
    let ids = r.strs()?;
    let stored = handles::with(|store| {
        let named = || (0..ids.len()).map(|i| ids.get(i));
        Ok(match store.get(h)? {
            Stored::Run(all) => {
                let mut run = OrderedRun::new();
                for q in named() {
                    let q = q?;
                    if let Some(docs) = all.get(q) {
                        run.insert(q.to_string(), docs.clone());
                    }
                }
                Stored::Run(run)
            }
            Stored::Qrels(all) => {
                let mut qrels = calibrank::lab::runs::Qrels::new();
                for q in named() {
                    let q = q?;
                    if let Some(grades) = all.get(q) {
                        // Entry by entry: a map's `clone` cost the module 426 B more,
                        // gzipped (a build of that variant, not kept).
                        let copy = qrels.entry(q.to_string()).or_default();
                        for (d, &g) in grades {
                            copy.insert(d.clone(), g);
                        }
                    }
                }
                Stored::Qrels(qrels)
            }
        })
    })?;
    w.u32s(&[handles::insert(stored)]);
    Ok(())
}

/// `run.ranking(queryId)`. In: the handle, the query id (TEXT). Out: the query's
/// document ids (STRS) and scores (F64) in the run's (ranx's) order; none for a query
/// the run does not hold.
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn run_ranking(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let h = r.u32()?;
    let q = r.text()?;
    handles::with(|store| {
        let Stored::Run(run) = store.get(h)? else {
            return Err(ScoreError::new(
                ErrorCode::InvalidType,
                "this",
                "expected a Run, got a Qrels",
            ));
        };
        let docs = run.get(q).map(Vec::as_slice).unwrap_or_default();
        w.strs(docs.iter().map(|(d, _)| d.as_str()));
        w.f64s(&docs.iter().map(|(_, s)| *s).collect::<Vec<_>>());
        Ok(())
    })
}

/// `fitQueryConfidence`. In: options (JSON or NONE), qrels (an object or a handle), runs
/// (objects or handles). Out: the model (JSON).
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn fit_query_confidence(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let (limits, opts): (Limits, fit::FitQueryConfidenceOptions) = with_limits(
        r.opt_text()?,
        "options",
        LimitedFunction::FitQueryConfidence,
    )?;
    let mut budget = Budget::new(limits);
    let q_arg = handles::arg(r)?;
    let owned_q = decode_qrels(q_arg, &mut budget)?;
    let args = handles::args(r)?;
    // The model reads runs as maps (order plays no part in its features).
    let runs = runs_as_maps(&args, &mut budget)?;
    let model = handles::with(|store| {
        let qrels = qrels_arg(store, q_arg, &owned_q)?;
        fit::fit_query_confidence_limited(qrels, &runs, &opts, &limits)
    })
    .map_err(|e| within_unless(e, "options", &["qrels", "runs", "model"]))?;
    write_json(w, &model)
}

/// `predictQueryConfidence`. In: options (JSON or NONE: `limits` only), model (JSON),
/// runs (objects or handles). Out: `{ queryId: probability }` (JSON).
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn predict_query_confidence(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let limits = limits_only(r, LimitedFunction::PredictQueryConfidence)?;
    let mut budget = Budget::new(limits);
    let model: calibrank::confidence::model::QueryConfidenceModel =
        json::from_text(r.text()?, "model")?;
    let args = handles::args(r)?;
    let runs = runs_as_maps(&args, &mut budget)?;
    let p = fit::predict_query_confidence(&model, &runs)?;
    write_json(w, &p)
}

/// `evaluateQueryConfidence`. In: options (JSON or NONE: `limits` only), model (JSON),
/// qrels (an object or a handle), runs (objects or handles). Out: the evaluation (JSON).
// Not inlined into the dispatch (see `predict_query_confidence`).
#[inline(never)]
fn evaluate_query_confidence(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let limits = limits_only(r, LimitedFunction::EvaluateQueryConfidence)?;
    let mut budget = Budget::new(limits);
    let model: calibrank::confidence::model::QueryConfidenceModel =
        json::from_text(r.text()?, "model")?;
    let q_arg = handles::arg(r)?;
    let owned_q = decode_qrels(q_arg, &mut budget)?;
    let args = handles::args(r)?;
    let runs = runs_as_maps(&args, &mut budget)?;
    let evaluation = handles::with(|store| {
        let qrels = qrels_arg(store, q_arg, &owned_q)?;
        fit::evaluate_query_confidence(&model, qrels, &runs)
    })?;
    write_json(w, &evaluation)
}

#[allow(unsafe_code)]
mod host {
    #[cfg(target_arch = "wasm32")]
    #[link(wasm_import_module = "calibrank")]
    extern "C" {
        fn progress(done: f64, total: f64, best: f64) -> i32;
    }

    /// Reports search progress to js/lab/shared.js, which calls the caller's `onProgress`
    /// synchronously inside the import and catches anything it throws, so nothing
    /// unwinds through wasm frames. Whether to go on: 0 once the callback has thrown
    /// (the search then stops, and the package rethrows the callback's exception).
    pub fn report(done: usize, total: usize, best: f64) -> bool {
        #[cfg(target_arch = "wasm32")]
        // SAFETY: an import taking and returning plain numbers; js/lab/shared.js provides it
        // and it never throws (it catches the callback's exceptions).
        unsafe {
            progress(done as f64, total as f64, best) != 0
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let _ = (done, total, best);
            true
        }
    }
}

/// `optimizeFusion`. In: options, qrels (an object or a handle), runs (objects or
/// handles), whether to report progress (F64). Out: the report (JSON).
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn optimize(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let (limits, opts): (Limits, optimize::OptimizeOptions) =
        with_limits(r.opt_text()?, "options", LimitedFunction::OptimizeFusion)?;
    let mut budget = Budget::new(limits);
    let q_arg = handles::arg(r)?;
    let owned_q = decode_qrels(q_arg, &mut budget)?;
    let args = handles::args(r)?;
    let report_progress = r.f64()? != 0.0;
    let mut progress =
        |p: optimize::Progress| !report_progress || host::report(p.done, p.total, p.best_score);
    let report = with_runs(&args, &mut budget, |runs| {
        let entries = runs.iter().flat_map(|r| r.values().map(Vec::len)).sum();
        handles::with(|store| {
            let qrels = qrels_arg(store, q_arg, &owned_q)?;
            // (A fault of the grid's options is put under `options` below.)
            let judged = optimize::judgements(qrels);
            optimize::check_work_entries(runs.len(), entries, judged, &opts, &limits)?;
            // Stopped by the callback (it threw): the package rethrows its exception,
            // whatever this error says.
            optimize::optimize_fusion_until(qrels, runs, &opts, &mut progress)?
                .ok_or_else(|| ScoreError::new(ErrorCode::Internal, "", "stopped by onProgress"))
        })
        .map_err(|e| match e.field.as_str() {
            "runs" | "qrels" => e,
            _ if e.field.starts_with("runs") || e.field.starts_with("qrels.") => e,
            _ => e.within("options"),
        })
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
    function: LimitedFunction,
    f: fn(&[f64], &[f64]) -> Result<Calibration>,
) -> Result<()> {
    let limits = limits_only(r, function)?;
    let (s, l) = scores_labels(r, &limits, ["scores", "labels"])?;
    write_json(w, &f(s, l)?)
}

/// `applyCalibration`. In: options, calibration (JSON), an isotonic model's x and y (F64
/// or NONE each), scores. Out: F64.
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn apply_calibration(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let limits = limits_only(r, LimitedFunction::ApplyCalibration)?;
    let text = r.text()?;
    limits.check_total_text(text.len(), "calibration")?;
    let mut cal: Calibration = json::from_text(text, "calibration")?;
    // An isotonic model's knots come as numbers (js/lab/fit.js), not in the JSON.
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
        with_limits(r.opt_text()?, "options", LimitedFunction::CalibrationError)?;
    let (p, l) = scores_labels(r, &limits, ["probabilities", "labels"])?;
    let report =
        fit::calibration_error(p, l, &opts).map_err(|e| within_if(e, "options", &["bins"]))?;
    write_json(w, &report)
}

/// `proposeBands`. In: options, scores, labels. Out: the proposal (JSON).
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn propose_bands(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let (limits, opts): (Limits, fit::ProposeBandsOptions) =
        with_limits(r.opt_text()?, "options", LimitedFunction::ProposeBands)?;
    let (s, l) = scores_labels(r, &limits, ["scores", "labels"])?;
    let proposal = fit::propose_bands_limited(s, l, &opts, &limits)
        .map_err(|e| within_if(e, "options", &["targetPrecision", "folds", "seed"]))?;
    write_json(w, &proposal)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `limits_only` of options text as js/lab writes it (`None`: no options).
    fn limits_of(text: Option<&str>) -> Result<Limits> {
        let mut w = Writer::default();
        match text {
            None => w.none(),
            Some(t) => w.text(t),
        }
        let words: Vec<u64> = w
            .bytes()
            .chunks(8)
            .map(|c| {
                let mut word = [0u8; 8];
                word[..c.len()].copy_from_slice(c);
                u64::from_le_bytes(word)
            })
            .collect();
        let mut r = Reader::new(calibrank_wasm_shared::words_as_bytes(&words));
        limits_only(&mut r, LimitedFunction::FitPlatt)
    }

    /// Options that are not an object were read as no options (`parseTrecRun(text,
    /// "utf8")`, `fitPlatt(s, l, 42)`): now `INVALID_TYPE` on `options`, worded as the
    /// core's `calibrate([0.1], "utf8")`.
    #[test]
    fn limits_only_options_must_be_an_object() {
        let said = |t: &str| {
            let e = limits_of(Some(t)).unwrap_err();
            (e.code, e.field, e.message)
        };
        let wrong = |got: &str| {
            (
                ErrorCode::InvalidType,
                "options".to_string(),
                format!("expected an object, got {got}"),
            )
        };
        assert_eq!(said(r#""utf8""#), wrong(r#""utf8""#));
        assert_eq!(said("42"), wrong("42"));
        assert_eq!(said("true"), wrong("true"));
        assert_eq!(said("[1]"), wrong("an array of 1"));
        // Not JSON: js/wire/json.js writes what the value was.
        assert_eq!(said("\"\\u0000function\""), wrong("function"));
        // No options, `null`, an object with its limits alone or none: the limits.
        let defaults = Limits::of(LimitedFunction::FitPlatt);
        assert_eq!(limits_of(None).unwrap(), defaults);
        assert_eq!(limits_of(Some("null")).unwrap(), defaults);
        assert_eq!(limits_of(Some("{}")).unwrap(), defaults);
        let l = limits_of(Some(r#"{"limits":{"maxTotalEntries":3}}"#)).unwrap();
        assert_eq!(l.max_total_entries, 3);
        // Any other key: UNKNOWN_FIELD listing `limits`.
        let e = limits_of(Some(r#"{"limit":{}}"#)).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str(), e.message.as_str()),
            (
                ErrorCode::UnknownField,
                "options.limit",
                "unknown field `limit`, expected `limits`"
            )
        );
        // A long key, shown cut: `limits` listed still.
        let long = "k".repeat(100);
        let e = limits_of(Some(&format!(r#"{{"{long}":1}}"#))).unwrap_err();
        assert_eq!(
            e.message,
            format!(
                "unknown field `{}`... (100 bytes), expected `limits`",
                "k".repeat(64)
            )
        );
    }
}
