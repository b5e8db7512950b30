//! Decoding failures typed: serde's messages read and said in a JavaScript caller's
//! words, the wasm modules' own decoders' faults, and [`from_json`].

use std::fmt;

use super::{key_name, name, num, push_segment, quoted, shown_str, ErrorCode, Result, ScoreError};

/// Turns a serde deserialization message into a typed error on `what` itself (no path
/// inside it): [`from_serde_at`] with an empty path.
#[doc(hidden)]
pub fn from_serde_message(message: &str, what: &str) -> ScoreError {
    from_serde_at(message, what, "")
}

/// Turns a serde deserialization message into a typed error: unknown fields are
/// `UNKNOWN_FIELD`, missing fields `INVALID_CONFIG`, unknown enum variants
/// `UNKNOWN_METHOD`, everything else `INVALID_TYPE`.
///
/// `at` is where the decoder stood when it failed, relative to `what`, as
/// `serde_path_to_error` records it: `.key` for a struct field or map key, `[i]` for an
/// array element (see [`deserialize_at`]). The field is `what` followed by `at`, and for
/// a missing or repeated field (reported on their object) by `.name` too. An unknown
/// field is reported on its key, except inside a value serde buffers first (an
/// internally tagged or untagged enum), where the path stops at the enum: there `.name`
/// is added when `at` does not end with it already. Every decoder of calibrank (the
/// Rust API's [`from_json`], the wasm modules' serde tree and hand-written decoders)
/// reports through this function, so they agree on every field path.
#[doc(hidden)]
pub fn from_serde_at(message: &str, what: &str, at: &str) -> ScoreError {
    let message = message.strip_prefix("Error: ").unwrap_or(message);
    // A fault inside a calibration's buffered fields, placed by the calibration's reader
    // (`in `.a`: ...`, src/pipeline/tagged.rs): its place goes on the path.
    let placed = message
        .strip_prefix(crate::pipeline::PLACED)
        .and_then(|rest| rest.split_once("`: "));
    if let Some((inner, rest)) = placed {
        return from_serde_at(rest, what, &format!("{at}{inner}"));
    }
    let quoted = || message.split('`').nth(1).unwrap_or("");
    let (fault, name) = if let Some(rest) = message.strip_prefix("unknown field `") {
        (DecodeFault::UnknownField, unknown_name(rest))
    } else if message.starts_with("missing field") {
        (DecodeFault::MissingField, quoted())
    } else if message.starts_with("duplicate field") {
        (DecodeFault::DuplicateField, quoted())
    } else if message.starts_with("unknown variant") {
        (DecodeFault::UnknownVariant, "")
    } else {
        (DecodeFault::Type, "")
    };
    fault_error(fault, name, in_words(message), what, at)
}

/// `"x" is not one of "a", "b"`: a name that is none of `names`, as every decoder says
/// it (the modules' hand-written ones, serde's through [`from_serde_at`]; the package's
/// js/core/typed-config.js `notOneOf` words it the same).
#[cold]
#[inline(never)]
#[doc(hidden)]
pub fn not_one_of(name: &str, names: &[&str]) -> String {
    use fmt::Write as _;
    let mut message = String::new();
    let _ = write!(message, "{} is not one of ", self::name(name));
    for (i, n) in names.iter().enumerate() {
        let sep = if i > 0 { ", " } else { "" };
        let _ = write!(message, "{sep}{}", quoted(n));
    }
    message
}

