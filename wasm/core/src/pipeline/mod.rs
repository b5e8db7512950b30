//! `Pipeline`: a validated pipeline kept in wasm memory behind a handle.
//!
//! Its parts: [`input`] (the lean reader of [`run`]'s input sections, and the item and
//! list flags), [`faults`] (the first fault of an input the lean reader could not take,
//! and the text budget it charges), [`texts`] (the held texts, asked of the JavaScript
//! through the function table), and [`output`] (the sections of `run`'s and `runColumnar`'s
//! output and explanations).

mod faults;
mod input;
mod output;
mod texts;

pub(crate) use output::write_confidence;

use crate::{n_docs, read_indices};
use calibrank::bands::BandContext;
use calibrank::error::{Result, ScoreError};
use calibrank::pipeline::{
    split_offsets, ColumnarInput, Pipeline, PipelineConfig, PoolTexts, RerankMethod,
};
#[cfg(feature = "functions")]
use calibrank_wasm_shared::decode;
use calibrank_wasm_shared::options::within_if;
use calibrank_wasm_shared::wire::{Reader, Writer};
use calibrank_wasm_shared::Slab;
use faults::input_fault;
use input::{read_input, top_n_of};
use output::{band_code, outcome_codes, write_output};
use std::cell::RefCell;
use texts::{host, JsTexts};

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
/// band profile (TEXT or NONE), explanations (U32 and F64, see [`write_explanations`](output::write_explanations);
/// NONE and NONE when not explaining), outcome (U8: see
/// [`outcome_codes`]), the pool's explanation (F64 or NONE: see [`write_pool`](output::write_pool)).
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
