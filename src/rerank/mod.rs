//! Stage 3: reranking.
//!
//! **Heuristic multiplicative reranker.** Each candidate's score is multiplied by
//! `exact * nameTerms * summaryTerms * shortContent * entityType` (in that order):
//!
//! * `exact` = 3.0 when the lowercased name equals the lowercased, trimmed query;
//! * `nameTerms` = `1 + hits / terms * 1.5`, `hits` = query terms contained in the
//!   lowercased name (1.0 when there are no hits or no terms);
//! * `summaryTerms` = `1 + hits / terms * 0.5` over the summary;
//! * `shortContent` = 0.5 when content is present, non-empty and shorter than 50
//!   characters, counted as JavaScript's `length` counts them (UTF-16 code units: an
//!   emoji counts 2), as the seed's TypeScript did; missing or empty content is not
//!   penalized;
//! * `entityType` from the type table (class 1.3, function 1.2, method 1.2,
//!   interface 1.1, type 1.1, document 1.2, section 1.1, file 0.7, module 0.8), 1.0 for
//!   unknown or missing types. Every factor is configurable.
//!
//! **Query terms** ([`extract_terms`], in `terms.rs`): camelCase words split
//! (`GraphTraversal` -> `graph traversal`, `HTTPServer` -> `http server`), then every
//! non-alphanumeric character (snake_case, kebab-case), lowercased (Unicode); terms of
//! one character and the built-in English [`STOPWORDS`] dropped; de-duplicated keeping
//! the first occurrence.
//!
//! **Cross-encoder scores.** External scores of the first `candidateLimit` candidates
//! are min-max normalized per query (`(s - min) / (max - min)`; when all are equal every
//! candidate gets 1.0), then multiplied by the fiscal-year tier boost
//! `1 + rerankRecencyBoost * tier`.

mod lowercase;
mod matcher;
mod terms;

use crate::error::{finite, ErrorCode, Result, ScoreError};
use crate::recency::FiscalYearTier;
pub use lowercase::to_lowercase;
use matcher::TermMatcher;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
pub use terms::{extract_terms, STOPWORDS};

/// Configuration of the heuristic reranker; defaults are seed 003's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct HeuristicConfig {
    /// Multiplier for an exact (case-insensitive) name match (default 3.0).
    pub exact_name_multiplier: f64,
    /// Weight of the name-term hit fraction (default 1.5).
    pub name_term_weight: f64,
    /// Weight of the summary-term hit fraction (default 0.5).
    pub summary_term_weight: f64,
    /// Content shorter than this `length` (UTF-16 code units, as JavaScript counts) is
    /// penalized (default 50).
    pub short_content_chars: u32,
    /// Multiplier for short content (default 0.5).
    pub short_content_multiplier: f64,
    /// Multiplier per entity type, keyed by the type in lowercase (the candidate's type is
    /// lowercased before the lookup; a key with an uppercase letter is refused).
    pub type_multipliers: BTreeMap<String, f64>,
    /// Multiplier for unknown or missing types (default 1.0).
    pub unknown_type_multiplier: f64,
    /// Stopwords; `None` uses [`STOPWORDS`].
    pub stopwords: Option<Vec<String>>,
}

/// `map.insert(key, value)` out of line: the one copy of `BTreeMap<String, f64>`'s insert
/// a wasm module needs for its maps of numbers (these defaults, and a configuration's
/// `weights` and `typeMultipliers` read by `calibrank_pipeline.wasm`), where LLVM would
/// otherwise inline a 3 KB copy into one caller.
#[doc(hidden)]
#[inline(never)]
pub fn insert_number(map: &mut BTreeMap<String, f64>, key: String, value: f64) {
    map.insert(key, value);
}

impl Default for HeuristicConfig {
    fn default() -> Self {
        let types = [
            ("class", 1.3),
            ("function", 1.2),
            ("method", 1.2),
            ("interface", 1.1),
            ("type", 1.1),
            ("document", 1.2),
            ("section", 1.1),
            ("file", 0.7),
            ("module", 0.8),
        ];
        // Inserted one by one: `collect` sorts its input first (a stable sort of this
        // type of its own in the wasm core module) and builds the tree in bulk.
        let mut type_multipliers = BTreeMap::new();
        for (k, v) in types {
            insert_number(&mut type_multipliers, k.to_string(), v);
        }
        HeuristicConfig {
            exact_name_multiplier: 3.0,
            name_term_weight: 1.5,
            summary_term_weight: 0.5,
            short_content_chars: 50,
            short_content_multiplier: 0.5,
            type_multipliers,
            unknown_type_multiplier: 1.0,
            stopwords: None,
        }
    }
}

