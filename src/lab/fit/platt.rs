//! Platt scaling: `p(x) = 1 / (1 + exp(a * x + b))`, fitted to 0/1 relevance labels.
//!
//! The fit is the Newton method with backtracking line search of Lin, Lin & Weng (2007),
//! "A note on Platt's probabilistic outputs for support vector machines" (their
//! pseudo-code, which is also LibSVM's `sigmoid_train`):
//!
//! * prior-corrected targets: `t = (N+ + 1) / (N+ + 2)` for relevant items and
//!   `t = 1 / (N- + 2)` for the others (Platt's out-of-sample regularization);
//! * start at `A = 0`, `B = log((N- + 1) / (N+ + 1))`;
//! * minimize the cross-entropy `F(A, B) = sum_i -t_i log p_i - (1 - t_i) log(1 - p_i)`,
//!   evaluated without overflow (the `fApB >= 0` branch);
//! * Newton direction on the Hessian plus `sigma = 1e-12` on its diagonal; step halved
//!   until the sufficient-decrease condition `F_new < F + 1e-4 * step * (g . d)` holds,
//!   giving up below `minstep = 1e-10`; at most 100 iterations; stop when both gradient
//!   components are below `1e-5` in absolute value.
//!
//! **Standardization.** The scores are first standardized, `z = (x - mean) / std` (the
//! population standard deviation), the algorithm runs on `z`, and its parameters
//! `(a', b')` are mapped back to the raw scale: `a = a' / std`, `b = b' - a' * mean / std`.
//! The optimum is the same (the model is affine in the score), but Newton's method and
//! the fixed stopping tolerance then behave alike for BM25 scores in the tens and
//! cosine similarities near 1. The stopping rule applies to the gradient in the
//! standardized space. When every score is equal (`std = 0`) every `z` is 0: the slope
//! stays 0 and the model is flat, the targets' mean at every score (the scores say
//! nothing of relevance); when their moments overflow (or the deviation of differing
//! subnormal scores underflows), they are taken of the scores divided by the largest
//! magnitude.
//!
//! On scikit-learn's test vector (scores `[5, -4, 1]`, labels `[1, 0, 0]`) the fit gives
//! `A = -0.20261354`, `B = 0.65236315`, LibSVM's values.

use super::{check_judged, require_both_classes, ClassCounts};
use crate::calibrate::PlattModel;
use crate::error::{ErrorCode, Result, ScoreError};
use crate::normalize::Moments;

/// Fits Platt scaling to raw `scores` and 0/1 `labels` (1 = relevant).
///
/// Errors: `LENGTH_MISMATCH` (field `labels`), `EMPTY_INPUT`, `NON_FINITE_SCORE`
/// (`scores[i]`, or `scores` if the fitted slope or intercept is no finite number: scores
/// of an extreme scale, such as subnormal ones),
/// `INVALID_LABELS` (`labels[i]` not 0/1, or `labels` when only one class is present).
/// If the line search fails or 100 iterations pass, the last iterate is returned, as in
/// LibSVM.
///
/// The model is bare: its JSON is `{"a": .., "b": ..}`, without the `method` a
/// configuration's `calibration` needs. `Calibration::from(model)` (the form the npm
/// package's `fitPlatt` returns) is the one to store as JSON and read back.
pub fn fit_platt(scores: &[f64], labels: &[f64]) -> Result<PlattModel> {
    fit_platt_detailed(scores, labels).map(|fit| fit.model)
}

/// A Platt fit with its convergence diagnostics.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PlattFit {
    /// The model on the raw score scale.
    pub model: PlattModel,
    /// Newton iterations taken.
    pub iterations: usize,
    /// Whether the gradient tolerance was met, or the fit stopped where the arithmetic
    /// lets it be (a full step at the objective's rounding floor that did not shrink the
    /// gradient), rather than the line search failing or the iteration limit being
    /// reached.
    pub converged: bool,
    /// Passes of the objective over the rows (the first, the line searches' and the
    /// steps taken at the rounding floor): with the gradient's, the fit's cost.
    pub evaluations: usize,
}

