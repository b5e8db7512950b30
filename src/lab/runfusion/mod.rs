//! Fusion of whole runs: every unsupervised fusion method of
//! [ranx](https://github.com/AmenRa/ranx) 0.3.21, Qdrant's distribution-based score
//! fusion and OpenSearch's normalization-processor means.
//!
//! [`fuse_runs`] takes N runs (query id -> doc id -> score) and returns one. As ranx's
//! `fuse(runs, norm, method, params)` does, it first normalizes every run query by
//! query ([`NORMS`], default `min-max` for every ranx method, as in ranx), then combines
//! the normalized runs query by query ([`METHODS`]).
//!
//! | method | fused score of `d` (`s`: its normalized scores in the `n` runs that have it, `i`: 0-based rank) |
//! | --- | --- |
//! | `sum` / `wsum` | `sum_r w_r s_r` (missing: 0) |
//! | `mnz` / `wmnz` | `sum(s) * n` / `sum(s) * sum(w of those runs)` |
//! | `gmnz` | `sum(s) * n^gamma` |
//! | `max` / `min` / `med` / `anz` | max / min / median / mean of `s` |
//! | `mixed` | `sum(w s) * sqrt(n)` |
//! | `rrf` / `rbc` | `sum_r 1 / (k + i + 1)` / `sum_r (1 - phi) phi^i` |
//! | `isr` / `log_isr` / `logn_isr` | `sum 1/(i+1)^2` times `n` / `ln n` / `ln(n + sigma)` |
//! | `bordafuse` / `w_bordafuse` | (weighted) sum of Borda points `N - i` |
//! | `condorcet` / `w_condorcet` | `N - position` after a pairwise-majority sort |
//! | `dbsf` | Qdrant: `sum_r w_r (s_r - lo_r) / (hi_r - lo_r)`, `lo, hi = mean -/+ 3 std` |
//! | `arithmetic_mean` / `geometric_mean` / `harmonic_mean` | OpenSearch: weighted means of min-max scores |
//!
//! See [`FuseRunsOptions`] for the parameters and the `methods`, `norm` and `external`
//! sources for the exact formulas.
//!
//! # Conventions (and where they pin down what ranx leaves open)
//!
//! * **Rank order: ranx's.** Rank-based methods and norms (`rrf`, `rbc`, `isr`,
//!   `log_isr`, `logn_isr`, `bordafuse`, `w_bordafuse`, `condorcet`, `w_condorcet`,
//!   norms `rank` and `borda`, and the summation order of norms `sum` and `zmuv`) read
//!   each run's documents in the run's order, as ranx reads its dict's keys; fused lists
//!   insert each candidate where first met and are then sorted as ranx's `Run.sort()`
//!   sorts them (numba's quicksort), so ties come out exactly as in ranx's fused run.
//!   [`fuse_runs_ordered`] takes runs in the order ranx holds them (see
//!   [`crate::lab::runs`] for ranx's source lines); [`fuse_runs`] takes [`Run`]s, which
//!   carry no order, and reads them by score descending, then doc id ascending
//!   ([`ranked`]), as ranx would a run whose dict lists them so. Where ranx iterates a
//!   Python `set` of candidates (BordaFuse's unranked candidates, norm `borda`,
//!   CondorcetFuse), whose order changes with `PYTHONHASHSEED`, calibrank uses doc id
//!   order.
//! * **Missing documents.** Exactly as in ranx: `sum`, `wsum` and `rrf`-style methods
//!   count 0; `max` / `min` use ranx's stand-ins -1e9 / 1e9; `mnz`, `anz`, `med`,
//!   `gmnz`, `wmnz`, `mixed` and the ISR family use only the runs that retrieved the
//!   document. `bordafuse` gives unranked candidates `(n_candidates - n_ranked + 1) / 2`
//!   points.
//! * **Condorcet.** ranx sorts the candidates with Python's `sorted` and a pairwise
//!   majority comparator that may be intransitive, starting from a Python `set` (whose
//!   order changes with `PYTHONHASHSEED`). calibrank starts from doc id ascending and
//!   replays CPython 3.11's sort comparison for comparison, so it returns what ranx
//!   returns when its candidate set iterates in doc id order.
//! * **Queries.** The output has every query id of any run; a run without a query
//!   counts as an empty result list for it (ranx requires equal query sets). A single
//!   run is accepted (ranx asserts at least two).
//! * **Output order.** [`fuse_runs_ordered`] returns each query's documents in ranx's
//!   order; a [`Run`] is a map ([`ranked`] sorts one query's results by score
//!   descending, then doc id ascending).
//!
//! Every transcendental function is `libm`'s, so results are bit-identical natively
//! and in WebAssembly.

