//! Isotonic regression of 0/1 relevance labels on raw scores, mirroring scikit-learn's
//! `IsotonicRegression(increasing=True, out_of_bounds="clip", y_min=0, y_max=1)`:
//!
//! 1. sort the pairs by score (then label);
//! 2. merge equal scores into one point whose target is the mean label and whose weight
//!    is the number of merged items (scikit-learn's `_make_unique`, which treats scores
//!    closer than `1e-15` to the first score of a run as equal);
//! 3. pool adjacent violators: neighbouring blocks whose means decrease (or are equal)
//!    are merged into one block with the weighted mean, until the means increase;
//! 4. drop interior points whose fitted value equals both neighbours' (they do not
//!    change the interpolant);
//! 5. predict ([`IsotonicModel::predict`], in the core) by linear interpolation between
//!    the remaining points, clipping scores to the fitted range first.

use super::{check_judged, require_both_classes};
use crate::calibrate::IsotonicModel;
use crate::error::Result;
use crate::sort::StableSort;

/// Scores closer than this to the first score of a run of equal scores are merged
/// (numpy's `finfo(float64).resolution`, as in scikit-learn).
const TIE_RESOLUTION: f64 = 1e-15;

/// Fits an increasing isotonic regression of 0/1 `labels` (1 = relevant) on raw `scores`.
///
/// Errors: `LENGTH_MISMATCH` (field `labels`), `EMPTY_INPUT`, `NON_FINITE_SCORE`
/// (`scores[i]`), `INVALID_LABELS` (`labels[i]` not 0/1, or `labels` when only one class
/// is present: a calibration learnt from one class is a constant).
///
/// The model is bare (its JSON has no `method`): store `Calibration::from(model)`, the
/// form a configuration's `calibration` reads, as `fit_platt` says.
pub fn fit_isotonic(scores: &[f64], labels: &[f64]) -> Result<IsotonicModel> {
    require_both_classes(check_judged(scores, labels, "scores")?)?;
    let points = merge_ties(&sorted_pairs(scores, labels));
    let fitted = pool_adjacent_violators(&points);
    let knots: Vec<(f64, f64)> = points.iter().map(|p| p.x).zip(fitted).collect();
    let (x, y) = drop_flat_interior_knots(&knots).into_iter().unzip();
    Ok(IsotonicModel { x, y })
}

/// The `(score, label)` pairs sorted by score, then label.
fn sorted_pairs(scores: &[f64], labels: &[f64]) -> Vec<(f64, f64)> {
    // A label -0 (which the checks take as 0) is read as +0, so that a run of such
    // labels is fitted as 0, not -0 (IEEE's -0 + 0 is +0).
    let mut pairs: Vec<(f64, f64)> = scores
        .iter()
        .copied()
        .zip(labels.iter().map(|&l| l + 0.0))
        .collect();
    pairs.stable_sort_by(|p, q| p.0.total_cmp(&q.0).then(p.1.total_cmp(&q.1)));
    pairs
}

/// A distinct score with the sum and number of its labels.
#[derive(Debug, Clone, Copy, PartialEq)]
struct WeightedPoint {
    /// The score (the first of its run of equal scores).
    x: f64,
    /// Sum of the labels.
    sum: f64,
    /// Number of labels.
    weight: f64,
}

/// Merges runs of equal scores of sorted pairs into weighted points.
fn merge_ties(pairs: &[(f64, f64)]) -> Vec<WeightedPoint> {
    let mut points: Vec<WeightedPoint> = Vec::new();
    for &(x, y) in pairs {
        match points.last_mut() {
            Some(p) if x - p.x < TIE_RESOLUTION => {
                p.sum += y;
                p.weight += 1.0;
            }
            _ => points.push(WeightedPoint {
                x,
                sum: y,
                weight: 1.0,
            }),
        }
    }
    points
}

/// A block of consecutive points sharing one fitted value.
#[derive(Debug, Clone, Copy)]
struct Block {
    sum: f64,
    weight: f64,
    len: usize,
}

impl Block {
    fn mean(&self) -> f64 {
        self.sum / self.weight
    }
}

/// The non-decreasing least-squares fit of the point means, one value per point,
/// clipped to `[0, 1]`.
fn pool_adjacent_violators(points: &[WeightedPoint]) -> Vec<f64> {
    let mut blocks: Vec<Block> = Vec::with_capacity(points.len());
    for p in points {
        let mut current = Block {
            sum: p.sum,
            weight: p.weight,
            len: 1,
        };
        while let Some(previous) = blocks.last().copied() {
            if previous.mean() < current.mean() {
                break;
            }
            current = Block {
                sum: previous.sum + current.sum,
                weight: previous.weight + current.weight,
                len: previous.len + current.len,
            };
            blocks.pop();
        }
        blocks.push(current);
    }
    let mut fitted = Vec::with_capacity(points.len());
    for block in &blocks {
        fitted.resize(fitted.len() + block.len, block.mean().clamp(0.0, 1.0));
    }
    fitted
}

