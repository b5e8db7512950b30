//! JavaScript bindings (compiled for `wasm32` only). Thin: decode, call the core,
//! encode. Every error becomes a `ScoreError` (the JS class registered by the
//! package's entry module) with `code`, `field` and `message`; nothing panics.

use crate::bands::{BandFloors, RetrievalOutcome};
use crate::calibrate::Sigmoid;
use crate::confidence::{ConfidenceOptions, QueryConfidence};
use crate::error::{from_serde_message, ErrorCode, ScoreError};
use crate::fuse::{rrf_indexed, RankedList};
use crate::limits::{Budget, Limits};
use crate::multiquery::{MultiQueryOptions, MultiQueryOutput, QueryHit};
use crate::normalize::NormalizeMethod;
use crate::pipeline::{PipelineConfig, PipelineInput, PipelineOutput};
use crate::rerank::{Candidate, HeuristicConfig, Reranked};
use crate::runs::Run;
use js_sys::{Array, Float64Array, Function, Object, Reflect, Uint32Array, Uint8Array};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use tsify::{Ts, Tsify};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The result type of every exported function.
pub type JsResult<T> = Result<T, JsValue>;

thread_local! {
    static ERROR_CLASS: RefCell<Option<Function>> = const { RefCell::new(None) };
}

/// Registers the `ScoreError` class; called once by the package's entry module.
#[wasm_bindgen(js_name = "__setErrorClass")]
pub fn set_error_class(class: Function) {
    ERROR_CLASS.with(|c| {
        if let Ok(mut slot) = c.try_borrow_mut() {
            *slot = Some(class);
        }
    });
}

fn to_js_error(e: ScoreError) -> JsValue {
    let args = Array::of3(
        &JsValue::from_str(&e.message),
        &JsValue::from_str(e.code.as_str()),
        &JsValue::from_str(&e.field),
    );
    let class = ERROR_CLASS.with(|c| c.try_borrow().ok().and_then(|s| s.clone()));
    if let Some(class) = class {
        if let Ok(err) = Reflect::construct(&class, &args) {
            return err;
        }
    }
    let err = js_sys::Error::new(&e.message);
    err.set_name("ScoreError");
    let _ = Reflect::set(&err, &"code".into(), &e.code.as_str().into());
    let _ = Reflect::set(&err, &"field".into(), &e.field.as_str().into());
    err.into()
}

fn err(code: ErrorCode, field: &str, message: impl Into<String>) -> JsValue {
    to_js_error(ScoreError::new(code, field, message))
}

fn decode<T: Tsify + serde::de::DeserializeOwned>(value: &Ts<T>, what: &str) -> JsResult<T>
where
    T::JsType: JsCast,
{
    decode_value(value.js_value(), what)
}

fn decode_opt<T: Tsify + serde::de::DeserializeOwned + Default>(
    value: Option<Ts<T>>,
    what: &str,
) -> JsResult<T>
where
    T::JsType: JsCast,
{
    match value {
        None => Ok(T::default()),
        Some(v) => decode(&v, what),
    }
}

/// [`decode_value_with`] under the default limits (for small values: configs, options).
fn decode_value<T: serde::de::DeserializeOwned>(value: JsValue, what: &str) -> JsResult<T> {
    decode_value_with(value, what, &mut Reader::new(Limits::default()))
}

/// Decodes a JS value into `T`. serde-wasm-bindgen looks up only the fields it knows,
/// so unknown fields are found through a JSON value tree (where NaN is lost, which is
/// why the typed decode comes from serde-wasm-bindgen). The tree is built first, by
/// [`js_tree`], which also refuses what would break the typed decode (see there) and
/// charges every string to the call's `reader` before copying it.
fn decode_value_with<T: serde::de::DeserializeOwned>(
    value: JsValue,
    what: &str,
    reader: &mut Reader,
) -> JsResult<T> {
    let tree = js_tree(&value, 0, true, reader).map_err(|e| e.at(what))?;
    let typed: T = serde_wasm_bindgen::from_value(value)
        .map_err(|e| to_js_error(from_serde_message(&e.to_string(), what)))?;
    if let Some(tree) = tree {
        reject_unknown_fields::<T>(tree, what)?;
    }
    Ok(typed)
}

/// The `limits` of an options object, and the options without them. Every function
/// takes its limits from `options.limits` (missing fields keep their defaults); the
/// rest of the object is decoded as before, from a copy of its own enumerable
/// properties when `limits` had to be taken out.
fn split_limits(options: &JsValue, what: &str) -> JsResult<(Limits, JsValue)> {
    if !options.is_object() || Array::is_array(options) {
        return Ok((Limits::default(), options.clone()));
    }
    let key = js_key("limits");
    if !Reflect::has(options, &key).unwrap_or(false) {
        return Ok((Limits::default(), options.clone()));
    }
    let field = format!("{what}.limits");
    let raw = Reflect::get(options, &key)
        .map_err(|_| err(ErrorCode::InvalidType, &field, "the getter threw"))?;
    let limits: Limits = if raw.is_undefined() {
        Limits::default()
    } else {
        decode_value(raw, &field)?
    };
    core(limits.validate().map_err(|e| e.within(what)))?;
    let rest = object_assign(&Object::new(), options)
        .map_err(|_| err(ErrorCode::InvalidType, what, "a property getter threw"))?;
    let _ = Reflect::delete_property(rest.unchecked_ref::<Object>(), &key);
    Ok((limits, rest))
}

#[wasm_bindgen]
extern "C" {
    /// `Object.assign`, with a throwing getter an `Err` (js-sys's binding would throw
    /// through the wasm frames).
    #[wasm_bindgen(catch, js_namespace = Object, js_name = assign)]
    fn object_assign(target: &Object, source: &JsValue) -> Result<JsValue, JsValue>;
    /// `Object.keys`, with a throwing Proxy trap an `Err`.
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn keys_of(object: &JsValue) -> Result<Array, JsValue>;
}

// Guarded reads. Reading the caller's values can run the caller's code (a getter, a
// Proxy trap), and an exception thrown there must come back as an `Err`, not unwind
// through the wasm frames: unwinding skips their epilogues, which leaks the Rust values
// they own (about a kilobyte per call) and shadow stack (restored by
// js/stack_guard.js). The fast decoders give up (`None`) on such an error and the
// generic path, whose walk (`js_tree`) reads the same values the same way, returns the
// caller's exception unchanged.

/// `value.length` as a whole number (0 when it is not a number).
fn length_of(value: &JsValue) -> Result<u32, JsValue> {
    Reflect::get(value, &js_key("length")).map(|l| l.as_f64().map_or(0, |n| n as u32))
}

/// `value[i]`.
fn at(value: &JsValue, i: u32) -> Result<JsValue, JsValue> {
    Reflect::get_u32(value, i)
}

/// Every element of an array-like, read with [`at`].
fn elements(value: &JsValue) -> Result<Vec<JsValue>, JsValue> {
    (0..length_of(value)?).map(|i| at(value, i)).collect()
}

/// Options (`options?: T & WithLimits`) with their limits split off: the limits, and
/// the options decoded as `T` (`T::default()` when absent).
fn options_with_limits<T: serde::de::DeserializeOwned + Default>(
    options: Option<&JsValue>,
    what: &str,
) -> JsResult<(Limits, T)> {
    match options {
        None => Ok((Limits::default(), T::default())),
        Some(v) if v.is_undefined() || v.is_null() => Ok((Limits::default(), T::default())),
        Some(v) => {
            let (limits, rest) = split_limits(v, what)?;
            Ok((limits, decode_value(rest, what)?))
        }
    }
}

/// What one call may still read under its [`Limits`]: the [`Budget`] of entries and
/// string bytes, and the number of values the generic decoder may visit (16 per entry
/// allowed, far more than any valid input needs: a pipeline item has 7 fields). Strings
/// are charged before they are copied into wasm memory, so an oversized input is
/// refused before it is in memory.
#[derive(Clone)]
struct Reader {
    budget: Budget,
    values_left: usize,
    /// The first limit exceeded by a fast decoder (which returns `None` on failure).
    error: Option<ScoreError>,
}

impl Reader {
    fn new(limits: Limits) -> Self {
        Reader {
            budget: Budget::new(limits),
            values_left: (limits.max_total_entries as usize).saturating_mul(16),
            error: None,
        }
    }

    fn limits(&self) -> &Limits {
        &self.budget.limits
    }

    /// Charges `n` entries.
    fn entries(&mut self, n: usize, field: &str) -> Result<(), ScoreError> {
        self.budget.entries(n, field)
    }

    /// A string's copy, charged to the budget: its UTF-16 length first (a lower bound
    /// of its UTF-8 length, and free to read), then the rest once copied. `Ok(None)`
    /// when `v` is not a string.
    fn string(
        &mut self,
        v: &JsValue,
        field: &dyn Fn() -> String,
    ) -> Result<Option<String>, ScoreError> {
        let Some(js) = v.dyn_ref::<js_sys::JsString>() else {
            return Ok(None);
        };
        let units = js.length() as usize;
        self.budget.text(units, &field())?;
        let text = String::from(js);
        self.budget
            .text(text.len().saturating_sub(units), &field())?;
        Ok(Some(text))
    }

    /// [`Reader::string`] for the fast decoders: `None` (with the error kept) on a limit.
    fn fast_string(&mut self, v: &JsValue, field: &dyn Fn() -> String) -> Option<Option<String>> {
        match self.string(v, field) {
            Ok(s) => Some(s),
            Err(e) => {
                self.error.get_or_insert(e);
                None
            }
        }
    }

    /// Records a limit error from a fast decoder, which then returns `None`.
    fn fast<T>(&mut self, r: Result<T, ScoreError>) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(e) => {
                self.error.get_or_insert(e);
                None
            }
        }
    }

    /// The error a fast decoder stopped on, as a JS error.
    fn take_error(&mut self) -> JsResult<()> {
        match self.error.take() {
            Some(e) => Err(to_js_error(e)),
            None => Ok(()),
        }
    }
}

/// Why [`js_tree`] refused a value: a shape that would break the typed decode (an
/// `INVALID_TYPE` message, placed at the decoded value), or a limit.
enum TreeError {
    Invalid(String),
    Limit(ScoreError),
    /// The caller's own exception (a getter or a Proxy trap threw), passed on as it is.
    Thrown(JsValue),
}

impl TreeError {
    fn at(self, what: &str) -> JsValue {
        match self {
            TreeError::Invalid(m) => err(ErrorCode::InvalidType, what, m),
            TreeError::Limit(e) if e.field.is_empty() => to_js_error(ScoreError {
                field: what.to_string(),
                ..e
            }),
            TreeError::Limit(e) => to_js_error(e),
            TreeError::Thrown(e) => e,
        }
    }
}

impl From<String> for TreeError {
    fn from(m: String) -> Self {
        TreeError::Invalid(m)
    }
}

impl From<&str> for TreeError {
    fn from(m: &str) -> Self {
        TreeError::Invalid(m.to_string())
    }
}

