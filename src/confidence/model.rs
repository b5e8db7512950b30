//! A query-level confidence model fitted from judgements (`fitQueryConfidence` in the
//! lab): the probability that the fused top `k` holds at least one relevant document,
//! from the retrievers' own scores as well as the ranks.
//!
//! The features of one query, for a model fitted on `n` runs (lists matched by
//! position):
//!
//! * `rankOnly`: the seeds' rank-only estimate as a log-odds. The lists are fused by
//!   weighted RRF (the model's `rrfK` and `weights`); each of the top `k` fused scores
//!   goes through the seed's sigmoid (threshold 0.035, steepness 150) and
//!   `P = 1 - prod(1 - p_i)`; the feature is `ln(P / (1 - P))`, with `P` kept within
//!   `[1e-12, 1 - 1e-12]`. It sees how much the lists agree at the top; it depends on
//!   the fused scores only, not on how ties among them are broken.
//! * `top[i]`: list `i`'s best raw score (higher is better), how well anything matched
//!   for that retriever. A list with no document takes `missingTop[i]`, the lowest best
//!   score seen in training.
//!
//! The probability is `1 / (1 + exp(-(intercept + sum_j c_j (x_j - mean_j) / scale_j)))`
//! (coefficients of standardized features; `exp` and `ln` from `libm`, so every runtime
//! computes the same bits).

use crate::calibrate::Sigmoid;
use crate::error::{ErrorCode, Result, ScoreError};
use crate::fuse::{rrf_interned, validate_k, RankedList};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// The only method so far: L2-regularized logistic regression.
pub const METHOD: &str = "logistic";

/// Probabilities of the rank-only estimate are kept within `[EPS, 1 - EPS]` before the
/// log-odds.
const EPS: f64 = 1e-12;

/// The most runs a model may have (the features grow with them).
pub const MAX_RUNS: usize = 64;

/// Figures of the fit on its own training queries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TrainingFigures {
    /// Judged queries used.
    pub queries: u32,
    /// Of which the fused top k holds a relevant document.
    pub positives: u32,
    /// Mean log-loss on the training queries.
    pub log_loss: f64,
    /// AUROC on the training queries.
    pub auroc: f64,
    /// Newton iterations.
    pub iterations: u32,
    /// Whether the gradient vanished within the iteration budget: its largest component
    /// below 1e-9, or (where the objective's changes are below its rounding) no longer
    /// shrinking under full Newton steps.
    pub converged: bool,
}

/// A fitted query-confidence model: plain JSON, plugs into
/// `new Pipeline({ confidence: { model } })`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QueryConfidenceModel {
    /// `"logistic"`.
    pub method: String,
    /// How many lists the model takes, in a fixed order.
    pub runs: u32,
    /// The fused top k whose "at least one relevant" is predicted.
    pub k: u32,
    /// The RRF constant of the fusion the model assumes.
    pub rrf_k: f64,
    /// The RRF weight of each list.
    pub weights: Vec<f64>,
    /// Feature names: `rankOnly`, then `top[0]`, `top[1]`, ...
    pub features: Vec<String>,
    /// Training mean of each feature.
    pub mean: Vec<f64>,
    /// Training standard deviation of each feature (1 where it was 0).
    pub scale: Vec<f64>,
    /// Coefficient of each standardized feature.
    pub coefficients: Vec<f64>,
    /// Intercept.
    pub intercept: f64,
    /// The `top[i]` of a list with no document: the lowest one seen in training.
    pub missing_top: Vec<f64>,
    /// The L2 penalty the model was fitted with.
    pub l2: f64,
    /// Training figures.
    pub training: TrainingFigures,
}

/// The feature names of a model over `runs` lists.
pub fn feature_names(runs: usize) -> Vec<String> {
    std::iter::once("rankOnly".to_string())
        .chain((0..runs).map(|i| format!("top[{i}]")))
        .collect()
}

/// One list as the model sees it: ids best first, and their raw scores if known.
#[derive(Debug, Clone, Copy)]
pub struct ListView<'a, S: AsRef<str>> {
    /// Ids, best first.
    pub ids: &'a [S],
    /// Raw scores, parallel to `ids` (higher is better).
    pub scores: Option<&'a [f64]>,
}

