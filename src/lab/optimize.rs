//! Fusion tuning: a grid search over a fusion method's weights and parameters that
//! maximizes one metric on judgements, like ranx's `optimize_fusion`.
//!
//! * Weighted methods (`wsum`, `wmnz`, `mixed`, `w_bordafuse`, `w_condorcet`, `dbsf`
//!   and the OpenSearch means): every weight vector with components in
//!   `{0, step, 2 step, ..., 1}` summing to 1 (step 0.1 by default), in descending
//!   lexicographic order (the first run's weight 1 first).
//! * `rrf`: `k` over `kValues` (default 10, 20, ..., 100), in the order given.
//! * `rbc`: `phi` over `{step, 2 step, ..., 1 - step}`, ascending (step 0.01 by default,
//!   as ranx's `optimize_rbc`: 0.01 to 0.99; ranx also tries `phi` 1, which scores every
//!   document 0).
//! * `gmnz`: `gamma`, and `logn_isr`: `sigma`, over `{step, 2 step, ..., 1}`, ascending
//!   (step 0.01 by default: ranx's `optimize_comb_gmnz` and `optimize_logn_isr`, 0.01 to
//!   1; for another step ranx rounds `arange(0.01, 1 + step, step)` to the step's digits,
//!   which at 0.1 gives 0, 0.1, ..., 1).
//!
//! Among configurations reaching the highest score, the best is the one ranx picks
//! (its searches keep a score `>=` the best so far, over ascending grids): the last in
//! grid order for `rrf` and `rbc`, the first for the weighted methods, whose grid is
//! walked from the other end (ranx's last). The report lists every configuration tried
//! with its score.

use crate::error::{ErrorCode, Result, ScoreError};
use crate::lab::runfusion::{check_rrf_k, check_unique, FuseRunsOptions, Prepared};
use crate::lab::runs::{ranked_by_id, OrderedRun, Qrels, Run};
use serde::{Deserialize, Serialize};
use std::borrow::Borrow;
use std::collections::BTreeMap;

/// Methods that take one weight per run.
pub const WEIGHTED: [&str; 9] = [
    "wsum",
    "wmnz",
    "mixed",
    "w_bordafuse",
    "w_condorcet",
    "dbsf",
    "arithmetic_mean",
    "geometric_mean",
    "harmonic_mean",
];

/// The most configurations one search may try.
pub const MAX_TRIALS: usize = 100_000;

/// The weights' grid step when none is given (ranx's `optimize_wsum` and the others).
pub const WEIGHT_STEP: f64 = 0.1;

/// `phi`'s grid step when none is given (ranx's `optimize_rbc`).
pub const PHI_STEP: f64 = 0.01;

/// Options of [`optimize_fusion`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct OptimizeOptions {
    /// Fusion method (default `wsum`).
    pub method: String,
    /// Metric to maximize, ranx's spelling (default `ndcg@10`).
    pub metric: String,
    /// Normalization (default: the method's default).
    pub norm: Option<String>,
    /// Grid step: of the weights (default 0.1) or of `phi`, `gamma` and `sigma` (default
    /// 0.01), the defaults of ranx's searches; 1/step must be a whole number.
    pub step: Option<f64>,
    /// Values of `k` tried for `rrf` (default 10, 20, ..., 100).
    pub k_values: Vec<f64>,
}

impl Default for OptimizeOptions {
    fn default() -> Self {
        OptimizeOptions {
            method: "wsum".into(),
            metric: "ndcg@10".into(),
            norm: None,
            step: None,
            k_values: (1..=10).map(|i| f64::from(i) * 10.0).collect(),
        }
    }
}

/// One configuration tried.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Trial {
    /// Weights (weighted methods).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weights: Option<Vec<f64>>,
    /// Parameters (`k`, `phi`, `gamma` or `sigma`).
    pub params: BTreeMap<String, f64>,
    /// The metric's mean over the judged queries.
    pub score: f64,
}

/// The search's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OptimizeReport {
    /// Method searched.
    pub method: String,
    /// Metric maximized.
    pub metric: String,
    /// The best configuration.
    pub best: Trial,
    /// Every configuration tried, in grid order.
    pub trials: Vec<Trial>,
}

