//! The operations of every function but `Pipeline` (`rrf` to `queryConfidence`): in
//! `calibrank_core.wasm` only (the `functions` feature), not in `calibrank_pipeline.wasm`.

use crate::pipeline;
use crate::{factor_values, n_docs, read_indices};
use calibrank::bands::{BandFloors, RetrievalOutcome};
use calibrank::calibrate::Sigmoid;
use calibrank::confidence::ConfidenceOptions;
use calibrank::error::{ErrorCode, Result, ScoreError};
use calibrank::fuse::{rrf_indexed, validate_k, weights_or_ones, DEFAULT_K};
use calibrank::limits::{Budget, LimitedFunction, Limits};
use calibrank::multiquery::IndexedHit;
use calibrank::normalize::NormalizeMethod;
use calibrank::pipeline::TimeRef;
use calibrank::rerank::{CandidateRef, CandidateText, HeuristicConfig};
use calibrank_wasm_shared::decode::{self, NormalizeOptions};
use calibrank_wasm_shared::options::{decode_with_limits, within_unless};
use calibrank_wasm_shared::wire::{Reader, Strs, Writer};

/// Their operation numbers (js/core/shared.js has the same table).
mod op {
    pub const RRF: u32 = 20;
    pub const RRF_COLUMNAR: u32 = 21;
    pub const MULTI_QUERY: u32 = 22;
    pub const RERANK: u32 = 23;
    pub const NORMALIZE: u32 = 24;
    pub const CALIBRATE: u32 = 25;
    pub const CLASSIFY: u32 = 26;
    pub const QUERY_CONFIDENCE: u32 = 27;
}

/// Runs operation `op` (not a `Pipeline` one).
pub(crate) fn dispatch(op: u32, r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    match op {
        op::RRF => rrf(r, w),
        op::RRF_COLUMNAR => rrf_columnar(r, w),
        op::MULTI_QUERY => multi_query(r, w),
        op::RERANK => rerank(r, w),
        op::NORMALIZE => normalize(r, w),
        op::CALIBRATE => calibrate(r, w),
        op::CLASSIFY => classify(r, w),
        op::QUERY_CONFIDENCE => query_confidence(r, w),
        _ => Err(calibrank_wasm_shared::unknown_op(op)),
    }
}

// ---------------------------------------------------------------- Fusion

/// `rrf`. In: options (JSON, or the compact form of `options::k_weights_limits`), list
/// lengths (U32), the lists as indices into the distinct ids (U32; js/core/fuse.js
/// interned them, in order of first appearance), then either the distinct ids (STRS) or
/// their count alone (U32, one value). Out: the fused documents best first (U32 indices
/// into the ids) and their scores (F64); given the ids, ties are in the ids' byte order;
/// given their count, ties are in index order and a third section (U8) marks each entry
/// whose score equals the one before it (the JavaScript orders those runs by the ids'
/// bytes: js/core/fuse.js `orderTies`).
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn rrf(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let (limits, k, weights) =
        calibrank_wasm_shared::options::k_weights_limits(r, LimitedFunction::Rrf)?;
    let (lens, docs) = lists_of_indices(r, &limits, "lists")?;
    let ids = if r.peek_tag() == Some(calibrank_wasm_shared::wire::tag::STRS) {
        Some(r.strs()?)
    } else {
        None
    };
    // The count of distinct ids when they were not sent: the JavaScript checked their
    // sizes against the limits (it sends only their count when its limits are the
    // module's: js/core/fuse.js `rrf`).
    let n_ids = match &ids {
        Some(ids) => ids.len(),
        None => r.u32()? as usize,
    };
    // The lists are slices of `docs`; each distinct id is read (and its bounds in the
    // string table checked) once, at its first occurrence.
    let mut lists: Vec<&[u32]> = Vec::with_capacity(lens.len());
    let mut at = 0usize;
    let mut next_new = 0u32;
    let mut bytes = 0usize;
    for (i, &n) in lens.iter().enumerate() {
        let list = docs
            .get(at..at + n as usize)
            .ok_or_else(|| ScoreError::new(ErrorCode::Internal, "", "wire: list lengths"))?;
        for (j, &d) in list.iter().enumerate() {
            if d == next_new {
                // A distinct id, at its first occurrence: its size and the running total.
                if let Some(ids) = &ids {
                    let id = ids.get(d as usize)?;
                    limits.check_id(id, || format!("lists[{i}][{j}]"))?;
                    bytes += id.len();
                    if bytes > limits.max_total_text_bytes as usize {
                        limits.check_total_text(bytes, &format!("lists[{i}][{j}]"))?;
                    }
                }
                next_new += 1;
            }
        }
        at += n as usize;
        lists.push(list);
    }
    // The JavaScript sends lists that cover `docs`, and numbers the ids in order of first
    // occurrence, each once: then every id was counted (and, given their strings, read
    // and its bounds checked) above.
    if at != docs.len() || next_new as usize != n_ids {
        return Err(ScoreError::new(
            ErrorCode::Internal,
            "",
            "wire: list lengths, or ids not in order of first occurrence",
        ));
    }
    let fusion = fuse_with_options(&lists, k, weights.as_deref(), n_ids)?;
    let scores = &fusion.scores;
    let score = |d: u32| scores.get(d as usize).copied().unwrap_or(0.0);
    match ids {
        Some(ids) => {
            let order = calibrank::fuse::order_by_score_then_id(scores, |d| {
                ids.get(d as usize).unwrap_or_default()
            });
            w.u32s(&order);
            w.f64s_from(order.len(), order.iter().map(|&d| score(d)));
        }
        None => {
            let keyed = calibrank::fuse::keyed_by_score(scores);
            let n = keyed.len();
            w.u32s_from(n, keyed.iter().map(|&(_, d)| d));
            w.f64s_from(n, keyed.iter().map(|&(_, d)| score(d)));
            let mut before = None;
            w.u8s_from(
                n,
                keyed.iter().map(|&(key, _)| {
                    let tie = before == Some(key);
                    before = Some(key);
                    u8::from(tie)
                }),
            );
        }
    }
    Ok(())
}

