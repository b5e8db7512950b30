//! The run: input validation, then fuse, recency, the topK pool, rerank, normalize,
//! calibrate, topN, bands and confidence, with an explanation of every result.

use super::config::{RecencyMode, RerankMethod};
use super::input::{InputRef, Interned, ItemRef, ListRef, PipelineInput, PoolTexts};
use super::output::{
    check_contract, first_ranks, Contribution, Explain, OutcomeSource, PipelineOutput,
    PipelineResult, PipelineStats, RerankExplain,
};
use super::{count, Pipeline};
use crate::bands::{select_floors, Band};
use crate::confidence::model::ListView;
use crate::confidence::{confidence_of_sorted, QueryConfidence};
use crate::error::{finite, ErrorCode, Result, ScoreError};
use crate::fuse::{descending_key, rrf_interned, rrf_pre_interned, validate_weight, RankedList};
use crate::normalize::{normalize, NormalizeMethod};
use crate::recency::{age_days, step_multiplier};
use crate::rerank::{cross_encoder_normalize, heuristic_factors, CandidateText, PreparedQuery};
use crate::sort::StableSort;

/// A model error about the input lists names them (`lists`, `lists[i].scores`); any
/// other is the model's own, under `field`.
fn within_model_error(e: ScoreError, field: &str) -> ScoreError {
    if e.field.starts_with("lists") {
        e
    } else {
        e.within(field)
    }
}

/// A reranked score that overflowed is the config's doing (multipliers near `f64::MAX`):
/// `NON_FINITE_SCORE` naming the config value, not a later stage.
fn reranked_finite(w: &Work<'_>, field: &str) -> Result<()> {
    if w.after_rerank.is_finite() {
        return Ok(());
    }
    Err(ScoreError::new(
        ErrorCode::NonFiniteScore,
        field,
        format!(
            "the reranked score of {:?} overflows ({}); lower the multipliers",
            w.id,
            crate::error::num(w.after_rerank)
        ),
    ))
}

/// A band context's strings are texts (`maxTextBytes` each), named `context.<field>`.
/// Inlined: as a call of its own it cost `run` (b) at N = 10 about 1,000 more module
/// instructions (`bench/wasm-icount.sh`), the code around it compiled differently.
#[inline(always)]
pub(super) fn check_context(
    limits: &crate::limits::Limits,
    c: &crate::bands::BandContext,
) -> Result<()> {
    for (name, text) in [
        ("taskClass", &c.task_class),
        ("language", &c.language),
        ("buildSystem", &c.build_system),
    ] {
        if let Some(t) = text {
            limits.check_text(t, || format!("context.{name}"))?;
        }
    }
    Ok(())
}

/// Bytes of every string of a pipeline input: the query, list names and ids, item ids
/// and texts (the context's strings are checked one by one, [`check_context`]).
fn input_text_bytes(input: &InputRef<'_>) -> usize {
    let opt = |t: &Option<&str>| t.map_or(0, str::len);
    let lists: usize = input
        .lists
        .iter()
        .map(|l| l.name.len() + l.ids.iter().map(|id| id.len()).sum::<usize>())
        .sum();
    let items: usize = input
        .items
        .iter()
        .map(|(id, m)| {
            id.len() + opt(&m.name) + opt(&m.entity_type) + opt(&m.summary) + opt(&m.content)
        })
        .sum();
    input.query.len() + lists + items
}

/// Working state of one candidate.
#[derive(Clone)]
struct Work<'a> {
    id: &'a str,
    doc: u32,
    meta: Option<&'a ItemRef<'a>>,
    ranks: Vec<Option<u32>>,
    fused: f64,
    recency_multiplier: f64,
    after_recency: f64,
    rerank: RerankExplain,
    rerank_recency_multiplier: f64,
    after_rerank: f64,
    normalized: f64,
    calibrated: f64,
}