/// How deep [`js_tree`] follows nested arrays and objects. Every valid input is far
/// shallower (a pipeline config is 5 levels deep).
const MAX_DEPTH: usize = 64;

/// A JSON number as serde-wasm-bindgen reads one: a safe integer is an integer (so that
/// integer fields accept it), NaN and the infinities are `null`.
fn json_number(x: f64) -> serde_json::Value {
    if x.fract() == 0.0 && x.abs() <= 9_007_199_254_740_991.0 {
        serde_json::Value::from(x as i64)
    } else {
        serde_json::Number::from_f64(x).map_or(serde_json::Value::Null, serde_json::Value::Number)
    }
}

/// Walks a JS value with exception-safe reads only, to at most [`MAX_DEPTH`] levels,
/// and (when `build`) returns it as a JSON tree, or `None` when part of it has no JSON
/// form (a Set, a typed array, a symbol...). It refuses, with a message, what would
/// otherwise reach serde-wasm-bindgen and break the module (found by
/// tests/js/fuzz.test.mjs):
///
/// * nesting deeper than [`MAX_DEPTH`]: serde's recursion through `deserialize_any`
///   (internally tagged and untagged enums, the unknown-field tree) follows the data,
///   and 100,000 nested arrays overflow the stack: a `RangeError` or an out-of-bounds
///   access thrown through the wasm frames, after which every call fails;
/// * an object that imitates a `Uint8Array` or a `Map` (its prototype is theirs, but
///   it is neither): serde-wasm-bindgen reads such a value's `length` through a
///   non-`catch` import, which throws through the wasm frames;
/// * a property getter that throws.
fn js_tree(
    value: &JsValue,
    depth: usize,
    build: bool,
    reader: &mut Reader,
) -> Result<Option<serde_json::Value>, TreeError> {
    use serde_json::Value;
    if depth > MAX_DEPTH {
        return Err(format!("the value is nested more than {MAX_DEPTH} levels deep").into());
    }
    if reader.values_left == 0 {
        let max = reader.limits().max_total_entries;
        return Err(TreeError::Limit(ScoreError::new(
            ErrorCode::InputTooLarge,
            "",
            format!(
                "the value has more than {} parts (16 per entry of limits.maxTotalEntries = {max})",
                (max as usize).saturating_mul(16)
            ),
        )));
    }
    reader.values_left -= 1;
    if value.is_undefined() || value.is_null() {
        return Ok(Some(Value::Null));
    }
    if let Some(b) = value.as_bool() {
        return Ok(Some(Value::Bool(b)));
    }
    if let Some(x) = value.as_f64() {
        return Ok(Some(json_number(x)));
    }
    if value.is_string() {
        if !build {
            // Charged without a copy.
            let units = value.unchecked_ref::<js_sys::JsString>().length() as usize;
            reader.budget.text(units, "").map_err(TreeError::Limit)?;
            return Ok(Some(Value::Null));
        }
        let text = reader
            .string(value, &String::new)
            .map_err(TreeError::Limit)?;
        return Ok(Some(Value::String(text.unwrap_or_default())));
    }
    if value.is_bigint() {
        let n = i64::try_from(value.clone())
            .map(Value::from)
            .or_else(|v| u64::try_from(v).map(Value::from));
        return Ok(Some(n.unwrap_or(Value::Null)));
    }
    if !value.is_object() {
        return Ok(None);
    }
    if Array::is_array(value) {
        // An array whose iteration is not Array.prototype's (a replaced prototype or
        // Symbol.iterator) makes wasm-bindgen's error formatting (`Array.from`) throw.
        let own_iter = Reflect::get(value, &js_sys::Symbol::iterator())
            .map_err(|_| "an array whose iterator getter threw".to_string())?;
        if own_iter
            != Reflect::get(&Array::new(), &js_sys::Symbol::iterator())
                .unwrap_or(JsValue::UNDEFINED)
        {
            return Err("an array whose prototype or iterator is not the standard one".into());
        }
        reader
            .limits()
            .check_array(length_of(value).map_err(TreeError::Thrown)? as usize, "")
            .map_err(TreeError::Limit)?;
        let mut items = Vec::new();
        let mut whole = true;
        for item in elements(value).map_err(TreeError::Thrown)? {
            match js_tree(&item, depth + 1, build, reader)? {
                Some(v) if build => items.push(v),
                Some(_) => {}
                None => whole = false,
            }
        }
        return Ok(whole.then_some(Value::Array(items)));
    }
    if js_sys::ArrayBuffer::is_view(value) {
        return Ok(None);
    }
    if value.has_type::<Uint8Array>() {
        return Err(
            "an object that imitates a Uint8Array (its prototype is Uint8Array.prototype)".into(),
        );
    }
    let mut object = serde_json::Map::new();
    let mut whole = true;
    let mut add = |key: JsValue, v: JsValue, reader: &mut Reader| -> Result<(), TreeError> {
        let tree = js_tree(&v, depth + 1, build, reader)?;
        let key = reader
            .string(&key, &String::new)
            .map_err(TreeError::Limit)?;
        match (key, tree) {
            (Some(k), Some(t)) if build => {
                object.insert(k, t);
            }
            (Some(_), Some(_)) => {}
            _ => whole = false,
        }
        Ok(())
    };
    if value.has_type::<js_sys::Map>() {
        if Reflect::get(value, &js_key("size")).is_err() {
            return Err("an object that imitates a Map (its prototype is Map.prototype)".into());
        }
        let map: &js_sys::Map = value.unchecked_ref();
        for entry in Array::from(&map.entries()).iter() {
            let key = Reflect::get(&entry, &0.into()).unwrap_or(JsValue::UNDEFINED);
            add(
                key,
                Reflect::get(&entry, &1.into()).unwrap_or(JsValue::UNDEFINED),
                reader,
            )?;
        }
    } else {
        if Reflect::has(value, &js_sys::Symbol::iterator()).unwrap_or(true) {
            // Sets, boxed strings and other iterables: no JSON form.
            return Ok(None);
        }
        for key in keys_of(value).map_err(TreeError::Thrown)?.iter() {
            let v = Reflect::get(value, &key).map_err(TreeError::Thrown)?;
            add(key, v, reader)?;
        }
    }
    Ok(whole.then_some(Value::Object(object)))
}

/// [`js_tree`] as a check only.
fn check_tree(value: &JsValue, field: &str, reader: &mut Reader) -> JsResult<()> {
    js_tree(value, 0, false, reader)
        .map(|_| ())
        .map_err(|e| e.at(field))
}

fn reject_unknown_fields<T: serde::de::DeserializeOwned>(
    tree: serde_json::Value,
    what: &str,
) -> JsResult<()> {
    match serde_json::from_value::<T>(tree) {
        Err(e) if e.to_string().starts_with("unknown field") => {
            Err(to_js_error(from_serde_message(&e.to_string(), what)))
        }
        _ => Ok(()),
    }
}

/// Decodes the (possibly large) pipeline input without the generic second pass: the
/// typed decode, then a check of the keys of the input, each list and each item.
fn decode_input(value: JsValue, reader: &mut Reader) -> JsResult<PipelineInput> {
    // What would break serde-wasm-bindgen (see `js_tree`); the fast path above takes
    // the usual inputs, so this walk is only paid by unusual ones.
    check_tree(&value, "input", reader)?;
    let typed: PipelineInput = serde_wasm_bindgen::from_value(value.clone())
        .map_err(|e| to_js_error(from_serde_message(&e.to_string(), "input")))?;
    check_keys(
        &value,
        &["query", "lists", "items", "now", "context"],
        "input",
    )?;
    if let Ok(lists) = Reflect::get(&value, &"lists".into()) {
        if let Some(lists) = lists.dyn_ref::<Array>() {
            for (i, list) in lists.iter().enumerate() {
                check_keys(
                    &list,
                    &["name", "ids", "scores", "weight"],
                    &format!("lists[{i}]"),
                )?;
            }
        }
    }
    if let Ok(items) = Reflect::get(&value, &"items".into()) {
        if items.is_object() {
            let entries = Object::entries(items.unchecked_ref::<Object>());
            for entry in entries.iter() {
                let id = Reflect::get(&entry, &0.into())
                    .ok()
                    .and_then(|k| k.as_string())
                    .unwrap_or_default();
                let meta = Reflect::get(&entry, &1.into()).unwrap_or(JsValue::UNDEFINED);
                check_keys(
                    &meta,
                    &[
                        "name",
                        "type",
                        "summary",
                        "content",
                        "modifiedAt",
                        "fiscalYear",
                        "crossEncoderScore",
                    ],
                    &format!("items.{id}"),
                )?;
            }
        }
    }
    if let Ok(ctx) = Reflect::get(&value, &"context".into()) {
        check_keys(&ctx, &["taskClass", "language", "buildSystem"], "context")?;
    }
    Ok(typed)
}