mod external;
mod methods;
mod norm;
mod pysort;

use crate::error::{key_path, ErrorCode, Result, ScoreError};
use crate::lab::runs::{ranked_by_id, OrderedRun, Run};
use crate::sort::StableSort;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};

/// Every method name [`fuse_runs`] accepts, ranx's spellings first.
pub const METHODS: [&str; 23] = [
    "sum",
    "mnz",
    "max",
    "min",
    "med",
    "anz",
    "gmnz",
    "wsum",
    "wmnz",
    "mixed",
    "rrf",
    "rbc",
    "isr",
    "log_isr",
    "logn_isr",
    "bordafuse",
    "w_bordafuse",
    "condorcet",
    "w_condorcet",
    "dbsf",
    "arithmetic_mean",
    "geometric_mean",
    "harmonic_mean",
];

/// Every normalization name [`fuse_runs`] accepts (ranx's spellings; `min_max` and
/// `min_max_inverted` are accepted as aliases, as in ranx). `none` skips normalization.
pub const NORMS: [&str; 8] = [
    "min-max",
    "min-max-inverted",
    "max",
    "sum",
    "zmuv",
    "rank",
    "borda",
    "none",
];

/// Options of [`fuse_runs`].
///
/// `params` by method (ranx's names; any other key is rejected):
///
/// | method | param | default | range |
/// | --- | --- | --- | --- |
/// | `rrf` | `k` | 60 | finite, >= 0 |
/// | `rbc` | `phi` | required (ranx has no default) | 0 <= phi <= 1 |
/// | `logn_isr` | `sigma` | 0.01 | 0 <= sigma <= 1 |
/// | `gmnz` | `gamma` | required (ranx has no default) | finite |
///
/// `weights` (one per run, finite, >= 0; default all 1) are taken by `wsum`, `wmnz`,
/// `mixed`, `w_bordafuse`, `w_condorcet`, `dbsf` and the three OpenSearch means; every
/// other method rejects them.
///
/// There is no `Default`: a method must be chosen ([`FuseRunsOptions::new`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FuseRunsOptions {
    /// The fusion method, one of [`METHODS`].
    pub method: String,
    /// The normalization applied to every run first, one of [`NORMS`]; when absent the
    /// method's default ([`default_norm`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub norm: Option<String>,
    /// One weight per run, for the weighted methods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights: Option<Vec<f64>>,
    /// Numeric parameters by ranx's names (see the table above).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, f64>,
}

impl FuseRunsOptions {
    /// `method` (one of [`METHODS`]) with its default normalization, no weights and its
    /// parameters' defaults; set the public fields for the rest.
    pub fn new(method: impl Into<String>) -> Self {
        FuseRunsOptions {
            method: method.into(),
            norm: None,
            weights: None,
            params: BTreeMap::new(),
        }
    }
}

/// The normalization a method applies when [`FuseRunsOptions::norm`] is absent:
/// `min-max` for every ranx method (ranx's `fuse` default, whatever the method), `none`
/// for `dbsf` and the OpenSearch means, whose own normalization is part of the method.
/// `None` for an unknown method.
pub fn default_norm(method: &str) -> Option<&'static str> {
    match method {
        "dbsf" | "arithmetic_mean" | "geometric_mean" | "harmonic_mean" => Some("none"),
        m if METHODS.contains(&m) => Some("min-max"),
        _ => None,
    }
}

/// One query's results sorted by score descending, then doc id ascending (byte order);
/// `0.0` and `-0.0` tie. This is calibrank's tie rule wherever an order is needed.
pub fn ranked(results: &BTreeMap<String, f64>) -> Vec<(String, f64)> {
    let mut v: Vec<(String, f64)> = results.iter().map(|(d, s)| (d.clone(), *s)).collect();
    v.stable_sort_by(|a, b| by_score_then_id((&a.0, a.1), (&b.0, b.1)));
    v
}

