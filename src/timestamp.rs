//! Timestamps: milliseconds since the Unix epoch, from a number or an ISO 8601 string.
//!
//! Accepted string forms (UTC unless an offset is given):
//! `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM`, `YYYY-MM-DDTHH:MM:SS`, `YYYY-MM-DDTHH:MM:SS.fff`,
//! each optionally followed by `Z` or `+HH:MM` / `-HH:MM`; a space may replace `T`.
//! Nothing else: no surrounding whitespace, no leap second (`:60`).
//! Numbers are taken as epoch milliseconds (as `Date.now()` gives them).

use crate::error::{ErrorCode, Result, ScoreError};
use serde::{Deserialize, Serialize};

/// A point in time as given by a caller: epoch milliseconds or an ISO 8601 string.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Timestamp {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    Millis(f64),
    /// An ISO 8601 date or date-time.
    Iso(String),
}

/// Epoch milliseconds.
impl From<f64> for Timestamp {
    fn from(ms: f64) -> Self {
        Timestamp::Millis(ms)
    }
}

/// An ISO 8601 text (checked when the pipeline reads it).
impl From<&str> for Timestamp {
    fn from(iso: &str) -> Self {
        Timestamp::Iso(iso.to_string())
    }
}

/// An ISO 8601 text.
impl From<String> for Timestamp {
    fn from(iso: String) -> Self {
        Timestamp::Iso(iso)
    }
}

impl Timestamp {
    /// Epoch milliseconds; `field` names the input for errors.
    pub fn to_millis(&self, field: &str) -> Result<f64> {
        match self {
            Timestamp::Millis(ms) => {
                if ms.is_finite() {
                    Ok(*ms)
                } else {
                    Err(ScoreError::new(
                        ErrorCode::InvalidTimestamp,
                        field,
                        format!(
                            "timestamp must be finite epoch milliseconds, got {}",
                            crate::error::num(*ms)
                        ),
                    ))
                }
            }
            Timestamp::Iso(s) => iso_to_millis(s, field),
        }
    }
}

/// Milliseconds in one day.
pub const MS_PER_DAY: f64 = 86_400_000.0;

fn digits(s: &[u8]) -> Option<i64> {
    if s.is_empty() || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    s.iter().try_fold(0i64, |acc, d| {
        acc.checked_mul(10)?.checked_add(i64::from(d - b'0'))
    })
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ => {
            if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 {
                29
            } else {
                28
            }
        }
    }
}

/// `s` read by [`parse_iso8601`], or the `INVALID_TIMESTAMP` error on `field` that names
/// it (the owned and the borrowed timestamps' one error).
pub fn iso_to_millis(s: &str, field: &str) -> Result<f64> {
    parse_iso8601(s).ok_or_else(|| {
        ScoreError::new(
            ErrorCode::InvalidTimestamp,
            field,
            format!(
                "cannot parse {} as an ISO 8601 date or date-time",
                crate::error::name(s)
            ),
        )
    })
}