fn bad(field: impl Into<String>, message: impl Into<String>) -> ScoreError {
    ScoreError::new(ErrorCode::InvalidConfig, field, message)
}

/// Validates the fusion settings a model (or a fit) uses.
pub fn validate_fusion(k: u32, rrf_k: f64, weights: &[f64], runs: usize) -> Result<()> {
    if k == 0 {
        // A count of results, as the confidence options' own `k`: not RRF's constant.
        return Err(bad("k", "must be >= 1, got 0"));
    }
    validate_k(rrf_k, "rrfK")?;
    if runs == 0 {
        return Err(ScoreError::new(
            ErrorCode::EmptyInput,
            "runs",
            "a query confidence model needs at least one run",
        ));
    }
    if runs > MAX_RUNS {
        return Err(ScoreError::new(
            ErrorCode::InputTooLarge,
            "runs",
            format!("at most {MAX_RUNS} runs, got {runs}"),
        ));
    }
    if weights.len() != runs {
        return Err(ScoreError::new(
            ErrorCode::LengthMismatch,
            "weights",
            format!(
                "weights: {}, runs: {runs} (one weight per run)",
                weights.len()
            ),
        ));
    }
    for (i, &w) in weights.iter().enumerate() {
        crate::fuse::validate_weight(w, || format!("weights[{i}]"))?;
    }
    Ok(())
}

impl QueryConfidenceModel {
    /// Checks that the model is one this version can use (a hand-edited or truncated
    /// model is refused with the field at fault).
    pub fn validate(&self) -> Result<()> {
        if self.method != METHOD {
            return Err(ScoreError::new(
                ErrorCode::UnknownMethod,
                "method",
                format!(
                    "unknown method {}, expected \"{METHOD}\"",
                    crate::error::name(&self.method)
                ),
            ));
        }
        let runs = self.runs as usize;
        validate_fusion(self.k, self.rrf_k, &self.weights, runs)?;
        let names = feature_names(runs);
        if self.features != names {
            // The list as `{:?}` writes it (without `join`'s code in the module).
            let mut list = String::new();
            for (i, n) in names.iter().enumerate() {
                let sep = if i > 0 { ", " } else { "" };
                let _ = write!(list, "{sep}{}", crate::error::quoted(n));
            }
            return Err(bad(
                "features",
                format!("expected the features [{list}] (runs: {runs})"),
            ));
        }
        let n = names.len();
        for (field, v) in [
            ("mean", &self.mean),
            ("scale", &self.scale),
            ("coefficients", &self.coefficients),
        ] {
            if v.len() != n {
                return Err(ScoreError::new(
                    ErrorCode::LengthMismatch,
                    field,
                    format!("values: {}, features: {n} (one value per feature)", v.len()),
                ));
            }
            crate::error::all_finite(v, field)?;
        }
        if let Some(i) = self.scale.iter().position(|&s| s <= 0.0) {
            return Err(bad(format!("scale[{i}]"), "must be > 0"));
        }
        if self.missing_top.len() != runs {
            return Err(ScoreError::new(
                ErrorCode::LengthMismatch,
                "missingTop",
                format!(
                    "values: {}, runs: {runs} (one value per run)",
                    self.missing_top.len()
                ),
            ));
        }
        crate::error::all_finite(&self.missing_top, "missingTop")?;
        crate::error::finite(self.intercept, || "intercept".to_string())?;
        // The fit's own figures: no prediction reads them, but `config` echoes them as
        // numbers (JSON has no NaN): finite, as the parameters above.
        for (field, v) in [
            ("l2", self.l2),
            ("training.logLoss", self.training.log_loss),
            ("training.auroc", self.training.auroc),
        ] {
            crate::error::finite(v, || field.to_string())?;
        }
        Ok(())
    }

