//! JavaScript bindings (compiled for `wasm32` only). Thin: decode, call the core,
//! encode. Every error becomes a `ScoreError` (the JS class registered by the
//! package's entry module) with `code`, `field` and `message`; nothing panics.

use crate::bands::{BandFloors, RetrievalOutcome};
use crate::calibrate::Sigmoid;
use crate::confidence::{ConfidenceOptions, QueryConfidence};
use crate::error::{from_serde_message, ErrorCode, ScoreError};
use crate::fuse::{rrf_indexed, RankedList};
use crate::limits::Limits;
use crate::multiquery::{MultiQueryOptions, MultiQueryOutput, QueryHit};
use crate::normalize::NormalizeMethod;
use crate::pipeline::{PipelineConfig, PipelineInput, PipelineOutput};
use crate::rerank::{Candidate, HeuristicConfig, Reranked};
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
    let args = Array::of3(&JsValue::from_str(&e.message), &JsValue::from_str(e.code.as_str()), &JsValue::from_str(&e.field));
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

fn decode_opt<T: Tsify + serde::de::DeserializeOwned + Default>(value: Option<Ts<T>>, what: &str) -> JsResult<T>
where
    T::JsType: JsCast,
{
    match value {
        None => Ok(T::default()),
        Some(v) => decode(&v, what),
    }
}

/// Decodes a JS value into `T`. serde-wasm-bindgen looks up only the fields it knows,
/// so unknown fields are found by a second pass through a JSON value tree (where NaN
/// is lost, which is why the typed decode comes from the first pass).
fn decode_value<T: serde::de::DeserializeOwned>(value: JsValue, what: &str) -> JsResult<T> {
    let typed: T = serde_wasm_bindgen::from_value(value.clone()).map_err(|e| to_js_error(from_serde_message(&e.to_string(), what)))?;
    reject_unknown_fields::<T>(value, what)?;
    Ok(typed)
}

fn reject_unknown_fields<T: serde::de::DeserializeOwned>(value: JsValue, what: &str) -> JsResult<()> {
    let Ok(tree) = serde_wasm_bindgen::from_value::<serde_json::Value>(value) else { return Ok(()) };
    match serde_json::from_value::<T>(tree) {
        Err(e) if e.to_string().starts_with("unknown field") => Err(to_js_error(from_serde_message(&e.to_string(), what))),
        _ => Ok(()),
    }
}

/// Decodes the (possibly large) pipeline input without the generic second pass: the
/// typed decode, then a check of the keys of the input, each list and each item.
fn decode_input(value: JsValue) -> JsResult<PipelineInput> {
    let typed: PipelineInput =
        serde_wasm_bindgen::from_value(value.clone()).map_err(|e| to_js_error(from_serde_message(&e.to_string(), "input")))?;
    check_keys(&value, &["query", "lists", "items", "now", "context"], "input")?;
    if let Ok(lists) = Reflect::get(&value, &"lists".into()) {
        if let Some(lists) = lists.dyn_ref::<Array>() {
            for (i, list) in lists.iter().enumerate() {
                check_keys(&list, &["name", "ids", "scores", "weight"], &format!("lists[{i}]"))?;
            }
        }
    }
    if let Ok(items) = Reflect::get(&value, &"items".into()) {
        if items.is_object() {
            let entries = Object::entries(items.unchecked_ref::<Object>());
            for entry in entries.iter() {
                let id = Reflect::get(&entry, &0.into()).ok().and_then(|k| k.as_string()).unwrap_or_default();
                let meta = Reflect::get(&entry, &1.into()).unwrap_or(JsValue::UNDEFINED);
                check_keys(&meta, &["name", "type", "summary", "content", "modifiedAt", "fiscalYear", "crossEncoderScore"], &format!("items.{id}"))?;
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
            return Err(err(ErrorCode::UnknownField, &format!("{path}.{key}"), format!("unknown field `{key}`, expected one of {}", allowed.join(", "))));
        }
    }
    Ok(())
}

fn encode<T: Tsify + Serialize>(value: &T) -> JsResult<Ts<T>> {
    Ts::from_rust(value).map_err(|e| err(ErrorCode::Internal, "", format!("cannot encode the result: {e}")))
}

fn encode_value<T: Serialize>(value: &T) -> JsResult<JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true))
        .map_err(|e| err(ErrorCode::Internal, "", format!("cannot encode the result: {e}")))
}

