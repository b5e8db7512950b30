//! Stage 5: calibration of raw scores into 0-1 confidences.
//!
//! [`Sigmoid`]: `confidence = 1 / (1 + exp(-steepness * (raw - threshold)))` with the
//! seed defaults `threshold = 0.035` (the raw score that maps to 0.5) and
//! `steepness = 150`. The function is monotone non-decreasing (strictly increasing until
//! it saturates to 0 or 1 in f64), so calibration preserves order. `exp` is `libm`'s, so
//! the result is bit-identical in every runtime.
//!
//! Calibrations fitted from judgements are applied here too: [`PlattModel`] (a sigmoid
//! of the raw score) and [`IsotonicModel`] (a non-decreasing piecewise-linear map). This
//! module only applies and validates them; the lab fits them (its `fit_platt` and
//! `fit_isotonic`).
//!
//! **Note on defaults.** With two lists and `k = 60` the best possible RRF score is
//! `2/61 = 0.0328`, which the default sigmoid maps to about 0.42: below the band floors,
//! a miss. The defaults are kept as the seed states them; lower `threshold` (or fit a
//! calibration from judgements in the lab) when fusing two lists.

mod isotonic;
mod platt;
mod sigmoid;

pub use isotonic::IsotonicModel;
pub use platt::PlattModel;
pub use sigmoid::{calibrate, logistic, Sigmoid};

use crate::error::{not_finite, ErrorCode, Result};

/// Checks a calibration's parameter (a sigmoid's threshold, a Platt model's `a` or `b`):
/// one that is not finite is the calibration's fault, `INVALID_CALIBRATION` on `name`, as
/// its other faults are (`NON_FINITE_SCORE` is for the scores a calibration is applied
/// to; an isotonic model's knots: `error::all_finite_as`).
fn finite_parameter(value: f64, name: &str) -> Result<()> {
    if value.is_finite() {
        return Ok(());
    }
    Err(not_finite(
        ErrorCode::InvalidCalibration,
        name.to_string(),
        value,
    ))
}
