//! Stage 1b: fusion of the hits of several queries (multi-query retrieval).
//!
//! For each query, the first `resultsPerQuery` hits are taken in the order given, hits
//! with `score < similarityThreshold` are dropped, and the survivors are ranked 1, 2, ...
//! Each item then gets a combined score by one of three methods:
//!
//! * `rrf`: `sum_q 1 / (k + rank_q)`;
//! * `score_sum`: `sum_q score_q`;
//! * `score_max`: `max_q score_q * (1 + multiQueryBoost * (queryCount - 1))`.
//!
//! Results are sorted by combined score (descending), then timestamp (newest first; an
//! item without timestamp comes after every item with one; an item found with several
//! timestamps takes the newest), then the best rank the item had in any query (so one
//! query's equal scores without timestamps keep its order under every method), then id
//! (ascending), and cut
//! to `limit`. An id repeated within one query keeps its first (best) hit; the repeat is
//! counted in `stats.duplicates` and still takes up a rank (`[a, a, b]` ranks `b` third).
//! Seed 001's loop would let the repeat's score and rank overwrite the first hit's: the
//! first is kept, as `rrf` keeps a list's first rank of an id.

use crate::error::{finite, ErrorCode, Result, ScoreError};
use crate::float;
use crate::fuse::{validate_k, DEFAULT_K};
use crate::pipeline::TimeRef;
use crate::timestamp::Timestamp;
use serde::{Deserialize, Serialize};

/// One hit of one query.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QueryHit {
    /// The item id.
    pub id: String,
    /// Similarity score of the item for this query.
    pub score: f64,
    /// When the item was created or modified (tie-break: newest first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<Timestamp>,
}

/// A [`QueryHit`] borrowed (what [`fuse_multi_query_refs`] reads: the package's bindings
/// hand it slices of one string table instead of a `String` per hit).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QueryHitRef<'a> {
    /// The item id.
    pub id: &'a str,
    /// Similarity score of the item for this query.
    pub score: f64,
    /// When the item was created or modified.
    pub timestamp: Option<TimeRef<'a>>,
}

impl<'a> From<&'a QueryHit> for QueryHitRef<'a> {
    fn from(h: &'a QueryHit) -> Self {
        QueryHitRef {
            id: &h.id,
            score: h.score,
            timestamp: h.timestamp.as_ref().map(TimeRef::from),
        }
    }
}

/// How the per-query scores of one item are combined.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum MultiQueryMethod {
    /// Reciprocal Rank Fusion over the per-query ranks.
    #[default]
    Rrf,
    /// Sum of the similarity scores.
    ScoreSum,
    /// Best similarity score with a bonus per additional query.
    ScoreMax,
}

/// Options of [`fuse_multi_query`]. Defaults are the seed's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct MultiQueryOptions {
    /// Combination method (default `rrf`).
    pub method: MultiQueryMethod,
    /// Hits taken from each query before the threshold filter (default 20, 1..=100000).
    pub results_per_query: u32,
    /// Hits scoring below this are dropped before ranking (default 0.6).
    pub similarity_threshold: f64,
    /// Bonus per additional query for `score_max` (default 0.1, 0..=1).
    pub multi_query_boost: f64,
    /// Results returned (default 10, >= 1).
    pub limit: u32,
    /// RRF constant (default 60, >= 1).
    pub k: f64,
    /// Include per-query scores, ranks and counts in each result (default false).
    pub verbose: bool,
}

impl Default for MultiQueryOptions {
    fn default() -> Self {
        MultiQueryOptions {
            method: MultiQueryMethod::Rrf,
            results_per_query: 20,
            similarity_threshold: 0.6,
            multi_query_boost: 0.1,
            limit: 10,
            k: DEFAULT_K,
            verbose: false,
        }
    }
}

impl MultiQueryOptions {
    /// Checks every option against its documented range.
    pub fn validate(&self) -> Result<()> {
        if !(1..=100_000).contains(&self.results_per_query) {
            return Err(ScoreError::new(
                ErrorCode::InvalidConfig,
                "resultsPerQuery",
                format!(
                    "must be between 1 and 100000, got {}",
                    self.results_per_query
                ),
            ));
        }
        // An option, as `multiQueryBoost` is: not finite, INVALID_CONFIG (NON_FINITE_SCORE
        // is for the hits' scores).
        if !self.similarity_threshold.is_finite() {
            return Err(crate::error::not_finite(
                ErrorCode::InvalidConfig,
                "similarityThreshold".to_string(),
                self.similarity_threshold,
            ));
        }
        if !(0.0..=1.0).contains(&self.multi_query_boost) {
            return Err(ScoreError::new(
                ErrorCode::InvalidConfig,
                "multiQueryBoost",
                format!(
                    "must be between 0 and 1, got {}",
                    crate::error::num(self.multi_query_boost)
                ),
            ));
        }
        if self.limit < 1 {
            return Err(ScoreError::new(
                ErrorCode::InvalidConfig,
                "limit",
                "must be >= 1, got 0",
            ));
        }
        validate_k(self.k, "k")
    }
}