fn core<T>(r: crate::Result<T>) -> JsResult<T> {
    r.map_err(to_js_error)
}

/// Reads `Float64Array | number[]` into a vector; anything else is `INVALID_TYPE`.
fn read_f64s(value: &JsValue, field: &str, limits: &Limits) -> JsResult<Vec<f64>> {
    if let Some(typed) = value.dyn_ref::<Float64Array>() {
        core(limits.check_lengths([typed.length() as usize], field))?;
        return Ok(typed.to_vec());
    }
    if !Array::is_array(value) {
        return Err(err(ErrorCode::InvalidType, field, "expected a Float64Array or an array of numbers"));
    }
    let array: &Array = value.unchecked_ref();
    core(limits.check_lengths([array.length() as usize], field))?;
    let mut out = Vec::with_capacity(array.length() as usize);
    for (i, v) in array.iter().enumerate() {
        match v.as_f64() {
            Some(x) => out.push(x),
            None => return Err(err(ErrorCode::InvalidType, &format!("{field}[{i}]"), "expected a number")),
        }
    }
    Ok(out)
}

fn read_u32s(value: &JsValue, field: &str) -> JsResult<Vec<u32>> {
    match value.dyn_ref::<Uint32Array>() {
        Some(typed) => Ok(typed.to_vec()),
        None => Err(err(ErrorCode::InvalidType, field, "expected a Uint32Array")),
    }
}

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
        let config = decode_opt(config, "config")?;
        Ok(JsPipeline { inner: core(crate::pipeline::Pipeline::new(config))? })
    }

    /// Runs the pipeline: fuse, recency, rerank, normalize, calibrate, filter, topN,
    /// bands, confidence.
    pub fn run(&self, input: Ts<PipelineInput>) -> JsResult<Ts<PipelineOutput>> {
        let input = decode_input(input.js_value())?;
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
        let docs = read_u32s(&Reflect::get(&raw, &"docs".into()).unwrap_or(JsValue::UNDEFINED), "docs")?;
        let offsets = read_u32s(&Reflect::get(&raw, &"offsets".into()).unwrap_or(JsValue::UNDEFINED), "offsets")?;
        let n_docs = Reflect::get(&raw, &"nDocs".into()).ok().and_then(|v| v.as_f64()).ok_or_else(|| err(ErrorCode::InvalidType, "nDocs", "expected a number"))?;
        if !(n_docs >= 0.0 && n_docs <= f64::from(u32::MAX) && n_docs.fract() == 0.0) {
            return Err(err(ErrorCode::InvalidConfig, "nDocs", format!("expected a whole number >= 0, got {n_docs}")));
        }
        let limits = &self.inner.config().limits;
        let weights = match Reflect::get(&raw, &"weights".into()) {
            Ok(v) if !v.is_undefined() && !v.is_null() => Some(read_f64s(&v, "weights", limits)?),
            _ => None,
        };
        let modified = match Reflect::get(&raw, &"modifiedAt".into()) {
            Ok(v) if !v.is_undefined() && !v.is_null() => Some(read_f64s(&v, "modifiedAt", limits)?),
            _ => None,
        };
        let now = Reflect::get(&raw, &"now".into()).ok().and_then(|v| v.as_f64());
        let lists = core(crate::pipeline::split_offsets(&docs, &offsets))?;
        let out = core(self.inner.run_columnar(&crate::pipeline::ColumnarInput {
            lists: &lists,
            weights: weights.as_deref(),
            n_docs: n_docs as usize,
            modified_ms: modified.as_deref(),
            now_ms: now,
        }))?;
        let obj = Object::new();
        let set = |k: &str, v: &JsValue| Reflect::set(&obj, &k.into(), v).map(|_| ());
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
#[wasm_bindgen(js_name = "rrf", unchecked_return_type = "Array<[id: string, score: number]>")]
pub fn js_rrf(#[wasm_bindgen(unchecked_param_type = "string[][]")] lists: JsValue, options: Option<Ts<RrfOptions>>) -> JsResult<JsValue> {
    let opts = decode_opt(options, "options")?;
    let lists: Vec<Vec<String>> = decode_value(lists, "lists")?;
    let limits = Limits::default();
    core(limits.check_lists(lists.len(), "lists"))?;
    core(limits.check_lengths(lists.iter().map(Vec::len), "lists"))?;
    let weights = core(crate::fuse::resolve_weights(opts.weights.as_deref(), lists.len(), "options.weights"))?;
    let ranked: Vec<RankedList<'_, String>> = lists.iter().zip(&weights).map(|(ids, &weight)| RankedList { ids, weight }).collect();
    let fused = core(crate::fuse::rrf(&ranked, opts.k.unwrap_or(crate::fuse::DEFAULT_K)).map_err(|e| if e.field == "k" { e.within("options") } else { e }))?;
    let out = Array::new_with_length(u32::try_from(fused.items.len()).unwrap_or(u32::MAX));
    for (i, item) in (0u32..).zip(&fused.items) {
        out.set(i, Array::of2(&JsValue::from_str(&item.id), &JsValue::from_f64(item.score)).into());
    }
    Ok(out.into())
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
#[wasm_bindgen(js_name = "rrfColumnar", unchecked_return_type = "{ order: Uint32Array; scores: Float64Array }")]
pub fn js_rrf_columnar(docs: &[u32], offsets: &[u32], #[wasm_bindgen(js_name = "nDocs")] n_docs: u32, options: Option<Ts<RrfColumnarOptions>>) -> JsResult<JsValue> {
    let (k, weights) = match &options {
        None => (crate::fuse::DEFAULT_K, None),
        Some(o) => {
            let raw = o.js_value();
            let k = match Reflect::get(&raw, &"k".into()) {
                Ok(v) if v.is_undefined() => crate::fuse::DEFAULT_K,
                Ok(v) => v.as_f64().ok_or_else(|| err(ErrorCode::InvalidType, "options.k", "expected a number"))?,
                Err(_) => crate::fuse::DEFAULT_K,
            };
            let w = match Reflect::get(&raw, &"weights".into()) {
                Ok(v) if !v.is_undefined() && !v.is_null() => Some(read_f64s(&v, "options.weights", &Limits::default())?),
                _ => None,
            };
            (k, w)
        }
    };
    let lists = core(crate::pipeline::split_offsets(docs, offsets))?;
    let limits = Limits::default();
    core(limits.check_lists(lists.len(), "offsets"))?;
    core(limits.check_lengths(lists.iter().map(|l| l.len()), "docs"))?;
    if n_docs > limits.max_total_entries {
        return Err(err(ErrorCode::InputTooLarge, "nDocs", format!("nDocs {n_docs} is above the limit of {}", limits.max_total_entries)));
    }
    let weights = core(crate::fuse::resolve_weights(weights.as_deref(), lists.len(), "options.weights"))?;
    let fused = core(rrf_indexed(&lists, &weights, k, n_docs as usize).map_err(|e| if e.field == "k" { e.within("options") } else { e }))?;
    let order = fused.order();
    let scores: Vec<f64> = order.iter().map(|&d| fused.scores.get(d as usize).copied().unwrap_or(0.0)).collect();
    let obj = Object::new();
    Reflect::set(&obj, &"order".into(), &Uint32Array::from(order.as_slice()).into())?;
    Reflect::set(&obj, &"scores".into(), &Float64Array::from(scores.as_slice()).into())?;
    Ok(obj.into())
}

/// Fuses the hits of several queries (`rrf`, `score_sum` or `score_max`).
#[wasm_bindgen(js_name = "fuseMultiQuery")]
pub fn js_fuse_multi_query(
    #[wasm_bindgen(unchecked_param_type = "QueryHit[][]")] queries: JsValue,
    options: Option<Ts<MultiQueryOptions>>,
) -> JsResult<Ts<MultiQueryOutput>> {
    let opts = decode_opt(options, "options")?;
    let queries: Vec<Vec<QueryHit>> = decode_value(queries, "queries")?;
    let limits = Limits::default();
    core(limits.check_lists(queries.len(), "queries"))?;
    core(limits.check_lengths(queries.iter().map(Vec::len), "queries"))?;
    encode(&core(crate::multiquery::fuse_multi_query(&queries, &opts).map_err(|e| match e.field.starts_with("queries") { true => e, false => e.within("options") }))?)
}

// ---------------------------------------------------------------- Rerank

/// Heuristic multiplicative rerank: `{ id, originalScore, rerankedScore, factors }`,
/// highest reranked score first.
#[wasm_bindgen(js_name = "rerank", unchecked_return_type = "Reranked[]")]
pub fn js_rerank(
    query: &str,
    #[wasm_bindgen(unchecked_param_type = "Candidate[]")] candidates: JsValue,
    options: Option<Ts<HeuristicConfig>>,
) -> JsResult<JsValue> {
    let cfg = decode_opt(options, "options")?;
    let candidates: Vec<Candidate> = decode_value(candidates, "candidates")?;
    let limits = Limits::default();
    core(limits.check_lengths([candidates.len()], "candidates"))?;
    core(limits.check_text(query, || "query".into()))?;
    let out: Vec<Reranked> = core(crate::rerank::rerank_heuristic(query, &candidates, &cfg))?;
    encode_value(&out)
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
    #[wasm_bindgen(unchecked_param_type = "\"max\" | \"min_max\" | \"z_score\" | \"softmax\" | \"none\"")] method: JsValue,
    options: Option<Ts<NormalizeOptions>>,
) -> JsResult<Vec<f64>> {
    let opts = decode_opt(options, "options")?;
    let method = method.as_string().ok_or_else(|| err(ErrorCode::InvalidType, "method", "expected a method name string"))?;
    let method = core(NormalizeMethod::parse(&method))?;
    let scores = read_f64s(&scores, "scores", &Limits::default())?;
    core(crate::normalize::normalize(&scores, method, opts.temperature.unwrap_or(1.0)).map_err(|e| if e.field == "temperature" { e.within("options") } else { e }))
}

/// Sigmoid calibration `1 / (1 + exp(-steepness * (raw - threshold)))`; input order kept.
#[wasm_bindgen(js_name = "calibrate")]
pub fn js_calibrate(
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] scores: JsValue,
    options: Option<Ts<Sigmoid>>,
) -> JsResult<Vec<f64>> {
    let sigmoid = decode_opt(options, "options")?;
    let scores = read_f64s(&scores, "scores", &Limits::default())?;
    core(crate::calibrate::calibrate(&scores, &sigmoid).map_err(|e| if e.field.starts_with("scores") { e } else { e.within("options") }))
}

/// Classifies one score: `{ kind: "hit" | "degraded", score }` or `{ kind: "miss" }`.
#[wasm_bindgen(js_name = "classifyBand")]
pub fn js_classify_band(score: f64, options: Option<Ts<BandFloors>>) -> JsResult<Ts<RetrievalOutcome>> {
    let floors = decode_opt(options, "options")?;
    encode(&core(floors.classify(score, None).map_err(|e| if e.field == "score" { e } else { e.within("options") }))?)
}

/// Query-level confidence: weighted top-5, expected precision, P(at least one relevant).
#[wasm_bindgen(js_name = "queryConfidence")]
pub fn js_query_confidence(
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] scores: JsValue,
    options: Option<Ts<ConfidenceOptions>>,
) -> JsResult<Ts<QueryConfidence>> {
    let opts = decode_opt(options, "options")?;
    let scores = read_f64s(&scores, "scores", &Limits::default())?;
    encode(&core(crate::confidence::query_confidence(&scores, &opts).map_err(|e| if e.field.starts_with("scores") { e } else { e.within("options") }))?)
}