/// [`fit_platt`] with diagnostics.
pub(crate) fn fit_platt_detailed(scores: &[f64], labels: &[f64]) -> Result<PlattFit> {
    let counts = check_judged(scores, labels, "scores")?;
    require_both_classes(counts)?;
    let scaling = standardization(scores);
    let z: Vec<f64> = scores.iter().map(|&x| scaling.z(x)).collect();
    let t = targets(labels, counts);
    let newton = newton(&z, &t, counts);
    let model = unstandardized(&scaling, newton.a, newton.b);
    if !(model.a.is_finite() && model.b.is_finite()) {
        return Err(ScoreError::new(
            ErrorCode::NonFiniteScore,
            "scores",
            "the Platt fit overflowed: the scores' scale is too extreme for a finite slope and intercept",
        ));
    }
    Ok(PlattFit {
        model,
        iterations: newton.iterations,
        converged: newton.converged,
        evaluations: newton.evaluations,
    })
}

/// The standardization `z = (x / scale - mean) / sd` applied before fitting: the
/// moments z-score normalization takes ([`crate::normalize::scaled_moments`]: of the
/// scores divided by their largest magnitude when the plain ones overflow, near 1e155
/// and beyond, or the deviation of differing scores underflows; with the raw ones the
/// fit gave a flat model, `a = b = 0`). Scores all equal: each `z` is 0 (the mean
/// taken away, the deviation 1), so the slope stays 0 and the fit is the flat model of
/// the targets' mean (on the raw scores LibSVM's steps gave a slope anyway, of 1e15 for
/// scores of 0.03 whose moments said a deviation of 7e-18 before they were taken as
/// equal, or a small positive one, which a pipeline refuses).
fn standardization(scores: &[f64]) -> Moments {
    let m = crate::normalize::scaled_moments(scores);
    if m.mean.is_finite() && m.sd.is_finite() && m.sd > 0.0 {
        m
    } else if m.sd == 0.0 && m.mean.is_finite() {
        Moments {
            mean: m.mean,
            sd: 1.0,
            scale: 1.0,
        }
    } else {
        Moments::IDENTITY
    }
}

/// Parameters `(a', b')` fitted on standardized scores, mapped back to raw scores:
/// `a' * z + b' = (a' / sd / scale) * x + (b' - a' * mean / sd)`.
fn unstandardized(m: &Moments, a: f64, b: f64) -> PlattModel {
    PlattModel {
        a: a / m.sd / m.scale,
        b: b - a * m.mean / m.sd,
    }
}

/// Platt's prior-corrected targets: `(N+ + 1) / (N+ + 2)` for label 1, `1 / (N- + 2)`
/// for label 0.
fn targets(labels: &[f64], counts: ClassCounts) -> Vec<f64> {
    let hi = (counts.positives as f64 + 1.0) / (counts.positives as f64 + 2.0);
    let lo = 1.0 / (counts.negatives as f64 + 2.0);
    labels
        .iter()
        .map(|&y| if y > 0.0 { hi } else { lo })
        .collect()
}

/// Iteration limit of the Newton method.
const MAX_ITERATIONS: usize = 100;
/// Smallest line-search step before giving up.
const MIN_STEP: f64 = 1e-10;
/// Added to the Hessian diagonal to keep it positive definite.
const SIGMA: f64 = 1e-12;
/// Stopping tolerance on each gradient component.
const GRADIENT_TOLERANCE: f64 = 1e-5;
/// Sufficient-decrease constant of the line search.
const ARMIJO: f64 = 1e-4;

/// Outcome of the Newton iterations, on standardized scores.
struct Newton {
    a: f64,
    b: f64,
    iterations: usize,
    converged: bool,
    evaluations: usize,
}