/// A serde message said for a JavaScript caller, who never wrote a Rust type: `invalid
/// type: floating point `1.5`, expected u64` is `expected a whole number from 0 to
/// 9007199254740991, got 1.5` (the largest a JavaScript number holds exactly, which the
/// lab's reader takes as the bound of its whole numbers),
/// `invalid type: unit value, expected a sequence` is `expected an array, got null`,
/// `unknown variant `beta`, expected one of `sigmoid`, `platt`` is `"beta" is not one of
/// "sigmoid", "platt"`. Numbers are printed as JavaScript's `String(v)` prints them
/// ([`num`]). Other messages (unknown, missing and repeated fields) are kept as they are.
fn in_words(message: &str) -> String {
    let pair = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))
        .and_then(|rest| rest.rsplit_once(", expected "));
    if let Some((got, expected)) = pair {
        let expected = expected_words(expected);
        return format!(
            "expected {expected}, got {}",
            got_words(got, whole_range(&expected))
        );
    }
    if let Some((n, expected)) = message
        .strip_prefix("invalid length ")
        .and_then(|rest| rest.split_once(", expected "))
    {
        return format!("expected {}, got an array of {n}", expected_words(expected));
    }
    // An untagged enum's own words name the Rust type; the crate has one, the time.
    if message.starts_with("data did not match any variant of untagged enum Timestamp") {
        return "expected epoch milliseconds (a number) or an ISO 8601 string".to_string();
    }
    if let Some(rest) = message.strip_prefix("unknown field `") {
        // The key given (as `unknown_name` finds it for the field path), cut after 64
        // characters as the modules' own decoders word it, then serde's words after it.
        let key = unknown_name(rest);
        let after = rest.get(key.len() + 1..).unwrap_or_default();
        return format!("unknown field {}{after}", key_name(key));
    }
    if let Some(rest) = message.strip_prefix("unknown variant `") {
        // The last "`, expected ": the names listed are the type's own, the name given may
        // hold the words.
        if let Some((name, names)) = rest.rsplit_once("`, expected ") {
            let names = names
                .strip_prefix("one of ")
                .unwrap_or(names)
                .replace("` or `", "`, `");
            let listed: Vec<&str> = names.split(", ").map(|n| n.trim_matches('`')).collect();
            return not_one_of(name, &listed);
        }
    }
    message.to_string()
}

/// What serde says it expected, in a JavaScript caller's words.
fn expected_words(e: &str) -> std::borrow::Cow<'_, str> {
    let words = match e {
        "u8" => "a whole number from 0 to 255",
        "u16" => "a whole number from 0 to 65535",
        "u32" => "a whole number from 0 to 4294967295",
        "u64" | "usize" => "a whole number from 0 to 9007199254740991",
        "i32" | "i64" | "isize" => "a whole number",
        "f32" | "f64" => "a number",
        "a sequence" => "an array",
        "a map" => "an object",
        "unit" => "null",
        "a boolean" => "true or false",
        _ if e.starts_with("struct ")
            || e.ends_with(" fields")
            || e.starts_with("internally tagged enum ") =>
        {
            "an object"
        }
        _ if e.starts_with("enum ")
            || e.starts_with("variant index")
            || e == "variant identifier" =>
        {
            "a name (a string)"
        }
        _ if e.starts_with("a sequence of ") || e.starts_with("an array of ") => {
            return e.replacen("a sequence", "an array", 1).into()
        }
        _ => return e.into(),
    };
    words.into()
}

/// What serde says it got (`floating point `1.5``, `unit value`, `sequence`), as the
/// value a JavaScript caller wrote (`1.5`, `null`, `an array`).
/// The range of a whole-number field from its words ("a whole number from 0 to 255";
/// "a whole number", any), or `None` for another field.
fn whole_range(expected: &str) -> Option<(f64, f64)> {
    let rest = expected.strip_prefix("a whole number")?;
    let Some((lo, hi)) = rest
        .strip_prefix(" from ")
        .and_then(|r| r.split_once(" to "))
    else {
        return Some((f64::NEG_INFINITY, f64::INFINITY));
    };
    Some((lo.parse().ok()?, hi.parse().ok()?))
}