/// The package version.
#[wasm_bindgen(js_name = "version")]
pub fn js_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Every error code calibrank can throw.
#[wasm_bindgen(js_name = "errorCodes", unchecked_return_type = "string[]")]
pub fn js_error_codes() -> JsValue {
    ErrorCode::ALL.iter().map(|c| JsValue::from_str(c.as_str())).collect::<Array>().into()
}

// ---------------------------------------------------------------- Runs, metrics, fitting

/// A run or qrels in JSON form: query id -> document id -> score or grade.
type RunJson = std::collections::BTreeMap<String, std::collections::BTreeMap<String, f64>>;

fn check_text_size(text: &str, field: &str) -> JsResult<()> {
    let limit = Limits::default().max_text_bytes as usize * 64;
    if text.len() > limit {
        return Err(err(ErrorCode::InputTooLarge, field, format!("the text is {} bytes, above the limit of {limit}", text.len())));
    }
    Ok(())
}

/// Parses a TREC run (`qid Q0 docid rank score tag` per line) into its JSON form.
#[wasm_bindgen(js_name = "parseTrecRun", unchecked_return_type = "Record<string, Record<string, number>>")]
pub fn js_parse_trec_run(text: &str) -> JsResult<JsValue> {
    check_text_size(text, "text")?;
    encode_value(&core(crate::eval::parse_trec_run(text))?)
}

