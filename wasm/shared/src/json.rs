//! JSON text from the package's JavaScript, decoded into typed Rust values.
//!
//! The JavaScript layer serializes configurations and small inputs with `JSON.stringify`
//! and a replacer (js/wire.js) that keeps what plain JSON would lose: a non-finite
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

use calibrank::error::{from_serde_message, ErrorCode, Result, ScoreError};
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, IntoDeserializer, MapAccess,
    SeqAccess, Unexpected, VariantAccess, Visitor,
};
use std::fmt;

/// How deep arrays and objects may nest. Every valid input is far shallower (a pipeline
/// configuration is five levels deep); the limit keeps serde's recursion off the end of
/// the stack.
pub const MAX_DEPTH: usize = 64;

const TOO_DEEP: &str = "nested deeper than 64 levels";

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

/// Decodes a parsed tree as a `T`.
pub fn decode<T: DeserializeOwned>(tree: &Json, what: &str) -> Result<T> {
    T::deserialize(tree).map_err(|e| from_serde_message(&e.0, what))
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

    fn number(&mut self) -> std::result::Result<Json, &'static str> {
        let start = self.pos;
        while matches!(
            self.peek(),
            Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
        ) {
            self.pos += 1;
        }
        let text = std::str::from_utf8(self.s.get(start..self.pos).unwrap_or_default())
            .map_err(|_| "invalid number")?;
        text.parse::<f64>()
            .map(Json::Num)
            .map_err(|_| "invalid number")
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

/// A deserialization error: serde's message, typed by `from_serde_message`.
#[derive(Debug)]
pub struct DeError(pub String);

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        DeError(msg.to_string())
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
            Json::Arr(items) => visitor.visit_seq(Seq {
                items: items.iter(),
            }),
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
            Json::Str(s) => visitor.visit_enum(s.as_str().into_deserializer()),
            Json::Obj(fields) if fields.len() == 1 => match fields.first() {
                Some((k, v)) => visitor.visit_enum(Enum { key: k, value: v }),
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
    items: std::slice::Iter<'de, Json>,
}

impl<'de> SeqAccess<'de> for Seq<'de> {
    type Error = DeError;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> std::result::Result<Option<T::Value>, DeError> {
        self.items.next().map(|v| seed.deserialize(v)).transpose()
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct Map<'de> {
    fields: std::slice::Iter<'de, (String, Json)>,
    value: Option<&'de Json>,
}

impl<'de> MapAccess<'de> for Map<'de> {
    type Error = DeError;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> std::result::Result<Option<K::Value>, DeError> {
        match self.fields.next() {
            Some((k, v)) => {
                self.value = Some(v);
                seed.deserialize(de::value::BorrowedStrDeserializer::new(k))
                    .map(Some)
            }
            None => Ok(None),
        }
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> std::result::Result<V::Value, DeError> {
        match self.value.take() {
            Some(v) => seed.deserialize(v),
            None => Err(de::Error::custom("a map value without its key")),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.fields.len())
    }
}

struct Enum<'de> {
    key: &'de str,
    value: &'de Json,
}

impl<'de> EnumAccess<'de> for Enum<'de> {
    type Error = DeError;
    type Variant = &'de Json;
    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> std::result::Result<(V::Value, &'de Json), DeError> {
        let v = seed.deserialize(de::value::BorrowedStrDeserializer::<DeError>::new(self.key))?;
        Ok((v, self.value))
    }
}

impl<'de> VariantAccess<'de> for &'de Json {
    type Error = DeError;
    fn unit_variant(self) -> std::result::Result<(), DeError> {
        match self {
            Json::Null => Ok(()),
            other => Err(de::Error::invalid_type(
                other.unexpected(),
                &"a unit variant",
            )),
        }
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> std::result::Result<T::Value, DeError> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> std::result::Result<V::Value, DeError> {
        self.deserialize_any(visitor)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> std::result::Result<V::Value, DeError> {
        self.deserialize_any(visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    struct Cfg {
        k: Option<f64>,
        top_n: Option<u32>,
        name: Option<String>,
    }

    #[test]
    fn sentinels_round_trip() {
        let t = parse(
            r#"[1, "\u0000NaN", "\u0000-Infinity", "\u0000\u0000x", "\u0000bigint", -0, 2.5e-3]"#,
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
        let e = from_text::<Cfg>(r#"{"topN":1.5}"#, "config").unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidType);
        let e = from_text::<Cfg>(r#"{"name":"\u0000function"}"#, "config").unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidType);
        let e = from_text::<Cfg>(r#"{"k":1"#, "config").unwrap_err();
        assert_eq!(e.code, ErrorCode::ParseError);
    }

    #[test]
    fn escapes_and_depth() {
        let t = parse(r#""a\n\u00e9\ud83d\ude00\ud800x""#, "s").unwrap();
        assert_eq!(t, Json::Str("a\n\u{e9}\u{1F600}\u{FFFD}x".into()));
        let deep = "[".repeat(70) + &"]".repeat(70);
        assert_eq!(parse(&deep, "x").unwrap_err().code, ErrorCode::InvalidType);
    }
}