fn check_keys(obj: &JsValue, allowed: &[&str], path: &str) -> JsResult<()> {
    if !obj.is_object() || Array::is_array(obj) {
        return Ok(());
    }
    for key in Object::keys(obj.unchecked_ref::<Object>()).iter() {
        let key = key.as_string().unwrap_or_default();
        if !allowed.contains(&key.as_str()) {
            return Err(err(
                ErrorCode::UnknownField,
                &format!("{path}.{key}"),
                format!(
                    "unknown field `{key}`, expected one of {}",
                    allowed.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- Fast decoding
//
// The hot inputs (`rrf`'s lists, `Pipeline.run`'s input) are read in one pass that makes
// the same reads as serde-wasm-bindgen (a struct field is `obj[key]`; `null` and
// `undefined` are `None`; a sequence is an Array read by index; a record is its own
// enumerable keys) and the same key checks as `check_keys`, with fewer crossings of the
// JS/wasm boundary (each id and text is copied once, not twice) and no intermediate
// tree. Anything it does not handle (another type, a Map, a non-Array iterable, an
// unknown key, an explicit `undefined`, a key shape it cannot prove valid) makes it
// return `None`, and the caller decodes through the generic path instead, so the value
// or the error is exactly what it was (tests/js/suite.js, tests/golden).

thread_local! {
    static JS_KEYS: RefCell<Vec<(&'static str, JsValue)>> = const { RefCell::new(Vec::new()) };
}

/// A property name as a JS string, made once per name: `JsValue::from_str` (and
/// `"name".into()`) decodes the bytes with a `TextDecoder` in the glue, 0.3 us a call in
/// Node 20, which was most of a small `runColumnar` call.
fn js_key(name: &'static str) -> JsValue {
    JS_KEYS.with(|cache| {
        if let Ok(cache) = cache.try_borrow() {
            if let Some((_, v)) = cache.iter().find(|(k, _)| *k == name) {
                return v.clone();
            }
        }
        let v = JsValue::from_str(name);
        if let Ok(mut cache) = cache.try_borrow_mut() {
            cache.push((name, v.clone()));
        }
        v
    })
}

const INPUT_KEYS: [&str; 5] = ["query", "lists", "items", "now", "context"];
const LIST_KEYS: [&str; 4] = ["name", "ids", "scores", "weight"];
const ITEM_KEYS: [&str; 7] = [
    "name",
    "type",
    "summary",
    "content",
    "modifiedAt",
    "fiscalYear",
    "crossEncoderScore",
];

const CANDIDATE_KEYS: [&str; 6] = ["id", "score", "name", "type", "summary", "content"];

/// Property names as JS strings, made once (each `JsValue::from_str` is a decode in
/// the glue).
struct FastKeys {
    input: [JsValue; 5],
    item: [JsValue; 7],
    list: [JsValue; 4],
    candidate: [JsValue; 6],
}

impl FastKeys {
    fn new() -> Self {
        FastKeys {
            input: INPUT_KEYS.map(JsValue::from_str),
            item: ITEM_KEYS.map(JsValue::from_str),
            list: LIST_KEYS.map(JsValue::from_str),
            candidate: CANDIDATE_KEYS.map(JsValue::from_str),
        }
    }
}

thread_local! {
    static FAST_KEYS: FastKeys = FastKeys::new();
}

/// `obj[key]`; `None` if it throws.
fn fast_get(obj: &JsValue, key: &JsValue) -> Option<JsValue> {
    Reflect::get(obj, key).ok()
}

/// An optional string field: `Some(None)` for null / undefined, `None` for another type
/// (or a limit: see [`Reader::fast_string`]).
fn fast_opt_string(
    v: &JsValue,
    reader: &mut Reader,
    field: &dyn Fn() -> String,
) -> Option<Option<String>> {
    match reader.fast_string(v, field)? {
        Some(s) => Some(Some(s)),
        None if v.loose_eq(&JsValue::NULL) => Some(None),
        None => None,
    }
}

/// An optional number field (NaN included, as serde-wasm-bindgen reads it).
fn fast_opt_f64(v: &JsValue) -> Option<Option<f64>> {
    match v.as_f64() {
        Some(x) => Some(Some(x)),
        None if v.loose_eq(&JsValue::NULL) => Some(None),
        None => None,
    }
}

/// An optional timestamp (untagged: a number is `Millis`, a string `Iso`). A safe integer
/// goes through serde's `i64`, which makes `-0` a `+0`.
fn fast_timestamp(
    v: &JsValue,
    reader: &mut Reader,
    field: &dyn Fn() -> String,
) -> Option<Option<crate::timestamp::Timestamp>> {
    Some(match v.as_f64() {
        Some(ms) => Some(crate::timestamp::Timestamp::Millis(if ms == 0.0 {
            0.0
        } else {
            ms
        })),
        None => fast_opt_string(v, reader, field)?.map(crate::timestamp::Timestamp::Iso),
    })
}

/// A field with a serde default: `Some(None)` when absent, `Some(Some(v))` when present
/// and not `undefined`, `None` (take the generic path) for a present `undefined`.
fn fast_absent_or(obj: &JsValue, key: &JsValue) -> Option<Option<JsValue>> {
    let v = fast_get(obj, key)?;
    if !v.is_undefined() {
        return Some(Some(v));
    }
    if Reflect::has(obj, key).ok()? {
        return None;
    }
    Some(None)
}

/// Every element of an Array, as strings (`None` if one is not a string, or on a
/// limit); `field(j)` names element j.
fn fast_strings(
    array: &Array,
    reader: &mut Reader,
    field: &dyn Fn(u32) -> String,
) -> Option<Vec<String>> {
    let n = length_of(array).ok()?;
    let mut out = Vec::with_capacity(n as usize);
    for i in 0..n {
        out.push(reader.fast_string(&at(array, i).ok()?, &|| field(i))??);
    }
    Some(out)
}

/// `rrf`'s lists when they are Arrays of Arrays of strings (then the generic decode,
/// including its unknown-field pass, cannot fail and yields the same vectors).
fn fast_string_lists(value: &JsValue, reader: &mut Reader) -> Option<Vec<Vec<String>>> {
    let outer = value.dyn_ref::<Array>()?;
    (0..length_of(outer).ok()?)
        .map(|i| {
            fast_strings(at(outer, i).ok()?.dyn_ref::<Array>()?, reader, &|j| {
                format!("lists[{i}][{j}]")
            })
        })
        .collect()
}

/// Whether the own enumerable keys of `obj` (an object) are all in `allowed`, proven
/// from `Object.keys(obj).toString()` and the key count (4 crossings instead of 2 per
/// key). `shapes` caches the key lists already proven valid: a comma-joined list of
/// `count` keys none of which contains a comma is valid exactly when it splits into
/// `count` allowed keys, and no other key list with the same count joins to it.
fn fast_keys_ok(obj: &JsValue, allowed: &[&str], shapes: &mut Vec<(JsValue, u32)>) -> Option<()> {
    let keys = keys_of(obj).ok()?;
    let count = keys.length();
    if count == 0 {
        return Some(());
    }
    // Compared as JS strings (`===`): a known shape costs no copy into wasm memory.
    let joined: JsValue = keys.to_string().into();
    if shapes.iter().any(|(s, c)| *c == count && *s == joined) {
        return Some(());
    }
    let text = joined.as_string()?;
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != count as usize || !parts.iter().all(|p| allowed.contains(p)) {
        return None;
    }
    shapes.push((joined, count));
    Some(())
}

/// One `items` entry: all seven fields read as serde-wasm-bindgen reads them.
fn fast_item_meta(
    meta: &JsValue,
    keys: &FastKeys,
    shapes: &mut Vec<(JsValue, u32)>,
    reader: &mut Reader,
    id: &str,
) -> Option<crate::pipeline::ItemMeta> {
    if !meta.is_object() {
        return None;
    }
    fast_keys_ok(meta, &ITEM_KEYS, shapes)?;
    let [k_name, k_type, k_summary, k_content, k_modified, k_fiscal, k_cross] = &keys.item;
    let field = |name: &'static str| move || format!("items.{id}.{name}");
    let modified_at = fast_timestamp(&fast_get(meta, k_modified)?, reader, &field("modifiedAt"))?;
    let fiscal_year = {
        let v = fast_get(meta, k_fiscal)?;
        match v.as_f64() {
            // serde-wasm-bindgen takes safe integers only; i32 range checked by serde.
            Some(y) if y.fract() == 0.0 && y >= f64::from(i32::MIN) && y <= f64::from(i32::MAX) => {
                Some(y as i32)
            }
            Some(_) => return None,
            None if v.loose_eq(&JsValue::NULL) => None,
            None => return None,
        }
    };
    Some(crate::pipeline::ItemMeta {
        name: fast_opt_string(&fast_get(meta, k_name)?, reader, &field("name"))?,
        entity_type: fast_opt_string(&fast_get(meta, k_type)?, reader, &field("type"))?,
        summary: fast_opt_string(&fast_get(meta, k_summary)?, reader, &field("summary"))?,
        content: fast_opt_string(&fast_get(meta, k_content)?, reader, &field("content"))?,
        modified_at,
        fiscal_year,
        cross_encoder_score: fast_opt_f64(&fast_get(meta, k_cross)?)?,
    })
}

/// One input list.
fn fast_input_list(
    list: &JsValue,
    keys: &FastKeys,
    reader: &mut Reader,
    i: u32,
) -> Option<crate::pipeline::InputList> {
    if !list.is_object() || Array::is_array(list) {
        return None;
    }
    let mut shapes = Vec::new();
    fast_keys_ok(list, &LIST_KEYS, &mut shapes)?;
    let [k_name, k_ids, k_scores, k_weight] = &keys.list;
    let name = reader.fast_string(&fast_get(list, k_name)?, &|| format!("lists[{i}].name"))??;
    let ids = fast_strings(fast_get(list, k_ids)?.dyn_ref::<Array>()?, reader, &|j| {
        format!("lists[{i}].ids[{j}]")
    })?;
    let scores = {
        let v = fast_get(list, k_scores)?;
        if v.loose_eq(&JsValue::NULL) {
            None
        } else {
            let a = v.dyn_ref::<Array>()?;
            Some(
                (0..length_of(a).ok()?)
                    .map(|i| at(a, i).ok()?.as_f64())
                    .collect::<Option<Vec<f64>>>()?,
            )
        }
    };
    let weight = fast_opt_f64(&fast_get(list, k_weight)?)?;
    Some(crate::pipeline::InputList {
        name,
        ids,
        scores,
        weight,
    })
}

/// `rerank`'s candidates when each is a plain object with known keys, a string `id` and
/// `name` and a number `score` (anything else takes the generic path, which gives the
/// same values or the error).
fn fast_candidates(value: &JsValue, reader: &mut Reader) -> Option<Vec<Candidate>> {
    let array = value.dyn_ref::<Array>()?;
    FAST_KEYS.with(|keys| {
        let [k_id, k_score, k_name, k_type, k_summary, k_content] = &keys.candidate;
        let mut shapes = Vec::new();
        let n = length_of(array).ok()?;
        let mut out = Vec::with_capacity(n as usize);
        for i in 0..n {
            let c = at(array, i).ok()?;
            if !c.is_object() || Array::is_array(&c) {
                return None;
            }
            fast_keys_ok(&c, &CANDIDATE_KEYS, &mut shapes)?;
            let field = |name: &'static str| move || format!("candidates[{i}].{name}");
            out.push(Candidate {
                id: reader.fast_string(&fast_get(&c, k_id)?, &field("id"))??,
                score: fast_get(&c, k_score)?.as_f64()?,
                name: reader.fast_string(&fast_get(&c, k_name)?, &field("name"))??,
                entity_type: fast_opt_string(&fast_get(&c, k_type)?, reader, &field("type"))?,
                summary: fast_opt_string(&fast_get(&c, k_summary)?, reader, &field("summary"))?,
                content: fast_opt_string(&fast_get(&c, k_content)?, reader, &field("content"))?,
            });
        }
        Some(out)
    })
}

/// Every element of an Array of numbers or a Float64Array of at most `max` entries
/// (`None` for anything else).
fn fast_f64s(value: &JsValue, max: u32) -> Option<Vec<f64>> {
    if let Some(typed) = typed_view::<Float64Array>(value) {
        return (typed.length() <= max).then(|| typed.to_vec());
    }
    let array = value.dyn_ref::<Array>()?;
    let n = length_of(array).ok()?;
    if n > max {
        return None;
    }
    (0..n).map(|i| at(array, i).ok()?.as_f64()).collect()
}

/// An isotonic model (`{ method: "isotonic", x, y }` with arrays of numbers), which can
/// have a million knots: the generic decode reads each number three times.
fn fast_isotonic(value: &JsValue, limits: &Limits) -> Option<crate::pipeline::Calibration> {
    if !value.is_object() || Array::is_array(value) {
        return None;
    }
    fast_keys_ok(value, &["method", "x", "y"], &mut Vec::new())?;
    if fast_get(value, &js_key("method"))?.as_string()? != "isotonic" {
        return None;
    }
    let x = fast_f64s(&fast_get(value, &js_key("x"))?, limits.max_list_length)?;
    let y = fast_f64s(&fast_get(value, &js_key("y"))?, limits.max_list_length)?;
    Some(crate::pipeline::Calibration::Isotonic(
        crate::fit::IsotonicModel { x, y },
    ))
}

/// The pipeline input, or `None` to take the generic path (see above).
fn fast_pipeline_input(value: &JsValue, reader: &mut Reader) -> Option<PipelineInput> {
    FAST_KEYS.with(|keys| fast_pipeline_input_with(value, keys, reader))
}

fn fast_pipeline_input_with(
    value: &JsValue,
    keys: &FastKeys,
    reader: &mut Reader,
) -> Option<PipelineInput> {
    if !value.is_object() || Array::is_array(value) {
        return None;
    }
    let mut shapes = Vec::new();
    fast_keys_ok(value, &INPUT_KEYS, &mut shapes)?;
    let [k_query, k_lists, k_items, k_now, k_context] = &keys.input;
    // `query` and `items` have serde defaults: absent is the default, but a present
    // `undefined` is an error, so `undefined` goes to the generic path.
    let query = fast_absent_or(value, k_query)?;
    let query = match query {
        None => String::new(),
        Some(q) => reader.fast_string(&q, &|| "query".into())??,
    };
    let lists = fast_get(value, k_lists)?;
    let lists = lists.dyn_ref::<Array>()?;
    let lists = (0..length_of(lists).ok()?)
        .map(|i| fast_input_list(&at(lists, i).ok()?, keys, reader, i))
        .collect::<Option<Vec<crate::pipeline::InputList>>>()?;
    let mut items = std::collections::BTreeMap::new();
    if let Some(items_value) = fast_absent_or(value, k_items)? {
        // A plain record: an object that is not a Map, an Array or another iterable.
        if !items_value.is_object()
            || items_value.has_type::<js_sys::Map>()
            || Reflect::has(&items_value, &js_sys::Symbol::iterator()).ok()?
        {
            return None;
        }
        let ids = keys_of(&items_value).ok()?;
        let charged = reader.entries(ids.length() as usize, "items");
        reader.fast(charged)?;
        let mut shapes = Vec::new();
        let mut entries = Vec::with_capacity(ids.length() as usize);
        for i in 0..ids.length() {
            let key = ids.get(i);
            let id = reader.fast_string(&key, &|| "items".into())??;
            let meta = fast_item_meta(
                &fast_get(&items_value, &key)?,
                keys,
                &mut shapes,
                reader,
                &id,
            )?;
            entries.push((id, meta));
        }
        // Collected then built in bulk (sorted once), not inserted one by one.
        items = entries.into_iter().collect();
    }
    let now = fast_timestamp(&fast_get(value, k_now)?, reader, &|| "now".into())?;
    let context = fast_get(value, k_context)?;
    let context = if context.loose_eq(&JsValue::NULL) {
        None
    } else {
        let mut shapes = Vec::new();
        fast_keys_ok(
            &context,
            &["taskClass", "language", "buildSystem"],
            &mut shapes,
        )?;
        // Anything odd goes to the generic path, which checks it (see `js_tree`).
        js_tree(&context, 0, false, reader).ok()?;
        Some(serde_wasm_bindgen::from_value::<crate::bands::BandContext>(context).ok()?)
    };
    Some(PipelineInput {
        query,
        lists,
        items,
        now,
        context,
    })
}

fn encode<T: Tsify + Serialize>(value: &T) -> JsResult<Ts<T>> {
    Ts::from_rust(value).map_err(|e| {
        err(
            ErrorCode::Internal,
            "",
            format!("cannot encode the result: {e}"),
        )
    })
}

/// `value` built by one `JSON.parse` of text serialized here, one crossing of the
/// boundary instead of one per field (100,000 reranked candidates: a million fewer),
/// when `plain`: every number finite (JSON has no NaN or infinity) and no `__proto__`
/// key. The objects are the ones [`encode_value`] makes: the same keys in the same
/// order, and shortest round-trip number formatting parses back to the same f64.
fn encode_json<T: Serialize>(value: &T, plain: bool) -> JsResult<JsValue> {
    if plain {
        if let Ok(text) = serde_json::to_string(value) {
            if let Ok(parsed) = js_sys::JSON::parse(&text) {
                return Ok(parsed);
            }
        }
    }
    encode_value(value)
}

fn encode_value<T: Serialize>(value: &T) -> JsResult<JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true))
        .map_err(|e| {
            err(
                ErrorCode::Internal,
                "",
                format!("cannot encode the result: {e}"),
            )
        })
}

fn core<T>(r: crate::Result<T>) -> JsResult<T> {
    r.map_err(to_js_error)
}

/// A run or qrels (`Record<query, Record<doc, score>>`) as [`encode_value`] makes it,
/// built by [`encode_json`] instead of one crossing of the boundary per key and score
/// (`parseTrecRun` in 0.66x and `fuseRuns` in 0.9x the time on CISI). The objects
/// are the same: keys are created in the same (sorted) order and every score parses back
/// to the same f64 (shortest round-trip formatting). A non-finite score (no JSON form)
/// or a `__proto__` key (which `obj[key] = v` treats as the prototype, `JSON.parse` as an
/// own key) takes [`encode_value`].
fn encode_run(run: &Run) -> JsResult<JsValue> {
    let plain = run.iter().all(|(q, docs)| {
        q != "__proto__" && docs.iter().all(|(d, s)| d != "__proto__" && s.is_finite())
    });
    encode_json(run, plain)
}

/// `value` as a `T` typed array when it really is one. `instanceof` alone (`dyn_ref`) is
/// fooled by an object whose prototype is `T.prototype`, whose `length` then throws
/// through the wasm frames when read by js-sys; a real view answers `length` through
/// the exception-safe `Reflect.get`.
fn typed_view<T: JsCast>(value: &JsValue) -> Option<&T> {
    let typed = value.dyn_ref::<T>()?;
    let length_ok = Reflect::get(value, &js_key("length")).is_ok_and(|l| l.as_f64().is_some());
    (js_sys::ArrayBuffer::is_view(value) && length_ok).then_some(typed)
}

/// Whether `value` is a real `Map` (not just an object with `Map.prototype` in its
/// prototype chain, whose methods would throw through the wasm frames).
fn is_map(value: &JsValue) -> bool {
    value.has_type::<js_sys::Map>() && Reflect::get(value, &js_key("size")).is_ok()
}

/// Reads `Float64Array | number[]` into a vector; anything else is `INVALID_TYPE`.
fn read_f64s(value: &JsValue, field: &str, limits: &Limits) -> JsResult<Vec<f64>> {
    if let Some(typed) = typed_view::<Float64Array>(value) {
        core(limits.check_array(typed.length() as usize, field))?;
        return Ok(typed.to_vec());
    }
    if !Array::is_array(value) {
        return Err(err(
            ErrorCode::InvalidType,
            field,
            "expected a Float64Array or an array of numbers",
        ));
    }
    let n = length_of(value)?;
    core(limits.check_array(n as usize, field))?;
    let mut out = Vec::with_capacity(n as usize);
    for i in 0..n {
        match at(value, i)?.as_f64() {
            Some(x) => out.push(x),
            None => {
                return Err(err(
                    ErrorCode::InvalidType,
                    &format!("{field}[{i}]"),
                    "expected a number",
                ))
            }
        }
    }
    Ok(out)
}

/// Reads a `Uint32Array` of at most `max` entries, checking the length before copying
/// it into wasm memory (an oversized array is `INPUT_TOO_LARGE`, never an allocation
/// failure in the module).
fn read_u32s(value: &JsValue, field: &str, max: u32, limit: &str) -> JsResult<Vec<u32>> {
    match typed_view::<Uint32Array>(value) {
        Some(typed) if typed.length() > max => Err(err(
            ErrorCode::InputTooLarge,
            field,
            format!(
                "{} entries, above the limit of {max} (limits.{limit})",
                typed.length()
            ),
        )),
        Some(typed) => Ok(typed.to_vec()),
        None => Err(err(ErrorCode::InvalidType, field, "expected a Uint32Array")),
    }
}

/// [`read_u32s`] that also takes an array of whole numbers in `0..2^32`.
fn read_u32s_or_array(value: &JsValue, field: &str, max: u32, limit: &str) -> JsResult<Vec<u32>> {
    if typed_view::<Uint32Array>(value).is_some() {
        return read_u32s(value, field, max, limit);
    }
    if !Array::is_array(value) {
        return Err(err(
            ErrorCode::InvalidType,
            field,
            "expected a Uint32Array or an array of whole numbers",
        ));
    }
    let n = length_of(value)?;
    if n > max {
        return Err(err(
            ErrorCode::InputTooLarge,
            field,
            format!("{n} entries, above the limit of {max} (limits.{limit})"),
        ));
    }
    (0..n)
        .map(|i| match at(value, i)?.as_f64() {
            Some(x) if x >= 0.0 && x <= f64::from(u32::MAX) && x.fract() == 0.0 => Ok(x as u32),
            _ => Err(err(
                ErrorCode::InvalidType,
                &format!("{field}[{i}]"),
                "expected a whole number in 0..2^32",
            )),
        })
        .collect()
}

/// Reads a string argument of at most `max` bytes, checking its length before copying
/// it into wasm memory; a non-string is `INVALID_TYPE` (a `&str` parameter would make
/// the glue throw a plain `Error`, or copy a huge string before any check).
fn read_string(value: &JsValue, field: &str, max: usize, limit: &str) -> JsResult<String> {
    let Some(js) = value.dyn_ref::<js_sys::JsString>() else {
        return Err(err(ErrorCode::InvalidType, field, "expected a string"));
    };
    // UTF-8 takes at least one byte per UTF-16 unit: longer is too large for sure.
    if js.length() as usize > max {
        return Err(err(
            ErrorCode::InputTooLarge,
            field,
            format!("the text is over {max} bytes, the limit (limits.{limit})"),
        ));
    }
    let text = String::from(js);
    if text.len() > max {
        return Err(err(
            ErrorCode::InputTooLarge,
            field,
            format!(
                "the text is {} bytes, above the limit of {max} (limits.{limit})",
                text.len()
            ),
        ));
    }
    Ok(text)
}

/// serde-wasm-bindgen reads a map (`Record<string, ...>`) from any iterable, taking
/// each item as a `[key, value]` pair, and a `null` or `undefined` item (`[null]`, a
/// sparse array, `new Set([undefined])`) makes it throw a TypeError *through the wasm
/// frames* (a non-`catch` import). That leaves the module's shadow stack unbalanced:
/// later calls fail with "memory access out of bounds". So a value read as a map must
/// be a plain object or a `Map` before it is decoded (found by tests/js/fuzz.test.mjs).
fn check_map(value: &JsValue, field: &str) -> JsResult<()> {
    if !value.is_object() || is_map(value) {
        // Primitives and nullish values are refused by serde without throwing.
        return Ok(());
    }
    match Reflect::has(value, &js_sys::Symbol::iterator()) {
        Ok(false) => Ok(()),
        _ => Err(err(
            ErrorCode::InvalidType,
            field,
            "expected an object (a record)",
        )),
    }
}

/// [`check_map`] on the value at `path` inside `value`, when there is one.
fn check_map_at(value: &JsValue, path: &[&'static str], field: &str) -> JsResult<()> {
    let mut v = value.clone();
    for key in path {
        if !v.is_object() {
            return Ok(());
        }
        v = Reflect::get(&v, &js_key(key)).unwrap_or(JsValue::UNDEFINED);
    }
    check_map(&v, field)
}

/// Checks the list count and lengths of a pipeline input against `limits` before the
/// input is decoded into wasm memory (so an oversized input is `INPUT_TOO_LARGE`
/// without first being copied).
fn precheck_lists(input: &JsValue, reader: &mut Reader) -> JsResult<()> {
    if !input.is_object() {
        return Ok(());
    }
    let lists = Reflect::get(input, &js_key("lists")).unwrap_or(JsValue::UNDEFINED);
    let Some(lists) = lists.dyn_ref::<Array>() else {
        return Ok(());
    };
    let limits = *reader.limits();
    core(limits.check_lists(length_of(lists)? as usize, "lists"))?;
    let mut lengths = Vec::new();
    for l in elements(lists)? {
        let ids = if l.is_object() {
            Reflect::get(&l, &js_key("ids"))?
        } else {
            JsValue::UNDEFINED
        };
        lengths.push(match ids.dyn_ref::<Array>() {
            Some(a) => length_of(a)? as usize,
            None => 0,
        });
    }
    core(limits.check_lengths(lengths.iter().copied(), "lists"))?;
    core(reader.entries(lengths.iter().sum(), "lists"))
}

/// Charges the items of a pipeline input (their count) before the generic decode.
fn precheck_items(input: &JsValue, reader: &mut Reader) -> JsResult<()> {
    let items = Reflect::get(input, &js_key("items")).unwrap_or(JsValue::UNDEFINED);
    if !items.is_object() || is_map(&items) || Array::is_array(&items) {
        return Ok(());
    }
    let n = keys_of(&items)?.length() as usize;
    core(reader.entries(n, "items"))
}

/// Checks the count and lengths of an array of arrays (`rrf` lists, multi-query
/// queries) against `limits` before it is decoded into wasm memory.
fn precheck_arrays(value: &JsValue, reader: &mut Reader, field: &str) -> JsResult<()> {
    let Some(outer) = value.dyn_ref::<Array>() else {
        return Ok(());
    };
    let limits = *reader.limits();
    core(limits.check_lists(length_of(outer)? as usize, field))?;
    let mut lengths = Vec::new();
    for l in elements(outer)? {
        lengths.push(match l.dyn_ref::<Array>() {
            Some(a) => length_of(a)? as usize,
            None => 0,
        });
    }
    core(limits.check_lengths(lengths.iter().copied(), field))?;
    core(reader.entries(lengths.iter().sum(), field))
}

/// [`check_map`] on a run or qrels (a record of records) and on each of its values.
fn check_run_shape(value: &JsValue, field: &str) -> JsResult<()> {
    check_map(value, field)?;
    if let Some(map) = value.dyn_ref::<js_sys::Map>().filter(|_| is_map(value)) {
        for entry in Array::from(&map.entries()).iter() {
            let key = Reflect::get(&entry, &0.into())?
                .as_string()
                .unwrap_or_default();
            let docs = Reflect::get(&entry, &1.into())?;
            check_map(&docs, &format!("{field}.{key}"))?;
        }
    } else if value.is_object() {
        for key in keys_of(value)?.iter() {
            let docs = Reflect::get(value, &key)?;
            let key = key.as_string().unwrap_or_default();
            check_map(&docs, &format!("{field}.{key}"))?;
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- Limits

#[wasm_bindgen(typescript_custom_section)]
const WITH_LIMITS: &str = r#"
/**
 * Input size limits for one call, in a function's options (`Pipeline` takes them in
 * its config). Missing fields keep their defaults (see `defaultLimits()`); an input
 * over a limit is a `ScoreError` with code `INPUT_TOO_LARGE`.
 */
export interface WithLimits {
    limits?: Partial<Limits>;
}
"#;

#[wasm_bindgen]
extern "C" {
    /// Options of `rrf`.
    #[wasm_bindgen(typescript_type = "RrfOptions & WithLimits")]
    pub type RrfOptionsArg;
    /// Options of `rrfColumnar`.
    #[wasm_bindgen(typescript_type = "RrfColumnarOptions & WithLimits")]
    pub type RrfColumnarOptionsArg;
    /// Options of `fuseMultiQuery`.
    #[wasm_bindgen(typescript_type = "MultiQueryOptions & WithLimits")]
    pub type MultiQueryOptionsArg;
    /// Options of `rerank`.
    #[wasm_bindgen(typescript_type = "HeuristicConfig & WithLimits")]
    pub type HeuristicConfigArg;
    /// Options of `normalize`.
    #[wasm_bindgen(typescript_type = "NormalizeOptions & WithLimits")]
    pub type NormalizeOptionsArg;
    /// Options of `calibrate`.
    #[wasm_bindgen(typescript_type = "Sigmoid & WithLimits")]
    pub type SigmoidArg;
    /// Options of `queryConfidence`.
    #[wasm_bindgen(typescript_type = "ConfidenceOptions & WithLimits")]
    pub type ConfidenceOptionsArg;
    /// Options of `calibrationError`.
    #[wasm_bindgen(typescript_type = "CalibrationErrorOptions & WithLimits")]
    pub type CalibrationErrorOptionsArg;
    /// Options of `proposeBands`.
    #[wasm_bindgen(typescript_type = "ProposeBandsOptions & WithLimits")]
    pub type ProposeBandsOptionsArg;
    /// Options of `fuseRuns`.
    #[wasm_bindgen(typescript_type = "FuseRunsOptions & WithLimits")]
    pub type FuseRunsOptionsArg;
    /// Options of `optimizeFusion`.
    #[wasm_bindgen(typescript_type = "OptimizeOptions & WithLimits")]
    pub type OptimizeOptionsArg;
    /// Options of the functions whose only option is `limits`.
    #[wasm_bindgen(typescript_type = "WithLimits")]
    pub type LimitsArg;
}

/// The default input size limits (every field filled in).
#[wasm_bindgen(js_name = "defaultLimits", unchecked_return_type = "Required<Limits>")]
pub fn js_default_limits() -> JsResult<JsValue> {
    encode_value(&Limits::default())
}

/// The limits of an options argument whose only option is `limits`.
fn limits_only(options: Option<LimitsArg>) -> JsResult<Limits> {
    options_with_limits::<Empty>(options.as_ref().map(AsRef::as_ref), "options").map(|(l, _)| l)
}

/// No options (besides `limits`): any other field is `UNKNOWN_FIELD`.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Empty {}

// ---------------------------------------------------------------- Pipeline

/// A validated scoring pipeline.
#[wasm_bindgen(js_name = "Pipeline")]
pub struct JsPipeline {
    inner: crate::pipeline::Pipeline,
}

#[wasm_bindgen(js_class = "Pipeline")]
impl JsPipeline {
    /// Validates `config` (seed defaults for every missing field).
    #[wasm_bindgen(constructor)]
    pub fn new(config: Option<Ts<PipelineConfig>>) -> JsResult<JsPipeline> {
        if let Some(c) = &config {
            let raw = c.js_value();
            check_map_at(&raw, &["weights"], "config.weights")?;
            check_map_at(
                &raw,
                &["rerank", "heuristic", "typeMultipliers"],
                "config.rerank.heuristic.typeMultipliers",
            )?;
        }
        let config = decode_opt(config, "config")?;
        Ok(JsPipeline {
            inner: core(crate::pipeline::Pipeline::new(config))?,
        })
    }

    /// Runs the pipeline: fuse, recency, rerank, normalize, calibrate, filter, topN,
    /// bands, confidence.
    pub fn run(&self, input: Ts<PipelineInput>) -> JsResult<Ts<PipelineOutput>> {
        let raw = input.js_value();
        check_map_at(&raw, &["items"], "input.items")?;
        let limits = self.inner.config().limits;
        let mut reader = Reader::new(limits);
        precheck_lists(&raw, &mut reader)?;
        let mut fast_reader = reader.clone();
        let input = match fast_pipeline_input(&raw, &mut fast_reader) {
            Some(input) => input,
            None => {
                fast_reader.take_error()?;
                precheck_items(&raw, &mut reader)?;
                decode_input(raw, &mut reader)?
            }
        };
        encode(&core(self.inner.run(&input))?)
    }

    /// The effective configuration, with every default filled in.
    #[wasm_bindgen(getter)]
    pub fn config(&self) -> JsResult<Ts<PipelineConfig>> {
        encode(self.inner.config())
    }

    /// Columnar fast path: lists as one `Uint32Array` of document indices (`docs`) cut
    /// by `offsets` (`offsets[i]..offsets[i+1]` is list i), results as typed arrays.
    #[wasm_bindgen(js_name = "runColumnar", unchecked_return_type = "ColumnarOutput")]
    pub fn run_columnar(&self, input: Ts<ColumnarInput>) -> JsResult<JsValue> {
        let raw = input.js_value();
        let limits = &self.inner.config().limits;
        let docs = read_u32s(
            &Reflect::get(&raw, &js_key("docs")).unwrap_or(JsValue::UNDEFINED),
            "docs",
            limits.max_columnar_entries,
            "maxColumnarEntries",
        )?;
        let max_offsets = limits.max_lists.saturating_add(1);
        let offsets = read_u32s(
            &Reflect::get(&raw, &js_key("offsets")).unwrap_or(JsValue::UNDEFINED),
            "offsets",
            max_offsets,
            "maxLists",
        )?;
        let n_docs = Reflect::get(&raw, &js_key("nDocs"))
            .ok()
            .and_then(|v| v.as_f64())
            .ok_or_else(|| err(ErrorCode::InvalidType, "nDocs", "expected a number"))?;
        if !(n_docs >= 0.0 && n_docs <= f64::from(u32::MAX) && n_docs.fract() == 0.0) {
            return Err(err(
                ErrorCode::InvalidConfig,
                "nDocs",
                format!("expected a whole number >= 0, got {n_docs}"),
            ));
        }
        let weights = match Reflect::get(&raw, &js_key("weights")) {
            Ok(v) if !v.is_undefined() && !v.is_null() => Some(read_f64s(&v, "weights", limits)?),
            _ => None,
        };
        let modified = match Reflect::get(&raw, &js_key("modifiedAt")) {
            // One time per document: up to maxColumnarEntries, like nDocs (not
            // maxListLength).
            Ok(v) if !v.is_undefined() && !v.is_null() => Some(read_f64s(
                &v,
                "modifiedAt",
                &Limits {
                    max_list_length: limits.max_columnar_entries,
                    ..*limits
                },
            )?),
            _ => None,
        };
        let now = Reflect::get(&raw, &js_key("now"))
            .ok()
            .and_then(|v| v.as_f64());
        let lists = core(crate::pipeline::split_offsets(&docs, &offsets))?;
        let out = core(self.inner.run_columnar(&crate::pipeline::ColumnarInput {
            lists: &lists,
            weights: weights.as_deref(),
            n_docs: n_docs as usize,
            modified_ms: modified.as_deref(),
            now_ms: now,
        }))?;
        let obj = Object::new();
        let set = |k: &'static str, v: &JsValue| Reflect::set(&obj, &js_key(k), v).map(|_| ());
        let bands: Vec<u8> = out.bands.iter().map(|b| *b as u8).collect();
        set("order", &Uint32Array::from(out.order.as_slice()).into())?;
        set("scores", &Float64Array::from(out.scores.as_slice()).into())?;
        set("bands", &Uint8Array::from(bands.as_slice()).into())?;
        set("confidence", &encode(&out.confidence)?.into())?;
        set("candidates", &JsValue::from(out.candidates))?;
        Ok(obj.into())
    }
}

/// Input of `Pipeline.runColumnar`.
#[derive(Tsify, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ColumnarInput {
    /// All lists' document indices, concatenated.
    #[tsify(type = "Uint32Array")]
    pub docs: Vec<u32>,
    /// `nLists + 1` offsets into `docs`, starting at 0.
    #[tsify(type = "Uint32Array")]
    pub offsets: Vec<u32>,
    /// Number of distinct documents; every index is below it.
    pub n_docs: u32,
    /// Weight per list (default 1).
    #[tsify(optional, type = "Float64Array | number[]")]
    pub weights: Option<Vec<f64>>,
    /// Modification time per document in epoch ms (NaN: unknown), for step recency.
    #[tsify(optional, type = "Float64Array")]
    pub modified_at: Option<Vec<f64>>,
    /// Current time in epoch ms (required with `modifiedAt`).
    #[tsify(optional)]
    pub now: Option<f64>,
}

/// Output of `Pipeline.runColumnar`: parallel typed arrays, best first.
#[derive(Tsify, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ColumnarOutput {
    /// Document indices, best first.
    #[tsify(type = "Uint32Array")]
    pub order: Vec<u32>,
    /// Calibrated scores, parallel to `order`.
    #[tsify(type = "Float64Array")]
    pub scores: Vec<f64>,
    /// Bands, parallel to `order`: 0 miss, 1 degraded, 2 hit.
    #[tsify(type = "Uint8Array")]
    pub bands: Vec<u8>,
    /// Query confidence over the returned scores.
    pub confidence: QueryConfidence,
    /// Distinct documents fused.
    pub candidates: u32,
}

// ---------------------------------------------------------------- Fusion

/// Options of `rrf`.
#[derive(Tsify, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct RrfOptions {
    /// RRF constant (default 60, >= 1).
    #[tsify(optional)]
    pub k: Option<f64>,
    /// One weight per list (default 1).
    #[tsify(optional)]
    pub weights: Option<Vec<f64>>,
}

/// Weighted Reciprocal Rank Fusion of ranked lists of ids: `[id, score]` pairs,
/// highest score first (ties: id ascending).
#[wasm_bindgen(
    js_name = "rrf",
    unchecked_return_type = "Array<[id: string, score: number]>"
)]
pub fn js_rrf(
    #[wasm_bindgen(unchecked_param_type = "string[][]")] lists: JsValue,
    options: Option<RrfOptionsArg>,
) -> JsResult<JsValue> {
    let (limits, opts): (Limits, RrfOptions) =
        options_with_limits(options.as_ref().map(AsRef::as_ref), "options")?;
    let mut reader = Reader::new(limits);
    precheck_arrays(&lists, &mut reader, "lists")?;
    let mut fast_reader = reader.clone();
    let lists: Vec<Vec<String>> = match fast_string_lists(&lists, &mut fast_reader) {
        Some(lists) => lists,
        None => {
            fast_reader.take_error()?;
            decode_value_with(lists, "lists", &mut reader)?
        }
    };
    core(limits.check_lists(lists.len(), "lists"))?;
    core(limits.check_lengths(lists.iter().map(Vec::len), "lists"))?;
    for (i, ids) in lists.iter().enumerate() {
        for (j, id) in ids.iter().enumerate() {
            core(limits.check_id(id, || format!("lists[{i}][{j}]")))?;
        }
    }
    let weights = core(crate::fuse::resolve_weights(
        opts.weights.as_deref(),
        lists.len(),
        "options.weights",
    ))?;
    let ranked: Vec<RankedList<'_, String>> = lists
        .iter()
        .zip(&weights)
        .map(|(ids, &weight)| RankedList { ids, weight })
        .collect();
    let fused = core(
        crate::fuse::rrf_interned(&ranked, opts.k.unwrap_or(crate::fuse::DEFAULT_K)).map_err(|e| {
            if e.field == "k" {
                e.within("options")
            } else {
                e
            }
        }),
    )?;
    let pairs: Vec<(&str, f64)> = fused
        .order()
        .into_iter()
        .filter_map(|d| {
            Some((
                *fused.interner.ids.get(d as usize)?,
                *fused.fusion.scores.get(d as usize)?,
            ))
        })
        .collect();
    id_score_pairs(&pairs)
}

/// `[[id, score], ...]` for `rrf`, by [`encode_json`] (one crossing of the boundary
/// instead of four per pair: `rrf` in 0.76x the time at N = 1000); non-finite scores
/// (not representable in JSON) take [`encode_value`].
fn id_score_pairs(pairs: &[(&str, f64)]) -> JsResult<JsValue> {
    encode_json(&pairs, pairs.iter().all(|(_, s)| s.is_finite()))
}

/// Options of `rrfColumnar`.
#[derive(Tsify, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct RrfColumnarOptions {
    /// RRF constant (default 60).
    #[tsify(optional)]
    pub k: Option<f64>,
    /// One weight per list.
    #[tsify(optional, type = "Float64Array | number[]")]
    pub weights: Option<Vec<f64>>,
}

/// Columnar RRF: `docs` holds every list's document indices concatenated, list i being
/// `docs[offsets[i]..offsets[i+1]]`. Returns `{ order, scores }` as typed arrays (ties:
/// index ascending).
#[wasm_bindgen(
    js_name = "rrfColumnar",
    unchecked_return_type = "{ order: Uint32Array; scores: Float64Array }"
)]
pub fn js_rrf_columnar(
    #[wasm_bindgen(unchecked_param_type = "Uint32Array | number[]")] docs: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Uint32Array | number[]")] offsets: JsValue,
    #[wasm_bindgen(js_name = "nDocs", unchecked_param_type = "number")] n_docs: JsValue,
    options: Option<RrfColumnarOptionsArg>,
) -> JsResult<JsValue> {
    let (limits, options) = match &options {
        Some(o) => {
            let (limits, rest) = split_limits(o.as_ref(), "options")?;
            (limits, Some(rest))
        }
        None => (Limits::default(), None),
    };
    let docs = read_u32s_or_array(
        &docs,
        "docs",
        limits.max_columnar_entries,
        "maxColumnarEntries",
    )?;
    let offsets = read_u32s_or_array(
        &offsets,
        "offsets",
        limits.max_lists.saturating_add(1),
        "maxLists",
    )?;
    let n_docs = n_docs
        .as_f64()
        .ok_or_else(|| err(ErrorCode::InvalidType, "nDocs", "expected a number"))?;
    if !(n_docs >= 0.0 && n_docs <= f64::from(u32::MAX) && n_docs.fract() == 0.0) {
        return Err(err(
            ErrorCode::InvalidConfig,
            "nDocs",
            format!("expected a whole number >= 0, got {n_docs}"),
        ));
    }
    let n_docs = n_docs as u32;
    let (k, weights) = match &options {
        Some(raw) if raw.is_object() => {
            let k = match Reflect::get(raw, &js_key("k")) {
                Ok(v) if v.is_undefined() => crate::fuse::DEFAULT_K,
                Ok(v) => v
                    .as_f64()
                    .ok_or_else(|| err(ErrorCode::InvalidType, "options.k", "expected a number"))?,
                Err(_) => crate::fuse::DEFAULT_K,
            };
            let w = match Reflect::get(raw, &js_key("weights")) {
                Ok(v) if !v.is_undefined() && !v.is_null() => {
                    Some(read_f64s(&v, "options.weights", &limits)?)
                }
                _ => None,
            };
            (k, w)
        }
        _ => (crate::fuse::DEFAULT_K, None),
    };
    let lists = core(crate::pipeline::split_offsets(&docs, &offsets))?;
    core(limits.check_lists(lists.len(), "offsets"))?;
    core(limits.check_columnar_lengths(lists.iter().map(|l| l.len()), "docs"))?;
    core(limits.check_columnar(n_docs as usize, "nDocs"))?;
    let weights = core(crate::fuse::resolve_weights(
        weights.as_deref(),
        lists.len(),
        "options.weights",
    ))?;
    let fused = core(
        rrf_indexed(&lists, &weights, k, n_docs as usize).map_err(|e| {
            if e.field == "k" {
                e.within("options")
            } else {
                e
            }
        }),
    )?;
    let order = fused.order();
    let scores: Vec<f64> = order
        .iter()
        .map(|&d| fused.scores.get(d as usize).copied().unwrap_or(0.0))
        .collect();
    let obj = Object::new();
    Reflect::set(
        &obj,
        &js_key("order"),
        &Uint32Array::from(order.as_slice()).into(),
    )?;
    Reflect::set(
        &obj,
        &js_key("scores"),
        &Float64Array::from(scores.as_slice()).into(),
    )?;
    Ok(obj.into())
}

