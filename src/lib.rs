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
pub mod fuse;
pub mod limits;
pub mod multiquery;
pub mod normalize;
pub mod pipeline;
pub mod recency;
pub mod rerank;
pub mod sort;
pub mod timestamp;

#[doc(hidden)]
pub mod golden;

pub mod lab;

pub use error::{ErrorCode, Result, ScoreError};
