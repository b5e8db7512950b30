//! The one error type of calibrank.
//!
//! Every failure carries a stable machine-readable [`ErrorCode`] (rendered as an
//! `UPPER_SNAKE_CASE` string, the same string JavaScript callers see as `error.code`),
//! the name of the offending input field (a dotted / indexed path such as
//! `lists[1].ids[3]` or `calibration.steepness`) and a human-readable message.
//!
//! Beside the type: [`key_path`] and the other writers of field paths (path.rs), the
//! quoting of names and numbers in messages (shown.rs), the finiteness checks
//! (finite.rs) and the typing of decoding failures, serde's and the wasm modules'
//! (serde_messages.rs).

use std::fmt;

mod finite;
mod path;
mod serde_messages;
mod shown;

pub use finite::{all_finite, all_finite_as, finite, not_finite};
pub use path::{key_field, key_path, push_json_key, push_segment};
pub(crate) use serde_messages::path_text;
pub use serde_messages::{
    deserialize_at, fault_error, from_json, from_serde_at, from_serde_message, not_one_of,
    DecodeFault,
};
pub use shown::{
    key_name, name, num, quoted, shown_str, KeyName, Name, Num, Quoted, ShownStr, NAME_SHOWN,
};

/// Stable error codes. The string form (see [`ErrorCode::as_str`]) is part of the
/// public API and never changes for an existing variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// A score, weight or parameter is NaN or infinite.
    NonFiniteScore,
    /// Two parallel arrays have different lengths.
    LengthMismatch,
    /// An input that must not be empty is empty.
    EmptyInput,
    /// An id occurs twice where ids must be unique.
    DuplicateId,
    /// A value is negative where only non-negative values are allowed.
    NegativeValue,
    /// `topN` is < 1 or greater than `topK`.
    InvalidTopN,
    /// `topK` is < 1.
    InvalidTopK,
    /// The RRF constant `k` is < 1 (or not finite).
    InvalidK,
    /// A list or strategy weight is negative or not finite.
    InvalidWeight,
    /// Band floors violate `0 <= degradedFloor <= highFloor <= 1`.
    InvalidBands,
    /// A calibration's parameter is invalid: not finite (a sigmoid's, a Platt model's, an
    /// isotonic model's knot) or out of range (steepness <= 0, knots out of order, ...).
    InvalidCalibration,
    /// Any other configuration value out of its documented range.
    InvalidConfig,
    /// A configuration or input object has a field calibrank does not know.
    UnknownField,
    /// A value has the wrong type or shape (a string where a number is expected, ...).
    InvalidType,
    /// An unknown method / mode / metric name.
    UnknownMethod,
    /// A timestamp could not be parsed.
    InvalidTimestamp,
    /// An input exceeds a configured size limit.
    InputTooLarge,
    /// An index into a columnar input is out of range.
    IndexOutOfRange,
    /// A text format (TREC run, qrels, JSON) could not be parsed.
    ParseError,
    /// The query is empty where a query is required.
    EmptyQuery,
    /// Labels are not 0/1 or are all of one class where both are needed.
    InvalidLabels,
    /// A value lies outside its documented range (a probability outside [0, 1], ...).
    OutOfRange,
    /// An internal invariant was violated; a bug in calibrank (never expected).
    Internal,
    /// A module was called while a call into it is still running: from
    /// `optimizeFusion`'s `onProgress` into `calibrank/lab` (raised by the package's
    /// JavaScript; the call in flight continues).
    ReentrantCall,
}