/// Fuses the hits of several queries (`rrf`, `score_sum` or `score_max`).
#[wasm_bindgen(js_name = "fuseMultiQuery")]
pub fn js_fuse_multi_query(
    #[wasm_bindgen(unchecked_param_type = "QueryHit[][]")] queries: JsValue,
    options: Option<MultiQueryOptionsArg>,
) -> JsResult<Ts<MultiQueryOutput>> {
    let (limits, opts): (Limits, MultiQueryOptions) =
        options_with_limits(options.as_ref().map(AsRef::as_ref), "options")?;
    let mut reader = Reader::new(limits);
    precheck_arrays(&queries, &mut reader, "queries")?;
    let queries: Vec<Vec<QueryHit>> = decode_value_with(queries, "queries", &mut reader)?;
    core(limits.check_lists(queries.len(), "queries"))?;
    core(limits.check_lengths(queries.iter().map(Vec::len), "queries"))?;
    for (i, hits) in queries.iter().enumerate() {
        for (j, hit) in hits.iter().enumerate() {
            core(limits.check_id(&hit.id, || format!("queries[{i}][{j}].id")))?;
        }
    }
    encode(&core(
        crate::multiquery::fuse_multi_query(&queries, &opts).map_err(|e| {
            match e.field.starts_with("queries") {
                true => e,
                false => e.within("options"),
            }
        }),
    )?)
}