/// Fuses `runs` with `opts`: normalizes every run query by query, then combines them.
///
/// A [`Run`] carries no order: each query's documents are read by score descending,
/// then doc id ascending ([`ranked`]), as a ranx `Run` whose dict lists them in that
/// order. [`fuse_runs_ordered`] takes runs in the order ranx holds them.
///
/// Errors: `EMPTY_INPUT` (no runs), `UNKNOWN_METHOD` (`method` or `norm`),
/// `LENGTH_MISMATCH` (weights vs runs), `INVALID_WEIGHT`, `INVALID_CONFIG` (a
/// parameter out of range, NaN and infinities included, or missing, or weights given to
/// an unweighted method), `UNKNOWN_FIELD` (a parameter the method does not take),
/// `NON_FINITE_SCORE` (an input score that is NaN or infinite, or a fused score that
/// overflows).
pub fn fuse_runs<R: std::borrow::Borrow<Run>>(runs: &[R], opts: &FuseRunsOptions) -> Result<Run> {
    let ordered: Vec<OrderedRun> = runs.iter().map(|r| ranked_by_id(r.borrow())).collect();
    let ordered: Vec<&OrderedRun> = ordered.iter().collect();
    let mut fused = Run::new();
    // A Run lists a document once per query: nothing to check.
    fuse_each_query(&ordered, opts, false, |q, combined| {
        fused.insert(
            q.to_string(),
            combined.iter().map(|(d, s)| (d.to_string(), *s)).collect(),
        );
    })?;
    Ok(fused)
}

/// [`fuse_runs`] for runs in the order ranx holds them: each query's documents are read
/// in the order given, which is the ranking the rank-based methods and norms use (a ranx
/// `Run` once sorted: [`crate::lab::runs::ranx_sort`] of a file's order, or a fused run).
/// The result is the fused run as ranx holds it: each candidate inserted where first met
/// (runs in order, each run in its order), then sorted by ranx's `Run.sort()` (every
/// ranx fusion method ends with `run.sort()`, except CondorcetFuse, whose scores never
/// tie), so that ranking it in this order ([`crate::lab::eval::evaluate_ranked`])
/// gives ranx's figures, ties included. Errors as for [`fuse_runs`], plus
/// `DUPLICATE_ID` (field `runs[i].<qid>[j]`) for a document listed twice in one query of
/// a run, as [`crate::lab::eval::evaluate_ordered`] and the parsers refuse it (ranx's
/// dict would keep the last score where the first was listed).
pub fn fuse_runs_ordered<R: std::borrow::Borrow<OrderedRun>>(
    runs: &[R],
    opts: &FuseRunsOptions,
) -> Result<OrderedRun> {
    // The fusion itself is not generic: compiled once, in this crate.
    let runs: Vec<&OrderedRun> = runs.iter().map(|r| r.borrow()).collect();
    fuse_ordered(&runs, opts, true)
}

