//! `Pipeline`: a validated pipeline kept in wasm memory behind a handle.

use crate::{n_docs, read_indices};
use calibrank::bands::{Band, BandContext};
use calibrank::error::{key_field, ErrorCode, Result, ScoreError};
use calibrank::limits::Limits;
use calibrank::normalize::PoolScale;
use calibrank::pipeline::top_n_error;
use calibrank::pipeline::{
    split_offsets, ColumnarInput, IdTable, IndexedInput, IndexedItem, InputDetail, Outcome,
    OutcomeKind, OutcomeSource, Pipeline, PipelineConfig, PipelineOutput, PipelineResult,
    PoolExplain, PoolTexts, RerankExplain, RerankMethod, TimeRef,
};
use calibrank::rerank::CandidateText;
#[cfg(feature = "functions")]
use calibrank_wasm_shared::decode;
use calibrank_wasm_shared::options::within_if;
use calibrank_wasm_shared::wire::{Reader, Writer};
use calibrank_wasm_shared::Slab;
use std::cell::RefCell;

// How a configuration and a run's context cross: JSON text into calibrank_core.wasm
// (decoded by `calibrank_wasm_shared::decode`), numbers and strings into
// calibrank_pipeline.wasm, which holds no JSON (decoded by js/core/typed-config.js, read
// back by [`crate::typed`]).

/// The configuration's sections, decoded.
#[cfg(feature = "functions")]
fn config_in(r: &mut Reader<'_>) -> Result<PipelineConfig> {
    match r.opt_text()? {
        Some(t) => decode::from_text(t, "config"),
        None => Ok(PipelineConfig::default()),
    }
}
#[cfg(not(feature = "functions"))]
fn config_in(r: &mut Reader<'_>) -> Result<PipelineConfig> {
    match r.opt_f64s()? {
        Some(n) => crate::typed::pipeline_config(&mut crate::typed::Flat::new(n, r.strs()?)),
        None => Ok(PipelineConfig::default()),
    }
}

/// A run's context as it crosses (read with the input, decoded by [`context_of`] where
/// its errors are met).
#[cfg(feature = "functions")]
type ContextIn<'a> = Option<&'a str>;
#[cfg(not(feature = "functions"))]
type ContextIn<'a> = Option<(&'a [f64], calibrank_wasm_shared::wire::Strs<'a>)>;

#[cfg(feature = "functions")]
fn context_in<'a>(r: &mut Reader<'a>) -> Result<ContextIn<'a>> {
    r.opt_text()
}
/// No context: one NONE section (as the core's text), else its numbers and strings.
#[cfg(not(feature = "functions"))]
fn context_in<'a>(r: &mut Reader<'a>) -> Result<ContextIn<'a>> {
    match r.opt_f64s()? {
        Some(n) => Ok(Some((n, r.strs()?))),
        None => Ok(None),
    }
}

#[cfg(feature = "functions")]
fn context_of(c: ContextIn<'_>) -> Result<Option<BandContext>> {
    c.map(|t| decode::from_text(t, "context")).transpose()
}
#[cfg(not(feature = "functions"))]
fn context_of(c: ContextIn<'_>) -> Result<Option<BandContext>> {
    match c {
        Some((n, s)) => crate::typed::context(&mut crate::typed::Flat::new(n, s)),
        None => Ok(None),
    }
}

thread_local! {
    static PIPELINES: RefCell<Slab<Pipeline>> = const { RefCell::new(Slab::new()) };
    /// The held texts' buffer, kept from one call to the next ([`JsTexts`]).
    static HELD_BUF: std::cell::Cell<Vec<u64>> = const { std::cell::Cell::new(Vec::new()) };
}

fn with<T>(h: u32, f: impl FnOnce(&Pipeline) -> Result<T>) -> Result<T> {
    PIPELINES.with(|p| f(p.borrow().get(h)?))
}

/// Live pipelines (the memory test watches this).
pub fn live() -> usize {
    PIPELINES.with(|p| p.borrow().live())
}

/// In: config (JSON or NONE). Out: the handle (U32), the effective limits (F64, in
/// `Limits::fields` order), and how many candidates' texts the heuristic reranker reads
/// (-1 without it) and the function-table slot for the held texts (see [`host`]), as F64.
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
pub fn new(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let config = config_in(r)?;
    // The checks after decoding name fields of the configuration as the Rust API does
    // (`topN`, `calibration.steepness`); here they are within the `config` argument, as
    // the decoder's own errors are.
    let p = Pipeline::new(config).map_err(|e| e.within("config"))?;
    // What js/core/pipeline.js needs of the effective configuration for its checks before copying
    // (the limits, in `Limits::fields` order as DEFAULT_LIMITS names them) and to shape
    // the call: how many candidates' texts the heuristic reranker reads (min(topK,
    // candidateLimit); -1 without that reranker).
    let c = p.config();
    let limits = c.limits.fields().map(|(_, v)| f64::from(v));
    let hold = match c.rerank.method {
        RerankMethod::Heuristic => {
            f64::from(c.rerank.candidate_limit.map_or(c.top_k, |l| l.min(c.top_k)))
        }
        _ => -1.0,
    };
    let h = PIPELINES.with(|s| s.borrow_mut().insert(p));
    w.u32s(&[h]);
    w.f64s(&limits);
    w.f64s(&[hold, host::texts_slot()]);
    Ok(())
}