/// Parses TREC qrels (`qid iter docid rel` per line) into their JSON form.
#[wasm_bindgen(js_name = "parseQrels", unchecked_return_type = "Record<string, Record<string, number>>")]
pub fn js_parse_qrels(text: &str) -> JsResult<JsValue> {
    check_text_size(text, "text")?;
    encode_value(&core(crate::eval::parse_qrels(text))?)
}

fn decode_run(value: JsValue, field: &str) -> JsResult<RunJson> {
    let run: RunJson = serde_wasm_bindgen::from_value(value).map_err(|e| to_js_error(from_serde_message(&e.to_string(), field)))?;
    let total: usize = run.values().map(|docs| docs.len()).sum();
    core(Limits::default().check_lengths([total], field))?;
    Ok(run)
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
) -> JsResult<JsValue> {
    let qrels = decode_run(qrels, "qrels")?;
    let run = decode_run(run, "run")?;
    let metrics = decode_metrics(metrics)?;
    let names: Vec<&str> = metrics.iter().map(String::as_str).collect();
    let ev = core(crate::eval::evaluate(&qrels, &run, &names))?;
    let means: std::collections::BTreeMap<&str, f64> = ev.means.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    encode_value(&means)
}

/// Per-query values of each metric: metric -> query id -> value.
#[wasm_bindgen(js_name = "evaluatePerQuery", unchecked_return_type = "Record<string, Record<string, number>>")]
pub fn js_evaluate_per_query(
    #[wasm_bindgen(unchecked_param_type = "Record<string, Record<string, number>>")] qrels: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Record<string, Record<string, number>>")] run: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[]")] metrics: JsValue,
) -> JsResult<JsValue> {
    let qrels = decode_run(qrels, "qrels")?;
    let run = decode_run(run, "run")?;
    let metrics = decode_metrics(metrics)?;
    let names: Vec<&str> = metrics.iter().map(String::as_str).collect();
    let ev = core(crate::eval::evaluate(&qrels, &run, &names))?;
    let per: std::collections::BTreeMap<String, std::collections::BTreeMap<&str, f64>> =
        ev.means.iter().filter_map(|(name, _)| Some((name.clone(), ev.query_values(name)?))).collect();
    encode_value(&per)
}