/// Every run's documents listed once per query (`DUPLICATE_ID` on `runs[i].<qid>[j]`,
/// the second listing).
pub(crate) fn check_unique(runs: &[&OrderedRun]) -> Result<()> {
    for (i, run) in runs.iter().enumerate() {
        for (q, docs) in run.iter() {
            let mut seen = std::collections::HashSet::new();
            for (j, (d, _)) in docs.iter().enumerate() {
                if !seen.insert(d.as_str()) {
                    return Err(ScoreError::new(
                        ErrorCode::DuplicateId,
                        key_path(&format!("runs[{i}]"), q) + &format!("[{j}]"),
                        format!(
                            "document {} is listed twice for query {}",
                            crate::error::name(d),
                            crate::error::name(q)
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// [`fuse_runs_ordered`] for runs whose documents were found listed once per query
/// ([`check_unique`], or the lab module's readers, which refuse a repeat when a run is
/// read): the check is not made again.
#[doc(hidden)]
pub fn fuse_unique(runs: &[&OrderedRun], opts: &FuseRunsOptions) -> Result<OrderedRun> {
    fuse_ordered(runs, opts, false)
}

/// [`fuse_runs_ordered`], its runs checked for documents listed twice if `unique`.
fn fuse_ordered(runs: &[&OrderedRun], opts: &FuseRunsOptions, unique: bool) -> Result<OrderedRun> {
    let mut fused = OrderedRun::new();
    fuse_each_query(runs, opts, unique, |q, combined| {
        let mut docs: Vec<(String, f64)> =
            combined.iter().map(|(d, s)| (d.to_string(), *s)).collect();
        crate::lab::runs::ranx_sort_query(&mut docs);
        fused.insert(q.to_string(), docs);
    })?;
    Ok(fused)
}

/// Validates (each run's documents listed once per query too if `unique`), then fuses
/// query by query, handing each fused list to `emit`.
fn fuse_each_query(
    runs: &[&OrderedRun],
    opts: &FuseRunsOptions,
    unique: bool,
    mut emit: impl FnMut(&str, &Scores<'_>),
) -> Result<()> {
    let plan = Plan::new(runs.len(), opts)?;
    check_scores(runs)?;
    if unique {
        check_unique(runs)?;
    }
    for q in query_ids(runs) {
        let combined = plan.combine(q, &plan.stage(runs, q))?;
        emit(q, &combined);
    }
    Ok(())
}

/// Every query id of any run, each once, in id order.
fn query_ids<'a>(runs: &[&'a OrderedRun]) -> std::collections::BTreeSet<&'a str> {
    runs.iter()
        .flat_map(|r| r.keys().map(String::as_str))
        .collect()
}

/// Runs prepared once for the many fusions of a search
/// ([`crate::lab::optimize::optimize_fusion`]), whose configurations differ only in
/// weights and parameters: each query's lists normalized and through the method's stage
/// (`Method::stage`), neither of which reads a weight or a parameter, so they are the
/// lists every [`fuse_runs_ordered`] of the search would combine.
pub(crate) struct Prepared<'a> {
    n_runs: usize,
    method: String,
    norm: Option<String>,
    queries: Vec<(&'a str, Vec<Scores<'a>>)>,
}

impl<'a> Prepared<'a> {
    /// Prepares `runs` as a fusion with `opts` would (its errors are that fusion's
    /// option errors); the runs' scores must have been checked ([`check_scores`]).
    pub(crate) fn new(runs: &[&'a OrderedRun], opts: &FuseRunsOptions) -> Result<Self> {
        let plan = Plan::new(runs.len(), opts)?;
        let queries = query_ids(runs)
            .into_iter()
            .map(|q| (q, plan.stage(runs, q)))
            .collect();
        Ok(Prepared {
            n_runs: runs.len(),
            method: opts.method.clone(),
            norm: opts.norm.clone(),
            queries,
        })
    }

    /// The fusion with the method and norm given to [`Prepared::new`] and these weights
    /// and parameters: each query's documents in the order [`fuse_unique`] returns them,
    /// queries in id order.
    pub(crate) fn fuse_ranked(
        &self,
        weights: Option<Vec<f64>>,
        params: BTreeMap<String, f64>,
    ) -> Result<Vec<(&'a str, Vec<&'a str>)>> {
        let opts = FuseRunsOptions {
            method: self.method.clone(),
            norm: self.norm.clone(),
            weights,
            params,
        };
        let plan = Plan::new(self.n_runs, &opts)?;
        self.queries
            .iter()
            .map(|(q, lists)| {
                let ranked = plan.combine(q, lists)?.ranx_ranked();
                Ok((*q, ranked.into_iter().map(|(d, _)| d).collect()))
            })
            .collect()
    }
}

/// One run's results for one query (doc id -> score), borrowed from the input, in an
/// order: the ranking, as the keys of ranx's dict (insertion order; inserting a
/// document again replaces its score in place, as a dict does).
#[derive(Debug, Clone, Default)]
pub(crate) struct Scores<'a> {
    items: Vec<(&'a str, f64)>,
    index: HashMap<&'a str, usize>,
}

impl<'a> Scores<'a> {
    /// Inserts `doc` at the end, or replaces its score where it is.
    pub(crate) fn insert(&mut self, doc: &'a str, score: f64) {
        match self.index.get(doc) {
            Some(&i) => {
                if let Some(slot) = self.items.get_mut(i) {
                    slot.1 = score;
                }
            }
            None => {
                self.index.insert(doc, self.items.len());
                self.items.push((doc, score));
            }
        }
    }

    pub(crate) fn get(&self, doc: &str) -> Option<&f64> {
        self.index
            .get(doc)
            .and_then(|&i| self.items.get(i))
            .map(|(_, s)| s)
    }

    pub(crate) fn contains_key(&self, doc: &str) -> bool {
        self.index.contains_key(doc)
    }

    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }

    /// The position of `doc` in the order.
    pub(crate) fn position(&self, doc: &str) -> Option<usize> {
        self.index.get(doc).copied()
    }

    pub(crate) fn keys(&self) -> impl Iterator<Item = &&'a str> + '_ {
        self.items.iter().map(|(d, _)| d)
    }

    pub(crate) fn values(&self) -> impl Iterator<Item = &f64> + '_ {
        self.items.iter().map(|(_, s)| s)
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (&&'a str, &f64)> + '_ {
        self.items.iter().map(|(d, s)| (d, s))
    }

    /// Reorders as ranx's `sort_dict_by_value` (numba quicksort of the negated scores).
    pub(crate) fn ranx_sort(&mut self) {
        *self = self.ranx_ranked().into_iter().collect();
    }

    /// The documents in the order [`Scores::ranx_sort`] puts them in.
    pub(crate) fn ranx_ranked(&self) -> Vec<(&'a str, f64)> {
        let keys: Vec<f64> = self.items.iter().map(|(_, s)| -*s).collect();
        crate::lab::eval::ranx_argsort(&keys)
            .into_iter()
            .filter_map(|i| self.items.get(i).copied())
            .collect()
    }
}

impl<'a> FromIterator<(&'a str, f64)> for Scores<'a> {
    fn from_iter<I: IntoIterator<Item = (&'a str, f64)>>(iter: I) -> Self {
        let mut s = Scores::default();
        s.extend(iter);
        s
    }
}

impl<'a> Extend<(&'a str, f64)> for Scores<'a> {
    fn extend<I: IntoIterator<Item = (&'a str, f64)>>(&mut self, iter: I) {
        let iter = iter.into_iter();
        let (lower, _) = iter.size_hint();
        self.items.reserve(lower);
        self.index.reserve(lower);
        for (d, s) in iter {
            self.insert(d, s);
        }
    }
}

/// Score descending, then id ascending; `-0.0 == 0.0`; a total order even with NaN.
fn by_score_then_id(a: (&str, f64), b: (&str, f64)) -> Ordering {
    let canon = |s: f64| if s == 0.0 { 0.0 } else { s };
    canon(b.1).total_cmp(&canon(a.1)).then_with(|| a.0.cmp(b.0))
}

/// One list's documents best first: the list's own order (ranx's dict order).
pub(crate) fn ranking<'a>(list: &Scores<'a>) -> Vec<(&'a str, f64)> {
    list.items.clone()
}

pub(crate) fn check_scores(runs: &[&OrderedRun]) -> Result<()> {
    for (i, run) in runs.iter().enumerate() {
        for (q, results) in run.iter() {
            if let Some((d, s)) = results.iter().find(|(_, s)| !s.is_finite()) {
                return Err(ScoreError::new(
                    ErrorCode::NonFiniteScore,
                    key_path(&key_path(&format!("runs[{i}]"), q), d),
                    format!("must be a finite number, got {}", crate::error::num(*s)),
                ));
            }
        }
    }
    Ok(())
}

/// A normalization, resolved.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Norm {
    None,
    MinMax,
    MinMaxInverted,
    Max,
    Sum,
    Zmuv,
    Rank,
    Borda,
}

