//! The sections of [`run`](super::run)'s and `runColumnar`'s output: results, bands,
//! confidence, outcome, stats, the explanations and the pool's.

use calibrank::bands::Band;
use calibrank::error::{ErrorCode, Result, ScoreError};
use calibrank::normalize::PoolScale;
use calibrank::pipeline::{
    Outcome, OutcomeKind, OutcomeSource, Pipeline, PipelineOutput, PipelineResult, PoolExplain,
    RerankExplain,
};
use calibrank_wasm_shared::wire::Writer;

/// The sections of [`run`](super::run)'s output (`names`: the input lists' names, read only when
/// explaining).
pub(super) fn write_output(
    w: &mut Writer,
    p: &Pipeline,
    out: &PipelineOutput,
    names: &[&str],
) -> Result<()> {
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

/// The pool's explanation (NONE without one) as one F64 section: `candidates`, whether
/// the cross-encoder reranked (1 or 0) and its normalization's scale (four numbers, 0
/// without it), then the normalization's scale. A scale is a code and three numbers:
/// none 0; max 1 and the divisor; min_max 2, min, max; z_score 3, mean, sd, scale;
/// softmax 4, max, sum, temperature; unused numbers 0.
pub(super) fn write_pool(w: &mut Writer, pool: Option<&PoolExplain>) {
    let Some(p) = pool else {
        w.none();
        return;
    };
    let [code, a, b, c] = scale_words(p.normalization);
    let (has, [ce, x, y, z]) = match p.cross_encoder {
        Some(s) => (1.0, scale_words(s)),
        None => (0.0, [0.0; 4]),
    };
    w.f64s(&[f64::from(p.candidates), has, ce, x, y, z, code, a, b, c]);
}

/// A pool's scale as a code and three numbers (js/core/pipeline.js `scaleAt` reads them).
fn scale_words(s: PoolScale) -> [f64; 4] {
    match s {
        PoolScale::None => [0.0; 4],
        PoolScale::Max { max } => [1.0, max, 0.0, 0.0],
        PoolScale::MinMax { min, max } => [2.0, min, max, 0.0],
        PoolScale::ZScore { mean, sd, scale } => [3.0, mean, sd, scale],
        PoolScale::Softmax {
            max,
            sum,
            temperature,
        } => [4.0, max, sum, temperature],
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
pub(super) fn outcome_codes(o: &Outcome) -> [u8; 2] {
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
pub(super) fn write_explanations(
    w: &mut Writer,
    results: &[PipelineResult],
    names: &[&str],
) -> Result<()> {
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

pub(super) fn band_code(b: Band) -> u8 {
    match b {
        Band::Miss => 0,
        Band::Degraded => 1,
        Band::Hit => 2,
    }
}
