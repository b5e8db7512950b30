//! Platt scaling applied: `p(x) = 1 / (1 + exp(a * x + b))`. The model is fitted to
//! relevance judgements by the lab's `fit_platt`.

use crate::error::Result;
use serde::{Deserialize, Serialize};

/// A fitted Platt sigmoid: `predict(x) = 1 / (1 + exp(a * x + b))` (the sign convention
/// of Platt, LibSVM and scikit-learn: `a < 0` when higher scores are more relevant; a
/// pipeline refuses `a > 0`, which would rank its results upside down).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlattModel {
    /// Slope on the raw score.
    pub a: f64,
    /// Intercept.
    pub b: f64,
}

impl PlattModel {
    /// The calibrated probability of raw score `x`, in `[0, 1]` (NaN for a NaN score).
    pub fn predict(&self, x: f64) -> f64 {
        probability(self.a * x + self.b)
    }

    /// Checks that `a` and `b` are finite (`INVALID_CALIBRATION`, field `a` or `b`).
    pub fn validate(&self) -> Result<()> {
        super::finite_parameter(self.a, "a")?;
        super::finite_parameter(self.b, "b")
    }
}

/// `1 / (1 + exp(f))`: the logistic of `-f`, monotone bit for bit (see
/// [`super::logistic`]).
fn probability(f: f64) -> f64 {
    super::logistic(-f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predict_handles_extremes() {
        let m = PlattModel { a: -1.0, b: 0.0 };
        assert_eq!(m.predict(f64::INFINITY), 1.0);
        assert_eq!(m.predict(f64::NEG_INFINITY), 0.0);
        assert_eq!(m.predict(1e308), 1.0);
        assert!(m.predict(f64::NAN).is_nan());
        let fault = |m: PlattModel| m.validate().map_err(|e| (e.code, e.field, e.message));
        assert_eq!(
            fault(PlattModel {
                a: f64::INFINITY,
                b: 0.0
            }),
            Err((
                crate::error::ErrorCode::InvalidCalibration,
                "a".to_string(),
                "must be a finite number, got Infinity".to_string()
            ))
        );
        assert_eq!(
            fault(PlattModel {
                a: 0.0,
                b: f64::NAN
            }),
            Err((
                crate::error::ErrorCode::InvalidCalibration,
                "b".to_string(),
                "must be a finite number, got NaN".to_string()
            ))
        );
    }
}
