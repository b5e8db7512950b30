//! Input size limits. Every entry point checks its input against these before doing
//! the work (and, in the JS bindings, before copying it into wasm memory), so an
//! oversized input is an `INPUT_TOO_LARGE` error instead of a call that runs for
//! minutes or an out-of-memory trap.
//!
//! The defaults are set from measurements (`make bench-limits`, docs/reliability.md):
//! the largest input each entry point accepts under them takes well under a second in
//! Node on the project's 2-core test machine. The two paths cost very differently per
//! entry, so they have separate budgets:
//!
//! * entries given as JS objects and strings (`Pipeline.run`'s lists and items, `rrf`,
//!   `fuseMultiQuery`, `rerank`, runs and qrels, parsed TREC lines):
//!   [`Limits::max_total_entries`], 100,000 by default;
//! * entries given as typed arrays of indices (`runColumnar`, `rrfColumnar`):
//!   [`Limits::max_columnar_entries`], 4,000,000 by default.
//!
//! Every limit can be raised per call (`limits` in a pipeline config or in any
//! function's options), up to a ceiling ([`Limits::CEILING`]) that keeps the memory an
//! accepted input needs inside wasm32's 4 GiB address space.

use crate::error::{ErrorCode, Result, ScoreError};
use serde::{Deserialize, Serialize};

/// Configurable limits. A field missing from JSON keeps its default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Limits {
    /// Maximum number of ranked lists (or queries, runs, metrics) in one call
    /// (default 64).
    pub max_lists: u32,
    /// Maximum length of one list, and of one array of numbers (scores, labels,
    /// weights) (default 1,000,000).
    pub max_list_length: u32,
    /// Maximum number of entries given as objects or strings in one call: list ids plus
    /// items, hits, candidates, run and qrels entries, TREC lines (default 100,000).
    pub max_total_entries: u32,
    /// Maximum number of entries given as typed arrays of indices in one call (`docs`),
    /// and of documents (`nDocs`) (default 4,000,000).
    pub max_columnar_entries: u32,
    /// Maximum length of one id in bytes: a list's ids, an item's key, a list's name
    /// (default 1024).
    pub max_id_bytes: u32,
    /// Maximum length of one text field (name, type, summary, content, query, the
    /// strings of a pipeline input's `context`) in bytes (default 1,000,000).
    pub max_text_bytes: u32,
    /// Maximum bytes of all the strings of one call together: ids, keys, texts, times
    /// given as ISO 8601 texts, TREC text (default 32,000,000).
    pub max_total_text_bytes: u32,
    /// Maximum work of one search (default 2,000,000): for `optimizeFusion`,
    /// configurations tried times (the runs' entries fused + the judgements read) each
    /// time; for `proposeBands`, folds x items / [`FOLD_WORK_PER_UNIT`]; for a
    /// `fitQueryConfidence` step, judged queries x (runs + 1)^2 / [`FIT_WORK_PER_UNIT`].
    pub max_search_work: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_lists: 64,
            max_list_length: 1_000_000,
            max_total_entries: 100_000,
            max_columnar_entries: 4_000_000,
            max_id_bytes: 1024,
            max_text_bytes: 1_000_000,
            max_total_text_bytes: 32_000_000,
            max_search_work: 2_000_000,
        }
    }
}

/// What `maxLists` counts on `field`: the runs of `fuseRuns`, the queries of
/// `fuseMultiQuery`, the metrics of `evaluate`, else lists (`offsets` cut lists too).
fn counted(field: &str) -> &'static str {
    match field {
        "runs" => "the number of runs",
        "queries" => "the number of queries",
        "metrics" => "the number of metrics",
        _ => "the number of lists",
    }
}

fn too_large(field: String, what: &str, got: usize, max: u32, limit: &str) -> ScoreError {
    ScoreError::new(
        ErrorCode::InputTooLarge,
        field,
        format!("{what} is {got}, above the limit of {max} (limits.{limit})"),
    )
}

