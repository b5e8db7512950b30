//! JSON text from the package's JavaScript, decoded into typed Rust values.
//!
//! The JavaScript layer serializes configurations and small inputs with `JSON.stringify`
//! and a replacer (js/wire/json.js) that keeps what plain JSON would lose: a non-finite
//! number becomes the string `"\u0000NaN"`, `"\u0000Infinity"` or `"\u0000-Infinity"`,
//! a function, symbol or bigint becomes `"\u0000function"` (...), and a caller's own
//! string that starts with U+0000 gets one more U+0000 in front. [`parse`] undoes that
//! into a [`Json`] tree. The core module reads the tree with the hand-written decoders of
//! [`crate::decode`] (no serde deserialization code in it); the tree is also a serde
//! [`Deserializer`], which the lab module's derived `Deserialize`s read ([`decode`]), and
//! the two agree on every tree. Either way a NaN reaches an `f64` field as NaN (and fails
//! that field's validation with its own error code), and a function where a number is
//! expected is an `INVALID_TYPE`, as it always was.
//!
//! Numbers are delivered as serde-wasm-bindgen delivered JS numbers: a safe integer is
//! an integer (`u64` or `i64`, so integer fields accept it; `-0` is `0`), anything else
//! an `f64`.
//!
//! Numbers cross exactly and without decimal parsing: the replacer leaves a safe integer
//! as JSON digits (read here with integer arithmetic) and sends any other finite number
//! as the string `"\u0000#"` followed by the 16 hexadecimal digits of its IEEE 754 bits.
//! A number with a fraction or an exponent in the text is refused (`PARSE_ERROR`): no
//! caller of the module writes one, and reading decimals exactly would bring Rust's
//! decimal-to-float tables (15 KB gzipped) into the core module. Native code that holds
//! ordinary JSON converts it with [`wire_text`] first.

use calibrank::error::{fault_error, from_serde_at, DecodeFault, ErrorCode, Result, ScoreError};
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess,
    Unexpected, VariantAccess, Visitor,
};
use std::fmt;

/// How deep arrays and objects may nest. Every valid input is far shallower (a pipeline
/// configuration is five levels deep); the limit keeps serde's recursion off the end of
/// the stack.
pub const MAX_DEPTH: usize = 64;

const TOO_DEEP: &str = "nested deeper than 64 levels";
const NOT_SAFE: &str =
    "a number other than a safe integer must come as its bits (\"\\u0000#\" and 16 hex digits)";

/// The number in a `"\u0000#"` string: 16 hexadecimal digits of its bits.
fn bits(marker: &str) -> std::result::Result<f64, &'static str> {
    let hex = marker.get(1..).unwrap_or_default();
    if hex.len() != 16 || !hex.bytes().all(|c| c.is_ascii_hexdigit()) {
        return Err("a number's bits must be 16 hex digits");
    }
    u64::from_str_radix(hex, 16)
        .map(f64::from_bits)
        .map_err(|_| "a number's bits must be 16 hex digits")
}

/// `text` (ordinary JSON) in the form [`parse`] reads: every number that is not a safe
/// integer replaced by its bits, as the package's JavaScript sends it. For native code
/// and tests (the modules never see ordinary JSON); `None` if `text` is not JSON.
#[cfg(not(target_family = "wasm"))]
pub fn wire_text(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut copied = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'"' => {
                // Skip the string, escapes included.
                i += 1;
                while let Some(&c) = b.get(i) {
                    i += if c == b'\\' { 2 } else { 1 };
                    if c == b'"' {
                        break;
                    }
                }
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while matches!(
                    b.get(i),
                    Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                ) {
                    i += 1;
                }
                let token = text.get(start..i)?;
                let v: f64 = token.parse().ok()?;
                #[allow(clippy::cast_precision_loss)]
                let safe = v.fract() == 0.0 && v.abs() < (1u64 << 53) as f64;
                if !safe || token.contains(['.', 'e', 'E']) {
                    out.push_str(text.get(copied..start)?);
                    if !safe {
                        out.push_str(&format!("\"\\u0000#{:016x}\"", v.to_bits()));
                    } else if v == 0.0 && v.is_sign_negative() {
                        out.push_str("-0");
                    } else {
                        #[allow(clippy::cast_possible_truncation)]
                        out.push_str(&(v as i64).to_string());
                    }
                    copied = i;
                }
            }
            _ => i += 1,
        }
    }
    out.push_str(text.get(copied..)?);
    Some(out)
}