fn read_labels(scores: JsValue, labels: JsValue) -> JsResult<(Vec<f64>, Vec<f64>)> {
    let limits = Limits::default();
    Ok((read_f64s(&scores, "scores", &limits)?, read_f64s(&labels, "labels", &limits)?))
}

/// Platt scaling fitted on (score, 0/1 label) pairs; the result plugs into a
/// pipeline config as `calibration`.
#[wasm_bindgen(js_name = "fitPlatt", unchecked_return_type = "{ method: \"platt\"; a: number; b: number }")]
pub fn js_fit_platt(
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] scores: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] labels: JsValue,
) -> JsResult<JsValue> {
    let (s, l) = read_labels(scores, labels)?;
    let model = core(crate::fit::fit_platt(&s, &l))?;
    encode_value(&crate::pipeline::Calibration::Platt(model))
}

/// Isotonic regression fitted on (score, 0/1 label) pairs; the result plugs into a
/// pipeline config as `calibration`.
#[wasm_bindgen(js_name = "fitIsotonic", unchecked_return_type = "{ method: \"isotonic\"; x: number[]; y: number[] }")]
pub fn js_fit_isotonic(
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] scores: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] labels: JsValue,
) -> JsResult<JsValue> {
    let (s, l) = read_labels(scores, labels)?;
    let model = core(crate::fit::fit_isotonic(&s, &l))?;
    encode_value(&crate::pipeline::Calibration::Isotonic(model))
}

/// Applies a calibration (sigmoid, Platt or isotonic) to raw scores; input order kept.
#[wasm_bindgen(js_name = "applyCalibration")]
pub fn js_apply_calibration(
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] scores: JsValue,
    calibration: Ts<crate::pipeline::Calibration>,
) -> JsResult<Vec<f64>> {
    let cal = decode(&calibration, "calibration")?;
    core(cal.validate().map_err(|e| e.within("calibration")))?;
    let scores = read_f64s(&scores, "scores", &Limits::default())?;
    core(crate::error::all_finite(&scores, "scores"))?;
    Ok(scores.iter().map(|&s| cal.apply(s)).collect())
}