impl Pipeline {
    fn validate_input(&self, input: &InputRef<'_>) -> Result<Option<f64>> {
        let limits = &self.config.limits;
        limits.check_lists(input.lists.len(), "lists")?;
        limits.check_lengths(input.lists.iter().map(|l| l.ids.len()), "lists")?;
        let list_entries: usize = input.lists.iter().map(|l| l.ids.len()).sum();
        limits.check_entries(list_entries.saturating_add(input.items.len()), "items")?;
        limits.check_text(input.query, || "query".into())?;
        limits.check_total_text(input_text_bytes(input), "input")?;
        if let Some(c) = input.context {
            check_context(limits, c)?;
        }
        for (i, list) in input.lists.iter().enumerate() {
            // A list's name is an identifier (the key of its weight, named in explanations).
            limits.check_id(list.name, || format!("lists[{i}].name"))?;
            if input.lists.iter().take(i).any(|l| l.name == list.name) {
                return Err(ScoreError::new(
                    ErrorCode::DuplicateId,
                    format!("lists[{i}].name"),
                    format!("list name {:?} is used twice", list.name),
                ));
            }
            if let Some(w) = list.weight {
                validate_weight(w, || format!("lists[{i}].weight"))?;
            }
            if let Some(scores) = &list.scores {
                if scores.len() != list.ids.len() {
                    return Err(ScoreError::new(
                        ErrorCode::LengthMismatch,
                        format!("lists[{i}].scores"),
                        format!("{} scores for {} ids", scores.len(), list.ids.len()),
                    ));
                }
                crate::error::all_finite(scores, &format!("lists[{i}].scores"))?;
            }
            for (j, id) in list.ids.iter().enumerate() {
                limits.check_id(id, || format!("lists[{i}].ids[{j}]"))?;
            }
        }
        let mut any_mtime = false;
        for (id, meta) in &input.items {
            // An item's key is an id; named by the object alone (the key may be long).
            limits.check_id(id, || "items".into())?;
            let field = |f: &str| format!("items.{id}.{f}");
            let meta = *meta;
            for (name, text) in [
                ("name", &meta.name),
                ("type", &meta.entity_type),
                ("summary", &meta.summary),
                ("content", &meta.content),
            ] {
                if let Some(t) = text {
                    limits.check_text(t, || field(name))?;
                }
            }
            if let Some(s) = meta.cross_encoder_score {
                finite(s, || field("crossEncoderScore"))?;
            }
            if let Some(t) = meta.modified_at {
                // The field path is formatted only on error (not once per item).
                t.to_millis("").map_err(|e| ScoreError {
                    field: field("modifiedAt"),
                    ..e
                })?;
                any_mtime = true;
            }
        }
        let now = match input.now {
            Some(t) => Some(t.to_millis("now")?),
            None => None,
        };
        if any_mtime && now.is_none() && self.config.recency.mode == RecencyMode::Step {
            return Err(ScoreError::new(
                ErrorCode::InvalidTimestamp,
                "now",
                "`now` is required when items carry `modifiedAt` and recency.mode is `step` (calibrank never reads the clock)",
            ));
        }
        if self.config.rerank.method == RerankMethod::Heuristic {
            crate::rerank::require_query(input.query)?;
        }
        Ok(now)
    }

    fn list_weight(&self, list: &ListRef<'_>) -> f64 {
        list.weight
            .or_else(|| self.config.weights.get(list.name).copied())
            .unwrap_or(1.0)
    }

    fn merge_recency(&self, meta: Option<&ItemRef<'_>>, now: Option<f64>) -> Result<f64> {
        let rc = &self.config.recency;
        Ok(match (rc.mode, meta) {
            (
                RecencyMode::Step,
                Some(ItemRef {
                    modified_at: Some(t),
                    ..
                }),
            ) => {
                let (Some(now), Ok(m)) = (now, t.to_millis("modifiedAt")) else {
                    return Ok(1.0);
                };
                step_multiplier(&rc.steps, age_days(m, now))
            }
            (
                RecencyMode::FiscalYear,
                Some(ItemRef {
                    fiscal_year: Some(fy),
                    ..
                }),
            ) => rc.fiscal_year.multiplier(*fy, rc.boost),
            _ => 1.0,
        })
    }

