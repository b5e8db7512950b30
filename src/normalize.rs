//! Stage 4: normalization of a result set's scores.
//!
//! * `max`: `s / max(maxScore, 0.001)` (seed 003's floor keeps a weak set weak);
//!   scores must be >= 0.
//! * `min_max`: `(s - min) / (max - min)`; when every score is equal, every result
//!   gets 1.0.
//! * `z_score`: `z = (s - mean) / sd` (population sd), mapped into [0, 1] by the
//!   standard normal CDF `Phi(z) = (1 + erf(z / sqrt 2)) / 2`; when `sd = 0` (including a
//!   single score) every result gets 0.5.
//! * `softmax`: `exp((s - max) / T) / sum exp((s_j - max) / T)` with temperature
//!   `T > 0` (default 1); the max shift changes nothing mathematically and avoids
//!   overflow.
//!
//! Every method preserves order (ties stay ties). `min_max`, `max` (when the max is at
//! least the floor) and `z_score`-free compositions are idempotent where noted in tests.

use crate::error::{all_finite, ErrorCode, Result, ScoreError};
use crate::float;
use serde::{Deserialize, Serialize};

/// The floor under the maximum in `max` normalization.
pub const MAX_FLOOR: f64 = 0.001;

/// Normalization methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum NormalizeMethod {
    /// Leave scores unchanged.
    #[default]
    None,
    /// Divide by the maximum (floored at 0.001).
    Max,
    /// Min-max to [0, 1].
    MinMax,
    /// Standard score through the normal CDF.
    ZScore,
    /// Softmax with a temperature.
    Softmax,
}

impl NormalizeMethod {
    /// Parses a method name (`none`, `max`, `min_max`, `z_score`, `softmax`).
    pub fn parse(name: &str) -> Result<Self> {
        match name {
            "none" => Ok(NormalizeMethod::None),
            "max" => Ok(NormalizeMethod::Max),
            "min_max" => Ok(NormalizeMethod::MinMax),
            "z_score" => Ok(NormalizeMethod::ZScore),
            "softmax" => Ok(NormalizeMethod::Softmax),
            other => Err(ScoreError::new(
                ErrorCode::UnknownMethod,
                "method",
                format!("unknown normalization {}; expected one of none, max, min_max, z_score, softmax", crate::error::name(other)),
            )),
        }
    }
}

/// What a normalization read from its pool: the numbers that turn any one of the pool's
/// scores into its normalized value ([`PoolScale::apply`]). A pipeline that explains
/// gives them (`PipelineOutput::pool`), so each result's `normalized` can be recomputed
/// from its `afterRerank`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "method", rename_all = "snake_case")]
pub enum PoolScale {
    /// Scores unchanged.
    None,
    /// `s / max`, `max` the pool's largest score floored at [`MAX_FLOOR`].
    Max {
        /// The divisor.
        max: f64,
    },
    /// `(s - min) / (max - min)`; 1 when `max == min`; when `max - min` overflows (ends
    /// near -/+ `f64::MAX`), measured on halved values:
    /// `(s / 2 - min / 2) / (max / 2 - min / 2)`.
    MinMax {
        /// The pool's smallest score.
        min: f64,
        /// Its largest.
        max: f64,
    },
    /// `Phi((s / scale - mean) / sd)`; 0.5 when `sd == 0`.
    ZScore {
        /// Mean of the scores divided by `scale`.
        mean: f64,
        /// Their population standard deviation.
        sd: f64,
        /// 1, or the largest magnitude where the plain moments overflow or underflow
        /// (see `scaled_moments`).
        scale: f64,
    },
    /// `exp((s - max) / temperature) / sum`.
    Softmax {
        /// The pool's largest score.
        max: f64,
        /// `sum_j exp((s_j - max) / temperature)`, in the pool's order.
        sum: f64,
        /// The temperature.
        temperature: f64,
    },
}

impl PoolScale {
    /// What `method` reads from `scores` (not empty, finite; `temperature` checked).
    pub fn of(scores: &[f64], method: NormalizeMethod, temperature: f64) -> Self {
        let max = || scores.iter().copied().fold(f64::NEG_INFINITY, float::max);
        match method {
            NormalizeMethod::None => PoolScale::None,
            NormalizeMethod::Max => PoolScale::Max {
                max: scores.iter().copied().fold(MAX_FLOOR, float::max),
            },
            NormalizeMethod::MinMax => PoolScale::MinMax {
                min: scores.iter().copied().fold(f64::INFINITY, float::min),
                max: max(),
            },
            NormalizeMethod::ZScore => {
                let m = scaled_moments(scores);
                PoolScale::ZScore {
                    mean: m.mean,
                    sd: m.sd,
                    scale: m.scale,
                }
            }
            NormalizeMethod::Softmax => {
                let max = max();
                PoolScale::Softmax {
                    max,
                    sum: softmax_terms(scores, max, temperature).sum(),
                    temperature,
                }
            }
        }
    }

