//! Stage 2: recency boosts, both multiplicative.
//!
//! * **Step boost** (by age): an item modified less than 7 days before `now` gets x1.2,
//!   less than 30 days x1.1, otherwise x1.0. The steps are configurable; the first step
//!   whose `maxAgeDays` exceeds the age wins. An item modified after `now` has age 0
//!   (it counts as fresh). An item without a modification time gets x1.0.
//! * **Fiscal-year tier**: with `delta = latestYear - fiscalYear`, an item inside the
//!   window (`0 <= delta < window`) has `tier = (window - delta) / window` and is
//!   multiplied by `1 + boost * tier`; older items get x1.0. A fiscal year after
//!   `latestYear` counts as `latestYear` (tier 1). Defaults: window 5, boost 0.80,
//!   latest year 2025. The same tier applies at the merge stage and, with its own boost,
//!   after reranking.

use crate::error::{ErrorCode, Result, ScoreError};
use crate::timestamp::MS_PER_DAY;
use serde::{Deserialize, Serialize};

/// One age step of the step boost.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RecencyStep {
    /// Items strictly younger than this many days get `multiplier`.
    pub max_age_days: f64,
    /// The multiplier (> 0).
    pub multiplier: f64,
}

/// The default steps: x1.2 under 7 days, x1.1 under 30 days.
pub fn default_steps() -> Vec<RecencyStep> {
    vec![
        RecencyStep {
            max_age_days: 7.0,
            multiplier: 1.2,
        },
        RecencyStep {
            max_age_days: 30.0,
            multiplier: 1.1,
        },
    ]
}

/// Validates steps: finite, positive multipliers, ages > 0 and strictly increasing.
pub fn validate_steps(steps: &[RecencyStep], field: &str) -> Result<()> {
    let mut prev = 0.0;
    for (i, s) in steps.iter().enumerate() {
        if !(s.max_age_days.is_finite() && s.max_age_days > prev) {
            return Err(ScoreError::new(
                ErrorCode::InvalidConfig,
                format!("{field}[{i}].maxAgeDays"),
                format!(
                    "must be finite, > 0 and greater than the previous step's, got {}",
                    crate::error::num(s.max_age_days)
                ),
            ));
        }
        if !(s.multiplier.is_finite() && s.multiplier > 0.0) {
            return Err(ScoreError::new(
                ErrorCode::InvalidConfig,
                format!("{field}[{i}].multiplier"),
                format!(
                    "must be a finite number > 0, got {}",
                    crate::error::num(s.multiplier)
                ),
            ));
        }
        prev = s.max_age_days;
    }
    Ok(())
}

/// Age in days of an item modified at `modified_ms`, seen at `now_ms` (never negative).
pub fn age_days(modified_ms: f64, now_ms: f64) -> f64 {
    crate::float::max((now_ms - modified_ms) / MS_PER_DAY, 0.0)
}

/// The step multiplier for an item of the given age: the first step whose `maxAgeDays`
/// exceeds it (1 past the last), found by bisection. The steps must be as
/// [`validate_steps`] accepts them (ages strictly increasing, as every caller in this crate
/// checks first); for others the result is unspecified (some step whose age exceeds the
/// item's, or 1). A configuration at its bound holds about 190,000 steps: scanned one by
/// one for each of 10,000 items, about two billion comparisons; bisected, the run takes
/// about 20 ms (`bench/limits.mjs --only "Pipeline.run, recency steps"`). (Written out
/// rather than `partition_point`, 12 B smaller gzipped in calibrank_pipeline.wasm.)
pub fn step_multiplier(steps: &[RecencyStep], age_days: f64) -> f64 {
    // Invariant: the steps before `lo` end at or before the age, those from `hi` on
    // after it (`age < max`, which no NaN age is: 1, as a scan gives), and `found` is
    // step `hi`'s multiplier (1 while `hi` is past the last).
    let (mut lo, mut hi) = (0, steps.len());
    let mut found = 1.0;
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let Some(s) = steps.get(mid) else { break };
        if age_days < s.max_age_days {
            found = s.multiplier;
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    found
}

/// Parameters of the fiscal-year tier.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct FiscalYearTier {
    /// Recent window in years (default 5, >= 1).
    pub window: u32,
    /// The corpus's latest fiscal year (default 2025).
    pub latest_year: i32,
}