impl Limits {
    /// The largest value each limit may be raised to. Above these an accepted input
    /// could need more memory than wasm32 can address (4 GiB), which would be a trap,
    /// not an error: a string entry costs about 100 bytes of bookkeeping plus its text,
    /// a columnar entry about 40 bytes, and the module keeps a decoded copy of the
    /// input, the output and scratch space.
    pub const CEILING: Limits = Limits {
        max_lists: 100_000,
        max_list_length: 50_000_000,
        max_total_entries: 10_000_000,
        max_columnar_entries: 50_000_000,
        max_id_bytes: 1 << 20,
        max_text_bytes: 256 << 20,
        max_total_text_bytes: 512 << 20,
        max_search_work: u32::MAX,
    };

    /// The limits as (JSON name, value) pairs, in declaration order.
    pub fn fields(&self) -> [(&'static str, u32); 8] {
        [
            ("maxLists", self.max_lists),
            ("maxListLength", self.max_list_length),
            ("maxTotalEntries", self.max_total_entries),
            ("maxColumnarEntries", self.max_columnar_entries),
            ("maxIdBytes", self.max_id_bytes),
            ("maxTextBytes", self.max_text_bytes),
            ("maxTotalTextBytes", self.max_total_text_bytes),
            ("maxSearchWork", self.max_search_work),
        ]
    }

    /// Checks a list count (of lists, runs, queries or metrics: `field` names which).
    pub fn check_lists(&self, n: usize, field: &str) -> Result<()> {
        if n > self.max_lists as usize {
            return Err(too_large(
                field.into(),
                counted(field),
                n,
                self.max_lists,
                "maxLists",
            ));
        }
        Ok(())
    }

    /// Checks the lengths of lists of ids (or objects): each against `maxListLength`,
    /// the total against `maxTotalEntries`.
    pub fn check_lengths(
        &self,
        lengths: impl IntoIterator<Item = usize>,
        field: &str,
    ) -> Result<()> {
        let total = self.check_each_length(lengths, field)?;
        self.check_entries(total, field)
    }

    /// Checks the lengths of the lists of a columnar input (list i is
    /// `docs[offsets[i]..offsets[i+1]]`): each against `maxListLength`, on `offsets[i]`
    /// (the list, as `offsets` names the lists' count; `docs[j]` is element j), the total
    /// against `maxColumnarEntries`, on `docs`.
    pub fn check_columnar_lengths(&self, lengths: impl IntoIterator<Item = usize>) -> Result<()> {
        let total = self.check_each_length(lengths, "offsets")?;
        self.check_columnar(total, "docs")
    }

    /// Checks each length against `maxListLength`; returns the total.
    fn check_each_length(
        &self,
        lengths: impl IntoIterator<Item = usize>,
        field: &str,
    ) -> Result<usize> {
        let mut total = 0usize;
        for (i, n) in lengths.into_iter().enumerate() {
            if n > self.max_list_length as usize {
                return Err(too_large(
                    format!("{field}[{i}]"),
                    "the list length",
                    n,
                    self.max_list_length,
                    "maxListLength",
                ));
            }
            total = total.saturating_add(n);
        }
        Ok(total)
    }

    /// Checks the length of one array of numbers against `maxListLength`.
    pub fn check_array(&self, n: usize, field: &str) -> Result<()> {
        if n > self.max_list_length as usize {
            return Err(too_large(
                field.into(),
                "the array length",
                n,
                self.max_list_length,
                "maxListLength",
            ));
        }
        Ok(())
    }

    /// Checks a total number of object / string entries against `maxTotalEntries`.
    pub fn check_entries(&self, total: usize, field: &str) -> Result<()> {
        if total > self.max_total_entries as usize {
            return Err(too_large(
                field.into(),
                "the total number of entries",
                total,
                self.max_total_entries,
                "maxTotalEntries",
            ));
        }
        Ok(())
    }

    /// Checks a number of columnar entries (or documents) against `maxColumnarEntries`.
    pub fn check_columnar(&self, total: usize, field: &str) -> Result<()> {
        if total > self.max_columnar_entries as usize {
            return Err(too_large(
                field.into(),
                "the number of columnar entries",
                total,
                self.max_columnar_entries,
                "maxColumnarEntries",
            ));
        }
        Ok(())
    }

    /// Checks one id.
    pub fn check_id(&self, id: &str, field: impl FnOnce() -> String) -> Result<()> {
        if id.len() > self.max_id_bytes as usize {
            return Err(too_large(
                field(),
                "the id length in bytes",
                id.len(),
                self.max_id_bytes,
                "maxIdBytes",
            ));
        }
        Ok(())
    }

    /// Checks one text field.
    pub fn check_text(&self, text: &str, field: impl FnOnce() -> String) -> Result<()> {
        if text.len() > self.max_text_bytes as usize {
            return Err(too_large(
                field(),
                "the text length in bytes",
                text.len(),
                self.max_text_bytes,
                "maxTextBytes",
            ));
        }
        Ok(())
    }

    /// Checks the bytes of all the strings of a call together.
    pub fn check_total_text(&self, bytes: usize, field: &str) -> Result<()> {
        self.check_total_text_with(bytes, || field.into())
    }

    /// [`Limits::check_total_text`] with the field's name made only for the error (for
    /// paths built per string on a hot path).
    pub fn check_total_text_with(
        &self,
        bytes: usize,
        field: impl FnOnce() -> String,
    ) -> Result<()> {
        if bytes > self.max_total_text_bytes as usize {
            return Err(too_large(
                field(),
                "the total length of the strings in bytes",
                bytes,
                self.max_total_text_bytes,
                "maxTotalTextBytes",
            ));
        }
        Ok(())
    }

    /// Checks the work of a search: configurations x (run entries fused + judgements
    /// read by each evaluation).
    pub fn check_search_work(
        &self,
        trials: usize,
        entries: usize,
        judged: usize,
        field: &str,
    ) -> Result<()> {
        let work = trials.saturating_mul(entries.saturating_add(judged));
        if work > self.max_search_work as usize {
            return Err(ScoreError::new(
                ErrorCode::InputTooLarge,
                field,
                format!(
                    "the search would fuse and evaluate {trials} configurations x \
                     ({entries} run entries + {judged} judgements) = {work}, above the limit \
                     of {} (limits.maxSearchWork); use a larger step, fewer values, runs or \
                     judged queries, or raise the limit",
                    self.max_search_work
                ),
            ));
        }
        Ok(())
    }

    /// Checks the work of `proposeBands`' cross-validation: each of `folds` folds fits
    /// its floors on the other items, folds x `items` item-folds, counted in the units of
    /// `maxSearchWork` as a twentieth each ([`FOLD_WORK_PER_UNIT`]): at the default
    /// 40,000,000 item-folds, 5 folds of up to 8,000,000 items, leave-one-out up to 6,324.
    /// `INPUT_TOO_LARGE` on `field`.
    pub fn check_fold_work(&self, folds: u64, items: usize, field: &str) -> Result<()> {
        let work = folds.saturating_mul(items as u64);
        let max = u64::from(self.max_search_work).saturating_mul(FOLD_WORK_PER_UNIT);
        if work > max {
            return Err(ScoreError::new(
                ErrorCode::InputTooLarge,
                field,
                format!(
                    "the cross-validation would fit {folds} folds over {items} items, {work} \
                     item-folds, above the limit of {max} ({FOLD_WORK_PER_UNIT} x \
                     limits.maxSearchWork, {}); use fewer folds or raise the limit",
                    self.max_search_work
                ),
            ));
        }
        Ok(())
    }

    /// Checks the work of one Newton step of `fitQueryConfidence`: the judged `queries`
    /// x the model's `features` squared (the Hessian's terms), counted in the units of
    /// `maxSearchWork` as a fifth each ([`FIT_WORK_PER_UNIT`]): at the default
    /// 10,000,000, 2,366 queries of 64 runs, 1.1 million of 2. `INPUT_TOO_LARGE` on
    /// `field`.
    pub fn check_fit_work(&self, queries: usize, features: usize, field: &str) -> Result<()> {
        let work = queries.saturating_mul(features.saturating_mul(features));
        let max = (self.max_search_work as usize).saturating_mul(FIT_WORK_PER_UNIT);
        if work > max {
            return Err(ScoreError::new(
                ErrorCode::InputTooLarge,
                field,
                format!(
                    "the fit would take {queries} judged queries x ({features} features)^2 = \
                     {work} at each step, above the limit of {max} ({FIT_WORK_PER_UNIT} x \
                     limits.maxSearchWork, {}); fit fewer runs or queries, or raise the limit",
                    self.max_search_work
                ),
            ));
        }
        Ok(())
    }

    /// Validates the limits themselves: each in `1..=CEILING`.
    pub fn validate(&self) -> Result<()> {
        for ((name, v), (_, max)) in self.fields().into_iter().zip(Self::CEILING.fields()) {
            if v == 0 || v > max {
                return Err(ScoreError::new(
                    ErrorCode::InvalidConfig,
                    format!("limits.{name}"),
                    format!("must be a whole number from 1 to {max}, got {v}"),
                ));
            }
        }
        Ok(())
    }
}

/// Item-folds of `proposeBands` per unit of `maxSearchWork` ([`Limits::check_fold_work`]).
/// `node bench/work-units.mjs pkg` measures both ratios: a unit of `optimizeFusion`'s
/// (a run entry fused and judged) cost 372 ns, an item-fold 5.2 ns (leave-one-out over
/// 10,000 items; 71 to a unit), a fit's term 32 ns (12 to a unit), 2026-12-02. The
/// factors are lower than those ratios: an item-fold costs more once the items outgrow
/// the caches (a review measured 20 ns, leave-one-out over 100,000 items in 202 s).
pub const FOLD_WORK_PER_UNIT: u64 = 20;
/// Terms of a `fitQueryConfidence` step per unit of `maxSearchWork`
/// ([`Limits::check_fit_work`]; see [`FOLD_WORK_PER_UNIT`] for the measurement).
pub const FIT_WORK_PER_UNIT: usize = 5;

/// The default `maxTotalEntries` of each function whose cost per entry is far from the
/// common default's (100,000), set from `make bench-limits` so that a call at its
/// defaults stays under about a second (README, "Limits"). A caller's own limits always
/// win; every other limit has the common default.
pub const ENTRY_BUDGETS: [(LimitedFunction, u32); 9] = [
    (LimitedFunction::Rrf, 500_000),
    (LimitedFunction::Pipeline, 400_000),
    (LimitedFunction::FuseMultiQuery, 300_000),
    (LimitedFunction::Rerank, 50_000),
    (LimitedFunction::ParseTrecRun, 250_000),
    (LimitedFunction::ParseQrels, 250_000),
    (LimitedFunction::Evaluate, 1_000_000),
    (LimitedFunction::EvaluatePerQuery, 1_000_000),
    (LimitedFunction::FuseRuns, 250_000),
];

/// Declares [`LimitedFunction`] and [`LIMITED_FUNCTIONS`] from one list, so that the
/// two cannot drift apart.
macro_rules! limited_functions {
    ($($variant:ident = $name:literal,)*) => {
        /// A function that takes limits, by its JavaScript name ([`LimitedFunction::name`]).
        /// The package's bindings name the function they serve with it, so that a
        /// misspelled name is a compile error rather than the common defaults.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum LimitedFunction {
            $(
                #[doc = concat!("`", $name, "`.")]
                $variant,
            )*
        }

        impl LimitedFunction {
            /// Every one, in the order of [`LIMITED_FUNCTIONS`].
            pub const ALL: [LimitedFunction; LIMITED_FUNCTIONS.len()] =
                [$(LimitedFunction::$variant,)*];

            /// Its JavaScript name.
            pub const fn name(self) -> &'static str {
                match self {
                    $(LimitedFunction::$variant => $name,)*
                }
            }

            /// The function named `name`, if it takes limits.
            pub fn from_name(name: &str) -> Option<LimitedFunction> {
                match name {
                    $($name => Some(LimitedFunction::$variant),)*
                    _ => None,
                }
            }
        }