// ---------------------------------------------------------------- Rerank

/// Heuristic multiplicative rerank: `{ id, originalScore, rerankedScore, factors }`,
/// highest reranked score first.
#[wasm_bindgen(js_name = "rerank", unchecked_return_type = "Reranked[]")]
pub fn js_rerank(
    #[wasm_bindgen(unchecked_param_type = "string")] query: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Candidate[]")] candidates: JsValue,
    options: Option<HeuristicConfigArg>,
) -> JsResult<JsValue> {
    if let Some(o) = &options {
        check_map_at(o.as_ref(), &["typeMultipliers"], "options.typeMultipliers")?;
    }
    let (limits, cfg): (Limits, HeuristicConfig) =
        options_with_limits(options.as_ref().map(AsRef::as_ref), "options")?;
    let mut reader = Reader::new(limits);
    let query = read_string(
        &query,
        "query",
        limits.max_text_bytes as usize,
        "maxTextBytes",
    )?;
    core(reader.budget.text(query.len(), "query"))?;
    if let Some(array) = candidates.dyn_ref::<Array>() {
        core(limits.check_array(array.length() as usize, "candidates"))?;
        core(reader.entries(array.length() as usize, "candidates"))?;
    }
    let mut fast_reader = reader.clone();
    let candidates: Vec<Candidate> = match fast_candidates(&candidates, &mut fast_reader) {
        Some(c) => c,
        None => {
            fast_reader.take_error()?;
            decode_value_with(candidates, "candidates", &mut reader)?
        }
    };
    core(limits.check_array(candidates.len(), "candidates"))?;
    core(Budget::new(limits).entries(candidates.len(), "candidates"))?;
    for (i, c) in candidates.iter().enumerate() {
        core(limits.check_id(&c.id, || format!("candidates[{i}].id")))?;
        for (name, text) in [
            ("name", Some(&c.name)),
            ("summary", c.summary.as_ref()),
            ("content", c.content.as_ref()),
        ] {
            if let Some(t) = text {
                core(limits.check_text(t, || format!("candidates[{i}].{name}")))?;
            }
        }
    }
    let out: Vec<Reranked> = core(crate::rerank::rerank_heuristic(&query, &candidates, &cfg))?;
    let finite = out.iter().all(|r| {
        let f = &r.factors;
        [
            r.original_score,
            r.reranked_score,
            f.exact_name,
            f.name_terms,
            f.summary_terms,
            f.short_content,
            f.entity_type,
            f.multiplier,
        ]
        .iter()
        .all(|x| x.is_finite())
    });
    encode_json(&out, finite)
}

