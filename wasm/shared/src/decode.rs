//! Hand-written decoders from the [`Json`] tree into the core's configuration and input
//! types, so that the core module holds no serde deserialization code.
//!
//! They give, for every tree, what the types' derived `Deserialize` gives through
//! [`json::decode`] (the property tests in `tests/decode.rs` compare the two): the same
//! value, or an error with the same `code` and `field`. Errors are worded as serde words
//! them (`unknown field `k``, `missing field `k``, `unknown variant `v``, anything else a
//! type error), and each failure carries what it is (a `DecodeFault` and the key it
//! names), typed by `calibrank::error::fault_error` as serde's words are once
//! `from_serde_at` has read them (the core module then holds no reading of messages), so
//! an unknown or missing key is
//! `UNKNOWN_FIELD` / `INVALID_CONFIG` on its object's path and `.key`, an unknown method
//! `UNKNOWN_METHOD` on the method's own path and anything else `INVALID_TYPE` on the path
//! of the value at fault.
//!
//! The path costs nothing until a decoder fails: a [`Failure`] starts at the value that
//! failed, and each level it passes on its way out puts its key (`.key`) or index
//! (`[i]`) in front, where serde_path_to_error would have recorded one. Inside the
//! `Calibration` that serde buffers, it records one only while buffering
//! (for a value that is not JSON, or for the `method` tag): any later error is on the
//! enum itself.
//!
//! What serde's derives accept, these accept too: numbers as the module docs of
//! [`json`] deliver them (integer fields take whole numbers in range, `-0` included),
//! `null` for `Option` fields, defaults for missing fields, a struct given as an array
//! of its fields in order, a unit variant given as `{"name": null}`, a `method` tag given
//! as its variant index. Inside the tagged `Calibration`
//! (which serde buffers first) a `-0` is `0`, any value that is not JSON is refused
//! before anything else, and an array longer than its struct is refused.

use crate::json::{self, Json};
use calibrank::bands::{BandContext, BandFloors, BandProfile};
use calibrank::calibrate::{IsotonicModel, PlattModel, Sigmoid};
use calibrank::confidence::model::{QueryConfidenceModel, TrainingFigures};
use calibrank::confidence::ConfidenceOptions;
use calibrank::error::{DecodeFault as Fault, Result};
use calibrank::limits::{pipeline_limits, PartialLimits};
use calibrank::multiquery::{MultiQueryMethod, MultiQueryOptions};
use calibrank::normalize::NormalizeMethod;
use calibrank::pipeline::{
    BandsConfig, Calibration, CrossEncoderNormalization, NormalizationConfig, PipelineConfidence,
    PipelineConfig, RecencyConfig, RecencyMode, RerankConfig, RerankMethod,
};
use calibrank::recency::{FiscalYearTier, RecencyStep};
use calibrank::rerank::HeuristicConfig;
use std::collections::BTreeMap;

/// A decoding failure: serde's words (see the module docs), and where it happened (the
/// same type serde's decoder of the tree gives).
pub type Failure = json::DeError;

/// A failure at the value being read: `fault` (a type fault or an unknown variant),
/// worded `message` as serde words it.
fn fail(fault: Fault, message: String) -> Failure {
    Failure::known(fault, message, "")
}

/// A failure about the key `k` of the object being read (missing or given
/// twice; an unknown key is `Failure::unknown_key`), worded as serde words it.
#[cold]
#[inline(never)]
fn field_fault(fault: Fault, k: &str) -> Failure {
    let words = match fault {
        Fault::MissingField => "missing",
        _ => "duplicate",
    };
    Failure::known(fault, format!("{words} field `{k}`"), k)
}

/// A type decoded from a [`Json`] tree.
pub trait Decode: Sized {
    /// Decodes `v`.
    fn decode(v: &Json) -> std::result::Result<Self, Failure>;
}

type R<T> = std::result::Result<T, Failure>;

/// Decodes a parsed tree as a `T`, errors typed on `what`.
pub fn decode<T: Decode>(tree: &Json, what: &str) -> Result<T> {
    T::decode(tree).map_err(|f| f.typed(what))
}

/// Decodes an options object whose `limits` its caller took off: an unknown key of the
/// object lists `limits` among the keys there are.
pub fn decode_options<T: Decode>(tree: &Json, what: &str) -> Result<T> {
    T::decode(tree).map_err(|f| f.also_key("limits").typed(what))
}

