//! Stage 7: query-level confidence from the final (calibrated) scores.
//!
//! * `weightedTop5 = sum_{i<5} w_i * s_(i)` over the scores sorted descending, with
//!   default weights `[0.35, 0.25, 0.2, 0.12, 0.08]` (they sum to 1, so five perfect
//!   results give 1.0). A missing slot (fewer than five results) counts as 0: one
//!   perfect result alone gives 0.35.
//! * `expectedPrecision` = mean of the top `k` scores (`k` defaults to all scores given;
//!   0 for none): the expected precision at k when scores are calibrated probabilities.
//! * `atLeastOneRelevant = 1 - prod_i (1 - p_i)` over the same top `k` scores, assuming
//!   independent relevance.

pub mod model;

use crate::error::{all_finite, ErrorCode, Result, ScoreError};
use crate::sort::StableSort;
use serde::{Deserialize, Serialize};

/// Serde for the weights of the five slots: exactly five numbers (serde's own `[f64; 5]`
/// reads the first five of a longer array and drops the rest without a word).
#[doc(hidden)]
pub mod five {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer};

    /// Five numbers from an array of exactly five.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[f64; 5], D::Error> {
        let v = Vec::<f64>::deserialize(d)?;
        <[f64; 5]>::try_from(v.as_slice())
            .map_err(|_| D::Error::invalid_length(v.len(), &"an array of 5 numbers"))
    }
}

/// How far above 1 the weights' sum may be: the rounding of weights that sum to 1 as
/// decimals (`[0.2, 0.4, 0.3, 0.1, 0.0]` sums to 1.0000000000000002); `weightedTop5`
/// is then held to 1.
pub const WEIGHT_SUM_SLACK: f64 = 1e-9;

/// Default weights of the top-5 slots.
pub const DEFAULT_WEIGHTS: [f64; 5] = [0.35, 0.25, 0.2, 0.12, 0.08];

/// Options of [`query_confidence`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct ConfidenceOptions {
    /// Weights of slots 1..=5 (finite, >= 0).
    #[serde(deserialize_with = "five::deserialize")]
    pub weights: [f64; 5],
    /// How many top scores `expectedPrecision` and `atLeastOneRelevant` use
    /// (default: all).
    pub k: Option<u32>,
}

impl Default for ConfidenceOptions {
    fn default() -> Self {
        ConfidenceOptions {
            weights: DEFAULT_WEIGHTS,
            k: None,
        }
    }
}

impl ConfidenceOptions {
    /// Validates the weights and `k >= 1`.
    pub fn validate(&self) -> Result<()> {
        for (i, &w) in self.weights.iter().enumerate() {
            crate::fuse::validate_weight(w, || format!("weights[{i}]"))?;
        }
        // The weighted top-5 of scores in [0, 1] is at most the sum of the weights: a sum
        // of at most 1 keeps it a figure in [0, 1] (and finite: fuzzing found f64::MAX
        // weights giving infinity). `WEIGHT_SUM_SLACK` lets weights that sum to 1 in
        // decimals pass whatever their sum's rounding.
        let sum: f64 = self.weights.iter().sum();
        // (Each weight is finite and >= 0 here: the sum is a number, perhaps infinity.)
        if sum > 1.0 + WEIGHT_SUM_SLACK {
            return Err(ScoreError::new(
                ErrorCode::InvalidWeight,
                "weights",
                format!(
                    "the weights must sum to at most 1, got {}",
                    crate::error::num(sum)
                ),
            ));
        }
        if self.k == Some(0) {
            return Err(ScoreError::new(
                ErrorCode::InvalidConfig,
                "k",
                "must be >= 1, got 0",
            ));
        }
        Ok(())
    }
}

/// Query-level confidence figures.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct QueryConfidence {
    /// Weighted top-5 of the scores.
    pub weighted_top5: f64,
    /// Mean of the top-k scores.
    pub expected_precision: f64,
    /// `1 - prod(1 - p_i)` over the top-k scores.
    pub at_least_one_relevant: f64,
    /// The k used.
    pub k: u32,
}

/// Computes the confidence figures. Scores must be finite and within [0, 1].
pub fn query_confidence(scores: &[f64], opts: &ConfidenceOptions) -> Result<QueryConfidence> {
    opts.validate()?;
    all_finite(scores, "scores")?;
    if let Some(i) = scores.iter().position(|s| !(0.0..=1.0).contains(s)) {
        let got = scores.get(i).copied().unwrap_or(f64::NAN);
        return Err(ScoreError::new(
            ErrorCode::OutOfRange,
            format!("scores[{i}]"),
            format!(
                "confidence needs calibrated scores within [0, 1], got {}",
                crate::error::num(got)
            ),
        ));
    }
    let mut sorted = scores.to_vec();
    sorted.stable_sort_by(|a, b| b.total_cmp(a));
    Ok(confidence_of_sorted(&sorted, opts))
}

