//! The string API's lean path: a pipeline input the bindings already interned (each
//! distinct id once, the lists as indices, each item's fields by its document), run
//! without building the borrowed [`super::InputRef`] (a `Vec` of ids per
//! list, an item record per item, two passes of checks over both).
//!
//! It covers every input, and every configuration but one with a confidence model:
//! `modifiedAt` and `now` in epoch milliseconds (the bindings read ISO 8601 times into
//! them first), item texts given with the input or held by the caller (the heuristic
//! reranker reads them), fiscal years, cross-encoder scores, a band context.
//! For those it gives exactly what [`Pipeline::run_ref`] gives (a property test compares
//! the two). Anything it does not cover, and any input the checks of `run_ref` would
//! refuse, gives `None`: the caller then runs `run_ref`, which reports the error with its
//! code and field path. The lean path never reports an error itself.

use super::config::{RecencyMode, RerankMethod};
use super::output::{
    check_contract, first_ranks, Contribution, Explain, OutcomeSource, PipelineOutput,
    PipelineResult, PipelineStats, RerankExplain,
};
use super::{count, Pipeline, PoolTexts};
use crate::bands::{select_floors, BandContext};
use crate::confidence::confidence_of_sorted;
use crate::fuse::{descending_key, rrf_indexed};
use crate::normalize::{normalize, NormalizeMethod};
use crate::recency::{age_days, step_multiplier};
use crate::rerank::{cross_encoder_normalize, heuristic_factors, CandidateText, PreparedQuery};
use crate::sort::StableSort;

/// The distinct ids of an [`IndexedInput`] as one text: id `d` is
/// `text[bounds[d]..bounds[d + 1]]` (the string table the bindings receive, read in
/// place; an id is sliced only to break a tie or to name a result).
#[derive(Debug, Clone, Copy, Default)]
pub struct IdTable<'a> {
    /// The ids' UTF-8 text (it may go on with other strings).
    pub text: &'a str,
    /// `len() + 1` bounds, non-decreasing.
    pub bounds: &'a [u32],
}

impl<'a> IdTable<'a> {
    /// The number of ids.
    pub fn len(&self) -> usize {
        self.bounds.len().saturating_sub(1)
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Id `d` (`None`: no such id, or bounds that do not cut the text at characters).
    pub fn get(&self, d: u32) -> Option<&'a str> {
        let d = d as usize;
        let (&a, &b) = (self.bounds.get(d)?, self.bounds.get(d.checked_add(1)?)?);
        self.text.get(a as usize..b as usize)
    }

    /// The length of id `d` in bytes.
    fn byte_len(&self, d: u32) -> Option<usize> {
        let d = d as usize;
        let (&a, &b) = (self.bounds.get(d)?, self.bounds.get(d.checked_add(1)?)?);
        (b as usize).checked_sub(a as usize)
    }

    /// The byte order of ids `a` and `b` (the string API's tie-break, as
    /// [`crate::fuse::by_id`]).
    fn cmp(&self, a: u32, b: u32) -> std::cmp::Ordering {
        self.get(a).cmp(&self.get(b))
    }
}

/// One item of an [`IndexedInput`]: the length of its key in bytes, its fields (times in
/// epoch milliseconds) and its document (`u32::MAX`: in no list).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct IndexedItem<'a> {
    /// The length of the item's key (its id) in bytes.
    pub key_bytes: usize,
    /// Name, type, summary and content (the heuristic reranker's), if given.
    pub texts: [Option<&'a str>; 4],
    /// Fiscal year (fiscal-year recency, and the boost after reranking), if given.
    pub fiscal_year: Option<i32>,
    /// Cross-encoder score (any `f64`: one that is not finite makes the input one the
    /// lean path does not take), if given.
    pub cross_encoder: Option<f64>,
    /// `modifiedAt` in epoch milliseconds, if given (any `f64`: one that is not finite
    /// makes the input one the lean path does not take).
    pub modified_ms: Option<f64>,
    /// The index of its id among [`IndexedInput::ids`], or `u32::MAX`.
    pub doc: u32,
}

/// A pipeline input interned by the caller (see the module documentation). The lists are `lists[i]`, named `names[i]`, with their own weight
/// `weights[i]` if given; `ids` are the distinct ids, in order of first appearance.
#[derive(Debug, Clone, Copy, Default)]
pub struct IndexedInput<'a> {
    /// The query text (only its length is checked).
    pub query: &'a str,
    /// The lists' names.
    pub names: &'a [&'a str],
    /// The lists' own weights.
    pub weights: &'a [Option<f64>],
    /// The lists' own scores, parallel to their ids (empty: none has any).
    pub scores: &'a [Option<&'a [f64]>],
    /// Each list as indices into `ids`, best first.
    pub lists: &'a [&'a [u32]],
    /// The distinct ids.
    pub ids: IdTable<'a>,
    /// The items, in the caller's order.
    pub items: &'a [IndexedItem<'a>],
    /// The current time in epoch milliseconds.
    pub now_ms: Option<f64>,
    /// The call's own `topN`.
    pub top_n: Option<u32>,
    /// The context that selects a band profile.
    pub context: Option<&'a BandContext>,
}

