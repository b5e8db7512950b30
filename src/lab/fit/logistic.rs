//! The logistic-regression solver of [`fit_query_confidence`](super::fit_query_confidence):
//! the penalized log-likelihood minimized by Newton's method with step halving (see
//! [`super::query`]'s "Fit"), the linear solve of each step, and the measures of the
//! fitted probabilities ([`mean_log_loss`], [`auroc`]).

use crate::confidence::model::logistic;
use crate::float;
use crate::sort::StableSort;

pub(super) struct Fit {
    pub(super) beta: Vec<f64>,
    pub(super) iterations: u32,
    pub(super) converged: bool,
}

/// Penalized negative log-likelihood of `beta` (intercept first, not penalized).
fn objective(z: &[Vec<f64>], y: &[f64], beta: &[f64], l2: f64) -> f64 {
    let mut f = 0.0;
    for (x, &t) in z.iter().zip(y) {
        let eta = linear(beta, x);
        // -[t ln p + (1 - t) ln(1 - p)] = ln(1 + e^eta) - t * eta, computed stably.
        let softplus = if eta > 0.0 {
            eta + libm::log1p(libm::exp(-eta))
        } else {
            libm::log1p(libm::exp(eta))
        };
        f += softplus - t * eta;
    }
    f + 0.5 * l2 * beta.iter().skip(1).map(|b| b * b).sum::<f64>()
}

fn linear(beta: &[f64], x: &[f64]) -> f64 {
    beta.first().copied().unwrap_or(0.0)
        + beta.iter().skip(1).zip(x).map(|(b, v)| b * v).sum::<f64>()
}

