//! Calibration fitted from relevance judgements, calibration quality, and band floors
//! chosen from evidence.
//!
//! * [`fit_platt`]: Platt scaling, `p = 1 / (1 + exp(a * x + b))`, fitted by the Newton
//!   method of Lin, Lin & Weng (2007), as in LibSVM and scikit-learn;
//! * [`fit_isotonic`]: isotonic regression by pool-adjacent-violators, predicting by
//!   linear interpolation like scikit-learn's `IsotonicRegression(out_of_bounds="clip")`;
//! * [`FittedCalibration`]: either model in its stored JSON form
//!   (`{"method":"platt","a":..,"b":..}` or `{"method":"isotonic","x":[..],"y":[..]}`);
//! * [`calibration_error`]: expected / maximum calibration error, Brier score, log loss
//!   and the reliability curve of calibrated probabilities;
//! * [`propose_bands`]: hit / degraded band floors from judged, calibrated scores, with
//!   their held-out precision and recall estimated by k-fold cross-validation.
//!
//! The fitted models, [`PlattModel`] and [`IsotonicModel`], belong to the core
//! ([`crate::calibrate`]), which applies them; this module only fits them.
//!
//! Labels are always `0.0` (not relevant) or `1.0` (relevant). Every transcendental
//! function comes from `libm`, so results are bit-identical on native targets and in
//! WebAssembly.

mod bands;
mod isotonic;
mod logistic;
mod platt;
mod quality;
mod query;

pub use bands::{
    propose_bands, propose_bands_limited, BandEvaluation, BandMetrics, BandProposal, FoldReport,
    ProposeBandsOptions,
};
pub use isotonic::fit_isotonic;
pub use logistic::{auroc, mean_log_loss};
pub use platt::fit_platt;
pub use quality::{
    calibration_error, BinStrategy, CalibrationErrorOptions, CalibrationReport, ReliabilityBin,
    LOG_LOSS_EPS, MAX_BINS,
};
pub use query::{
    evaluate_query_confidence, fit_query_confidence, fit_query_confidence_limited,
    predict_query_confidence, ranked, rows, FitQueryConfidenceOptions, QueryConfidenceEvaluation,
    QueryEvaluation, Ranked, Rows,
};

use crate::calibrate::{IsotonicModel, PlattModel};
use crate::error::{all_finite, ErrorCode, Result, ScoreError};
use serde::{Deserialize, Serialize};

/// A fitted calibration, as stored in a pipeline configuration.
///
/// Serialized with a `method` tag: `{"method":"platt","a":-1.2,"b":3.4}` or
/// `{"method":"isotonic","x":[0.1,0.5],"y":[0.0,0.8]}`. Deserializing does not check
/// the parameters; call [`FittedCalibration::validate`] before use.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "method", rename_all = "lowercase")]
pub enum FittedCalibration {
    /// Platt scaling (a sigmoid of the raw score).
    Platt(PlattModel),
    /// Isotonic regression (a non-decreasing piecewise-linear map).
    Isotonic(IsotonicModel),
}

impl FittedCalibration {
    /// The calibrated probability of raw score `x` (NaN for a NaN score).
    pub fn predict(&self, x: f64) -> f64 {
        match self {
            FittedCalibration::Platt(m) => m.predict(x),
            FittedCalibration::Isotonic(m) => m.predict(x),
        }
    }

    /// Checks the parameters: finite `a` and `b`; or non-empty `x` and `y` of equal
    /// length, `x` finite and strictly increasing, `y` non-decreasing within `[0, 1]`.
    pub fn validate(&self) -> Result<()> {
        match self {
            FittedCalibration::Platt(m) => m.validate(),
            FittedCalibration::Isotonic(m) => m.validate(),
        }
    }
}

impl From<PlattModel> for FittedCalibration {
    fn from(model: PlattModel) -> Self {
        FittedCalibration::Platt(model)
    }
}

impl From<IsotonicModel> for FittedCalibration {
    fn from(model: IsotonicModel) -> Self {
        FittedCalibration::Isotonic(model)
    }
}

/// A fitted model as a pipeline's calibration (here, not in the core: the lab depends on
/// the core, never the reverse).
impl From<FittedCalibration> for crate::pipeline::Calibration {
    fn from(f: FittedCalibration) -> Self {
        match f {
            FittedCalibration::Platt(m) => m.into(),
            FittedCalibration::Isotonic(m) => m.into(),
        }
    }
}

