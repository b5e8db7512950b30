//! The stages of a run once its input is checked: fuse, recency, the topK pool, rerank,
//! normalize, calibrate, topN, bands, confidence, and the explanation of each result.
//!
//! Both ways into the pipeline end here: [`Pipeline::run_ref`] (run.rs) checks a
//! borrowed input with a typed error for each fault, interns its ids, and hands over the
//! same shape the bindings' lean path ([`Pipeline::run_indexed_docs`], indexed.rs) reads from
//! its string table. One copy of the stages serves both, so they cannot drift apart, and
//! the module carries them once. A stage's own error (a reranked score that overflows, a
//! candidate without its cross-encoder score, the normalization's or the confidence
//! model's) is reported here, for both.

use super::config::{RecencyMode, RerankMethod};
use super::indexed::{IdTable, IndexedItem};
use super::output::{
    check_contract, first_ranks, Contribution, Explain, OutcomeSource, PipelineOutput,
    PipelineResult, PipelineStats, PoolExplain, RerankExplain,
};
use super::{count, Pipeline, PoolTexts};
use crate::bands::BandContext;
use crate::confidence::confidence_of_sorted;
use crate::error::{ErrorCode, Result, ScoreError};
use crate::fuse::{descending_key, rrf_indexed};
use crate::normalize::{normalize_scaled, NormalizeMethod, PoolScale};
use crate::recency::{age_days, step_multiplier};
use crate::rerank::{heuristic_factors, CandidateText, PreparedQuery};
use crate::sort::StableSort;

/// The distinct ids of a checked input: the bindings' string table read in place, or
/// the ids the full path interned.
#[derive(Debug, Clone, Copy)]
pub(super) enum Ids<'a> {
    Table(IdTable<'a>),
    Strs(&'a [&'a str]),
}

impl<'a> Ids<'a> {
    fn len(&self) -> usize {
        match self {
            Ids::Table(t) => t.len(),
            Ids::Strs(s) => s.len(),
        }
    }

    fn get(&self, d: u32) -> Option<&'a str> {
        match self {
            Ids::Table(t) => t.get(d),
            Ids::Strs(s) => s.get(d as usize).copied(),
        }
    }

    /// The byte order of ids `a` and `b` (the string API's tie-break).
    fn cmp(&self, a: u32, b: u32) -> std::cmp::Ordering {
        self.get(a).cmp(&self.get(b))
    }
}

/// A checked input, interned: list `i` is `lists[i]` (indices into `ids`), named
/// `names[i]`, with the effective weight `weights[i]` and its own scores `scores[i]`
/// (`scores` empty: no list has any).
pub(super) struct Checked<'a> {
    pub query: &'a str,
    pub names: &'a [&'a str],
    pub weights: &'a [f64],
    pub scores: &'a [Option<&'a [f64]>],
    pub lists: &'a [&'a [u32]],
    pub ids: Ids<'a>,
    pub items: &'a [IndexedItem<'a>],
    pub now_ms: Option<f64>,
    pub context: Option<&'a BandContext>,
    pub top_n: u32,
}

/// A model error about the input lists names them (`lists`, `lists[i].scores`); any
/// other is the model's own, under `field`.
fn within_model_error(e: ScoreError, field: &str) -> ScoreError {
    if e.field.starts_with("lists") {
        e
    } else {
        e.within(field)
    }
}

/// A score that overflowed when its recency multiplier was applied (`id`: the
/// document's, or empty where ids are not known: `runColumnar`): the configuration's
/// `recency`, with the lists' weights that brought the fused score near `f64::MAX`.
/// Found where the multipliers are applied, so no later stage meets an infinite score.
#[cold]
#[inline(never)]
pub(super) fn recency_overflow(id: &str) -> ScoreError {
    let of = if id.is_empty() {
        String::new()
    } else {
        format!(" of {}", crate::error::name(id))
    };
    ScoreError::new(
        ErrorCode::NonFiniteScore,
        "recency",
        format!("the score{of} overflows (Infinity) after recency; lower the recency multipliers or the lists' weights"),
    )
}

/// A reranked score that overflowed is the config's doing (multipliers near `f64::MAX`):
/// `NON_FINITE_SCORE` naming the config value, not a later stage.
fn reranked_finite(score: f64, id: &str, field: &str) -> Result<()> {
    if score.is_finite() {
        return Ok(());
    }
    Err(ScoreError::new(
        ErrorCode::NonFiniteScore,
        field,
        format!(
            "the reranked score of {} overflows ({}); lower the multipliers",
            crate::error::name(id),
            crate::error::num(score)
        ),
    ))
}