/// A parsed JSON value.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number (NaN and the infinities included, from their sentinels).
    Num(f64),
    /// A string.
    Str(String),
    /// An array.
    Arr(Vec<Json>),
    /// An object, keys in their text order.
    Obj(Vec<(String, Json)>),
    /// A JavaScript value with no JSON form (`function`, `symbol`, `bigint`).
    Invalid(&'static str),
}

/// Parses `text` (see the module docs); a syntax error is `PARSE_ERROR` on `what`.
pub fn parse(text: &str, what: &str) -> Result<Json> {
    let mut p = Parser {
        s: text.as_bytes(),
        pos: 0,
    };
    let v = p.value(0).map_err(|m| {
        if m == TOO_DEEP {
            // A shape no input has, not a syntax error.
            ScoreError::new(ErrorCode::InvalidType, what, format!("the value is {m}"))
        } else {
            p.error(m, what)
        }
    })?;
    p.ws();
    if p.pos != p.s.len() {
        return Err(p.error("trailing characters", what));
    }
    Ok(v)
}

/// Parses `text` and decodes it as a `T`; errors are typed as the core's `from_json`
/// types them (unknown fields `UNKNOWN_FIELD`, unknown variants `UNKNOWN_METHOD`, ...).
pub fn from_text<T: DeserializeOwned>(text: &str, what: &str) -> Result<T> {
    let tree = parse(text, what)?;
    decode(&tree, what)
}

/// Decodes a parsed tree as a `T`; an error is on the path of the value at fault
/// (`what.recency.fiscalYear.windw`, `what.weights[2]`: see [`from_serde_at`]).
///
/// The tree's deserializer records the path itself, as the Rust API's
/// `serde_path_to_error` does over serde_json (the tests compare the two): each array
/// element, map value and variant an error passes on its way out puts its index or key
/// in front of the error's path, and so does a key that fails (an unknown field).
/// Wrapping every visitor as `serde_path_to_error` does would cost the lab module about
/// 10 KB gzipped.
pub fn decode<T: DeserializeOwned>(tree: &Json, what: &str) -> Result<T> {
    T::deserialize(tree).map_err(|e| from_serde_at(e.message(), what, e.at()))
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
}

