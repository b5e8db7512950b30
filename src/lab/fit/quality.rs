//! How well calibrated probabilities match 0/1 relevance labels.
//!
//! The probabilities are grouped into bins, either of equal width over `[0, 1]`
//! (`"uniform"`) or holding about the same number of items (`"quantile"`: the bin edges
//! are the linearly interpolated percentiles of the probabilities, numpy's default
//! `np.percentile` method). A probability equal to an inner edge falls in the lower bin.
//! Binning follows scikit-learn's `calibration_curve`, so the non-empty bins of the
//! reliability curve are its `prob_true` / `prob_pred`.
//!
//! * ECE = `sum over bins of |bin| / N * |fraction positive - mean confidence|`;
//! * MCE = the largest `|fraction positive - mean confidence|` over non-empty bins;
//! * Brier score = `mean((p - y)^2)`;
//! * log loss = `-mean(y log p + (1 - y) log(1 - p))`, with `p` first clipped to
//!   `[1e-15, 1 - 1e-15]` so that a confident mistake costs about 34.5 rather than
//!   infinity (scikit-learn's historical `eps = 1e-15`; scikit-learn >= 1.5 clips to
//!   machine epsilon, which gives the same value unless some `p` is within `1e-15` of 0
//!   or 1);
//! * AUROC = the area under the ROC curve of the probabilities against the labels (ties
//!   count one half; scikit-learn's `roc_auc_score`): how well they rank the relevant
//!   above the rest, which none of the figures above measures (a constant probability
//!   equal to the base rate has ECE 0 and AUROC 0.5).

use super::{auroc, check_judged, check_unit_interval};
use crate::error::{ErrorCode, Result, ScoreError};
use crate::float;
use crate::sort::StableSort;
use serde::{Deserialize, Serialize};

/// Most bins [`calibration_error`] accepts.
pub const MAX_BINS: usize = 10_000;

/// Lower clip of probabilities in the log loss (upper clip: `1 - LOG_LOSS_EPS`).
pub const LOG_LOSS_EPS: f64 = 1e-15;

/// How the reliability bins are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BinStrategy {
    /// Bins of equal width over `[0, 1]`.
    #[default]
    Uniform,
    /// Bins with edges at the percentiles of the probabilities (equal mass).
    Quantile,
}

/// Options of [`calibration_error`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct CalibrationErrorOptions {
    /// Number of bins, `1..=10000` (default 10). A `u64`, so that a count above
    /// `u32::MAX` is refused as out of range on every target.
    pub bins: u64,
    /// Bin layout (default `"uniform"`).
    pub strategy: BinStrategy,
}

impl Default for CalibrationErrorOptions {
    fn default() -> Self {
        CalibrationErrorOptions {
            bins: 10,
            strategy: BinStrategy::Uniform,
        }
    }
}

/// One bin of the reliability curve.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReliabilityBin {
    /// Lower edge.
    pub lower: f64,
    /// Upper edge.
    pub upper: f64,
    /// Number of probabilities in the bin.
    pub count: usize,
    /// Mean probability in the bin (`null` when empty).
    pub mean_confidence: Option<f64>,
    /// Fraction of relevant items in the bin (`null` when empty).
    pub fraction_positive: Option<f64>,
}

/// Calibration quality of a set of probabilities.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CalibrationReport {
    /// Number of probabilities.
    pub count: usize,
    /// Expected calibration error.
    pub ece: f64,
    /// Maximum calibration error over non-empty bins.
    pub mce: f64,
    /// Brier score.
    pub brier: f64,
    /// Log loss (probabilities clipped to `[1e-15, 1 - 1e-15]`).
    pub log_loss: f64,
    /// Area under the ROC curve (ties count one half); `None` (JSON `null`) when the
    /// labels hold one class only.
    pub auroc: Option<f64>,
    /// Every bin in order, empty ones included.
    pub bins: Vec<ReliabilityBin>,
}