    fn rerank_stage(
        &self,
        pool: &mut Vec<Work<'_>>,
        input: &InputRef<'_>,
        held: Option<&mut dyn PoolTexts>,
        stats: &mut PipelineStats,
    ) -> Result<()> {
        let rc = &self.config.rerank;
        if rc.method == RerankMethod::None {
            for w in pool.iter_mut() {
                w.after_rerank = w.after_recency;
            }
            return Ok(());
        }
        if let Some(limit) = rc.candidate_limit {
            let limit = limit as usize;
            stats.beyond_candidate_limit = count(pool.len().saturating_sub(limit));
            pool.truncate(limit);
        }
        match rc.method {
            RerankMethod::Heuristic => {
                let q = PreparedQuery::new(input.query, rc.heuristic.stopwords.as_deref());
                let fetched = match held {
                    Some(source) => {
                        let docs: Vec<u32> = pool.iter().map(|w| w.doc).collect();
                        let ids: Vec<&str> = pool.iter().map(|w| w.id).collect();
                        let texts = source.texts(&docs, &ids)?;
                        if texts.len() != pool.len() {
                            return Err(ScoreError::new(
                                ErrorCode::Internal,
                                "",
                                "the held texts are not the pool's",
                            ));
                        }
                        Some(texts)
                    }
                    None => None,
                };
                for (i, w) in pool.iter_mut().enumerate() {
                    let text = match &fetched {
                        Some(t) => t.get(i).copied().unwrap_or_default(),
                        None => {
                            let meta = w.meta;
                            CandidateText {
                                name: meta.and_then(|m| m.name).unwrap_or(""),
                                entity_type: meta.and_then(|m| m.entity_type),
                                summary: meta.and_then(|m| m.summary),
                                content: meta.and_then(|m| m.content),
                            }
                        }
                    };
                    let factors = heuristic_factors(&q, text, &rc.heuristic);
                    w.after_rerank = w.after_recency * factors.multiplier;
                    w.rerank = RerankExplain::Heuristic { factors };
                    reranked_finite(w, "rerank.heuristic")?;
                }
            }
            RerankMethod::CrossEncoder => {
                let raw: Vec<f64> = pool
                    .iter()
                    .map(|w| {
                        w.meta.and_then(|m| m.cross_encoder_score).ok_or_else(|| {
                            ScoreError::new(
                                ErrorCode::EmptyInput,
                                format!("items.{}.crossEncoderScore", w.id),
                                "the cross_encoder reranker needs a crossEncoderScore for every candidate",
                            )
                        })
                    })
                    .collect::<Result<_>>()?;
                for ((w, r), n) in pool.iter_mut().zip(&raw).zip(cross_encoder_normalize(&raw)) {
                    w.after_rerank = n;
                    w.rerank = RerankExplain::CrossEncoder {
                        raw: *r,
                        normalized: n,
                    };
                }
            }
            RerankMethod::None => {}
        }
        let tier = &self.config.recency.fiscal_year;
        for w in pool.iter_mut() {
            if let Some(fy) = w.meta.and_then(|m| m.fiscal_year) {
                w.rerank_recency_multiplier = tier.multiplier(fy, rc.recency_boost);
                w.after_rerank *= w.rerank_recency_multiplier;
                reranked_finite(w, "rerank.recencyBoost")?;
            }
        }
        Ok(())
    }

    /// Runs the pipeline on one input.
    pub fn run(&self, input: &PipelineInput) -> Result<PipelineOutput> {
        self.run_ref(&input.as_ref())
    }

    /// Runs the pipeline on a borrowed input (see [`InputRef`]).
    pub fn run_ref(&self, input: &InputRef<'_>) -> Result<PipelineOutput> {
        self.run_parts(input, input.interned.clone(), None)
    }

    /// [`Pipeline::run_ref`] on an input it may take apart: the interned ids and lists
    /// are used as they are instead of copied (the bindings' path).
    pub fn run_owned(&self, mut input: InputRef<'_>) -> Result<PipelineOutput> {
        let interned = input.interned.take();
        self.run_parts(&input, interned, None)
    }

    /// [`Pipeline::run_owned`] on an input whose items carry no texts: the heuristic
    /// reranker asks `texts` for those of the pool's documents (once per call, after the
    /// topK pool and the candidate limit). The output is the one of the same input with
    /// the texts in its items.
    pub fn run_owned_with_texts(
        &self,
        mut input: InputRef<'_>,
        texts: &mut dyn PoolTexts,
    ) -> Result<PipelineOutput> {
        let interned = input.interned.take();
        self.run_parts(&input, interned, Some(texts))
    }