fn non_negative(v: f64, field: &str) -> Result<()> {
    if v.is_finite() && v >= 0.0 {
        Ok(())
    } else {
        Err(ScoreError::new(
            ErrorCode::InvalidConfig,
            field,
            format!("must be a finite number >= 0, got {}", crate::error::num(v)),
        ))
    }
}

impl HeuristicConfig {
    /// Every factor finite and >= 0.
    pub fn validate(&self) -> Result<()> {
        non_negative(self.exact_name_multiplier, "exactNameMultiplier")?;
        non_negative(self.name_term_weight, "nameTermWeight")?;
        non_negative(self.summary_term_weight, "summaryTermWeight")?;
        non_negative(self.short_content_multiplier, "shortContentMultiplier")?;
        non_negative(self.unknown_type_multiplier, "unknownTypeMultiplier")?;
        for (k, v) in &self.type_multipliers {
            non_negative(*v, &crate::error::key_path("typeMultipliers", k))?;
            // The candidate's type is lowercased before the lookup: a key that is not in
            // lowercase would never match (it was ignored, silently).
            if to_lowercase(k) != *k {
                return Err(ScoreError::new(
                    ErrorCode::InvalidConfig,
                    crate::error::key_path("typeMultipliers", k),
                    format!(
                        "type keys are matched against the candidate's type lowercased: write {}",
                        crate::error::name(&to_lowercase(k))
                    ),
                ));
            }
        }
        // Query terms are lowercased before they meet the stopwords: a stopword that is
        // not in lowercase would never match (it was ignored, silently), as a type key.
        for (i, w) in self.stopwords.iter().flatten().enumerate() {
            if to_lowercase(w) != *w {
                return Err(ScoreError::new(
                    ErrorCode::InvalidConfig,
                    format!("stopwords[{i}]"),
                    format!(
                        "stopwords are matched against the query's terms lowercased: write {}",
                        crate::error::name(&to_lowercase(w))
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// A candidate for the heuristic reranker (`Default`: empty id and name, score 0).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Candidate {
    /// Id.
    pub id: String,
    /// Score before reranking (finite, >= 0).
    pub score: f64,
    /// Name of the entity.
    pub name: String,
    /// Entity type (`class`, `function`, `file`, ...).
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub entity_type: Option<String>,
    /// Summary text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Content text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
}

/// The factors applied to one candidate; `multiplier` is their product.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HeuristicFactors {
    /// Exact name match factor.
    pub exact_name: f64,
    /// Name-term factor.
    pub name_terms: f64,
    /// Summary-term factor.
    pub summary_terms: f64,
    /// Short-content factor.
    pub short_content: f64,
    /// Entity-type factor.
    pub entity_type: f64,
    /// Product of the above.
    pub multiplier: f64,
}

/// Text fields of a candidate, borrowed.
#[derive(Debug, Clone, Copy, Default)]
pub struct CandidateText<'a> {
    /// Name.
    pub name: &'a str,
    /// Entity type.
    pub entity_type: Option<&'a str>,
    /// Summary.
    pub summary: Option<&'a str>,
    /// Content.
    pub content: Option<&'a str>,
}

/// A prepared query: its lowercased text, its terms, and a matcher that counts the
/// terms in a text in one pass over the text (built once, used for every candidate).
///
/// Build it with [`PreparedQuery::new`]. The fields are public for reading: the matcher
/// is built from `terms` by `new`, so a query whose terms are to change is prepared
/// again rather than edited in place ([`heuristic_factors`] notices a change in the
/// number of terms and matches the new ones, at the cost of a matcher per call, but not
/// a term replaced in place). The matcher keeps per-text scratch state in `Cell`s: a
/// `PreparedQuery` can be sent to another thread, not shared between threads.
#[derive(Clone)]
pub struct PreparedQuery {
    /// The trimmed, lowercased query.
    pub lower: String,
    /// Its terms (see [`extract_terms`]).
    pub terms: Vec<String>,
    /// Counts the terms contained in a text.
    matcher: TermMatcher,
}

impl PreparedQuery {
    /// Prepares `query` with the given stopwords (`None`: the built-in list), in time
    /// linear in the length of the query (and of the stopword list).
    pub fn new(query: &str, stopwords: Option<&[String]>) -> Self {
        let terms = extract_terms(query, stopwords);
        PreparedQuery {
            lower: to_lowercase(query.trim()),
            matcher: TermMatcher::new(&terms),
            terms,
        }
    }
}

// The matcher is a function of `terms`: equality and the debug view leave it out.
impl PartialEq for PreparedQuery {
    fn eq(&self, other: &Self) -> bool {
        self.lower == other.lower && self.terms == other.terms
    }
}

impl std::fmt::Debug for PreparedQuery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreparedQuery")
            .field("lower", &self.lower)
            .field("terms", &self.terms)
            .finish_non_exhaustive()
    }
}

/// Whether `text` is shorter than `limit` UTF-16 code units (JavaScript's `length`),
/// without counting a text that is surely long: a character takes 1 to 4 UTF-8 bytes
/// and 1 or 2 code units, so there are at least `bytes / 3` units and at most `bytes`.
fn is_short(text: &str, limit: u32) -> bool {
    let limit = limit as usize;
    if text.len() < limit {
        return true;
    }
    if text.len() / 3 >= limit {
        return false;
    }
    text.chars().map(char::len_utf16).sum::<usize>() < limit
}

/// How many of `terms` occur in `text` once lowercased (a matcher built for the call).
#[cfg(test)]
fn term_hits(text: &str, terms: &[String]) -> usize {
    TermMatcher::new(terms).hits(text)
}

/// `1 + hits / terms * weight` when there is at least one hit, else 1.
fn term_factor(text: Option<&str>, matcher: &TermMatcher, terms: usize, weight: f64) -> f64 {
    let Some(text) = text else { return 1.0 };
    if terms == 0 {
        return 1.0;
    }
    let hits = matcher.hits(text);
    if hits == 0 {
        1.0
    } else {
        1.0 + (hits as f64 / terms as f64) * weight
    }
}

/// The multiplicative factors for one candidate.
pub fn heuristic_factors(
    query: &PreparedQuery,
    c: CandidateText<'_>,
    cfg: &HeuristicConfig,
) -> HeuristicFactors {
    // An ASCII name's lowercase is byte-wise: compared without a lowercased copy.
    let name_is_query = if c.name.is_ascii() {
        c.name.len() == query.lower.len()
            && c.name
                .bytes()
                .zip(query.lower.bytes())
                .all(|(a, b)| a.to_ascii_lowercase() == b)
    } else {
        to_lowercase(c.name) == query.lower
    };
    let exact_name = if !query.lower.is_empty() && name_is_query {
        cfg.exact_name_multiplier
    } else {
        1.0
    };
    // The matcher of the query's terms; prepared again if they were edited after `new`.
    let rebuilt;
    let matcher = if query.matcher.term_count() == query.terms.len() {
        &query.matcher
    } else {
        rebuilt = TermMatcher::new(&query.terms);
        &rebuilt
    };
    let terms = query.terms.len();
    let name_terms = term_factor(Some(c.name), matcher, terms, cfg.name_term_weight);
    let summary_terms = term_factor(c.summary, matcher, terms, cfg.summary_term_weight);
    let short_content = match c.content {
        Some(text) if !text.is_empty() && is_short(text, cfg.short_content_chars) => {
            cfg.short_content_multiplier
        }
        _ => 1.0,
    };
    // A type already in lowercase ASCII is looked up as it is (no lowercased copy).
    let entity_type = c
        .entity_type
        .and_then(|t| {
            if t.bytes().all(|b| b.is_ascii() && !b.is_ascii_uppercase()) {
                cfg.type_multipliers.get(t).copied()
            } else {
                cfg.type_multipliers.get(&to_lowercase(t)).copied()
            }
        })
        .unwrap_or(cfg.unknown_type_multiplier);
    let multiplier = exact_name * name_terms * summary_terms * short_content * entity_type;
    HeuristicFactors {
        exact_name,
        name_terms,
        summary_terms,
        short_content,
        entity_type,
        multiplier,
    }
}

/// One reranked candidate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Reranked {
    /// Id.
    pub id: String,
    /// Score before reranking.
    pub original_score: f64,
    /// Score after reranking.
    pub reranked_score: f64,
    /// The factors applied.
    pub factors: HeuristicFactors,
}

/// The heuristic reranker's query must hold more than whitespace (without one every
/// factor would be 1): `EMPTY_QUERY` on `query`, for `rerank` and the pipeline alike.
pub fn require_query(query: &str) -> Result<()> {
    if query.trim().is_empty() {
        return Err(ScoreError::new(
            ErrorCode::EmptyQuery,
            "query",
            "the heuristic reranker needs a non-empty query",
        ));
    }
    Ok(())
}

/// A candidate's id, score and texts, borrowed (what [`rerank_candidates`] reads: the
/// package's bindings hand it slices of one string table instead of owned
/// [`Candidate`]s).
#[derive(Debug, Clone, Copy)]
pub struct CandidateRef<'a> {
    /// Id.
    pub id: &'a str,
    /// Score before reranking (finite, >= 0).
    pub score: f64,
    /// Name, type, summary and content.
    pub text: CandidateText<'a>,
}