/// Calibration error, Brier score, log loss, AUROC and reliability curve of
/// `probabilities` against 0/1 `labels` (1 = relevant).
///
/// Errors: `LENGTH_MISMATCH` (field `labels`), `EMPTY_INPUT`, `NON_FINITE_SCORE`
/// (`probabilities[i]`), `OUT_OF_RANGE` (`probabilities[i]` outside `[0, 1]`),
/// `INVALID_CONFIG` (`bins` outside `1..=10000`), `INVALID_LABELS` (`labels[i]` not 0/1). One class alone
/// is allowed.
pub fn calibration_error(
    probabilities: &[f64],
    labels: &[f64],
    opts: &CalibrationErrorOptions,
) -> Result<CalibrationReport> {
    check_judged(probabilities, labels, "probabilities")?;
    check_unit_interval(probabilities, "probabilities")?;
    let n_bins = check_bins(opts.bins)?;
    let edges = match opts.strategy {
        BinStrategy::Uniform => uniform_edges(n_bins),
        BinStrategy::Quantile => quantile_edges(probabilities, n_bins),
    };
    let bins = reliability(probabilities, labels, &edges);
    let n = probabilities.len() as f64;
    Ok(CalibrationReport {
        count: probabilities.len(),
        ece: bins
            .iter()
            .filter_map(|b| Some(b.count as f64 / n * gap(b)?))
            .sum(),
        mce: bins.iter().filter_map(gap).fold(0.0, float::max),
        brier: brier(probabilities, labels),
        log_loss: log_loss(probabilities, labels),
        auroc: auroc(probabilities, labels),
        bins,
    })
}

/// `1 <= bins <= MAX_BINS`: the count as a `usize`.
fn check_bins(bins: u64) -> Result<usize> {
    match usize::try_from(bins) {
        Ok(b) if (1..=MAX_BINS).contains(&b) => Ok(b),
        _ => Err(ScoreError::new(
            ErrorCode::InvalidConfig,
            "bins",
            format!("bins must be a whole number from 1 to {MAX_BINS}, got {bins}"),
        )),
    }
}

/// `|fraction positive - mean confidence|` of a non-empty bin.
fn gap(bin: &ReliabilityBin) -> Option<f64> {
    Some((bin.fraction_positive? - bin.mean_confidence?).abs())
}

/// `i / bins` for `i = 0..=bins`, computed as numpy's `linspace(0, 1, bins + 1)` does
/// (`i * (1 / bins)`, the last edge exactly 1).
fn uniform_edges(bins: usize) -> Vec<f64> {
    let step = 1.0 / bins as f64;
    (0..=bins)
        .map(|i| if i == bins { 1.0 } else { i as f64 * step })
        .collect()
}

/// The `i / bins` percentiles of `values`, `i = 0..=bins`, as numpy's
/// `percentile(values, linspace(0, 1, bins + 1) * 100)` computes them.
fn quantile_edges(values: &[f64], bins: usize) -> Vec<f64> {
    let mut sorted = values.to_vec();
    sorted.stable_sort_by(f64::total_cmp);
    uniform_edges(bins)
        .iter()
        .map(|&q| percentile(&sorted, q * 100.0 / 100.0))
        .collect()
}

/// The `q`-quantile (`0 <= q <= 1`) of non-empty sorted values by linear interpolation
/// between the order statistics around `(n - 1) * q` (numpy's "linear" method and its
/// lerp, which interpolates from the nearer end).
fn percentile(sorted: &[f64], q: f64) -> f64 {
    let last = sorted.len().saturating_sub(1);
    let position = last as f64 * q;
    let below = libm::floor(position);
    let i = below as usize;
    if i >= last {
        return sorted.last().copied().unwrap_or(f64::NAN);
    }
    match (sorted.get(i), sorted.get(i + 1)) {
        (Some(&a), Some(&b)) => lerp(a, b, position - below),
        _ => f64::NAN,
    }
}

/// `a + (b - a) * t`, computed from `b` when `t >= 0.5` (numpy's `_lerp`).
fn lerp(a: f64, b: f64, t: f64) -> f64 {
    let diff = b - a;
    if t >= 0.5 {
        b - diff * (1.0 - t)
    } else {
        a + diff * t
    }
}

/// Per-bin counts, mean probabilities and fractions of positives for the given edges.
fn reliability(probabilities: &[f64], labels: &[f64], edges: &[f64]) -> Vec<ReliabilityBin> {
    let inner = edges.get(1..edges.len().saturating_sub(1)).unwrap_or(&[]);
    let bins = edges.len().saturating_sub(1);
    let mut sums = vec![(0usize, 0.0f64, 0.0f64); bins];
    for (&p, &y) in probabilities.iter().zip(labels) {
        let bin = inner.partition_point(|&edge| edge < p);
        if let Some((count, p_sum, y_sum)) = sums.get_mut(bin) {
            *count += 1;
            *p_sum += p;
            *y_sum += y;
        }
    }
    edges
        .windows(2)
        .zip(sums)
        .map(|(w, (count, p_sum, y_sum))| {
            let mean = |sum: f64| (count > 0).then(|| sum / count as f64);
            ReliabilityBin {
                lower: w.first().copied().unwrap_or(0.0),
                upper: w.get(1).copied().unwrap_or(1.0),
                count,
                mean_confidence: mean(p_sum),
                fraction_positive: mean(y_sum),
            }
        })
        .collect()
}