    /// The pipeline on `input`, whose `interned` part (if any) is given apart, owned.
    fn run_parts<'a>(
        &self,
        input: &InputRef<'a>,
        interned: Option<Interned<'a>>,
        held: Option<&mut dyn PoolTexts>,
    ) -> Result<PipelineOutput> {
        let cfg = &self.config;
        // The call's own topN first, as runColumnar checks it.
        let top_n = cfg.top_n_or(input.top_n)?;
        let now = self.validate_input(input)?;

        // 1. Fuse.
        let weights: Vec<f64> = input.lists.iter().map(|l| self.list_weight(l)).collect();
        let (fused, item_docs) = match interned {
            Some(iv) => (
                rrf_pre_interned(iv.ids, iv.docs, &weights, cfg.k)?,
                Some(iv.items),
            ),
            None => {
                let lists: Vec<RankedList<'_, &str>> = input
                    .lists
                    .iter()
                    .zip(&weights)
                    .map(|(l, &weight)| RankedList {
                        ids: &l.ids,
                        weight,
                    })
                    .collect();
                (rrf_interned(&lists, cfg.k)?, None)
            }
        };
        let fusion = &fused.fusion;
        let mut stats = PipelineStats::of_fusion(input.lists.len(), &fusion.stats);

        // 2. Recency at the merge stage. Items are matched to documents through the
        // interner (one hash lookup per item, not a BTreeMap search per candidate).
        let ids = &fused.interner.ids;
        let mut metas: Vec<Option<&ItemRef<'_>>> = vec![None; ids.len()];
        match &item_docs {
            Some(item_docs) => {
                for ((_, meta), &d) in input.items.iter().zip(item_docs) {
                    if let Some(slot) = metas.get_mut(d as usize) {
                        *slot = Some(meta);
                    }
                }
            }
            None => {
                for (id, meta) in &input.items {
                    if let Some(slot) = fused
                        .interner
                        .get(id)
                        .and_then(|d| metas.get_mut(d as usize))
                    {
                        *slot = Some(meta);
                    }
                }
            }
        }
        let mut multipliers = Vec::with_capacity(ids.len());
        for meta in &metas {
            multipliers.push(self.merge_recency(*meta, now)?);
        }

        // 3. The topK pool: the topK best after recency (ties: id ascending), selected
        // without sorting every candidate; only they get a working record.
        let mut keyed: Vec<crate::sort::Keyed> = (0u32..)
            .zip(fusion.scores.iter().zip(&multipliers))
            .map(|(d, (&s, &m))| (descending_key(s * m), d))
            .collect();
        let top_k = cfg.top_k as usize;
        stats.beyond_top_k = count(keyed.len().saturating_sub(top_k));
        crate::sort::top_keyed_then(&mut keyed, top_k, &mut |a, b| crate::fuse::by_id(ids, a, b));
        let n_lists = fused.lists.len();
        let ranks = if cfg.explain {
            let lists: Vec<&[u32]> = fused.lists.iter().map(Vec::as_slice).collect();
            let docs: Vec<u32> = keyed.iter().map(|&(_, d)| d).collect();
            first_ranks(&lists, &docs, ids.len())
        } else {
            Vec::new()
        };
        let mut ranks = ranks.chunks(n_lists.max(1));
        let mut pool: Vec<Work<'_>> = Vec::with_capacity(keyed.len());
        for &(_, doc) in &keyed {
            let d = doc as usize;
            let id = ids.get(d).copied().unwrap_or_default();
            let fused_score = fusion.scores.get(d).copied().unwrap_or(0.0);
            let recency_multiplier = multipliers.get(d).copied().unwrap_or(1.0);
            pool.push(Work {
                id,
                doc,
                meta: metas.get(d).copied().flatten(),
                ranks: ranks.next().map(<[_]>::to_vec).unwrap_or_default(),
                fused: fused_score,
                recency_multiplier,
                after_recency: fused_score * recency_multiplier,
                rerank: RerankExplain::None,
                rerank_recency_multiplier: 1.0,
                after_rerank: 0.0,
                normalized: 0.0,
                calibrated: 0.0,
            });
        }

        // 4. Rerank.
        self.rerank_stage(&mut pool, input, held, &mut stats)?;

        // 5. Normalize, then minRelevance.
        let method = cfg.normalization.method;
        let reranked: Vec<f64> = pool.iter().map(|w| w.after_rerank).collect();
        let normalized = normalize(&reranked, method, cfg.normalization.temperature)
            .map_err(|e| e.within("normalization"))?;
        for (w, n) in pool.iter_mut().zip(normalized) {
            w.normalized = n;
        }
        if method != NormalizeMethod::None {
            let before = pool.len();
            pool.retain(|w| w.normalized >= cfg.normalization.min_relevance);
            stats.below_min_relevance = count(before - pool.len());
        }

        // 6. Calibrate, then minConfidence.
        for w in pool.iter_mut() {
            w.calibrated = cfg.calibration.apply(w.normalized);
        }
        let before = pool.len();
        pool.retain(|w| w.calibrated >= cfg.min_confidence);
        stats.below_min_confidence = count(before - pool.len());

        // 7. Final order and topN.
        pool.stable_sort_by(|a, b| {
            b.calibrated
                .total_cmp(&a.calibrated)
                .then_with(|| b.normalized.total_cmp(&a.normalized))
                .then_with(|| a.id.cmp(b.id))
        });
        stats.beyond_top_n = count(pool.len().saturating_sub(top_n as usize));
        pool.truncate(top_n as usize);

        // 8. Bands and confidence.
        let ctx = input.context.cloned().unwrap_or_default();
        let (floors, profile) = select_floors(cfg.bands.floors(), &cfg.bands.profiles, &ctx);
        stats.band_profile = profile.map(str::to_string);
        let scores: Vec<f64> = pool.iter().map(|w| w.calibrated).collect();
        let mut confidence: QueryConfidence =
            confidence_of_sorted(&scores, &cfg.confidence.options());
        let outcome = match &cfg.confidence.model {
            Some(model) => {
                let views: Vec<ListView<'_, &str>> = input
                    .lists
                    .iter()
                    .map(|l| ListView {
                        ids: &l.ids,
                        scores: l.scores,
                    })
                    .collect();
                model.check_lists(views.len())?;
                // The lists are fused already: the same fusion is reused when the model
                // assumes the pipeline's, else their document indices are fused again
                // with the model's settings (no id is hashed twice).
                let scores = if model.rrf_k == cfg.k && model.weights == weights {
                    fusion.scores.clone()
                } else {
                    let slices: Vec<&[u32]> = fused.lists.iter().map(Vec::as_slice).collect();
                    crate::fuse::rrf_indexed(&slices, &model.weights, model.rrf_k, ids.len())?
                        .scores
                };
                let top = crate::confidence::model::top_k(scores, model.k);
                let p = model
                    .features_with_top(&top, &views)
                    .map(|x| model.predict_features(&x))
                    .map_err(|e| within_model_error(e, "confidence.model"))?;
                confidence.at_least_one_relevant = p;
                cfg.confidence.outcome(p, OutcomeSource::Model)
            }
            None => cfg
                .confidence
                .outcome(confidence.at_least_one_relevant, OutcomeSource::RankOnly),
        };
        let results: Vec<PipelineResult> = pool
            .into_iter()
            .map(|w| {
                let band = floors.band(w.calibrated);
                stats.count_band(band);
                let explain = cfg
                    .explain
                    .then(|| self.explain(&w, input, &weights, band, profile));
                PipelineResult {
                    id: w.id.to_string(),
                    doc: w.doc,
                    score: w.calibrated,
                    band,
                    explain,
                }
            })
            .collect();
        stats.returned = count(results.len());
        let out = PipelineOutput {
            results,
            confidence,
            outcome,
            stats,
        };
        check_contract(&out, top_n)?;
        Ok(out)
    }

    fn explain(
        &self,
        w: &Work<'_>,
        input: &InputRef<'_>,
        weights: &[f64],
        band: Band,
        profile: Option<&str>,
    ) -> Explain {
        let contributions = input
            .lists
            .iter()
            .zip(weights)
            .zip(&w.ranks)
            .filter_map(|((list, &weight), rank)| {
                Some(Contribution::of(
                    list.name,
                    (*rank)?,
                    weight,
                    self.config.k,
                    list.scores,
                ))
            })
            .collect();
        Explain {
            contributions,
            fused: w.fused,
            recency_multiplier: w.recency_multiplier,
            after_recency: w.after_recency,
            rerank: w.rerank.clone(),
            rerank_recency_multiplier: w.rerank_recency_multiplier,
            after_rerank: w.after_rerank,
            normalized: w.normalized,
            calibrated: w.calibrated,
            band,
            band_profile: profile.map(str::to_string),
        }
    }
}