/// Parses the ISO 8601 subset documented at module level; `None` when malformed.
/// The string is read as given: surrounding whitespace is not a part of any form, and
/// a leap second (`:60`) is refused, as epoch milliseconds cannot hold one and
/// JavaScript's `Date.parse` refuses it too.
pub fn parse_iso8601(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let year = digits(b.get(0..4)?)?;
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return None;
    }
    let month = digits(b.get(5..7)?)?;
    let day = digits(b.get(8..10)?)?;
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    let mut ms = days_from_civil(year, month, day) * 86_400_000;
    let mut rest = b.get(10..)?;
    if let Some((&sep, tail)) = rest.split_first() {
        if sep != b'T' && sep != b't' && sep != b' ' {
            return None;
        }
        let hour = digits(tail.get(0..2)?)?;
        if tail.get(2) != Some(&b':') {
            return None;
        }
        let minute = digits(tail.get(3..5)?)?;
        let mut t = tail.get(5..)?;
        let mut second = 0;
        let mut millis = 0;
        if t.first() == Some(&b':') {
            second = digits(t.get(1..3)?)?;
            t = t.get(3..)?;
            if t.first() == Some(&b'.') {
                let frac_len = t.iter().skip(1).take_while(|c| c.is_ascii_digit()).count();
                let frac = t.get(1..1 + frac_len)?;
                // The first three digits, padded with zeros (no allocation).
                let mut first3 = [b'0'; 3];
                for (d, &c) in first3.iter_mut().zip(frac) {
                    *d = c;
                }
                millis = digits(&first3)?;
                if frac_len == 0 {
                    return None;
                }
                t = t.get(1 + frac_len..)?;
            }
        }
        if hour > 23 || minute > 59 || second > 59 {
            return None;
        }
        ms += ((hour * 60 + minute) * 60 + second) * 1000 + millis;
        rest = t;
    }
    match rest {
        [] | [b'Z'] | [b'z'] => {}
        [sign @ (b'+' | b'-'), oh1, oh2, b':', om1, om2] => {
            let oh = digits(&[*oh1, *oh2])?;
            let om = digits(&[*om1, *om2])?;
            if oh > 23 || om > 59 {
                return None;
            }
            let offset = (oh * 60 + om) * 60_000;
            ms = if *sign == b'+' {
                ms - offset
            } else {
                ms + offset
            };
        }
        _ => return None,
    }
    // Exact: |ms| < 2^53 for every 4-digit year.
    Some(ms as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_dates_and_times() {
        assert_eq!(parse_iso8601("1970-01-01"), Some(0.0));
        assert_eq!(parse_iso8601("1970-01-02T00:00:00Z"), Some(86_400_000.0));
        assert_eq!(
            parse_iso8601("2024-03-01T12:30:15.250Z"),
            Some(1_709_296_215_250.0)
        );
        assert_eq!(
            parse_iso8601("2024-03-01T14:30:15.25+02:00"),
            Some(1_709_296_215_250.0)
        );
        assert_eq!(parse_iso8601("2024-03-01 12:30"), Some(1_709_296_200_000.0));
        // The last second of a day is :59 (a leap second is refused: below).
        assert_eq!(
            parse_iso8601("2016-12-31T23:59:59Z"),
            Some(1_483_228_799_000.0)
        );
        // Beyond three digits the fraction is cut to milliseconds; fewer are padded.
        assert_eq!(
            parse_iso8601("2024-03-01T12:30:15.2509999Z"),
            Some(1_709_296_215_250.0)
        );
        assert_eq!(
            parse_iso8601("2024-03-01T12:30:15.2Z"),
            Some(1_709_296_215_200.0)
        );
        assert_eq!(parse_iso8601("2000-02-29"), Some(951_782_400_000.0));
        // The widest offsets: a minute short of a day either way.
        assert_eq!(
            parse_iso8601("2024-01-01T00:00:00+23:59"),
            Some(1_704_067_200_000.0 - 86_340_000.0)
        );
        assert_eq!(
            parse_iso8601("2024-01-01T00:00:00-23:59"),
            Some(1_704_067_200_000.0 + 86_340_000.0)
        );
    }

    #[test]
    fn rejects_malformed() {
        for bad in [
            "",
            "2024",
            "2024-13-01",
            "2023-02-29",
            "2024-01-01T25:00",
            "2024-01-01X",
            "yesterday",
            "2024-01-01T10:00:00.Z",
            "2024-01-01T10:00+2",
            // Surrounding whitespace, ASCII or not, is not a part of any form.
            " 2024-01-01",
            "2024-01-01\n",
            "\r\n2024-01-01T00:00Z\r\n",
            "\u{3000}2024-01-01\u{3000}",
            "\u{a0}2024-01-01",
            "2024-01-01T00:00Z\u{2028}",
            // A leap second, on any minute.
            "2024-06-15T10:20:60Z",
            "2016-12-31T23:59:60Z",
            // Offsets past the clock's (Date.parse refuses them too).
            "2024-01-01T00:00:00+24:00",
            "2024-01-01T00:00:00-24:00",
            "2024-01-01T00:00:00+05:60",
        ] {
            assert_eq!(parse_iso8601(bad), None, "{bad}");
        }
        let e = Timestamp::Iso("nope".into())
            .to_millis("items.a.modifiedAt")
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidTimestamp);
        assert_eq!(e.field, "items.a.modifiedAt");
        assert!(Timestamp::Millis(f64::NAN).to_millis("now").is_err());
    }
}