/// Parses `text` and decodes it as a `T` (a syntax error is `PARSE_ERROR` on `what`).
pub fn from_text<T: Decode>(text: &str, what: &str) -> Result<T> {
    decode(&json::parse(text, what)?, what)
}

#[cold]
#[inline(never)]
fn bad(expected: &str, got: &Json) -> Failure {
    let mut m = String::from("expected ");
    m.push_str(expected);
    m.push_str(", got ");
    shown(&mut m, got);
    fail(Fault::Type, m)
}

/// A value as an error message shows it to a JavaScript caller, as the lab's messages
/// show it: `null`, `true`, a number as `String(v)` prints it, a string quoted as
/// [`calibrank::error::shown_str`] shows it (its first 64 characters), `an array`, `an object`, or what a value that
/// is not JSON is (`function`). js/core/typed-config.js shows them alike.
#[inline(never)]
fn shown(m: &mut String, v: &Json) {
    use std::fmt::Write;
    match v {
        Json::Null => m.push_str("null"),
        Json::Bool(b) => m.push_str(if *b { "true" } else { "false" }),
        Json::Num(x) => {
            let _ = write!(m, "{}", calibrank::error::num(*x));
        }
        Json::Str(s) => {
            let _ = write!(m, "{}", calibrank::error::shown_str(s));
        }
        Json::Arr(_) => m.push_str("an array"),
        Json::Obj(_) => m.push_str("an object"),
        Json::Invalid(kind) => m.push_str(kind),
    }
}

// ---------------------------------------------------------------- Values

#[inline(never)]
fn num(v: &Json) -> R<f64> {
    match v {
        Json::Num(x) => Ok(*x),
        _ => Err(bad("a number", v)),
    }
}

/// A number inside a value serde buffers first: `-0` arrives as the integer 0.
#[inline(never)]
fn num0(v: &Json) -> R<f64> {
    num(v).map(|x| x + 0.0)
}

/// A whole number within `lo..=hi`; `expected` says that range in the error.
fn int(v: &Json, lo: f64, hi: f64, expected: &str) -> R<f64> {
    match v {
        Json::Num(x) if x.fract() == 0.0 && *x >= lo && *x <= hi => Ok(*x),
        _ => Err(bad(expected, v)),
    }
}

#[inline(never)]
fn u32_(v: &Json) -> R<u32> {
    int(
        v,
        0.0,
        f64::from(u32::MAX),
        "a whole number from 0 to 4294967295",
    )
    .map(|x| x as u32)
}

#[inline(never)]
fn i32_(v: &Json) -> R<i32> {
    int(
        v,
        f64::from(i32::MIN),
        f64::from(i32::MAX),
        "a whole number from -2147483648 to 2147483647",
    )
    .map(|x| x as i32)
}

#[inline(never)]
fn boolean(v: &Json) -> R<bool> {
    match v {
        Json::Bool(b) => Ok(*b),
        _ => Err(bad("a boolean", v)),
    }
}

#[inline(never)]
fn string(v: &Json) -> R<String> {
    match v {
        Json::Str(s) => Ok(s.clone()),
        _ => Err(bad("a string", v)),
    }
}

#[inline(never)]
fn opt<T>(v: &Json, get: fn(&Json) -> R<T>) -> R<Option<T>> {
    match v {
        Json::Null => Ok(None),
        _ => get(v).map(Some),
    }
}

#[inline(never)]
fn list<T>(v: &Json, get: fn(&Json) -> R<T>) -> R<Vec<T>> {
    match v {
        Json::Arr(items) => items
            .iter()
            .enumerate()
            .map(|(i, x)| get(x).map_err(|f| f.index(i)))
            .collect(),
        _ => Err(bad("an array", v)),
    }
}

/// An object of numbers (a repeated key: the last value).
fn num_map(v: &Json) -> R<BTreeMap<String, f64>> {
    let Json::Obj(entries) = v else {
        return Err(bad("an object", v));
    };
    let mut out = BTreeMap::new();
    for (k, x) in entries {
        out.insert(k.clone(), num(x).map_err(|f| f.key(k))?);
    }
    Ok(out)
}