    /// The normalized value of `s`, one of the scores the scale was read from.
    pub fn apply(&self, s: f64) -> f64 {
        match *self {
            PoolScale::None => s,
            PoolScale::Max { max } => s / max,
            PoolScale::MinMax { min, max } => {
                let range = max - min;
                if range == f64::INFINITY {
                    // `max - min` overflows (finite scores near -/+ f64::MAX): found by
                    // fuzzing, NaN otherwise.
                    halved_position(s, min, max)
                } else if range > 0.0 {
                    (s - min) / range
                } else {
                    1.0
                }
            }
            PoolScale::ZScore { mean, sd, scale } => {
                if sd > 0.0 {
                    normal_cdf(Moments { mean, sd, scale }.z(s))
                } else {
                    0.5
                }
            }
            PoolScale::Softmax {
                max,
                sum,
                temperature,
            } => softmax_term(s, max, temperature) / sum,
        }
    }

    /// Each of `scores` normalized as `method` does, with the scale read: [`apply`]'s
    /// values, but for two methods computed without it, as fast as before the scale was
    /// kept: `none` copies, and `softmax` computes each term once (for the sum, then
    /// divided by it; [`apply`] computes it again).
    ///
    /// [`apply`]: PoolScale::apply
    fn each(scores: &[f64], method: NormalizeMethod, temperature: f64) -> (Vec<f64>, Self) {
        match method {
            NormalizeMethod::None => (scores.to_vec(), PoolScale::None),
            NormalizeMethod::Softmax => {
                let max = scores.iter().copied().fold(f64::NEG_INFINITY, float::max);
                let terms: Vec<f64> = softmax_terms(scores, max, temperature).collect();
                let sum = terms.iter().sum();
                let p = PoolScale::Softmax {
                    max,
                    sum,
                    temperature,
                };
                (terms.into_iter().map(|t| t / sum).collect(), p)
            }
            _ => {
                let p = PoolScale::of(scores, method, temperature);
                (scores.iter().map(|&s| p.apply(s)).collect(), p)
            }
        }
    }
}

/// Softmax's term of `s`: `exp((s - max) / temperature)`.
fn softmax_term(s: f64, max: f64, temperature: f64) -> f64 {
    libm::exp((s - max) / temperature)
}

/// Softmax's terms of `scores`, in their order (their sum is the divisor).
fn softmax_terms(scores: &[f64], max: f64, temperature: f64) -> impl Iterator<Item = f64> + '_ {
    scores
        .iter()
        .map(move |&s| softmax_term(s, max, temperature))
}

/// `s / max(max(scores), 0.001)`.
pub fn max_norm(scores: &[f64]) -> Vec<f64> {
    PoolScale::each(scores, NormalizeMethod::Max, 1.0).0
}

/// `(s - min) / (max - min)`, all-equal -> 1.0.
pub fn min_max(scores: &[f64]) -> Vec<f64> {
    PoolScale::each(scores, NormalizeMethod::MinMax, 1.0).0
}

/// Where `x` lies between `lo` and `hi` (0 at `lo`, 1 at `hi`), measured on halved values,
/// which cannot overflow: for a span `hi - lo` beyond `f64::MAX` (finite ends near
/// -/+ `f64::MAX`), where the plain ratio is NaN or 0.
pub(crate) fn halved_position(x: f64, lo: f64, hi: f64) -> f64 {
    (x / 2.0 - lo / 2.0) / (hi / 2.0 - lo / 2.0)
}

/// Standard normal CDF.
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * (1.0 + libm::erf(z / std::f64::consts::SQRT_2))
}

/// `Phi((s - mean) / sd)`, sd = 0 -> 0.5.
pub fn z_score(scores: &[f64]) -> Vec<f64> {
    PoolScale::each(scores, NormalizeMethod::ZScore, 1.0).0
}

/// Mean and population standard deviation of `scores / scale`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Moments {
    pub mean: f64,
    pub sd: f64,
    /// 1 (the scores as they are, bit for bit), or their largest magnitude when the plain
    /// moments overflow (scores near f64::MAX) or the deviation of differing scores
    /// underflows to 0 (subnormal spreads): a standardized score is scale-free, so it is
    /// computed on the scores divided by it (found by fuzzing: NaN, or 0.5 for distinct
    /// scores, otherwise). Platt's fit standardizes with the same (lab::fit::platt).
    pub scale: f64,
}