/// One fused item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MultiQueryResult {
    /// The id.
    pub id: String,
    /// Combined score.
    pub score: f64,
    /// Per query index (a decimal string key, `"0"` for the first query), the
    /// similarity score (verbose only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query_scores: Option<std::collections::BTreeMap<String, f64>>,
    /// Per query index, the 1-based rank after filtering (verbose only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query_ranks: Option<std::collections::BTreeMap<String, u32>>,
    /// In how many queries the item appeared (verbose only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub appeared_in_query_count: Option<u32>,
}

/// Summary statistics of a multi-query fusion.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct MultiQueryStats {
    /// Number of queries.
    pub queries: u32,
    /// Distinct items that survived the threshold in at least one query.
    pub unique_items: u32,
    /// Items found by more than one query.
    pub items_in_multiple_queries: u32,
    /// Mean number of queries per item (0 when there are no items).
    pub mean_queries_per_item: f64,
    /// Hits dropped by `similarityThreshold`.
    pub below_threshold: u32,
    /// Hits beyond `resultsPerQuery`, not considered.
    pub beyond_results_per_query: u32,
    /// Repeated ids within a query, ignored.
    pub duplicates: u32,
}

/// Output of [`fuse_multi_query`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MultiQueryOutput {
    /// Fused results, best first, at most `limit`.
    pub results: Vec<MultiQueryResult>,
    /// Summary statistics.
    pub stats: MultiQueryStats,
}

/// RRF: `sum_q 1 / (k + rank_q)`.
fn rrf_score(hits: &[(u32, f64, u32)], k: f64) -> f64 {
    hits.iter()
        .map(|&(_, _, rank)| 1.0 / (k + f64::from(rank)))
        .sum()
}

/// Score sum: `sum_q score_q`.
fn score_sum(hits: &[(u32, f64, u32)]) -> f64 {
    hits.iter().map(|&(_, score, _)| score).sum()
}

/// Score max with bonus: `max_q score_q * (1 + boost * (count - 1))`.
fn score_max(hits: &[(u32, f64, u32)], boost: f64) -> f64 {
    let max = hits
        .iter()
        .map(|&(_, s, _)| s)
        .fold(f64::NEG_INFINITY, float::max);
    let extra = hits.len().saturating_sub(1) as f64;
    max * (1.0 + boost * extra)
}

/// Fuses the hits of several queries (see the module documentation).
pub fn fuse_multi_query(
    queries: &[Vec<QueryHit>],
    opts: &MultiQueryOptions,
) -> Result<MultiQueryOutput> {
    let refs: Vec<Vec<QueryHitRef<'_>>> = queries
        .iter()
        .map(|hits| hits.iter().map(QueryHitRef::from).collect())
        .collect();
    fuse_multi_query_refs(&refs, opts)
}

/// [`fuse_multi_query`] over borrowed hits.
pub fn fuse_multi_query_refs(
    queries: &[Vec<QueryHitRef<'_>>],
    opts: &MultiQueryOptions,
) -> Result<MultiQueryOutput> {
    let (ids, lens, hits) = numbered(queries);
    let id = |d: u32| ids.get(d as usize).copied().unwrap_or("");
    let out = fuse_multi_query_indexed(&lens, &hits, ids.len(), &id, opts)?;
    let verbose = opts.verbose;
    let results = out
        .fused
        .iter()
        .map(|f| {
            let hits = out.hits.get(f.hits.clone()).unwrap_or_default();
            MultiQueryResult {
                id: id(f.doc).to_string(),
                score: f.score,
                // Inserted one by one: `collect` into a map sorts (a std sort per type).
                query_scores: verbose.then(|| {
                    let mut m = std::collections::BTreeMap::new();
                    for &(q, s, _) in hits {
                        m.insert(q.to_string(), s);
                    }
                    m
                }),
                query_ranks: verbose.then(|| {
                    let mut m = std::collections::BTreeMap::new();
                    for &(q, _, r) in hits {
                        m.insert(q.to_string(), r);
                    }
                    m
                }),
                appeared_in_query_count: verbose
                    .then(|| u32::try_from(hits.len()).unwrap_or(u32::MAX)),
            }
        })
        .collect();
    Ok(MultiQueryOutput {
        results,
        stats: out.stats,
    })
}

/// The queries' hits numbered by item, ids in order of first occurrence (as the package's
/// JavaScript numbers them): the distinct ids, each query's length, the hits.
fn numbered<'a>(queries: &[Vec<QueryHitRef<'a>>]) -> (Vec<&'a str>, Vec<u32>, Vec<IndexedHit<'a>>) {
    let (interner, docs) = crate::intern::Interner::of_ids(queries.iter().flatten().map(|h| h.id));
    let lens = queries
        .iter()
        .map(|q| u32::try_from(q.len()).unwrap_or(u32::MAX))
        .collect();
    let hits = queries
        .iter()
        .flatten()
        .zip(docs)
        .map(|(h, doc)| IndexedHit {
            doc,
            score: h.score,
            timestamp: h.timestamp,
        })
        .collect();
    (interner.ids, lens, hits)
}

