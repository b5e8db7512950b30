//! The one error type of calibrank.
//!
//! Every failure carries a stable machine-readable [`ErrorCode`] (rendered as an
//! `UPPER_SNAKE_CASE` string, the same string JavaScript callers see as `error.code`),
//! the name of the offending input field (a dotted / indexed path such as
//! `lists[1].ids[3]` or `calibration.steepness`) and a human-readable message.

use std::fmt;

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

/// `prefix` and then the map key `key` (an id, a list's name, a query id) as a field
/// path names it: `.key`, or `["key"]`, the key as `JSON.stringify` writes it, when the
/// key is empty or holds a character that would make the path ambiguous (`.`, `[`, `]`,
/// `"`, `\`): `items.doc-1.name`, but `items["README.md"].name`. With an empty
/// `prefix`, a plain key stands alone (`q1`, for a path put under its argument later by
/// [`ScoreError::within`]). The package's JavaScript writes paths by the same rule.
#[inline(never)]
pub fn key_path(prefix: &str, key: &str) -> String {
    if prefix.is_empty() && plain_key(key) {
        return key.to_string();
    }
    let mut out = String::with_capacity(prefix.len() + key.len() + 5);
    out.push_str(prefix);
    push_segment(&mut out, key);
    out
}

/// `prefix`, the map key `key` and the field `field` of its value
/// (`items["README.md"].name`), as [`key_path`] writes them.
#[inline(never)]
pub fn key_field(prefix: &str, key: &str, field: &str) -> String {
    let mut out = key_path(prefix, key);
    out.push('.');
    out.push_str(field);
    out
}

/// Appends the segment of the map key `key`, `.key` or `["key"]`, as [`key_path`] writes
/// it after a prefix (the decoders put it in front of a path found inside the key's
/// value).
#[inline(never)]
#[doc(hidden)]
pub fn push_segment(out: &mut String, key: &str) {
    if plain_key(key) {
        out.push('.');
        out.push_str(key);
    } else {
        out.push('[');
        push_json_key(out, key);
        out.push(']');
    }
}

/// Appends `v` as a JSON string literal to the path `out`, escaped as `JSON.stringify`
/// (and serde_json) escape a string without lone surrogates: `\"`, `\\`, `\b`, `\t`,
/// `\n`, `\f`, `\r`, the other characters below U+0020 as `\u00xx`, every other
/// character as it is. Small rather than fast, for a path (whose bytes it checks again):
/// the modules' JSON writer has its own (`wasm_shared::push_json_string`, tested to agree).
#[inline(never)]
#[doc(hidden)]
pub fn push_json_key(out: &mut String, v: &str) {
    // Every byte escaped is ASCII, so the bytes stay UTF-8.
    let mut b = std::mem::take(out).into_bytes();
    b.push(b'"');
    for &c in v.as_bytes() {
        let short = match c {
            b'"' | b'\\' => c,
            8 => b'b',
            9 => b't',
            10 => b'n',
            12 => b'f',
            13 => b'r',
            0..=31 => b'u',
            _ => {
                b.push(c);
                continue;
            }
        };
        b.extend_from_slice(&[b'\\', short]);
        if short == b'u' {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            let low = HEX.get(usize::from(c & 15)).copied().unwrap_or(b'0');
            b.extend_from_slice(&[b'0', b'0', b'0' + (c >> 4), low]);
        }
    }
    b.push(b'"');
    *out = String::from_utf8(b).unwrap_or_default();
}

/// Whether `key` is written `.key` in a path (not empty, none of `.[]"\` in it).
fn plain_key(key: &str) -> bool {
    !key.is_empty()
        && !key
            .bytes()
            .any(|b| matches!(b, b'.' | b'[' | b']' | b'"' | b'\\'))
}

/// Result alias used throughout the crate.
pub type Result<T> = std::result::Result<T, ScoreError>;

/// `v` printed for an error message as JavaScript's `String(v)` prints a finite number
/// ([`crate::decimal::Layout::Message`]): the shortest digits that read back as `v`, plain
/// decimal when `1e-6 <= |v| < 1e21` (`0.000001`, `123456789012345680000`), an exponent
/// otherwise (`1e-7`, `-1e+300`, `5e-324`), and `0` for `-0` too; not finite, as
/// JavaScript prints it too: `NaN`, `Infinity`, `-Infinity`. The digits come from [`crate::decimal::shortest`]
/// rather than core::fmt's float code, which then stays out of the wasm modules; where two
/// shortest forms are equally near `v` (`767927684704018.25`), it takes the even last
/// digit (`.2`, as `ryu` and ECMAScript do; Rust's `{v}` takes `.3`).
pub fn num(v: f64) -> Num {
    Num(v)
}