fn got_words(g: &str, whole: Option<(f64, f64)>) -> String {
    let literal = |prefix: &str| g.strip_prefix(prefix).and_then(|r| r.strip_suffix('`'));
    if let Some(x) = literal("integer `") {
        return x.to_string();
    }
    if let Some(x) = literal("floating point `") {
        // The lab's module parses floats anyway (TREC scores); the core never comes
        // here (build-pkg.sh keeps `from_serde_at` out of it).
        // `inf` and `-inf` (a lab value the package's JavaScript gave as Infinity) are
        // said as JavaScript says them, `Infinity`; `NaN` is the same in both.
        return match x.parse::<f64>() {
            // A whole number within JavaScript's exact integers and the field's range
            // (`whole`: a whole-number field's) that the field still read as a float was written with a fraction or an
            // exponent (`3.0`, `1e3`: Rust's and Python's JSON writers give `3.0`); the
            // lab's reader gives such a number to an integer field as an integer, so only
            // a Rust caller's text comes here. "got 3" would read as a bug: said as
            // written, with why.
            Ok(v)
                if v.fract() == 0.0
                    && v.abs() <= 9_007_199_254_740_991.0
                    && whole.is_some_and(|(lo, hi)| lo <= v && v <= hi) =>
            {
                format!("{x} (a whole number written with a fraction or an exponent, which a whole-number field does not read: write {})", num(v))
            }
            Ok(v) if v.is_infinite() || x.bytes().any(|b| b.is_ascii_digit()) => num(v).to_string(),
            _ => x.to_string(),
        };
    }
    if let Some(b) = literal("boolean `") {
        return b.to_string();
    }
    if let Some(s) = g.strip_prefix("string ") {
        // serde writes the string as `{:?}` quotes it, whole: shown as the hand-written
        // decoders show one, its first 64 characters only (a 2 MB string where a number
        // goes made a 2 MB message).
        return match unescape_debug(s) {
            Some(raw) => shown_str(&raw).to_string(),
            None => s.to_string(),
        };
    }
    match g {
        "unit value" | "unit" | "Option value" => "null".into(),
        "sequence" => "an array".into(),
        "map" => "an object".into(),
        _ => g.to_string(),
    }
}

/// The string that `{:?}` quoted as `q` (`"a\"b\u{1b}"`): its escapes (`\0`, `\t`,
/// `\r`, `\n`, `\\`, `\"`, `\'`, `\u{hex}`) undone. `None` if `q` is not such a
/// quoted string.
fn unescape_debug(q: &str) -> Option<String> {
    let inner = q.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        out.push(match chars.next()? {
            '0' => '\0',
            't' => '\t',
            'r' => '\r',
            'n' => '\n',
            'u' => {
                let rest = chars.as_str().strip_prefix('{')?;
                let (hex, after) = rest.split_once('}')?;
                chars = after.chars();
                char::from_u32(u32::from_str_radix(hex, 16).ok()?)?
            }
            other @ ('\\' | '"' | '\'') => other,
            _ => return None,
        });
    }
    Some(out)
}

/// What a decoding failure is: serde's messages say it in words ([`from_serde_at`] reads
/// them), the wasm modules' hand-written decoders know it when they fail. Both are typed
/// by [`fault_error`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[doc(hidden)]
pub enum DecodeFault {
    /// A value of the wrong type, or an array of the wrong length: `INVALID_TYPE`.
    Type,
    /// A key the object does not have: `UNKNOWN_FIELD`.
    UnknownField,
    /// A required key missing: `INVALID_CONFIG`.
    MissingField,
    /// A key given twice: `INVALID_TYPE`.
    DuplicateField,
    /// A name that is no variant: `UNKNOWN_METHOD`.
    UnknownVariant,
}