impl Pipeline {
    /// Whether the configuration is one the lean path runs: any without a confidence
    /// model, whose features read the lists' raw scores (see the module documentation).
    /// `#[doc(hidden)]` API.
    #[doc(hidden)]
    pub fn runs_indexed(&self) -> bool {
        self.config.confidence.model.is_none()
    }

    /// The lists' effective weights, or `None` when the lean path does not take them
    /// (a list's own weight refused by the checks of `run_ref`).
    fn indexed_weights(&self, input: &IndexedInput<'_>) -> Option<Vec<f64>> {
        if input.weights.len() != input.names.len() || input.lists.len() != input.names.len() {
            return None;
        }
        let mut out = Vec::with_capacity(input.names.len());
        for (name, w) in input.names.iter().zip(input.weights) {
            match w {
                Some(w) if !(w.is_finite() && *w >= 0.0) => return None,
                Some(w) => out.push(*w),
                None => out.push(self.config.weights.get(*name).copied().unwrap_or(1.0)),
            }
        }
        Some(out)
    }

    /// True when `run_ref` would accept the input as far as its checks go (limits, list
    /// names, ids, items, times); the fusion's own checks come later.
    fn indexed_input_ok(&self, input: &IndexedInput<'_>) -> bool {
        let limits = &self.config.limits;
        let n_lists = input.lists.len();
        if !(input.scores.is_empty() || input.scores.len() == n_lists) {
            return false;
        }
        if limits.check_lists(n_lists, "lists").is_err()
            || limits
                .check_lengths(input.lists.iter().map(|l| l.len()), "lists")
                .is_err()
        {
            return false;
        }
        let entries: usize = input.lists.iter().map(|l| l.len()).sum();
        if limits
            .check_entries(entries.saturating_add(input.items.len()), "items")
            .is_err()
            || input.query.len() > limits.max_text_bytes as usize
        {
            return false;
        }
        let max_id = limits.max_id_bytes as usize;
        // Every string of the input, each list entry's id counted where it occurs (as
        // `run_ref` counts them).
        let mut bytes = input.query.len();
        for (i, (name, list)) in input.names.iter().zip(input.lists).enumerate() {
            if name.len() > max_id || input.names.iter().take(i).any(|n| n == name) {
                return false;
            }
            bytes += name.len();
            if let Some(Some(s)) = input.scores.get(i) {
                if s.len() != list.len() || s.iter().any(|x| !x.is_finite()) {
                    return false;
                }
            }
            for &d in *list {
                match input.ids.byte_len(d) {
                    Some(n) => bytes += n,
                    None => return false,
                }
            }
        }
        // Each id cut at characters and within maxIdBytes.
        let IdTable { text, bounds } = input.ids;
        if bounds.iter().any(|&b| !text.is_char_boundary(b as usize)) {
            return false;
        }
        for pair in bounds.windows(2) {
            let &[a, b] = pair else { return false };
            if b < a || (b - a) as usize > max_id {
                return false;
            }
        }
        let mut any_mtime = false;
        for item in input.items {
            if item.key_bytes > max_id {
                return false;
            }
            bytes += item.key_bytes;
            for t in item.texts.iter().flatten() {
                if t.len() > limits.max_text_bytes as usize {
                    return false;
                }
                bytes += t.len();
            }
            if let Some(m) = item.modified_ms {
                if !m.is_finite() {
                    return false;
                }
                any_mtime = true;
            }
            if item.cross_encoder.is_some_and(|x| !x.is_finite()) {
                return false;
            }
        }
        if bytes > limits.max_total_text_bytes as usize
            || (self.config.rerank.method == RerankMethod::Heuristic
                && crate::rerank::require_query(input.query).is_err())
            || input
                .context
                .is_some_and(|c| super::run::check_context(limits, c).is_err())
        {
            return false;
        }
        match input.now_ms {
            Some(now) => now.is_finite(),
            None => !(any_mtime && self.config.recency.mode == RecencyMode::Step),
        }
    }

    /// Runs the pipeline on an interned input: `Some` with the output
    /// [`Pipeline::run_ref`] gives for the same input, or `None` when the configuration
    /// or the input is one the lean path does not take, or one `run_ref` refuses (see
    /// the module documentation). Used by the bindings; `#[doc(hidden)]` API.
    #[doc(hidden)]
    pub fn run_indexed(&self, input: &IndexedInput<'_>) -> Option<PipelineOutput> {
        self.run_indexed_with_texts(input, None)
    }