impl Moments {
    /// The map that changes nothing (`z = x`).
    pub const IDENTITY: Moments = Moments {
        mean: 0.0,
        sd: 1.0,
        scale: 1.0,
    };

    /// The standardized score `(x / scale - mean) / sd`.
    pub fn z(&self, x: f64) -> f64 {
        (x / self.scale - self.mean) / self.sd
    }
}

/// The moments a standardization uses ([`Moments`]).
pub(crate) fn scaled_moments(scores: &[f64]) -> Moments {
    let first = scores.first().copied().unwrap_or(0.0);
    // Equal scores have sd 0 whatever their sum's rounding says: ten scores of 0.03 sum to
    // a mean a unit off 0.03, which left an sd of 7e-18 (every score then a z of -1).
    if scores.iter().all(|&s| s == first) {
        return Moments {
            mean: first,
            sd: 0.0,
            scale: 1.0,
        };
    }
    let (mean, sd) = moments(scores, 1.0);
    let degenerate = !(mean.is_finite() && sd.is_finite()) || sd == 0.0;
    let largest = scores.iter().fold(0.0f64, |m, s| float::max(m, s.abs()));
    if degenerate && largest > 0.0 && largest.is_finite() {
        let (mean, sd) = moments(scores, largest);
        return Moments {
            mean,
            sd,
            scale: largest,
        };
    }
    Moments {
        mean,
        sd,
        scale: 1.0,
    }
}

/// Mean and population standard deviation of `scores / scale`.
fn moments(scores: &[f64], scale: f64) -> (f64, f64) {
    let n = scores.len() as f64;
    let mean = scores.iter().map(|s| s / scale).sum::<f64>() / n;
    let var = scores
        .iter()
        .map(|s| (s / scale - mean) * (s / scale - mean))
        .sum::<f64>()
        / n;
    (mean, libm::sqrt(var))
}

/// `exp((s - max) / T) / sum_j exp((s_j - max) / T)`.
pub fn softmax(scores: &[f64], temperature: f64) -> Vec<f64> {
    PoolScale::each(scores, NormalizeMethod::Softmax, temperature).0
}

/// Validates a softmax temperature: finite and > 0.
pub fn validate_temperature(t: f64, field: &str) -> Result<()> {
    if t.is_finite() && t > 0.0 {
        Ok(())
    } else {
        Err(ScoreError::new(
            ErrorCode::InvalidConfig,
            field,
            format!(
                "temperature must be a finite number > 0, got {}",
                crate::error::num(t)
            ),
        ))
    }
}

/// Normalizes `scores` (input order kept). Errors: `INVALID_CONFIG` (a temperature that
/// is not a finite number > 0, whatever the method, before the scores are read, as a
/// `Pipeline`'s configuration refuses it), `NON_FINITE_SCORE`, `NEGATIVE_VALUE` (for
/// `max`).
pub fn normalize(scores: &[f64], method: NormalizeMethod, temperature: f64) -> Result<Vec<f64>> {
    checked(scores, method, temperature)?;
    Ok(PoolScale::each(scores, method, temperature).0)
}

/// [`normalize`], with the scale it read from the scores (`None` for no scores): every
/// value through [`PoolScale::apply`], one loop for every method (what a pipeline's pool
/// of `topK` scores takes, in the fewest bytes of calibrank_pipeline.wasm; [`normalize`]
/// computes the same bits faster for `none` and `softmax`, a property test checks it).
pub fn normalize_scaled(
    scores: &[f64],
    method: NormalizeMethod,
    temperature: f64,
) -> Result<(Vec<f64>, Option<PoolScale>)> {
    checked(scores, method, temperature)?;
    if scores.is_empty() {
        return Ok((Vec::new(), None));
    }
    let p = PoolScale::of(scores, method, temperature);
    Ok((scores.iter().map(|&s| p.apply(s)).collect(), Some(p)))
}

/// Why `max` refuses a score below 0 (a pipeline says it of a cross-encoder's score kept
/// raw too).
pub(crate) const NEGATIVE_FOR_MAX: &str =
    "max normalization needs scores >= 0; use min_max for signed scores";