// ---------------------------------------------------------------- Normalize / calibrate

/// Options of `normalize`.
#[derive(Tsify, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct NormalizeOptions {
    /// Softmax temperature (default 1, > 0).
    #[tsify(optional)]
    pub temperature: Option<f64>,
}

/// Normalizes scores (`max`, `min_max`, `z_score`, `softmax`); input order kept.
#[wasm_bindgen(js_name = "normalize")]
pub fn js_normalize(
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] scores: JsValue,
    #[wasm_bindgen(
        unchecked_param_type = "\"max\" | \"min_max\" | \"z_score\" | \"softmax\" | \"none\""
    )]
    method: JsValue,
    options: Option<NormalizeOptionsArg>,
) -> JsResult<Vec<f64>> {
    let (limits, opts): (Limits, NormalizeOptions) =
        options_with_limits(options.as_ref().map(AsRef::as_ref), "options")?;
    let method = method.as_string().ok_or_else(|| {
        err(
            ErrorCode::InvalidType,
            "method",
            "expected a method name string",
        )
    })?;
    let method = core(NormalizeMethod::parse(&method))?;
    let scores = read_f64s(&scores, "scores", &limits)?;
    core(
        crate::normalize::normalize(&scores, method, opts.temperature.unwrap_or(1.0)).map_err(
            |e| {
                if e.field == "temperature" {
                    e.within("options")
                } else {
                    e
                }
            },
        ),
    )
}