        /// The functions that take limits, by their JavaScript names (the package's
        /// `defaultLimits(fn)` answers for these; tests/limits_names.rs keeps this list
        /// equal to js/wire/limits.js's).
        pub const LIMITED_FUNCTIONS: [&str; [$($name,)*].len()] = [$($name,)*];
    };
}

limited_functions! {
    Pipeline = "Pipeline",
    Rrf = "rrf",
    RrfColumnar = "rrfColumnar",
    FuseMultiQuery = "fuseMultiQuery",
    Rerank = "rerank",
    Normalize = "normalize",
    Calibrate = "calibrate",
    QueryConfidence = "queryConfidence",
    ParseTrecRun = "parseTrecRun",
    ParseQrels = "parseQrels",
    Evaluate = "evaluate",
    EvaluatePerQuery = "evaluatePerQuery",
    FuseRuns = "fuseRuns",
    OptimizeFusion = "optimizeFusion",
    FitPlatt = "fitPlatt",
    FitIsotonic = "fitIsotonic",
    ApplyCalibration = "applyCalibration",
    CalibrationError = "calibrationError",
    ProposeBands = "proposeBands",
    FitQueryConfidence = "fitQueryConfidence",
    PredictQueryConfidence = "predictQueryConfidence",
    EvaluateQueryConfidence = "evaluateQueryConfidence",
}