/// Positive and negative counts of a validated label vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ClassCounts {
    /// Labels equal to 1.
    pub positives: usize,
    /// Labels equal to 0.
    pub negatives: usize,
}

/// Validates parallel `values` / `labels` inputs: equal lengths (`LENGTH_MISMATCH`,
/// field `labels`), non-empty (`EMPTY_INPUT`), finite values (`NON_FINITE_SCORE`, field
/// `{field}[i]`) and 0/1 labels (`INVALID_LABELS`, field `labels[i]`).
pub(crate) fn check_judged(values: &[f64], labels: &[f64], field: &str) -> Result<ClassCounts> {
    if values.len() != labels.len() {
        return Err(ScoreError::new(
            ErrorCode::LengthMismatch,
            "labels",
            format!(
                "labels: {}, {field}: {} (one label per {})",
                labels.len(),
                values.len(),
                if field == "probabilities" {
                    "probability"
                } else {
                    "score"
                }
            ),
        ));
    }
    if values.is_empty() {
        return Err(ScoreError::new(
            ErrorCode::EmptyInput,
            field,
            format!("{field} must not be empty"),
        ));
    }
    all_finite(values, field)?;
    count_classes(labels)
}

/// Counts the classes of 0/1 labels; any other value is `INVALID_LABELS` (`labels[i]`).
fn count_classes(labels: &[f64]) -> Result<ClassCounts> {
    let mut counts = ClassCounts {
        positives: 0,
        negatives: 0,
    };
    for (i, &label) in labels.iter().enumerate() {
        if label == 1.0 {
            counts.positives += 1;
        } else if label == 0.0 {
            counts.negatives += 1;
        } else {
            return Err(ScoreError::new(
                ErrorCode::InvalidLabels,
                format!("labels[{i}]"),
                format!("labels must be 0 or 1, got {}", crate::error::num(label)),
            ));
        }
    }
    Ok(counts)
}

/// Requires both classes to be present (`INVALID_LABELS`, field `labels`).
pub(crate) fn require_both_classes(counts: ClassCounts) -> Result<()> {
    if counts.positives > 0 && counts.negatives > 0 {
        Ok(())
    } else {
        Err(ScoreError::new(
            ErrorCode::InvalidLabels,
            "labels",
            format!(
                "both relevant (1) and non-relevant (0) labels are needed, got {} relevant and {} non-relevant",
                counts.positives, counts.negatives
            ),
        ))
    }
}