/// In: the handle.
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
pub fn free(r: &mut Reader<'_>) -> Result<()> {
    let h = r.u32()?;
    PIPELINES.with(|s| s.borrow_mut().remove(h));
    Ok(())
}

/// In: the handle. Out: the effective configuration (JSON). Not in
/// calibrank_pipeline.wasm: js/core/typed-config.js builds it there.
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[cfg(feature = "functions")]
#[inline(never)]
pub fn config(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let h = r.u32()?;
    with(h, |p| {
        calibrank_wasm_shared::jsonw::write_json(w, p.config())
    })
}

// Item flags (js/core/pipeline-input.js writes them).
const NAME: u32 = 1;
const TYPE: u32 = 2;
const SUMMARY: u32 = 4;
const CONTENT: u32 = 8;
const MOD_NUM: u32 = 16;
const MOD_STR: u32 = 32;
const FISCAL_YEAR: u32 = 64;
const CROSS_ENCODER: u32 = 128;
/// Item flag bits none of the above (js/core/pipeline-input.js writes none).
const UNKNOWN_ITEM_FLAGS: u32 =
    !(NAME | TYPE | SUMMARY | CONTENT | MOD_NUM | MOD_STR | FISCAL_YEAR | CROSS_ENCODER);
// List flags.
const WEIGHT: u32 = 1;
const SCORES: u32 = 2;

/// Row `i` of a table of rows of `N` (an array: its fields are read without bounds
/// checks, so without panic paths).
fn chunk<const N: usize, T: Copy>(xs: &[T], i: usize) -> Result<&[T; N]> {
    xs.get(i * N..(i + 1) * N)
        .and_then(|row| row.try_into().ok())
        .ok_or_else(|| ScoreError::new(ErrorCode::Internal, "", "wire: short table"))
}

/// The first fault of a call's input in the order the module reads its sections
/// (js/core/pipeline-input.js `encodeInput` writes them), for an input the lean reader
/// ([`read_input`]) could not take: the number of lists, a list's length, a string
/// table over `maxTotalTextBytes` (named at the string that crosses it: the strings are
/// charged in input order, each distinct id where it first occurs), the entries, a fiscal
/// year that is not a whole number, the context, the call's `topN`, or sections the
/// package's JavaScript would not write. `r` is the reader at the input's first section.
fn input_fault(r: &mut Reader<'_>, config: &PipelineConfig) -> ScoreError {
    match walk_input(r, config) {
        Err(e) => e,
        Ok(()) => ScoreError::new(ErrorCode::Internal, "", "wire: pipeline input"),
    }
}

fn walk_input(r: &mut Reader<'_>, config: &PipelineConfig) -> Result<()> {
    let limits = &config.limits;
    let strs = r.strs()?;
    let mut text = TextBudget::new(limits, strs.bytes());
    let head = r.f64s()?;
    let lists = r.u32s()?;
    let docs = r.u32s()?;
    let _weights = r.f64s()?;
    let scores = r.f64s()?;
    let items = r.u32s()?;
    let item_nums = r.f64s()?;
    let context = context_in(r)?;
    let n_docs = head.get(3).copied().unwrap_or(0.0) as usize;
    if let Some(&q) = head.first().filter(|&&q| q >= 0.0) {
        text.charge(strs.get(q as usize)?, &|| "query".into())?;
    }
    let n_lists = lists.len() / 5;
    limits.check_lists(n_lists, "lists")?;
    // Each list's length and their total, as the pipeline's own checks name them.
    limits.check_lengths(
        lists
            .chunks_exact(5)
            .map(|l| l.get(2).map_or(0, |&n| n as usize)),
        "lists",
    )?;
    let mut score_at = 0usize;
    let mut next_new = 0u32;
    let mut entries = 0usize;
    for i in 0..n_lists {
        let &[name, start, count, flags, n_scores] = chunk::<5, _>(lists, i)?;
        let (start, count, n_scores) = (start as usize, count as usize, n_scores as usize);
        if flags & SCORES != 0 {
            scores
                .get(score_at..score_at + n_scores)
                .ok_or_else(|| ScoreError::new(ErrorCode::Internal, "", "wire: scores"))?;
            score_at += n_scores;
        }
        text.charge(strs.get(name as usize)?, &|| format!("lists[{i}].name"))?;
        let d = docs
            .get(start..start + count)
            .ok_or_else(|| ScoreError::new(ErrorCode::Internal, "", "wire: docs"))?;
        entries += count;
        for (j, &doc) in d.iter().enumerate() {
            if doc as usize >= n_docs {
                return Err(ScoreError::new(ErrorCode::Internal, "", "wire: doc index"));
            }
            if doc == next_new {
                // Each distinct id is in the table once: charged where it first occurs.
                text.charge(strs.get(doc as usize)?, &|| format!("lists[{i}].ids[{j}]"))?;
                next_new += 1;
            }
        }
    }
    let n_items = items.len() / 8;
    // Only the items of the lists' ids are read (their keys are charged above, with the
    // lists' ids); an item in no list (its document `u32::MAX`) is neither checked nor
    // counted, as the Rust API does not read it.
    let in_lists = |t: &[u32]| t.get(7).is_some_and(|&d| d != u32::MAX);
    let n_read = items.chunks_exact(8).filter(|t| in_lists(t)).count();
    limits.check_entries(entries.saturating_add(n_read), "items")?;
    for i in 0..n_items {
        let t = chunk::<8, _>(items, i)?;
        if !in_lists(t) {
            continue;
        }
        let &[_, year, _] = chunk::<3, _>(item_nums, i)?;
        let &[key, flags, t_name, t_type, t_summary, t_content, modified, _] = t;
        let key = strs.get(key as usize)?;
        for (at, bit, name) in [
            (t_name, NAME, "name"),
            (t_type, TYPE, "type"),
            (t_summary, SUMMARY, "summary"),
            (t_content, CONTENT, "content"),
            (modified, MOD_STR, "modifiedAt"),
        ] {
            if flags & bit != 0 {
                let s = strs.get(at as usize)?;
                text.charge(s, &|| key_field("items", key, name))?;
            }
        }
        if flags & FISCAL_YEAR != 0 && fiscal_year(year).is_none() {
            return Err(ScoreError::new(
                ErrorCode::InvalidType,
                key_field("items", key, "fiscalYear"),
                format!(
                    "expected a whole number (a year), got {}",
                    calibrank::error::num(year)
                ),
            ));
        }
    }
    // head[1]: 0 no `now`, 1 epoch ms in head[2], 2 a string (its index in head[2]).
    if let (Some(2.0), Some(v)) = (head.get(1).copied(), head.get(2).copied()) {
        text.charge(strs.get(v as usize)?, &|| "now".into())?;
    }
    context_of(context)?;
    top_n_of(head.get(5).copied(), config.top_k)?;
    Ok(())
}