/// The typed error of a decoding failure `fault` (naming the key `name` for the field
/// faults), worded `message`, at `at` within `what`: its field is `what`, then `at`,
/// then `.name` for a missing or repeated field, and for an unknown one unless `at` ends
/// with it already (the failure passed its key on its way out; inside a value serde
/// buffers first the path stops at the enum). Without a leading `.` when `what` is
/// empty.
#[cold]
#[inline(never)]
#[doc(hidden)]
pub fn fault_error(
    fault: DecodeFault,
    name: &str,
    message: String,
    what: &str,
    at: &str,
) -> ScoreError {
    let on_key = || {
        let mut segment = String::with_capacity(name.len() + 1);
        push_segment(&mut segment, name);
        at.ends_with(&segment)
    };
    let (code, key) = match fault {
        DecodeFault::UnknownField => (ErrorCode::UnknownField, (!on_key()).then_some(name)),
        DecodeFault::MissingField => (ErrorCode::InvalidConfig, Some(name)),
        DecodeFault::DuplicateField => (ErrorCode::InvalidType, Some(name)),
        DecodeFault::UnknownVariant => (ErrorCode::UnknownMethod, None),
        DecodeFault::Type => (ErrorCode::InvalidType, None),
    };
    let mut field = String::with_capacity(what.len() + at.len());
    field.push_str(what);
    field.push_str(at);
    if let Some(k) = key {
        push_segment(&mut field, k);
    }
    if what.is_empty() {
        if let Some(rest) = field.strip_prefix('.') {
            field = rest.to_string();
        }
    }
    ScoreError::new(code, field, message)
}

/// The key named by an unknown-field message after its "unknown field `": serde writes
/// `` `key`, expected ... `` or `` `key`, there are no fields ``, the hand-written
/// decoders `` `key` ``; the key itself may hold backquotes.
fn unknown_name(rest: &str) -> &str {
    // A type without fields first: its message ends so (a list's ends with a key in
    // backquotes), and the key given may hold "`, expected ".
    if let Some(name) = rest.strip_suffix("`, there are no fields") {
        name
    } else if let Some((name, _)) = rest.rsplit_once("`, expected ") {
        name
    } else if let Some(name) = rest.strip_suffix('`') {
        name
    } else {
        rest.split('`').next().unwrap_or("")
    }
}

/// `path` as [`from_serde_at`] reads it: `.key` for a struct field, map key or variant
/// (`["key"]` for a key [`key_path`] quotes), `[i]` for an array element; a first
/// element's index moved by `first_offset` (a tagged enum's array form read without its
/// tag, element 0: src/pipeline/tagged.rs).
///
/// [`key_path`]: super::key_path
pub(crate) fn path_text(path: &serde_path_to_error::Path, first_offset: usize) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for (i, segment) in path.iter().enumerate() {
        match segment {
            Segment::Seq { index } => {
                let index = if i == 0 { index + first_offset } else { *index };
                out.push('[');
                out.push_str(&index.to_string());
                out.push(']');
            }
            Segment::Map { key } | Segment::Enum { variant: key } => push_segment(&mut out, key),
            Segment::Unknown => out.push_str(".?"),
        }
    }
    out
}

/// Deserializes a `T` from `de`, tracking where it stands (`serde_path_to_error`): an
/// error comes with the path [`from_serde_at`] reads.
#[doc(hidden)]
pub fn deserialize_at<'de, D, T>(de: D) -> std::result::Result<T, (D::Error, String)>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    serde_path_to_error::deserialize(de).map_err(|e| {
        let at = path_text(e.path(), 0);
        (e.into_inner(), at)
    })
}