impl Parser<'_> {
    fn error(&self, message: &str, what: &str) -> ScoreError {
        ScoreError::new(
            ErrorCode::ParseError,
            what,
            format!("invalid JSON at byte {}: {message}", self.pos),
        )
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, lit: &[u8]) -> bool {
        if self.s.get(self.pos..self.pos + lit.len()) == Some(lit) {
            self.pos += lit.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> std::result::Result<Json, &'static str> {
        self.ws();
        match self.peek() {
            Some(b'{') => {
                if depth >= MAX_DEPTH {
                    return Err(TOO_DEEP);
                }
                self.pos += 1;
                let mut fields = Vec::new();
                self.ws();
                if self.eat(b"}") {
                    return Ok(Json::Obj(fields));
                }
                loop {
                    self.ws();
                    if self.peek() != Some(b'"') {
                        return Err("expected a key");
                    }
                    let key = self.string()?;
                    self.ws();
                    if !self.eat(b":") {
                        return Err("expected ':'");
                    }
                    let v = self.value(depth + 1)?;
                    fields.push((key, v));
                    self.ws();
                    if self.eat(b",") {
                        continue;
                    }
                    if self.eat(b"}") {
                        return Ok(Json::Obj(fields));
                    }
                    return Err("expected ',' or '}'");
                }
            }
            Some(b'[') => {
                if depth >= MAX_DEPTH {
                    return Err(TOO_DEEP);
                }
                self.pos += 1;
                let mut items = Vec::new();
                self.ws();
                if self.eat(b"]") {
                    return Ok(Json::Arr(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.ws();
                    if self.eat(b",") {
                        continue;
                    }
                    if self.eat(b"]") {
                        return Ok(Json::Arr(items));
                    }
                    return Err("expected ',' or ']'");
                }
            }
            Some(b'"') => {
                let s = self.string()?;
                Ok(match s.strip_prefix('\0') {
                    None => Json::Str(s),
                    Some("NaN") => Json::Num(f64::NAN),
                    Some("Infinity") => Json::Num(f64::INFINITY),
                    Some("-Infinity") => Json::Num(f64::NEG_INFINITY),
                    Some("function") => Json::Invalid("function"),
                    Some("symbol") => Json::Invalid("symbol"),
                    Some("bigint") => Json::Invalid("bigint"),
                    Some("Map with keys that are not strings") => {
                        Json::Invalid("Map with keys that are not strings")
                    }
                    // An object of a class without fields of its own inside a
                    // configuration (js/wire/json.js `configReplacer`), which JSON would
                    // read as {}.
                    Some("a Set") => Json::Invalid("a Set"),
                    Some("an instance of a class without fields of its own") => {
                        Json::Invalid("an instance of a class without fields of its own")
                    }
                    Some(rest) if rest.starts_with('#') => Json::Num(bits(rest)?),
                    Some(rest) if rest.starts_with('\0') => Json::Str(rest.to_string()),
                    Some(_) => Json::Str(s),
                })
            }
            Some(b't') if self.eat(b"true") => Ok(Json::Bool(true)),
            Some(b'f') if self.eat(b"false") => Ok(Json::Bool(false)),
            Some(b'n') if self.eat(b"null") => Ok(Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err("expected a value"),
        }
    }

    /// A safe integer (`-?digits`, at most 2^53 in magnitude): every other number comes
    /// as its bits (see the module docs).
    fn number(&mut self) -> std::result::Result<Json, &'static str> {
        let negative = self.eat(b"-");
        let start = self.pos;
        let mut v: u64 = 0;
        while let Some(d @ b'0'..=b'9') = self.peek() {
            v = v
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(d - b'0')))
                .filter(|&v| v <= 1 << 53)
                .ok_or(NOT_SAFE)?;
            self.pos += 1;
        }
        if self.pos == start {
            return Err("invalid number");
        }
        if matches!(self.peek(), Some(b'.' | b'e' | b'E')) {
            return Err(NOT_SAFE);
        }
        // Exact: every integer up to 2^53 is an f64.
        #[allow(clippy::cast_precision_loss)]
        let x = v as f64;
        Ok(Json::Num(if negative { -x } else { x }))
    }

    fn hex4(&mut self) -> std::result::Result<u32, &'static str> {
        let digits = self
            .s
            .get(self.pos..self.pos + 4)
            .ok_or("short \\u escape")?;
        let text = std::str::from_utf8(digits).map_err(|_| "invalid \\u escape")?;
        let v = u32::from_str_radix(text, 16).map_err(|_| "invalid \\u escape")?;
        self.pos += 4;
        Ok(v)
    }

    fn string(&mut self) -> std::result::Result<String, &'static str> {
        self.pos += 1; // the opening quote
        let mut out = String::new();
        loop {
            let start = self.pos;
            while let Some(c) = self.peek() {
                if c == b'"' || c == b'\\' {
                    break;
                }
                self.pos += 1;
            }
            let run = self.s.get(start..self.pos).unwrap_or_default();
            out.push_str(std::str::from_utf8(run).map_err(|_| "invalid UTF-8")?);
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let esc = self.peek().ok_or("unterminated string")?;
                    self.pos += 1;
                    match esc {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let c = if (0xD800..0xDC00).contains(&hi) && self.eat(b"\\u") {
                                let save = self.pos;
                                let lo = self.hex4()?;
                                if (0xDC00..0xE000).contains(&lo) {
                                    char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                                } else {
                                    // A lone high surrogate followed by another escape.
                                    self.pos = save - 2;
                                    None
                                }
                            } else {
                                char::from_u32(hi)
                            };
                            // Lone surrogates become U+FFFD, as TextEncoder makes them.
                            out.push(c.unwrap_or('\u{FFFD}'));
                        }
                        _ => return Err("invalid escape"),
                    }
                }
                _ => return Err("unterminated string"),
            }
        }
    }
}

/// A decoding error: serde's message and the path of the value that failed, relative to
/// the tree decoded (`.key`, `[i]`: what serde_path_to_error records). Both decoders of
/// the tree give it: serde's here (typed by `from_serde_at`, which reads the message),
/// and the hand-written ones of [`crate::decode`] (as their `Failure`; typed by
/// [`DeError::typed`] from the [`DecodeFault`] and the key they knew when they failed,
/// with the same words). One pointer wide, so that every decoder's `Result` stays small.
#[derive(Debug, Clone, PartialEq)]
pub struct DeError(Box<Failed>);