/// [`normalize`]'s checks of its input: the temperature, the scores finite, `max`'s
/// scores >= 0.
fn checked(scores: &[f64], method: NormalizeMethod, temperature: f64) -> Result<()> {
    validate_temperature(temperature, "temperature")?;
    all_finite(scores, "scores")?;
    if method == NormalizeMethod::Max {
        if let Some(i) = scores.iter().position(|&s| s < 0.0) {
            return Err(ScoreError::new(
                ErrorCode::NegativeValue,
                format!("scores[{i}]"),
                NEGATIVE_FOR_MAX,
            ));
        }
    }
    Ok(())
}

/// Sequential sum from +0.0, in the given order (numba's `sum`). `Sum` for f64 starts at
/// -0.0, which an empty sum would show (`queryConfidence([])`, a query the run lacks).
pub(crate) fn total(xs: impl IntoIterator<Item = f64>) -> f64 {
    xs.into_iter().fold(0.0, |acc, x| acc + x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_with_floor() {
        assert_eq!(max_norm(&[2.0, 1.0, 0.5]), vec![1.0, 0.5, 0.25]);
        // A weak set stays weak: max 0.0005 < floor 0.001.
        assert_eq!(max_norm(&[0.0005, 0.00025]), vec![0.5, 0.25]);
        assert_eq!(
            normalize(&[-1.0], NormalizeMethod::Max, 1.0)
                .unwrap_err()
                .code,
            ErrorCode::NegativeValue
        );
    }

    #[test]
    fn min_max_and_equal_scores() {
        assert_eq!(min_max(&[3.0, 1.0, 2.0]), vec![1.0, 0.0, 0.5]);
        assert_eq!(min_max(&[0.05, 0.05, 0.05]), vec![1.0, 1.0, 1.0]);
        assert_eq!(min_max(&[7.0]), vec![1.0]);
    }

    #[test]
    fn z_score_maps_through_normal_cdf() {
        let z = z_score(&[1.0, 3.0]);
        // mean 2, sd 1: Phi(-1), Phi(1)
        assert!((z[0] - 0.158_655_253_931_457_05).abs() < 1e-15);
        assert!((z[1] - 0.841_344_746_068_542_9).abs() < 1e-15);
        assert_eq!(z_score(&[4.0]), vec![0.5]);
        assert_eq!(z_score(&[4.0, 4.0]), vec![0.5, 0.5]);
        // Equal scores whose mean does not round back to them (ten of 0.03: a mean a unit
        // off, an sd of 7e-18, every score Phi(-1) = 0.1587 before).
        for x in [0.03, 1.0 / 61.0, 0.1] {
            assert_eq!(z_score(&[x; 10]), vec![0.5; 10], "{x}");
        }
        // Where Phi saturates (the figure the final order's tie-break cites: "z-scores
        // above about 8.2 all normalize to 1"): 1 from 8.25 on, below 1 at 8.2.
        assert_eq!(normal_cdf(8.25), 1.0);
        assert!(normal_cdf(8.2) < 1.0);
    }

    #[test]
    fn softmax_sums_to_one_and_temperature_flattens() {
        let s = softmax(&[1.0, 2.0, 3.0], 1.0);
        assert!((s.iter().sum::<f64>() - 1.0).abs() < 1e-15);
        let e = std::f64::consts::E;
        assert!((s[2] - e * e / (1.0 + e + e * e)).abs() < 1e-15);
        let hot = softmax(&[1.0, 2.0, 3.0], 100.0);
        assert!(hot[2] - hot[0] < s[2] - s[0]);
        let big = softmax(&[1000.0, 999.0], 1.0);
        assert!(big.iter().all(|v| v.is_finite()));
        assert_eq!(
            normalize(&[1.0], NormalizeMethod::Softmax, 0.0)
                .unwrap_err()
                .code,
            ErrorCode::InvalidConfig
        );
    }

    #[test]
    fn empty_and_non_finite() {
        assert!(normalize(&[], NormalizeMethod::ZScore, 1.0)
            .unwrap()
            .is_empty());
        let e = normalize(&[1.0, f64::INFINITY], NormalizeMethod::MinMax, 1.0).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::NonFiniteScore, "scores[1]")
        );
        assert_eq!(
            NormalizeMethod::parse("minmax").unwrap_err().code,
            ErrorCode::UnknownMethod
        );
        assert_eq!(
            NormalizeMethod::parse("z_score").unwrap(),
            NormalizeMethod::ZScore
        );
    }

    #[test]
    fn idempotent_where_expected() {
        let x = [0.3, 0.9, 0.1, 0.5];
        let once = min_max(&x);
        assert_eq!(min_max(&once), once);
        let m = max_norm(&x);
        assert_eq!(max_norm(&m), m);
    }
}
