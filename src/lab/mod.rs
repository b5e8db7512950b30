//! The lab: tools that evaluate and tune the scoring core offline, against relevance
//! judgements, rather than score results at query time.
//!
//! * [`runs`]: TREC-style runs and judgements;
//! * [`eval`]: the metrics of ranx, value for value;
//! * [`runfusion`]: fusion of whole runs by every ranx fusion method;
//! * [`optimize`]: grid search of a fusion method's weights and parameters;
//! * [`fit`]: Platt scaling and isotonic regression fitted from judgements (the models
//!   they return, [`crate::calibrate::PlattModel`] and
//!   [`crate::calibrate::IsotonicModel`], are the core's), calibration error and band
//!   floors chosen from evidence.
//!
//! The lab uses the core; no core module uses the lab.

pub mod eval;
pub mod fit;
pub mod optimize;
pub mod runfusion;
pub mod runs;

#[doc(hidden)]
pub mod golden;
