//! Reading a [`Calibration`]: serde's internally tagged enum (`method` names the
//! variant), except that an object without `method` is a sigmoid, its parameters as
//! `calibrate` takes them (`{"threshold": 0.02}`).
//!
//! serde's derive buffers the object (or the array, tag first), then reads the variant's
//! fields from that buffer, and words their errors from it. This reader does the same:
//! it buffers each value as it was delivered (`null` apart from an absent option, a whole
//! number apart from a float, repeated keys and their order kept), reads the tag as the
//! derive reads a variant's name or index, and, once the deserializer has returned, reads
//! the rest with the variant's own derived type ([`Sigmoid`], [`PlattModel`],
//! [`IsotonicModel`]). Given `method`, every value and every error, its position in a
//! JSON text included, is the derive's for what JSON delivers (strings, numbers, `true`,
//! `false`, `null`, arrays and objects with string keys: serde_json, the wasm modules'
//! JSON trees), but that a fault inside a field's value says where it is (``in `.a`: ``
//! before the derive's words, which the derive, reading its buffer, could not say; the
//! typed error's field `config.calibration.a`); without it, those of
//! `{"method": "sigmoid", ...}`. tests/calibration_serde.rs
//! compares the two readers. A format that delivers other kinds (RON's characters and
//! enums, a key given as a number) may be worded differently. Nothing here can fail but
//! through the deserializer's errors.

use super::config::Calibration;
use crate::calibrate::{IsotonicModel, PlattModel, Sigmoid};
use serde::de::value::{MapDeserializer, SeqAccessDeserializer, SeqDeserializer};
use serde::de::{
    self, Deserialize, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Unexpected, Visitor,
};
use std::fmt;
use std::marker::PhantomData;

const TAG: &str = "method";
const VARIANTS: &[&str] = &["sigmoid", "platt", "isotonic"];

/// Reads a calibration from `d` (the body of [`Calibration`]'s `Deserialize`): the
/// fields are read after `d` has returned, as the derive reads them (a JSON text's
/// errors then carry the derive's positions).
pub(super) fn calibration<'de, D: Deserializer<'de>>(d: D) -> Result<Calibration, D::Error> {
    let (tag, rest) = d.deserialize_any(Outer)?;
    match tag {
        Some(tag) => read(tag, rest),
        None => bare(rest),
    }
}

/// A sigmoid given without `method`: read as [`Sigmoid`] is, but an unknown key's error
/// lists `method` among the keys (`{"metod": "platt", ...}` was "unknown field `metod`,
/// expected `threshold` or `steepness`", which never named the key meant; the package
/// then adds "did you mean `method`?"). The keys before the first unknown one are read
/// first, so that their errors come first, as the derive reads keys in order.
///
/// With a fitted model's key among them (`a`, `b`, `x`, `y`), the first key no
/// calibration has is said first (`{"x": [..], "y": [..], "methd": "isotonic"}`: `methd`,
/// not `x`).
fn bare<E: de::Error>(rest: Buf) -> Result<Calibration, E> {
    const LISTED: &[&str] = &["method", "threshold", "steepness"];
    const MODELS: &[&str] = &["a", "b", "x", "y"];
    // The unknown key said, and whether the keys before it are read first.
    let mut said: Option<(String, bool)> = None;
    let mut rest = rest;
    if let Buf::Map(entries) = &mut rest {
        // Keys as strings only (another kind, from a format other than JSON, is left to
        // the derive).
        let key = |b: &Buf| match b {
            Buf::Str(s) => Some(s.clone()),
            _ => None,
        };
        if entries.iter().all(|(k, _)| matches!(k, Buf::Str(_))) {
            let is = |set: &[&str], k: &Buf| matches!(k, Buf::Str(s) if set.contains(&s.as_str()));
            let model = entries.iter().any(|(k, _)| is(MODELS, k));
            let stray = entries
                .iter()
                .position(|(k, _)| !is(LISTED, k) && !is(MODELS, k));
            let found = match (model, stray) {
                (true, Some(i)) => Some((i, false)),
                _ => entries
                    .iter()
                    .position(|(k, _)| !is(LISTED, k))
                    .map(|i| (i, true)),
            };
            if let Some((i, first)) = found {
                said = entries.get(i).and_then(|(k, _)| key(k)).map(|k| (k, first));
                entries.truncate(i);
            }
        }
    }
    match said {
        Some((k, false)) => Err(E::unknown_field(&k, LISTED)),
        _ => {
            let s = placed::<Sigmoid, E>(rest)?;
            match said {
                Some((k, _)) => Err(E::unknown_field(&k, LISTED)),
                None => Ok(s.into()),
            }
        }
    }
}