/// One hit by the index of its item among the call's distinct ids (for callers that
/// number ids themselves, as the package's JavaScript does).
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IndexedHit<'a> {
    /// The item: below the `n_docs` given to [`fuse_multi_query_indexed`].
    pub doc: u32,
    /// Similarity score of the item for this query.
    pub score: f64,
    /// When the item was created or modified.
    pub timestamp: Option<TimeRef<'a>>,
}

/// One fused item of [`fuse_multi_query_indexed`].
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq)]
pub struct FusedIndexed {
    /// The item's index.
    pub doc: u32,
    /// The hit that brought the item in: (query index, position in that query).
    pub first: (u32, u32),
    /// Combined score.
    pub score: f64,
    /// Its hits that counted: a range of [`IndexedMultiQuery::hits`].
    pub hits: std::ops::Range<usize>,
}

/// What [`fuse_multi_query_indexed`] returns.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq)]
pub struct IndexedMultiQuery {
    /// Best first, at most `limit`.
    pub fused: Vec<FusedIndexed>,
    /// Every item's hits that counted, (query index, similarity score, 1-based rank
    /// after filtering), grouped by item, each item's in query order.
    pub hits: Vec<(u32, f64, u32)>,
    /// Summary statistics.
    pub stats: MultiQueryStats,
}

/// An item while the hits are read.
struct Item {
    doc: u32,
    first: (u32, u32),
    timestamp: Option<f64>,
    best_rank: u32,
    count: u32,
}

fn wire_error(what: &str) -> ScoreError {
    ScoreError::new(ErrorCode::Internal, "", format!("multi-query hits: {what}"))
}