impl Norm {
    fn parse(name: &str) -> Result<Norm> {
        Ok(match name {
            "none" => Norm::None,
            "min-max" | "min_max" => Norm::MinMax,
            "min-max-inverted" | "min_max_inverted" => Norm::MinMaxInverted,
            "max" => Norm::Max,
            "sum" => Norm::Sum,
            "zmuv" => Norm::Zmuv,
            "rank" => Norm::Rank,
            "borda" => Norm::Borda,
            _ => {
                return Err(ScoreError::new(
                    ErrorCode::UnknownMethod,
                    "norm",
                    format!(
                        "unknown normalization {}; expected one of {}",
                        crate::error::name(name),
                        NORMS.join(", ")
                    ),
                ))
            }
        })
    }
}

/// A fusion method with its parameters, resolved.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Method {
    Sum,
    Mnz,
    Max,
    Min,
    Med,
    Anz,
    Gmnz { gamma: f64 },
    Wsum,
    Wmnz,
    Mixed,
    Rrf { k: f64 },
    Rbc { phi: f64 },
    Isr,
    LogIsr,
    LognIsr { sigma: f64 },
    BordaFuse,
    WBordaFuse,
    Condorcet,
    WCondorcet,
    Dbsf,
    ArithmeticMean,
    GeometricMean,
    HarmonicMean,
}

