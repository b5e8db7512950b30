//! `fitQueryConfidence`: learns, from judged queries, the probability that the fused
//! top `k` of a query's lists holds at least one relevant document (features:
//! [`crate::confidence::model`]).
//!
//! * **Queries.** Every query of the judgements that at least one run retrieved for.
//!   A query whose judgements are all 0, or that the judgements list with no document
//!   (`{}`), is a query with nothing relevant (that is how unanswerable queries are
//!   given; `evaluate` and ranx count such a query too); a query the judgements do not
//!   list is skipped.
//! * **Label.** 1 when a document judged > 0 is among the top `k` of the weighted RRF of
//!   the runs (fused score descending, ties by document id, as `rrf` orders them). Each
//!   run's documents are ranked by descending score, ties by document id.
//! * **Fit.** Logistic regression on the standardized features (population mean and
//!   standard deviation; a constant feature keeps scale 1, its standardized values are
//!   0 and its coefficient 0), with an L2 penalty `l2 / 2 * |c|^2` on the coefficients
//!   (not the intercept), minimized by Newton's method with step halving (sufficient
//!   decrease `1e-4`), from zero, until the gradient's largest component is below
//!   `1e-9` or after `maxIterations`. Where the
//!   decrease a step must make is below the objective's rounding, the full Newton step
//!   is taken and kept if it shrinks the gradient; one that does not ends the fit,
//!   reported as converged (the arithmetic's floor). The
//!   objective is strictly convex, so the optimum is unique and the fit deterministic:
//!   every sum runs in query order, and `exp` / `ln` come from `libm`.
//! * **Grades.** Finite whole numbers, as every function that takes judgements asks
//!   (`NON_FINITE_SCORE`, or `INVALID_TYPE` for `0.5`, on `qrels.<qid>.<docid>`:
//!   [`crate::lab::runs::check_grade`]); so a document is relevant here exactly when it
//!   is at `evaluate`'s default relevance level (grade >= 1).
//! * **Degenerate input.** No usable query: `EMPTY_INPUT` (`qrels`); every query in one
//!   class (one query alone, say): `INVALID_LABELS` (`qrels`), since a model needs both
//!   answerable and unanswerable examples.

use super::logistic::{auroc, mean_log_loss, newton};
use crate::confidence::model::{
    feature_names, rank_only_of_top, top_score, validate_fusion, ListView, QueryConfidenceModel,
    TrainingFigures, METHOD,
};
use crate::error::{key_path, ErrorCode, Result, ScoreError};
use crate::float;
use crate::fuse::{rrf_interned, RankedList};
use crate::lab::runs::{Qrels, Run};
use crate::sort::StableSort;
use serde::{Deserialize, Serialize};
use std::borrow::Borrow;

/// Options of [`fit_query_confidence`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct FitQueryConfidenceOptions {
    /// The fused top k (default 5).
    pub k: u32,
    /// RRF constant (default 60, as the pipeline's).
    pub rrf_k: f64,
    /// RRF weight per run (default 1 each).
    pub weights: Option<Vec<f64>>,
    /// L2 penalty on the standardized coefficients (default 1, > 0).
    pub l2: f64,
    /// Newton iteration budget (default 100, 1..=1000).
    pub max_iterations: u32,
}

impl Default for FitQueryConfidenceOptions {
    fn default() -> Self {
        FitQueryConfidenceOptions {
            k: 5,
            rrf_k: crate::fuse::DEFAULT_K,
            weights: None,
            l2: 1.0,
            max_iterations: 100,
        }
    }
}

/// One run's ranking of one query: ids best first, with their scores.
pub struct Ranked<'a> {
    ids: Vec<&'a str>,
    scores: Vec<f64>,
}

/// A run's documents for `query` by descending score, ties by document id.
pub fn ranked<'a>(run: &'a Run, query: &str) -> Ranked<'a> {
    let mut docs: Vec<(&str, f64)> = run
        .get(query)
        .map(|d| d.iter().map(|(id, &s)| (id.as_str(), s)).collect())
        .unwrap_or_default();
    // BTreeMap order is id order, and the sort is stable: ties stay by id.
    docs.stable_sort_by(|a, b| b.1.total_cmp(&a.1));
    Ranked {
        ids: docs.iter().map(|d| d.0).collect(),
        scores: docs.iter().map(|d| d.1).collect(),
    }
}

impl Ranked<'_> {
    /// The list view of this ranking.
    pub fn view(&self) -> ListView<'_, &str> {
        ListView {
            ids: &self.ids,
            scores: Some(&self.scores),
        }
    }
}

