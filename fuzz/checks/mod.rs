//! The checks behind every fuzz target, shared by the cargo-fuzz targets (`fuzz/`, nightly)
//! and by the stable regression test `tests/fuzz_regression.rs`, which replays the saved
//! corpus (`fuzz/corpus/<target>/`) and the crash reproducers (`fuzz/regressions/<target>/`)
//! through the same functions.
//!
//! Each target decodes its bytes itself ([`Bytes`]: no `arbitrary`, so that the stable test
//! needs no extra dependency), biased towards the values that break numeric code: NaN, the
//! infinities, -0.0, subnormals, `f64::MAX`, huge counts (`u32::MAX`, `usize::MAX`) and
//! over-long ids and texts. Every call must either succeed and satisfy the documented
//! invariants of its output, or fail with a [`ScoreError`] whose code is one the function
//! documents (never `INTERNAL`) and whose message is not empty. A panic is a failure.
//!
//! The reading of bytes (`bytes.rs`), the assertions every target shares (`expect.rs`) and
//! the generators of configurations and inputs (`generate.rs`) serve the targets' files:
//! `pipeline.rs`, `fusion.rs`, `eval.rs`, `fit.rs`, `stages.rs`.

mod bytes;
mod eval;
mod expect;
mod fit;
mod fusion;
mod generate;
mod pipeline;
mod stages;

pub use eval::*;
pub use fit::*;
pub use fusion::*;
pub use pipeline::*;
pub use stages::*;

/// One target's check.
pub type Check = fn(&[u8]);

/// Every target: its name (the directory of its corpus) and its check.
pub const TARGETS: &[(&str, Check)] = &[
    ("config_json", config_json),
    ("pipeline", pipeline),
    ("columnar", columnar),
    ("rrf", rrf_strings),
    ("rrf_indexed", rrf_indices),
    ("multiquery", multiquery),
    ("runfusion", runfusion),
    ("optimize", optimize),
    ("eval_parse", eval_parse),
    ("evaluate", evaluate_metrics),
    ("fit", fit),
    ("stages", stages),
];