    /// The features of one query's lists (`lists.len()` must be `runs`; a list without
    /// scores is an `EMPTY_INPUT` error naming `lists[i].scores`).
    pub fn features<S: AsRef<str>>(&self, lists: &[ListView<'_, S>]) -> Result<Vec<f64>> {
        self.check_lists(lists.len())?;
        // Weights near f64::MAX that overflow the fusion are the model's.
        let top = fused_top(lists, &self.weights, "model.weights", self.rrf_k, self.k)?;
        self.features_with_top(&top, lists)
    }

    /// `LENGTH_MISMATCH` on `lists` unless the model takes `n` lists.
    pub fn check_lists(&self, n: usize) -> Result<()> {
        if n == self.runs as usize {
            return Ok(());
        }
        Err(ScoreError::new(
            ErrorCode::LengthMismatch,
            "lists",
            format!(
                "lists: {n}, the confidence model's runs: {} (one list per run it was fitted on, matched by position)",
                self.runs
            ),
        ))
    }

    /// The features, given the top `k` fused scores of the lists under the model's
    /// fusion (descending): a caller that has fused the lists already passes them.
    pub fn features_with_top<S: AsRef<str>>(
        &self,
        top: &[f64],
        lists: &[ListView<'_, S>],
    ) -> Result<Vec<f64>> {
        let scores: Vec<Option<&[f64]>> = lists.iter().map(|l| l.scores).collect();
        self.features_of_scores(top, &scores)
    }

    /// [`QueryConfidenceModel::features_with_top`] given each list's raw scores alone
    /// (`None`: the list has none), which is all the features read of a list.
    pub fn features_of_scores(&self, top: &[f64], lists: &[Option<&[f64]>]) -> Result<Vec<f64>> {
        self.check_lists(lists.len())?;
        let mut x = Vec::with_capacity(lists.len() + 1);
        x.push(rank_only_of_top(top));
        for (i, (list, &missing)) in lists.iter().zip(&self.missing_top).enumerate() {
            let scores = list.ok_or_else(|| {
                ScoreError::new(
                    ErrorCode::EmptyInput,
                    format!("lists[{i}].scores"),
                    "the confidence model uses each list's raw scores: give `scores` for this list",
                )
            })?;
            x.push(top_score(scores).unwrap_or(missing));
        }
        Ok(x)
    }

    /// The probability for already computed features (`x[0]` the rank-only estimate,
    /// `x[1 + i]` list `i`'s best raw score).
    ///
    /// Each feature's weighed term, `c (v - m) / s`, must be finite: a raw score so far
    /// from the scores the model was fitted on that its term overflows is
    /// `NON_FINITE_SCORE` on `lists[i].scores` (on `""`, the model, for the rank-only
    /// feature, whose value lies in [0, 1]). Without the check two such terms of opposite
    /// signs made the probability NaN. A sum of finite terms may still overflow: the
    /// probability is then 0 or 1, the logistic's limits.
    pub fn predict_features(&self, x: &[f64]) -> Result<f64> {
        // One value per coefficient (the zip below would leave the others out).
        if x.len() != self.coefficients.len() {
            return Err(ScoreError::new(
                ErrorCode::LengthMismatch,
                "features",
                "one feature per coefficient of the model is needed",
            ));
        }
        let mut overflow = None;
        // Summed first, then added to the intercept: the order the golden vectors hold.
        let sum = x
            .iter()
            .zip(self.mean.iter().zip(&self.scale))
            .zip(&self.coefficients)
            .enumerate()
            .map(|(j, ((&v, (&m, &s)), &c))| {
                // A feature the model gives no weight adds nothing, however far its value
                // lies (0 times an overflowing difference would be NaN).
                if c == 0.0 {
                    return 0.0;
                }
                let term = c * (v - m) / s;
                if !term.is_finite() && overflow.is_none() {
                    overflow = Some(j);
                }
                term
            })
            .sum::<f64>();
        match overflow {
            Some(j) => Err(overflowing_feature(j)),
            None => Ok(logistic(self.intercept + sum)),
        }
    }

    /// The probability that the fused top `k` of `lists` holds a relevant document.
    pub fn predict<S: AsRef<str>>(&self, lists: &[ListView<'_, S>]) -> Result<f64> {
        self.predict_features(&self.features(lists)?)
    }
}

/// Feature `j`'s term overflowed (see [`QueryConfidenceModel::predict_features`]).
#[cold]
#[inline(never)]
fn overflowing_feature(j: usize) -> ScoreError {
    match j.checked_sub(1) {
        Some(i) => ScoreError::new(
            ErrorCode::NonFiniteScore,
            format!("lists[{i}].scores"),
            "this list's best raw score lies too far from the model's training scores: its feature overflows",
        ),
        None => ScoreError::new(
            ErrorCode::NonFiniteScore,
            "",
            "the model's rank-only feature overflows (its mean, scale or coefficient)",
        ),
    }
}

/// A numerically stable logistic function (libm's `exp`).
pub fn logistic(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + libm::exp(-z))
    } else {
        let e = libm::exp(z);
        e / (1.0 + e)
    }
}

/// The best raw score of a list (`None` when it is empty). Scores are finite here.
pub fn top_score(scores: &[f64]) -> Option<f64> {
    scores.iter().copied().reduce(crate::float::max)
}

/// The top `k` weighted-RRF scores of `lists`, descending (the weights' errors named
/// `weights_field`).
pub fn fused_top<S: AsRef<str>>(
    lists: &[ListView<'_, S>],
    weights: &[f64],
    weights_field: &str,
    rrf_k: f64,
    k: u32,
) -> Result<Vec<f64>> {
    let ranked: Vec<RankedList<'_, S>> = lists
        .iter()
        .zip(weights)
        .map(|(l, &weight)| RankedList { ids: l.ids, weight })
        .collect();
    let fused = rrf_interned(&ranked, rrf_k, weights_field)?;
    Ok(top_k(fused.fusion.scores, k))
}

/// The `k` largest of `scores`, descending (a partial selection, then a sort of `k`).
pub fn top_k(scores: Vec<f64>, k: u32) -> Vec<f64> {
    let k = k as usize;
    // Descending `total_cmp` is the order of the keys (equal keys: equal bits).
    let mut keyed: Vec<crate::sort::Keyed> = (0u32..)
        .zip(&scores)
        .map(|(i, &s)| (crate::fuse::descending_key(s), i))
        .collect();
    crate::sort::select_keyed(&mut keyed, k);
    keyed.truncate(k);
    crate::sort::sort_keyed(&mut keyed);
    keyed
        .iter()
        .map(|&(_, i)| scores.get(i as usize).copied().unwrap_or(0.0))
        .collect()
}

/// The `rankOnly` feature (see the module documentation).
pub fn rank_only_logit<S: AsRef<str>>(
    lists: &[ListView<'_, S>],
    weights: &[f64],
    rrf_k: f64,
    k: u32,
) -> Result<f64> {
    Ok(rank_only_of_top(&fused_top(
        lists, weights, "weights", rrf_k, k,
    )?))
}

/// The `rankOnly` feature of the top fused scores.
pub fn rank_only_of_top(top: &[f64]) -> f64 {
    let sigmoid = Sigmoid::default();
    // q = prod(1 - p_i): the probability that none is relevant.
    let q: f64 = top.iter().map(|&s| 1.0 - sigmoid.apply(s)).product();
    let p = (1.0 - q).clamp(EPS, 1.0 - EPS);
    libm::log(p) - libm::log1p(-p)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Features too few or too many for the model are refused (the sum over pairs of
    /// features and coefficients left the missing ones out, silently: 0.73 for one
    /// feature of a model of two).
    #[test]
    fn predict_features_needs_one_per_coefficient() {
        let mut m = model(1);
        m.coefficients = vec![1.0, 1.0];
        assert_eq!(m.predict_features(&[0.0, 0.0]).unwrap(), 0.5);
        for x in [&[1.0][..], &[0.0, 0.0, 0.0]] {
            let e = m.predict_features(x).unwrap_err();
            assert_eq!(
                (e.code, e.field.as_str()),
                (ErrorCode::LengthMismatch, "features")
            );
        }
    }

    fn model(runs: u32) -> QueryConfidenceModel {
        let n = runs as usize + 1;
        QueryConfidenceModel {
            method: METHOD.into(),
            runs,
            k: 5,
            rrf_k: 60.0,
            weights: vec![1.0; runs as usize],
            features: feature_names(runs as usize),
            mean: vec![0.0; n],
            scale: vec![1.0; n],
            coefficients: vec![0.0; n],
            intercept: 0.0,
            missing_top: vec![0.0; runs as usize],
            l2: 1.0,
            training: TrainingFigures {
                queries: 2,
                positives: 1,
                log_loss: 0.69,
                auroc: 0.5,
                iterations: 1,
                converged: true,
            },
        }
    }

    /// A raw score whose weighed feature overflows is an error naming its list: two such
    /// terms of opposite signs made the probability NaN (a fitted model's coefficients
    /// often differ in sign). Large scores whose terms stay finite still give a
    /// probability, at the logistic's limits when their sum overflows.
    #[test]
    fn overflowing_features_are_refused_not_nan() {
        let mut m = model(2);
        m.coefficients = vec![0.5, 2.0, -2.0];
        m.validate().unwrap();
        let ids = ["x"];
        let view = |scores: &'static [f64]| ListView {
            ids: &ids[..],
            scores: Some(scores),
        };
        let e = m.predict(&[view(&[1e308]), view(&[1e308])]).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::NonFiniteScore, "lists[0].scores")
        );
        let e = m.predict(&[view(&[0.5]), view(&[-1e308])]).unwrap_err();
        assert_eq!(e.field, "lists[1].scores");
        // Finite terms (1e307 * 2 each), opposite signs: a probability.
        let p = m.predict(&[view(&[1e307]), view(&[1e307])]).unwrap();
        assert!((0.0..=1.0).contains(&p), "{p}");
        // Same signs, a sum past f64::MAX: the logistic's limit.
        m.coefficients = vec![0.5, 2.0, 2.0];
        assert_eq!(
            m.predict(&[view(&[1e308 / 4.0 * 3.0]), view(&[1e308 / 4.0 * 3.0])])
                .unwrap(),
            1.0
        );
        // A feature without weight adds nothing, however far its value.
        m.coefficients = vec![0.5, 0.0, -2.0];
        let p = m.predict(&[view(&[1e308]), view(&[0.5])]).unwrap();
        assert!((0.0..=1.0).contains(&p), "{p}");
        m.mean = vec![0.0, -1e308, 0.0];
        assert_eq!(m.predict(&[view(&[1e308]), view(&[0.5])]).unwrap(), p);
        m.mean = vec![0.0; 3];
        // The rank-only feature's term overflows only with a model no fit makes.
        m.scale = vec![1e-308, 1.0, 1.0];
        m.mean = vec![-1e308, 0.0, 0.0];
        let e = m.predict(&[view(&[0.5]), view(&[0.5])]).unwrap_err();
        assert_eq!((e.code, e.field.as_str()), (ErrorCode::NonFiniteScore, ""));
    }

    #[test]
    fn parameters_that_are_not_finite_are_named_with_their_value() {
        let fault = |edit: fn(&mut QueryConfidenceModel)| {
            let mut m = model(2);
            edit(&mut m);
            let e = m.validate().unwrap_err();
            (e.code, e.field, e.message)
        };
        let nan = |field: &str, value: &str| {
            (
                ErrorCode::NonFiniteScore,
                field.to_string(),
                format!("must be a finite number, got {value}"),
            )
        };
        assert_eq!(
            fault(|m| m.coefficients[1] = f64::NAN),
            nan("coefficients[1]", "NaN")
        );
        assert_eq!(
            fault(|m| m.mean[2] = f64::INFINITY),
            nan("mean[2]", "Infinity")
        );
        assert_eq!(
            fault(|m| m.missing_top[0] = f64::NEG_INFINITY),
            nan("missingTop[0]", "-Infinity")
        );
        assert_eq!(fault(|m| m.intercept = f64::NAN), nan("intercept", "NaN"));
        // The fit's own figures: no prediction reads them, but `config` echoes them.
        assert_eq!(fault(|m| m.l2 = f64::NAN), nan("l2", "NaN"));
        assert_eq!(
            fault(|m| m.training.log_loss = f64::INFINITY),
            nan("training.logLoss", "Infinity")
        );
        assert_eq!(
            fault(|m| m.training.auroc = f64::NEG_INFINITY),
            nan("training.auroc", "-Infinity")
        );
    }

    #[test]
    fn wrong_features_are_listed_as_expected() {
        let mut m = model(2);
        m.features.swap(0, 1);
        let e = m.validate().unwrap_err();
        assert_eq!(e.field, "features");
        let names = feature_names(2);
        // The list as `{:?}` writes it.
        assert_eq!(
            e.message,
            format!("expected the features {names:?} (runs: 2)")
        );
        assert_eq!(
            e.message,
            r#"expected the features ["rankOnly", "top[0]", "top[1]"] (runs: 2)"#
        );
    }

    #[test]
    fn rank_only_matches_the_seed_formula() {
        // Two lists that agree on "a": its RRF score is 2/61, the others 1/62 and 1/62.
        let a = ["a", "b"];
        let b = ["a", "c"];
        let lists = [
            ListView {
                ids: &a[..],
                scores: None,
            },
            ListView {
                ids: &b[..],
                scores: None,
            },
        ];
        let top = fused_top(&lists, &[1.0, 1.0], "weights", 60.0, 5).unwrap();
        assert_eq!(top, vec![2.0 / 61.0, 1.0 / 62.0, 1.0 / 62.0]);
        let s = Sigmoid::default();
        let p = 1.0 - top.iter().map(|&x| 1.0 - s.apply(x)).product::<f64>();
        let x = rank_only_logit(&lists, &[1.0, 1.0], 60.0, 5).unwrap();
        assert!((x - (p / (1.0 - p)).ln()).abs() < 1e-12);
        // k = 1 keeps only the best fused score.
        let one = rank_only_logit(&lists, &[1.0, 1.0], 60.0, 1).unwrap();
        let p1 = s.apply(2.0 / 61.0);
        assert!((one - (p1 / (1.0 - p1)).ln()).abs() < 1e-12);
        // The weights are an argument of their own: a bad one is named there.
        let e = rank_only_logit(&lists, &[1.0, -1.0], 60.0, 5).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InvalidWeight, "weights[1]")
        );
    }

    #[test]
    fn empty_lists_give_the_lowest_log_odds_and_the_missing_top() {
        let e: [&str; 0] = [];
        let m = model(1);
        let x = m
            .features(&[ListView {
                ids: &e[..],
                scores: Some(&[]),
            }])
            .unwrap();
        assert!((x[0] - (EPS.ln() - (-EPS).ln_1p())).abs() < 1e-9);
        assert_eq!(x[1], 0.0);
    }

    #[test]
    fn mismatches_are_clear_errors() {
        let m = model(2);
        let ids = ["a"];
        let one = [ListView {
            ids: &ids[..],
            scores: Some(&[1.0][..]),
        }];
        let e = m.predict(&one).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::LengthMismatch, "lists")
        );
        let no_scores = [
            ListView {
                ids: &ids[..],
                scores: Some(&[1.0][..]),
            },
            ListView {
                ids: &ids[..],
                scores: None,
            },
        ];
        let e = m.predict(&no_scores).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::EmptyInput, "lists[1].scores")
        );
    }

    #[test]
    fn validation_names_the_field() {
        let mut m = model(2);
        m.scale[1] = 0.0;
        assert_eq!(m.validate().unwrap_err().field, "scale[1]");
        let mut m = model(2);
        m.coefficients.pop();
        assert_eq!(m.validate().unwrap_err().code, ErrorCode::LengthMismatch);
        let mut m = model(2);
        m.method = "tree".into();
        assert_eq!(m.validate().unwrap_err().code, ErrorCode::UnknownMethod);
        let mut m = model(2);
        m.features.swap(1, 2);
        assert_eq!(m.validate().unwrap_err().field, "features");
        let mut m = model(2);
        m.intercept = f64::NAN;
        assert_eq!(m.validate().unwrap_err().field, "intercept");
        assert!(model(3).validate().is_ok());
    }

    #[test]
    fn logistic_is_stable_and_symmetric() {
        for z in [-800.0, -30.0, -1.5, 0.0, 1.5, 30.0, 800.0] {
            let p = logistic(z);
            assert!((0.0..=1.0).contains(&p));
            assert!((p + logistic(-z) - 1.0).abs() < 1e-15);
        }
    }
}
