//! Assertions every target shares: the errors a function may give, ranges, tolerances.

use super::bytes::Bytes;
use calibrank::error::{ErrorCode, ScoreError};

/// A failure must carry one of `allowed` codes (never `INTERNAL`) and a message.
pub(crate) fn check_error(e: &ScoreError, allowed: &[ErrorCode], what: &str) {
    assert!(
        ErrorCode::ALL.contains(&e.code),
        "{what}: unknown code {:?}",
        e.code
    );
    assert_ne!(e.code, ErrorCode::Internal, "{what}: internal error {e}");
    assert!(
        allowed.contains(&e.code),
        "{what}: undocumented code {} ({e})",
        e.code
    );
    assert!(
        !e.message.is_empty(),
        "{what}: empty message for {}",
        e.code
    );
    assert!(!e.code.as_str().is_empty());
}

pub(crate) fn in_unit(x: f64) -> bool {
    (0.0..=1.0).contains(&x)
}

/// Confidence weights summing above 1 are refused: half the time, weights whose sum is a
/// positive number are scaled to sum to 1 (within rounding: the slack that holds
/// `weightedTop5` to 1), so that generated configurations run.
pub(crate) fn scale_to_one(weights: &mut [f64; 5], b: &mut Bytes<'_>) {
    let sum: f64 = weights.iter().sum();
    if sum > 1.0
        && sum.is_finite()
        && weights.iter().all(|w| w.is_finite() && *w >= 0.0)
        && b.bool()
    {
        for w in weights.iter_mut() {
            *w /= sum;
        }
    }
}

/// `a <= b`, bit for bit: calibration is monotone exactly (the logistic has one form,
/// `1 / (1 + exp(-x))`; its earlier two-branch form stepped back by an ulp between
/// neighbouring inputs, found by fuzzing `fit`, reproducer `platt_monotone_within_ulps`).
pub(crate) fn monotone_le(a: f64, b: f64) -> bool {
    a <= b
}

pub(crate) fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1e-300)
}

pub(crate) const CONFIG_CODES: &[ErrorCode] = &[
    ErrorCode::InvalidK,
    ErrorCode::InvalidWeight,
    ErrorCode::InvalidTopK,
    ErrorCode::InvalidTopN,
    ErrorCode::InvalidConfig,
    ErrorCode::InvalidCalibration,
    ErrorCode::InvalidBands,
    ErrorCode::NonFiniteScore,
    ErrorCode::EmptyInput,
    ErrorCode::LengthMismatch,
];

pub(crate) const RUN_CODES: &[ErrorCode] = &[
    ErrorCode::InputTooLarge,
    ErrorCode::DuplicateId,
    ErrorCode::InvalidWeight,
    ErrorCode::LengthMismatch,
    ErrorCode::NonFiniteScore,
    ErrorCode::InvalidTimestamp,
    ErrorCode::EmptyQuery,
    ErrorCode::EmptyInput,
];

pub(crate) const COLUMNAR_CODES: &[ErrorCode] = &[
    ErrorCode::InputTooLarge,
    ErrorCode::InvalidConfig,
    ErrorCode::InvalidWeight,
    ErrorCode::LengthMismatch,
    ErrorCode::IndexOutOfRange,
    ErrorCode::InvalidTimestamp,
    ErrorCode::NonFiniteScore,
];

pub(crate) const JSON_CODES: &[ErrorCode] = &[
    ErrorCode::ParseError,
    ErrorCode::UnknownField,
    ErrorCode::InvalidConfig,
    ErrorCode::UnknownMethod,
    ErrorCode::InvalidType,
];