#[derive(Debug, Clone, PartialEq)]
struct Failed {
    message: String,
    at: String,
    /// What the failure is, when a hand-written decoder made it (`None`: serde's words).
    fault: Option<DecodeFault>,
    /// The key a field fault names (empty for the others).
    name: String,
    /// An unknown key's struct's keys (empty for the other failures).
    keys: &'static [&'static str],
}

impl DeError {
    /// A failure at the value being read, in serde's words.
    #[cold]
    #[inline(never)]
    pub(crate) fn new(message: String) -> Self {
        DeError::make(None, message, "")
    }

    /// A hand-written decoder's failure at the value being read: `fault`, naming `name`
    /// (the key of an unknown, missing or repeated field), worded `message`.
    #[cold]
    #[inline(never)]
    pub(crate) fn known(fault: DecodeFault, message: String, name: &str) -> Self {
        DeError::make(Some(fault), message, name)
    }

    fn make(fault: Option<DecodeFault>, message: String, name: &str) -> Self {
        DeError(Box::new(Failed {
            message,
            at: String::new(),
            fault,
            name: name.to_string(),
            keys: &[],
        }))
    }

    /// A hand-written decoder's unknown key `name` of a struct whose keys are `keys`,
    /// worded with them ([`unknown_key_words`]).
    #[cold]
    #[inline(never)]
    pub(crate) fn unknown_key(name: &str, keys: &'static [&'static str]) -> Self {
        let mut e = DeError::make(
            Some(DecodeFault::UnknownField),
            unknown_key_words(name, keys, None),
            name,
        );
        e.0.keys = keys;
        e
    }

    /// The same error, but an unknown key of the value decoded itself (not of a value
    /// within it) also lists `extra`, a key its caller took off before decoding (an
    /// options object's `limits`).
    #[cold]
    #[inline(never)]
    pub(crate) fn also_key(mut self, extra: &str) -> Self {
        let f = &mut self.0;
        if f.fault == Some(DecodeFault::UnknownField) && !f.keys.is_empty() {
            let mut top = String::new();
            calibrank::error::push_segment(&mut top, &f.name);
            if f.at == top {
                f.message = unknown_key_words(&f.name, f.keys, Some(extra));
            }
        }
        self
    }

    /// Serde's message.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The path of the value that failed (see the type's docs).
    pub fn at(&self) -> &str {
        &self.0.at
    }

    /// What the failure is (`None`: serde's words, which `from_serde_at` reads).
    pub fn fault(&self) -> Option<DecodeFault> {
        self.0.fault
    }

    /// The typed error on `what` of a hand-written decoder's failure
    /// ([`fault_error`]; one in serde's words alone, which those decoders never make, is
    /// typed `INVALID_TYPE` on its path: serde's decoding types it by its words).
    #[cold]
    #[inline(never)]
    pub fn typed(&self, what: &str) -> ScoreError {
        let f = &self.0;
        let fault = f.fault.unwrap_or(DecodeFault::Type);
        fault_error(fault, &f.name, f.message.clone(), what, &f.at)
    }

    /// The same error one level further out, under the key `k`.
    #[cold]
    #[inline(never)]
    pub(crate) fn key(mut self, k: &str) -> Self {
        let mut segment = String::with_capacity(k.len() + 1);
        calibrank::error::push_segment(&mut segment, k);
        self.0.at.insert_str(0, &segment);
        self
    }

    /// The same error on the value decoded itself (its path forgotten: inside a value
    /// serde buffers, which serde_path_to_error cannot see into).
    pub(crate) fn here(mut self) -> Self {
        self.0.at.clear();
        self
    }

    /// The same error one level further out, under the index `i`.
    #[cold]
    #[inline(never)]
    pub(crate) fn index(mut self, i: usize) -> Self {
        self.0.at.insert_str(0, &format!("[{i}]"));
        self
    }
}

/// The words of an unknown key `k` of a struct whose keys are `keys` (and `extra`, a key
/// taken off before decoding): serde's (the key cut after 64 characters,
/// [`calibrank::error::key_name`]), listing the keys as serde lists them (one "`a`",
/// two "`a` or `b`", more "one of `a`, `b`, `c`"). js/wire/keys.js words the package's
/// JavaScript's alike, and adds the nearest key to either's when one is near ("; did you
/// mean `topK`?").
pub(crate) fn unknown_key_words(k: &str, keys: &[&str], extra: Option<&str>) -> String {
    let n = keys.len() + usize::from(extra.is_some());
    use std::fmt::Write as _;
    let mut m = String::from("unknown field ");
    let _ = write!(m, "{}", calibrank::error::key_name(k));
    m.push_str(if n == 0 {
        ", there are no fields"
    } else if n <= 2 {
        ", expected "
    } else {
        ", expected one of "
    });
    for (i, key) in keys.iter().chain(&extra).enumerate() {
        if i > 0 {
            m.push_str(if n == 2 { " or " } else { ", " });
        }
        m.push('`');
        m.push_str(key);
        m.push('`');
    }
    m
}

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        DeError::new(msg.to_string())
    }
}