/// Five numbers, no more and no fewer (`calibrank::confidence::five`): every element
/// read, then the length checked.
fn five(v: &Json) -> R<[f64; 5]> {
    let Json::Arr(items) = v else {
        return Err(bad("an array", v));
    };
    let mut out = [0.0; 5];
    for (i, x) in items.iter().enumerate() {
        let n = num(x).map_err(|f| f.index(i))?;
        if let Some(o) = out.get_mut(i) {
            *o = n;
        }
    }
    if items.len() != 5 {
        return Err(fail(
            Fault::Type,
            format!(
                "expected an array of 5 numbers, got an array of {}",
                items.len()
            ),
        ));
    }
    Ok(out)
}

/// A name that is none of `names` ([`calibrank::error::not_one_of`]'s words).
#[cold]
#[inline(never)]
fn not_one_of(name: &str, names: &[&str]) -> Failure {
    fail(
        Fault::UnknownVariant,
        calibrank::error::not_one_of(name, names),
    )
}

/// A unit variant: its name, or `{"name": null}`.
#[inline(never)]
fn unit<T: Copy>(v: &Json, table: &[(&str, T)]) -> R<T> {
    let (name, value) = match v {
        Json::Str(s) => (s.as_str(), &Json::Null),
        Json::Obj(entries) if entries.len() == 1 => match entries.first() {
            Some((k, x)) => (k.as_str(), x),
            None => return Err(bad("a name (a string)", v)),
        },
        _ => return Err(bad("a name (a string)", v)),
    };
    let Some(&(_, t)) = table.iter().find(|(n, _)| *n == name) else {
        let names: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
        return Err(not_one_of(name, &names));
    };
    match value {
        Json::Null => Ok(t),
        _ => Err(bad("null", value).key(name)),
    }
}

/// Refuses a value that holds something that is not JSON (what serde's buffering of a
/// tagged or untagged enum's content does first, recording the path as it goes).
fn plain(v: &Json) -> R<()> {
    match v {
        Json::Invalid(kind) => Err(fail(Fault::Type, format!("expected JSON, got {kind}"))),
        Json::Arr(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, x)| plain(x).map_err(|f| f.index(i))),
        Json::Obj(entries) => entries
            .iter()
            .try_for_each(|(k, x)| plain(x).map_err(|f| f.key(k))),
        _ => Ok(()),
    }
}

// ---------------------------------------------------------------- Structs

/// Field kinds: required; an `Option` without a default (`None` when missing from an
/// object, required in the array form); defaulted.
const REQ: u8 = 0;
const OPT: u8 = 1;
const DEF: u8 = 2;

/// Modes: unknown keys refused, extra array elements ignored (a struct read directly);
const PLAIN: u8 = 0;
/// or a variant of a tagged enum: buffered content, so extra array elements are refused,
/// and without its tag (the `method` key, the first array element).
const TAGGED: u8 = 1;

/// A field's failure one level further out: under its key or index (in a tagged
/// variant's array form, [`TAGGED`], the index counts the tag, element 0), as
/// src/pipeline/tagged.rs places a fault inside a calibration's buffered fields.
#[cold]
#[inline(never)]
fn within(f: Failure, mode: u8, key: Option<&str>, i: usize) -> Failure {
    match key {
        Some(k) => f.key(k),
        None => f.index(i + usize::from(mode & TAGGED)),
    }
}

/// An unknown key's failure: under the key, or (a variant's buffered content,
/// [`TAGGED`]) on the enum itself, as serde says it (its error names the key, which the
/// field then gets; a key named as the enum is said on the enum alone).
#[cold]
#[inline(never)]
fn unknown(k: &str, keys: &'static [&'static str], mode: u8) -> Failure {
    let f = Failure::unknown_key(k, keys);
    if mode & TAGGED != 0 {
        f.here()
    } else {
        f.key(k)
    }
}