/// A fiscal year as the pipeline reads it: a whole number within `i32`.
fn fiscal_year(fy: f64) -> Option<i32> {
    (fy.fract() == 0.0 && (f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&fy))
        .then_some(fy as i32)
}

/// A call's own `topN` (NaN: not given; js/core checked that it is a whole number), for
/// the pipeline to check against its `topK`; one that no `u32` holds is refused here.
fn top_n_of(v: Option<f64>, top_k: u32) -> Result<Option<u32>> {
    match v {
        None => Ok(None),
        Some(v) if v.is_nan() => Ok(None),
        Some(v) if (0.0..=f64::from(u32::MAX)).contains(&v) => Ok(Some(v as u32)),
        Some(v) => Err(top_n_error(top_k, v)),
    }
}

/// The pool's item texts, which js/core/pipeline-input.js held back when the pipeline reranks
/// heuristically (only the topK pool's are read): asked of the JavaScript through the
/// function-table slot of [`host`] with the pool's document indices, and written by it
/// into this buffer as two sections: a U32 of flags per document (the item flags' text
/// bits) and a string table of the present texts in field order.
#[derive(Default)]
struct JsTexts {
    buf: Vec<u64>,
}

impl JsTexts {
    /// Buffers kept up to this many words (4 MiB); a larger one is freed after its call.
    const KEEP_WORDS: usize = 1 << 19;

    /// With the buffer the last call kept: sized for the pool's texts of the calls before,
    /// they are asked for once (with a new buffer of 4 KiB, a call whose pool held more
    /// text asked twice and grew and zeroed it: `node bench/held-texts-ask.mjs`).
    fn kept() -> Self {
        JsTexts {
            buf: HELD_BUF.with(std::cell::Cell::take),
        }
    }

    /// Keeps the buffer for the next call (within [`Self::KEEP_WORDS`]).
    fn keep(self) {
        if self.buf.len() <= Self::KEEP_WORDS {
            HELD_BUF.with(|b| b.set(self.buf));
        }
    }
}

impl PoolTexts for JsTexts {
    fn texts(&mut self, docs: &[u32], _ids: &[&str]) -> Result<Vec<CandidateText<'_>>> {
        if docs.is_empty() {
            return Ok(Vec::new());
        }
        let len = host::texts(docs, &mut self.buf)?;
        let bytes = calibrank_wasm_shared::words_as_bytes(&self.buf);
        let mut r = Reader::new(bytes.get(..len).unwrap_or_default());
        let flags = r.u32s()?;
        let strs = r.strs()?;
        if flags.len() != docs.len() {
            return Err(ScoreError::new(ErrorCode::Internal, "", "wire: held texts"));
        }
        let mut next = 0usize;
        let mut take = |f: u32, bit: u32| -> Result<Option<&str>> {
            if f & bit == 0 {
                return Ok(None);
            }
            next += 1;
            strs.get(next - 1).map(Some)
        };
        let mut out = Vec::with_capacity(docs.len());
        for &f in flags {
            out.push(CandidateText {
                name: take(f, NAME)?.unwrap_or(""),
                entity_type: take(f, TYPE)?,
                summary: take(f, SUMMARY)?,
                content: take(f, CONTENT)?,
            });
        }
        Ok(out)
    }
}