/// A float as [`num`] prints it.
#[derive(Debug, Clone, Copy)]
#[doc(hidden)]
pub struct Num(f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        if v.is_nan() {
            f.write_str("NaN")
        } else if v.is_infinite() {
            f.write_str(if v < 0.0 { "-Infinity" } else { "Infinity" })
        } else {
            let mut s = String::new();
            crate::decimal::push(&mut s, v, crate::decimal::Layout::Message);
            f.write_str(&s)
        }
    }
}

/// A name the caller gave (an unknown method or metric), quoted for an error message as
/// `{:?}` quotes it, its first [`NAME_SHOWN`] characters only when longer (then `...` and
/// its length in bytes): an error does not echo a name of any length back.
pub fn name(s: &str) -> Name<'_> {
    Name(s)
}

/// Characters of a name an error message shows at most (see [`name`]).
#[doc(hidden)]
pub const NAME_SHOWN: usize = 64;

/// A name as [`name`] prints it.
#[derive(Debug, Clone, Copy)]
#[doc(hidden)]
pub struct Name<'a>(&'a str);

/// `s` cut after [`NAME_SHOWN`] characters: its head, and whether anything was cut.
fn shown_head(s: &str) -> (&str, bool) {
    match s.char_indices().nth(NAME_SHOWN) {
        None => (s, false),
        Some((cut, _)) => (s.get(..cut).unwrap_or_default(), true),
    }
}

impl fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match shown_head(self.0) {
            (s, false) => quoted(s).fmt(f),
            (head, true) => write!(f, "{}... ({} bytes)", quoted(head), self.0.len()),
        }
    }
}

/// A key the caller gave (an unknown field), for an error message: in backticks, as
/// serde words it (`` `k` ``), its first [`NAME_SHOWN`] characters only when longer (then
/// `...` and its length in bytes, as [`name`]). js/wire/keys.js `unknownKeyWords` words
/// it alike.
pub fn key_name(s: &str) -> KeyName<'_> {
    KeyName(s)
}

/// A key as [`key_name`] prints it.
#[derive(Debug, Clone, Copy)]
#[doc(hidden)]
pub struct KeyName<'a>(&'a str);

impl fmt::Display for KeyName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match shown_head(self.0) {
            (s, false) => write!(f, "`{s}`"),
            (head, true) => write!(f, "`{head}`... ({} bytes)", self.0.len()),
        }
    }
}

/// A string value of the wrong kind, for an error message ("expected a number, got
/// ..."): quoted, its first [`NAME_SHOWN`] characters only when longer, then `…` inside
/// the quotes, as js/wire/values.js `shownValue` shows a value.
pub fn shown_str(s: &str) -> ShownStr<'_> {
    ShownStr(s)
}

/// A string value as [`shown_str`] prints it.
#[derive(Debug, Clone, Copy)]
#[doc(hidden)]
pub struct ShownStr<'a>(&'a str);

impl fmt::Display for ShownStr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match shown_head(self.0) {
            (s, false) => quoted(s).fmt(f),
            // The ellipsis inside the quotes: `"head…"`.
            (head, true) => {
                f.write_str("\"")?;
                escaped(f, head)?;
                f.write_str("\u{2026}\"")
            }
        }
    }
}

/// `s` in double quotes for an error message: `"`, `\`, and the control characters
/// escaped (`\n`, `\r`, `\t`, `\0`, the others as `\u{1b}`), every other character
/// as it is. `{:?}` quotes the same way strings of printable characters and controls;
/// it also escapes what its tables (4 KB of the wasm core module) call non-printable
/// (`U+00A0`, `U+200B`, unassigned code points) and the grapheme extenders (combining
/// marks, variation selectors, the zero-width joiner), which this prints as they are
/// (docs/performance-history.md, "Messages without std's formatting tables").
pub fn quoted(s: &str) -> Quoted<'_> {
    Quoted(s)
}

/// A string as [`quoted`] prints it.
#[derive(Debug, Clone, Copy)]
#[doc(hidden)]
pub struct Quoted<'a>(&'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"")?;
        escaped(f, self.0)?;
        f.write_str("\"")
    }
}