/// ECE (equal-width or equal-mass bins), MCE, Brier score, log loss and the
/// reliability-curve data of calibrated probabilities.
#[wasm_bindgen(js_name = "calibrationError")]
pub fn js_calibration_error(
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] probabilities: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] labels: JsValue,
    options: Option<Ts<crate::fit::CalibrationErrorOptions>>,
) -> JsResult<Ts<crate::fit::CalibrationReport>> {
    let opts = decode_opt(options, "options")?;
    let limits = Limits::default();
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
    options: Option<Ts<crate::fit::ProposeBandsOptions>>,
) -> JsResult<Ts<crate::fit::BandProposal>> {
    let opts = decode_opt(options, "options")?;
    let (s, l) = read_labels(scores, labels)?;
    encode(&core(crate::fit::propose_bands(&s, &l, &opts))?)
}

fn decode_runs(value: JsValue) -> JsResult<Vec<RunJson>> {
    if !Array::is_array(&value) {
        return Err(err(ErrorCode::InvalidType, "runs", "expected an array of runs"));
    }
    let array: Array = value.unchecked_into();
    core(Limits::default().check_lists(array.length() as usize, "runs"))?;
    array.iter().enumerate().map(|(i, r)| decode_run(r, &format!("runs[{i}]"))).collect()
}

/// Fuses whole runs (JSON form) with any ranx method (`sum`, `mnz`, `max`, `min`, `med`,
/// `anz`, `wsum`, `wmnz`, `mixed`, `rrf`, `rbc`, `isr`, `log_isr`, `logn_isr`,
/// `bordafuse`, `w_bordafuse`, `condorcet`, `w_condorcet`), Qdrant's `dbsf` or
/// OpenSearch's `arithmetic_mean` / `geometric_mean` / `harmonic_mean`.
#[wasm_bindgen(js_name = "fuseRuns", unchecked_return_type = "Record<string, Record<string, number>>")]
pub fn js_fuse_runs(
    #[wasm_bindgen(unchecked_param_type = "Array<Record<string, Record<string, number>>>")] runs: JsValue,
    options: Ts<crate::runfusion::FuseRunsOptions>,
) -> JsResult<JsValue> {
    let opts = decode(&options, "options")?;
    let runs = decode_runs(runs)?;
    encode_value(&core(crate::runfusion::fuse_runs(&runs, &opts))?)
}

/// Grid search over a fusion method's weights (step 0.1, summing to 1) or RRF `k`
/// (10..100), maximizing a metric on judgements; `onProgress({ done, total, bestScore })`
/// is called after every configuration.
#[wasm_bindgen(js_name = "optimizeFusion")]
pub fn js_optimize_fusion(
    #[wasm_bindgen(unchecked_param_type = "Record<string, Record<string, number>>")] qrels: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Array<Record<string, Record<string, number>>>")] runs: JsValue,
    options: Option<Ts<crate::optimize::OptimizeOptions>>,
    #[wasm_bindgen(js_name = "onProgress", unchecked_param_type = "(progress: { done: number; total: number; bestScore: number }) => void")]
    on_progress: Option<Function>,
) -> JsResult<Ts<crate::optimize::OptimizeReport>> {
    let opts = decode_opt(options, "options")?;
    let qrels = decode_run(qrels, "qrels")?;
    let runs = decode_runs(runs)?;
    let mut callback_error: Option<JsValue> = None;
    let mut progress = |p: crate::optimize::Progress| {
        if let (Some(f), None) = (&on_progress, &callback_error) {
            let arg = encode_value(&p).unwrap_or(JsValue::UNDEFINED);
            if let Err(e) = f.call1(&JsValue::NULL, &arg) {
                callback_error = Some(e);
            }
        }
    };
    let report = core(crate::optimize::optimize_fusion(&qrels, &runs, &opts, &mut progress).map_err(|e| match e.field.as_str() {
        "runs" | "qrels" => e,
        _ if e.field.starts_with("runs") => e,
        _ => e.within("options"),
    }))?;
    if let Some(e) = callback_error {
        return Err(e);
    }
    encode(&report)
}