/// Lin, Lin & Weng's Newton method with backtracking line search.
fn newton(z: &[f64], t: &[f64], counts: ClassCounts) -> Newton {
    let mut a = 0.0;
    let mut b = libm::log((counts.negatives as f64 + 1.0) / (counts.positives as f64 + 1.0));
    let mut f = objective(z, t, a, b);
    let mut evaluations = 1;
    // The point before a full step taken at the objective's rounding floor, and the
    // gradient's size there (below).
    let mut floor: Option<(f64, f64, f64)> = None;
    for iteration in 0..MAX_ITERATIONS {
        let d = Derivatives::at(z, t, a, b);
        if d.gradient_is_small() {
            return Newton {
                a,
                b,
                iterations: iteration,
                converged: true,
                evaluations,
            };
        }
        // A full step at the floor that did not shrink the gradient: the fit is where the
        // arithmetic lets it be (the gradient's sums carry the rounding of every row's
        // term, far above the tolerance with a million rows), and the point before that
        // step is kept.
        if let Some((before, fa, fb)) = floor.take() {
            if d.largest_gradient() >= before {
                return Newton {
                    a: fa,
                    b: fb,
                    iterations: iteration,
                    converged: true,
                    evaluations,
                };
            }
        }
        let (da, db) = d.newton_direction();
        let slope = d.g1 * da + d.g2 * db;
        // The decrease the line search asks for is below the objective's rounding: it
        // would halve the step down to MIN_STEP (34 passes over the rows) and take
        // whichever fraction the rounding favours. Near the optimum Newton's full step
        // is the right one: taken, and judged by the gradient it leaves (above), as the
        // query-confidence fit does (logistic.rs).
        if f + ARMIJO * slope == f {
            floor = Some((d.largest_gradient(), a, b));
            (a, b) = (a + da, b + db);
            f = objective(z, t, a, b);
            evaluations += 1;
            continue;
        }
        let (found, tried) = line_search(z, t, (a, b, f), (da, db), slope);
        evaluations += tried;
        match found {
            Some((na, nb, nf)) => (a, b, f) = (na, nb, nf),
            None => {
                return Newton {
                    a,
                    b,
                    iterations: iteration,
                    converged: false,
                    evaluations,
                }
            }
        }
    }
    Newton {
        a,
        b,
        iterations: MAX_ITERATIONS,
        converged: false,
        evaluations,
    }
}

/// One sample's cross-entropy `-t log p - (1 - t) log(1 - p)` with `p = 1/(1+exp(f))`.
fn cross_entropy(t: f64, f: f64) -> f64 {
    if f >= 0.0 {
        t * f + libm::log1p(libm::exp(-f))
    } else {
        (t - 1.0) * f + libm::log1p(libm::exp(f))
    }
}

/// The objective `F(a, b)`.
fn objective(z: &[f64], t: &[f64], a: f64, b: f64) -> f64 {
    z.iter()
        .zip(t)
        .map(|(&zi, &ti)| cross_entropy(ti, zi * a + b))
        .sum()
}

/// Gradient and (regularized) Hessian of `F` at `(a, b)`.
struct Derivatives {
    g1: f64,
    g2: f64,
    h11: f64,
    h22: f64,
    h21: f64,
}

impl Derivatives {
    /// Accumulates the derivatives over all samples.
    fn at(z: &[f64], t: &[f64], a: f64, b: f64) -> Self {
        let mut d = Derivatives {
            g1: 0.0,
            g2: 0.0,
            h11: SIGMA,
            h22: SIGMA,
            h21: 0.0,
        };
        for (&zi, &ti) in z.iter().zip(t) {
            let (p, q) = p_and_q(zi * a + b);
            let d2 = p * q;
            d.h11 += zi * zi * d2;
            d.h22 += d2;
            d.h21 += zi * d2;
            let d1 = ti - p;
            d.g1 += zi * d1;
            d.g2 += d1;
        }
        d
    }

    /// Whether both gradient components are below the tolerance.
    fn gradient_is_small(&self) -> bool {
        self.g1.abs() < GRADIENT_TOLERANCE && self.g2.abs() < GRADIENT_TOLERANCE
    }

    /// The larger of the gradient's two components, in size.
    fn largest_gradient(&self) -> f64 {
        crate::float::max(self.g1.abs(), self.g2.abs())
    }

    /// The Newton step `-H^-1 g`.
    fn newton_direction(&self) -> (f64, f64) {
        let det = self.h11 * self.h22 - self.h21 * self.h21;
        let da = -(self.h22 * self.g1 - self.h21 * self.g2) / det;
        let db = -(-self.h21 * self.g1 + self.h11 * self.g2) / det;
        (da, db)
    }
}

/// `p = 1/(1+exp(f))` and `q = 1 - p`, each evaluated without overflow.
fn p_and_q(f: f64) -> (f64, f64) {
    if f >= 0.0 {
        let e = libm::exp(-f);
        (e / (1.0 + e), 1.0 / (1.0 + e))
    } else {
        let e = libm::exp(f);
        (1.0 / (1.0 + e), e / (1.0 + e))
    }
}