/// The tag, read as the derive reads a variant's identifier: a name, or its index (the
/// variants' order, `VARIANTS`).
#[derive(Clone, Copy)]
enum Tag {
    Sigmoid,
    Platt,
    Isotonic,
}
const TAGS: [Tag; 3] = [Tag::Sigmoid, Tag::Platt, Tag::Isotonic];

/// The tag named `v` (`VARIANTS`' names).
fn named(v: &[u8]) -> Option<Tag> {
    let i = VARIANTS.iter().position(|n| n.as_bytes() == v)?;
    TAGS.get(i).copied()
}

impl<'de> Deserialize<'de> for Tag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Tag;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("variant identifier")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Tag, E> {
                match usize::try_from(v).ok().and_then(|i| TAGS.get(i)) {
                    Some(&t) => Ok(t),
                    None => Err(E::invalid_value(
                        Unexpected::Unsigned(v),
                        &"variant index 0 <= i < 3",
                    )),
                }
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Tag, E> {
                named(v.as_bytes()).ok_or_else(|| E::unknown_variant(v, VARIANTS))
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Tag, E> {
                named(v).ok_or_else(|| E::unknown_variant(&String::from_utf8_lossy(v), VARIANTS))
            }
        }
        d.deserialize_identifier(V)
    }
}

/// A value as it was delivered (serde's own buffer is private).
enum Buf {
    Unit,
    None,
    Some(Box<Buf>),
    Bool(bool),
    U64(u64),
    I64(i64),
    F64(f64),
    Char(char),
    Str(String),
    Bytes(Vec<u8>),
    Seq(Vec<Buf>),
    Map(Vec<(Buf, Buf)>),
}

impl<'de> Deserialize<'de> for Buf {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(Keep)
    }
}

/// Buffers whatever it is given.
struct Keep;