/// Sigmoid calibration `1 / (1 + exp(-steepness * (raw - threshold)))`; input order kept.
#[wasm_bindgen(js_name = "calibrate")]
pub fn js_calibrate(
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] scores: JsValue,
    options: Option<SigmoidArg>,
) -> JsResult<Vec<f64>> {
    let (limits, sigmoid): (Limits, Sigmoid) =
        options_with_limits(options.as_ref().map(AsRef::as_ref), "options")?;
    let scores = read_f64s(&scores, "scores", &limits)?;
    core(crate::calibrate::calibrate(&scores, &sigmoid).map_err(|e| {
        if e.field.starts_with("scores") {
            e
        } else {
            e.within("options")
        }
    }))
}

/// Classifies one score: `{ kind: "hit" | "degraded", score }` or `{ kind: "miss" }`.
#[wasm_bindgen(js_name = "classifyBand")]
pub fn js_classify_band(
    #[wasm_bindgen(unchecked_param_type = "number")] score: JsValue,
    options: Option<Ts<BandFloors>>,
) -> JsResult<Ts<RetrievalOutcome>> {
    // A JsValue, not an f64: the glue's ToNumber throws a TypeError on a BigInt, a
    // Symbol or an object without a primitive value.
    let score = score
        .as_f64()
        .ok_or_else(|| err(ErrorCode::InvalidType, "score", "expected a number"))?;
    let floors = decode_opt(options, "options")?;
    encode(&core(floors.classify(score, None).map_err(|e| {
        if e.field == "score" {
            e
        } else {
            e.within("options")
        }
    }))?)
}

/// Query-level confidence: weighted top-5, expected precision, P(at least one relevant).
#[wasm_bindgen(js_name = "queryConfidence")]
pub fn js_query_confidence(
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] scores: JsValue,
    options: Option<ConfidenceOptionsArg>,
) -> JsResult<Ts<QueryConfidence>> {
    let (limits, opts): (Limits, ConfidenceOptions) =
        options_with_limits(options.as_ref().map(AsRef::as_ref), "options")?;
    let scores = read_f64s(&scores, "scores", &limits)?;
    encode(&core(
        crate::confidence::query_confidence(&scores, &opts).map_err(|e| {
            if e.field.starts_with("scores") {
                e
            } else {
                e.within("options")
            }
        }),
    )?)
}

/// The package version.
#[wasm_bindgen(js_name = "version")]
pub fn js_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Every error code calibrank can throw.
#[wasm_bindgen(js_name = "errorCodes", unchecked_return_type = "string[]")]
pub fn js_error_codes() -> JsValue {
    ErrorCode::ALL
        .iter()
        .map(|c| JsValue::from_str(c.as_str()))
        .collect::<Array>()
        .into()
}

// ---------------------------------------------------------------- Runs, metrics, fitting

/// Reads TREC text under `limits`: at most `maxTotalTextBytes` bytes (checked before
/// the copy) and `maxTotalEntries` lines with data (checked before parsing).
fn read_trec_text(text: &JsValue, limits: &Limits) -> JsResult<String> {
    let text = read_string(
        text,
        "text",
        limits.max_total_text_bytes as usize,
        "maxTotalTextBytes",
    )?;
    let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
    core(limits.check_entries(lines, "text"))?;
    Ok(text)
}

/// Parses a TREC run (`qid Q0 docid rank score tag` per line) into its JSON form.
#[wasm_bindgen(
    js_name = "parseTrecRun",
    unchecked_return_type = "Record<string, Record<string, number>>"
)]
pub fn js_parse_trec_run(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    options: Option<LimitsArg>,
) -> JsResult<JsValue> {
    let text = read_trec_text(&text, &limits_only(options)?)?;
    encode_run(&core(crate::eval::parse_trec_run(&text))?)
}

/// Parses TREC qrels (`qid iter docid rel` per line) into their JSON form.
#[wasm_bindgen(
    js_name = "parseQrels",
    unchecked_return_type = "Record<string, Record<string, number>>"
)]
pub fn js_parse_qrels(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    options: Option<LimitsArg>,
) -> JsResult<JsValue> {
    let text = read_trec_text(&text, &limits_only(options)?)?;
    encode_run(&core(crate::eval::parse_qrels(&text))?)
}

/// A plain record (an object that is not an Array, a Map or another iterable).
fn fast_plain_record(value: &JsValue) -> Option<()> {
    let plain = value.is_object()
        && !Array::is_array(value)
        && !value.has_type::<js_sys::Map>()
        && !Reflect::has(value, &js_sys::Symbol::iterator()).ok()?;
    plain.then_some(())
}

/// A run that is a plain record of plain records of numbers, read in one pass (own
/// enumerable keys, as serde-wasm-bindgen's `Object.entries`) and built in bulk; `None`
/// sends anything else through the checks and the generic decode of [`decode_run`],
/// which accept exactly these runs with the same values.
fn fast_run(value: &JsValue, reader: &mut Reader, field: &str) -> Option<Run> {
    fast_plain_record(value)?;
    let queries = keys_of(value).ok()?;
    let mut run = Vec::with_capacity(queries.length() as usize);
    for i in 0..queries.length() {
        let q = queries.get(i);
        let docs = fast_get(value, &q)?;
        fast_plain_record(&docs)?;
        let ids = keys_of(&docs).ok()?;
        // Charged before the entries are read.
        let charged = reader.entries(ids.length() as usize, field);
        reader.fast(charged)?;
        let mut scores = Vec::with_capacity(ids.length() as usize);
        for j in 0..ids.length() {
            let d = ids.get(j);
            let score = fast_get(&docs, &d)?.as_f64()?;
            scores.push((reader.fast_string(&d, &|| field.to_string())??, score));
        }
        run.push((
            reader.fast_string(&q, &|| field.to_string())??,
            scores.into_iter().collect(),
        ));
    }
    Some(run.into_iter().collect())
}

/// Decodes a run or qrels, charging its entries and strings to `reader` (shared by all
/// the runs of one call).
fn decode_run(value: JsValue, field: &str, reader: &mut Reader) -> JsResult<Run> {
    let mut fast_reader = reader.clone();
    if let Some(run) = fast_run(&value, &mut fast_reader, field) {
        *reader = fast_reader;
        return Ok(run);
    }
    fast_reader.take_error()?;
    check_run_shape(&value, field)?;
    check_tree(&value, field, reader)?;
    let run: Run = serde_wasm_bindgen::from_value(value)
        .map_err(|e| to_js_error(from_serde_message(&e.to_string(), field)))?;
    let total: usize = run.values().map(|docs| docs.len()).sum();
    core(reader.entries(total, field))?;
    Ok(run)
}