/// Backtracking from the full Newton step: the first step `s = 1, 1/2, 1/4, ...` (down
/// to [`MIN_STEP`]) with `F(x + s d) < F(x) + 1e-4 * s * (g . d)`, as `(a, b, F)`, and
/// the objective's evaluations it took.
fn line_search(
    z: &[f64],
    t: &[f64],
    (a, b, f): (f64, f64, f64),
    (da, db): (f64, f64),
    slope: f64,
) -> (Option<(f64, f64, f64)>, usize) {
    let mut step = 1.0;
    let mut tried = 0;
    while step >= MIN_STEP {
        let (na, nb) = (a + step * da, b + step * db);
        let nf = objective(z, t, na, nb);
        tried += 1;
        if nf < f + ARMIJO * step * slope {
            return (Some((na, nb, nf)), tried);
        }
        step /= 2.0;
    }
    (None, tried)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproduces_the_libsvm_test_vector() {
        let fit = fit_platt_detailed(&[5.0, -4.0, 1.0], &[1.0, 0.0, 0.0]).unwrap();
        assert!(fit.converged);
        assert!(
            (fit.model.a - -0.20261354391187855).abs() < 1e-6,
            "{:?}",
            fit
        );
        assert!((fit.model.b - 0.6523631498001051).abs() < 1e-6, "{:?}", fit);
    }

    #[test]
    fn higher_scores_get_higher_probabilities_on_separable_trend() {
        let scores = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];
        let labels = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0];
        let fit = fit_platt_detailed(&scores, &labels).unwrap();
        assert!(fit.converged);
        assert!(fit.model.a < 0.0);
        assert!(fit.model.predict(1.0) > fit.model.predict(0.1));
    }

    /// Scores whose moments overflow (or whose deviation underflows) are fitted as the
    /// same scores at a sane scale: the same probabilities at the same places (they gave
    /// a flat model, `a = b = 0`, a probability of 1/2 everywhere).
    #[test]
    fn extreme_scales_fit_as_their_scaled_copies() {
        let base = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];
        let labels = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0];
        let reference = fit_platt_detailed(&base, &labels).unwrap().model;
        for factor in [1e155, 1e300, -1e300, 1e-300] {
            let scores: Vec<f64> = base.iter().map(|&x| x * factor).collect();
            let fit = fit_platt_detailed(&scores, &labels).unwrap();
            assert!(fit.converged, "{factor:e}: {fit:?}");
            assert!(fit.model.a != 0.0, "{factor:e}: a flat model {fit:?}");
            for (&x, &s) in base.iter().zip(&scores) {
                let (want, got) = (reference.predict(x), fit.model.predict(s));
                assert!(
                    (want - got).abs() < 1e-6,
                    "{factor:e} at {x}: {got} against {want}"
                );
            }
        }
        // Subnormal scores: the slope they need (about 1e320) is no finite number.
        let tiny: Vec<f64> = base.iter().map(|&x| x * 1e-320).collect();
        let e = fit_platt_detailed(&tiny, &labels).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::NonFiniteScore, "scores")
        );
    }

    #[test]
    fn constant_scores_give_a_flat_model() {
        let fit = fit_platt_detailed(&[2.0, 2.0, 2.0, 2.0], &[1.0, 0.0, 0.0, 1.0]).unwrap();
        assert!(fit.converged);
        // Symmetric classes: the fitted probability at the common score is 1/2.
        assert!((fit.model.predict(2.0) - 0.5).abs() < 1e-6, "{:?}", fit);
        // Scores whose sum does not round back to them (ten of 0.03 have a mean a unit
        // off, which made a deviation of 7e-18 and a slope of -5e15), and unbalanced
        // labels (a slope of 0.028 > 0 on the raw scores, refused by a pipeline): flat,
        // at the targets' mean, (3 * 4/5 + 7 * 1/9) / 10.
        let labels = [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        let mean = (3.0 * 0.8 + 7.0 / 9.0) / 10.0;
        for x in [0.03, 1.0 / 61.0, 0.1, 2.0, -7.5, 1e300] {
            let fit = fit_platt_detailed(&[x; 10], &labels).unwrap();
            assert_eq!(fit.model.a, 0.0, "{x}: {fit:?}");
            assert!(fit.converged, "{x}: {fit:?}");
            assert!((fit.model.predict(x) - mean).abs() < 1e-6, "{x}: {fit:?}");
            assert!(fit.model.validate().is_ok());
        }
    }

    #[test]
    fn perfectly_separable_data_stays_finite() {
        let scores: Vec<f64> = (0..50).map(f64::from).collect();
        let labels: Vec<f64> = (0..50).map(|i| if i >= 25 { 1.0 } else { 0.0 }).collect();
        let m = fit_platt(&scores, &labels).unwrap();
        assert!(m.validate().is_ok());
        assert!(m.predict(49.0) > 0.9 && m.predict(0.0) < 0.1, "{m:?}");
        // The README's figures: a slope of -0.27, 0.0015 at 0, 0.9985 at 49.
        assert!((m.a - -0.265_178).abs() < 1e-5, "{m:?}");
        assert!((m.predict(0.0) - 0.001_506).abs() < 1e-5, "{m:?}");
        assert!((m.predict(49.0) - 0.998_494).abs() < 1e-5, "{m:?}");
    }

    /// Scores shaped like RRF's (0.005 to 0.035) with labels drawn from a logistic
    /// model of them (an LCG's uniforms), `n` rows.
    fn rrf_like(n: usize) -> (Vec<f64>, Vec<f64>) {
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut uniform = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut scores = Vec::with_capacity(n);
        let mut labels = Vec::with_capacity(n);
        for _ in 0..n {
            let x = 0.005 + 0.03 * uniform();
            let p = 1.0 / (1.0 + libm::exp(-(120.0 * x - 4.0)));
            scores.push(x);
            labels.push(if uniform() < p { 1.0 } else { 0.0 });
        }
        (scores, labels)
    }

    /// The gradient of the objective at `m` on the raw scores, per row, summed with
    /// compensation (Kahan): what an exact optimum makes 0.
    fn gradient_per_row(scores: &[f64], labels: &[f64], m: PlattModel) -> (f64, f64) {
        let positives = labels.iter().filter(|&&y| y > 0.0).count();
        let counts = ClassCounts {
            positives,
            negatives: labels.len() - positives,
        };
        let t = targets(labels, counts);
        let (mut ga, mut ca, mut gb, mut cb) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
        let add = |sum: &mut f64, c: &mut f64, v: f64| {
            let y = v - *c;
            let s = *sum + y;
            *c = (s - *sum) - y;
            *sum = s;
        };
        for (&x, &ti) in scores.iter().zip(&t) {
            let (p, _) = p_and_q(m.a * x + m.b);
            add(&mut ga, &mut ca, x * (ti - p));
            add(&mut gb, &mut cb, ti - p);
        }
        let n = scores.len() as f64;
        (ga / n, gb / n)
    }

    #[test]
    fn a_million_rows_stop_at_the_rounding_floor_not_in_the_line_search() {
        // With a million rows the decrease Newton's step promises near the optimum is
        // below the summed objective's rounding, and the gradient's sums never reach
        // 1e-5: the line search used to halve its step down to 1e-10 at each iteration
        // (123 passes over the rows, 3-4.5 s through the package) and end unconverged.
        for n in [10_000, 100_000, 1_000_000] {
            let (scores, labels) = rrf_like(n);
            let fit = fit_platt_detailed(&scores, &labels).unwrap();
            assert!(fit.converged, "{n}: {fit:?}");
            assert!(fit.evaluations <= 2 * fit.iterations + 2, "{n}: {fit:?}");
            assert!(fit.model.validate().is_ok(), "{n}: {fit:?}");
            // The optimum: the gradient, summed exactly enough, is nothing per row (the
            // scores span 0.03, so a slope's gradient per row is small by that too).
            let (ga, gb) = gradient_per_row(&scores, &labels, fit.model);
            assert!(
                ga.abs() < 1e-11 && gb.abs() < 1e-9,
                "{n}: {ga} {gb} {fit:?}"
            );
            // And near the model the labels were drawn from (slope -120 in Platt's sign).
            assert!((fit.model.a - -120.0).abs() < 120.0 * 0.2, "{n}: {fit:?}");
        }
    }

    #[test]
    fn errors() {
        let e = fit_platt(&[1.0, 2.0], &[1.0]).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::LengthMismatch, "labels")
        );
        assert_eq!(fit_platt(&[], &[]).unwrap_err().code, ErrorCode::EmptyInput);
        let e = fit_platt(&[1.0, f64::INFINITY], &[1.0, 0.0]).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::NonFiniteScore, "scores[1]")
        );
        let e = fit_platt(&[1.0, 2.0], &[1.0, 2.0]).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InvalidLabels, "labels[1]")
        );
        let e = fit_platt(&[1.0, 2.0], &[1.0, 1.0]).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InvalidLabels, "labels")
        );
        let e = fit_platt(&[1e308, -1e308, 1e308], &[1.0, 0.0, 0.0]);
        assert!(e.is_ok() || e.unwrap_err().code == ErrorCode::NonFiniteScore);
    }
}