/// How the module asks js/core/held-texts.js for the held texts without an import (an import of a
/// JavaScript function costs every instantiation a wrapper V8 compiles, about 0.15 ms of
/// the core's start-up: docs/performance.md "Start-up"): through a slot of the module's
/// exported function table. The slot holds [`host::texts_unset`] until the JavaScript,
/// before its first call that holds texts back, puts there a wasm function that calls
/// its `writeHeldTexts` (a tiny module's export). It reads no caller value and never
/// throws: the texts were read and checked before the call.
mod host {
    use super::{ErrorCode, Result, ScoreError};

    /// The signature of the slot's function: writes the texts of `n` documents (u32
    /// indices at `docs`) at `out`, at most `cap` bytes; returns the bytes written, minus
    /// the bytes needed when they do not fit, or NaN when it failed.
    #[cfg(target_arch = "wasm32")]
    type TextsFn = extern "C" fn(docs: u32, n: u32, out: u32, cap: u32) -> f64;

    /// The slot's function until the JavaScript replaces it: nothing is written.
    #[cfg(target_arch = "wasm32")]
    extern "C" fn texts_unset(_docs: u32, _n: u32, _out: u32, _cap: u32) -> f64 {
        f64::NAN
    }

    /// The slot in the module's function table (`__indirect_function_table`) that
    /// js/core/held-texts.js fills: on wasm a function pointer is its index in that table. Natively
    /// (tests) -1.
    pub fn texts_slot() -> f64 {
        #[cfg(target_arch = "wasm32")]
        {
            f64::from(texts_unset as TextsFn as usize as u32)
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            -1.0
        }
    }

    /// The pointer the call goes through (see [`host_texts`]).
    #[cfg(target_arch = "wasm32")]
    static TEXTS: TextsFn = texts_unset;

    /// Calls the function in the slot. The pointer is read with a volatile load, which the
    /// compiler may not replace by the value it knows (`core::hint::black_box` is only a
    /// hint): the call stays an indirect call through the table, which the JavaScript
    /// changes, instead of becoming a direct call to `texts_unset`. (binaryen leaves it so
    /// too: the table is exported.)
    #[cfg(target_arch = "wasm32")]
    #[allow(unsafe_code)]
    fn host_texts(docs: u32, n: u32, out: u32, cap: u32) -> f64 {
        // SAFETY: a read of an initialized, aligned static of a `Copy` type.
        let f: TextsFn = unsafe { core::ptr::read_volatile(&TEXTS) };
        f(docs, n, out, cap)
    }

    fn failed() -> ScoreError {
        ScoreError::new(
            ErrorCode::Internal,
            "",
            "the pool's held texts could not be read",
        )
    }

    /// Asks for the texts of `docs` into `buf` (grown once when they do not fit); returns
    /// the length written.
    #[cfg(target_arch = "wasm32")]
    pub fn texts(docs: &[u32], buf: &mut Vec<u64>) -> Result<usize> {
        if buf.len() < 512 {
            buf.resize(512, 0);
        }
        for _ in 0..2 {
            let cap = u32::try_from(buf.len() * 8).map_err(|_| failed())?;
            // Plain numbers cross; `docs` and `buf` stay alive and unmoved during the
            // call, and the JavaScript writes at most `cap` bytes at `out`.
            let r = host_texts(
                docs.as_ptr() as u32,
                docs.len() as u32,
                buf.as_mut_ptr() as u32,
                cap,
            );
            if r >= 0.0 && r <= f64::from(cap) {
                return Ok(r as usize);
            }
            if !(r < 0.0 && -r <= f64::from(u32::MAX)) {
                break;
            }
            buf.resize((-r as usize).div_ceil(8), 0);
        }
        Err(failed())
    }

    /// Natively (tests, the replay harness) the texts a harness set with
    /// [`crate::native::set_pool_texts`], whatever the documents.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn texts(_docs: &[u32], buf: &mut Vec<u64>) -> Result<usize> {
        crate::native::POOL_TEXTS.with(|t| {
            let t = t.borrow();
            let bytes = t.as_ref().ok_or_else(failed)?;
            buf.clear();
            buf.extend(bytes.chunks(8).map(|c| {
                let mut word = [0u8; 8];
                if let Some(w) = word.get_mut(..c.len()) {
                    w.copy_from_slice(c);
                }
                u64::from_le_bytes(word)
            }));
            Ok(bytes.len())
        })
    }
}

/// The running total of string bytes, checked only when the whole is over the limit.
struct TextBudget<'l> {
    limits: &'l Limits,
    over: bool,
    bytes: usize,
}

impl<'l> TextBudget<'l> {
    fn new(limits: &'l Limits, total: usize) -> Self {
        TextBudget {
            limits,
            over: total > limits.max_total_text_bytes as usize,
            bytes: 0,
        }
    }