fn steps_of(step: f64) -> Result<u32> {
    let n = (1.0 / step).round();
    if !(step.is_finite()
        && step > 0.0
        && step <= 1.0
        && (n * step - 1.0).abs() < 1e-9
        && n <= 1000.0)
    {
        return Err(ScoreError::new(
            ErrorCode::InvalidConfig,
            "step",
            format!(
                "step must be 1/n for a whole n <= 1000, got {}",
                crate::error::num(step)
            ),
        ));
    }
    Ok(n as u32)
}

/// Every vector of `parts` non-negative integers summing to `total`, lexicographic.
fn compositions(total: u32, parts: usize) -> Vec<Vec<u32>> {
    if parts <= 1 {
        return vec![vec![total; parts]];
    }
    (0..=total)
        .rev()
        .flat_map(|first| {
            compositions(total - first, parts - 1)
                .into_iter()
                .map(move |mut rest| {
                    rest.insert(0, first);
                    rest
                })
        })
        .collect()
}

fn binomial(n: u64, k: u64) -> u64 {
    (1..=k).fold(1u64, |acc, i| acc.saturating_mul(n + 1 - i) / i)
}

/// One grid point: weights (weighted methods) and parameters.
type GridPoint = (Option<Vec<f64>>, BTreeMap<String, f64>);

/// A method the search cannot tune (unknown, or one with nothing to tune: `sum`):
/// `UNKNOWN_METHOD` on `method`, worded as every unknown name is (`"RRF" is not one of
/// "rrf", "rbc", "wsum", ...`, [`crate::error::not_one_of`]), so that the package's
/// JavaScript adds the nearest (`; did you mean "rrf"?`, js/wire/keys.js
/// `withNearestName`). It said `"RRF" has nothing to tune; use rrf, rbc or ...`, a shape
/// no suggestion was read from.
#[cold]
#[inline(never)]
fn nothing_to_tune(method: &str) -> ScoreError {
    let tuned: Vec<&str> = ["rrf", "rbc", "gmnz", "logn_isr"]
        .into_iter()
        .chain(WEIGHTED)
        .collect();
    ScoreError::new(
        ErrorCode::UnknownMethod,
        "method",
        format!(
            "{} (the methods optimizeFusion tunes: rrf's k, rbc's phi, gmnz's gamma, logn_isr's sigma, the weights of the others; any other method has nothing to tune)",
            crate::error::not_one_of(method, &tuned)
        ),
    )
}

/// The grid of configurations for the method.
fn grid(method: &str, n_runs: usize, opts: &OptimizeOptions) -> Result<Vec<GridPoint>> {
    // `step` is read (and checked) by the searches over weights and `phi` only.
    if WEIGHTED.contains(&method) {
        let n = steps_of(opts.step.unwrap_or(WEIGHT_STEP))?;
        let count = binomial(
            u64::from(n) + n_runs as u64 - 1,
            n_runs.saturating_sub(1) as u64,
        );
        if count > MAX_TRIALS as u64 {
            return Err(ScoreError::new(
                ErrorCode::InputTooLarge,
                "step",
                format!(
                    "{count} weight vectors exceed the grid's bound of {MAX_TRIALS} (fixed, whatever the limits); use a larger step"
                ),
            ));
        }
        return Ok(compositions(n, n_runs)
            .into_iter()
            .map(|c| {
                (
                    Some(c.iter().map(|&i| f64::from(i) / f64::from(n)).collect()),
                    BTreeMap::new(),
                )
            })
            .collect());
    }
    match method {
        "rrf" => {
            if opts.k_values.is_empty() {
                return Err(ScoreError::new(
                    ErrorCode::EmptyInput,
                    "kValues",
                    "give at least one k",
                ));
            }
            if opts.k_values.len() > MAX_TRIALS {
                return Err(ScoreError::new(
                    ErrorCode::InputTooLarge,
                    "kValues",
                    format!(
                        "{} values, more than the limit of {MAX_TRIALS}",
                        opts.k_values.len()
                    ),
                ));
            }
            // Each k checked as fuseRuns checks `params.k`, named where it was given.
            for (i, &k) in opts.k_values.iter().enumerate() {
                check_rrf_k(k, || format!("kValues[{i}]"))?;
            }
            Ok(opts
                .k_values
                .iter()
                .map(|&k| (None, BTreeMap::from([("k".to_string(), k)])))
                .collect())
        }
        "rbc" => {
            let n = steps_of(opts.step.unwrap_or(PHI_STEP))?;
            Ok((1..n)
                .map(|i| {
                    (
                        None,
                        BTreeMap::from([("phi".to_string(), f64::from(i) / f64::from(n))]),
                    )
                })
                .collect())
        }
        // ranx's grids at its default step of 0.01: 0.01 to 1. (ranx's own for another
        // step is `arange(0.01, 1 + step, step)` rounded to the step's digits, which at 0.1
        // starts at 0; this one is `step` to 1 whatever the step, as for `phi`.)
        "gmnz" | "logn_isr" => {
            let n = steps_of(opts.step.unwrap_or(PHI_STEP))?;
            let name = if method == "gmnz" { "gamma" } else { "sigma" };
            Ok((1..=n)
                .map(|i| {
                    (
                        None,
                        BTreeMap::from([(name.to_string(), f64::from(i) / f64::from(n))]),
                    )
                })
                .collect())
        }
        other => Err(nothing_to_tune(other)),
    }
}