/// `rrf_indexed` with `rrf`'s and `rrfColumnar`'s options (`k` default 60, weights 1),
/// their faults named under `options` and `k`'s first, as Rust's `rrf` and `Pipeline`
/// order them.
fn fuse_with_options(
    lists: &[&[u32]],
    k: Option<f64>,
    weights: Option<&[f64]>,
    n_docs: usize,
) -> Result<calibrank::fuse::IndexedFusion> {
    let k = k.unwrap_or(DEFAULT_K);
    validate_k(k, "k")
        .map_err(|e| calibrank_wasm_shared::options::within_if(e, "options", &["k"]))?;
    rrf_indexed(
        lists,
        &weights_or_ones(weights, lists.len()),
        "options.weights",
        k,
        n_docs,
    )
}

/// Lists of ids as the JavaScript sends them for `rrf` and `fuseMultiQuery`: each list's length (U32) and
/// each entry's id index (U32, ids numbered in order of first occurrence); their counts
/// checked against `limits`, on `field`.
fn lists_of_indices<'a>(
    r: &mut Reader<'a>,
    limits: &Limits,
    field: &str,
) -> Result<(&'a [u32], &'a [u32])> {
    let lens = r.u32s()?;
    let docs = r.u32s()?;
    limits.check_lists(lens.len(), field)?;
    limits.check_lengths(lens.iter().map(|&n| n as usize), field)?;
    limits.check_entries(docs.len(), field)?;
    Ok((lens, docs))
}

/// `rrfColumnar`. In: options (JSON, or the compact form of
/// `options::k_weights_limits`), docs,
/// offsets (U32 or F64), nDocs (F64). Out: order (U32), scores (F64).
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn rrf_columnar(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let (limits, k, weights) =
        calibrank_wasm_shared::options::k_weights_limits(r, LimitedFunction::RrfColumnar)?;
    let docs = read_indices(r, "docs", limits.max_columnar_entries, "maxColumnarEntries")?;
    let offsets = read_indices(
        r,
        "offsets",
        limits.max_lists.saturating_add(1),
        "maxLists + 1",
    )?;
    let n = n_docs(r.f64()?)?;
    if let Some(w) = &weights {
        limits.check_array(w.len(), "options.weights")?;
    }
    let lists = calibrank::pipeline::split_offsets(&docs, &offsets)?;
    limits.check_lists(lists.len(), "offsets")?;
    limits.check_columnar_lengths(lists.iter().map(|l| l.len()))?;
    limits.check_columnar(n, "nDocs")?;
    let fused = fuse_with_options(&lists, k, weights.as_deref(), n)
        .map_err(|e| calibrank::pipeline::flat_index_error(e, &lists, n))?;
    let order = fused.order();
    let scores: Vec<f64> = order
        .iter()
        .map(|&d| fused.scores.get(d as usize).copied().unwrap_or(0.0))
        .collect();
    w.u32s(&order);
    w.f64s(&scores);
    Ok(())
}