impl Method {
    /// The method's first stage, which reads no weight or parameter: BordaFuse's points,
    /// Qdrant's and OpenSearch's own normalizations; the lists as they are for the other
    /// methods. A search ([`Prepared`]) takes it once for all its configurations.
    fn stage<'a>(self, lists: Vec<Scores<'a>>) -> Vec<Scores<'a>> {
        match self {
            Method::BordaFuse | Method::WBordaFuse => methods::borda_points(&lists),
            Method::Dbsf => lists.iter().map(external::qdrant_distr_norm).collect(),
            Method::ArithmeticMean | Method::GeometricMean | Method::HarmonicMean => {
                lists.iter().map(external::opensearch_min_max).collect()
            }
            _ => lists,
        }
    }

    /// Combines lists through the method's stage ([`Method::stage`]).
    fn apply<'a>(self, lists: &[Scores<'a>], w: &[f64]) -> Result<Scores<'a>> {
        use methods as m;
        Ok(match self {
            Method::Sum => m::comb_sum(lists),
            Method::Mnz => m::comb_mnz(lists),
            Method::Max => m::comb_max(lists),
            Method::Min => m::comb_min(lists),
            Method::Med => m::comb_med(lists),
            Method::Anz => m::comb_anz(lists),
            Method::Gmnz { gamma } => m::comb_gmnz(lists, gamma),
            Method::Wsum => m::wsum(lists, w),
            Method::Wmnz => m::wmnz(lists, w),
            Method::Mixed => m::mixed(lists, w),
            Method::Rrf { k } => m::rrf(lists, k),
            Method::Rbc { phi } => m::rbc(lists, phi),
            Method::Isr => m::isr(lists),
            Method::LogIsr => m::log_isr(lists),
            Method::LognIsr { sigma } => m::logn_isr(lists, sigma),
            Method::BordaFuse => m::bordafuse(lists),
            Method::WBordaFuse => m::w_bordafuse(lists, w),
            Method::Condorcet | Method::WCondorcet => m::condorcet(lists, w).ok_or_else(|| {
                ScoreError::new(
                    ErrorCode::Internal,
                    "method",
                    "condorcet sort invariant broken (a calibrank bug)",
                )
            })?,
            Method::Dbsf => external::dbsf(lists, w),
            Method::ArithmeticMean => external::arithmetic_mean(lists, w),
            Method::GeometricMean => external::geometric_mean(lists, w),
            Method::HarmonicMean => external::harmonic_mean(lists, w),
        })
    }
}

/// Validated options.
struct Plan {
    method: Method,
    norm: Norm,
    weights: Vec<f64>,
}

/// A numeric parameter: name, default (`None`: required), valid range, range text.
struct ParamSpec {
    name: &'static str,
    default: Option<f64>,
    valid: fn(f64) -> bool,
    range: &'static str,
}

const K: ParamSpec = ParamSpec {
    name: "k",
    default: Some(60.0),
    valid: |k| k >= 0.0,
    range: ">= 0",
};
const PHI: ParamSpec = ParamSpec {
    name: "phi",
    default: None,
    valid: |p| (0.0..=1.0).contains(&p),
    range: "in [0, 1]",
};
const SIGMA: ParamSpec = ParamSpec {
    name: "sigma",
    default: Some(0.01),
    valid: |s| (0.0..=1.0).contains(&s),
    range: "in [0, 1]",
};
const GAMMA: ParamSpec = ParamSpec {
    name: "gamma",
    default: None,
    valid: |_| true,
    range: "finite",
};

