//! The sigmoid: `confidence = 1 / (1 + exp(-steepness * (raw - threshold)))`.

use crate::error::{ErrorCode, Result, ScoreError};
use serde::{Deserialize, Serialize};

/// Sigmoid parameters.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Sigmoid {
    /// Raw score mapped to 0.5 (default 0.035).
    pub threshold: f64,
    /// Steepness (> 0, default 150).
    pub steepness: f64,
}

impl Default for Sigmoid {
    fn default() -> Self {
        Sigmoid {
            threshold: 0.035,
            steepness: 150.0,
        }
    }
}

impl Sigmoid {
    /// Threshold finite, steepness finite and > 0.
    pub fn validate(&self) -> Result<()> {
        super::finite_parameter(self.threshold, "threshold")?;
        if !(self.steepness.is_finite() && self.steepness > 0.0) {
            return Err(ScoreError::new(
                ErrorCode::InvalidCalibration,
                "steepness",
                format!(
                    "must be a finite number > 0, got {}",
                    crate::error::num(self.steepness)
                ),
            ));
        }
        Ok(())
    }

    /// The calibrated confidence of one raw score.
    pub fn apply(&self, raw: f64) -> f64 {
        logistic(self.steepness * (raw - self.threshold))
    }
}

/// The logistic function `1 / (1 + exp(-x))`, in that one form for every `x` so that it
/// is monotone bit for bit: `exp` is monotone, and so are the rounded `1 +` and `1 /`.
/// (The form `e / (1 + e)` usual for `x < 0` rounds numerator and denominator apart and
/// can step back by an ulp between neighbouring inputs, which fuzzing found.) For
/// `x < -709.78`, `exp(-x)` overflows and the result is 0 instead of a subnormal; it is
/// never NaN.
pub fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + libm::exp(-x))
}

/// Calibrates every score (input order kept). Errors on non-finite scores or
/// invalid parameters.
pub fn calibrate(scores: &[f64], sigmoid: &Sigmoid) -> Result<Vec<f64>> {
    sigmoid.validate()?;
    crate::error::all_finite(scores, "scores")?;
    Ok(scores.iter().map(|&s| sigmoid.apply(s)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threshold_maps_to_one_half() {
        let s = Sigmoid::default();
        assert_eq!(s.apply(0.035), 0.5);
        let c = calibrate(&[0.05, 0.03, 0.01], &s).unwrap();
        assert!((c[1] - 0.320_821_300_824_607_3).abs() < 1e-15);
        assert!((c[0] - 0.904_650_535_100_890_6).abs() < 1e-15);
    }

    #[test]
    fn seed_tests() {
        let s = Sigmoid::default();
        // topN = 1: one result, its calibrated score below 1. By the formula:
        // 1 / (1 + e^(-150 x (0.0391 - 0.035))) = 1 / (1 + e^-0.615) = 0.649081
        // (Python's math.exp).
        let single = calibrate(&[0.0391], &s).unwrap();
        assert_eq!(single.len(), 1);
        assert!(
            (single[0] - 0.649_080_524_244_573_3).abs() < 1e-12,
            "{}",
            single[0]
        );
        assert!(calibrate(&[], &s).unwrap().is_empty());
        let same = calibrate(&[0.05, 0.05, 0.05], &s).unwrap();
        assert!(same.iter().all(|&x| x == same[0]));
        let ordered = calibrate(&[0.05, 0.03, 0.01], &s).unwrap();
        assert!(ordered[0] > ordered[1] && ordered[1] > ordered[2]);
    }

    #[test]
    fn two_list_ceiling_is_a_miss_under_defaults() {
        // The best fused score two lists can give (rank 1 in both, k = 60): 2/61 =
        // 0.0328, through the default sigmoid 1 / (1 + e^(-150 x (2/61 - 0.035))) =
        // 0.417762 (Python's math.exp), under the degraded floor.
        let a = ["a"];
        let lists = [
            crate::fuse::RankedList {
                ids: &a[..],
                weight: 1.0,
            },
            crate::fuse::RankedList {
                ids: &a[..],
                weight: 1.0,
            },
        ];
        let best = crate::fuse::rrf(&lists, crate::fuse::DEFAULT_K)
            .unwrap()
            .items[0]
            .score;
        assert!((best - 0.0328).abs() < 5e-5, "{best}");
        let c = calibrate(&[best], &Sigmoid::default()).unwrap()[0];
        assert!((c - 0.417_762_047_031_427_7).abs() < 1e-12, "{c}");
        assert!(c < 0.65);
    }

    #[test]
    fn extremes_do_not_overflow() {
        let s = Sigmoid {
            threshold: 0.0,
            steepness: 1e300,
        };
        assert_eq!(s.apply(1.0), 1.0);
        assert_eq!(s.apply(-1.0), 0.0);
        assert_eq!(logistic(-1000.0), 0.0);
        assert_eq!(logistic(1000.0), 1.0);
    }

    #[test]
    fn validation() {
        let e = calibrate(
            &[0.1],
            &Sigmoid {
                threshold: 0.035,
                steepness: 0.0,
            },
        )
        .unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InvalidCalibration, "steepness")
        );
        let e = calibrate(
            &[0.1],
            &Sigmoid {
                threshold: f64::NAN,
                steepness: 1.0,
            },
        )
        .unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str(), e.message.as_str()),
            (
                ErrorCode::InvalidCalibration,
                "threshold",
                "must be a finite number, got NaN"
            )
        );
        assert_eq!(
            calibrate(&[f64::NAN], &Sigmoid::default())
                .unwrap_err()
                .code,
            ErrorCode::NonFiniteScore
        );
    }

    #[test]
    fn logistic_is_monotone_bit_for_bit() {
        // Runs of adjacent doubles around points where the old two-branch form stepped
        // back, around 0, in both tails and at the overflow edge of exp.
        for start in [
            -745.2, -709.9, -40.0, -3.2, -0.7, -1e-300, 0.0, 1e-300, 0.69, 2.5, 36.8, 709.0,
        ] {
            let mut x: f64 = start;
            let mut prev = logistic(x);
            for _ in 0..20_000 {
                x = f64::from_bits(if x >= 0.0 {
                    x.to_bits() + 1
                } else {
                    x.to_bits() - 1
                });
                let y = logistic(x);
                assert!(prev <= y, "logistic steps back at {x:e}: {prev:e} > {y:e}");
                assert!((0.0..=1.0).contains(&y));
                prev = y;
            }
        }
        // A coarse sweep over the whole range.
        let mut prev = 0.0;
        for i in -800_000..=800_000 {
            let y = logistic(f64::from(i) * 1e-3);
            assert!(prev <= y, "at {}", f64::from(i) * 1e-3);
            prev = y;
        }
        assert_eq!(logistic(-1000.0), 0.0);
        assert_eq!(logistic(1000.0), 1.0);
        assert_eq!(logistic(0.0), 0.5);
    }
}