/// Checks that a search over `runs` judged by `qrels` fits `limits.maxSearchWork`
/// (configurations tried times the run entries fused and the judgements read by each
/// evaluation) before it starts; the field of an error is `runs` (or the grid option
/// that is invalid).
#[doc(hidden)]
pub fn check_work(
    qrels: &Qrels,
    runs: &[Run],
    opts: &OptimizeOptions,
    limits: &crate::limits::Limits,
) -> Result<()> {
    let entries: usize = runs
        .iter()
        .flat_map(|r| r.values().map(|docs| docs.len()))
        .sum();
    check_work_entries(runs.len(), entries, judgements(qrels), opts, limits)
}

/// The judgements each evaluation of a search reads: every grade, and each judged query
/// once (a query judged with no document is still scored).
#[doc(hidden)]
pub fn judgements(qrels: &Qrels) -> usize {
    qrels.values().map(|grades| grades.len().max(1)).sum()
}

/// [`check_work`] from the number of runs, their total entries and the judgements
/// ([`judgements`]).
#[doc(hidden)]
pub fn check_work_entries(
    n_runs: usize,
    entries: usize,
    judged: usize,
    opts: &OptimizeOptions,
    limits: &crate::limits::Limits,
) -> Result<()> {
    let trials = grid(&opts.method, n_runs, opts)?.len();
    // Said of the larger part of the work.
    let field = if judged > entries { "qrels" } else { "runs" };
    limits.check_search_work(trials, entries, judged, field)
}

/// A search whose grid held no configuration.
fn nothing_tried() -> ScoreError {
    ScoreError::new(ErrorCode::EmptyInput, "runs", "nothing was tried")
}

/// Progress of a search: configurations done, total, best score so far.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Progress {
    /// Configurations evaluated.
    pub done: usize,
    /// Configurations in the grid.
    pub total: usize,
    /// Best score so far.
    pub best_score: f64,
}