/// Reads a struct given as an object (keys in any order; a repeated, unknown or missing
/// key is an error, in text order) or as an array of its fields in order, handing each
/// field given to `set` as `(index in keys, value)`.
#[inline(never)]
fn fields(
    v: &Json,
    keys: &'static [&'static str],
    kinds: &[u8],
    mode: u8,
    set: &mut dyn FnMut(usize, &Json) -> R<()>,
) -> R<()> {
    match v {
        Json::Obj(entries) => {
            let mut seen = 0u64;
            for (k, x) in entries {
                match keys.iter().position(|n| n == k) {
                    Some(i) => {
                        if seen >> i & 1 != 0 {
                            return Err(field_fault(Fault::DuplicateField, k));
                        }
                        seen |= 1 << i;
                        set(i, x).map_err(|f| within(f, mode, Some(k), i))?;
                    }
                    None if mode & TAGGED != 0 && k == "method" => {}
                    None => return Err(unknown(k, keys, mode)),
                }
            }
            for (i, (k, kind)) in keys.iter().zip(kinds).enumerate() {
                if *kind == REQ && seen >> i & 1 == 0 {
                    return Err(field_fault(Fault::MissingField, k));
                }
            }
            Ok(())
        }
        Json::Arr(all) => {
            let items = all.get(usize::from(mode & TAGGED)..).unwrap_or_default();
            for (i, x) in items.iter().take(keys.len()).enumerate() {
                set(i, x).map_err(|f| within(f, mode, None, i))?;
            }
            // Too few for the fields without defaults, or more than the fields: refused,
            // as serde refuses a sequence of another length (the extra values of an
            // untagged struct were dropped), in the words the lab's messages give serde's
            // "invalid length" (`error::in_words`).
            let short = kinds.iter().skip(items.len()).any(|k| *k != DEF);
            if short || items.len() > keys.len() {
                return Err(fail(
                    Fault::Type,
                    format!("expected an object, got an array of {}", all.len()),
                ));
            }
            Ok(())
        }
        _ => Err(bad("an object", v)),
    }
}

/// Decodes a struct with [`fields`]: `$init` holds the defaults (and placeholders of the
/// required fields); each line is a key, its kind, the field and its decoder.
macro_rules! record {
    ($v:expr, $mode:expr, $init:expr, { $($key:literal $kind:ident $field:ident: $get:expr,)* }) => {{
        let mut o = $init;
        fields($v, &[$($key),*], &[$($kind),*], $mode, &mut |i, x| {
            let mut n = 0usize;
            $(
                if i == n {
                    o.$field = $get(x)?;
                }
                n += 1;
            )*
            let _ = n;
            Ok(())
        })?;
        Ok::<_, Failure>(o)
    }};
}

impl<T: Decode> Decode for Vec<T> {
    fn decode(v: &Json) -> R<Self> {
        list(v, T::decode)
    }
}

impl Decode for PipelineConfig {
    fn decode(v: &Json) -> R<Self> {
        record!(v, PLAIN, PipelineConfig::default(), {
            "k" DEF k: num,
            "weights" DEF weights: num_map,
            "topK" DEF top_k: u32_,
            "topN" DEF top_n: u32_,
            "recency" DEF recency: RecencyConfig::decode,
            "rerank" DEF rerank: RerankConfig::decode,
            "normalization" DEF normalization: NormalizationConfig::decode,
            "calibration" DEF calibration: Calibration::decode,
            "minConfidence" DEF min_confidence: num,
            "bands" DEF bands: BandsConfig::decode,
            "confidence" DEF confidence: PipelineConfidence::decode,
            "limits" DEF limits: |x| opt(x, PartialLimits::decode)
                .map(|p| p.unwrap_or_default().over(pipeline_limits())),
            "explain" DEF explain: boolean,
        })
    }
}

impl Decode for RecencyConfig {
    fn decode(v: &Json) -> R<Self> {
        record!(v, PLAIN, RecencyConfig::default(), {
            "mode" DEF mode: |x| unit(x, &[
                ("none", RecencyMode::None),
                ("step", RecencyMode::Step),
                ("fiscal_year", RecencyMode::FiscalYear),
            ]),
            "steps" DEF steps: |x| list(x, RecencyStep::decode),
            "fiscalYear" DEF fiscal_year: FiscalYearTier::decode,
            "boost" DEF boost: num,
        })
    }
}

impl Decode for RecencyStep {
    fn decode(v: &Json) -> R<Self> {
        let init = RecencyStep {
            max_age_days: 0.0,
            multiplier: 0.0,
        };
        record!(v, PLAIN, init, {
            "maxAgeDays" REQ max_age_days: num,
            "multiplier" REQ multiplier: num,
        })
    }
}