impl Plan {
    /// Each run's results for query `q` (empty where a run lacks it), normalized, then
    /// through the method's stage: the lists [`Plan::combine`] takes.
    fn stage<'a>(&self, runs: &[&'a OrderedRun], q: &str) -> Vec<Scores<'a>> {
        let lists: Vec<Scores<'a>> = runs
            .iter()
            .map(|run| {
                run.get(q)
                    .map(|res| res.iter().map(|(d, s)| (d.as_str(), *s)).collect())
                    .unwrap_or_default()
            })
            .collect();
        self.method.stage(norm::apply(self.norm, &lists))
    }

    /// Fuses one query's staged `lists` ([`Plan::stage`]); a fused score that overflows is an error
    /// naming the runs (the input's scores, with the weights and norm, are at fault).
    fn combine<'a>(&self, q: &str, lists: &[Scores<'a>]) -> Result<Scores<'a>> {
        let combined = self.method.apply(lists, &self.weights)?;
        if let Some((d, s)) = combined.iter().find(|(_, s)| !s.is_finite()) {
            return Err(ScoreError::new(
                ErrorCode::NonFiniteScore,
                "runs",
                format!("the fused score of document {} for query {} overflows ({}); rescale the input scores or the weights, or pick another norm", crate::error::name(d), crate::error::name(q), crate::error::num(*s)),
            ));
        }
        Ok(combined)
    }

    fn new(n_runs: usize, opts: &FuseRunsOptions) -> Result<Plan> {
        if n_runs == 0 {
            return Err(ScoreError::new(
                ErrorCode::EmptyInput,
                "runs",
                "at least one run is needed",
            ));
        }
        let name = opts.method.as_str();
        let (specs, weighted): (&[ParamSpec], bool) = match name {
            "rrf" => (&[K], false),
            "rbc" => (&[PHI], false),
            "logn_isr" => (&[SIGMA], false),
            "gmnz" => (&[GAMMA], false),
            "wsum" | "wmnz" | "mixed" | "w_bordafuse" | "w_condorcet" | "dbsf"
            | "arithmetic_mean" | "geometric_mean" | "harmonic_mean" => (&[], true),
            m if METHODS.contains(&m) => (&[], false),
            "bayesfuse" | "mapfuse" | "posfuse" | "probfuse" | "segfuse" | "slidefuse" => {
                return Err(ScoreError::new(
                    ErrorCode::UnknownMethod,
                    "method",
                    format!(
                        "{name:?} is a supervised ranx method (it trains on qrels); not supported"
                    ),
                ))
            }
            _ => {
                return Err(ScoreError::new(
                    ErrorCode::UnknownMethod,
                    "method",
                    format!(
                        "unknown fusion method {}; expected one of {}",
                        crate::error::name(name),
                        METHODS.join(", ")
                    ),
                ))
            }
        };
        let values = resolve_params(name, specs, &opts.params)?;
        let p = |i: usize| values.get(i).copied().unwrap_or(f64::NAN);
        let method = match name {
            "sum" => Method::Sum,
            "mnz" => Method::Mnz,
            "max" => Method::Max,
            "min" => Method::Min,
            "med" => Method::Med,
            "anz" => Method::Anz,
            "gmnz" => Method::Gmnz { gamma: p(0) },
            "wsum" => Method::Wsum,
            "wmnz" => Method::Wmnz,
            "mixed" => Method::Mixed,
            "rrf" => Method::Rrf { k: p(0) },
            "rbc" => Method::Rbc { phi: p(0) },
            "isr" => Method::Isr,
            "log_isr" => Method::LogIsr,
            "logn_isr" => Method::LognIsr { sigma: p(0) },
            "bordafuse" => Method::BordaFuse,
            "w_bordafuse" => Method::WBordaFuse,
            "condorcet" => Method::Condorcet,
            "w_condorcet" => Method::WCondorcet,
            "dbsf" => Method::Dbsf,
            "arithmetic_mean" => Method::ArithmeticMean,
            "geometric_mean" => Method::GeometricMean,
            _ => Method::HarmonicMean,
        };
        let norm_name = match &opts.norm {
            Some(n) => n.as_str(),
            None => default_norm(name).unwrap_or("min-max"),
        };
        let norm = Norm::parse(norm_name)?;
        let weights = resolve_weights(name, weighted, opts.weights.as_deref(), n_runs)?;
        Ok(Plan {
            method,
            norm,
            weights,
        })
    }
}