impl<'a> From<&'a Candidate> for CandidateRef<'a> {
    fn from(c: &'a Candidate) -> Self {
        CandidateRef {
            id: &c.id,
            score: c.score,
            text: CandidateText {
                name: &c.name,
                entity_type: c.entity_type.as_deref(),
                summary: c.summary.as_deref(),
                content: c.content.as_deref(),
            },
        }
    }
}

/// One reranked candidate of [`rerank_candidates`]: its index in the input.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RerankedAt {
    /// Index of the candidate in the input.
    pub index: u32,
    /// Score after reranking.
    pub reranked_score: f64,
    /// The factors applied.
    pub factors: HeuristicFactors,
}

/// Reranks candidates with the heuristic reranker; highest reranked score first, ties
/// by id ascending. Errors on non-finite or negative scores and on duplicate ids.
pub fn rerank_heuristic(
    query: &str,
    candidates: &[Candidate],
    cfg: &HeuristicConfig,
) -> Result<Vec<Reranked>> {
    let refs: Vec<CandidateRef<'_>> = candidates.iter().map(CandidateRef::from).collect();
    let order = rerank_candidates(query, &refs, cfg)?;
    Ok(order
        .into_iter()
        .filter_map(|r| {
            candidates.get(r.index as usize).map(|c| Reranked {
                id: c.id.clone(),
                original_score: c.score,
                reranked_score: r.reranked_score,
                factors: r.factors,
            })
        })
        .collect())
}