    /// (`field` as a `dyn`: one copy of this for the five fields.)
    #[inline(never)]
    fn charge(&mut self, s: &str, field: &dyn Fn() -> String) -> Result<()> {
        if self.over {
            self.bytes += s.len();
            if self.bytes > self.limits.max_total_text_bytes as usize {
                return self.limits.check_total_text(self.bytes, &field());
            }
        }
        Ok(())
    }
}

/// A query confidence as one F64 section: weightedTop5, expectedPrecision,
/// atLeastOneRelevant, k (js/core reads it so for `run`, `runColumnar` and
/// `queryConfidence`).
pub(crate) fn write_confidence(w: &mut Writer, c: &calibrank::confidence::QueryConfidence) {
    w.f64s(&[
        c.weighted_top5,
        c.expected_precision,
        c.at_least_one_relevant,
        f64::from(c.k),
    ]);
}

/// The outcome as two codes: kind (0 abstain, 1 hedge, 2 answer), source (0 rank-only,
/// 1 model). Its probability is `confidence.atLeastOneRelevant`.
fn outcome_codes(o: &Outcome) -> [u8; 2] {
    let kind = match o.kind {
        OutcomeKind::Abstain => 0,
        OutcomeKind::Hedge => 1,
        OutcomeKind::Answer => 2,
    };
    let source = match o.source {
        OutcomeSource::RankOnly => 0,
        OutcomeSource::Model => 1,
    };
    [kind, source]
}

/// Each result's explanation as numbers (js/core/pipeline.js builds the objects): a U32 section
/// with, per result, `[contributions, rerank (0 none, 1 heuristic, 2 cross-encoder),
/// band (as [`band_code`]), has band profile]` then `[list index, rank, has list score]`
/// per contribution; and an F64 section with, per result, `[weight, contribution, list score
/// or 0]` per contribution, then `fused, recencyMultiplier, afterRecency`, the rerank
/// values (none; the six heuristic factors; raw and normalized), then
/// `rerankRecencyMultiplier, afterRerank, normalized, calibrated`. The band profile is
/// the stats' (the run gives both the same). A result without an explanation (none
/// when explaining) is an internal error.
fn write_explanations(w: &mut Writer, results: &[PipelineResult], names: &[&str]) -> Result<()> {
    let internal = |what| ScoreError::new(ErrorCode::Internal, "", what);
    let mut u = Vec::with_capacity(results.len() * 10);
    let mut f = Vec::with_capacity(results.len() * 20);
    for x in results {
        let e = x
            .explain
            .as_ref()
            .ok_or_else(|| internal("no explanation"))?;
        let factors;
        let (kind, values): (u32, &[f64]) = match &e.rerank {
            RerankExplain::None => (0, &[]),
            RerankExplain::Heuristic { factors: h } => {
                factors = crate::factor_values(h);
                (1, &factors)
            }
            RerankExplain::CrossEncoder { raw, normalized } => (2, &[*raw, *normalized]),
        };
        u.extend_from_slice(&[
            e.contributions.len() as u32,
            kind,
            u32::from(band_code(e.band)),
            u32::from(e.band_profile.is_some()),
        ]);
        // Contributions come in list order, one per list at most, and list names are
        // unique (DUPLICATE_ID otherwise): the next list of that name is the one.
        let mut next = 0;
        for c in &e.contributions {
            let i = names
                .iter()
                .skip(next)
                .position(|&n| n == c.list)
                .map(|p| next + p)
                .ok_or_else(|| internal("a contribution of no list"))?;
            next = i + 1;
            u.extend_from_slice(&[i as u32, c.rank, u32::from(c.list_score.is_some())]);
            f.extend_from_slice(&[c.weight, c.contribution, c.list_score.unwrap_or(0.0)]);
        }
        f.extend_from_slice(&[e.fused, e.recency_multiplier, e.after_recency]);
        f.extend_from_slice(values);
        f.extend_from_slice(&[
            e.rerank_recency_multiplier,
            e.after_rerank,
            e.normalized,
            e.calibrated,
        ]);
    }
    w.u32s(&u);
    w.f64s(&f);
    Ok(())
}

fn band_code(b: Band) -> u8 {
    match b {
        Band::Miss => 0,
        Band::Degraded => 1,
        Band::Hit => 2,
    }
}

/// A run's error that names a configuration value (a reranker's multipliers that
/// overflow, a confidence model whose features the lists cannot give, a stage `runColumnar`
/// cannot run) under `config`, as the configuration's errors at construction are; the
/// input's fields (`lists`, `items`, `query`, `now`, `context`, `docs`, ...) stay as they are.
fn in_config(e: ScoreError) -> ScoreError {
    within_if(e, "config", &["rerank", "recency", "confidence"])
}