/// Mean squared difference between probability and label.
fn brier(probabilities: &[f64], labels: &[f64]) -> f64 {
    let sum: f64 = probabilities
        .iter()
        .zip(labels)
        .map(|(&p, &y)| (p - y) * (p - y))
        .sum();
    sum / probabilities.len() as f64
}

/// Mean negative log-likelihood with probabilities clipped to `[1e-15, 1 - 1e-15]`.
fn log_loss(probabilities: &[f64], labels: &[f64]) -> f64 {
    let sum: f64 = probabilities
        .iter()
        .zip(labels)
        .map(|(&p, &y)| {
            let p = p.clamp(LOG_LOSS_EPS, 1.0 - LOG_LOSS_EPS);
            if y > 0.0 {
                -libm::log(p)
            } else {
                -libm::log(1.0 - p)
            }
        })
        .sum();
    sum / probabilities.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(bins: u64, strategy: BinStrategy) -> CalibrationErrorOptions {
        CalibrationErrorOptions { bins, strategy }
    }

    fn curve(report: &CalibrationReport) -> (Vec<f64>, Vec<f64>) {
        report
            .bins
            .iter()
            .filter(|b| b.count > 0)
            .map(|b| (b.fraction_positive.unwrap(), b.mean_confidence.unwrap()))
            .unzip()
    }

    #[test]
    fn sklearn_calibration_curve_examples() {
        let r = calibration_error(
            &[0.0, 0.1, 0.2, 0.8, 0.9, 1.0],
            &[0.0, 0.0, 0.0, 1.0, 1.0, 1.0],
            &opts(2, BinStrategy::Uniform),
        )
        .unwrap();
        let (truth, pred) = curve(&r);
        assert_eq!(truth, vec![0.0, 1.0]);
        assert!((pred[0] - 0.1).abs() < 1e-15 && (pred[1] - 0.9).abs() < 1e-15);
        assert!((r.ece - 0.1).abs() < 1e-15 && (r.mce - 0.1).abs() < 1e-15);

        let r = calibration_error(
            &[0.0, 0.1, 0.2, 0.5, 0.9, 1.0],
            &[0.0, 0.0, 0.0, 0.0, 1.0, 1.0],
            &opts(2, BinStrategy::Quantile),
        )
        .unwrap();
        let (truth, pred) = curve(&r);
        assert!((truth[0] - 0.0).abs() < 1e-15 && (truth[1] - 2.0 / 3.0).abs() < 1e-15);
        assert!((pred[0] - 0.1).abs() < 1e-15 && (pred[1] - 0.8).abs() < 1e-15);
        assert_eq!(
            (r.bins[0].lower, r.bins[0].upper, r.bins[1].upper),
            (0.0, 0.35, 1.0)
        );
    }

    #[test]
    fn perfect_predictions_and_confident_mistakes() {
        let r = calibration_error(
            &[0.0, 1.0],
            &[0.0, 1.0],
            &CalibrationErrorOptions::default(),
        )
        .unwrap();
        assert_eq!((r.ece, r.mce, r.brier), (0.0, 0.0, 0.0));
        assert!(r.log_loss > 0.0 && r.log_loss < 1e-14);
        let r = calibration_error(&[1.0], &[0.0], &CalibrationErrorOptions::default()).unwrap();
        assert_eq!((r.ece, r.mce, r.brier), (1.0, 1.0, 1.0));
        assert!(
            (r.log_loss - 34.538776394910684).abs() < 1e-2,
            "{}",
            r.log_loss
        );
        assert_eq!(r.bins.len(), 10);
        assert_eq!(r.bins.iter().filter(|b| b.count > 0).count(), 1);
    }

    #[test]
    fn errors() {
        let d = CalibrationErrorOptions::default();
        let e = calibration_error(&[0.5], &[1.0, 0.0], &d).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::LengthMismatch, "labels")
        );
        assert_eq!(
            calibration_error(&[], &[], &d).unwrap_err().code,
            ErrorCode::EmptyInput
        );
        let e = calibration_error(&[0.5, f64::NAN], &[1.0, 0.0], &d).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::NonFiniteScore, "probabilities[1]")
        );
        let e = calibration_error(&[0.5, 1.5], &[1.0, 0.0], &d).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::OutOfRange, "probabilities[1]")
        );
        let e = calibration_error(&[0.5], &[2.0], &d).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InvalidLabels, "labels[0]")
        );
        let e = calibration_error(&[0.5], &[1.0], &opts(0, BinStrategy::Uniform)).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InvalidConfig, "bins")
        );
        assert!(calibration_error(
            &[0.5],
            &[1.0],
            &opts(MAX_BINS as u64 + 1, BinStrategy::Quantile)
        )
        .is_err());
    }

    #[test]
    fn options_json() {
        let o: CalibrationErrorOptions =
            serde_json::from_str(r#"{"strategy":"quantile"}"#).unwrap();
        assert_eq!(o, opts(10, BinStrategy::Quantile));
        assert!(serde_json::from_str::<CalibrationErrorOptions>(r#"{"nBins":3}"#).is_err());
        assert!(
            serde_json::from_str::<CalibrationErrorOptions>(r#"{"strategy":"percentile"}"#)
                .is_err()
        );
        let r = calibration_error(&[0.25], &[1.0], &opts(1, BinStrategy::Uniform)).unwrap();
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["logLoss"], serde_json::json!(r.log_loss));
        assert_eq!(json["bins"][0]["fractionPositive"], serde_json::json!(1.0));
    }

    /// AUROC by its definition: the share of (relevant, not relevant) pairs the
    /// probabilities order rightly, a tie counting one half.
    fn pairwise_auroc(p: &[f64], y: &[f64]) -> Option<f64> {
        let (mut won, mut pairs) = (0.0, 0.0);
        for (&a, _) in p.iter().zip(y).filter(|(_, &t)| t == 1.0) {
            for (&b, _) in p.iter().zip(y).filter(|(_, &t)| t == 0.0) {
                pairs += 1.0;
                won += if a > b {
                    1.0
                } else if a == b {
                    0.5
                } else {
                    0.0
                };
            }
        }
        (pairs > 0.0).then(|| won / pairs)
    }

    #[test]
    fn auroc_measures_the_ranking_that_calibration_does_not() {
        let d = CalibrationErrorOptions::default();
        // scikit-learn's roc_auc_score example: 0.75.
        let r = calibration_error(&[0.1, 0.4, 0.35, 0.8], &[0.0, 0.0, 1.0, 1.0], &d).unwrap();
        assert_eq!(r.auroc, Some(0.75));
        // A tie between a relevant and an irrelevant probability counts one half: 3.5 / 4.
        let r = calibration_error(&[0.5, 0.5, 0.2, 0.9], &[0.0, 1.0, 0.0, 1.0], &d).unwrap();
        assert_eq!(r.auroc, Some(0.875));
        // The base rate given to every item: perfectly calibrated, no ranking at all.
        let r = calibration_error(&[0.5; 4], &[0.0, 1.0, 0.0, 1.0], &d).unwrap();
        assert_eq!((r.ece, r.auroc), (0.0, Some(0.5)));
        // One class: no pair to order (null in JSON), the rest still measured.
        let r = calibration_error(&[0.2, 0.7], &[1.0, 1.0], &d).unwrap();
        assert_eq!(r.auroc, None);
        assert_eq!(
            serde_json::to_value(&r).unwrap()["auroc"],
            serde_json::Value::Null
        );
        assert!((r.brier - (0.64 + 0.09) / 2.0).abs() < 1e-15);
    }

    proptest::proptest! {
        #[test]
        fn auroc_is_the_share_of_pairs_ordered_rightly(
            judged in proptest::collection::vec((0u8..=20, proptest::bool::ANY), 1..40)
        ) {
            // Probabilities on a grid of 21 values, so that ties are common.
            let p: Vec<f64> = judged.iter().map(|&(k, _)| f64::from(k) / 20.0).collect();
            let y: Vec<f64> = judged.iter().map(|&(_, r)| if r { 1.0 } else { 0.0 }).collect();
            let r = calibration_error(&p, &y, &CalibrationErrorOptions::default()).unwrap();
            let expected = pairwise_auroc(&p, &y);
            match (r.auroc, expected) {
                (Some(a), Some(b)) => proptest::prop_assert!((a - b).abs() < 1e-12, "{a} vs {b}"),
                (a, b) => proptest::prop_assert_eq!(a, b),
            }
        }
    }
}