/// `s` as [`quoted`] writes it between its quotes.
fn escaped(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    let mut rest = s;
    // Runs of characters that need no escape are written whole.
    while let Some((i, c)) = rest.char_indices().find(|&(_, c)| needs_escape(c)) {
        let (head, tail) = rest.split_at_checked(i).unwrap_or((rest, ""));
        f.write_str(head)?;
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            '\0' => f.write_str("\\0")?,
            _ => write!(f, "\\u{{{:x}}}", u32::from(c))?,
        }
        rest = tail.get(c.len_utf8()..).unwrap_or_default();
    }
    f.write_str(rest)
}

fn needs_escape(c: char) -> bool {
    c == '"' || c == '\\' || c.is_control()
}

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
/// type: floating point `1.5`, expected u64` is `expected a whole number >= 0, got 1.5`,
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
        return format!(
            "expected {}, got {}",
            expected_words(expected),
            got_words(got)
        );
    }
    if let Some((n, expected)) = message
        .strip_prefix("invalid length ")
        .and_then(|rest| rest.split_once(", expected "))
    {
        return format!("expected {}, got an array of {n}", expected_words(expected));
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
        "u64" | "usize" => "a whole number >= 0",
        "i32" | "i64" | "isize" => "a whole number",
        "f32" | "f64" => "a number",
        "a sequence" => "an array",
        "a map" => "an object",
        "unit" => "null",
        "a boolean" => "true or false",
        _ if e.starts_with("struct ") || e.ends_with(" fields") => "an object",
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
fn got_words(g: &str) -> String {
    let literal = |prefix: &str| g.strip_prefix(prefix).and_then(|r| r.strip_suffix('`'));
    if let Some(x) = literal("integer `") {
        return x.to_string();
    }
    if let Some(x) = literal("floating point `") {
        // The lab's module parses floats anyway (TREC scores); the core never comes
        // here (build-pkg.sh keeps `from_serde_at` out of it).
        // `inf` and `NaN` (no digit) are kept as serde wrote them.
        return match x.parse::<f64>() {
            Ok(v) if x.bytes().any(|b| b.is_ascii_digit()) => num(v).to_string(),
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
/// (`["key"]` for a key [`key_path`] quotes), `[i]` for an array element.
fn path_text(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for segment in path {
        match segment {
            Segment::Seq { index } => {
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
        let at = path_text(e.path());
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
        assert_eq!(got_words("string abc"), "abc");
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
            ("0.0", "0"),
            ("-0.0", "0"),
            ("inf", "inf"),
            ("NaN", "NaN"),
        ] {
            assert_eq!(got_words(&format!("floating point `{rust}`")), js, "{rust}");
        }
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
                got_words(&format!("floating point `{serde}`")),
                num(v).to_string(),
                "{v}"
            );
        }
    }

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
    use std::collections::HashSet;

    /// The keys of a path made of `key_path` segments, read back (None: not such a path).
    fn read_keys(mut path: &str) -> Option<Vec<String>> {
        let mut keys = Vec::new();
        while !path.is_empty() {
            if let Some(rest) = path.strip_prefix("[\"") {
                // The JSON string runs to the first `"]` not escaped.
                let mut end = None;
                let mut escaped = false;
                for (i, c) in rest.char_indices() {
                    match c {
                        _ if escaped => escaped = false,
                        '\\' => escaped = true,
                        '"' => {
                            end = Some(i);
                            break;
                        }
                        _ => {}
                    }
                }
                let end = end?;
                let json = format!("\"{}\"", rest.get(..end)?);
                keys.push(serde_json::from_str(&json).ok()?);
                path = rest.get(end..)?.strip_prefix("\"]")?;
            } else {
                let rest = path.strip_prefix('.')?;
                let end = rest.find(['.', '[']).unwrap_or(rest.len());
                keys.push(rest.get(..end)?.to_string());
                path = rest.get(end..)?;
            }
        }
        Some(keys)
    }

    #[test]
    fn keys_that_would_make_a_path_ambiguous_are_quoted_as_json() {
        for (key, path) in [
            ("doc-1", "items.doc-1"),
            ("é 1", "items.é 1"),
            ("README.md", "items[\"README.md\"]"),
            ("a[0]", "items[\"a[0]\"]"),
            ("x]", "items[\"x]\"]"),
            ("", "items[\"\"]"),
            ("say \"hi\"", "items[\"say \\\"hi\\\"\"]"),
            ("C:\\x", "items[\"C:\\\\x\"]"),
            (
                "a.\n\u{1}\u{1f}\t\u{8}\u{c}\r",
                "items[\"a.\\n\\u0001\\u001f\\t\\b\\f\\r\"]",
            ),
        ] {
            assert_eq!(key_path("items", key), path, "{key:?}");
            assert_eq!(key_field("items", key, "name"), format!("{path}.name"));
        }
        // Alone (a path put under its argument later), a plain key has no dot.
        assert_eq!(key_path("", "q1"), "q1");
        assert_eq!(key_path("", "q.1"), "[\"q.1\"]");
        let e = ScoreError::new(
            ErrorCode::InvalidType,
            key_path(&key_path("", "q.1"), "d"),
            "x",
        );
        assert_eq!(e.within("qrels").field, "qrels[\"q.1\"].d");
        let e = ScoreError::new(
            ErrorCode::InvalidType,
            key_path(&key_path("", "q"), "d.1"),
            "x",
        );
        assert_eq!(e.within("qrels").field, "qrels.q[\"d.1\"]");
    }

    proptest::proptest! {
        #[test]
        fn a_path_of_keys_reads_back_as_those_keys(keys in proptest::collection::vec(
            proptest::prop_oneof![
                "[a-z.\\[\\]\"\\\\]{0,6}",
                ".{0,6}",
                proptest::string::string_regex("[\\x00-\\x1f.\"]{0,4}").unwrap_or_else(|_| unreachable!()),
            ],
            1..5,
        )) {
            let mut path = String::new();
            for k in &keys {
                push_segment(&mut path, k);
                // A quoted key is exactly JSON's string of it (serde_json escapes as
                // JSON.stringify does, lone surrogates aside, which Rust strings cannot hold).
                if !plain_key(k) {
                    let json = serde_json::to_string(k).unwrap_or_default();
                    let quoted = format!("[{json}]");
                    proptest::prop_assert!(path.ends_with(&quoted));
                }
            }
            proptest::prop_assert_eq!(read_keys(&path), Some(keys.clone()));
            let first = keys.first().map(String::as_str).unwrap_or_default();
            let alone = key_path("", first);
            let mut segment = String::new();
            push_segment(&mut segment, first);
            proptest::prop_assert_eq!(alone.as_str(), segment.strip_prefix('.').unwrap_or(&segment));
        }
    }

    #[test]
    fn names_in_messages_are_cut_after_64_characters() {
        assert_eq!(name("bogus").to_string(), "\"bogus\"");
        let exact = "é".repeat(NAME_SHOWN);
        assert_eq!(name(&exact).to_string(), format!("{exact:?}"));
        let long = format!("{}\u{1F600}tail", "é".repeat(NAME_SHOWN - 1));
        assert_eq!(
            name(&long).to_string(),
            format!(
                "{:?}... ({} bytes)",
                format!("{}\u{1F600}", "é".repeat(NAME_SHOWN - 1)),
                long.len()
            )
        );
        assert_eq!(name("a\"b").to_string(), "\"a\\\"b\"");
    }

    #[test]
    fn keys_and_values_in_messages_are_cut_after_64_characters() {
        assert_eq!(key_name("topK").to_string(), "`topK`");
        let long = format!("{}\u{1F600}tail", "é".repeat(NAME_SHOWN - 1));
        let head = format!("{}\u{1F600}", "é".repeat(NAME_SHOWN - 1));
        assert_eq!(
            key_name(&long).to_string(),
            format!("`{head}`... ({} bytes)", long.len())
        );
        assert_eq!(shown_str("a\nb").to_string(), "\"a\\nb\"");
        assert_eq!(shown_str(&long).to_string(), format!("\"{head}\u{2026}\""));
        // Cut, and escaped as `quoted` escapes.
        let quotes = "\"".repeat(NAME_SHOWN + 1);
        assert_eq!(
            shown_str(&quotes).to_string(),
            format!("\"{}\u{2026}\"", "\\\"".repeat(NAME_SHOWN))
        );
        let exact = "x".repeat(NAME_SHOWN);
        assert_eq!(shown_str(&exact).to_string(), format!("\"{exact}\""));
        // The names of `not_one_of`, and serde's unknown fields, cut alike.
        assert!(not_one_of(&long, &["a", "b"]).starts_with(&format!("\"{head}\"... (")));
        let e = from_serde_message(
            &format!("unknown field `{long}`, expected `a` or `b`"),
            "options",
        );
        assert_eq!(
            e.message,
            format!(
                "unknown field `{head}`... ({} bytes), expected `a` or `b`",
                long.len()
            )
        );
        let short = from_serde_message("unknown field `x`, there are no fields", "options");
        assert_eq!(short.message, "unknown field `x`, there are no fields");
    }

    /// `quoted` against `{:?}` on strings of printable characters and controls (where the
    /// two agree), and on the characters where they differ by design.
    #[test]
    fn quoted_is_debug_quoting_but_for_the_tables() {
        let samples = [
            "",
            "plain",
            "a\"b\\c",
            "tab\tnew\nline\rnul\0",
            "\u{1b}[0m\u{7f}\u{85}\u{9f}",
            "é\u{1F600}日本",
            "\"\"\\",
            "end\\",
        ];
        for s in samples {
            assert_eq!(quoted(s).to_string(), format!("{s:?}"), "{s:?}");
        }
        // Escaped by `{:?}` (its tables), kept as they are here.
        for s in [
            "\u{301}a",
            "e\u{301}",
            "\u{2764}\u{fe0f}",
            "a\u{200b}b",
            "\u{a0}",
        ] {
            assert_eq!(quoted(s).to_string(), format!("\"{s}\""));
            assert_ne!(quoted(s).to_string(), format!("{s:?}"));
        }
        // Every control character, each alone, as `{:?}` writes it.
        for c in (0u32..0x20).chain(0x7f..0xa0).filter_map(char::from_u32) {
            let s = c.to_string();
            assert_eq!(quoted(&s).to_string(), format!("{s:?}"), "{c:?}");
        }
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

    #[test]
    fn num_prints_as_javascript() {
        for (v, shown) in [
            (0.0, "0"),
            (-0.0, "0"),
            (1.0, "1"),
            (-1.5, "-1.5"),
            (0.1, "0.1"),
            (0.000001, "0.000001"),
            (1e-7, "1e-7"),
            (1e-320, "1e-320"),
            (1e300, "1e+300"),
            (-1e300, "-1e+300"),
            (1e16, "10000000000000000"),
            (123456789012345680000.0, "123456789012345680000"),
            (1e21, "1e+21"),
            (f64::MIN_POSITIVE, "2.2250738585072014e-308"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e+308"),
            (f64::MIN, "-1.7976931348623157e+308"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
        ] {
            assert_eq!(num(v).to_string(), shown);
        }
        // 767927684704018.25, halfway between the two shortest forms.
        let tie = f64::from_bits(4829498622391433362);
        assert_eq!(num(tie).to_string(), "767927684704018.2");
        assert_eq!(format!("{tie}"), "767927684704018.3");
    }

    /// `num(v)` reads back as `v` (`0` for `-0`); where it has no exponent
    /// (`1e-6 <= |v| < 1e21`), it is as short as `{v}` and equals it but for the last
    /// digit of a tie (see [`num`]). (`crate::decimal`'s tests compare it with
    /// ECMAScript's rules.)
    fn reads_back(v: f64) -> std::result::Result<(), String> {
        let (a, b) = (num(v).to_string(), format!("{v}"));
        let back: f64 = a.parse().map_err(|_| format!("{a} does not parse"))?;
        let ok = if v.is_nan() {
            a == "NaN"
        } else if v == 0.0 {
            a == "0"
        } else if (1e-6..1e21).contains(&v.abs()) {
            back.to_bits() == v.to_bits()
                && a.len() == b.len()
                && a.get(..a.len() - 1) == b.get(..b.len() - 1)
        } else {
            back.to_bits() == v.to_bits() && (v.is_infinite() || a.contains('e'))
        };
        if ok {
            Ok(())
        } else {
            Err(format!("num({v:?}) = {a}, {{}} = {b}"))
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20_000))]
        /// Any bit pattern (every exponent, subnormals, NaN payloads), and plain decimals.
        #[test]
        fn num_reads_back_as_any_float(bits in proptest::prelude::any::<u64>(), m in -1_000_000i64..1_000_000, e in -12i32..12) {
            let d = m as f64 * 10f64.powi(e);
            for v in [f64::from_bits(bits), d] {
                if let Err(e) = reads_back(v) {
                    proptest::prop_assert!(false, "{}", e);
                }
            }
        }
    }

    #[test]
    fn all_finite_names_first_bad_index() {
        let e = all_finite(&[1.0, f64::NAN, f64::INFINITY], "scores").unwrap_err();
        assert_eq!(e.code, ErrorCode::NonFiniteScore);
        assert_eq!(e.field, "scores[1]");
        assert!(all_finite(&[0.0, -1.0], "x").is_ok());
    }
}