/// Requires every value to lie in `[0, 1]` (`OUT_OF_RANGE`, field `{field}[i]`), as
/// `queryConfidence` requires of its scores.
pub(crate) fn check_unit_interval(values: &[f64], field: &str) -> Result<()> {
    match values.iter().position(|v| !(0.0..=1.0).contains(v)) {
        None => Ok(()),
        Some(i) => {
            let v = values.get(i).copied().unwrap_or(f64::NAN);
            Err(ScoreError::new(
                ErrorCode::OutOfRange,
                format!("{field}[{i}]"),
                format!("must be within [0, 1], got {}", crate::error::num(v)),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judged_inputs_are_validated() {
        let e = check_judged(&[1.0, 2.0], &[1.0], "scores").unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::LengthMismatch, "labels")
        );
        let e = check_judged(&[], &[], "scores").unwrap_err();
        assert_eq!(e.code, ErrorCode::EmptyInput);
        let e = check_judged(&[1.0, f64::NAN], &[1.0, 0.0], "scores").unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::NonFiniteScore, "scores[1]")
        );
        let e = check_judged(&[1.0, 2.0], &[1.0, 0.5], "scores").unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InvalidLabels, "labels[1]")
        );
        let e = check_judged(&[1.0, 2.0], &[f64::NAN, 0.0], "scores").unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InvalidLabels, "labels[0]")
        );
        let counts = check_judged(&[1.0, 2.0, 3.0], &[1.0, 0.0, 1.0], "scores").unwrap();
        assert_eq!(
            counts,
            ClassCounts {
                positives: 2,
                negatives: 1
            }
        );
        let e = require_both_classes(ClassCounts {
            positives: 3,
            negatives: 0,
        })
        .unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InvalidLabels, "labels")
        );
    }

    #[test]
    fn unit_interval_names_first_bad_index() {
        assert!(check_unit_interval(&[0.0, 0.5, 1.0], "p").is_ok());
        let e = check_unit_interval(&[0.0, 1.5, -1.0], "p").unwrap_err();
        assert_eq!((e.code, e.field.as_str()), (ErrorCode::OutOfRange, "p[1]"));
    }

    #[test]
    fn fitted_calibration_json_round_trip() {
        let platt: FittedCalibration =
            serde_json::from_str(r#"{"method":"platt","a":-2.0,"b":1.0}"#).unwrap();
        assert_eq!(
            platt,
            FittedCalibration::Platt(PlattModel { a: -2.0, b: 1.0 })
        );
        assert!(platt.validate().is_ok());
        assert!((platt.predict(0.5) - 0.5).abs() < 1e-15);

        let iso = FittedCalibration::Isotonic(IsotonicModel {
            x: vec![0.0, 1.0],
            y: vec![0.2, 0.8],
        });
        let json = serde_json::to_string(&iso).unwrap();
        assert_eq!(json, r#"{"method":"isotonic","x":[0.0,1.0],"y":[0.2,0.8]}"#);
        let back: FittedCalibration = serde_json::from_str(&json).unwrap();
        assert_eq!(back, iso);
        assert!((back.predict(0.5) - 0.5).abs() < 1e-15);

        assert!(serde_json::from_str::<FittedCalibration>(r#"{"method":"beta","a":1}"#).is_err());
        assert!(serde_json::from_str::<FittedCalibration>(
            r#"{"method":"platt","a":1,"b":0,"c":2}"#
        )
        .is_err());
    }

    #[test]
    fn fitted_calibration_validation() {
        let bad = FittedCalibration::Platt(PlattModel {
            a: f64::NAN,
            b: 0.0,
        });
        assert_eq!(
            bad.validate().unwrap_err().code,
            ErrorCode::InvalidCalibration
        );
        let bad = FittedCalibration::Isotonic(IsotonicModel {
            x: vec![],
            y: vec![],
        });
        assert_eq!(bad.validate().unwrap_err().code, ErrorCode::EmptyInput);
        let bad = FittedCalibration::Isotonic(IsotonicModel {
            x: vec![0.0, 0.0],
            y: vec![0.1, 0.2],
        });
        assert_eq!(
            bad.validate().unwrap_err().code,
            ErrorCode::InvalidCalibration
        );
    }

    mod properties {
        use super::super::*;
        use proptest::prelude::*;

        /// Scores (continuous, or small integers to create ties), labels with both classes,
        /// and probe points.
        fn judged() -> impl Strategy<Value = (Vec<f64>, Vec<f64>, Vec<f64>)> {
            (2usize..60).prop_flat_map(|n| {
                (
                    prop::collection::vec(
                        prop_oneof![-1e3f64..1e3, (-5i32..5).prop_map(f64::from)],
                        n,
                    ),
                    prop::collection::vec(prop::bool::ANY, n),
                    prop::collection::vec(-2e3f64..2e3, 1..40),
                )
                    .prop_map(|(scores, mut flags, probes)| {
                        if let Some(first) = flags.first_mut() {
                            *first = true;
                        }
                        if let Some(last) = flags.last_mut() {
                            *last = false;
                        }
                        let labels = flags.iter().map(|&f| if f { 1.0 } else { 0.0 }).collect();
                        (scores, labels, probes)
                    })
            })
        }

        proptest! {
            #[test]
            fn platt_predictions_are_probabilities((scores, labels, probes) in judged()) {
                let model = fit_platt(&scores, &labels).unwrap();
                prop_assert!(model.validate().is_ok());
                for &x in probes.iter().chain(&scores) {
                    let p = model.predict(x);
                    prop_assert!((0.0..=1.0).contains(&p), "p({x}) = {p}");
                }
            }

            #[test]
            fn isotonic_predictions_are_monotone_probabilities((scores, labels, mut probes) in judged()) {
                let model = fit_isotonic(&scores, &labels).unwrap();
                prop_assert!(model.validate().is_ok());
                probes.extend_from_slice(&scores);
                probes.extend_from_slice(&model.x);
                probes.sort_by(f64::total_cmp);
                let predictions: Vec<f64> = probes.iter().map(|&x| model.predict(x)).collect();
                for p in &predictions {
                    prop_assert!((0.0..=1.0).contains(p), "{p}");
                }
                for w in predictions.windows(2) {
                    prop_assert!(w[0] <= w[1], "{} > {}", w[0], w[1]);
                }
            }
        }
    }
}