/// Keeps the first and last knot and every knot whose value differs from one of its
/// neighbours' values.
fn drop_flat_interior_knots(knots: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let is_flat = |i: usize, y: f64| {
        let previous = i.checked_sub(1).and_then(|j| knots.get(j));
        let next = knots.get(i + 1);
        matches!((previous, next), (Some(p), Some(n)) if p.1 == y && n.1 == y)
    };
    knots
        .iter()
        .enumerate()
        .filter(|&(i, &(_, y))| !is_flat(i, y))
        .map(|(_, &k)| k)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;

    #[test]
    fn a_label_of_minus_zero_is_fitted_as_zero() {
        // The checks count -0 as a 0 label; the fitted values are +0 as with 0 labels.
        let m = fit_isotonic(&[0.1, 0.2, 0.3, 0.4], &[-0.0, 1.0, -0.0, 1.0]).unwrap();
        let plain = fit_isotonic(&[0.1, 0.2, 0.3, 0.4], &[0.0, 1.0, 0.0, 1.0]).unwrap();
        let bits = |v: &[f64]| v.iter().map(|y| y.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&m.y), bits(&plain.y));
        assert_eq!(bits(&m.x), bits(&plain.x));
        assert!(m.y.first().is_some_and(|y| y.is_sign_positive()));
    }

    #[test]
    fn pools_violators_and_averages_ties() {
        // Means per distinct score: 1 -> 0, 2 -> 1/2, 3 -> 0, 4 -> 2/3, 5 -> 1.
        let m = fit_isotonic(
            &[4.0, 1.0, 2.0, 2.0, 3.0, 4.0, 4.0, 5.0],
            &[1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0],
        )
        .unwrap();
        assert_eq!(m.x, vec![1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(m.y, vec![0.0, 1.0 / 3.0, 1.0 / 3.0, 2.0 / 3.0, 1.0]);
        assert!(m.validate().is_ok());
        assert_eq!(m.predict(0.0), 0.0);
        assert_eq!(m.predict(9.0), 1.0);
        assert!((m.predict(3.5) - 0.5).abs() < 1e-15);
    }

    #[test]
    fn flat_interior_knots_are_dropped() {
        let m = fit_isotonic(&[1.0, 2.0, 3.0, 4.0, 5.0], &[0.0, 0.0, 0.0, 0.0, 1.0]).unwrap();
        assert_eq!(m.x, vec![1.0, 4.0, 5.0]);
        assert_eq!(m.y, vec![0.0, 0.0, 1.0]);
    }

    #[test]
    fn single_distinct_score_is_constant() {
        let m = fit_isotonic(&[0.5, 0.5, 0.5], &[1.0, 0.0, 0.0]).unwrap();
        assert_eq!(m.x, vec![0.5]);
        assert!((m.predict(-3.0) - 1.0 / 3.0).abs() < 1e-15);
        assert!((m.predict(7.0) - 1.0 / 3.0).abs() < 1e-15);
        assert!(m.predict(f64::NAN).is_nan());
    }

    #[test]
    fn predictions_are_non_decreasing() {
        let scores: Vec<f64> = (0..200).map(|i| f64::from((i * 37) % 101) / 10.0).collect();
        let labels: Vec<f64> = (0..200)
            .map(|i| {
                if (i * 13) % 7 < (i % 11) / 2 {
                    1.0
                } else {
                    0.0
                }
            })
            .collect();
        let m = fit_isotonic(&scores, &labels).unwrap();
        assert!(m.validate().is_ok());
        let mut previous = f64::NEG_INFINITY;
        for k in -100..1200 {
            let p = m.predict(f64::from(k) / 100.0);
            assert!(
                p >= previous && (0.0..=1.0).contains(&p),
                "{k}: {p} < {previous}"
            );
            previous = p;
        }
    }

    #[test]
    fn errors() {
        let e = fit_isotonic(&[1.0], &[1.0, 0.0]).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::LengthMismatch, "labels")
        );
        assert_eq!(
            fit_isotonic(&[], &[]).unwrap_err().code,
            ErrorCode::EmptyInput
        );
        let e = fit_isotonic(&[f64::NAN, 1.0], &[1.0, 0.0]).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::NonFiniteScore, "scores[0]")
        );
        let e = fit_isotonic(&[0.0, 1.0], &[-1.0, 0.0]).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InvalidLabels, "labels[0]")
        );
        let e = fit_isotonic(&[0.0, 1.0], &[0.0, 0.0]).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InvalidLabels, "labels")
        );
    }
}