impl<'de> Visitor<'de> for Keep {
    type Value = Buf;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A value that is not JSON (a function given from JavaScript) is refused here as
        // "expected JSON, got function", as the core's own readers word it.
        f.write_str("JSON")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Buf, E> {
        Ok(Buf::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Buf, E> {
        Ok(Buf::I64(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Buf, E> {
        Ok(Buf::U64(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Buf, E> {
        Ok(Buf::F64(v))
    }
    fn visit_char<E>(self, v: char) -> Result<Buf, E> {
        Ok(Buf::Char(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Buf, E> {
        Ok(Buf::Str(v.into()))
    }
    fn visit_string<E>(self, v: String) -> Result<Buf, E> {
        Ok(Buf::Str(v))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<Buf, E> {
        Ok(Buf::Bytes(v.into()))
    }
    fn visit_byte_buf<E>(self, v: Vec<u8>) -> Result<Buf, E> {
        Ok(Buf::Bytes(v))
    }
    fn visit_unit<E>(self) -> Result<Buf, E> {
        Ok(Buf::Unit)
    }
    fn visit_none<E>(self) -> Result<Buf, E> {
        Ok(Buf::None)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Buf, D::Error> {
        Buf::deserialize(d).map(|b| Buf::Some(Box::new(b)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Buf, A::Error> {
        let mut items = Vec::new();
        while let Some(x) = seq.next_element()? {
            items.push(x);
        }
        Ok(Buf::Seq(items))
    }
    /// serde's buffer refuses an enum with these words.
    fn visit_enum<A: de::EnumAccess<'de>>(self, _: A) -> Result<Buf, A::Error> {
        Err(de::Error::custom(
            "untagged and internally tagged enums do not support enum input",
        ))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Buf, A::Error> {
        let mut entries = Vec::new();
        while let Some(entry) = map.next_entry()? {
            entries.push(entry);
        }
        Ok(Buf::Map(entries))
    }
}

/// Replays a buffered value to a visitor, with errors of type `E`.
struct Replay<E> {
    buf: Buf,
    error: PhantomData<E>,
}

fn replay<E>(buf: Buf) -> Replay<E> {
    Replay {
        buf,
        error: PhantomData,
    }
}

impl<'de, E: de::Error> IntoDeserializer<'de, E> for Replay<E> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de, E: de::Error> Deserializer<'de> for Replay<E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self.buf {
            Buf::Unit => visitor.visit_unit(),
            Buf::None => visitor.visit_none(),
            Buf::Some(b) => visitor.visit_some(replay::<E>(*b)),
            Buf::Bool(v) => visitor.visit_bool(v),
            Buf::U64(v) => visitor.visit_u64(v),
            Buf::I64(v) => visitor.visit_i64(v),
            Buf::F64(v) => visitor.visit_f64(v),
            Buf::Char(v) => visitor.visit_char(v),
            Buf::Str(v) => visitor.visit_string(v),
            Buf::Bytes(v) => visitor.visit_byte_buf(v),
            Buf::Seq(items) => {
                let mut seq = SeqDeserializer::new(items.into_iter().map(replay::<E>));
                let value = visitor.visit_seq(&mut seq)?;
                seq.end()?;
                Ok(value)
            }
            Buf::Map(entries) => {
                let mut map = MapDeserializer::new(
                    entries
                        .into_iter()
                        .map(|(k, v)| (replay::<E>(k), replay::<E>(v))),
                );
                let value = visitor.visit_map(&mut map)?;
                map.end()?;
                Ok(value)
            }
        }
    }

    /// As serde's buffer answers it: an absent value, `Some`, `null`, or any other value
    /// as present.
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self.buf {
            Buf::None => visitor.visit_none(),
            Buf::Some(b) => visitor.visit_some(replay::<E>(*b)),
            Buf::Unit => visitor.visit_unit(),
            other => visitor.visit_some(replay::<E>(other)),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// The outer reading: the derive's buffering, with the tag defaulted for an object.
struct Outer;

impl<'de> Visitor<'de> for Outer {
    type Value = (Option<Tag>, Buf);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("internally tagged enum Calibration")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(Option<Tag>, Buf), A::Error> {
        let mut tag = None;
        let mut entries = Vec::new();
        while let Some(k) = map.next_key::<Buf>()? {
            if matches!(&k, Buf::Str(s) if s == TAG)
                || matches!(&k, Buf::Bytes(b) if b == TAG.as_bytes())
            {
                if tag.is_some() {
                    return Err(de::Error::duplicate_field(TAG));
                }
                tag = Some(map.next_value::<Tag>()?);
            } else {
                let v = map.next_value::<Buf>()?;
                entries.push((k, v));
            }
        }
        Ok((tag, Buf::Map(entries)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(Option<Tag>, Buf), A::Error> {
        let tag = match seq.next_element::<Tag>()? {
            Some(t) => t,
            None => return Err(de::Error::missing_field(TAG)),
        };
        Ok((
            Some(tag),
            Buf::deserialize(SeqAccessDeserializer::new(seq))?,
        ))
    }
}

/// The variant's fields (the buffer without its tag), read as serde's derive reads them
/// from its own buffer, by the type of the same fields, defaults and refusals: `Sigmoid`
/// (calibrate's options), or the fitted model's.
fn read<E: de::Error>(tag: Tag, rest: Buf) -> Result<Calibration, E> {
    match tag {
        Tag::Sigmoid => placed::<Sigmoid, E>(rest).map(Calibration::from),
        Tag::Platt => placed::<PlattModel, E>(rest).map(Calibration::Platt),
        Tag::Isotonic => placed::<IsotonicModel, E>(rest).map(Calibration::Isotonic),
    }
}

/// Reads a `T` from the buffered fields `rest` as the derive does, but a fault inside one
/// of their values says where: "in `.a`: invalid type: ..." (`.x[1]`; `[1]` in the array
/// form, whose element 0 is the tag), which [`crate::error::from_serde_at`] turns into
/// the path `calibration.a` (serde_path_to_error cannot see into the buffer, so the
/// derive's own reading puts such a fault on `calibration` itself). The place holds only
/// the fields' own names and indices (`f64` and `Vec<f64>` hold no keys), never a
/// backquote. A fault of the fields as a whole (a missing or unknown key, an array of the
/// wrong length) is the derive's.
fn placed<'de, T: Deserialize<'de>, E: de::Error>(rest: Buf) -> Result<T, E> {
    // The array form's first field is its element 1.
    let offset = usize::from(matches!(rest, Buf::Seq(_)));
    serde_path_to_error::deserialize(replay::<E>(rest)).map_err(|e| {
        let at = crate::error::path_text(e.path(), offset);
        let inner = e.into_inner();
        // (An unknown key's error names it, which the field then gets: as the derive.)
        if at.is_empty() || inner.to_string().starts_with("unknown field") {
            inner
        } else {
            E::custom(format_args!("{PLACED}{at}`: {inner}"))
        }
    })
}

/// How a fault placed inside a calibration's fields begins ([`placed`]).
pub(crate) const PLACED: &str = "in `";