impl Decode for FiscalYearTier {
    fn decode(v: &Json) -> R<Self> {
        record!(v, PLAIN, FiscalYearTier::default(), {
            "window" DEF window: u32_,
            "latestYear" DEF latest_year: i32_,
        })
    }
}

impl Decode for RerankConfig {
    fn decode(v: &Json) -> R<Self> {
        record!(v, PLAIN, RerankConfig::default(), {
            "method" DEF method: |x| unit(x, &[
                ("none", RerankMethod::None),
                ("heuristic", RerankMethod::Heuristic),
                ("cross_encoder", RerankMethod::CrossEncoder),
            ]),
            "heuristic" DEF heuristic: HeuristicConfig::decode,
            "candidateLimit" DEF candidate_limit: |x| opt(x, u32_),
            "recencyBoost" DEF recency_boost: num,
            "crossEncoderNormalization" DEF cross_encoder_normalization: |x| unit(x, &[
                ("min_max", CrossEncoderNormalization::MinMax),
                ("none", CrossEncoderNormalization::None),
            ]),
        })
    }
}

impl Decode for HeuristicConfig {
    fn decode(v: &Json) -> R<Self> {
        record!(v, PLAIN, HeuristicConfig::default(), {
            "exactNameMultiplier" DEF exact_name_multiplier: num,
            "nameTermWeight" DEF name_term_weight: num,
            "summaryTermWeight" DEF summary_term_weight: num,
            "shortContentChars" DEF short_content_chars: u32_,
            "shortContentMultiplier" DEF short_content_multiplier: num,
            "typeMultipliers" DEF type_multipliers: num_map,
            "unknownTypeMultiplier" DEF unknown_type_multiplier: num,
            "stopwords" DEF stopwords: |x| opt(x, |s| list(s, string)),
        })
    }
}

impl Decode for NormalizationConfig {
    fn decode(v: &Json) -> R<Self> {
        record!(v, PLAIN, NormalizationConfig::default(), {
            "method" DEF method: |x| unit(x, &[
                ("none", NormalizeMethod::None),
                ("max", NormalizeMethod::Max),
                ("min_max", NormalizeMethod::MinMax),
                ("z_score", NormalizeMethod::ZScore),
                ("softmax", NormalizeMethod::Softmax),
            ]),
            "temperature" DEF temperature: num,
            "minRelevance" DEF min_relevance: num,
        })
    }
}

/// The keys an unknown key of a calibration without `method` is said against.
const BARE: &[&str] = &["method", "threshold", "steepness"];

/// `Calibration`, tagged by `method` (a name or a variant index): serde buffers the
/// object (or the array, tag first) before it reads the variant; an object without
/// `method` is a sigmoid (src/pipeline/tagged.rs).
impl Decode for Calibration {
    fn decode(v: &Json) -> R<Self> {
        let tag = |t: &Json| match t {
            Json::Str(s) => match s.as_str() {
                "sigmoid" => Ok(0),
                "platt" => Ok(1),
                "isotonic" => Ok(2),
                _ => Err(not_one_of(s, &["sigmoid", "platt", "isotonic"])),
            },
            Json::Num(x) if *x == 0.0 || *x == 1.0 || *x == 2.0 => Ok(*x as u8),
            _ => Err(bad("a name (a string)", t)),
        };
        let t = match v {
            Json::Obj(entries) => {
                let mut t = None;
                for (k, x) in entries {
                    if k == "method" {
                        if t.is_some() {
                            return Err(field_fault(Fault::DuplicateField, "method"));
                        }
                        t = Some(tag(x).map_err(|f| f.key(k))?);
                    } else {
                        plain(x).map_err(|f| f.key(k))?;
                    }
                }
                t
            }
            Json::Arr(items) => match items.split_first() {
                Some((first, _)) => {
                    let t = tag(first).map_err(|f| f.index(0))?;
                    plain(v)?;
                    Some(t)
                }
                None => None,
            },
            _ => return Err(bad("an object", v)),
        };
        match t {
            // An array needs its tag; an object without one is a sigmoid.
            None if matches!(v, Json::Arr(_)) => Err(field_fault(Fault::MissingField, "method")),
            // Without `method` (src/pipeline/tagged.rs `bare`): an unknown key's words
            // list `method` too; with a fitted model's key among the keys, the first key
            // no calibration has is said first (a misspelt `method`).
            None => {
                const MODELS: &[&str] = &["a", "b", "x", "y"];
                if let Json::Obj(entries) = v {
                    let stray =
                        |k: &String| !MODELS.contains(&k.as_str()) && !BARE.contains(&k.as_str());
                    if entries.iter().any(|(k, _)| MODELS.contains(&k.as_str())) {
                        if let Some((k, _)) = entries.iter().find(|(k, _)| stray(k)) {
                            return Err(unknown(k, BARE, TAGGED));
                        }
                    }
                }
                let mut s = Sigmoid::default();
                fields(v, BARE, &[DEF, DEF, DEF], TAGGED, &mut |i, x| {
                    match i {
                        1 => s.threshold = num0(x)?,
                        2 => s.steepness = num0(x)?,
                        // `method`, listed only (taken as the tag when given).
                        _ => {}
                    }
                    Ok(())
                })?;
                Ok(s.into())
            }
            Some(0) => {
                let s: Sigmoid = record!(v, TAGGED, Sigmoid::default(), {
                    "threshold" DEF threshold: num0,
                    "steepness" DEF steepness: num0,
                })?;
                Ok(s.into())
            }
            Some(1) => record!(v, TAGGED, PlattModel { a: 0.0, b: 0.0 }, {
                "a" REQ a: num0,
                "b" REQ b: num0,
            })
            .map(Calibration::Platt),
            Some(_) => {
                let init = IsotonicModel {
                    x: Vec::new(),
                    y: Vec::new(),
                };
                record!(v, TAGGED, init, {
                    "x" REQ x: |x| list(x, num0),
                    "y" REQ y: |x| list(x, num0),
                })
                .map(Calibration::Isotonic)
            }
        }
    }
}