/// The largest integer a JS number holds exactly.
const MAX_SAFE: f64 = 9_007_199_254_740_991.0;

impl<'de> Deserializer<'de> for &'de Json {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> std::result::Result<V::Value, DeError> {
        match self {
            Json::Null => visitor.visit_unit(),
            Json::Bool(b) => visitor.visit_bool(*b),
            Json::Num(x) => {
                let x = *x;
                if x.fract() == 0.0 && x.abs() <= MAX_SAFE {
                    if x >= 0.0 {
                        visitor.visit_u64(x as u64)
                    } else {
                        visitor.visit_i64(x as i64)
                    }
                } else {
                    visitor.visit_f64(x)
                }
            }
            Json::Str(s) => visitor.visit_borrowed_str(s),
            Json::Arr(items) => {
                let mut seq = Seq {
                    items: items.iter().enumerate(),
                };
                let value = visitor.visit_seq(&mut seq)?;
                // Values the visitor left (a struct read from the sequence of its fields,
                // given more): refused, as serde_json refuses them and as
                // `decode::fields` words it (they were dropped).
                let left = seq.items.len();
                if left > 0 {
                    return Err(de::Error::custom(format_args!(
                        "invalid length {}, expected {} fields",
                        items.len(),
                        items.len() - left
                    )));
                }
                Ok(value)
            }
            Json::Obj(fields) => visitor.visit_map(Map {
                fields: fields.iter(),
                value: None,
            }),
            Json::Invalid(kind) => Err(de::Error::invalid_type(Unexpected::Other(kind), &visitor)),
        }
    }

    fn deserialize_f64<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> std::result::Result<V::Value, DeError> {
        match self {
            Json::Num(x) => visitor.visit_f64(*x),
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_f32<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> std::result::Result<V::Value, DeError> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> std::result::Result<V::Value, DeError> {
        match self {
            Json::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> std::result::Result<V::Value, DeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> std::result::Result<V::Value, DeError> {
        match self {
            Json::Str(s) => visitor.visit_enum(Enum {
                key: s,
                value: None,
            }),
            Json::Obj(fields) if fields.len() == 1 => match fields.first() {
                Some((k, v)) => visitor.visit_enum(Enum {
                    key: k,
                    value: Some(v),
                }),
                None => Err(de::Error::custom("an enum object has one key")),
            },
            _ => Err(de::Error::invalid_type(self.unexpected(), &visitor)),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> std::result::Result<V::Value, DeError> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 char str string
        bytes byte_buf unit unit_struct seq tuple
        tuple_struct map struct identifier
    }
}

impl Json {
    fn unexpected(&self) -> Unexpected<'_> {
        match self {
            Json::Null => Unexpected::Unit,
            Json::Bool(b) => Unexpected::Bool(*b),
            Json::Num(x) => Unexpected::Float(*x),
            Json::Str(s) => Unexpected::Str(s),
            Json::Arr(_) => Unexpected::Seq,
            Json::Obj(_) => Unexpected::Map,
            Json::Invalid(kind) => Unexpected::Other(kind),
        }
    }

    /// The value of `key` when this is an object that has it.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

struct Seq<'de> {
    items: std::iter::Enumerate<std::slice::Iter<'de, Json>>,
}

impl<'de> SeqAccess<'de> for Seq<'de> {
    type Error = DeError;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> std::result::Result<Option<T::Value>, DeError> {
        self.items
            .next()
            .map(|(i, v)| seed.deserialize(v).map_err(|e| e.index(i)))
            .transpose()
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct Map<'de> {
    fields: std::slice::Iter<'de, (String, Json)>,
    value: Option<&'de (String, Json)>,
}

impl<'de> MapAccess<'de> for Map<'de> {
    type Error = DeError;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> std::result::Result<Option<K::Value>, DeError> {
        match self.fields.next() {
            Some(entry) => {
                self.value = Some(entry);
                let k = entry.0.as_str();
                seed.deserialize(de::value::BorrowedStrDeserializer::<DeError>::new(k))
                    .map(Some)
                    .map_err(|e| e.key(k))
            }
            None => Ok(None),
        }
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> std::result::Result<V::Value, DeError> {
        match self.value.take() {
            Some((k, v)) => seed.deserialize(v).map_err(|e| e.key(k)),
            None => Err(de::Error::custom("a map value without its key")),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.fields.len())
    }
}

/// A variant: its name, and its value (`None`: given as a bare name, a unit variant).
struct Enum<'de> {
    key: &'de str,
    value: Option<&'de Json>,
}

impl<'de> EnumAccess<'de> for Enum<'de> {
    type Error = DeError;
    type Variant = Self;
    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> std::result::Result<(V::Value, Self), DeError> {
        let v = seed.deserialize(de::value::BorrowedStrDeserializer::<DeError>::new(self.key))?;
        Ok((v, self))
    }
}

impl<'de> Enum<'de> {
    /// The variant's value, or (a bare name) serde's error for a variant that is not a
    /// unit variant; errors under the variant's name.
    fn content<T>(
        self,
        expected: &str,
        read: impl FnOnce(&'de Json) -> std::result::Result<T, DeError>,
    ) -> std::result::Result<T, DeError> {
        match self.value {
            Some(v) => read(v),
            None => Err(de::Error::invalid_type(Unexpected::UnitVariant, &expected)),
        }
        .map_err(|e| e.key(self.key))
    }
}

impl<'de> VariantAccess<'de> for Enum<'de> {
    type Error = DeError;
    fn unit_variant(self) -> std::result::Result<(), DeError> {
        match self.value {
            None | Some(Json::Null) => Ok(()),
            Some(other) => Err(DeError::key(
                de::Error::invalid_type(other.unexpected(), &"a unit variant"),
                self.key,
            )),
        }
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> std::result::Result<T::Value, DeError> {
        self.content("newtype variant", |v| seed.deserialize(v))
    }
    fn tuple_variant<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> std::result::Result<V::Value, DeError> {
        self.content("tuple variant", |v| v.deserialize_any(visitor))
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> std::result::Result<V::Value, DeError> {
        self.content("struct variant", |v| v.deserialize_any(visitor))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[test]
    fn serde_messages_said_for_a_javascript_caller() {
        #[derive(Deserialize, Debug)]
        #[serde(rename_all = "lowercase")]
        #[allow(dead_code)]
        enum Strategy {
            Uniform,
            Quantile,
        }
        #[derive(Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Opts {
            seed: Option<u64>,
            folds: Option<usize>,
            n: Option<u32>,
            k: Option<f64>,
            list: Option<Vec<f64>>,
            map: Option<std::collections::BTreeMap<String, f64>>,
            strategy: Option<Strategy>,
        }
        let m = |text: &str| from_text::<Opts>(text, "options").unwrap_err();
        let e = m(r#"{"seed": -1}"#);
        assert_eq!(
            (e.field.as_str(), e.message.as_str()),
            (
                "options.seed",
                "expected a whole number from 0 to 9007199254740991, got -1"
            )
        );
        // The cases the review of the error messages met, each as a JavaScript caller
        // wrote it: no Rust type, no serde word, numbers as `String(v)` prints them (the
        // numbers this text form carries as bits, 1.5 or 2^53, are in tests/js/suite/crossing.js).
        for (text, message) in [
            (
                r#"{"folds": "x"}"#,
                r#"expected a whole number from 0 to 9007199254740991, got "x""#,
            ),
            (
                r#"{"n": -3}"#,
                "expected a whole number from 0 to 4294967295, got -3",
            ),
            (r#"{"k": true}"#, "expected a number, got true"),
            (r#"{"k": [1]}"#, "expected a number, got an array"),
            (r#"{"list": {"a": 1}}"#, "expected an array, got an object"),
            (r#"{"list": 5}"#, "expected an array, got 5"),
            (r#"{"map": [60]}"#, "expected an object, got an array"),
            (r#"{"strategy": 1}"#, "expected a name (a string), got 1"),
            (
                r#"{"strategy": "equal"}"#,
                r#""equal" is not one of "uniform", "quantile""#,
            ),
        ] {
            assert_eq!(m(text).message, message, "{text}");
        }
        let null = m(r#"{"list": [null]}"#);
        assert_eq!(
            (null.field.as_str(), null.message.as_str()),
            ("options.list[0]", "expected a number, got null")
        );
        // Field messages stay as they are (their words type the error).
        assert_eq!(
            m(r#"{"x": 1}"#).message,
            "unknown field `x`, expected one of `seed`, `folds`, `n`, `k`, `list`, `map`, `strategy`"
        );
    }

    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    struct Cfg {
        k: Option<f64>,
        top_n: Option<u32>,
        name: Option<String>,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    #[allow(dead_code)]
    enum Shape {
        Unit,
        Newtype(u32),
        Tuple(u32, bool),
        Struct { n: u32 },
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    #[allow(dead_code)]
    struct Outer {
        shapes: Option<Vec<Shape>>,
        map: Option<std::collections::BTreeMap<String, Vec<Cfg>>>,
        inner: Option<Cfg>,
    }

    /// The tree's own path tracking gives what `serde_path_to_error` gives (the Rust
    /// API's `from_json`), for variants of every kind too.
    #[test]
    fn paths_as_serde_path_to_error_records_them() {
        let cases = [
            (r#"{"inner": {"topN": "x"}}"#, "config.inner.topN"),
            (r#"{"inner": {"tpN": 1}}"#, "config.inner.tpN"),
            (r#"{"innr": {}}"#, "config.innr"),
            (r#"{"inner": {}, "inner": {}}"#, "config.inner"),
            (
                r#"{"map": {"a": [], "b": [{}, {"k": true}]}}"#,
                "config.map.b[1].k",
            ),
            (r#"{"shapes": ["unit", "sphere"]}"#, "config.shapes[1]"),
            (r#"{"shapes": [{"unit": 1}]}"#, "config.shapes[0].unit"),
            (r#"{"shapes": ["newtype"]}"#, "config.shapes[0].newtype"),
            (
                r#"{"shapes": [{"newtype": -1}]}"#,
                "config.shapes[0].newtype",
            ),
            (r#"{"shapes": ["tuple"]}"#, "config.shapes[0].tuple"),
            (
                r#"{"shapes": [{"tuple": [1, 2]}]}"#,
                "config.shapes[0].tuple[1]",
            ),
            (r#"{"shapes": ["struct"]}"#, "config.shapes[0].struct"),
            (
                r#"{"shapes": [{"struct": {"n": true}}]}"#,
                "config.shapes[0].struct.n",
            ),
            (
                r#"{"shapes": [{"struct": {"x": 1}}]}"#,
                "config.shapes[0].struct.x",
            ),
            (
                r#"{"shapes": [{"struct": {}}]}"#,
                "config.shapes[0].struct.n",
            ),
            (
                r#"{"shapes": [{"struct": {"n": 1}, "unit": null}]}"#,
                "config.shapes[0]",
            ),
            (r#"{"shapes": 3}"#, "config.shapes"),
        ];
        for (text, field) in cases {
            let tree = parse(text, "config").unwrap();
            let ours = decode::<Outer>(&tree, "config").unwrap_err();
            let (e, at) = calibrank::error::deserialize_at::<_, Outer>(&tree).unwrap_err();
            let reference = from_serde_at(e.message(), "config", &at);
            assert_eq!(
                (ours.code, &ours.field),
                (reference.code, &reference.field),
                "{text}"
            );
            assert_eq!(ours.field, field, "{text}");
        }
    }

    #[test]
    fn sentinels_round_trip() {
        let t = parse(
            r#"[1, "\u0000NaN", "\u0000-Infinity", "\u0000\u0000x", "\u0000bigint", -0, "\u0000#3f647ae147ae147b"]"#,
            "x",
        )
        .unwrap();
        let Json::Arr(v) = t else { panic!() };
        assert!(matches!(v[1], Json::Num(x) if x.is_nan()));
        assert_eq!(v[2], Json::Num(f64::NEG_INFINITY));
        assert_eq!(v[3], Json::Str("\0x".into()));
        assert_eq!(v[4], Json::Invalid("bigint"));
        assert_eq!(v[6], Json::Num(0.0025));
    }

    #[test]
    fn typed_decode_and_errors() {
        let c: Cfg = from_text(r#"{"k":"\u0000NaN","topN":3}"#, "config").unwrap();
        assert!(c.k.unwrap().is_nan());
        assert_eq!(c.top_n, Some(3));
        let e = from_text::<Cfg>(r#"{"kk":1}"#, "config").unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::UnknownField, "config.kk")
        );
        let e = from_text::<Cfg>(r#"{"topN":"\u0000#3ff8000000000000"}"#, "config").unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidType);
        let e = from_text::<Cfg>(r#"{"name":"\u0000function"}"#, "config").unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidType);
        let e = from_text::<Cfg>(r#"{"k":1"#, "config").unwrap_err();
        assert_eq!(e.code, ErrorCode::ParseError);
    }

    #[test]
    fn numbers_cross_as_safe_integers_or_bits() {
        let num = |t: &str| {
            parse(t, "x").map(|j| match j {
                Json::Num(x) => x,
                other => panic!("{other:?}"),
            })
        };
        assert_eq!(num("9007199254740992").unwrap(), 9007199254740992.0);
        assert_eq!(num("-12").unwrap(), -12.0);
        assert!(num("-0").unwrap().is_sign_negative());
        assert_eq!(num(r#""\u0000#3fb999999999999a""#).unwrap(), 0.1);
        assert_eq!(num(r#""\u0000#c06fe00000000000""#).unwrap(), -255.0);
        for bad in [
            "1.5",
            "1e3",
            "2E-1",
            "9007199254740993",
            "99999999999999999999",
            "-",
            "-a",
        ] {
            let e = parse(bad, "x").unwrap_err();
            assert_eq!(
                (e.code, e.field.as_str()),
                (ErrorCode::ParseError, "x"),
                "{bad}"
            );
        }
        for bad in [
            r#""\u0000#3fb9""#,
            r#""\u0000#3fb999999999999g""#,
            r#""\u0000#+fb999999999999a""#,
        ] {
            assert_eq!(
                parse(bad, "x").unwrap_err().code,
                ErrorCode::ParseError,
                "{bad}"
            );
        }
    }

    #[test]
    fn wire_text_sends_what_the_replacer_sends() {
        let t =
            wire_text(r#"{"a": [1.5, -0.0, 2.0, 1e21, -3, 9007199254740993], "s": "1.5 \" 2.5"}"#)
                .unwrap();
        assert_eq!(
            t,
            r#"{"a": ["\u0000#3ff8000000000000", -0, 2, "\u0000#444b1ae4d6e2ef50", -3, "\u0000#4340000000000000"], "s": "1.5 \" 2.5"}"#
        );
        let Json::Obj(o) = parse(&t, "x").unwrap() else {
            panic!()
        };
        let Some((_, Json::Arr(a))) = o.first() else {
            panic!()
        };
        assert_eq!(a.first(), Some(&Json::Num(1.5)));
        assert_eq!(a.get(3), Some(&Json::Num(1e21)));
        assert_eq!(
            wire_text("[1.5"),
            Some(r#"["\u0000#3ff8000000000000""#.to_string())
        );
        assert_eq!(wire_text("[1.2.3]"), None);
    }

    #[test]
    fn escapes_and_depth() {
        let t = parse(r#""a\n\u00e9\ud83d\ude00\ud800x""#, "s").unwrap();
        assert_eq!(t, Json::Str("a\n\u{e9}\u{1F600}\u{FFFD}x".into()));
        let deep = "[".repeat(70) + &"]".repeat(70);
        assert_eq!(parse(&deep, "x").unwrap_err().code, ErrorCode::InvalidType);
    }

    /// 64 levels of arrays or objects are read, 65 refused (`MAX_DEPTH`).
    #[test]
    fn depth_at_its_limit() {
        let arrays = |n: usize| "[".repeat(n) + &"]".repeat(n);
        let objects = |n: usize| "{\"a\":".repeat(n) + "1" + &"}".repeat(n);
        for text in [arrays(64), objects(64)] {
            assert!(parse(&text, "x").is_ok(), "{text}");
        }
        for text in [arrays(65), objects(65)] {
            let e = parse(&text, "x").unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidType);
            assert!(
                e.message.contains("nested deeper than 64 levels"),
                "{}",
                e.message
            );
        }
    }

    /// A lone high surrogate escape becomes U+FFFD, and the escape after it is read as its
    /// own character (the parser steps back to it).
    #[test]
    fn a_lone_surrogate_then_an_escape() {
        assert_eq!(
            parse(r#""\ud800\u0001""#, "x").unwrap(),
            Json::Str("\u{FFFD}\u{1}".into())
        );
        assert_eq!(
            parse(r#""\udbff\n""#, "x").unwrap(),
            Json::Str("\u{FFFD}\n".into())
        );
    }
}