/// Checks an RRF `k` as [`fuse_runs`] checks `params.k` (finite, >= 0), the error on
/// `field`.
pub(crate) fn check_rrf_k(k: f64, field: impl FnOnce() -> String) -> Result<()> {
    check_param(&K, k, field).map(|_| ())
}

/// `value` of `spec` checked (finite, in its range), the error on `field`: a parameter
/// that is not finite is out of range too (INVALID_CONFIG, as a finite value outside it).
fn check_param(spec: &ParamSpec, value: f64, field: impl FnOnce() -> String) -> Result<f64> {
    if !value.is_finite() {
        return Err(crate::error::not_finite(
            ErrorCode::InvalidConfig,
            field(),
            value,
        ));
    }
    if !(spec.valid)(value) {
        return Err(ScoreError::new(
            ErrorCode::InvalidConfig,
            field(),
            format!("must be {}, got {}", spec.range, crate::error::num(value)),
        ));
    }
    Ok(value)
}

/// A parameter the method does not take: `UNKNOWN_FIELD` on `params.<key>`, worded as
/// every other unknown key is (serde's words, the method's parameters listed: "unknown
/// field `hpi`, expected `phi`"; "unknown field `k`, there are no fields" for a method
/// without any), so that the package's JavaScript adds the nearest ("; did you mean
/// `phi`?", js/wire/keys.js `withNearestKey`). It was `INVALID_CONFIG`, worded apart.
#[cold]
#[inline(never)]
fn unknown_param(key: &str, specs: &[ParamSpec]) -> ScoreError {
    use std::fmt::Write as _;
    let n = specs.len();
    let mut m = String::from("unknown field ");
    let _ = write!(m, "{}", crate::error::key_name(key));
    m.push_str(match n {
        0 => ", there are no fields",
        1 | 2 => ", expected ",
        _ => ", expected one of ",
    });
    for (i, spec) in specs.iter().enumerate() {
        if i > 0 {
            m.push_str(if n == 2 { " or " } else { ", " });
        }
        m.push('`');
        m.push_str(spec.name);
        m.push('`');
    }
    ScoreError::new(ErrorCode::UnknownField, key_path("params", key), m)
}

fn resolve_params(
    method: &str,
    specs: &[ParamSpec],
    given: &BTreeMap<String, f64>,
) -> Result<Vec<f64>> {
    if let Some(unknown) = given
        .keys()
        .find(|k| !specs.iter().any(|s| s.name == k.as_str()))
    {
        return Err(unknown_param(unknown, specs));
    }
    specs
        .iter()
        .map(|spec| {
            let field = || format!("params.{}", spec.name);
            let value = match (given.get(spec.name), spec.default) {
                (Some(v), _) => *v,
                (None, Some(d)) => d,
                (None, None) => {
                    return Err(ScoreError::new(
                        ErrorCode::InvalidConfig,
                        field(),
                        format!("{method} needs params.{} ({})", spec.name, spec.range),
                    ))
                }
            };
            check_param(spec, value, field)
        })
        .collect()
}

fn resolve_weights(
    method: &str,
    weighted: bool,
    weights: Option<&[f64]>,
    n_runs: usize,
) -> Result<Vec<f64>> {
    let Some(w) = weights else {
        return Ok(vec![1.0; n_runs]);
    };
    if !weighted {
        return Err(ScoreError::new(
            ErrorCode::InvalidConfig,
            "weights",
            format!("{method} takes no weights (weighted methods: wsum, wmnz, mixed, w_bordafuse, w_condorcet, dbsf, arithmetic_mean, geometric_mean, harmonic_mean)"),
        ));
    }
    if w.len() != n_runs {
        return Err(ScoreError::new(
            ErrorCode::LengthMismatch,
            "weights",
            format!("weights: {}, runs: {n_runs} (one weight per run)", w.len()),
        ));
    }
    for (i, &x) in w.iter().enumerate() {
        crate::fuse::validate_weight(x, || format!("weights[{i}]"))?;
    }
    Ok(w.to_vec())
}