/// Searches the grid (see the module documentation); `progress` is called after every
/// configuration. Each run's documents are read by score descending, then doc id
/// ascending (as [`crate::lab::runfusion::fuse_runs`] reads a [`Run`]).
pub fn optimize_fusion<R: std::borrow::Borrow<Run>>(
    qrels: &Qrels,
    runs: &[R],
    opts: &OptimizeOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<OptimizeReport> {
    let ordered: Vec<OrderedRun> = runs.iter().map(|r| ranked_by_id(r.borrow())).collect();
    optimize_fusion_ordered(qrels, &ordered, opts, progress)
}

/// [`optimize_fusion`] for runs in the order ranx holds them (see
/// [`crate::lab::runfusion::fuse_runs_ordered`]): every fused run is evaluated as ranx
/// evaluates its fused run, ties included. A document listed twice in one query of a run
/// is a `DUPLICATE_ID` (as for `fuse_runs_ordered`).
pub fn optimize_fusion_ordered<R: Borrow<OrderedRun>>(
    qrels: &Qrels,
    runs: &[R],
    opts: &OptimizeOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<OptimizeReport> {
    let mut each = |p| {
        progress(p);
        true
    };
    let report = optimize_fusion_until(qrels, runs, opts, &mut each)?;
    report.ok_or_else(|| ScoreError::new(ErrorCode::Internal, "", "the search stopped"))
}

/// [`optimize_fusion_ordered`] that `progress` can stop: it returns whether to go on, and
/// after a `false` the search returns `Ok(None)` without trying the rest of the grid (the
/// package's `onProgress` stops it by throwing).
pub fn optimize_fusion_until<R: Borrow<OrderedRun>>(
    qrels: &Qrels,
    runs: &[R],
    opts: &OptimizeOptions,
    progress: &mut dyn FnMut(Progress) -> bool,
) -> Result<Option<OptimizeReport>> {
    // The search itself is not generic: compiled once, in this crate.
    let runs: Vec<&OrderedRun> = runs.iter().map(Borrow::borrow).collect();
    search(qrels, &runs, opts, progress)
}

/// [`optimize_fusion_until`] of borrowed runs.
fn search(
    qrels: &Qrels,
    runs: &[&OrderedRun],
    opts: &OptimizeOptions,
    progress: &mut dyn FnMut(Progress) -> bool,
) -> Result<Option<OptimizeReport>> {
    if runs.len() < 2 {
        return Err(ScoreError::new(
            ErrorCode::EmptyInput,
            "runs",
            "give at least two runs to fuse",
        ));
    }
    crate::lab::eval::Metric::parse(&opts.metric).map_err(|e| ScoreError {
        field: "metric".into(),
        ..e
    })?;
    let configs = grid(&opts.method, runs.len(), opts)?;
    // The judgements once, before the first fusion (each evaluation checks them again),
    // and each run's documents listed once per query (not checked again by each fusion).
    crate::lab::eval::check_qrels(qrels)?;
    // Scores before repeats, as each fusion checks them (`fuse_runs_ordered`).
    crate::lab::runfusion::check_scores(runs)?;
    check_unique(runs)?;
    // Ties: see the module documentation (the weighted grids run in ranx's reverse order).
    let last_wins = !WEIGHTED.contains(&opts.method.as_str());
    let total = configs.len();
    let mut trials = Vec::with_capacity(total);
    let mut best: Option<usize> = None;
    // The runs prepared once, as the first configuration's fusion would (its option
    // errors first): normalized and through the method's stage, which read no weight or
    // parameter. Each configuration then combines them and ranks the fused documents as
    // `fuse_runs_ordered` does.
    let (weights, params) = configs.first().ok_or_else(nothing_tried)?;
    let prepared = Prepared::new(
        runs,
        &FuseRunsOptions {
            method: opts.method.clone(),
            norm: opts.norm.clone(),
            weights: weights.clone(),
            params: params.clone(),
        },
    )?;
    for (weights, params) in configs {
        let fused = prepared.fuse_ranked(weights.clone(), params.clone())?;
        let ev = crate::lab::eval::evaluate_rankings(qrels, &[opts.metric.as_str()], |qid| {
            fused
                .binary_search_by(|(q, _)| (*q).cmp(qid))
                .ok()
                .and_then(|i| fused.get(i))
                .map_or(&[][..], |(_, docs)| docs.as_slice())
        })?;
        let score = ev.means.first().map_or(0.0, |(_, v)| *v);
        if best
            .and_then(|b| trials.get(b))
            .is_none_or(|t: &Trial| score > t.score || (last_wins && score == t.score))
        {
            best = Some(trials.len());
        }
        trials.push(Trial {
            weights,
            params,
            score,
        });
        let best_score = best.and_then(|b| trials.get(b)).map_or(score, |t| t.score);
        let go_on = progress(Progress {
            done: trials.len(),
            total,
            best_score,
        });
        if !go_on {
            return Ok(None);
        }
    }
    let best = best
        .and_then(|b| trials.get(b))
        .cloned()
        .ok_or_else(nothing_tried)?;
    Ok(Some(OptimizeReport {
        method: opts.method.clone(),
        metric: opts.metric.clone(),
        best,
        trials,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(pairs: &[(&str, &[(&str, f64)])]) -> Run {
        pairs
            .iter()
            .map(|(q, docs)| {
                (
                    q.to_string(),
                    docs.iter().map(|(d, s)| (d.to_string(), *s)).collect(),
                )
            })
            .collect()
    }

    /// The search's fusions (prepared once, then combined per configuration) score what
    /// fusing each configuration from scratch and evaluating the fused run scores, bit
    /// for bit: every tunable method, several norms, tied scores, a query one run lacks,
    /// judged queries no run has and run queries nobody judged.
    fn search_scores_equal_separate_fusions(
        runs: &[OrderedRun],
        qrels: &Qrels,
    ) -> std::result::Result<(), proptest::test_runner::TestCaseError> {
        let methods = ["rrf", "rbc", "gmnz", "logn_isr"]
            .into_iter()
            .chain(WEIGHTED)
            .collect::<Vec<_>>();
        for method in methods {
            for norm in [None, Some("rank"), Some("borda"), Some("zmuv")] {
                for metric in ["ndcg@3", "map", "mrr"] {
                    let opts = OptimizeOptions {
                        method: method.into(),
                        metric: metric.into(),
                        norm: norm.map(str::to_string),
                        step: Some(if WEIGHTED.contains(&method) {
                            0.25
                        } else {
                            0.2
                        }),
                        k_values: vec![0.0, 1.0, 60.0],
                    };
                    let report = optimize_fusion_ordered(qrels, runs, &opts, &mut |_| {});
                    let report = match report {
                        Ok(r) => r,
                        // An overflow or a bad configuration: the same error as a fusion's.
                        Err(e) => {
                            let first = grid(method, runs.len(), &opts).unwrap()[0].clone();
                            let fo = FuseRunsOptions {
                                method: method.into(),
                                norm: opts.norm.clone(),
                                weights: first.0,
                                params: first.1,
                            };
                            proptest::prop_assert_eq!(
                                crate::lab::runfusion::fuse_runs_ordered(runs, &fo).map(drop),
                                Err(e)
                            );
                            continue;
                        }
                    };
                    for trial in &report.trials {
                        let fo = FuseRunsOptions {
                            method: method.into(),
                            norm: opts.norm.clone(),
                            weights: trial.weights.clone(),
                            params: trial.params.clone(),
                        };
                        let fused = crate::lab::runfusion::fuse_runs_ordered(runs, &fo).unwrap();
                        let ev =
                            crate::lab::eval::evaluate_ranked(qrels, &fused, &[metric]).unwrap();
                        let want = ev.mean(metric).unwrap();
                        proptest::prop_assert_eq!(
                            trial.score.to_bits(),
                            want.to_bits(),
                            "{} {:?} {} {:?}",
                            method,
                            norm,
                            metric,
                            trial
                        );
                    }
                }
            }
        }
        Ok(())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        #[test]
        fn the_search_scores_what_fusing_each_configuration_scores(
            lists in proptest::collection::vec(
                proptest::collection::vec(
                    proptest::collection::vec((0u8..8, 0u8..4), 0..7),
                    3,
                ),
                2..=3,
            ),
            grades in proptest::collection::vec(proptest::collection::vec(0u8..3, 8), 4),
        ) {
            // Run r, query q: documents d0..d7 once each (the first listing kept), scores
            // from four values, so ties are common; query q2 of the last run left out.
            let n = lists.len();
            let runs: Vec<OrderedRun> = lists
                .iter()
                .enumerate()
                .map(|(r, queries)| {
                    queries
                        .iter()
                        .enumerate()
                        .filter(|(q, _)| !(r + 1 == n && *q == 2))
                        .map(|(q, docs)| {
                            let mut seen = std::collections::HashSet::new();
                            let list: Vec<(String, f64)> = docs
                                .iter()
                                .filter(|(d, _)| seen.insert(*d))
                                .map(|(d, s)| (format!("d{d}"), f64::from(*s) * 0.5))
                                .collect();
                            (format!("q{q}"), list)
                        })
                        .collect()
                })
                .collect();
            // Judged: q1, q2 and q3 (q0 is a run query nobody judged) and q9, which no run has.
            let qrels = Qrels(
                grades
                    .iter()
                    .enumerate()
                    .map(|(i, g)| {
                        let q = if i == 0 { "q9".to_string() } else { format!("q{i}") };
                        let judged = g
                            .iter()
                            .enumerate()
                            .map(|(d, grade)| (format!("d{d}"), f64::from(*grade)))
                            .collect();
                        (q, judged)
                    })
                    .collect(),
            );
            search_scores_equal_separate_fusions(&runs, &qrels)?;
        }
    }

    #[test]
    fn progress_can_stop_the_search() {
        let a = run(&[("q", &[("a", 1.0), ("b", 0.5)])]);
        let b = run(&[("q", &[("b", 1.0), ("a", 0.5)])]);
        let ordered: Vec<OrderedRun> = [&a, &b].iter().map(|r| ranked_by_id(r)).collect();
        let qrels = Qrels([("q".to_string(), [("a".to_string(), 1.0)].into())].into());
        let opts = OptimizeOptions::default();
        let mut seen = Vec::new();
        let mut stop_at_3 = |p: Progress| {
            seen.push(p.done);
            p.done < 3
        };
        let out = optimize_fusion_until(&qrels, &ordered, &opts, &mut stop_at_3).unwrap();
        assert_eq!(out, None);
        assert_eq!(seen, [1, 2, 3]);
        // Going on to the end is optimize_fusion's search, report for report.
        let mut all = 0;
        let full = optimize_fusion_until(&qrels, &ordered, &opts, &mut |_| {
            all += 1;
            true
        })
        .unwrap();
        assert_eq!(all, 11);
        assert_eq!(
            full,
            Some(optimize_fusion(&qrels, &[a, b], &opts, &mut |_| {}).unwrap())
        );
    }

    #[test]
    fn search_work_is_limited() {
        let r = run(&[("q", &[("a", 1.0), ("b", 0.5)])]);
        let runs = [r.clone(), r.clone(), r];
        // wsum over 3 runs at step 0.1: 66 weight vectors x (6 entries + 2 judgements)
        // = 528.
        let qrels = Qrels(
            [(
                "q".to_string(),
                [("a".to_string(), 1.0), ("z".to_string(), 0.0)].into(),
            )]
            .into(),
        );
        let opts = OptimizeOptions::default();
        let at = |w: u32| crate::limits::Limits {
            max_search_work: w,
            ..Default::default()
        };
        assert!(check_work(&qrels, &runs, &opts, &at(528)).is_ok());
        let e = check_work(&qrels, &runs, &opts, &at(527)).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InputTooLarge, "runs")
        );
        assert!(
            e.message
                .contains("66 configurations x (6 run entries + 2 judgements) = 528"),
            "{}",
            e.message
        );
        // rrf: one configuration per k.
        let rrf = OptimizeOptions {
            method: "rrf".into(),
            ..Default::default()
        };
        assert!(check_work(&qrels, &runs, &rrf, &at(10 * 8)).is_ok());
        assert!(check_work(&qrels, &runs, &rrf, &at(10 * 8 - 1)).is_err());
        // Judgements of many queries count even where the runs are small (each
        // evaluation reads them all): 1,000 judged queries, a query judged with no
        // document counted once.
        let many = Qrels(
            (0..1000)
                .map(|i| (format!("q{i}"), BTreeMap::new()))
                .collect(),
        );
        assert_eq!(judgements(&many), 1000);
        let e = check_work(&many, &runs, &rrf, &at(2_000)).unwrap_err();
        assert_eq!(e.field, "qrels");
        assert!(
            e.message
                .contains("10 configurations x (6 run entries + 1000 judgements)"),
            "{}",
            e.message
        );
    }

    #[test]
    fn a_document_listed_twice_is_refused_by_the_ordered_forms() {
        let once: OrderedRun = [(
            "q".to_string(),
            vec![("a".to_string(), 2.0), ("b".to_string(), 1.0)],
        )]
        .into();
        let mut twice = once.clone();
        twice.get_mut("q").unwrap().push(("a".into(), 0.5));
        let fo = FuseRunsOptions::new("wsum");
        let e = crate::lab::runfusion::fuse_runs_ordered(&[&once, &twice], &fo).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::DuplicateId, "runs[1].q[2]")
        );
        assert!(
            e.message
                .contains(r#"document "a" is listed twice for query "q""#),
            "{}",
            e.message
        );
        // Each option's fault comes first, as for every other input fault.
        let e = crate::lab::runfusion::fuse_runs_ordered(
            &[&once, &twice],
            &FuseRunsOptions::new("nope"),
        )
        .unwrap_err();
        assert_eq!(e.code, ErrorCode::UnknownMethod);
        assert!(crate::lab::runfusion::fuse_runs_ordered(&[&once, &once], &fo).is_ok());
        let qrels: Qrels = [("q".to_string(), [("a".to_string(), 1.0)].into())].into();
        let opts = OptimizeOptions {
            metric: "map".into(),
            ..Default::default()
        };
        let e = optimize_fusion_ordered(&qrels, &[&twice, &once], &opts, &mut |_| {}).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::DuplicateId, "runs[0].q[2]")
        );
        assert!(optimize_fusion_ordered(&qrels, &[&once, &once], &opts, &mut |_| {}).is_ok());
        // A NaN score and a repeat in one run: the score is said first by both.
        let mut both = twice.clone();
        both.get_mut("q").unwrap()[1].1 = f64::NAN;
        let fused = crate::lab::runfusion::fuse_runs_ordered(&[&once, &both], &fo).unwrap_err();
        let searched =
            optimize_fusion_ordered(&qrels, &[&once, &both], &opts, &mut |_| {}).unwrap_err();
        assert_eq!(
            (fused.code, searched.code),
            (ErrorCode::NonFiniteScore, ErrorCode::NonFiniteScore)
        );
        assert_eq!(fused.field, searched.field);
    }

    #[test]
    fn weight_grid_sums_to_one() {
        let g = grid("wsum", 3, &OptimizeOptions::default()).unwrap();
        assert_eq!(g.len(), 66);
        for (w, _) in &g {
            let w = w.as_ref().unwrap();
            assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
        assert_eq!(g[0].0.as_ref().unwrap(), &vec![1.0, 0.0, 0.0]);
        assert_eq!(
            grid("wsum", 2, &OptimizeOptions::default()).unwrap().len(),
            11
        );
        assert_eq!(
            grid("rrf", 2, &OptimizeOptions::default()).unwrap().len(),
            10
        );
        assert_eq!(
            grid("rbc", 2, &OptimizeOptions::default()).unwrap().len(),
            99
        );
        let tenths = OptimizeOptions {
            step: Some(0.1),
            ..Default::default()
        };
        assert_eq!(grid("rbc", 2, &tenths).unwrap().len(), 9);
        // gamma and sigma from step to 1, 1 included (ranx's 0.01 to 1.0).
        for (method, name) in [("gmnz", "gamma"), ("logn_isr", "sigma")] {
            let values = |o: &OptimizeOptions| -> Vec<f64> {
                grid(method, 2, o)
                    .unwrap()
                    .iter()
                    .map(|(w, p)| {
                        assert!(w.is_none());
                        p[name]
                    })
                    .collect()
            };
            let hundredths = values(&OptimizeOptions::default());
            assert_eq!(hundredths.len(), 100);
            assert_eq!(
                (hundredths[0], hundredths[6], hundredths[99]),
                (0.01, 0.07, 1.0)
            );
            assert_eq!(
                values(&tenths),
                [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
            );
        }
        assert_eq!(
            grid("max", 2, &OptimizeOptions::default())
                .unwrap_err()
                .code,
            ErrorCode::UnknownMethod
        );
        // Worded as `not_one_of` words an unknown name, which the package's JavaScript
        // reads to add the nearest ("RRF" -> "rrf"); a method with nothing to tune alike.
        for method in ["RRF", "max"] {
            let e = grid(method, 2, &OptimizeOptions::default()).unwrap_err();
            assert_eq!(
                (e.code, e.field.as_str()),
                (ErrorCode::UnknownMethod, "method")
            );
            assert_eq!(
                e.message,
                format!(
                    "\"{method}\" is not one of \"rrf\", \"rbc\", \"gmnz\", \"logn_isr\", \"wsum\", \"wmnz\", \"mixed\", \"w_bordafuse\", \"w_condorcet\", \"dbsf\", \"arithmetic_mean\", \"geometric_mean\", \"harmonic_mean\" (the methods optimizeFusion tunes: rrf's k, rbc's phi, gmnz's gamma, logn_isr's sigma, the weights of the others; any other method has nothing to tune)"
                )
            );
        }
        assert_eq!(steps_of(0.3).unwrap_err().code, ErrorCode::InvalidConfig);
        let huge = OptimizeOptions {
            step: Some(0.001),
            ..Default::default()
        };
        assert_eq!(
            grid("wsum", 6, &huge).unwrap_err().code,
            ErrorCode::InputTooLarge
        );
        // The bound is the grid's own, whatever the limits: 11 runs at the default step
        // are over it, 10 are not.
        let e = grid("wsum", 11, &OptimizeOptions::default()).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str(), e.message.as_str()),
            (
                ErrorCode::InputTooLarge,
                "step",
                "184756 weight vectors exceed the grid's bound of 100000 (fixed, whatever the limits); use a larger step"
            )
        );
        assert_eq!(
            grid("wsum", 10, &OptimizeOptions::default()).map(|g| g.len()),
            Ok(92378)
        );
    }

    #[test]
    fn finds_the_run_that_ranks_the_relevant_doc_first() {
        // Run a puts the relevant doc last, run b first: all weight on b wins.
        let qrels = Qrels(run(&[("q", &[("rel", 1.0)])]).0);
        let a = run(&[("q", &[("rel", 0.1), ("x", 0.9), ("y", 0.5)])]);
        let b = run(&[("q", &[("rel", 0.9), ("x", 0.1), ("y", 0.5)])]);
        let mut calls = 0;
        let report = optimize_fusion(
            &qrels,
            &[a, b],
            &OptimizeOptions {
                metric: "mrr".into(),
                ..Default::default()
            },
            &mut |p| {
                calls += 1;
                assert!(p.done <= p.total);
            },
        )
        .unwrap();
        assert_eq!(calls, 11);
        assert_eq!(report.trials.len(), 11);
        assert_eq!(report.best.score, 1.0);
        // At (0.5, 0.5) every doc ties at 0.5 and ties keep ranx's fused order (first met
        // in run a: x, y, rel), so rel is third; (0.4, 0.6) is the first to reach 1.0.
        assert!((report.trials[5].score - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(report.best.weights.unwrap(), vec![0.4, 0.6]);
        assert!(report.trials.iter().skip(6).all(|t| t.score == 1.0));
        // The first trial (all weight on a) ranks rel third.
        assert!((report.trials[0].score - 1.0 / 3.0).abs() < 1e-12);
    }

    /// Ties between configurations go where ranx's `>=` sends them: over the ascending
    /// grids of `rrf` and `rbc`, to the last (here every `k` and every `phi` ranks the
    /// relevant document second: ranx gives `k` 100).
    #[test]
    fn ties_go_to_the_configuration_ranx_keeps() {
        let qrels = Qrels(run(&[("q", &[("rel", 1.0)])]).0);
        let a = run(&[("q", &[("x", 3.0), ("y", 2.0), ("rel", 1.0)])]);
        let b = run(&[("q", &[("rel", 3.0), ("x", 2.0), ("y", 1.0)])]);
        let search = |method: &str| {
            optimize_fusion(
                &qrels,
                &[a.clone(), b.clone()],
                &OptimizeOptions {
                    method: method.into(),
                    metric: "mrr".into(),
                    ..Default::default()
                },
                &mut |_| {},
            )
            .unwrap()
        };
        let rrf = search("rrf");
        assert!(
            rrf.trials.iter().all(|t| t.score == 0.5),
            "{:?}",
            rrf.trials
        );
        assert_eq!(rrf.best.params["k"], 100.0);
        let rbc = search("rbc");
        assert!(rbc.trials.iter().all(|t| t.score == rbc.best.score));
        assert_eq!(rbc.best.params["phi"], 0.99);
        // The grid's order is the caller's: `kValues` given descending, the last (10) is
        // kept.
        let report = optimize_fusion(
            &qrels,
            &[a.clone(), b.clone()],
            &OptimizeOptions {
                method: "rrf".into(),
                metric: "mrr".into(),
                k_values: vec![30.0, 20.0, 10.0],
                ..Default::default()
            },
            &mut |_| {},
        )
        .unwrap();
        assert_eq!(report.best.params["k"], 10.0);
    }

    #[test]
    fn errors() {
        let q = Qrels(run(&[("q", &[("d", 1.0)])]).0);
        let r = run(&[("q", &[("d", 1.0)])]);
        let e = optimize_fusion(
            &q,
            std::slice::from_ref(&r),
            &OptimizeOptions::default(),
            &mut |_| {},
        )
        .unwrap_err();
        assert_eq!(e.code, ErrorCode::EmptyInput);
        let e = optimize_fusion(
            &q,
            &[r.clone(), r.clone()],
            &OptimizeOptions {
                metric: "nope@3".into(),
                ..Default::default()
            },
            &mut |_| {},
        )
        .unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::UnknownMethod, "metric")
        );
        // A bad k of the RRF grid is named where it was given (not as fuseRuns'
        // `params.k`, an option the caller never wrote), with fuseRuns' codes.
        for (k_values, code, field) in [
            (vec![10.0, -1.0], ErrorCode::InvalidConfig, "kValues[1]"),
            (vec![f64::NAN], ErrorCode::InvalidConfig, "kValues[0]"),
            (
                vec![20.0, 30.0, f64::INFINITY],
                ErrorCode::InvalidConfig,
                "kValues[2]",
            ),
        ] {
            let e = optimize_fusion(
                &q,
                &[r.clone(), r.clone()],
                &OptimizeOptions {
                    method: "rrf".into(),
                    k_values,
                    ..Default::default()
                },
                &mut |_| {},
            )
            .unwrap_err();
            assert_eq!((e.code, e.field.as_str()), (code, field));
        }
    }
}