/// [`lists_of_indices`] followed by the distinct ids (STRS), as the JavaScript sends them
/// for `fuseMultiQuery`.
fn interned_lists<'a>(
    r: &mut Reader<'a>,
    limits: &Limits,
    field: &str,
) -> Result<(&'a [u32], &'a [u32], Strs<'a>)> {
    let (lens, docs) = lists_of_indices(r, limits, field)?;
    Ok((lens, docs, r.strs()?))
}

/// `fuseMultiQuery`. In: options (JSON, or the numbers of
/// [`calibrank_wasm_shared::options::multi_query_options`]), the queries' lengths (U32), each hit's id index
/// (U32, ids numbered in order of first occurrence), the distinct ids (STRS), the scores
/// (F64), each timestamp's kind (U8: 0 none, 1 epoch ms, 2 ISO text), the epoch ms (F64,
/// one per hit), the ISO texts (STRS, in hit order). Out: the results' id indices (U32),
/// scores (F64), the stats (U32: queries, uniqueItems, itemsInMultipleQueries,
/// belowThreshold, beyondResultsPerQuery, duplicates; F64: meanQueriesPerItem), and when
/// verbose each result's hits (U32: count, then query index and rank per hit; F64: their
/// scores), else NONE and NONE.
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn multi_query(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let (limits, opts) = calibrank_wasm_shared::options::multi_query_options(r)?;
    let (lens, docs, ids) = interned_lists(r, &limits, "queries")?;
    let scores = r.f64s()?;
    let kinds = r.u8s()?;
    let millis = r.f64s()?;
    let isos = r.strs()?;
    let n = docs.len();
    if scores.len() != n || kinds.len() != n || millis.len() != n {
        return Err(ScoreError::new(
            ErrorCode::Internal,
            "",
            "wire: hit sections",
        ));
    }
    let mut budget = Budget::new(limits);
    let mut hits: Vec<IndexedHit<'_>> = Vec::with_capacity(n);
    let (mut k, mut next_new, mut iso) = (0usize, 0u32, 0usize);
    for (i, &len) in lens.iter().enumerate() {
        for j in 0..len as usize {
            let (Some(&d), Some(&score), Some(&kind), Some(&ms)) =
                (docs.get(k), scores.get(k), kinds.get(k), millis.get(k))
            else {
                return Err(ScoreError::new(
                    ErrorCode::Internal,
                    "",
                    "wire: query lengths",
                ));
            };
            k += 1;
            if d == next_new {
                // A distinct id, at its first occurrence: checked and counted once.
                let id = ids.get(d as usize)?;
                limits.check_id(id, || format!("queries[{i}][{j}].id"))?;
                budget.text_with(id.len(), || format!("queries[{i}][{j}].id"))?;
                next_new += 1;
            } else if d > next_new {
                return Err(ScoreError::new(
                    ErrorCode::Internal,
                    "",
                    "wire: ids not in order of first occurrence",
                ));
            }
            let timestamp = match kind {
                0 => None,
                // `+ 0.0`: a -0 is 0, as the JSON form read it.
                1 => Some(TimeRef::Millis(ms + 0.0)),
                _ => {
                    let t = isos.get(iso)?;
                    iso += 1;
                    budget.text_with(t.len(), || format!("queries[{i}][{j}].timestamp"))?;
                    Some(TimeRef::Iso(t))
                }
            };
            hits.push(IndexedHit {
                doc: d,
                score,
                timestamp,
            });
        }
    }
    // The JavaScript sends lengths that cover the hits and numbers the ids in order of
    // first occurrence, each once: then every id was checked above.
    if k != n || next_new as usize != ids.len() || iso != isos.len() {
        return Err(ScoreError::new(
            ErrorCode::Internal,
            "",
            "wire: query lengths, a distinct id no hit uses, or timestamps",
        ));
    }
    let id = |d: u32| ids.get(d as usize).unwrap_or("");
    let out = calibrank::multiquery::fuse_multi_query_indexed(lens, &hits, ids.len(), &id, &opts)
        .map_err(|e| within_unless(e, "options", &["queries"]))?;
    let (fused, s) = (&out.fused, &out.stats);
    w.u32s_from(fused.len(), fused.iter().map(|f| f.doc));
    w.f64s_from(fused.len(), fused.iter().map(|f| f.score));
    w.u32s(&[
        s.queries,
        s.unique_items,
        s.items_in_multiple_queries,
        s.below_threshold,
        s.beyond_results_per_query,
        s.duplicates,
    ]);
    w.f64s(&[s.mean_queries_per_item]);
    if opts.verbose {
        // Per result: its hits' count, then (query index, rank) per hit; and the hits'
        // similarity scores.
        let of = |f: &calibrank::multiquery::FusedIndexed| {
            out.hits.get(f.hits.clone()).unwrap_or_default()
        };
        let total: usize = fused.iter().map(|f| f.hits.len()).sum();
        let mut u = Vec::with_capacity(fused.len() + 2 * total);
        for f in fused {
            let h = of(f);
            u.push(u32::try_from(h.len()).unwrap_or(u32::MAX));
            for &(q, _, rank) in h {
                u.extend_from_slice(&[q, rank]);
            }
        }
        w.u32s(&u);
        w.f64s_from(total, fused.iter().flat_map(|f| of(f).iter().map(|h| h.1)));
    } else {
        w.none();
        w.none();
    }
    Ok(())
}