impl Default for FiscalYearTier {
    fn default() -> Self {
        FiscalYearTier {
            window: 5,
            latest_year: 2025,
        }
    }
}

impl FiscalYearTier {
    /// Validates the window.
    pub fn validate(&self, field: &str) -> Result<()> {
        if self.window >= 1 {
            Ok(())
        } else {
            Err(ScoreError::new(
                ErrorCode::InvalidConfig,
                format!("{field}.window"),
                "window must be >= 1 year, got 0",
            ))
        }
    }

    /// `tier = (window - delta) / window` for `0 <= delta < window`, else 0.
    pub fn tier(&self, fiscal_year: i32) -> f64 {
        let delta = (i64::from(self.latest_year) - i64::from(fiscal_year)).max(0);
        let window = i64::from(self.window);
        if delta < window {
            (window - delta) as f64 / window as f64
        } else {
            0.0
        }
    }

    /// The multiplier `1 + boost * tier`.
    pub fn multiplier(&self, fiscal_year: i32, boost: f64) -> f64 {
        1.0 + boost * self.tier(fiscal_year)
    }
}

/// Validates a tier boost: finite and >= 0.
pub fn validate_boost(boost: f64, field: &str) -> Result<()> {
    if boost.is_finite() && boost >= 0.0 {
        Ok(())
    } else {
        Err(ScoreError::new(
            ErrorCode::InvalidConfig,
            field,
            format!(
                "boost must be a finite number >= 0, got {}",
                crate::error::num(boost)
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn seed_000_steps() {
        let steps = default_steps();
        assert_eq!(step_multiplier(&steps, 5.0), 1.2);
        assert_eq!(step_multiplier(&steps, 6.999), 1.2);
        assert_eq!(step_multiplier(&steps, 7.0), 1.1);
        assert_eq!(step_multiplier(&steps, 29.9), 1.1);
        assert_eq!(step_multiplier(&steps, 30.0), 1.0);
        assert_eq!(step_multiplier(&steps, 60.0), 1.0);
        assert_eq!(step_multiplier(&[], 0.0), 1.0);
    }

    proptest! {
        /// The bisection gives the step a scan of the steps finds, at any age (each
        /// step's own age, the ages between, past the last; NaN and infinities too).
        #[test]
        fn bisection_is_the_scan(
            gaps in prop::collection::vec(1e-9f64..1e4, 0..40),
            probes in prop::collection::vec(-10.0f64..4e5, 1..20),
        ) {
            let mut age = 0.0;
            let steps: Vec<RecencyStep> = gaps
                .iter()
                .enumerate()
                .map(|(i, g)| {
                    age += g;
                    RecencyStep { max_age_days: age, multiplier: 1.0 + i as f64 }
                })
                .collect();
            validate_steps(&steps, "steps").unwrap();
            let scan = |a: f64| steps.iter().find(|s| a < s.max_age_days).map_or(1.0, |s| s.multiplier);
            let edges = steps.iter().map(|s| s.max_age_days);
            for a in probes.into_iter().chain(edges).chain([f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0, -0.0]) {
                prop_assert_eq!(step_multiplier(&steps, a).to_bits(), scan(a).to_bits(), "age {}", a);
            }
        }
    }

    #[test]
    fn age_never_negative() {
        assert_eq!(age_days(10.0 * MS_PER_DAY, 15.0 * MS_PER_DAY), 5.0);
        assert_eq!(age_days(20.0 * MS_PER_DAY, 15.0 * MS_PER_DAY), 0.0);
    }

    #[test]
    fn seed_004_tier_table() {
        let t = FiscalYearTier::default();
        let table = [
            (2025, 1.0, 0.80),
            (2024, 0.8, 0.64),
            (2023, 0.6, 0.48),
            (2022, 0.4, 0.32),
            (2021, 0.2, 0.16),
        ];
        for (fy, tier, boost) in table {
            assert!((t.tier(fy) - tier).abs() < 1e-15, "{fy}");
            assert!(
                (t.multiplier(fy, 0.80) - (1.0 + boost)).abs() < 1e-15,
                "{fy}"
            );
        }
        assert_eq!(t.tier(2020), 0.0);
        assert_eq!(t.tier(1990), 0.0);
        assert_eq!(t.tier(2030), 1.0);
        assert_eq!(t.multiplier(2020, 0.8), 1.0);
    }

    #[test]
    fn seed_004_merge_example() {
        // Dense rank 3 + sparse rank 9 = 0.0304; FY2025 (tier 1) with the merge boost
        // 0.80: 0.0304 x 1.8 = 0.0547. Through the pipeline's fusion and recency.
        use crate::pipeline::{InputList, ItemMeta, Pipeline, PipelineConfig, PipelineInput};
        use crate::pipeline::{RecencyConfig, RecencyMode};
        let list = |name: &str, at: usize| InputList {
            name: name.into(),
            ids: (1..=10)
                .map(|r| {
                    if r == at {
                        "doc".into()
                    } else {
                        format!("{name}{r}")
                    }
                })
                .collect(),
            ..Default::default()
        };
        let cfg = PipelineConfig {
            recency: RecencyConfig {
                mode: RecencyMode::FiscalYear,
                ..Default::default()
            },
            min_confidence: 0.0,
            ..Default::default()
        };
        let input = PipelineInput {
            lists: vec![list("dense", 3), list("sparse", 9)],
            items: [(
                "doc".to_string(),
                ItemMeta {
                    fiscal_year: Some(2025),
                    ..Default::default()
                },
            )]
            .into(),
            ..Default::default()
        };
        let out = Pipeline::new(cfg).unwrap().run(&input).unwrap();
        let e = out.results[0].explain.as_ref().unwrap();
        assert_eq!(out.results[0].id, "doc");
        assert!((e.fused - 0.0304).abs() < 5e-5, "{}", e.fused);
        assert_eq!(e.recency_multiplier, 1.8);
        assert!(
            (e.after_recency - 0.0547).abs() < 5e-5,
            "{}",
            e.after_recency
        );
    }

    #[test]
    fn validation() {
        assert!(validate_steps(&default_steps(), "s").is_ok());
        let bad = [
            RecencyStep {
                max_age_days: 30.0,
                multiplier: 1.1,
            },
            RecencyStep {
                max_age_days: 7.0,
                multiplier: 1.2,
            },
        ];
        assert_eq!(
            validate_steps(&bad, "recency.steps").unwrap_err().field,
            "recency.steps[1].maxAgeDays"
        );
        let bad = [RecencyStep {
            max_age_days: 7.0,
            multiplier: f64::NAN,
        }];
        assert_eq!(
            validate_steps(&bad, "s").unwrap_err().field,
            "s[0].multiplier"
        );
        assert!(FiscalYearTier {
            window: 0,
            latest_year: 2025
        }
        .validate("fy")
        .is_err());
        assert!(validate_boost(-0.1, "b").is_err());
    }

    #[test]
    fn steps_must_be_positive_and_strictly_increasing() {
        let s = |d: f64, m: f64| RecencyStep {
            max_age_days: d,
            multiplier: m,
        };
        // Two steps with the same age: the second could never apply.
        let e = validate_steps(&[s(7.0, 1.2), s(7.0, 1.1)], "recency.steps").unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidConfig);
        assert_eq!(e.field, "recency.steps[1].maxAgeDays");
        // A first step at 0 days: no age (>= 0) is below it.
        let e = validate_steps(&[s(0.0, 1.2)], "recency.steps").unwrap_err();
        assert_eq!(e.field, "recency.steps[0].maxAgeDays");
    }

    /// Steps as the seed's: ages increasing, multipliers >= 1 falling with age (the
    /// seed's own, or others).
    fn falling_steps() -> impl Strategy<Value = Vec<RecencyStep>> {
        prop_oneof![
            Just(default_steps()),
            prop::collection::vec((0.01f64..40.0, 1.0f64..5.0), 0..5).prop_map(|v| {
                let mut multipliers: Vec<f64> = v.iter().map(|s| s.1).collect();
                multipliers.sort_by(|a, b| b.total_cmp(a));
                let mut age = 0.0;
                v.iter()
                    .zip(multipliers)
                    .map(|(s, multiplier)| {
                        age += s.0;
                        RecencyStep {
                            max_age_days: age,
                            multiplier,
                        }
                    })
                    .collect()
            }),
        ]
    }

    proptest! {
        /// Seed 000's step boost: an item modified earlier is never younger, and an
        /// older item never gets a larger multiplier (steps falling with age, >= 1),
        /// which lies in [1, the first step's]; ages on whole days and at the steps'
        /// edges too.
        #[test]
        fn an_older_item_never_gets_a_larger_step(
            steps in falling_steps(),
            now in -1e13f64..1e13,
            a in prop_oneof![-10.0f64..60.0, (-10i32..60).prop_map(f64::from), Just(7.0), Just(30.0)],
            b in prop_oneof![-10.0f64..60.0, (-10i32..60).prop_map(f64::from), Just(7.0), Just(30.0)],
        ) {
            prop_assert!(validate_steps(&steps, "steps").is_ok(), "{:?}", steps);
            // Modified a and b days before now; `older` the earlier.
            let (young, old) = if a <= b { (a, b) } else { (b, a) };
            let young_age = age_days(now - young * MS_PER_DAY, now);
            let old_age = age_days(now - old * MS_PER_DAY, now);
            prop_assert!(young_age <= old_age, "{} days > {} days", young_age, old_age);
            prop_assert!(young_age >= 0.0);
            let (m_young, m_old) = (step_multiplier(&steps, young_age), step_multiplier(&steps, old_age));
            prop_assert!(m_old <= m_young, "{:?}: {} days x{} > {} days x{}", steps, old_age, m_old, young_age, m_young);
            let top = steps.first().map_or(1.0, |s| s.multiplier);
            prop_assert!((1.0..=top).contains(&m_old) && (1.0..=top).contains(&m_young));
        }

        /// Seed 004's tier: `(window - delta) / window` inside the window, so 1 for the
        /// latest year (and later ones), at least 1/window for the oldest year inside,
        /// 0 outside; never larger for an earlier year; the multiplier in [1, 1 + boost].
        /// Any window, latest year and fiscal year, the extremes of i32 included.
        #[test]
        fn an_earlier_fiscal_year_never_gets_a_larger_tier(
            window in prop_oneof![1u32..10, any::<u32>().prop_map(|w| w.max(1))],
            latest_year in prop_oneof![1990i32..2040, any::<i32>()],
            a in prop_oneof![1980i32..2050, any::<i32>(), Just(i32::MIN), Just(i32::MAX)],
            b in prop_oneof![1980i32..2050, any::<i32>()],
            boost in 0.0f64..4.0,
        ) {
            let t = FiscalYearTier { window, latest_year };
            prop_assert!(t.validate("fy").is_ok());
            for fy in [a, b] {
                let tier = t.tier(fy);
                let delta = i64::from(latest_year) - i64::from(fy);
                if delta <= 0 {
                    prop_assert_eq!(tier, 1.0);
                } else if delta < i64::from(window) {
                    prop_assert!(tier >= 1.0 / f64::from(window) && tier < 1.0, "{}: tier {}", fy, tier);
                } else {
                    prop_assert_eq!(tier, 0.0);
                }
                let m = t.multiplier(fy, boost);
                prop_assert!((1.0..=1.0 + boost).contains(&m), "{}: x{}", fy, m);
            }
            let (earlier, later) = if a <= b { (a, b) } else { (b, a) };
            prop_assert!(t.tier(earlier) <= t.tier(later));
            prop_assert!(t.multiplier(earlier, boost) <= t.multiplier(later, boost));
        }
    }
}
