//! # calibrank
//!
//! Client-side scoring for retrieval results. The module tree reads like the pipeline:
//!
//! 1. [`fuse`]: weighted Reciprocal Rank Fusion of N ranked lists, and
//!    [`multiquery`]: fusion of the hits of several queries;
//! 2. [`recency`]: step and fiscal-year recency boosts;
//! 3. [`rerank`]: the heuristic multiplicative reranker and cross-encoder scores;
//! 4. [`normalize`]: max, min-max, z-score and softmax normalization;
//! 5. [`calibrate`]: the sigmoid that turns raw scores into 0-1 confidences, and the
//!    application of fitted Platt and isotonic calibrations;
//! 6. [`bands`]: hit / degraded / miss classification with named profiles;
//! 7. [`confidence`]: query-level confidence figures;
//! 8. [`pipeline`]: all of the above behind one validated configuration, with an
//!    explanation of every stage for every result.
//!
//! Beside the core, [`lab`] holds the tools that evaluate and tune it offline, against
//! relevance judgements: [`lab::runs`] (TREC runs and judgements), [`lab::eval`]
//! (ranx-compatible metrics), [`lab::runfusion`] (every ranx fusion method),
//! [`lab::optimize`] (fusion tuning) and [`lab::fit`] (Platt scaling and isotonic
//! regression fitted from judgements, calibration error, evidence-based bands). The lab
//! depends on the core, never the reverse: a calibration fitted in the lab is a
//! [`calibrate::PlattModel`] or [`calibrate::IsotonicModel`], which the core applies.
//!
//! The core knows nothing of WebAssembly; the JavaScript bindings live outside this
//! crate (`wasm/`). No public function panics: every bad input is a [`ScoreError`] with
//! a stable [`ErrorCode`].
//!
//! # Example
//!
//! A pipeline from a JSON configuration (the npm package's `PipelineConfig`; read through
//! [`error::from_json`], whose errors name the field's path), run on three lists:
//!
//! ```
//! use calibrank::error::from_json;
//! use calibrank::pipeline::{InputList, Pipeline, PipelineConfig, PipelineInput};
//!
//! let config: PipelineConfig = from_json(r#"{ "topN": 3, "minConfidence": 0 }"#, "config")?;
//! let pipeline = Pipeline::new(config)?;
//! let list = |name: &str, ids: &[&str]| InputList {
//!     name: name.into(),
//!     ids: ids.iter().map(|s| s.to_string()).collect(),
//!     scores: None,
//!     weight: None,
//! };
//! let out = pipeline.run(&PipelineInput {
//!     query: "How do I configure authentication?".into(),
//!     lists: vec![
//!         list("semantic", &["auth.md#L45", "api.md#L120", "oauth.md#L10"]),
//!         list("keyword", &["api.md#L120", "oauth.md#L10", "auth.md#L45"]),
//!     ],
//!     ..Default::default()
//! })?;
//! // api.md#L120 (ranks 2 and 1) beats auth.md#L45 (ranks 1 and 3): 1/62 + 1/61 > 1/61 + 1/63.
//! assert_eq!(out.results[0].id, "api.md#L120");
//! assert!(out.results.iter().all(|r| (0.0..=1.0).contains(&r.score)));
//! // A misspelled field is refused with its path.
//! let e = from_json::<PipelineConfig>(r#"{ "recency": { "fiscalYear": { "windw": 3 } } }"#, "config")
//!     .unwrap_err();
//! assert_eq!(e.field, "config.recency.fiscalYear.windw");
//! # Ok::<(), calibrank::ScoreError>(())
//! ```
//!
//! `cargo run --example demo` prints every stage of seed 000's sample query.
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

pub mod error;

pub mod bands;
pub mod calibrate;
pub mod confidence;
#[doc(hidden)]
pub mod decimal;
mod float;
pub mod fuse;
#[doc(hidden)]
pub mod intern;
pub mod limits;
pub mod multiquery;
pub mod normalize;
pub mod pipeline;
pub mod recency;
pub mod rerank;
#[doc(hidden)]
pub mod sort;
pub mod timestamp;

#[doc(hidden)]
pub mod golden;

pub mod lab;

pub use error::{ErrorCode, Result, ScoreError};