/// The first candidate whose id an earlier candidate has: the ids interned (numbered at
/// first appearance), a repeat being the first id not given the next number. The
/// interner compares ids' bytes only where their hashes are equal, and ids made to hash
/// alike cost it O(n log n) ([`crate::intern`]); a B-tree set used here before compared
/// bytes at every step, slow on ids sharing a long prefix.
fn first_repeat(candidates: &[CandidateRef<'_>]) -> Option<usize> {
    let (_, docs) = crate::intern::Interner::of_ids(candidates.iter().map(|c| c.id));
    let mut next = 0u32;
    docs.iter().position(|&d| {
        let repeat = d != next;
        next += u32::from(!repeat);
        repeat
    })
}

/// [`rerank_heuristic`] over borrowed candidates, naming each result by its index.
pub fn rerank_candidates(
    query: &str,
    candidates: &[CandidateRef<'_>],
    cfg: &HeuristicConfig,
) -> Result<Vec<RerankedAt>> {
    cfg.validate()?;
    require_query(query)?;
    let repeat = first_repeat(candidates);
    for (i, c) in candidates.iter().enumerate() {
        finite(c.score, || format!("candidates[{i}].score"))?;
        if c.score < 0.0 {
            return Err(ScoreError::new(
                ErrorCode::NegativeValue,
                format!("candidates[{i}].score"),
                format!("scores must be >= 0, got {}", crate::error::num(c.score)),
            ));
        }
        if repeat == Some(i) {
            return Err(ScoreError::new(
                ErrorCode::DuplicateId,
                format!("candidates[{i}].id"),
                format!("id {} appears twice", crate::error::name(c.id)),
            ));
        }
    }
    let q = PreparedQuery::new(query, cfg.stopwords.as_deref());
    let out: Vec<RerankedAt> = (0u32..)
        .zip(candidates)
        .map(|(index, c)| {
            let factors = heuristic_factors(&q, c.text, cfg);
            RerankedAt {
                index,
                reranked_score: c.score * factors.multiplier,
                factors,
            }
        })
        .collect();
    // Factors near f64::MAX overflow the product (infinity, or NaN against a zero
    // factor): an error, never a non-finite score (found by fuzzing).
    if let Some((i, r)) = out
        .iter()
        .enumerate()
        .find(|(_, r)| !(r.reranked_score.is_finite() && r.factors.multiplier.is_finite()))
    {
        // Multipliers that overflow alone are the options' doing (a pipeline names its
        // `rerank.heuristic` alike); a finite one that a huge score carries past f64::MAX
        // is the candidate's.
        let field = if r.factors.multiplier.is_finite() {
            format!("candidates[{i}].score")
        } else {
            "options".to_string()
        };
        return Err(ScoreError::new(
            ErrorCode::NonFiniteScore,
            field,
            format!(
                "the reranked score overflows ({}); the reranker's multipliers are too large",
                crate::error::num(r.reranked_score)
            ),
        ));
    }
    // `+ 0.0` makes -0.0 (a candidate scored -0.0) tie with 0.0, so ties go by id as
    // documented (found by fuzzing).
    let mut keyed: Vec<crate::sort::Keyed> = out
        .iter()
        .map(|r| (crate::fuse::descending_key(r.reranked_score + 0.0), r.index))
        .collect();
    let ids: Vec<&str> = candidates.iter().map(|c| c.id).collect();
    crate::sort::sort_keyed_then(&mut keyed, &mut |a, b| crate::fuse::by_id(&ids, a, b));
    Ok(keyed
        .iter()
        .filter_map(|&(_, i)| out.get(i as usize).copied())
        .collect())
}

/// Min-max normalization of cross-encoder scores; all equal (or a single score) -> 1.0.
pub fn cross_encoder_normalize(scores: &[f64]) -> Vec<f64> {
    // The same min-max as the normalize stage (which also survives an overflowing range).
    crate::normalize::min_max(scores)
}

/// Cross-encoder rerank of one query's candidates: normalize, then apply the rerank
/// recency boost of each candidate's fiscal year (if any). Returns the final scores in
/// input order.
pub fn cross_encoder_scores(
    scores: &[f64],
    fiscal_years: &[Option<i32>],
    tier: &FiscalYearTier,
    boost: f64,
) -> Result<Vec<f64>> {
    if scores.len() != fiscal_years.len() {
        return Err(ScoreError::new(
            ErrorCode::LengthMismatch,
            "fiscalYears",
            format!(
                "fiscal years: {}, scores: {} (one fiscal year per score)",
                fiscal_years.len(),
                scores.len()
            ),
        ));
    }
    crate::error::all_finite(scores, "scores")?;
    crate::recency::validate_boost(boost, "boost")?;
    Ok(cross_encoder_normalize(scores)
        .into_iter()
        .zip(fiscal_years)
        .map(|(s, fy)| fy.map_or(s, |y| s * tier.multiplier(y, boost)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rerank_candidates_names_the_results_of_rerank_heuristic_by_index() {
        let c = |id: &str, score: f64, name: &str, summary: Option<&str>| Candidate {
            id: id.into(),
            score,
            name: name.into(),
            entity_type: Some("class".into()),
            summary: summary.map(String::from),
            content: None,
        };
        // Ties (b and c score alike) go by id; -0 ties with 0.
        let cands = vec![
            c("c", 0.5, "graph", None),
            c("a", 0.2, "GraphTraversal", Some("walks a graph")),
            c("b", 0.5, "graph", None),
            c("z", -0.0, "other", None),
            c("y", 0.0, "other", None),
        ];
        let cfg = HeuristicConfig::default();
        let owned = rerank_heuristic("GraphTraversal", &cands, &cfg).unwrap();
        let refs: Vec<CandidateRef<'_>> = cands.iter().map(CandidateRef::from).collect();
        let at = rerank_candidates("GraphTraversal", &refs, &cfg).unwrap();
        let ids: Vec<&str> = at
            .iter()
            .map(|r| cands[r.index as usize].id.as_str())
            .collect();
        assert_eq!(ids, ["a", "b", "c", "y", "z"]);
        for (o, r) in owned.iter().zip(&at) {
            assert_eq!(o.id, cands[r.index as usize].id);
            assert_eq!(o.reranked_score.to_bits(), r.reranked_score.to_bits());
            assert_eq!(o.factors, r.factors);
        }
        // a: exact name 3, both terms in the name (1 + 2/2 * 1.5), one in the summary
        // (1 + 1/2 * 0.5), class 1.3.
        assert_eq!(at[0].reranked_score, 0.2 * (3.0 * 2.5 * 1.25 * 1.3));
    }

    #[test]
    fn term_hits_counts_as_str_contains() {
        let naive = |text: &str, terms: &[String]| {
            terms
                .iter()
                .filter(|t| text.to_lowercase().contains(t.as_str()))
                .count()
        };
        let texts = [
            "",
            "graph traversal of the graph",
            "aaab",
            "über straße école",
            "xx",
            "ab",
            "configure authentication token cache",
            "GraphQL Router",
            "ÜBER Straße",
            "AaAb",
        ];
        let term_sets: Vec<Vec<String>> = vec![
            vec![],
            vec!["graph".into(), "traversal".into(), "zz".into()],
            vec!["aab".into(), "ab".into(), "aaab".into(), "aaaab".into()],
            vec![
                "straße".into(),
                "über".into(),
                "ße".into(),
                "é".into(),
                "cole".into(),
            ],
            vec![
                "token".into(),
                "cache".into(),
                "authentication".into(),
                "configure".into(),
                "the".into(),
            ],
            (0..64).map(|i| format!("t{i}")).collect(),
            (0..70).map(|i| format!("x{i}")).collect(),
            vec![String::new(), "ab".into()],
        ];
        for text in texts {
            for terms in &term_sets {
                assert_eq!(
                    term_hits(text, terms),
                    naive(text, terms),
                    "{text:?} {terms:?}"
                );
            }
        }
    }

    /// Deterministic xorshift64 for the randomized equivalence tests (in `matcher`'s
    /// and `terms`' tests).
    pub(super) struct Rng(pub(super) u64);

    impl Rng {
        pub(super) fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        pub(super) fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }

        pub(super) fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
            from[self.below(from.len())]
        }

        /// Up to `max` pieces drawn from `from`, concatenated.
        pub(super) fn string(&mut self, from: &[&str], max: usize) -> String {
            let n = self.below(max + 1);
            (0..n).map(|_| self.pick(from)).collect()
        }
    }

    #[test]
    fn edited_terms_are_matched_again() {
        let cfg = HeuristicConfig::default();
        let mut q = PreparedQuery::new("graph traversal", None);
        q.terms.push("edges".into());
        let f = heuristic_factors(
            &q,
            CandidateText {
                summary: Some("stores graph edges"),
                ..Default::default()
            },
            &cfg,
        );
        assert_eq!(f.summary_terms, 1.0 + (2.0 / 3.0) * 0.5);
        let fresh = PreparedQuery::new("graph traversal", None);
        assert_eq!(
            fresh,
            PreparedQuery::new("  Graph traversal ", None).clone()
        );
        assert!(format!("{fresh:?}").contains("traversal"));
    }

    fn cand(
        id: &str,
        score: f64,
        name: &str,
        ty: Option<&str>,
        summary: Option<&str>,
        content: Option<&str>,
    ) -> Candidate {
        Candidate {
            id: id.into(),
            score,
            name: name.into(),
            entity_type: ty.map(Into::into),
            summary: summary.map(Into::into),
            content: content.map(Into::into),
        }
    }

    #[test]
    fn seed_003_graph_traversal_example() {
        let cfg = HeuristicConfig::default();
        let cands = vec![
            cand("gt", 0.016, "GraphTraversal", Some("class"), None, None),
            cand(
                "rs",
                0.016,
                "RelationshipStore",
                Some("class"),
                Some("stores graph edges"),
                None,
            ),
            cand(
                "tf",
                0.016,
                "traversal.ts",
                Some("file"),
                None,
                Some("export {}"),
            ),
        ];
        let out = rerank_heuristic("GraphTraversal", &cands, &cfg).unwrap();
        let gt = &out[0];
        assert_eq!(gt.id, "gt");
        // exact 3.0 * name terms (2/2 hits) 2.5 * class 1.3
        assert_eq!(gt.factors.exact_name, 3.0);
        assert_eq!(gt.factors.name_terms, 2.5);
        assert_eq!(gt.factors.entity_type, 1.3);
        assert!((gt.factors.multiplier - 9.75).abs() < 1e-12);
        assert!((gt.reranked_score - 0.016 * 9.75).abs() < 1e-15);
        let rs = out.iter().find(|r| r.id == "rs").unwrap();
        // summary hit 1/2 -> 1.25, class 1.3
        assert!((rs.factors.multiplier - 1.25 * 1.3).abs() < 1e-12);
        let tf = out.iter().find(|r| r.id == "tf").unwrap();
        // name hit 1/2 -> 1.75, short content 0.5, file 0.7
        assert!((tf.factors.multiplier - 1.75 * 0.5 * 0.7).abs() < 1e-12);
        assert_eq!(
            out.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
            vec!["gt", "rs", "tf"]
        );
    }

    #[test]
    fn content_and_type_rules() {
        let cfg = HeuristicConfig::default();
        let q = PreparedQuery::new("zzz", None);
        let f = |content: Option<&str>, ty: Option<&str>| {
            heuristic_factors(
                &q,
                CandidateText {
                    name: "n",
                    entity_type: ty,
                    summary: None,
                    content,
                },
                &cfg,
            )
        };
        assert_eq!(f(Some(""), None).short_content, 1.0);
        assert_eq!(f(None, None).short_content, 1.0);
        assert_eq!(f(Some(&"x".repeat(49)), None).short_content, 0.5);
        assert_eq!(f(Some(&"é".repeat(50)), None).short_content, 1.0);
        assert_eq!(f(Some(&"é".repeat(49)), None).short_content, 0.5);
        // Counted as JavaScript's `length` (the seed's `content.length < 50`): an emoji
        // is two UTF-16 code units, so 25 are 50 units and not short, 24 are 48.
        assert_eq!(f(Some(&"😀".repeat(25)), None).short_content, 1.0);
        assert_eq!(f(Some(&"😀".repeat(24)), None).short_content, 0.5);
        assert_eq!(f(Some(&"ह".repeat(49)), None).short_content, 0.5);
        assert_eq!(f(Some(&"ह".repeat(50)), None).short_content, 1.0);
        assert_eq!(f(None, Some("Module")).entity_type, 0.8);
        // Lowercase ASCII (looked up as given), any case, and a non-ASCII type whose
        // lowercase is a key ("İ" lowercases to "i̇", which is none).
        assert_eq!(f(None, Some("module")).entity_type, 0.8);
        assert_eq!(f(None, Some("MODULE")).entity_type, 0.8);
        assert_eq!(
            f(None, Some("class")).entity_type,
            f(None, Some("CLASS")).entity_type
        );
        assert_eq!(f(None, Some("İnterface")).entity_type, 1.0);
        assert_eq!(f(None, Some("widget")).entity_type, 1.0);
        assert_eq!(f(None, None).multiplier, 1.0);
    }

    #[test]
    fn custom_factors() {
        let cfg = HeuristicConfig {
            exact_name_multiplier: 10.0,
            name_term_weight: 0.0,
            ..Default::default()
        };
        let out =
            rerank_heuristic("foo", &[cand("a", 1.0, "Foo", None, None, None)], &cfg).unwrap();
        assert_eq!(out[0].reranked_score, 10.0);
    }

    #[test]
    fn an_overflow_names_the_options_or_the_candidate() {
        // Multipliers whose product overflows: the options' doing.
        let huge = HeuristicConfig {
            exact_name_multiplier: 1e308,
            ..Default::default()
        };
        let e = rerank_heuristic("auth", &[cand("a", 1.0, "auth", None, None, None)], &huge)
            .unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::NonFiniteScore, "options")
        );
        // A finite multiplier carrying a huge score past f64::MAX: the candidate's.
        let e = rerank_heuristic(
            "auth",
            &[
                cand("a", 1.0, "x", None, None, None),
                cand("b", 1e308, "auth", None, None, None),
            ],
            &HeuristicConfig::default(),
        )
        .unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::NonFiniteScore, "candidates[1].score")
        );
    }

    #[test]
    fn rerank_errors() {
        let cfg = HeuristicConfig::default();
        let e =
            rerank_heuristic("q", &[cand("a", f64::NAN, "n", None, None, None)], &cfg).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::NonFiniteScore, "candidates[0].score")
        );
        let e = rerank_heuristic(
            "q",
            &[
                cand("a", 1.0, "n", None, None, None),
                cand("a", 1.0, "m", None, None, None),
            ],
            &cfg,
        )
        .unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::DuplicateId, "candidates[1].id")
        );
        let e = rerank_heuristic("q", &[cand("a", -1.0, "n", None, None, None)], &cfg).unwrap_err();
        assert_eq!(e.code, ErrorCode::NegativeValue);
        let bad = HeuristicConfig {
            exact_name_multiplier: -1.0,
            ..Default::default()
        };
        assert_eq!(
            rerank_heuristic("q", &[], &bad).unwrap_err().field,
            "exactNameMultiplier"
        );
    }

    #[test]
    fn seed_004_cross_encoder_example() {
        // min -2, max 3; a hit at 1.0 -> 0.6; FY2025 with boost 0.8 -> 1.08.
        let out = cross_encoder_scores(
            &[-2.0, 3.0, 1.0],
            &[None, None, Some(2025)],
            &FiscalYearTier::default(),
            0.8,
        )
        .unwrap();
        assert_eq!(out[0], 0.0);
        assert_eq!(out[1], 1.0);
        assert!((out[2] - 1.08).abs() < 1e-12);
        assert_eq!(cross_encoder_normalize(&[0.3, 0.3]), vec![1.0, 1.0]);
        assert_eq!(cross_encoder_normalize(&[-4.0]), vec![1.0]);
        assert!(cross_encoder_scores(&[1.0], &[], &FiscalYearTier::default(), 0.8).is_err());
    }

    /// [`first_repeat`] of candidates with these ids.
    fn first_repeat_of(ids: &[String]) -> Option<usize> {
        let refs: Vec<CandidateRef<'_>> = ids
            .iter()
            .map(|id| CandidateRef {
                id,
                score: 1.0,
                text: CandidateText::default(),
            })
            .collect();
        first_repeat(&refs)
    }

    /// The first repeat as a set's scan finds it.
    fn first_repeat_by_set(ids: &[String]) -> Option<usize> {
        let mut seen = std::collections::HashSet::new();
        ids.iter().position(|id| !seen.insert(id.as_str()))
    }

    /// The first repeat among candidates whose ids hash alike (the interner's sorting
    /// path) and among ids sharing a long prefix, against a set's scan.
    #[test]
    fn first_repeat_of_colliding_and_prefixed_ids() {
        let naive = first_repeat_by_set;
        let first = first_repeat_of;
        let prefix = "p".repeat(600);
        for mut ids in [
            crate::intern::tests::colliding_ids(3000),
            (0..3000).map(|i| format!("{prefix}{i}")).collect(),
        ] {
            assert_eq!(first(&ids), None);
            ids.push(ids[1234].clone());
            ids.push(ids[7].clone());
            assert_eq!(first(&ids), Some(3000));
            assert_eq!(first(&ids), naive(&ids));
        }
    }

    proptest::proptest! {
        #[test]
        fn first_repeat_is_a_sets(ids in proptest::collection::vec("[a-c]{0,3}", 0..40)) {
            proptest::prop_assert_eq!(first_repeat_of(&ids), first_repeat_by_set(&ids));
        }

        #[test]
        fn short_content_counts_utf16_units(text in "\\PC{0,80}", limit in 1u32..120) {
            proptest::prop_assert_eq!(is_short(&text, limit), text.encode_utf16().count() < limit as usize);
        }
    }
}