/// `rerank`. In: options (JSON), query (TEXT), each candidate's score (F64) and which
/// optional texts it has (U8: 1 `type`, 2 `summary`, 4 `content`), the strings (STRS:
/// per candidate its id, its name, then the texts it has, in that order). Out: the
/// candidates' indices, best first (U32), and per result its original score, reranked
/// score and the six factors (F64, 8 per result).
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn rerank(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let (limits, cfg): (Limits, HeuristicConfig) =
        decode_with_limits(r.opt_text()?, "options", LimitedFunction::Rerank)?;
    let query = r.text()?;
    limits.check_text(query, || "query".into())?;
    let scores = r.f64s()?;
    let flags = r.u8s()?;
    let strs = r.strs()?;
    let wire = || ScoreError::new(ErrorCode::Internal, "", "wire: candidate sections");
    if flags.len() != scores.len() {
        return Err(wire());
    }
    limits.check_array(scores.len(), "candidates")?;
    limits.check_entries(scores.len(), "candidates")?;
    let mut candidates: Vec<CandidateRef<'_>> = Vec::with_capacity(scores.len());
    let mut next = 0usize;
    let mut take = |present: bool| -> Result<Option<&str>> {
        if !present {
            return Ok(None);
        }
        next += 1;
        strs.get(next - 1).map(Some)
    };
    for (&score, &f) in scores.iter().zip(flags) {
        let (Some(id), Some(name)) = (take(true)?, take(true)?) else {
            return Err(wire());
        };
        candidates.push(CandidateRef {
            id,
            // `+ 0.0`: a -0 is 0, as the JSON form read it.
            score: score + 0.0,
            text: CandidateText {
                name,
                entity_type: take(f & 1 != 0)?,
                summary: take(f & 2 != 0)?,
                content: take(f & 4 != 0)?,
            },
        });
    }
    if next != strs.len() {
        return Err(wire());
    }
    for (i, c) in candidates.iter().enumerate() {
        limits.check_id(c.id, || format!("candidates[{i}].id"))?;
        // Each text within maxTextBytes, `type` too (as an item's in `Pipeline.run`).
        for (name, t) in [
            ("name", Some(c.text.name)),
            ("type", c.text.entity_type),
            ("summary", c.text.summary),
            ("content", c.text.content),
        ] {
            if let Some(t) = t {
                limits.check_text(t, || format!("candidates[{i}].{name}"))?;
            }
        }
    }
    // Every string, in input order, against maxTotalTextBytes (the error names the one
    // that crosses it).
    let mut budget = Budget::new(limits);
    budget.text(query.len(), "query")?;
    for (i, c) in candidates.iter().enumerate() {
        for (name, t) in [
            ("id", Some(c.id)),
            ("name", Some(c.text.name)),
            ("type", c.text.entity_type),
            ("summary", c.text.summary),
            ("content", c.text.content),
        ] {
            if let Some(t) = t {
                budget.text_with(t.len(), || format!("candidates[{i}].{name}"))?;
            }
        }
    }
    // The core names an option alone, as every Rust `validate()` does: here it is under
    // the argument's name (`options.…`); the call's data keep theirs.
    let out = calibrank::rerank::rerank_candidates(query, &candidates, &cfg)
        .map_err(|e| within_unless(e, "options", &["query", "candidates", "options"]))?;
    w.u32s_from(out.len(), out.iter().map(|r| r.index));
    let mut numbers = Vec::with_capacity(out.len() * 8);
    for r in &out {
        let original = candidates.get(r.index as usize).map_or(0.0, |c| c.score);
        numbers.extend_from_slice(&[original, r.reranked_score]);
        numbers.extend_from_slice(&factor_values(&r.factors));
    }
    w.f64s(&numbers);
    Ok(())
}