impl ErrorCode {
    /// The stable string form of the code.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::NonFiniteScore => "NON_FINITE_SCORE",
            ErrorCode::LengthMismatch => "LENGTH_MISMATCH",
            ErrorCode::EmptyInput => "EMPTY_INPUT",
            ErrorCode::DuplicateId => "DUPLICATE_ID",
            ErrorCode::NegativeValue => "NEGATIVE_VALUE",
            ErrorCode::InvalidTopN => "INVALID_TOP_N",
            ErrorCode::InvalidTopK => "INVALID_TOP_K",
            ErrorCode::InvalidK => "INVALID_K",
            ErrorCode::InvalidWeight => "INVALID_WEIGHT",
            ErrorCode::InvalidBands => "INVALID_BANDS",
            ErrorCode::InvalidCalibration => "INVALID_CALIBRATION",
            ErrorCode::InvalidConfig => "INVALID_CONFIG",
            ErrorCode::UnknownField => "UNKNOWN_FIELD",
            ErrorCode::InvalidType => "INVALID_TYPE",
            ErrorCode::UnknownMethod => "UNKNOWN_METHOD",
            ErrorCode::InvalidTimestamp => "INVALID_TIMESTAMP",
            ErrorCode::InputTooLarge => "INPUT_TOO_LARGE",
            ErrorCode::IndexOutOfRange => "INDEX_OUT_OF_RANGE",
            ErrorCode::ParseError => "PARSE_ERROR",
            ErrorCode::EmptyQuery => "EMPTY_QUERY",
            ErrorCode::InvalidLabels => "INVALID_LABELS",
            ErrorCode::OutOfRange => "OUT_OF_RANGE",
            ErrorCode::Internal => "INTERNAL",
            ErrorCode::ReentrantCall => "REENTRANT_CALL",
        }
    }

    /// Every code, for documentation and exhaustive tests.
    pub const ALL: [ErrorCode; 24] = [
        ErrorCode::NonFiniteScore,
        ErrorCode::LengthMismatch,
        ErrorCode::EmptyInput,
        ErrorCode::DuplicateId,
        ErrorCode::NegativeValue,
        ErrorCode::InvalidTopN,
        ErrorCode::InvalidTopK,
        ErrorCode::InvalidK,
        ErrorCode::InvalidWeight,
        ErrorCode::InvalidBands,
        ErrorCode::InvalidCalibration,
        ErrorCode::InvalidConfig,
        ErrorCode::UnknownField,
        ErrorCode::InvalidType,
        ErrorCode::UnknownMethod,
        ErrorCode::InvalidTimestamp,
        ErrorCode::InputTooLarge,
        ErrorCode::IndexOutOfRange,
        ErrorCode::ParseError,
        ErrorCode::EmptyQuery,
        ErrorCode::InvalidLabels,
        ErrorCode::OutOfRange,
        ErrorCode::Internal,
        ErrorCode::ReentrantCall,
    ];
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// As its string form (`"INVALID_CONFIG"`), the `code` a JavaScript caller reads.
impl serde::Serialize for ErrorCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// The error returned by every fallible calibrank function. It serializes as the
/// JavaScript package's `ScoreError` reads: `{"code": "INVALID_CONFIG", "field": ...,
/// "message": ...}` (for a server that answers with it).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ScoreError {
    /// Stable code.
    pub code: ErrorCode,
    /// The offending field, as a path (`lists[0].ids[2]`, `calibration.steepness`).
    pub field: String,
    /// What is wrong, for humans.
    pub message: String,
}

impl ScoreError {
    /// A new error.
    // Out of line and cold: every error path calls it, and inlined it copied its two
    // `String` conversions into each (the core module 3,249 B smaller gzipped, the lab
    // 1,704 B; docs/performance-history.md "Cold code out of line").
    #[cold]
    #[inline(never)]
    pub fn new(code: ErrorCode, field: impl Into<String>, message: impl Into<String>) -> Self {
        ScoreError {
            code,
            field: field.into(),
            message: message.into(),
        }
    }

    /// The same error with its field prefixed by `prefix` (`prefix.field`).
    pub fn within(mut self, prefix: &str) -> Self {
        self.field = if self.field.is_empty() {
            prefix.to_string()
        } else if self.field.starts_with('[') {
            format!("{prefix}{}", self.field)
        } else {
            format!("{prefix}.{}", self.field)
        };
        self
    }
}

impl fmt::Display for ScoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}: {}", self.code, self.message)
        } else {
            write!(f, "{} ({}): {}", self.code, self.field, self.message)
        }
    }
}

impl std::error::Error for ScoreError {}

/// Result alias used throughout the crate.
pub type Result<T> = std::result::Result<T, ScoreError>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn errors_serialize_as_the_package_reads_them() {
        let e = ScoreError::new(
            ErrorCode::InvalidTopN,
            "config.topN",
            "topN 0 is not in 1..=10",
        );
        assert_eq!(
            serde_json::to_string(&e).unwrap(),
            r#"{"code":"INVALID_TOP_N","field":"config.topN","message":"topN 0 is not in 1..=10"}"#
        );
        assert_eq!(
            serde_json::to_string(&ErrorCode::ReentrantCall).unwrap(),
            r#""REENTRANT_CALL""#
        );
    }

    #[test]
    fn codes_are_unique_upper_snake_case() {
        let mut seen = HashSet::new();
        for code in ErrorCode::ALL {
            let s = code.as_str();
            assert!(seen.insert(s), "duplicate code {s}");
            assert!(s.chars().all(|c| c.is_ascii_uppercase() || c == '_'), "{s}");
        }
    }

    #[test]
    fn within_builds_paths() {
        let e = ScoreError::new(ErrorCode::InvalidK, "k", "bad").within("fusion");
        assert_eq!(e.field, "fusion.k");
        let e = ScoreError::new(ErrorCode::NonFiniteScore, "[3]", "bad").within("scores");
        assert_eq!(e.field, "scores[3]");
        assert_eq!(e.to_string(), "NON_FINITE_SCORE (scores[3]): bad");
    }
}