/// Decodes the arguments of `evaluate` / `evaluatePerQuery` and evaluates.
fn evaluate_js(
    qrels: JsValue,
    run: JsValue,
    metrics: JsValue,
    options: Option<LimitsArg>,
) -> JsResult<crate::eval::Evaluation> {
    let mut reader = Reader::new(limits_only(options)?);
    let qrels = decode_run(qrels, "qrels", &mut reader)?;
    let run = decode_run(run, "run", &mut reader)?;
    let metrics = decode_metrics(metrics)?;
    let names: Vec<&str> = metrics.iter().map(String::as_str).collect();
    core(crate::eval::evaluate(&qrels, &run, &names))
}

fn decode_metrics(value: JsValue) -> JsResult<Vec<String>> {
    let metrics: Vec<String> = decode_value(value, "metrics")?;
    core(Limits::default().check_lists(metrics.len(), "metrics"))?;
    Ok(metrics)
}

/// Mean of each metric over the judged queries, ranx-compatible (`ndcg@10`, `map@100`,
/// `recall@100`, `mrr`, `precision@k`, `hit_rate@k`, `r-precision`, ...).
#[wasm_bindgen(js_name = "evaluate", unchecked_return_type = "Record<string, number>")]
pub fn js_evaluate(
    #[wasm_bindgen(unchecked_param_type = "Record<string, Record<string, number>>")] qrels: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Record<string, Record<string, number>>")] run: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[]")] metrics: JsValue,
    options: Option<LimitsArg>,
) -> JsResult<JsValue> {
    let ev = evaluate_js(qrels, run, metrics, options)?;
    let means: std::collections::BTreeMap<&str, f64> =
        ev.means.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    encode_value(&means)
}

/// Per-query values of each metric: metric -> query id -> value.
#[wasm_bindgen(
    js_name = "evaluatePerQuery",
    unchecked_return_type = "Record<string, Record<string, number>>"
)]
pub fn js_evaluate_per_query(
    #[wasm_bindgen(unchecked_param_type = "Record<string, Record<string, number>>")] qrels: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Record<string, Record<string, number>>")] run: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[]")] metrics: JsValue,
    options: Option<LimitsArg>,
) -> JsResult<JsValue> {
    let ev = evaluate_js(qrels, run, metrics, options)?;
    let per: std::collections::BTreeMap<String, std::collections::BTreeMap<&str, f64>> = ev
        .means
        .iter()
        .filter_map(|(name, _)| Some((name.clone(), ev.query_values(name)?)))
        .collect();
    encode_value(&per)
}

fn read_labels(
    scores: JsValue,
    labels: JsValue,
    limits: &Limits,
) -> JsResult<(Vec<f64>, Vec<f64>)> {
    Ok((
        read_f64s(&scores, "scores", limits)?,
        read_f64s(&labels, "labels", limits)?,
    ))
}

/// Platt scaling fitted on (score, 0/1 label) pairs; the result plugs into a
/// pipeline config as `calibration`.
#[wasm_bindgen(
    js_name = "fitPlatt",
    unchecked_return_type = "{ method: \"platt\"; a: number; b: number }"
)]
pub fn js_fit_platt(
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] scores: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] labels: JsValue,
    options: Option<LimitsArg>,
) -> JsResult<JsValue> {
    let (s, l) = read_labels(scores, labels, &limits_only(options)?)?;
    let model = core(crate::fit::fit_platt(&s, &l))?;
    encode_value(&crate::pipeline::Calibration::Platt(model))
}

/// Isotonic regression fitted on (score, 0/1 label) pairs; the result plugs into a
/// pipeline config as `calibration`.
#[wasm_bindgen(
    js_name = "fitIsotonic",
    unchecked_return_type = "{ method: \"isotonic\"; x: number[]; y: number[] }"
)]
pub fn js_fit_isotonic(
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] scores: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] labels: JsValue,
    options: Option<LimitsArg>,
) -> JsResult<JsValue> {
    let (s, l) = read_labels(scores, labels, &limits_only(options)?)?;
    let model = core(crate::fit::fit_isotonic(&s, &l))?;
    encode_value(&crate::pipeline::Calibration::Isotonic(model))
}

/// Applies a calibration (sigmoid, Platt or isotonic) to raw scores; input order kept.
#[wasm_bindgen(js_name = "applyCalibration")]
pub fn js_apply_calibration(
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] scores: JsValue,
    calibration: Ts<crate::pipeline::Calibration>,
    options: Option<LimitsArg>,
) -> JsResult<Vec<f64>> {
    let limits = limits_only(options)?;
    let raw = calibration.js_value();
    let cal = match fast_isotonic(&raw, &limits) {
        Some(cal) => cal,
        None => decode_value_with(raw, "calibration", &mut Reader::new(limits))?,
    };
    core(cal.validate().map_err(|e| e.within("calibration")))?;
    let scores = read_f64s(&scores, "scores", &limits)?;
    core(crate::error::all_finite(&scores, "scores"))?;
    Ok(cal.apply_many(&scores))
}

/// ECE (equal-width or equal-mass bins), MCE, Brier score, log loss and the
/// reliability-curve data of calibrated probabilities.
#[wasm_bindgen(js_name = "calibrationError")]
pub fn js_calibration_error(
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] probabilities: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] labels: JsValue,
    options: Option<CalibrationErrorOptionsArg>,
) -> JsResult<Ts<crate::fit::CalibrationReport>> {
    let (limits, opts): (Limits, crate::fit::CalibrationErrorOptions) =
        options_with_limits(options.as_ref().map(AsRef::as_ref), "options")?;
    let p = read_f64s(&probabilities, "probabilities", &limits)?;
    let l = read_f64s(&labels, "labels", &limits)?;
    encode(&core(crate::fit::calibration_error(&p, &l, &opts))?)
}

/// Band floors from evidence: `highFloor` where hit precision reaches the target,
/// `degradedFloor` at the F1 optimum, with k-fold held-out precision and recall.
#[wasm_bindgen(js_name = "proposeBands")]
pub fn js_propose_bands(
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] scores: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] labels: JsValue,
    options: Option<ProposeBandsOptionsArg>,
) -> JsResult<Ts<crate::fit::BandProposal>> {
    let (limits, opts): (Limits, crate::fit::ProposeBandsOptions) =
        options_with_limits(options.as_ref().map(AsRef::as_ref), "options")?;
    let (s, l) = read_labels(scores, labels, &limits)?;
    encode(&core(crate::fit::propose_bands(&s, &l, &opts))?)
}

fn decode_runs(value: JsValue, reader: &mut Reader) -> JsResult<Vec<Run>> {
    if !Array::is_array(&value) {
        return Err(err(
            ErrorCode::InvalidType,
            "runs",
            "expected an array of runs",
        ));
    }
    let array: Array = value.unchecked_into();
    core(reader.limits().check_lists(array.length() as usize, "runs"))?;
    array
        .iter()
        .enumerate()
        .map(|(i, r)| decode_run(r, &format!("runs[{i}]"), reader))
        .collect()
}

/// Fuses whole runs (JSON form) with any ranx method (`sum`, `mnz`, `max`, `min`, `med`,
/// `anz`, `wsum`, `wmnz`, `mixed`, `rrf`, `rbc`, `isr`, `log_isr`, `logn_isr`,
/// `bordafuse`, `w_bordafuse`, `condorcet`, `w_condorcet`), Qdrant's `dbsf` or
/// OpenSearch's `arithmetic_mean` / `geometric_mean` / `harmonic_mean`.
#[wasm_bindgen(
    js_name = "fuseRuns",
    unchecked_return_type = "Record<string, Record<string, number>>"
)]
pub fn js_fuse_runs(
    #[wasm_bindgen(unchecked_param_type = "Array<Record<string, Record<string, number>>>")]
    runs: JsValue,
    options: FuseRunsOptionsArg,
) -> JsResult<JsValue> {
    let options: &JsValue = options.as_ref();
    if options.is_undefined() || options.is_null() {
        return Err(err(
            ErrorCode::InvalidType,
            "options",
            "expected the options, with at least `method`",
        ));
    }
    check_map_at(options, &["params"], "options.params")?;
    let (limits, opts): (Limits, crate::runfusion::FuseRunsOptions) =
        options_with_limits(Some(options), "options")?;
    let runs = decode_runs(runs, &mut Reader::new(limits))?;
    encode_run(&core(crate::runfusion::fuse_runs(&runs, &opts).map_err(
        |e| {
            if e.field.starts_with("runs") || e.field.starts_with("result") {
                e
            } else {
                e.within("options")
            }
        },
    ))?)
}

/// Grid search over a fusion method's weights (step 0.1, summing to 1) or RRF `k`
/// (10..100), maximizing a metric on judgements; `onProgress({ done, total, bestScore })`
/// is called after every configuration.
#[wasm_bindgen(js_name = "optimizeFusion")]
pub fn js_optimize_fusion(
    #[wasm_bindgen(unchecked_param_type = "Record<string, Record<string, number>>")] qrels: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Array<Record<string, Record<string, number>>>")]
    runs: JsValue,
    options: Option<OptimizeOptionsArg>,
    #[wasm_bindgen(js_name = "onProgress")] on_progress: Option<Function>,
) -> JsResult<Ts<crate::optimize::OptimizeReport>> {
    // wasm-bindgen does not check an imported type: a non-function would make `call1`
    // throw a TypeError instead of a ScoreError.
    if on_progress.as_ref().is_some_and(|f| !f.is_function()) {
        return Err(err(
            ErrorCode::InvalidType,
            "onProgress",
            "expected a function",
        ));
    }
    let (limits, opts): (Limits, crate::optimize::OptimizeOptions) =
        options_with_limits(options.as_ref().map(AsRef::as_ref), "options")?;
    let mut reader = Reader::new(limits);
    let qrels = decode_run(qrels, "qrels", &mut reader)?;
    let runs = decode_runs(runs, &mut reader)?;
    core(
        crate::optimize::check_work(&runs, &opts, &limits).map_err(|e| match e.field.as_str() {
            "runs" => e,
            _ => e.within("options"),
        }),
    )?;
    let mut callback_error: Option<JsValue> = None;
    let mut progress = |p: crate::optimize::Progress| {
        if let (Some(f), None) = (&on_progress, &callback_error) {
            let arg = encode_value(&p).unwrap_or(JsValue::UNDEFINED);
            if let Err(e) = f.call1(&JsValue::NULL, &arg) {
                callback_error = Some(e);
            }
        }
    };
    let report = core(
        crate::optimize::optimize_fusion(&qrels, &runs, &opts, &mut progress).map_err(|e| match e
            .field
            .as_str()
        {
            "runs" | "qrels" => e,
            _ if e.field.starts_with("runs") => e,
            _ => e.within("options"),
        }),
    )?;
    if let Some(e) = callback_error {
        return Err(e);
    }
    encode(&report)
}