/// [`fuse_multi_query_refs`]'s fusion over hits numbered by item: `lens[q]` hits of
/// query `q` after those of the queries before it in `hits`, each `doc` below `n_docs`; `id(doc)`
/// is the item's id, for the ties. No id is hashed: the items are found by index.
/// Errors as [`fuse_multi_query`]'s, and `INDEX_OUT_OF_RANGE` on `queries[q][pos]` for a
/// `doc` not below `n_docs`, `INPUT_TOO_LARGE` on `nDocs` when its tables cannot be
/// allocated; `INTERNAL` when `lens` and `hits` disagree.
#[doc(hidden)]
pub fn fuse_multi_query_indexed<'s>(
    lens: &[u32],
    hits: &[IndexedHit<'_>],
    n_docs: usize,
    id: &dyn Fn(u32) -> &'s str,
    opts: &MultiQueryOptions,
) -> Result<IndexedMultiQuery> {
    opts.validate()?;
    let mut stats = MultiQueryStats {
        queries: u32::try_from(lens.len()).unwrap_or(u32::MAX),
        ..Default::default()
    };
    // Per document: its item (u32::MAX: none yet) and the last query that counted it
    // (a second hit in the same query is a duplicate).
    let mut item_of = crate::fuse::filled(n_docs, u32::MAX)?;
    let mut last_query = crate::fuse::filled(n_docs, u32::MAX)?;
    let mut items: Vec<Item> = Vec::with_capacity(hits.len().min(n_docs));
    // (item, query index, score, rank) of every hit that counted, in query order.
    let mut counted: Vec<(u32, u32, f64, u32)> = Vec::with_capacity(hits.len());
    let mut rest = hits;
    for (qi, &len) in (0u32..).zip(lens) {
        let (query, after) = rest
            .split_at_checked(len as usize)
            .ok_or_else(|| wire_error("the lengths exceed the hits"))?;
        rest = after;
        let mut rank = 0u32;
        for (pos, hit) in query.iter().enumerate() {
            let field = || format!("queries[{qi}][{pos}]");
            finite(hit.score, || format!("{}.score", field()))?;
            // The field's path is made only for an error (this runs for every hit).
            let ts = match hit.timestamp {
                Some(t) => Some(t.to_millis("").map_err(|mut e| {
                    e.field = format!("{}.timestamp", field());
                    e
                })?),
                None => None,
            };
            let d = hit.doc as usize;
            if d >= n_docs {
                return Err(ScoreError::new(
                    ErrorCode::IndexOutOfRange,
                    field(),
                    format!("item index {d} is not below nDocs = {n_docs}"),
                ));
            }
            if pos >= opts.results_per_query as usize {
                stats.beyond_results_per_query += 1;
                continue;
            }
            if hit.score < opts.similarity_threshold {
                stats.below_threshold += 1;
                continue;
            }
            let (Some(last), Some(slot)) = (last_query.get_mut(d), item_of.get_mut(d)) else {
                return Err(wire_error("an item index beyond the items"));
            };
            // Every hit past the threshold takes up a rank, a repeat too (as the seed's
            // `enumerate` over the filtered rows, and as `rrf` ranks a list's repeats);
            // the repeat is then dropped, its id keeping its first hit.
            rank += 1;
            if *last == qi {
                stats.duplicates += 1;
                continue;
            }
            *last = qi;
            if *slot == u32::MAX {
                *slot = u32::try_from(items.len()).unwrap_or(u32::MAX);
                items.push(Item {
                    doc: hit.doc,
                    first: (qi, u32::try_from(pos).unwrap_or(u32::MAX)),
                    timestamp: None,
                    best_rank: rank,
                    count: 0,
                });
            }
            let Some(item) = items.get_mut(*slot as usize) else {
                return Err(wire_error("an item"));
            };
            item.count += 1;
            item.best_rank = item.best_rank.min(rank);
            // The newest timestamp seen for the item wins.
            item.timestamp = match (item.timestamp, ts) {
                (Some(a), Some(b)) => Some(float::max(a, b)),
                (a, b) => a.or(b),
            };
            counted.push((*slot, qi, hit.score, rank));
        }
    }
    if !rest.is_empty() {
        return Err(wire_error("hits beyond the lengths"));
    }
    stats.unique_items = u32::try_from(items.len()).unwrap_or(u32::MAX);
    stats.items_in_multiple_queries =
        u32::try_from(items.iter().filter(|o| o.count > 1).count()).unwrap_or(u32::MAX);
    stats.mean_queries_per_item = if items.is_empty() {
        0.0
    } else {
        counted.len() as f64 / items.len() as f64
    };

    // Each item's hits together, in query order (a counting sort by item).
    let mut starts: Vec<usize> = Vec::with_capacity(items.len() + 1);
    let mut at = 0usize;
    for it in &items {
        starts.push(at);
        at += it.count as usize;
    }
    starts.push(at);
    let mut next = starts.clone();
    let mut grouped = vec![(0u32, 0.0f64, 0u32); counted.len()];
    for &(slot, qi, score, rank) in &counted {
        if let Some(n) = next.get_mut(slot as usize) {
            if let Some(g) = grouped.get_mut(*n) {
                *g = (qi, score, rank);
            }
            *n += 1;
        }
    }
    let range = |i: usize| {
        let a = starts.get(i).copied().unwrap_or(0);
        a..starts.get(i + 1).copied().unwrap_or(a)
    };
    let mut scores = Vec::with_capacity(items.len());
    for (i, it) in items.iter().enumerate() {
        let h = grouped.get(range(i)).unwrap_or_default();
        let s = match opts.method {
            MultiQueryMethod::Rrf => rrf_score(h, opts.k),
            MultiQueryMethod::ScoreSum => score_sum(h),
            MultiQueryMethod::ScoreMax => score_max(h, opts.multi_query_boost),
        };
        if !s.is_finite() {
            return Err(ScoreError::new(
                ErrorCode::NonFiniteScore,
                "queries",
                format!(
                    "the fused score of {} overflows ({}); rescale the similarity scores",
                    crate::error::name(id(it.doc)),
                    crate::error::num(s)
                ),
            ));
        }
        scores.push(s);
    }
    // `+ 0.0`: -0.0 (hits scored -0.0) ties with 0.0, so the tie rules apply.
    let mut keyed: Vec<crate::sort::Keyed> = (0u32..)
        .zip(&scores)
        .map(|(i, s)| (crate::fuse::descending_key(s + 0.0), i))
        .collect();
    crate::sort::sort_keyed_then(&mut keyed, &mut |i, j| {
        match (items.get(i as usize), items.get(j as usize)) {
            (Some(a), Some(b)) => match (a.timestamp, b.timestamp) {
                (Some(x), Some(y)) => y.total_cmp(&x),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            }
            // Then the best rank the item had in any query: a single query's equal
            // scores (without timestamps) keep its order, so every method ranks one
            // query alike (seed 001, "Single Query"); independent of the queries' order,
            // as the id after it.
            .then_with(|| a.best_rank.cmp(&b.best_rank))
            .then_with(|| id(a.doc).cmp(id(b.doc))),
            _ => std::cmp::Ordering::Equal,
        }
    });
    keyed.truncate(opts.limit as usize);
    let fused = keyed
        .iter()
        .filter_map(|&(_, i)| {
            let it = items.get(i as usize)?;
            Some(FusedIndexed {
                doc: it.doc,
                first: it.first,
                score: scores.get(i as usize).copied().unwrap_or(f64::NAN),
                hits: range(i as usize),
            })
        })
        .collect();
    Ok(IndexedMultiQuery {
        fused,
        hits: grouped,
        stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(id: &str, score: f64) -> QueryHit {
        QueryHit {
            id: id.into(),
            score,
            timestamp: None,
        }
    }
    fn opts(method: MultiQueryMethod) -> MultiQueryOptions {
        MultiQueryOptions {
            method,
            verbose: true,
            ..Default::default()
        }
    }
    const METHODS: [MultiQueryMethod; 3] = [
        MultiQueryMethod::Rrf,
        MultiQueryMethod::ScoreSum,
        MultiQueryMethod::ScoreMax,
    ];
    /// The results' ids, best first.
    fn ids(out: &MultiQueryOutput) -> Vec<&str> {
        out.results.iter().map(|r| r.id.as_str()).collect()
    }
    fn score_of(out: &MultiQueryOutput, id: &str) -> f64 {
        out.results.iter().find(|r| r.id == id).unwrap().score
    }

    #[test]
    fn fused_items_name_the_hit_that_brought_them_in() {
        // "b" is below the threshold in query 0 and follows a repeat at position 1 of
        // query 1: it comes in with query 1's position 2, rank 3 (the repeat took rank 2).
        let q0 = [hit("a", 0.9), hit("b", 0.1)];
        let q1 = [hit("c", 0.8), hit("c", 0.7), hit("b", 0.6)];
        let queries: Vec<Vec<QueryHitRef<'_>>> = [&q0[..], &q1[..]]
            .iter()
            .map(|q| q.iter().map(QueryHitRef::from).collect())
            .collect();
        let o = MultiQueryOptions {
            similarity_threshold: 0.5,
            ..opts(MultiQueryMethod::ScoreMax)
        };
        let (ids_of, lens, hits) = numbered(&queries);
        let id = |d: u32| ids_of[d as usize];
        let fused = fuse_multi_query_indexed(&lens, &hits, ids_of.len(), &id, &o).unwrap();
        let stats = &fused.stats;
        let firsts: Vec<(&str, (u32, u32))> =
            fused.fused.iter().map(|f| (id(f.doc), f.first)).collect();
        assert_eq!(firsts, [("a", (0, 0)), ("c", (1, 0)), ("b", (1, 2))]);
        assert_eq!(fused.hits[fused.fused[2].hits.clone()], [(1, 0.6, 3)]);
        assert_eq!((stats.below_threshold, stats.duplicates), (1, 1));
        // The owned output is the same fusion.
        let out = fuse_multi_query_refs(&queries, &o).unwrap();
        assert_eq!(ids(&out), ["a", "c", "b"]);
        assert_eq!(out.results[2].query_ranks.as_ref().unwrap()["1"], 3);
    }

    #[test]
    fn seed_rrf_example() {
        // A: query 1 rank 3 (0.85), query 2 rank 1 (0.92); B: query 1 rank 1 (0.88).
        let q1 = vec![hit("B", 0.88), hit("x", 0.87), hit("A", 0.85)];
        let q2 = vec![hit("A", 0.92)];
        let out = fuse_multi_query(&[q1, q2], &opts(MultiQueryMethod::Rrf)).unwrap();
        let a = score_of(&out, "A");
        assert_eq!(a, 1.0 / 63.0 + 1.0 / 61.0);
        assert!((a - 0.0323).abs() < 5e-5);
        assert!((score_of(&out, "B") - 0.0164).abs() < 5e-5);
        assert_eq!(out.results.first().unwrap().id, "A");
        let ra = out.results.first().unwrap();
        assert_eq!(ra.query_ranks.as_ref().unwrap().get("0"), Some(&3));
        assert_eq!(ra.query_ranks.as_ref().unwrap().get("1"), Some(&1));
        assert_eq!(ra.appeared_in_query_count, Some(2));
    }

    #[test]
    fn seed_score_sum_example() {
        let out = fuse_multi_query(
            &[vec![hit("B", 0.95), hit("A", 0.85)], vec![hit("A", 0.78)]],
            &opts(MultiQueryMethod::ScoreSum),
        )
        .unwrap();
        assert_eq!(score_of(&out, "A"), 0.85 + 0.78);
        assert!((score_of(&out, "A") - 1.63).abs() < 1e-12);
        assert_eq!(score_of(&out, "B"), 0.95);
        assert_eq!(out.results.first().unwrap().id, "A");
    }

    #[test]
    fn seed_score_max_example() {
        let out = fuse_multi_query(
            &[vec![hit("B", 0.95), hit("A", 0.85)], vec![hit("A", 0.78)]],
            &opts(MultiQueryMethod::ScoreMax),
        )
        .unwrap();
        assert!((score_of(&out, "A") - 0.935).abs() < 1e-12);
        assert_eq!(score_of(&out, "B"), 0.95);
        assert_eq!(out.results.first().unwrap().id, "B");
        // The listed unit test: [0.9, 0.8] with boost 0.1 -> 0.99.
        let out = fuse_multi_query(
            &[vec![hit("m", 0.9)], vec![hit("m", 0.8)]],
            &opts(MultiQueryMethod::ScoreMax),
        )
        .unwrap();
        assert!((score_of(&out, "m") - 0.99).abs() < 1e-12);
    }

    #[test]
    fn listed_unit_tests() {
        let o = opts(MultiQueryMethod::Rrf);
        let single = fuse_multi_query(&[vec![hit("m", 0.9)]], &o).unwrap();
        assert_eq!(score_of(&single, "m"), 1.0 / 61.0);
        let two = fuse_multi_query(
            &[
                vec![hit("m", 0.9)],
                vec![hit("a", 0.9), hit("b", 0.9), hit("m", 0.9)],
            ],
            &o,
        )
        .unwrap();
        assert_eq!(score_of(&two, "m"), 1.0 / 61.0 + 1.0 / 63.0);
        let sum = fuse_multi_query(
            &[vec![hit("m", 0.8)], vec![hit("m", 0.7)]],
            &opts(MultiQueryMethod::ScoreSum),
        )
        .unwrap();
        assert!((score_of(&sum, "m") - 1.5).abs() < 1e-12);
    }

    #[test]
    fn single_query_all_methods_rank_by_similarity() {
        let q = vec![hit("a", 0.95), hit("b", 0.9), hit("c", 0.7)];
        for m in METHODS {
            let out = fuse_multi_query(std::slice::from_ref(&q), &opts(m)).unwrap();
            assert_eq!(ids(&out), vec!["a", "b", "c"], "{m:?}");
        }
        // score_max with boost 0 reproduces the single-query scores (regression test).
        let o = MultiQueryOptions {
            method: MultiQueryMethod::ScoreMax,
            multi_query_boost: 0.0,
            ..Default::default()
        };
        let out = fuse_multi_query(&[q], &o).unwrap();
        assert_eq!(
            out.results.iter().map(|r| r.score).collect::<Vec<_>>(),
            vec![0.95, 0.9, 0.7]
        );
    }

    #[test]
    fn single_query_with_equal_scores_ranks_alike_under_every_method() {
        // Equal similarities keep the query's order under every method (RRF by rank;
        // the score methods by the best rank before the id), as the seed's stable sort.
        let q = vec![hit("b", 0.9), hit("a", 0.9), hit("c", 0.8), hit("0", 0.8)];
        for m in METHODS {
            let out = fuse_multi_query(std::slice::from_ref(&q), &opts(m)).unwrap();
            assert_eq!(ids(&out), vec!["b", "a", "c", "0"], "{m:?}");
        }
        // Across queries, equal scores and equal best ranks fall back to the id, whatever
        // the queries' order.
        for qs in [
            vec![vec![hit("y", 0.9)], vec![hit("x", 0.9)]],
            vec![vec![hit("x", 0.9)], vec![hit("y", 0.9)]],
        ] {
            let out = fuse_multi_query(&qs, &opts(MultiQueryMethod::ScoreSum)).unwrap();
            assert_eq!(ids(&out), vec!["x", "y"]);
        }
    }

    #[test]
    fn the_indexed_entry_refuses_what_breaks_its_contract() {
        let hit = |doc, score| IndexedHit {
            doc,
            score,
            timestamp: None,
        };
        let id = |d: u32| ["a", "b"].get(d as usize).copied().unwrap_or("");
        let o = MultiQueryOptions::default();
        let ok = fuse_multi_query_indexed(&[2], &[hit(1, 0.9), hit(0, 0.8)], 2, &id, &o).unwrap();
        assert_eq!(
            ok.fused.iter().map(|f| f.doc).collect::<Vec<_>>(),
            vec![1, 0]
        );
        // An index not below nDocs, even on a hit the threshold would drop.
        let e =
            fuse_multi_query_indexed(&[2], &[hit(0, 0.9), hit(2, 0.1)], 2, &id, &o).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::IndexOutOfRange, "queries[0][1]")
        );
        // Tables that cannot be allocated, and lengths that do not cover the hits.
        let e = fuse_multi_query_indexed(&[0], &[], usize::MAX, &id, &o).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InputTooLarge, "nDocs")
        );
        for lens in [&[3u32][..], &[1]] {
            let e = fuse_multi_query_indexed(lens, &[hit(0, 0.9), hit(1, 0.8)], 2, &id, &o)
                .unwrap_err();
            assert_eq!(e.code, ErrorCode::Internal);
        }
    }

    #[test]
    fn the_seeds_defaults() {
        let d = MultiQueryOptions::default();
        assert_eq!(d.method, MultiQueryMethod::Rrf);
        assert_eq!(d.results_per_query, 20);
        assert_eq!(d.similarity_threshold, 0.6);
        assert_eq!(d.multi_query_boost, 0.1);
        assert_eq!(d.k, 60.0);
        assert!(!d.verbose);
    }

    #[test]
    fn the_threshold_keeps_a_score_equal_to_it() {
        let out = fuse_multi_query(
            &[vec![hit("at", 0.6), hit("below", 0.6 - 1e-12)]],
            &MultiQueryOptions::default(),
        )
        .unwrap();
        assert_eq!(ids(&out), vec!["at"]);
        assert_eq!(out.stats.below_threshold, 1);
    }

    #[test]
    fn results_per_query_cuts_before_the_threshold_filters() {
        // The first two hits are taken, then filtered: "c" (above the threshold, third)
        // is beyond resultsPerQuery, not a candidate.
        let o = MultiQueryOptions {
            results_per_query: 2,
            ..opts(MultiQueryMethod::Rrf)
        };
        let out =
            fuse_multi_query(&[vec![hit("a", 0.9), hit("low", 0.3), hit("c", 0.8)]], &o).unwrap();
        assert_eq!(ids(&out), vec!["a"]);
        assert_eq!(
            (
                out.stats.beyond_results_per_query,
                out.stats.below_threshold
            ),
            (1, 1)
        );
    }

    #[test]
    fn stats_count_every_item_not_only_the_returned_ones() {
        let o = MultiQueryOptions {
            limit: 1,
            ..opts(MultiQueryMethod::Rrf)
        };
        let qs = vec![
            vec![hit("a", 0.9), hit("b", 0.8)],
            vec![hit("a", 0.9), hit("c", 0.8)],
            vec![hit("a", 0.9)],
        ];
        let out = fuse_multi_query(&qs, &o).unwrap();
        assert_eq!(out.results.len(), 1);
        assert_eq!(out.stats.unique_items, 3);
        assert_eq!(out.stats.items_in_multiple_queries, 1);
        assert_eq!(out.stats.mean_queries_per_item, 5.0 / 3.0);
    }

    #[test]
    fn empty_queries_unique_and_shared_items() {
        let o = opts(MultiQueryMethod::Rrf);
        let out = fuse_multi_query(&[vec![], vec![hit("a", 0.9)]], &o).unwrap();
        assert_eq!(out.results.len(), 1);
        let out = fuse_multi_query(&[], &o).unwrap();
        assert!(out.results.is_empty());
        assert_eq!(out.stats.mean_queries_per_item, 0.0);
        let unique = fuse_multi_query(&[vec![hit("a", 0.9)], vec![hit("b", 0.9)]], &o).unwrap();
        assert_eq!(unique.stats.items_in_multiple_queries, 0);
        assert_eq!(unique.stats.mean_queries_per_item, 1.0);
        let all = fuse_multi_query(
            &[
                vec![hit("a", 0.9), hit("b", 0.8)],
                vec![hit("b", 0.9), hit("a", 0.8)],
            ],
            &o,
        )
        .unwrap();
        assert_eq!(all.stats.items_in_multiple_queries, 2);
        assert_eq!(all.stats.unique_items, 2);
        assert_eq!(all.stats.mean_queries_per_item, 2.0);
    }

    #[test]
    fn threshold_filters_before_ranking_and_results_per_query_cuts() {
        let q = vec![hit("low", 0.5), hit("a", 0.7), hit("b", 0.65)];
        let out = fuse_multi_query(&[q], &opts(MultiQueryMethod::Rrf)).unwrap();
        assert_eq!(out.stats.below_threshold, 1);
        assert_eq!(score_of(&out, "a"), 1.0 / 61.0);
        let o = MultiQueryOptions {
            results_per_query: 1,
            ..opts(MultiQueryMethod::Rrf)
        };
        let out = fuse_multi_query(&[vec![hit("a", 0.9), hit("b", 0.9)]], &o).unwrap();
        assert_eq!(out.results.len(), 1);
        assert_eq!(out.stats.beyond_results_per_query, 1);
    }

    #[test]
    fn ties_by_timestamp_newest_first_then_id() {
        let t = |id: &str, ts: Option<&str>| QueryHit {
            id: id.into(),
            score: 0.8,
            timestamp: ts.map(|s| Timestamp::Iso(s.into())),
        };
        let qs = vec![
            vec![t("b", Some("2024-01-01"))],
            vec![t("a", Some("2024-06-01"))],
            vec![t("c", None)],
            vec![t("0", None)],
        ];
        let out = fuse_multi_query(&qs, &opts(MultiQueryMethod::ScoreSum)).unwrap();
        assert_eq!(ids(&out), vec!["a", "b", "0", "c"]);
    }

    #[test]
    fn limit_and_validation() {
        let q: Vec<QueryHit> = (0..30).map(|i| hit(&format!("d{i:02}"), 0.9)).collect();
        let out = fuse_multi_query(
            &[q],
            &MultiQueryOptions {
                results_per_query: 30,
                limit: 5,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(out.results.len(), 5);
        assert!(out.results.first().unwrap().query_scores.is_none());
        let bad = MultiQueryOptions {
            multi_query_boost: 2.0,
            ..Default::default()
        };
        assert_eq!(
            fuse_multi_query(&[], &bad).unwrap_err().field,
            "multiQueryBoost"
        );
        let bad = MultiQueryOptions {
            multi_query_boost: -0.1,
            ..Default::default()
        };
        assert_eq!(
            fuse_multi_query(&[], &bad).unwrap_err().field,
            "multiQueryBoost"
        );
        for t in [f64::NAN, f64::INFINITY] {
            let bad = MultiQueryOptions {
                similarity_threshold: t,
                ..Default::default()
            };
            let e = fuse_multi_query(&[], &bad).unwrap_err();
            assert_eq!(
                (e.code, e.field.as_str(), e.message),
                (
                    ErrorCode::InvalidConfig,
                    "similarityThreshold",
                    format!("must be a finite number, got {}", crate::error::num(t))
                )
            );
        }
        for n in [0, 100_001] {
            let bad = MultiQueryOptions {
                results_per_query: n,
                ..Default::default()
            };
            assert_eq!(
                fuse_multi_query(&[], &bad).unwrap_err().field,
                "resultsPerQuery"
            );
        }
        let most = MultiQueryOptions {
            results_per_query: 100_000,
            ..Default::default()
        };
        assert!(fuse_multi_query(&[], &most).is_ok());
        let e = fuse_multi_query(&[vec![hit("a", f64::NAN)]], &MultiQueryOptions::default())
            .unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::NonFiniteScore, "queries[0][0].score")
        );
        let e = fuse_multi_query(
            &[],
            &MultiQueryOptions {
                k: 0.0,
                ..Default::default()
            },
        )
        .unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidK);
    }

    #[test]
    fn duplicate_within_query_keeps_first() {
        let out = fuse_multi_query(
            &[vec![hit("a", 0.9), hit("a", 0.95), hit("b", 0.8)]],
            &opts(MultiQueryMethod::ScoreSum),
        )
        .unwrap();
        assert_eq!(score_of(&out, "a"), 0.9);
        assert_eq!(out.stats.duplicates, 1);
        // The repeat takes up rank 2 (as the seed numbers every kept row, and as `rrf`
        // ranks a list's repeats): b is third.
        assert_eq!(
            out.results
                .iter()
                .find(|r| r.id == "b")
                .unwrap()
                .query_ranks
                .as_ref()
                .unwrap()
                .get("0"),
            Some(&3)
        );
    }

    #[test]
    fn an_item_takes_its_newest_timestamp_across_queries() {
        let t = |id: &str, ts: &str| QueryHit {
            id: id.into(),
            score: 0.9,
            timestamp: Some(Timestamp::Iso(ts.into())),
        };
        // score_max without boost: a = max(0.9, 0.9) * (1 + 0 * 1) = 0.9 = b's score.
        // a's timestamps: January (query 0) and June (query 1); b's: March.
        let qs = vec![
            vec![t("a", "2024-01-01"), t("b", "2024-03-01")],
            vec![t("a", "2024-06-01")],
        ];
        let o = MultiQueryOptions {
            method: MultiQueryMethod::ScoreMax,
            multi_query_boost: 0.0,
            ..Default::default()
        };
        let out = fuse_multi_query(&qs, &o).unwrap();
        assert_eq!(out.results[0].score, out.results[1].score);
        // Newest first: a (June) before b (March); with a's oldest (January) b would lead.
        assert_eq!(ids(&out), vec!["a", "b"]);
    }
}