impl Decode for BandsConfig {
    fn decode(v: &Json) -> R<Self> {
        record!(v, PLAIN, BandsConfig::default(), {
            "highFloor" DEF high_floor: num,
            "degradedFloor" DEF degraded_floor: num,
            "profiles" DEF profiles: |x| list(x, BandProfile::decode),
        })
    }
}

impl Decode for BandProfile {
    fn decode(v: &Json) -> R<Self> {
        let init = BandProfile {
            name: String::new(),
            task_class: None,
            language: None,
            build_system: None,
            high_floor: 0.0,
            degraded_floor: 0.0,
        };
        record!(v, PLAIN, init, {
            "name" REQ name: string,
            "taskClass" DEF task_class: |x| opt(x, string),
            "language" DEF language: |x| opt(x, string),
            "buildSystem" DEF build_system: |x| opt(x, string),
            "highFloor" REQ high_floor: num,
            "degradedFloor" REQ degraded_floor: num,
        })
    }
}

impl Decode for BandFloors {
    fn decode(v: &Json) -> R<Self> {
        record!(v, PLAIN, BandFloors::default(), {
            "highFloor" DEF high_floor: num,
            "degradedFloor" DEF degraded_floor: num,
        })
    }
}

impl Decode for BandContext {
    fn decode(v: &Json) -> R<Self> {
        record!(v, PLAIN, BandContext::default(), {
            "taskClass" DEF task_class: |x| opt(x, string),
            "language" DEF language: |x| opt(x, string),
            "buildSystem" DEF build_system: |x| opt(x, string),
        })
    }
}

impl Decode for PipelineConfidence {
    fn decode(v: &Json) -> R<Self> {
        record!(v, PLAIN, PipelineConfidence::default(), {
            "weights" DEF weights: five,
            "k" DEF k: |x| opt(x, u32_),
            "model" DEF model: |x| opt(x, QueryConfidenceModel::decode),
            "answerFloor" DEF answer_floor: num,
            "hedgeFloor" DEF hedge_floor: num,
        })
    }
}

impl Decode for ConfidenceOptions {
    fn decode(v: &Json) -> R<Self> {
        record!(v, PLAIN, ConfidenceOptions::default(), {
            "weights" DEF weights: five,
            "k" DEF k: |x| opt(x, u32_),
        })
    }
}