/// In: the handle, then the input (see [`read_input`]). Out: result ids (U32: indices
/// into the input's distinct ids, which come first in its string table),
/// scores (F64), bands (U8), confidence (F64: weightedTop5, expectedPrecision,
/// atLeastOneRelevant, k), stats (U32, in `PipelineStats` order), duplicates (U32),
/// band profile (TEXT or NONE), explanations (U32 and F64, see [`write_explanations`];
/// NONE and NONE when not explaining), outcome (U8: see
/// [`outcome_codes`]), the pool's explanation (F64 or NONE: see [`write_pool`]).
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
pub fn run(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let h = r.u32()?;
    with(h, |p| {
        let mut start = r.clone();
        let Some(input) = read_input(p.config(), r) else {
            return Err(input_fault(&mut start, p.config()));
        };
        let mut texts = JsTexts::kept();
        let held: Option<&mut dyn PoolTexts> = input.held.then_some(&mut texts);
        let out = p
            .run_indexed_docs(&input.indexed(), held, &input)
            .map_err(in_config);
        texts.keep();
        write_output(w, p, &out?, &input.names)
    })
}

/// The sections of [`run`]'s output (`names`: the input lists' names, read only when
/// explaining).
fn write_output(w: &mut Writer, p: &Pipeline, out: &PipelineOutput, names: &[&str]) -> Result<()> {
    // The result ids as indices into the call's distinct ids, which js/core/pipeline-input.js
    // interned and still holds: no id is decoded again.
    let n = out.results.len();
    w.u32s_from(n, out.results.iter().map(|x| x.doc));
    w.f64s_from(n, out.results.iter().map(|x| x.score));
    w.u8s_from(n, out.results.iter().map(|x| band_code(x.band)));
    write_confidence(w, &out.confidence);
    let s = &out.stats;
    w.u32s(&[
        s.lists,
        s.candidates,
        s.in_several_lists,
        s.beyond_top_k,
        s.beyond_candidate_limit,
        s.below_min_relevance,
        s.below_min_confidence,
        s.beyond_top_n,
        s.returned,
        s.hits,
        s.degraded,
        s.misses,
    ]);
    w.u32s(&s.duplicates);
    w.opt_text(s.band_profile.as_deref());
    if p.config().explain {
        write_explanations(w, &out.results, names)?;
    } else {
        w.none();
        w.none();
    }
    w.u8s(&outcome_codes(&out.outcome));
    write_pool(w, out.pool.as_deref());
    Ok(())
}

/// The pool's explanation (NONE without one) as one F64 section: `candidates`, the
/// cross-encoder's range (`1, min, max`, or `0, 0, 0`), then the normalization (`code,`
/// and three numbers: none 0; max 1 and the divisor; min_max 2, min, max; z_score 3,
/// mean, sd, scale; softmax 4, max, sum, temperature; unused numbers 0).
fn write_pool(w: &mut Writer, pool: Option<&PoolExplain>) {
    let Some(p) = pool else {
        w.none();
        return;
    };
    let [code, a, b, c] = match p.normalization {
        PoolScale::None => [0.0; 4],
        PoolScale::Max { max } => [1.0, max, 0.0, 0.0],
        PoolScale::MinMax { min, max } => [2.0, min, max, 0.0],
        PoolScale::ZScore { mean, sd, scale } => [3.0, mean, sd, scale],
        PoolScale::Softmax {
            max,
            sum,
            temperature,
        } => [4.0, max, sum, temperature],
    };
    let [has, lo, hi] = match p.cross_encoder {
        Some(PoolScale::MinMax { min, max }) => [1.0, min, max],
        _ => [0.0; 3],
    };
    w.f64s(&[f64::from(p.candidates), has, lo, hi, code, a, b, c]);
}

/// The input of [`run`] as read from its sections (js/core/pipeline-input.js
/// `encodeInput`): the lists as slices of the distinct ids' indices, which are read in
/// place from the string table, and each item as an [`IndexedItem`] (no `Vec` of ids per
/// list, no item record).
struct Sections<'a> {
    strs: calibrank_wasm_shared::wire::Strs<'a>,
    query: &'a str,
    ids: IdTable<'a>,
    names: Vec<&'a str>,
    weights: Vec<Option<f64>>,
    scores: Vec<Option<&'a [f64]>>,
    lists: Vec<&'a [u32]>,
    items: Vec<IndexedItem<'a>>,
    /// The item table (8 numbers per item) and its numbers (3 per item), for the
    /// errors that name an item ([`InputDetail`]).
    item_table: &'a [u32],
    item_nums: &'a [f64],
    /// `now`'s kind (0 none, 1 epoch milliseconds, 2 an ISO 8601 text) and value.
    now: (f64, f64),
    now_ms: Option<f64>,
    top_n: Option<u32>,
    context: Option<BandContext>,
    held: bool,
}

impl Sections<'_> {
    fn indexed(&self) -> IndexedInput<'_> {
        IndexedInput {
            query: self.query,
            names: &self.names,
            weights: &self.weights,
            scores: &self.scores,
            lists: &self.lists,
            ids: self.ids,
            items: &self.items,
            now_ms: self.now_ms,
            // `now`'s bytes when given as an ISO 8601 text (they count against
            // `maxTotalTextBytes`, as the Rust API counts them).
            now_bytes: match self.now {
                (2.0, at) => self.strs.byte_len(at as usize).unwrap_or(0),
                _ => 0,
            },
            top_n: self.top_n,
            context: self.context.as_ref(),
        }
    }
}

