//! The smaller and the larger of two numbers, with one answer on every target.
//!
//! `f64::min` / `f64::max` leave the sign of a zero to the target when both arguments are
//! zeros: native x86-64 gave `min(-0.0, 0.0) = -0.0` where wasm32 gave `0.0`, so a
//! min-max normalization of `[-0, 0, 1]` differed in its first value's sign between Rust
//! and the npm package, and with it the order of a tie decided on that value. These
//! follow IEEE 754-2019's `minimumNumber` / `maximumNumber`: -0 is below +0, and a NaN
//! gives way to the other argument (as `f64::min` / `f64::max` do).

/// The smaller of `a` and `b`: -0 below +0; a NaN gives way to the other argument.
#[inline]
pub(crate) fn min(a: f64, b: f64) -> f64 {
    if a < b || b.is_nan() {
        a
    } else if b < a || a.is_nan() || a.is_sign_positive() {
        b
    } else {
        a
    }
}

/// The larger of `a` and `b`: +0 above -0; a NaN gives way to the other argument.
#[inline]
pub(crate) fn max(a: f64, b: f64) -> f64 {
    if a > b || b.is_nan() {
        a
    } else if b > a || a.is_nan() || a.is_sign_negative() {
        b
    } else {
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(x: f64, y: f64) -> bool {
        x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
    }

    #[test]
    #[allow(clippy::disallowed_methods)]
    fn zeros_and_nans_have_one_answer() {
        let cases = [
            (-0.0, 0.0, -0.0, 0.0),
            (0.0, -0.0, -0.0, 0.0),
            (-0.0, -0.0, -0.0, -0.0),
            (0.0, 0.0, 0.0, 0.0),
            (f64::NAN, 1.0, 1.0, 1.0),
            (1.0, f64::NAN, 1.0, 1.0),
            (f64::NAN, -0.0, -0.0, -0.0),
            (-0.0, f64::NAN, -0.0, -0.0),
            (-1.0, 2.0, -1.0, 2.0),
            (2.0, -1.0, -1.0, 2.0),
            (f64::NEG_INFINITY, -0.0, f64::NEG_INFINITY, -0.0),
            (3.5, 3.5, 3.5, 3.5),
        ];
        for (a, b, lo, hi) in cases {
            assert!(same(min(a, b), lo), "min({a}, {b}) = {}", min(a, b));
            assert!(same(max(a, b), hi), "max({a}, {b}) = {}", max(a, b));
        }
        assert!(min(f64::NAN, f64::NAN).is_nan() && max(f64::NAN, f64::NAN).is_nan());
        // Away from zeros and NaNs, the same as std's.
        let xs = [-7.25, -1e-300, 1e-300, 0.5, 2.0, f64::MAX, f64::INFINITY];
        for &a in &xs {
            for &b in &xs {
                assert_eq!(min(a, b).to_bits(), a.min(b).to_bits());
                assert_eq!(max(a, b).to_bits(), a.max(b).to_bits());
            }
        }
    }
}