impl Decode for QueryConfidenceModel {
    fn decode(v: &Json) -> R<Self> {
        let init = QueryConfidenceModel {
            method: String::new(),
            runs: 0,
            k: 0,
            rrf_k: 0.0,
            weights: Vec::new(),
            features: Vec::new(),
            mean: Vec::new(),
            scale: Vec::new(),
            coefficients: Vec::new(),
            intercept: 0.0,
            missing_top: Vec::new(),
            l2: 0.0,
            training: no_training(),
        };
        record!(v, PLAIN, init, {
            "method" REQ method: string,
            "runs" REQ runs: u32_,
            "k" REQ k: u32_,
            "rrfK" REQ rrf_k: num,
            "weights" REQ weights: |x| list(x, num),
            "features" REQ features: |x| list(x, string),
            "mean" REQ mean: |x| list(x, num),
            "scale" REQ scale: |x| list(x, num),
            "coefficients" REQ coefficients: |x| list(x, num),
            "intercept" REQ intercept: num,
            "missingTop" REQ missing_top: |x| list(x, num),
            "l2" REQ l2: num,
            "training" REQ training: training,
        })
    }
}

/// The placeholder of the required training figures (every field is set or missing).
fn no_training() -> TrainingFigures {
    TrainingFigures {
        queries: 0,
        positives: 0,
        log_loss: 0.0,
        auroc: 0.0,
        iterations: 0,
        converged: false,
    }
}

fn training(v: &Json) -> R<TrainingFigures> {
    record!(v, PLAIN, no_training(), {
        "queries" REQ queries: u32_,
        "positives" REQ positives: u32_,
        "logLoss" REQ log_loss: num,
        "auroc" REQ auroc: num,
        "iterations" REQ iterations: u32_,
        "converged" REQ converged: boolean,
    })
}

impl Decode for PartialLimits {
    fn decode(v: &Json) -> R<Self> {
        record!(v, PLAIN, PartialLimits::default(), {
            "maxLists" OPT max_lists: |x| opt(x, u32_),
            "maxListLength" OPT max_list_length: |x| opt(x, u32_),
            "maxTotalEntries" OPT max_total_entries: |x| opt(x, u32_),
            "maxColumnarEntries" OPT max_columnar_entries: |x| opt(x, u32_),
            "maxIdBytes" OPT max_id_bytes: |x| opt(x, u32_),
            "maxTextBytes" OPT max_text_bytes: |x| opt(x, u32_),
            "maxTotalTextBytes" OPT max_total_text_bytes: |x| opt(x, u32_),
            "maxSearchWork" OPT max_search_work: |x| opt(x, u32_),
        })
    }
}

impl Decode for MultiQueryOptions {
    fn decode(v: &Json) -> R<Self> {
        record!(v, PLAIN, MultiQueryOptions::default(), {
            "method" DEF method: |x| unit(x, &[
                ("rrf", MultiQueryMethod::Rrf),
                ("score_sum", MultiQueryMethod::ScoreSum),
                ("score_max", MultiQueryMethod::ScoreMax),
            ]),
            "resultsPerQuery" DEF results_per_query: u32_,
            "similarityThreshold" DEF similarity_threshold: num,
            "multiQueryBoost" DEF multi_query_boost: num,
            "limit" DEF limit: u32_,
            "k" DEF k: num,
            "verbose" DEF verbose: boolean,
        })
    }
}

impl Decode for Sigmoid {
    fn decode(v: &Json) -> R<Self> {
        record!(v, PLAIN, Sigmoid::default(), {
            "threshold" DEF threshold: num,
            "steepness" DEF steepness: num,
        })
    }
}

/// `normalize`'s options: `{ temperature? }`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct NormalizeOptions {
    /// Softmax temperature (`None`: 1).
    pub temperature: Option<f64>,
}

impl Decode for NormalizeOptions {
    fn decode(v: &Json) -> R<Self> {
        record!(v, PLAIN, NormalizeOptions::default(), {
            "temperature" DEF temperature: |x| opt(x, num),
        })
    }
}

/// `rrf`'s and `rrfColumnar`'s options besides `limits`: `{ k?, weights? }`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KWeights {
    /// The RRF constant (`None`: the default).
    pub k: Option<f64>,
    /// A weight per list.
    pub weights: Option<Vec<f64>>,
}

impl Decode for KWeights {
    fn decode(v: &Json) -> R<Self> {
        record!(v, PLAIN, KWeights::default(), {
            "k" DEF k: |x| opt(x, num),
            "weights" DEF weights: |x| opt(x, |w| list(w, num)),
        })
    }
}