// ---------------------------------------------------------------- Normalize / calibrate

fn scores_in(r: &mut Reader<'_>, limits: &Limits, field: &str) -> Result<Vec<f64>> {
    let s = r.f64s()?;
    limits.check_array(s.len(), field)?;
    Ok(s.to_vec())
}

/// `normalize`. In: options (JSON), method (TEXT), scores (F64). Out: F64.
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn normalize(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let (limits, opts): (Limits, NormalizeOptions) =
        decode_with_limits(r.opt_text()?, "options", LimitedFunction::Normalize)?;
    let method = NormalizeMethod::parse(r.text()?)?;
    let scores = scores_in(r, &limits, "scores")?;
    let out = calibrank::normalize::normalize(&scores, method, opts.temperature.unwrap_or(1.0))
        .map_err(|e| {
            if e.field == "temperature" {
                e.within("options")
            } else {
                e
            }
        })?;
    w.f64s(&out);
    Ok(())
}

/// `calibrate`. In: options (JSON), scores (F64). Out: F64.
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn calibrate(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let (limits, sigmoid): (Limits, Sigmoid) =
        decode_with_limits(r.opt_text()?, "options", LimitedFunction::Calibrate)?;
    let scores = scores_in(r, &limits, "scores")?;
    let out = calibrank::calibrate::calibrate(&scores, &sigmoid)
        .map_err(|e| within_unless(e, "options", &["scores"]))?;
    w.f64s(&out);
    Ok(())
}

/// `classifyBand`. In: options (JSON), the score (F64). Out: the band (U8: 0 miss, 1
/// degraded, 2 hit) and the score (F64; a miss carries none).
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn classify(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let floors: BandFloors = match r.opt_text()? {
        Some(t) => decode::from_text(t, "options")?,
        None => BandFloors::default(),
    };
    let score = r.f64()?;
    let out = floors.classify(score, None).map_err(|e| {
        if e.field == "score" {
            e
        } else {
            e.within("options")
        }
    })?;
    let (band, score) = match out {
        RetrievalOutcome::Miss => (0, 0.0),
        RetrievalOutcome::Degraded { score, .. } => (1, score),
        RetrievalOutcome::Hit { score, .. } => (2, score),
    };
    w.u8s(&[band]);
    w.f64s(&[score]);
    Ok(())
}

/// `queryConfidence`. In: options (JSON), scores (F64). Out: weightedTop5,
/// expectedPrecision, atLeastOneRelevant and k (F64), as the pipeline's confidence.
// Not inlined into the dispatch: the engine compiles each operation on its first call,
// so the first call of one function does not compile all of them.
#[inline(never)]
fn query_confidence(r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    let (limits, opts): (Limits, ConfidenceOptions) =
        decode_with_limits(r.opt_text()?, "options", LimitedFunction::QueryConfidence)?;
    let scores = scores_in(r, &limits, "scores")?;
    let c = calibrank::confidence::query_confidence(&scores, &opts)
        .map_err(|e| within_unless(e, "options", &["scores"]))?;
    pipeline::write_confidence(w, &c);
    Ok(())
}