impl InputDetail for Sections<'_> {
    fn item_key(&self, i: usize) -> &str {
        let at = self.item_table.get(i * 8).copied().unwrap_or(u32::MAX);
        self.strs.get(at as usize).unwrap_or_default()
    }

    fn time(&self, item: Option<usize>) -> Option<TimeRef<'_>> {
        let iso = |at: u32| TimeRef::Iso(self.strs.get(at as usize).unwrap_or_default());
        match item {
            Some(i) => {
                let t = self.item_table.get(i * 8..i * 8 + 8)?;
                let flags = t.get(1).copied().unwrap_or(0);
                if flags & MOD_STR != 0 {
                    Some(iso(t.get(6).copied().unwrap_or(u32::MAX)))
                } else if flags & MOD_NUM != 0 {
                    self.item_nums.get(i * 3).copied().map(TimeRef::Millis)
                } else {
                    None
                }
            }
            None => match self.now {
                (2.0, at) => Some(iso(at as u32)),
                (1.0, ms) => Some(TimeRef::Millis(ms)),
                _ => None,
            },
        }
    }
}

/// Reads the input sections of [`run`]; `None` (the reader then discarded) for an input
/// whose fault is found in reading it ([`input_fault`] names it). ISO 8601 times are read
/// into epoch milliseconds (NaN when they do not parse: the pipeline's checks name them).
fn read_input<'a>(config: &PipelineConfig, r: &mut Reader<'a>) -> Option<Sections<'a>> {
    let strs = r.strs().ok()?;
    // The string table over the limit: named at the string that crosses it.
    if strs.bytes() > config.limits.max_total_text_bytes as usize {
        return None;
    }
    let head = r.f64s().ok()?;
    let lists = r.u32s().ok()?;
    let docs = r.u32s().ok()?;
    let weights = r.f64s().ok()?;
    let scores = r.f64s().ok()?;
    let items = r.u32s().ok()?;
    let item_nums = r.f64s().ok()?;
    let context = context_of(context_in(r).ok()?).ok()?;
    if lists.len() % 5 != 0 || items.len() % 8 != 0 || item_nums.len() != items.len() / 8 * 3 {
        return None;
    }
    let &[query_at, now_kind, now, n_docs, held, top_n] = head else {
        return None;
    };
    let iso = |at: f64| {
        let s = strs.get(at as usize).ok()?;
        Some(calibrank::timestamp::parse_iso8601(s).unwrap_or(f64::NAN))
    };
    let now_ms = match now_kind {
        0.0 => None,
        1.0 => Some(now),
        2.0 => Some(iso(now)?),
        _ => return None,
    };
    let n_docs = n_docs as usize;
    if n_docs > strs.len() {
        return None;
    }
    let (text, bounds) = strs.first(n_docs)?;
    let query = if query_at >= 0.0 {
        strs.get(query_at as usize).ok()?
    } else {
        ""
    };
    let n_lists = lists.len() / 5;
    let mut names = Vec::with_capacity(n_lists);
    let mut list_weights = Vec::with_capacity(n_lists);
    let mut slices = Vec::with_capacity(n_lists);
    let mut list_scores = Vec::with_capacity(n_lists);
    let mut score_at = 0usize;
    for (i, l) in lists.chunks_exact(5).enumerate() {
        let &[name, start, count, flags, n_scores] = l else {
            return None;
        };
        list_scores.push(if flags & SCORES != 0 {
            let n = n_scores as usize;
            let s = scores.get(score_at..score_at.checked_add(n)?)?;
            score_at += n;
            Some(s)
        } else {
            None
        });
        names.push(strs.get(name as usize).ok()?);
        list_weights
            .push((flags & WEIGHT != 0).then(|| weights.get(i).copied().unwrap_or(f64::NAN)));
        let (start, count) = (start as usize, count as usize);
        slices.push(docs.get(start..start.checked_add(count)?)?);
    }
    let n_items = items.len() / 8;
    let mut item_refs = Vec::with_capacity(n_items);
    for (t, nums) in items.chunks_exact(8).zip(item_nums.chunks_exact(3)) {
        let &[key, flags, t_name, t_type, t_summary, t_content, modified, doc] = t else {
            return None;
        };
        let &[modified_num, year, cross_encoder] = nums else {
            return None;
        };
        if doc == u32::MAX {
            // An item in no list (the package sends none): not read, and skipped by the
            // pipeline's checks (a row of its own keeps the item indices of the table).
            item_refs.push(IndexedItem {
                doc: u32::MAX,
                ..IndexedItem::default()
            });
            continue;
        }
        if flags & UNKNOWN_ITEM_FLAGS != 0 {
            return None;
        }
        let mut texts = [None; 4];
        for (slot, (at, bit)) in texts.iter_mut().zip([
            (t_name, NAME),
            (t_type, TYPE),
            (t_summary, SUMMARY),
            (t_content, CONTENT),
        ]) {
            if flags & bit != 0 {
                *slot = Some(strs.get(at as usize).ok()?);
            }
        }
        let (modified_ms, time_bytes) = if flags & MOD_NUM != 0 {
            (Some(modified_num), 0)
        } else if flags & MOD_STR != 0 {
            (
                Some(iso(f64::from(modified))?),
                strs.byte_len(modified as usize)?,
            )
        } else {
            (None, 0)
        };
        let fiscal_year = if flags & FISCAL_YEAR != 0 {
            Some(fiscal_year(year)?)
        } else {
            None
        };
        item_refs.push(IndexedItem {
            key_bytes: strs.byte_len(key as usize)?,
            time_bytes,
            texts,
            fiscal_year,
            cross_encoder: (flags & CROSS_ENCODER != 0).then_some(cross_encoder),
            modified_ms,
            doc,
        });
    }
    Some(Sections {
        strs,
        query,
        ids: IdTable { text, bounds },
        names,
        weights: list_weights,
        scores: list_scores,
        lists: slices,
        items: item_refs,
        item_table: items,
        item_nums,
        now: (now_kind, now),
        now_ms,
        top_n: top_n_of(Some(top_n), config.top_k).ok()?,
        context,
        held: held != 0.0,
    })
}