/// The `rankOnly` feature of `lists` and whether their fused top `k` holds a document
/// graded > 0 in `judged` (one fusion for both).
fn rank_only_and_label(
    lists: &[Ranked<'_>],
    weights: &[f64],
    rrf_k: f64,
    k: u32,
    judged: &std::collections::BTreeMap<String, f64>,
) -> Result<(f64, bool)> {
    let ranked: Vec<RankedList<'_, &str>> = lists
        .iter()
        .zip(weights)
        .map(|(l, &weight)| RankedList {
            ids: &l.ids,
            weight,
        })
        .collect();
    let fused = rrf_interned(&ranked, rrf_k, "weights")?;
    let order = fused.order();
    let top = order.get(..(k as usize).min(order.len())).unwrap_or(&order);
    let scores: Vec<f64> = top
        .iter()
        .map(|&d| fused.fusion.scores.get(d as usize).copied().unwrap_or(0.0))
        .collect();
    let relevant = top.iter().any(|&d| {
        fused
            .interner
            .ids
            .get(d as usize)
            .and_then(|id| judged.get(*id))
            .is_some_and(|&g| g > 0.0)
    });
    Ok((rank_only_of_top(&scores), relevant))
}

/// The training rows: the queries used, their raw features and labels.
pub struct Rows {
    /// Query ids, in id order.
    pub queries: Vec<String>,
    /// Raw features per query (`rankOnly`, then each run's top score).
    pub features: Vec<Vec<f64>>,
    /// 1.0 when the fused top k holds a relevant document.
    pub labels: Vec<f64>,
    /// The lowest top score of each run over the queries it retrieved for.
    pub missing_top: Vec<f64>,
}

/// The rows of every usable query (see the module documentation). Errors: a grade that
/// is not finite (`NON_FINITE_SCORE`) or not whole (`INVALID_TYPE`), on
/// `qrels.<qid>.<docid>` ([`crate::lab::runs::check_grade`]).
pub fn rows<R: Borrow<Run>>(
    qrels: &Qrels,
    runs: &[R],
    weights: &[f64],
    rrf_k: f64,
    k: u32,
) -> Result<Rows> {
    rows_of(
        qrels,
        &runs.iter().map(Borrow::borrow).collect::<Vec<_>>(),
        weights,
        rrf_k,
        k,
    )
}

/// [`rows`] of borrowed runs.
fn rows_of(qrels: &Qrels, runs: &[&Run], weights: &[f64], rrf_k: f64, k: u32) -> Result<Rows> {
    // Finite whole grades, as `evaluate` asks: a NaN grade was read as not relevant, and
    // 0.5 as relevant where `evaluate` read it as not (its default level is 1).
    qrels.check_grades("qrels")?;
    let mut queries = Vec::new();
    let mut raw: Vec<(f64, Vec<Option<f64>>)> = Vec::new();
    let mut labels = Vec::new();
    for (q, judged) in qrels {
        if !runs.iter().any(|r| r.contains_key(q)) {
            continue;
        }
        let lists: Vec<Ranked<'_>> = runs.iter().map(|r| ranked(r, q)).collect();
        let (rank_only, relevant) = rank_only_and_label(&lists, weights, rrf_k, k, judged)?;
        let tops = lists.iter().map(|l| top_score(&l.scores)).collect();
        labels.push(if relevant { 1.0 } else { 0.0 });
        queries.push(q.clone());
        raw.push((rank_only, tops));
    }
    let missing_top: Vec<f64> = (0..runs.len())
        .map(|i| {
            raw.iter()
                .filter_map(|r| r.1.get(i).copied().flatten())
                .reduce(float::min)
                .unwrap_or(0.0)
        })
        .collect();
    let features = raw
        .into_iter()
        .map(|(ro, tops)| {
            std::iter::once(ro)
                .chain(tops.iter().zip(&missing_top).map(|(t, &m)| t.unwrap_or(m)))
                .collect()
        })
        .collect();
    Ok(Rows {
        queries,
        features,
        labels,
        missing_top,
    })
}

fn check_runs(runs: &[&Run]) -> Result<()> {
    for (i, run) in runs.iter().enumerate() {
        for (q, docs) in *run {
            for (d, s) in docs {
                if !s.is_finite() {
                    return Err(ScoreError::new(
                        ErrorCode::NonFiniteScore,
                        key_path(&key_path(&format!("runs[{i}]"), q), d),
                        format!("scores must be finite, got {}", crate::error::num(*s)),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Fits a query-confidence model on `runs` (in the order the model will take lists)
/// judged by `qrels`.
pub fn fit_query_confidence<R: Borrow<Run>>(
    qrels: &Qrels,
    runs: &[R],
    opts: &FitQueryConfidenceOptions,
) -> Result<QueryConfidenceModel> {
    fit(
        qrels,
        &runs.iter().map(Borrow::borrow).collect::<Vec<_>>(),
        opts,
        None,
    )
}

/// [`fit_query_confidence`] whose Newton steps must fit `limits.maxSearchWork`
/// ([`crate::limits::Limits::check_fit_work`], `INPUT_TOO_LARGE` on `runs`), checked
/// once the inputs are (so a malformed input's own error comes first).
pub fn fit_query_confidence_limited<R: Borrow<Run>>(
    qrels: &Qrels,
    runs: &[R],
    opts: &FitQueryConfidenceOptions,
    limits: &crate::limits::Limits,
) -> Result<QueryConfidenceModel> {
    // The fit itself is not generic: compiled once, in this crate.
    fit(
        qrels,
        &runs.iter().map(Borrow::borrow).collect::<Vec<_>>(),
        opts,
        Some(limits),
    )
}

/// The first three of a map's keys (each as [`crate::error::name`] shows it) and how many
/// there are: the query ids of the judgements and of a run that did not meet, side by
/// side (a prefix or a case apart, `Q1` against `1`, shows at once).
fn first_ids<V>(ids: &std::collections::BTreeMap<String, V>) -> String {
    if ids.is_empty() {
        return "none".into();
    }
    let mut out = String::new();
    for (i, id) in ids.keys().take(3).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&crate::error::name(id).to_string());
    }
    if ids.len() > 3 {
        out.push_str(&format!(", ... ({} in all)", ids.len()));
    }
    out
}

/// [`fit_query_confidence`] of borrowed runs.
fn fit(
    qrels: &Qrels,
    runs: &[&Run],
    opts: &FitQueryConfidenceOptions,
    limits: Option<&crate::limits::Limits>,
) -> Result<QueryConfidenceModel> {
    let weights = opts
        .weights
        .clone()
        .unwrap_or_else(|| vec![1.0; runs.len()]);
    validate_fusion(opts.k, opts.rrf_k, &weights, runs.len())?;
    if !(opts.l2.is_finite() && opts.l2 > 0.0) {
        return Err(ScoreError::new(
            ErrorCode::InvalidConfig,
            "l2",
            format!(
                "must be a finite number > 0, got {}",
                crate::error::num(opts.l2)
            ),
        ));
    }
    if !(1..=1000).contains(&opts.max_iterations) {
        return Err(ScoreError::new(
            ErrorCode::InvalidConfig,
            "maxIterations",
            format!(
                "must be a whole number from 1 to 1000, got {}",
                opts.max_iterations
            ),
        ));
    }
    check_runs(runs)?;
    let rows = rows_of(qrels, runs, &weights, opts.rrf_k, opts.k)?;
    if rows.queries.is_empty() {
        return Err(ScoreError::new(
            ErrorCode::EmptyInput,
            "qrels",
            format!(
                "no judged query was retrieved by any run (the judgements' queries: {}; the first run's: {})",
                first_ids(&qrels.0),
                runs.first().map_or_else(|| "none".into(), |r| first_ids(&r.0))
            ),
        ));
    }
    let positives = rows.labels.iter().filter(|&&y| y > 0.0).count();
    if positives == 0 || positives == rows.labels.len() {
        return Err(ScoreError::new(
            ErrorCode::InvalidLabels,
            "qrels",
            format!(
                "{} of {} judged queries hold a relevant document in the fused top {}: a model needs queries of both kinds",
                positives,
                rows.labels.len(),
                opts.k
            ),
        ));
    }
    // A feature per run and the rank-only one; a row per judged query retrieved.
    if let Some(limits) = limits {
        limits.check_fit_work(rows.labels.len(), runs.len() + 1, "runs")?;
    }
    let (mean, scale, constant) = standardization(&rows.features);
    // A constant column standardizes to 0 exactly (its values minus their mean would
    // leave the mean's rounding, which the fit would weigh), so its coefficient is 0.
    let z: Vec<Vec<f64>> = rows
        .features
        .iter()
        .map(|x| {
            x.iter()
                .zip(mean.iter().zip(&scale).zip(&constant))
                .map(|(&v, ((&m, &s), &c))| if c { 0.0 } else { (v - m) / s })
                .collect()
        })
        .collect();
    let fit = newton(&z, &rows.labels, opts.l2, opts.max_iterations);
    let mut model = QueryConfidenceModel {
        method: METHOD.into(),
        runs: u32::try_from(runs.len()).unwrap_or(u32::MAX),
        k: opts.k,
        rrf_k: opts.rrf_k,
        weights,
        features: feature_names(runs.len()),
        mean,
        scale,
        coefficients: fit.beta.get(1..).unwrap_or_default().to_vec(),
        intercept: fit.beta.first().copied().unwrap_or(0.0),
        missing_top: rows.missing_top,
        l2: opts.l2,
        training: TrainingFigures {
            queries: u32::try_from(rows.labels.len()).unwrap_or(u32::MAX),
            positives: u32::try_from(positives).unwrap_or(u32::MAX),
            log_loss: 0.0,
            auroc: 0.0,
            iterations: fit.iterations,
            converged: fit.converged,
        },
    };
    let p: Vec<f64> = rows
        .features
        .iter()
        .zip(&rows.queries)
        .map(|(x, q)| model.predict_features(x).map_err(|e| in_runs(e, q)))
        .collect::<Result<_>>()?;
    model.training.log_loss = mean_log_loss(&p, &rows.labels);
    model.training.auroc = auroc(&p, &rows.labels).unwrap_or(f64::NAN);
    model.validate()?;
    Ok(model)
}

/// The model's probability for every query of `runs` (the union of their query ids, in
/// id order). A query missing from a run counts as an empty list there.
///
/// Errors: the model's own (`model.*`), `LENGTH_MISMATCH` (`runs`: not as many runs as
/// the model was fitted on), `NON_FINITE_SCORE` (`runs[i].q.d`; `runs[i].q` when the
/// query's best score there is so far from the model's training scores that its feature
/// overflows).
pub fn predict_query_confidence<R: Borrow<Run>>(
    model: &QueryConfidenceModel,
    runs: &[R],
) -> Result<std::collections::BTreeMap<String, f64>> {
    predict(model, &runs.iter().map(Borrow::borrow).collect::<Vec<_>>())
}

/// [`predict_query_confidence`] of borrowed runs.
fn predict(
    model: &QueryConfidenceModel,
    runs: &[&Run],
) -> Result<std::collections::BTreeMap<String, f64>> {
    check_model_and_runs(model, runs)?;
    let queries: std::collections::BTreeSet<&String> = runs.iter().flat_map(|r| r.keys()).collect();
    queries
        .into_iter()
        .map(|q| Ok((q.clone(), predict_one(model, runs, q)?)))
        .collect()
}

/// The model (`model.*`), the runs' count (`runs`) and their scores (`runs[i].q.d`).
fn check_model_and_runs(model: &QueryConfidenceModel, runs: &[&Run]) -> Result<()> {
    model.validate().map_err(|e| e.within("model"))?;
    if runs.len() != model.runs as usize {
        return Err(ScoreError::new(
            ErrorCode::LengthMismatch,
            "runs",
            format!(
                "runs: {}, the model's runs: {} (one per run it was fitted on, matched by position)",
                runs.len(),
                model.runs
            ),
        ));
    }
    check_runs(runs)
}

/// The model's probability for query `q` of `runs` (checked).
fn predict_one(model: &QueryConfidenceModel, runs: &[&Run], q: &str) -> Result<f64> {
    let lists: Vec<Ranked<'_>> = runs.iter().map(|r| ranked(r, q)).collect();
    let views: Vec<ListView<'_, &str>> = lists.iter().map(Ranked::view).collect();
    model.predict(&views).map_err(|e| in_runs(e, q))
}

/// How a query-confidence model does on judged queries, as `fitQueryConfidence`'s
/// `training` figures are made but on queries of the caller's choosing (held out from the
/// fit): [`evaluate_query_confidence`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QueryConfidenceEvaluation {
    /// Judged queries that at least one run lists (the fit's rule; a run may list a
    /// query with no documents).
    pub queries: u32,
    /// Of them, those with a document judged > 0 in the fused top `k` (the label).
    pub positives: u32,
    /// Area under the ROC curve of the probabilities for the labels (ties count one
    /// half); `None` (`null`) when every query is of one class.
    pub auroc: Option<f64>,
    /// Mean log loss (probabilities clipped to `[1e-15, 1 - 1e-15]`).
    pub log_loss: f64,
    /// Mean squared difference between probability and label.
    pub brier: f64,
    /// Each query's probability and label, by query id.
    pub per_query: std::collections::BTreeMap<String, QueryEvaluation>,
}

/// One query of a [`QueryConfidenceEvaluation`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct QueryEvaluation {
    /// The model's probability that the fused top `k` holds a relevant document.
    pub probability: f64,
    /// Whether it does (a document judged > 0 among the fused top `k`, the model's
    /// `k`, `rrfK` and weights).
    pub relevant: bool,
}

/// Measures `model` on the queries `qrels` judges (held out from its fit, say): each
/// judged query that at least one run lists gets the model's probability (as
/// [`predict_query_confidence`] gives it) and its label (as [`fit_query_confidence`]
/// makes it, with the model's `k`, `rrfK` and weights); queries the judgements do not
/// list are left out, and a query listed with no document has nothing relevant.
///
/// Errors: the model's own (`model.*`), `LENGTH_MISMATCH` (`runs`), the grades'
/// (`qrels.<qid>.<docid>`) and the runs' scores (`runs[i].q.d`), as
/// [`predict_query_confidence`] and [`fit_query_confidence`] give them; `EMPTY_INPUT`
/// (`qrels`) when no run lists a judged query. The faults are met in this order: the
/// grades, the model, the runs.
pub fn evaluate_query_confidence<R: Borrow<Run>>(
    model: &QueryConfidenceModel,
    qrels: &Qrels,
    runs: &[R],
) -> Result<QueryConfidenceEvaluation> {
    evaluate_model(
        model,
        qrels,
        &runs.iter().map(Borrow::borrow).collect::<Vec<_>>(),
    )
}

/// [`evaluate_query_confidence`] of borrowed runs.
fn evaluate_model(
    model: &QueryConfidenceModel,
    qrels: &Qrels,
    runs: &[&Run],
) -> Result<QueryConfidenceEvaluation> {
    // In the order the package meets the faults (its binding reads the judgements
    // first): the grades, the model, the runs.
    qrels.check_grades("qrels")?;
    check_model_and_runs(model, runs)?;
    let rows = rows_of(qrels, runs, &model.weights, model.rrf_k, model.k)?;
    if rows.queries.is_empty() {
        return Err(ScoreError::new(
            ErrorCode::EmptyInput,
            "qrels",
            "no run lists a judged query: nothing to measure",
        ));
    }
    // Only the judged queries are predicted: an unjudged one whose feature overflows
    // does not stop the measure (it did, a review found, where the fit on the same runs
    // went through).
    let probabilities: Vec<f64> = rows
        .queries
        .iter()
        .map(|q| predict_one(model, runs, q))
        .collect::<Result<_>>()?;
    let n = probabilities.len() as f64;
    let brier = probabilities
        .iter()
        .zip(&rows.labels)
        .map(|(p, y)| (p - y) * (p - y))
        .sum::<f64>()
        / n;
    Ok(QueryConfidenceEvaluation {
        queries: u32::try_from(rows.queries.len()).unwrap_or(u32::MAX),
        positives: u32::try_from(rows.labels.iter().filter(|&&y| y > 0.0).count())
            .unwrap_or(u32::MAX),
        auroc: auroc(&probabilities, &rows.labels),
        log_loss: mean_log_loss(&probabilities, &rows.labels),
        brier,
        per_query: rows
            .queries
            .iter()
            .zip(probabilities.iter().zip(&rows.labels))
            .map(|(q, (&probability, &y))| {
                (
                    q.clone(),
                    QueryEvaluation {
                        probability,
                        relevant: y > 0.0,
                    },
                )
            })
            .collect(),
    })
}

/// An error of the model's on the lists of query `q` named in the runs: a list's best
/// score out of the model's range (`lists[i].scores`) is that run's query, `runs[i].q`.
/// One the model names on itself (`""`: its rank-only feature overflows, from a mean,
/// scale or coefficient no fit makes) is on `model`, as the Pipeline names it on
/// `config.confidence.model` (it was on `""`).
fn in_runs(e: ScoreError, q: &str) -> ScoreError {
    let field = match e
        .field
        .strip_prefix("lists[")
        .and_then(|r| r.strip_suffix("].scores"))
    {
        Some(i) => crate::error::key_path(&format!("runs[{i}]"), q),
        None if e.field.is_empty() => "model".to_string(),
        None => e.field.replacen("lists", "runs", 1),
    };
    ScoreError { field, ..e }
}

/// Population mean and standard deviation of each column (1 where it is 0), and whether
/// each column is constant (a spread of 0 or within its mean's rounding). A column whose
/// sums overflow (scores near 1e308) has its moments taken on its values divided by the
/// largest magnitude, then scaled back: standardizing is scale-free, so the fit is the
/// one its values at a smaller scale give (before, such a column kept scale 1 and the
/// fit a flat model).
fn standardization(x: &[Vec<f64>]) -> (Vec<f64>, Vec<f64>, Vec<bool>) {
    let d = x.first().map_or(0, Vec::len);
    let columns = (0..d).map(|j| {
        let column: Vec<f64> = x.iter().map(|r| r.get(j).copied().unwrap_or(0.0)).collect();
        let (m, s) = match column_moments(&column, 1.0) {
            (m, s) if m.is_finite() && s.is_finite() => (m, s),
            _ => {
                let largest = column.iter().fold(0.0f64, |a, v| float::max(a, v.abs()));
                let (m, s) = column_moments(&column, largest);
                (m * largest, s * largest)
            }
        };
        if s.is_finite() && s > 1e-12 * float::max(m.abs(), 1.0) {
            (m, s, false)
        } else {
            (m, 1.0, s.is_finite())
        }
    });
    let mut out = (
        Vec::with_capacity(d),
        Vec::with_capacity(d),
        Vec::with_capacity(d),
    );
    for (m, s, constant) in columns {
        out.0.push(m);
        out.1.push(s);
        out.2.push(constant);
    }
    out
}

/// Population mean and standard deviation of `column / by`, summed in row order.
fn column_moments(column: &[f64], by: f64) -> (f64, f64) {
    let n = column.len().max(1) as f64;
    let mean = column.iter().map(|v| v / by).sum::<f64>() / n;
    let var = column
        .iter()
        .map(|v| {
            let c = v / by - mean;
            c * c
        })
        .sum::<f64>()
        / n;
    (mean, var.sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn run(entries: &[(&str, &[(&str, f64)])]) -> Run {
        entries
            .iter()
            .map(|(q, docs)| {
                (
                    q.to_string(),
                    docs.iter().map(|(d, s)| (d.to_string(), *s)).collect(),
                )
            })
            .collect()
    }

    fn qrels(entries: &[(&str, &[(&str, f64)])]) -> Qrels {
        Qrels(run(entries).0)
    }

    /// Six queries: relevant ones where the dense top score is high.
    fn data() -> (Qrels, Vec<Run>) {
        let mut bm = BTreeMap::new();
        let mut de = BTreeMap::new();
        let mut qr = BTreeMap::new();
        for q in 0..12 {
            let answerable = q % 3 != 0;
            let top = if answerable {
                0.6 + 0.01 * q as f64
            } else {
                0.2 + 0.01 * q as f64
            };
            let docs: BTreeMap<String, f64> = (0..8)
                .map(|d| (format!("d{q}_{d}"), top - 0.02 * d as f64))
                .collect();
            de.insert(format!("q{q}"), docs.clone());
            bm.insert(
                format!("q{q}"),
                docs.iter().map(|(d, s)| (d.clone(), 10.0 * s)).collect(),
            );
            // q1 is answerable but its relevant document sits beyond the top 5.
            let rel = if q == 1 { "d1_7" } else { &*format!("d{q}_0") };
            qr.insert(
                format!("q{q}"),
                [(rel.to_string(), if answerable { 1.0 } else { 0.0 })]
                    .into_iter()
                    .collect(),
            );
        }
        (Qrels(qr), vec![Run(bm), Run(de)])
    }

    /// Scores near 1e308, whose column sums overflow, fit the model their values at a
    /// smaller scale fit (standardizing is scale-free): before, the column kept scale 1
    /// and the fit was flat, `converged: false`.
    #[test]
    fn scores_near_the_largest_double_fit_as_their_scaled_down_values_do() {
        let (qr, runs) = data();
        let scaled: Vec<Run> = runs
            .iter()
            .map(|r| {
                Run(r
                    .iter()
                    .map(|(q, docs)| {
                        (
                            q.clone(),
                            docs.iter().map(|(d, s)| (d.clone(), s * 2e307)).collect(),
                        )
                    })
                    .collect())
            })
            .collect();
        // The top scores of twelve queries sum past f64::MAX.
        let tops: f64 = scaled[0]
            .values()
            .map(|d| d.values().fold(0.0, |a, s| float::max(a, *s)))
            .sum();
        assert!(tops.is_infinite());
        let opts = FitQueryConfidenceOptions::default();
        let small = fit_query_confidence(&qr, &runs, &opts).unwrap();
        let big = fit_query_confidence(&qr, &scaled, &opts).unwrap();
        assert!(big.training.converged, "{big:?}");
        assert!(
            big.coefficients.iter().any(|c| c.abs() > 0.1),
            "flat: {big:?}"
        );
        for (a, b) in small.coefficients.iter().zip(&big.coefficients) {
            assert!(
                (a - b).abs() <= 1e-9 * float::max(a.abs(), 1.0),
                "{a} vs {b}"
            );
        }
        let (p_small, p_big) = (
            predict_query_confidence(&small, &runs).unwrap(),
            predict_query_confidence(&big, &scaled).unwrap(),
        );
        for (q, p) in &p_small {
            assert!((p - p_big[q]).abs() < 1e-9, "{q}: {p} vs {}", p_big[q]);
        }
    }

    /// A query whose best score lies so far from the training scores that its feature
    /// overflows is an error naming that run's query, not a NaN probability.
    #[test]
    fn an_overflowing_feature_names_the_query() {
        let (qr, runs) = data();
        let m = fit_query_confidence(&qr, &runs, &FitQueryConfidenceOptions::default()).unwrap();
        let one = |s: f64| -> Run {
            let docs: BTreeMap<String, f64> = [("d".to_string(), s)].into_iter().collect();
            Run([("q.1".to_string(), docs)].into_iter().collect())
        };
        let e = predict_query_confidence(&m, &[one(0.5), one(-1e308)]).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::NonFiniteScore, r#"runs[1]["q.1"]"#)
        );
        let p = predict_query_confidence(&m, &[one(0.5), one(0.5)]).unwrap();
        assert!((0.0..=1.0).contains(&p["q.1"]), "{p:?}");
        // The rank-only feature's term overflows only with a model no fit makes (a scale
        // of 5e-324): the model's fault, on `model` (it was on "").
        let mut tiny = m.clone();
        tiny.scale[0] = 5e-324;
        tiny.coefficients[0] = 1.0;
        let e = predict_query_confidence(&tiny, &[one(0.5), one(0.5)]).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::NonFiniteScore, "model")
        );
    }

    /// Judgements and runs with no query in common: the message shows the first ids of
    /// each, where a prefix or a case apart shows at once.
    #[test]
    fn no_query_in_common_shows_both_sides_ids() {
        let qr = qrels(&[("Q1", &[("d", 1.0)]), ("Q2", &[("d", 0.0)])]);
        let five: &[(&str, &[(&str, f64)])] = &[
            ("1", &[("d", 1.0)]),
            ("2", &[("d", 1.0)]),
            ("3", &[("d", 1.0)]),
            ("4", &[("d", 1.0)]),
            ("5", &[("d", 1.0)]),
        ];
        let runs = vec![run(five), run(&five[..2])];
        let e =
            fit_query_confidence(&qr, &runs, &FitQueryConfidenceOptions::default()).unwrap_err();
        assert_eq!((e.code, e.field.as_str()), (ErrorCode::EmptyInput, "qrels"));
        assert_eq!(
            e.message,
            r#"no judged query was retrieved by any run (the judgements' queries: "Q1", "Q2"; the first run's: "1", "2", "3", ... (5 in all))"#
        );
        let e = fit_query_confidence(&qrels(&[]), &runs, &FitQueryConfidenceOptions::default())
            .unwrap_err();
        assert!(
            e.message.contains("the judgements' queries: none;"),
            "{}",
            e.message
        );
    }

    #[test]
    fn fits_a_separating_model_deterministically() {
        let (qr, runs) = data();
        let opts = FitQueryConfidenceOptions::default();
        let m = fit_query_confidence(&qr, &runs, &opts).unwrap();
        assert_eq!(m.features, ["rankOnly", "top[0]", "top[1]"]);
        assert_eq!(m.training.queries, 12);
        // 8 answerable queries, but q1's relevant document is 8th: 7 positives.
        assert_eq!(m.training.positives, 7);
        assert!(m.training.converged);
        assert!(m.training.auroc > 0.8, "{:?}", m.training);
        assert_eq!(m, fit_query_confidence(&qr, &runs, &opts).unwrap());
        // A high top score predicts higher than a low one.
        let views = |top: f64| -> f64 {
            let ids = ["x", "y"];
            let s1 = [top * 10.0, top * 10.0 - 0.2];
            let s2 = [top, top - 0.02];
            m.predict(&[
                ListView {
                    ids: &ids[..],
                    scores: Some(&s1[..]),
                },
                ListView {
                    ids: &ids[..],
                    scores: Some(&s2[..]),
                },
            ])
            .unwrap()
        };
        assert!(
            views(0.65) > 0.6 && views(0.25) < 0.2,
            "{} {}",
            views(0.65),
            views(0.25)
        );
        m.validate().unwrap();
    }

    #[test]
    fn the_fit_is_the_penalized_optimum() {
        // At the optimum the gradient of the penalized log-likelihood vanishes: the
        // intercept's component says mean(p) = mean(y) on the training queries.
        let (qr, runs) = data();
        let m = fit_query_confidence(&qr, &runs, &FitQueryConfidenceOptions::default()).unwrap();
        let rows = rows(&qr, &runs, &m.weights, m.rrf_k, m.k).unwrap();
        let p: Vec<f64> = rows
            .features
            .iter()
            .map(|x| m.predict_features(x).unwrap())
            .collect();
        let mean_p = p.iter().sum::<f64>() / p.len() as f64;
        let mean_y = rows.labels.iter().sum::<f64>() / p.len() as f64;
        assert!((mean_p - mean_y).abs() < 1e-9, "{mean_p} {mean_y}");
        // A larger penalty shrinks the coefficients.
        let strong = fit_query_confidence(
            &qr,
            &runs,
            &FitQueryConfidenceOptions {
                l2: 100.0,
                ..Default::default()
            },
        )
        .unwrap();
        let norm = |c: &[f64]| c.iter().map(|x| x * x).sum::<f64>();
        assert!(norm(&strong.coefficients) < norm(&m.coefficients));
    }

    #[test]
    fn degenerate_inputs_are_clear_errors() {
        let (qr, runs) = data();
        let d = FitQueryConfidenceOptions::default();
        // One query alone: one class.
        let one: Qrels = qr
            .iter()
            .take(1)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let e = fit_query_confidence(&one, &runs, &d).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InvalidLabels, "qrels")
        );
        // No judged query in the runs.
        let other = qrels(&[("zz", &[("a", 1.0)])]);
        let e = fit_query_confidence(&other, &runs, &d).unwrap_err();
        assert_eq!((e.code, e.field.as_str()), (ErrorCode::EmptyInput, "qrels"));
        // No run.
        assert_eq!(
            fit_query_confidence(&qr, &[] as &[Run], &d)
                .unwrap_err()
                .field,
            "runs"
        );
        let bad = |o: FitQueryConfidenceOptions| fit_query_confidence(&qr, &runs, &o).unwrap_err();
        assert_eq!(
            bad(FitQueryConfidenceOptions { k: 0, ..d.clone() }).field,
            "k"
        );
        assert_eq!(
            bad(FitQueryConfidenceOptions {
                l2: 0.0,
                ..d.clone()
            })
            .field,
            "l2"
        );
        assert_eq!(
            bad(FitQueryConfidenceOptions {
                weights: Some(vec![1.0]),
                ..d.clone()
            })
            .code,
            ErrorCode::LengthMismatch
        );
        let mut nan = runs.clone();
        if let Some(docs) = nan.get_mut(1).and_then(|r| r.get_mut("q2")) {
            docs.insert("d2_0".into(), f64::NAN);
        }
        assert_eq!(
            fit_query_confidence(&qr, &nan, &d).unwrap_err().field,
            "runs[1].q2.d2_0"
        );
    }

    /// `data()` with the first run's documents of every query scored `score(i)` by their
    /// place `i` (each query's BM25 top score then the same), fitted with the defaults.
    fn fit_with_flat_first_run(score: impl Fn(usize) -> f64) -> QueryConfidenceModel {
        let (qr, mut runs) = data();
        for docs in runs.get_mut(0).into_iter().flat_map(|r| r.values_mut()) {
            for (i, s) in docs.values_mut().enumerate() {
                *s = score(i);
            }
        }
        fit_query_confidence(&qr, &runs, &FitQueryConfidenceOptions::default()).unwrap()
    }

    #[test]
    fn constant_features_get_no_weight() {
        // Every query's lists look alike except for the dense top score.
        let m = fit_with_flat_first_run(|i| 5.0 - i as f64);
        assert_eq!(m.scale[1], 1.0);
        assert_eq!(m.coefficients[1], 0.0);
        assert!(m.coefficients[2] > 0.0);
    }

    #[test]
    fn a_constant_feature_whose_mean_rounds_gets_no_weight() {
        // 0.1 summed once per query (12 of them) and divided by 12 is not 0.1: the
        // column's deviations from its mean are rounding alone, and must not reach the fit.
        let n = data().0.len();
        assert_ne!(
            (0..n).map(|_| 0.1).sum::<f64>() / n as f64,
            0.1,
            "the test's premise"
        );
        let m = fit_with_flat_first_run(|i| if i == 0 { 0.1 } else { 0.05 });
        assert_eq!(m.scale[1], 1.0);
        assert_eq!(m.coefficients[1], 0.0);
    }

    #[test]
    fn queries_missing_from_a_run_take_the_lowest_top() {
        let (mut qr, mut runs) = data();
        if let Some(r) = runs.get_mut(0) {
            r.remove("q4");
        }
        qr.insert("unjudged-elsewhere".into(), BTreeMap::new());
        let rows = rows(&qr, &runs, &[1.0, 1.0], 60.0, 5).unwrap();
        assert_eq!(rows.queries.len(), 12);
        let i = rows.queries.iter().position(|q| q == "q4").unwrap();
        assert_eq!(rows.features[i][1], rows.missing_top[0]);
        let lowest = (0..12)
            .filter(|&q| q != 4)
            .map(|q| {
                let top = if q % 3 != 0 {
                    0.6 + 0.01 * q as f64
                } else {
                    0.2 + 0.01 * q as f64
                };
                10.0 * top
            })
            .fold(f64::INFINITY, float::min);
        assert_eq!(rows.missing_top[0], lowest);
    }
}