pub(super) fn newton(z: &[Vec<f64>], y: &[f64], l2: f64, max_iterations: u32) -> Fit {
    let d = z.first().map_or(0, Vec::len) + 1;
    let mut beta = vec![0.0; d];
    let mut f = objective(z, y, &beta, l2);
    let mut iterations = 0;
    let mut converged = false;
    // Before a full Newton step taken at the objective's rounding floor (below): the
    // gradient's largest component and the coefficients.
    let mut floor: Option<(f64, Vec<f64>)> = None;
    // The gradient is looked at before the budget: a fit whose last step reached the
    // optimum says so whatever the budget (with `maxIterations` 8 it said `converged:
    // false` where 100 gave the same 8 steps and `true`).
    loop {
        let mut g = vec![0.0; d];
        let mut h = vec![vec![0.0; d]; d];
        for (x, &t) in z.iter().zip(y) {
            let p = logistic(linear(&beta, x));
            let w = p * (1.0 - p);
            let xi = |i: usize| {
                if i == 0 {
                    1.0
                } else {
                    x.get(i - 1).copied().unwrap_or(0.0)
                }
            };
            for i in 0..d {
                if let Some(gi) = g.get_mut(i) {
                    *gi += (p - t) * xi(i);
                }
                if let Some(row) = h.get_mut(i) {
                    for (j, hij) in row.iter_mut().enumerate() {
                        *hij += w * xi(i) * xi(j);
                    }
                }
            }
        }
        for i in 1..d {
            if let Some(gi) = g.get_mut(i) {
                *gi += l2 * beta.get(i).copied().unwrap_or(0.0);
            }
            if let Some(hii) = h.get_mut(i).and_then(|r| r.get_mut(i)) {
                *hii += l2;
            }
        }
        let largest = g.iter().fold(0.0f64, |m, v| float::max(m, v.abs()));
        if largest < 1e-9 {
            converged = true;
            break;
        }
        // A full step at the floor that did not shrink the gradient: the fit is where the
        // arithmetic lets it be, and the point before that step is kept. (A safeguard: in
        // every fit tried, 240 of cisi-abstain's subsets, penalties and `k`, and synthetic
        // ones of up to 500,000 rows, the first step at the floor brought the gradient
        // below the tolerance.)
        if let Some((before, b)) = floor.take() {
            if largest >= before {
                beta = b;
                converged = true;
                break;
            }
        }
        if iterations >= max_iterations {
            break;
        }
        iterations += 1;
        // Levenberg-style safety: a tiny ridge keeps the intercept row solvable when
        // every p saturates.
        if let Some(h00) = h.first_mut().and_then(|r| r.first_mut()) {
            *h00 += 1e-12;
        }
        let Some(step) = solve(h, g.clone()) else {
            break;
        };
        let slope: f64 = g.iter().zip(&step).map(|(a, b)| a * b).sum();
        // The decrease a step must make is below the objective's rounding: the line
        // search would then take whichever fraction of the step the rounding favours
        // (the gradient shrank by a few percent a step, stalling near 5e-8 on
        // cisi-abstain's 146 queries at l2 0.01). Near the optimum Newton's full step is
        // the right one: taken, and judged by the gradient it leaves (above).
        if f - 1e-4 * slope == f {
            let cand: Vec<f64> = beta.iter().zip(&step).map(|(b, s)| b - s).collect();
            floor = Some((largest, std::mem::replace(&mut beta, cand)));
            f = objective(z, y, &beta, l2);
            continue;
        }
        let mut t = 1.0;
        let mut moved = false;
        while t > 1e-10 {
            let cand: Vec<f64> = beta.iter().zip(&step).map(|(b, s)| b - t * s).collect();
            let fc = objective(z, y, &cand, l2);
            if fc <= f - 1e-4 * t * slope {
                beta = cand;
                f = fc;
                moved = true;
                break;
            }
            t *= 0.5;
        }
        if !moved {
            break;
        }
    }
    Fit {
        beta,
        iterations,
        converged,
    }
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting (`None` if singular).
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| {
            let ai = a.get(i).and_then(|r| r.get(col)).map_or(0.0, |v| v.abs());
            let aj = a.get(j).and_then(|r| r.get(col)).map_or(0.0, |v| v.abs());
            ai.total_cmp(&aj)
        })?;
        a.swap(col, pivot);
        b.swap(col, pivot);
        let p = *a.get(col)?.get(col)?;
        if p.is_nan() || p.abs() <= 1e-300 {
            return None;
        }
        let pivot_row = a.get(col)?.clone();
        let b_col = *b.get(col)?;
        for r in (col + 1)..n {
            let row = a.get_mut(r)?;
            let factor = row.get(col)? / p;
            for (x, &y) in row.iter_mut().zip(&pivot_row).skip(col) {
                *x -= factor * y;
            }
            *b.get_mut(r)? -= factor * b_col;
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let row = a.get(r)?;
        let s: f64 = ((r + 1)..n)
            .map(|c| row.get(c).copied().unwrap_or(0.0) * x.get(c).copied().unwrap_or(0.0))
            .sum();
        *x.get_mut(r)? = (b.get(r)? - s) / row.get(r)?;
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// Mean log-loss, probabilities kept within `[1e-15, 1 - 1e-15]`.
pub fn mean_log_loss(p: &[f64], y: &[f64]) -> f64 {
    let n = p.len().max(1) as f64;
    p.iter()
        .zip(y)
        .map(|(&p, &t)| {
            let p = p.clamp(1e-15, 1.0 - 1e-15);
            -(t * libm::log(p) + (1.0 - t) * libm::log(1.0 - p))
        })
        .sum::<f64>()
        / n
}

/// Area under the ROC curve of scores `p` for 0/1 labels `y` (ties count one half);
/// `None` when a class is missing.
pub fn auroc(p: &[f64], y: &[f64]) -> Option<f64> {
    let mut order: Vec<(f64, f64)> = p.iter().copied().zip(y.iter().copied()).collect();
    order.stable_sort_by(|a, b| a.0.total_cmp(&b.0));
    let pos = y.iter().filter(|&&t| t > 0.0).count() as f64;
    let neg = y.len() as f64 - pos;
    if pos == 0.0 || neg == 0.0 {
        return None;
    }
    // Mann-Whitney: sum of the (average) ranks of the positives.
    let mut rank_sum = 0.0;
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && order.get(j + 1).map(|o| o.0) == order.get(i).map(|o| o.0) {
            j += 1;
        }
        let avg = (i + j) as f64 / 2.0 + 1.0;
        rank_sum += order
            .get(i..=j)
            .unwrap_or_default()
            .iter()
            .filter(|o| o.1 > 0.0)
            .count() as f64
            * avg;
        i = j + 1;
    }
    Some((rank_sum - pos * (pos + 1.0) / 2.0) / (pos * neg))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auroc_counts_ties_as_halves() {
        assert_eq!(auroc(&[0.1, 0.9], &[0.0, 1.0]), Some(1.0));
        assert_eq!(auroc(&[0.9, 0.1], &[0.0, 1.0]), Some(0.0));
        assert_eq!(auroc(&[0.5, 0.5], &[0.0, 1.0]), Some(0.5));
        assert_eq!(
            auroc(&[0.2, 0.5, 0.5, 0.7], &[0.0, 0.0, 1.0, 1.0]),
            Some(0.875)
        );
        assert_eq!(auroc(&[0.2], &[1.0]), None);
    }
}