/// In: the handle, weights (F64 or NONE), modifiedAt (F64 or NONE), docs, offsets (U32
/// or F64), head (F64: nDocs, hasNow, now, the call's topN or NaN), context (TEXT: JSON,
/// or NONE). Out: order (U32), scores (F64), bands (U8), confidence (F64 as in [`run`]),
/// candidates (U32), outcome (U8 as in [`run`]), band profile (TEXT, or NONE).
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
pub fn run_columnar(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let h = r.u32()?;
    with(h, |p| {
        let limits = &p.config().limits;
        let weights = r.opt_f64s()?;
        let modified = r.opt_f64s()?;
        let docs = read_indices(r, "docs", limits.max_columnar_entries, "maxColumnarEntries")?;
        let offsets = read_indices(
            r,
            "offsets",
            limits.max_lists.saturating_add(1),
            "maxLists + 1",
        )?;
        let head = r.f64s()?;
        let context = context_of(context_in(r)?)?;
        let n = n_docs(head.first().copied().unwrap_or(f64::NAN))?;
        let now = (head.get(1) == Some(&1.0)).then(|| head.get(2).copied().unwrap_or(f64::NAN));
        let top_n = top_n_of(head.get(3).copied(), p.config().top_k)?;
        if let Some(wts) = weights {
            limits.check_array(wts.len(), "weights")?;
        }
        if let Some(m) = modified {
            limits.check_columnar(m.len(), "modifiedAt")?;
        }
        let lists = split_offsets(&docs, &offsets)?;
        // An index error at its place in the flat `docs` the caller gave.
        let out = p
            .run_columnar(&ColumnarInput {
                lists: &lists,
                weights,
                n_docs: n,
                modified_ms: modified,
                now_ms: now,
                context: context.as_ref(),
                top_n,
            })
            .map_err(|e| in_config(calibrank::pipeline::flat_index_error(e, &lists, n)))?;
        w.u32s(&out.order);
        w.f64s(&out.scores);
        w.u8s_from(out.bands.len(), out.bands.iter().map(|&b| band_code(b)));
        write_confidence(w, &out.confidence);
        w.u32s(&[out.candidates]);
        w.u8s(&outcome_codes(&out.outcome));
        w.opt_text(out.band_profile.as_deref());
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two sections js/core/held-texts.js's `writeHeldTexts` writes, read back per document.
    #[test]
    fn held_texts_read_per_document() {
        let mut w = Writer::default();
        w.u32s(&[NAME | SUMMARY, 0, TYPE | CONTENT | NAME]);
        w.strs(["Graph cache", "über den Router", "Modul", "", "class"]);
        crate::native::set_pool_texts(Some(w.bytes().to_vec()));
        let mut held = JsTexts::default();
        let got = held.texts(&[4, 0, 9], &["a", "b", "c"]).unwrap();
        let fields: Vec<_> = got
            .iter()
            .map(|t| (t.name.to_string(), t.entity_type, t.summary, t.content))
            .collect();
        assert_eq!(
            fields,
            vec![
                (
                    "Graph cache".to_string(),
                    None,
                    Some("über den Router"),
                    None
                ),
                (String::new(), None, None, None),
                ("Modul".to_string(), Some(""), None, Some("class")),
            ]
        );
        // An answer for another number of documents, or short of strings, is an error.
        let e = held.texts(&[1, 2], &["a", "b"]).unwrap_err();
        assert_eq!(e.code, ErrorCode::Internal);
        let mut w = Writer::default();
        w.u32s(&[NAME | TYPE]);
        w.strs(["only one"]);
        crate::native::set_pool_texts(Some(w.bytes().to_vec()));
        assert_eq!(
            held.texts(&[3], &["a"]).unwrap_err().code,
            ErrorCode::Internal
        );
        crate::native::set_pool_texts(None);
        assert_eq!(
            held.texts(&[3], &["a"]).unwrap_err().code,
            ErrorCode::Internal
        );
        assert!(held.texts(&[], &[]).unwrap().is_empty());
    }
}