impl Limits {
    /// The default limits of `function`, one of [`LIMITED_FUNCTIONS`] (JavaScript names:
    /// `"rrf"`, `"Pipeline"`, ...): the common defaults with its entry budget from
    /// [`ENTRY_BUDGETS`].
    ///
    /// Errors: `UNKNOWN_METHOD` on `function` for any other name (a misspelled name
    /// would otherwise get the common defaults silently).
    pub fn defaults_for(function: &str) -> Result<Limits> {
        let Some(f) = LimitedFunction::from_name(function) else {
            return Err(ScoreError::new(
                ErrorCode::UnknownMethod,
                "function",
                format!(
                    "no function named {} takes limits; one of {}",
                    crate::error::name(function),
                    LIMITED_FUNCTIONS.join(", ")
                ),
            ));
        };
        Ok(Self::of(f))
    }

    /// The default limits of `function`: [`Limits::defaults_for`] for a name known at
    /// compile time.
    pub fn of(function: LimitedFunction) -> Limits {
        let mut l = Limits::default();
        if let Some((_, n)) = ENTRY_BUDGETS.iter().find(|(f, _)| *f == function) {
            l.max_total_entries = *n;
        }
        l
    }
}

/// Limits as a caller gives them: each field optional, laid over a function's defaults
/// ([`Limits::defaults_for`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PartialLimits {
    /// See [`Limits::max_lists`].
    pub max_lists: Option<u32>,
    /// See [`Limits::max_list_length`].
    pub max_list_length: Option<u32>,
    /// See [`Limits::max_total_entries`].
    pub max_total_entries: Option<u32>,
    /// See [`Limits::max_columnar_entries`].
    pub max_columnar_entries: Option<u32>,
    /// See [`Limits::max_id_bytes`].
    pub max_id_bytes: Option<u32>,
    /// See [`Limits::max_text_bytes`].
    pub max_text_bytes: Option<u32>,
    /// See [`Limits::max_total_text_bytes`].
    pub max_total_text_bytes: Option<u32>,
    /// See [`Limits::max_search_work`].
    pub max_search_work: Option<u32>,
}