    /// [`Pipeline::run_indexed`] on an input whose items' texts are held by `held` (see
    /// [`PoolTexts`]; asked once for the pool's, as [`Pipeline::run_owned_with_texts`]
    /// asks). `None` as `run_indexed` gives it, and when `held` fails (the full path then
    /// reports it). `#[doc(hidden)]` API.
    #[doc(hidden)]
    pub fn run_indexed_with_texts(
        &self,
        input: &IndexedInput<'_>,
        held: Option<&mut dyn PoolTexts>,
    ) -> Option<PipelineOutput> {
        let cfg = &self.config;
        if !self.runs_indexed() {
            return None;
        }
        let top_n = cfg.top_n_or(input.top_n).ok()?;
        if !self.indexed_input_ok(input) {
            return None;
        }
        let ids = input.ids;

        // 1. Fuse.
        let weights = self.indexed_weights(input)?;
        let fusion = rrf_indexed(input.lists, &weights, cfg.k, ids.len()).ok()?;
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

        // 3. The topK pool (ties: id ascending).
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
        let mut reranked: Vec<f64> = keyed
            .iter()
            .map(|&(_, d)| {
                let d = d as usize;
                fusion.scores.get(d).copied().unwrap_or(0.0)
                    * multipliers.get(d).copied().unwrap_or(1.0)
            })
            .collect();

        // 3b. The reranker on the candidates within its limit, then the boost of fiscal
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
                            let pool_ids: Vec<&str> =
                                docs.iter().map(|&d| ids.get(d)).collect::<Option<_>>()?;
                            let texts = source.texts(&docs, &pool_ids).ok()?;
                            if texts.len() != docs.len() {
                                return None;
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
                        if !score.is_finite() {
                            return None;
                        }
                    }
                }
                RerankMethod::CrossEncoder => {
                    // Every candidate needs its score (the full path refuses the input
                    // otherwise).
                    let raw: Vec<f64> = keyed
                        .iter()
                        .map(|&(_, d)| item(d).and_then(|it| it.cross_encoder))
                        .collect::<Option<_>>()?;
                    for ((score, &r), n) in reranked
                        .iter_mut()
                        .zip(&raw)
                        .zip(cross_encoder_normalize(&raw))
                    {
                        *score = n;
                        if cfg.explain {
                            rerank_explain.push(RerankExplain::CrossEncoder {
                                raw: r,
                                normalized: n,
                            });
                        }
                    }
                }
                RerankMethod::None => {}
            }
            for (&(_, d), score) in keyed.iter().zip(reranked.iter_mut()) {
                let tier = item(d)
                    .and_then(|it| it.fiscal_year)
                    .map(|fy| rc.fiscal_year.multiplier(fy, rr.recency_boost));
                if let Some(m) = tier {
                    *score *= m;
                    if !score.is_finite() {
                        return None;
                    }
                }
                if cfg.explain {
                    tier_multipliers.push(tier.unwrap_or(1.0));
                }
            }
        }

        // 4. Normalize, then minRelevance; 5. calibrate, then minConfidence.
        let method = cfg.normalization.method;
        let normalized = normalize(&reranked, method, cfg.normalization.temperature).ok()?;
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

        // 6. Final order and topN.
        pool.stable_sort_by(|a, b| {
            b.2.total_cmp(&a.2)
                .then_with(|| b.1.total_cmp(&a.1))
                .then_with(|| ids.cmp(a.0, b.0))
        });
        stats.beyond_top_n = count(pool.len().saturating_sub(top_n as usize));
        pool.truncate(top_n as usize);

        // 7. Bands and confidence.
        let none = BandContext::default();
        let (floors, profile) = select_floors(
            cfg.bands.floors(),
            &cfg.bands.profiles,
            input.context.unwrap_or(&none),
        );
        stats.band_profile = profile.map(str::to_string);
        let scores: Vec<f64> = pool.iter().map(|p| p.2).collect();
        let confidence = confidence_of_sorted(&scores, &cfg.confidence.options());
        let outcome = cfg
            .confidence
            .outcome(confidence.at_least_one_relevant, OutcomeSource::RankOnly);
        let ranks = if cfg.explain {
            let docs: Vec<u32> = pool.iter().map(|p| p.0).collect();
            first_ranks(input.lists, &docs, ids.len())
        } else {
            Vec::new()
        };
        let mut results = Vec::with_capacity(pool.len());
        for (r, &(doc, normalized, score, at)) in pool.iter().enumerate() {
            let band = floors.band(score);
            stats.count_band(band);
            results.push(PipelineResult {
                id: ids.get(doc)?.to_string(),
                doc,
                score,
                band,
                explain: cfg.explain.then(|| {
                    let d = doc as usize;
                    let fused = fusion.scores.get(d).copied().unwrap_or(0.0);
                    let recency_multiplier = multipliers.get(d).copied().unwrap_or(1.0);
                    let n_lists = input.lists.len();
                    Explain {
                        contributions: (0..n_lists)
                            .filter_map(|li| {
                                Some(Contribution::of(
                                    input.names.get(li)?,
                                    (*ranks.get(r * n_lists + li)?)?,
                                    *weights.get(li)?,
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
                }),
            });
        }
        stats.returned = count(results.len());
        let out = PipelineOutput {
            results,
            confidence,
            outcome,
            stats,
        };
        check_contract(&out, top_n).ok()?;
        Some(out)
    }
}
