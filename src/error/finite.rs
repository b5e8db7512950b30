//! The checks that a number is finite, and the one error they raise when it is not.

use super::{num, ErrorCode, Result, ScoreError};

/// Checks that `value` is finite (`NON_FINITE_SCORE`).
pub fn finite(value: f64, field: impl FnOnce() -> String) -> Result<f64> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(not_finite(ErrorCode::NonFiniteScore, field(), value))
    }
}

/// Checks that every value of `values` is finite (`NON_FINITE_SCORE`); the field names
/// the first bad index.
pub fn all_finite(values: &[f64], field: &str) -> Result<()> {
    all_finite_as(ErrorCode::NonFiniteScore, values, field)
}

/// [`all_finite`] with the code of the parameter's kind (a calibration's knots:
/// `INVALID_CALIBRATION`).
pub fn all_finite_as(code: ErrorCode, values: &[f64], field: &str) -> Result<()> {
    match values.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(i) => {
            let v = values.get(i).copied().unwrap_or(f64::NAN);
            Err(not_finite(code, format!("{field}[{i}]"), v))
        }
    }
}

/// `value`, at `field`, is not finite: `code`, "must be a finite number, got NaN" (the
/// one wording of every such check).
#[cold]
#[inline(never)]
pub fn not_finite(code: ErrorCode, field: String, value: f64) -> ScoreError {
    ScoreError::new(
        code,
        field,
        format!("must be a finite number, got {}", num(value)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_finite_names_first_bad_index() {
        let e = all_finite(&[1.0, f64::NAN, f64::INFINITY], "scores").unwrap_err();
        assert_eq!(e.code, ErrorCode::NonFiniteScore);
        assert_eq!(e.field, "scores[1]");
        assert!(all_finite(&[0.0, -1.0], "x").is_ok());
    }
}