impl PartialLimits {
    /// These limits over `base`.
    pub fn over(self, base: Limits) -> Limits {
        Limits {
            max_lists: self.max_lists.unwrap_or(base.max_lists),
            max_list_length: self.max_list_length.unwrap_or(base.max_list_length),
            max_total_entries: self.max_total_entries.unwrap_or(base.max_total_entries),
            max_columnar_entries: self
                .max_columnar_entries
                .unwrap_or(base.max_columnar_entries),
            max_id_bytes: self.max_id_bytes.unwrap_or(base.max_id_bytes),
            max_text_bytes: self.max_text_bytes.unwrap_or(base.max_text_bytes),
            max_total_text_bytes: self
                .max_total_text_bytes
                .unwrap_or(base.max_total_text_bytes),
            max_search_work: self.max_search_work.unwrap_or(base.max_search_work),
        }
    }
}

/// `PipelineConfig.limits`: missing fields take the pipeline's defaults.
#[doc(hidden)]
pub fn deserialize_pipeline_limits<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<Limits, D::Error> {
    let partial = Option::<PartialLimits>::deserialize(d)?.unwrap_or_default();
    Ok(partial.over(pipeline_limits()))
}

/// The pipeline's default limits.
pub fn pipeline_limits() -> Limits {
    Limits::of(LimitedFunction::Pipeline)
}

/// What one call has used of its [`Limits`] so far: entries given as objects or
/// strings, and bytes of strings. Decoders charge it as they read, before they copy,
/// so an oversized input is refused before it is in memory.
#[derive(Debug, Clone)]
#[doc(hidden)]
pub struct Budget {
    /// The limits being enforced.
    pub limits: Limits,
    entries: usize,
    text_bytes: usize,
}