/// `out` with each result's id, from its document: the stages leave the ids empty, for
/// the bindings return documents (the caller holds the ids) and need no `String` each.
pub(super) fn with_ids(mut out: PipelineOutput, ids: Ids<'_>) -> PipelineOutput {
    for r in &mut out.results {
        r.id = ids.get(r.doc).unwrap_or_default().to_string();
    }
    out
}

impl Pipeline {
    /// The stages on a checked input (see the module documentation); `held` holds the
    /// items' texts when they carry none (asked once, for the pool's). The results' ids
    /// are left empty: [`with_ids`] fills them in.
    pub(super) fn stages(
        &self,
        input: &Checked<'_>,
        held: Option<&mut dyn PoolTexts>,
    ) -> Result<PipelineOutput> {
        let cfg = &self.config;
        let ids = input.ids;
        let top_n = input.top_n;

        // 1. Fuse.
        // An overflowing sum is the lists' weights' doing.
        let fusion = rrf_indexed(input.lists, input.weights, "lists", cfg.k, ids.len())?;
        let mut stats = PipelineStats::of_fusion(input.lists.len(), &fusion.stats);

        // 2. Recency at the merge stage: the step of the item's age, or its fiscal year's
        // tier (x1 without them).
        let rc = &cfg.recency;
        let mut multipliers = vec![1.0; ids.len()];
        for item in input.items {
            let Some(slot) = multipliers.get_mut(item.doc as usize) else {
                continue;
            };
            *slot = match (rc.mode, item.modified_ms, input.now_ms, item.fiscal_year) {
                (RecencyMode::Step, Some(m), Some(now), _) => {
                    step_multiplier(&rc.steps, age_days(m, now))
                }
                (RecencyMode::FiscalYear, _, _, Some(fy)) => {
                    rc.fiscal_year.multiplier(fy, rc.boost)
                }
                _ => 1.0,
            };
        }

        // 3. The topK pool: the topK best after recency (ties: id ascending), selected
        // without sorting every candidate.
        let mut keyed: Vec<crate::sort::Keyed> = (0u32..)
            .zip(fusion.scores.iter().zip(&multipliers))
            .map(|(d, (&s, &m))| (descending_key(s * m), d))
            .collect();
        let top_k = cfg.top_k as usize;
        stats.beyond_top_k = count(keyed.len().saturating_sub(top_k));
        crate::sort::top_keyed_then(&mut keyed, top_k, &mut |a, b| ids.cmp(a, b));
        // The score after recency of each pool document (and the reranker's factors when
        // explaining).
        let mut rerank_explain = Vec::new();
        let mut tier_multipliers = Vec::new();
        let mut ce_range = None;
        let mut reranked: Vec<f64> = keyed
            .iter()
            .map(|&(_, d)| {
                let d = d as usize;
                fusion.scores.get(d).copied().unwrap_or(0.0)
                    * multipliers.get(d).copied().unwrap_or(1.0)
            })
            .collect();
        // A score near f64::MAX times a recency multiplier can overflow: the pool's first
        // (scores descending) is then infinite. Checked here, before a reranker replaces
        // the scores (the cross-encoder's) or names itself for it.
        if let (Some(&s), Some(&(_, d))) = (reranked.first(), keyed.first()) {
            if s.is_infinite() {
                return Err(recency_overflow(ids.get(d).unwrap_or_default()));
            }
        }

        // 4. The reranker on the candidates within its limit, then the boost of fiscal
        // years after it.
        let rr = &cfg.rerank;
        if rr.method != RerankMethod::None {
            if let Some(limit) = rr.candidate_limit {
                let limit = limit as usize;
                stats.beyond_candidate_limit = count(keyed.len().saturating_sub(limit));
                keyed.truncate(limit);
                reranked.truncate(limit);
            }
            let mut item_of = vec![u32::MAX; ids.len()];
            for (i, item) in (0u32..).zip(input.items) {
                if let Some(slot) = item_of.get_mut(item.doc as usize) {
                    *slot = i;
                }
            }
            let item = |d: u32| {
                item_of
                    .get(d as usize)
                    .and_then(|&i| input.items.get(i as usize))
            };
            let id = |d: u32| ids.get(d).unwrap_or_default();
            if cfg.explain {
                rerank_explain.reserve_exact(keyed.len());
            }
            match rr.method {
                RerankMethod::Heuristic => {
                    let q = PreparedQuery::new(input.query, rr.heuristic.stopwords.as_deref());
                    // Held texts: the pool's, asked for once (the items then carry none).
                    let fetched = match held {
                        Some(source) => {
                            let docs: Vec<u32> = keyed.iter().map(|&(_, d)| d).collect();
                            let pool_ids: Vec<&str> = docs.iter().map(|&d| id(d)).collect();
                            let texts = source.texts(&docs, &pool_ids)?;
                            if texts.len() != docs.len() {
                                return Err(ScoreError::new(
                                    ErrorCode::Internal,
                                    "",
                                    "held texts not the pool's",
                                ));
                            }
                            Some(texts)
                        }
                        None => None,
                    };
                    for (i, (&(_, d), score)) in keyed.iter().zip(reranked.iter_mut()).enumerate() {
                        let text = match &fetched {
                            Some(t) => t.get(i).copied().unwrap_or_default(),
                            None => {
                                let [name, entity_type, summary, content] =
                                    item(d).map_or([None; 4], |it| it.texts);
                                CandidateText {
                                    name: name.unwrap_or(""),
                                    entity_type,
                                    summary,
                                    content,
                                }
                            }
                        };
                        let f = heuristic_factors(&q, text, &rr.heuristic);
                        *score *= f.multiplier;
                        if cfg.explain {
                            rerank_explain.push(RerankExplain::Heuristic { factors: f });
                        }
                        reranked_finite(*score, id(d), "rerank.heuristic")?;
                    }
                }
                RerankMethod::CrossEncoder => {
                    let raw: Vec<f64> = keyed
                        .iter()
                        .map(|&(_, d)| {
                            item(d).and_then(|it| it.cross_encoder).ok_or_else(|| {
                                ScoreError::new(
                                    ErrorCode::EmptyInput,
                                    crate::error::key_field("items", id(d), "crossEncoderScore"),
                                    "the cross_encoder reranker needs a crossEncoderScore for every candidate",
                                )
                            })
                        })
                        .collect::<Result<_>>()?;
                    // The cross-encoder's normalization (seed 004's min-max by default:
                    // `cross_encoder_normalize`), its scale kept for the explanation.
                    let range = PoolScale::of(&raw, rr.cross_encoder_normalization.method(), 1.0);
                    for (score, &r) in reranked.iter_mut().zip(&raw) {
                        let n = range.apply(r);
                        *score = n;
                        if cfg.explain {
                            rerank_explain.push(RerankExplain::CrossEncoder {
                                raw: r,
                                normalized: n,
                            });
                        }
                    }
                    ce_range = Some(range);
                }
                RerankMethod::None => {}
            }
            // A cross-encoder's scores kept raw (`crossEncoderNormalization: none`) go on
            // as the model gave them: no fiscal-year boost, which would lower one below 0.
            let raw = matches!(ce_range, Some(PoolScale::None));
            for (&(_, d), score) in keyed.iter().zip(reranked.iter_mut()) {
                let tier = item(d)
                    .and_then(|it| it.fiscal_year)
                    .filter(|_| !raw)
                    .map(|fy| rc.fiscal_year.multiplier(fy, rr.recency_boost));
                if let Some(m) = tier {
                    *score *= m;
                    reranked_finite(*score, id(d), "rerank.recencyBoost")?;
                }
                if cfg.explain {
                    tier_multipliers.push(tier.unwrap_or(1.0));
                }
                // `max` refuses a score below 0: said of the candidate's own score.
                if raw && *score < 0.0 && cfg.normalization.method == NormalizeMethod::Max {
                    return Err(ScoreError::new(
                        ErrorCode::NegativeValue,
                        crate::error::key_field("items", id(d), "crossEncoderScore"),
                        crate::normalize::NEGATIVE_FOR_MAX,
                    ));
                }
            }
        }

        // 5. Normalize, then minRelevance; 6. calibrate, then minConfidence.
        let method = cfg.normalization.method;
        let (normalized, scale) =
            normalize_scaled(&reranked, method, cfg.normalization.temperature)
                .map_err(|e| e.within("normalization"))?;
        // (document, normalized, calibrated, place in the pool)
        let mut pool: Vec<(u32, f64, f64, usize)> = Vec::with_capacity(keyed.len());
        let mut below_relevance = 0usize;
        let mut below_confidence = 0usize;
        for (at, (&(_, d), &n)) in keyed.iter().zip(&normalized).enumerate() {
            if method != NormalizeMethod::None && n < cfg.normalization.min_relevance {
                below_relevance += 1;
                continue;
            }
            let c = cfg.calibration.apply(n);
            if c >= cfg.min_confidence {
                pool.push((d, n, c, at));
            } else {
                below_confidence += 1;
            }
        }
        stats.below_min_relevance = count(below_relevance);
        stats.below_min_confidence = count(below_confidence);

        // 7. Final order (calibrated, then the score after reranking, descending; then id)
        // and topN. The normalization keeps the scores after reranking in order (every
        // method is monotone), so they order what it or the calibration made equal by
        // saturating (z-scores above about 8.2 all normalize to 1): the better candidate
        // stays first, as the monotone stages promise, instead of the smaller id.
        let after_rerank = |at: usize| reranked.get(at).copied().unwrap_or(0.0);
        pool.stable_sort_by(|a, b| {
            b.2.total_cmp(&a.2)
                .then_with(|| after_rerank(b.3).total_cmp(&after_rerank(a.3)))
                .then_with(|| ids.cmp(a.0, b.0))
        });
        stats.beyond_top_n = count(pool.len().saturating_sub(top_n as usize));
        pool.truncate(top_n as usize);

        // 8. Bands and confidence (a confidence model's, from the lists' raw scores).
        let (floors, profile) = cfg.bands.floors_for(input.context);
        stats.band_profile = profile.map(str::to_string);
        let scores: Vec<f64> = pool.iter().map(|p| p.2).collect();
        let mut confidence = confidence_of_sorted(&scores, &cfg.confidence.options());
        let outcome = match &cfg.confidence.model {
            Some(model) => {
                model.check_lists(input.lists.len())?;
                // The lists are fused already: the same fusion is reused when the model
                // assumes the pipeline's, else their documents are fused again with the
                // model's settings.
                let fused = if model.rrf_k == cfg.k && model.weights == input.weights {
                    fusion.scores.clone()
                } else {
                    rrf_indexed(
                        input.lists,
                        &model.weights,
                        "confidence.model.weights",
                        model.rrf_k,
                        ids.len(),
                    )?
                    .scores
                };
                let top = crate::confidence::model::top_k(fused, model.k);
                let list_scores: Vec<Option<&[f64]>> = (0..input.lists.len())
                    .map(|i| input.scores.get(i).copied().flatten())
                    .collect();
                let p = model
                    .features_of_scores(&top, &list_scores)
                    .and_then(|x| model.predict_features(&x))
                    .map_err(|e| within_model_error(e, "confidence.model"))?;
                confidence.at_least_one_relevant = p;
                cfg.confidence.outcome(p, OutcomeSource::Model)
            }
            None => cfg
                .confidence
                .outcome(confidence.at_least_one_relevant, OutcomeSource::RankOnly),
        };

        // 9. The results, each with its explanation when asked.
        let ranks = if cfg.explain {
            let docs: Vec<u32> = pool.iter().map(|p| p.0).collect();
            first_ranks(input.lists, &docs, ids.len())
        } else {
            Vec::new()
        };
        let n_lists = input.lists.len();
        let mut results = Vec::with_capacity(pool.len());
        for (r, &(doc, normalized, score, at)) in pool.iter().enumerate() {
            let band = floors.band(score);
            stats.count_band(band);
            let explain = cfg.explain.then(|| {
                let d = doc as usize;
                let fused = fusion.scores.get(d).copied().unwrap_or(0.0);
                let recency_multiplier = multipliers.get(d).copied().unwrap_or(1.0);
                Explain {
                    contributions: (0..n_lists)
                        .filter_map(|li| {
                            Some(Contribution::of(
                                input.names.get(li)?,
                                (*ranks.get(r * n_lists + li)?)?,
                                *input.weights.get(li)?,
                                cfg.k,
                                input.scores.get(li).copied().flatten(),
                            ))
                        })
                        .collect(),
                    fused,
                    recency_multiplier,
                    after_recency: fused * recency_multiplier,
                    rerank: rerank_explain
                        .get(at)
                        .cloned()
                        .unwrap_or(RerankExplain::None),
                    rerank_recency_multiplier: tier_multipliers.get(at).copied().unwrap_or(1.0),
                    after_rerank: reranked.get(at).copied().unwrap_or(0.0),
                    normalized,
                    calibrated: score,
                    band,
                    band_profile: profile.map(str::to_string),
                }
            });
            results.push(PipelineResult {
                id: String::new(),
                doc,
                score,
                band,
                explain,
            });
        }
        stats.returned = count(results.len());
        let pool = match scale {
            Some(normalization) if cfg.explain => Some(Box::new(PoolExplain {
                candidates: count(reranked.len()),
                cross_encoder: ce_range,
                normalization,
            })),
            _ => None,
        };
        let out = PipelineOutput {
            results,
            confidence,
            outcome,
            stats,
            pool,
        };
        check_contract(&out, top_n)?;
        Ok(out)
    }
}