/// Parses JSON text into `T`, mapping failures to typed errors (syntax errors are
/// `PARSE_ERROR` on `what` with line and column; the others on the path of the value at
/// fault, as [`from_serde_at`] builds it: `config.recency.fiscalYear.windw`).
pub fn from_json<T: serde::de::DeserializeOwned>(text: &str, what: &str) -> Result<T> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value =
        deserialize_at(&mut de).and_then(|v| de.end().map(|()| v).map_err(|e| (e, String::new())));
    value.map_err(|(e, at)| {
        if e.is_syntax() || e.is_eof() {
            ScoreError::new(
                ErrorCode::ParseError,
                what,
                format!(
                    "invalid JSON at line {} column {}: {e}",
                    e.line(),
                    e.column()
                ),
            )
        } else {
            let msg = e.to_string();
            let core = msg
                .rsplit_once(" at line ")
                .map_or(msg.as_str(), |(m, _)| m);
            from_serde_at(core, what, &at)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Through the Rust API's `from_json`, a time or a calibration of the wrong kind is
    /// said in a caller's words, not by the Rust type's name (serde's "untagged enum
    /// Timestamp", "internally tagged enum Calibration").
    #[test]
    fn enums_of_the_wrong_kind_are_said_without_rust_names() {
        use crate::pipeline::{PipelineConfig, PipelineInput};
        let e = from_json::<PipelineInput>(r#"{"lists":[],"now":true}"#, "input").unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str(), e.message.as_str()),
            (
                ErrorCode::InvalidType,
                "input.now",
                "expected epoch milliseconds (a number) or an ISO 8601 string"
            )
        );
        let e = from_json::<PipelineConfig>(r#"{"calibration":null}"#, "config").unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str(), e.message.as_str()),
            (
                ErrorCode::InvalidType,
                "config.calibration",
                "expected an object, got null"
            )
        );
    }

    /// An unknown variant's name is read up to the last "`, expected ": the names listed
    /// are the type's own, the name given may hold the words.
    #[test]
    fn unknown_variant_names_hold_the_words() {
        assert_eq!(
            in_words("unknown variant `beta`, expected one of `sigmoid`, `platt`"),
            r#""beta" is not one of "sigmoid", "platt""#
        );
        assert_eq!(
            in_words("unknown variant `quantil`, expected one of `x`, expected one of `uniform`, `quantile`"),
            r#""quantil`, expected one of `x" is not one of "uniform", "quantile""#
        );
        assert_eq!(
            in_words("unknown variant `a`, expected `b` or `c`"),
            r#""a" is not one of "b", "c""#
        );
        // An unknown key holding the words of a list, of a type without fields (the lab's
        // options of `limits` alone): its path and message keep the whole key.
        let e = from_serde_message(
            "unknown field `x`, expected `y`, there are no fields",
            "options",
        );
        assert_eq!(
            (e.field.as_str(), e.message.as_str()),
            (
                "options.x`, expected `y",
                "unknown field `x`, expected `y`, there are no fields"
            )
        );
        let e = from_serde_message("unknown field `a`, there are no fields`, expected `b`", "o");
        assert_eq!(
            (e.field.as_str(), e.message.as_str()),
            (
                "o.a`, there are no fields",
                "unknown field `a`, there are no fields`, expected `b`"
            )
        );
    }

    /// A string of the wrong kind (where a number goes) or a name that is no variant is
    /// shown to its first 64 characters, as the hand-written decoders show it: serde's
    /// message held the whole string (2 MB given, 2 MB said).
    #[test]
    fn serde_strings_of_the_wrong_kind_are_shown_cut() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        enum Kind {
            Uniform,
            Quantile,
        }
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Opts {
            bins: Option<u32>,
            kind: Option<Kind>,
        }
        let long = "x".repeat(2_000_000);
        let head = "x".repeat(64);
        let e = from_json::<Opts>(&format!(r#"{{"bins": "{long}"}}"#), "options").unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str(), e.message.as_str()),
            (
                ErrorCode::InvalidType,
                "options.bins",
                format!("expected a whole number from 0 to 4294967295, got \"{head}\u{2026}\"")
                    .as_str()
            )
        );
        let e = from_json::<Opts>(&format!(r#"{{"kind": "{long}"}}"#), "options").unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str(), e.message.as_str()),
            (
                ErrorCode::UnknownMethod,
                "options.kind",
                format!("\"{head}\"... (2000000 bytes) is not one of \"Uniform\", \"Quantile\"")
                    .as_str()
            )
        );
        // Short strings whole, escapes and all (as `shown_str` writes them); cut after 64
        // characters, not bytes, and never inside an escape.
        for (given, said) in [
            (r#""a\"b\\c\n\u0000""#, r#""a\"b\\c\n\0""#.to_string()),
            (r#""é""#, r#""é""#.to_string()),
            (
                &format!(r#""{}\u001b{}""#, "é".repeat(63), "y".repeat(10)),
                format!("\"{}\\u{{1b}}\u{2026}\"", "é".repeat(63)),
            ),
        ] {
            let e = from_json::<Opts>(&format!(r#"{{"bins": {given}}}"#), "o").unwrap_err();
            let got = e.message.rsplit_once(", got ").map(|(_, g)| g.to_string());
            assert_eq!(got, Some(said), "{given}");
        }
        // What is not `{:?}`'s quoting is kept as it is.
        assert_eq!(got_words("string abc", None), "abc");
        assert_eq!(unescape_debug(r#""a\q""#), None);
    }

    #[test]
    fn serde_floats_print_as_javascript_prints_them() {
        for (rust, js) in [
            ("1.5", "1.5"),
            ("-0.25", "-0.25"),
            ("9007199254740992.0", "9007199254740992"),
            ("100000000000000000000.0", "100000000000000000000"),
            ("1000000000000000000000.0", "1e+21"),
            ("-12345000000000000000000.0", "-1.2345e+22"),
            ("0.000001", "0.000001"),
            ("0.0000001", "1e-7"),
            ("0.00000012", "1.2e-7"),
            ("inf", "Infinity"),
            ("-inf", "-Infinity"),
            ("NaN", "NaN"),
        ] {
            assert_eq!(
                got_words(&format!("floating point `{rust}`"), None),
                js,
                "{rust}"
            );
            assert_eq!(
                got_words(
                    &format!("floating point `{rust}`"),
                    Some((f64::NEG_INFINITY, f64::INFINITY))
                ),
                js,
                "{rust}"
            );
        }
        // A whole number written as a float (serde_json reads `3.0` so; the lab's reader
        // gives whole numbers as integers): said as written, with why ("got 3" for a
        // whole-number field read as a bug, in a Rust API review).
        for (rust, js) in [
            ("3.0", "3"),
            ("0.0", "0"),
            ("-0.0", "0"),
            ("1000.0", "1000"),
        ] {
            assert_eq!(got_words(&format!("floating point `{rust}`"), None), js);
            assert_eq!(
                got_words(&format!("floating point `{rust}`"), Some((0.0, 4294967295.0))),
                format!("{rust} (a whole number written with a fraction or an exponent, which a whole-number field does not read: write {js})"),
            );
        }
        // Out of the field's range: no hint that writing it whole would do (a diff
        // review's cases: "write -3" and "write 5000000000" for a u32 were refused too).
        for rust in ["-3.0", "5000000000.0"] {
            let shown = num(rust.parse().unwrap()).to_string();
            assert_eq!(
                got_words(
                    &format!("floating point `{rust}`"),
                    whole_range("a whole number from 0 to 4294967295")
                ),
                shown
            );
        }
        assert_eq!(
            whole_range("a whole number"),
            Some((f64::NEG_INFINITY, f64::INFINITY))
        );
        assert_eq!(whole_range("a number"), None);
        // And against the crate's own JavaScript printing, from Rust's Display.
        for v in [
            1e21,
            1.5e300,
            4.9e-324,
            1e-7,
            123.456,
            2f64.powi(53),
            0.1 + 0.2,
        ] {
            let shown = format!("{v}");
            let serde = if shown.contains('.') {
                shown
            } else {
                format!("{shown}.0")
            };
            assert_eq!(
                got_words(&format!("floating point `{serde}`"), None),
                num(v).to_string(),
                "{v}"
            );
        }
    }
}