impl Budget {
    /// A fresh budget.
    pub fn new(limits: Limits) -> Self {
        Budget {
            limits,
            entries: 0,
            text_bytes: 0,
        }
    }

    /// Charges `n` entries (`field` names the input that overflowed).
    pub fn entries(&mut self, n: usize, field: &str) -> Result<()> {
        self.entries = self.entries.saturating_add(n);
        self.limits.check_entries(self.entries, field)
    }

    /// Charges `bytes` of strings.
    pub fn text(&mut self, bytes: usize, field: &str) -> Result<()> {
        self.text_bytes = self.text_bytes.saturating_add(bytes);
        self.limits.check_total_text(self.text_bytes, field)
    }

    /// [`Budget::text`] with the field's name made only for the error (for paths built
    /// per string on a hot path).
    pub fn text_with(&mut self, bytes: usize, field: impl FnOnce() -> String) -> Result<()> {
        self.text_bytes = self.text_bytes.saturating_add(bytes);
        self.limits.check_total_text_with(self.text_bytes, field)
    }

    /// Bytes of strings charged so far.
    pub fn text_bytes(&self) -> usize {
        self.text_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Limits {
        Limits {
            max_lists: 2,
            max_list_length: 3,
            max_total_entries: 5,
            max_columnar_entries: 7,
            max_id_bytes: 4,
            max_text_bytes: 8,
            max_total_text_bytes: 10,
            max_search_work: 12,
        }
    }

    #[test]
    fn limits_reject_oversized_input() {
        let l = small();
        let e = l.check_lists(3, "lists").unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InputTooLarge, "lists")
        );
        assert!(e.message.contains("limits.maxLists"), "{}", e.message);
        assert!(l.check_lists(2, "lists").is_ok());
        assert_eq!(
            l.check_lengths([3, 4], "lists").unwrap_err().field,
            "lists[1]"
        );
        let e = l.check_lengths([3, 3], "lists").unwrap_err();
        assert_eq!(e.field, "lists");
        assert!(e.message.contains("maxTotalEntries"), "{}", e.message);
        assert!(l.check_lengths([3, 2], "lists").is_ok());
        // Columnar lists: the same per-list limit, their own total.
        assert!(l.check_columnar_lengths([3, 3]).is_ok());
        let e = l.check_columnar_lengths([3, 3, 2]).unwrap_err();
        assert!(e.message.contains("maxColumnarEntries"), "{}", e.message);
        assert_eq!(e.field, "docs");
        // A list too long is named as a list (`offsets[i]`), not as element i of `docs`.
        let e = l.check_columnar_lengths([1, 4]).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InputTooLarge, "offsets[1]")
        );
        assert!(e.message.contains("maxListLength"), "{}", e.message);
        assert!(l.check_array(3, "scores").is_ok());
        assert_eq!(l.check_array(4, "scores").unwrap_err().field, "scores");
        assert!(l.check_id("abcd", || "id".into()).is_ok());
        assert!(l.check_id("abcde", || "id".into()).is_err());
        assert!(l.check_text("12345678", || "t".into()).is_ok());
        assert!(l.check_text("123456789", || "t".into()).is_err());
        assert!(l.check_total_text(10, "x").is_ok());
        assert!(l.check_total_text(11, "x").is_err());
        assert!(l.check_search_work(3, 3, 1, "runs").is_ok());
        // maxSearchWork 12: 240 item-folds, 60 terms of a fit's step.
        assert!(l.check_fold_work(3, 80, "folds").is_ok());
        assert!(l.check_fold_work(3, 81, "folds").is_err());
        let e = l.check_fold_work(241, 1, "folds").unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InputTooLarge, "folds")
        );
        assert!(
            e.message
                .contains("241 folds over 1 items, 241 item-folds, above the limit of 240"),
            "{}",
            e.message
        );
        assert!(l.check_fit_work(15, 2, "runs").is_ok());
        assert!(l.check_fit_work(16, 2, "runs").is_err());
        let e = l.check_fit_work(7, 3, "runs").unwrap_err();
        assert!(
            e.message.contains("7 judged queries x (3 features)^2 = 63"),
            "{}",
            e.message
        );
        let e = l.check_search_work(13, 1, 0, "runs").unwrap_err();
        assert!(e.message.contains("13 configurations"), "{}", e.message);
        assert!(l.check_search_work(usize::MAX, 2, 0, "runs").is_err());
    }

    #[test]
    fn limits_are_validated_against_their_ceilings() {
        assert!(Limits::default().validate().is_ok());
        assert!(Limits::CEILING.validate().is_ok());
        let e = Limits {
            max_lists: 0,
            ..Default::default()
        }
        .validate()
        .unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InvalidConfig, "limits.maxLists")
        );
        let e = Limits {
            max_total_entries: Limits::CEILING.max_total_entries + 1,
            ..Default::default()
        }
        .validate()
        .unwrap_err();
        assert_eq!(e.field, "limits.maxTotalEntries");
        // Every default is within its ceiling.
        for ((name, v), (_, max)) in Limits::default()
            .fields()
            .into_iter()
            .zip(Limits::CEILING.fields())
        {
            assert!(v >= 1 && v <= max, "{name}");
        }
    }

    #[test]
    fn a_budget_accumulates_over_a_call() {
        let mut b = Budget::new(small());
        assert!(b.entries(3, "lists").is_ok());
        assert!(b.entries(2, "items").is_ok());
        let e = b.entries(1, "items").unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InputTooLarge, "items")
        );
        assert!(b.text(6, "a").is_ok());
        assert!(b.text(4, "b").is_ok());
        assert_eq!(b.text_bytes(), 10);
        assert_eq!(b.text(1, "c").unwrap_err().field, "c");
    }

    #[test]
    fn limits_from_partial_json() {
        let l: Limits = serde_json::from_str(r#"{"maxTotalEntries": 7}"#).unwrap();
        assert_eq!(
            l,
            Limits {
                max_total_entries: 7,
                ..Default::default()
            }
        );
        assert!(serde_json::from_str::<Limits>(r#"{"maxEntries": 7}"#).is_err());
    }

    #[test]
    fn entry_budgets_and_partial_limits() {
        let of = |f: &str| Limits::defaults_for(f).unwrap();
        assert_eq!(of("rrf").max_total_entries, 500_000);
        assert_eq!(of("rerank").max_total_entries, 50_000);
        assert_eq!(of("fitPlatt"), Limits::default());
        assert_eq!(of("Pipeline"), pipeline_limits());
        for f in LimitedFunction::ALL {
            assert_eq!(LimitedFunction::from_name(f.name()), Some(f));
            assert_eq!(Limits::of(f), of(f.name()));
        }
        assert_eq!(
            LimitedFunction::ALL.map(LimitedFunction::name),
            LIMITED_FUNCTIONS
        );
        for (f, n) in ENTRY_BUDGETS {
            assert!(n <= Limits::CEILING.max_total_entries);
            assert!(
                LIMITED_FUNCTIONS.contains(&f.name()),
                "{f:?} has a budget but takes no limits"
            );
            assert_eq!(of(f.name()).max_total_entries, n);
        }
        // A name that takes no limits (or a misspelled one) is refused, not given the
        // common defaults.
        for name in ["pipeline", "toString", "", "rrf "] {
            let e = Limits::defaults_for(name).unwrap_err();
            assert_eq!(
                (e.code, e.field.as_str()),
                (ErrorCode::UnknownMethod, "function")
            );
        }
        let given: PartialLimits = serde_json::from_str(r#"{"maxLists": 3}"#).unwrap();
        let l = given.over(of("Pipeline"));
        assert_eq!((l.max_lists, l.max_total_entries), (3, 400_000));
        let cfg: crate::pipeline::PipelineConfig =
            serde_json::from_str(r#"{"limits": {"maxTextBytes": 10}}"#).unwrap();
        assert_eq!(
            (cfg.limits.max_text_bytes, cfg.limits.max_total_entries),
            (10, 400_000)
        );
        assert_eq!(
            crate::pipeline::PipelineConfig::default()
                .limits
                .max_total_entries,
            400_000
        );
        assert!(serde_json::from_str::<PartialLimits>(r#"{"maxEntries": 7}"#).is_err());
    }
}