/// The figures for scores already sorted descending and validated.
pub fn confidence_of_sorted(sorted: &[f64], opts: &ConfidenceOptions) -> QueryConfidence {
    // From +0.0: an empty output's is 0, not -0.
    // Held to 1 (weights summing above 1 by `WEIGHT_SUM_SLACK` at most).
    let weighted_top5 = crate::float::min(
        crate::normalize::total(opts.weights.iter().zip(sorted.iter()).map(|(w, s)| w * s)),
        1.0,
    );
    let k = opts
        .k
        .map_or(sorted.len(), |k| (k as usize).min(sorted.len()));
    let top = sorted.get(..k).unwrap_or(sorted);
    let expected_precision = if top.is_empty() {
        0.0
    } else {
        top.iter().sum::<f64>() / top.len() as f64
    };
    let at_least_one_relevant = 1.0 - top.iter().map(|p| 1.0 - p).product::<f64>();
    QueryConfidence {
        weighted_top5,
        expected_precision,
        at_least_one_relevant,
        k: u32::try_from(k).unwrap_or(u32::MAX),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weighted_top5_default_weights() {
        let c = query_confidence(
            &[1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
            &ConfidenceOptions::default(),
        )
        .unwrap();
        assert!((c.weighted_top5 - 1.0).abs() < 1e-15);
        let one = query_confidence(&[1.0], &ConfidenceOptions::default()).unwrap();
        assert_eq!(one.weighted_top5, 0.35);
        let c = query_confidence(&[0.5, 0.9], &ConfidenceOptions::default()).unwrap();
        assert_eq!(c.weighted_top5, 0.35 * 0.9 + 0.25 * 0.5);
    }

    #[test]
    fn expected_precision_and_at_least_one() {
        let c = query_confidence(
            &[0.5, 0.5, 0.2],
            &ConfidenceOptions {
                k: Some(2),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(c.expected_precision, 0.5);
        assert_eq!(c.at_least_one_relevant, 0.75);
        assert_eq!(c.k, 2);
        let all = query_confidence(&[0.5, 0.5, 0.2], &ConfidenceOptions::default()).unwrap();
        assert!((all.expected_precision - 0.4).abs() < 1e-15);
        assert!((all.at_least_one_relevant - 0.8).abs() < 1e-15);
        let empty = query_confidence(&[], &ConfidenceOptions::default()).unwrap();
        assert_eq!(
            (
                empty.weighted_top5,
                empty.expected_precision,
                empty.at_least_one_relevant
            ),
            (0.0, 0.0, 0.0)
        );
    }

    #[test]
    fn errors() {
        assert_eq!(
            query_confidence(&[1.5], &ConfidenceOptions::default())
                .unwrap_err()
                .code,
            ErrorCode::OutOfRange
        );
        assert_eq!(
            query_confidence(&[f64::NAN], &ConfidenceOptions::default())
                .unwrap_err()
                .code,
            ErrorCode::NonFiniteScore
        );
        let bad = ConfidenceOptions {
            weights: [0.5, -0.1, 0.0, 0.0, 0.0],
            k: None,
        };
        assert_eq!(
            query_confidence(&[0.5], &bad).unwrap_err().field,
            "weights[1]"
        );
        assert_eq!(
            query_confidence(
                &[0.5],
                &ConfidenceOptions {
                    k: Some(0),
                    ..Default::default()
                }
            )
            .unwrap_err()
            .field,
            "k"
        );
    }

    /// Seed 003: with normalized scores the weighted top-5 needs no cap; that holds for
    /// weights summing to at most 1, so larger sums are refused.
    #[test]
    fn weights_sum_to_at_most_one() {
        let with = |weights| ConfidenceOptions { weights, k: None };
        let e = query_confidence(&[1.0; 5], &with([1.0; 5])).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InvalidWeight, "weights")
        );
        assert_eq!(e.message, "the weights must sum to at most 1, got 5");
        let e = query_confidence(&[1.0], &with([0.5, 0.5, 1e-6, 0.0, 0.0])).unwrap_err();
        assert_eq!(e.message, "the weights must sum to at most 1, got 1.000001");
        let e = query_confidence(&[1.0], &with([f64::MAX, f64::MAX, 0.0, 0.0, 0.0]));
        assert_eq!(e.unwrap_err().field, "weights");
        // Weights summing to 1 as decimals pass whatever their sum's rounding (this one
        // sums to 1.0000000000000002), and five perfect scores then give exactly 1.
        let decimals = with([0.2, 0.4, 0.3, 0.1, 0.0]);
        assert!(decimals.weights.iter().sum::<f64>() > 1.0);
        let c = query_confidence(&[1.0; 5], &decimals).unwrap();
        assert_eq!(c.weighted_top5, 1.0);
        assert_eq!(
            query_confidence(&[1.0], &with([1.0, 0.0, 0.0, 0.0, 0.0]))
                .unwrap()
                .weighted_top5,
            1.0
        );
    }
}
