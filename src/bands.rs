//! Stage 6: bands. A calibrated score is a confident **hit** (`score >= highFloor`),
//! a **degraded** near-match (`degradedFloor <= score < highFloor`) or a **miss**.
//! Defaults: `highFloor = 0.85`, `degradedFloor = 0.65`; valid floors satisfy
//! `0 <= degradedFloor <= highFloor <= 1`.
//!
//! Named **profiles** carry their own floors for a `(taskClass, language,
//! buildSystem)` context. A profile matches when every field it sets equals the
//! context's; among matching profiles the most specific (most fields set) wins, ties
//! going to the one listed first; with no match the top-level floors apply.

use crate::error::{ErrorCode, Result, ScoreError};
use serde::{Deserialize, Serialize};

/// The three bands, ordered `Miss < Degraded < Hit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Band {
    /// Below the degraded floor.
    Miss,
    /// Between the floors: use with caution.
    Degraded,
    /// At or above the high floor.
    Hit,
}

/// A classified retrieval outcome; `item` is the result id where there is one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum RetrievalOutcome {
    /// A confident hit.
    Hit {
        /// The result id, when classifying a result.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        item: Option<String>,
        /// Its score.
        score: f64,
    },
    /// A near-match.
    Degraded {
        /// The result id, when classifying a result.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        item: Option<String>,
        /// Its score.
        score: f64,
    },
    /// Nothing usable.
    Miss,
}

impl RetrievalOutcome {
    /// The band of this outcome.
    pub fn band(&self) -> Band {
        match self {
            RetrievalOutcome::Hit { .. } => Band::Hit,
            RetrievalOutcome::Degraded { .. } => Band::Degraded,
            RetrievalOutcome::Miss => Band::Miss,
        }
    }
}

/// Two band floors.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct BandFloors {
    /// Lowest score of a hit (default 0.85).
    pub high_floor: f64,
    /// Lowest score of a degraded result (default 0.65).
    pub degraded_floor: f64,
}

impl Default for BandFloors {
    fn default() -> Self {
        BandFloors {
            high_floor: 0.85,
            degraded_floor: 0.65,
        }
    }
}

impl BandFloors {
    /// `0 <= degradedFloor <= highFloor <= 1`, both finite. Floors out of order are an
    /// error on `degradedFloor`: these floors do not say which one a caller left at its
    /// default. The package's JavaScript, which reads what was given, puts the error of a
    /// floor given alone on that floor (js/core/typed-config.js `givenFault`).
    pub fn validate(&self) -> Result<()> {
        let ok = |v: f64| v.is_finite() && (0.0..=1.0).contains(&v);
        if !ok(self.high_floor) {
            return Err(ScoreError::new(
                ErrorCode::InvalidBands,
                "highFloor",
                format!(
                    "must be within [0, 1], got {}",
                    crate::error::num(self.high_floor)
                ),
            ));
        }
        if !ok(self.degraded_floor) {
            return Err(ScoreError::new(
                ErrorCode::InvalidBands,
                "degradedFloor",
                format!(
                    "must be within [0, 1], got {}",
                    crate::error::num(self.degraded_floor)
                ),
            ));
        }
        if self.degraded_floor > self.high_floor {
            return Err(ScoreError::new(
                ErrorCode::InvalidBands,
                "degradedFloor",
                format!(
                    "degradedFloor {} exceeds highFloor {}",
                    crate::error::num(self.degraded_floor),
                    crate::error::num(self.high_floor)
                ),
            ));
        }
        Ok(())
    }

    /// The band of a score (assumes valid floors; NaN is a miss).
    pub fn band(&self, score: f64) -> Band {
        if score >= self.high_floor {
            Band::Hit
        } else if score >= self.degraded_floor {
            Band::Degraded
        } else {
            Band::Miss
        }
    }

    /// Classifies `score`, validating the floors and the score.
    pub fn classify(&self, score: f64, item: Option<String>) -> Result<RetrievalOutcome> {
        self.validate()?;
        crate::error::finite(score, || "score".into())?;
        // A calibrated confidence or a cosine similarity (seed 002's score: below 0 is a
        // miss); a raw score above 1 would read as a sure hit, so it is refused.
        if !(-1.0..=1.0).contains(&score) {
            return Err(ScoreError::new(
                ErrorCode::OutOfRange,
                "score",
                format!(
                    "bands classify a confidence or a cosine similarity, within [-1, 1], got {}",
                    crate::error::num(score)
                ),
            ));
        }
        Ok(match self.band(score) {
            Band::Hit => RetrievalOutcome::Hit { item, score },
            Band::Degraded => RetrievalOutcome::Degraded { item, score },
            Band::Miss => RetrievalOutcome::Miss,
        })
    }
}

/// Floors for one `(taskClass, language, buildSystem)` context.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BandProfile {
    /// Name, reported in explanations.
    pub name: String,
    /// Task class this profile is for (unset: any).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_class: Option<String>,
    /// Language (unset: any).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Build system (unset: any).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build_system: Option<String>,
    /// Lowest score of a hit.
    pub high_floor: f64,
    /// Lowest score of a degraded result.
    pub degraded_floor: f64,
}

/// The context a result set is classified in.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BandContext {
    /// Task class.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_class: Option<String>,
    /// Language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Build system.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build_system: Option<String>,
}

impl BandProfile {
    fn floors(&self) -> BandFloors {
        BandFloors {
            high_floor: self.high_floor,
            degraded_floor: self.degraded_floor,
        }
    }

    /// `Some(specificity)` when every set field equals the context's.
    fn specificity(&self, ctx: &BandContext) -> Option<u8> {
        let field = |p: &Option<String>, c: &Option<String>| match (p, c) {
            (None, _) => Some(0),
            (Some(a), Some(b)) if a == b => Some(1),
            _ => None,
        };
        Some(
            field(&self.task_class, &ctx.task_class)?
                + field(&self.language, &ctx.language)?
                + field(&self.build_system, &ctx.build_system)?,
        )
    }
}

/// The most band profiles a configuration holds: each name is compared with the names
/// before it (1,000 profiles take half a million comparisons; 100,000, five billion: a
/// review measured 24 s before this bound).
pub const MAX_PROFILES: usize = 1000;

/// Validates profiles: at most [`MAX_PROFILES`] (`INPUT_TOO_LARGE`), floors valid, names
/// unique and non-empty.
pub fn validate_profiles(profiles: &[BandProfile]) -> Result<()> {
    if profiles.len() > MAX_PROFILES {
        return Err(ScoreError::new(
            ErrorCode::InputTooLarge,
            "profiles",
            "more than 1000 band profiles",
        ));
    }
    for (i, p) in profiles.iter().enumerate() {
        if p.name.is_empty() {
            return Err(ScoreError::new(
                ErrorCode::InvalidBands,
                format!("profiles[{i}].name"),
                "profile name must not be empty",
            ));
        }
        if profiles.iter().take(i).any(|q| q.name == p.name) {
            return Err(ScoreError::new(
                ErrorCode::InvalidBands,
                format!("profiles[{i}].name"),
                format!("profile name {} is used twice", crate::error::name(&p.name)),
            ));
        }
        p.floors()
            .validate()
            .map_err(|e| e.within(&format!("profiles[{i}]")))?;
    }
    Ok(())
}

/// The floors for `ctx`: the most specific matching profile's, else `default`.
/// Returns the floors and the chosen profile's name.
pub fn select_floors<'a>(
    default: BandFloors,
    profiles: &'a [BandProfile],
    ctx: &BandContext,
) -> (BandFloors, Option<&'a str>) {
    let mut best: Option<(u8, &BandProfile)> = None;
    for p in profiles {
        if let Some(s) = p.specificity(ctx) {
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, p));
            }
        }
    }
    match best {
        Some((_, p)) => (p.floors(), Some(p.name.as_str())),
        None => (default, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn seed_002_examples() {
        let f = BandFloors::default();
        assert_eq!(
            f.classify(0.95, None).unwrap(),
            RetrievalOutcome::Hit {
                item: None,
                score: 0.95
            }
        );
        assert_eq!(
            f.classify(0.75, None).unwrap(),
            RetrievalOutcome::Degraded {
                item: None,
                score: 0.75
            }
        );
        assert_eq!(f.classify(0.40, None).unwrap(), RetrievalOutcome::Miss);
        assert_eq!(f.band(0.85), Band::Hit);
        assert_eq!(f.band(0.65), Band::Degraded);
        assert_eq!(f.band(0.6499), Band::Miss);
    }

    #[test]
    fn outcome_json_is_tagged_by_kind() {
        let hit = BandFloors::default()
            .classify(0.9, Some("doc".into()))
            .unwrap();
        assert_eq!(
            serde_json::to_string(&hit).unwrap(),
            r#"{"kind":"hit","item":"doc","score":0.9}"#
        );
        assert_eq!(
            serde_json::to_string(&RetrievalOutcome::Miss).unwrap(),
            r#"{"kind":"miss"}"#
        );
    }

    #[test]
    fn floors_are_validated() {
        let bad = BandFloors {
            high_floor: 0.6,
            degraded_floor: 0.7,
        };
        let e = bad.classify(0.5, None).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InvalidBands, "degradedFloor")
        );
        // Both floors as given, no word of defaults: which floor a caller left out is
        // the package's JavaScript's to say (suite/errors.js "a floor given alone ...").
        assert_eq!(e.message, "degradedFloor 0.7 exceeds highFloor 0.6");
        assert!(BandFloors {
            high_floor: 1.1,
            degraded_floor: 0.5
        }
        .validate()
        .is_err());
        assert!(BandFloors {
            high_floor: f64::NAN,
            degraded_floor: 0.5
        }
        .validate()
        .is_err());
        assert!(BandFloors {
            high_floor: 0.5,
            degraded_floor: 0.5
        }
        .validate()
        .is_ok());
        assert_eq!(
            BandFloors::default()
                .classify(f64::NAN, None)
                .unwrap_err()
                .code,
            ErrorCode::NonFiniteScore
        );
        for v in [1.5, -1.5, 1.0 + f64::EPSILON, -1.0 - f64::EPSILON] {
            let e = BandFloors::default().classify(v, None).unwrap_err();
            assert_eq!((e.code, e.field.as_str()), (ErrorCode::OutOfRange, "score"));
        }
        // A negative cosine similarity is a miss (seed 002: below the degraded floor).
        for v in [-0.1, -1.0, -0.0] {
            assert_eq!(
                BandFloors::default().classify(v, None).unwrap(),
                RetrievalOutcome::Miss
            );
        }
        assert_eq!(
            BandFloors::default().classify(1.0, None).unwrap(),
            RetrievalOutcome::Hit {
                item: None,
                score: 1.0
            }
        );
    }

    fn profile(
        name: &str,
        t: Option<&str>,
        l: Option<&str>,
        b: Option<&str>,
        hi: f64,
    ) -> BandProfile {
        BandProfile {
            name: name.into(),
            task_class: t.map(Into::into),
            language: l.map(Into::into),
            build_system: b.map(Into::into),
            high_floor: hi,
            degraded_floor: 0.5,
        }
    }

    #[test]
    fn at_most_a_thousand_profiles() {
        let many = |n: usize| -> Vec<BandProfile> {
            (0..n)
                .map(|i| profile(&format!("p{i}"), None, Some("x"), None, 0.8))
                .collect()
        };
        assert!(validate_profiles(&many(MAX_PROFILES)).is_ok());
        let e = validate_profiles(&many(MAX_PROFILES + 1)).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InputTooLarge, "profiles")
        );
        assert!(
            e.message.contains(&MAX_PROFILES.to_string()),
            "{}",
            e.message
        );
    }

    #[test]
    fn most_specific_profile_wins() {
        let profiles = vec![
            profile("rust", None, Some("rust"), None, 0.8),
            profile(
                "rust-cargo-fix",
                Some("fix"),
                Some("rust"),
                Some("cargo"),
                0.95,
            ),
            profile("fix", Some("fix"), None, None, 0.9),
            profile("rust-2", None, Some("rust"), None, 0.7),
        ];
        let ctx = |t: Option<&str>, l: Option<&str>, b: Option<&str>| BandContext {
            task_class: t.map(Into::into),
            language: l.map(Into::into),
            build_system: b.map(Into::into),
        };
        let d = BandFloors::default();
        assert_eq!(
            select_floors(d, &profiles, &ctx(Some("fix"), Some("rust"), Some("cargo"))).1,
            Some("rust-cargo-fix")
        );
        // rust (1 field) vs fix (1 field): the first listed wins.
        assert_eq!(
            select_floors(d, &profiles, &ctx(Some("fix"), Some("rust"), Some("bazel"))).1,
            Some("rust")
        );
        assert_eq!(
            select_floors(d, &profiles, &ctx(Some("fix"), Some("go"), None)).1,
            Some("fix")
        );
        let (floors, name) = select_floors(d, &profiles, &ctx(None, Some("go"), None));
        assert_eq!((floors, name), (d, None));
        assert!(validate_profiles(&profiles).is_ok());
        let dup = vec![
            profile("a", None, None, None, 0.8),
            profile("a", None, None, None, 0.8),
        ];
        assert_eq!(
            validate_profiles(&dup).unwrap_err().field,
            "profiles[1].name"
        );
        let bad = vec![profile("a", None, None, None, 0.3)];
        assert_eq!(
            validate_profiles(&bad).unwrap_err().field,
            "profiles[0].degradedFloor"
        );
    }

    proptest! {
        #[test]
        fn higher_score_never_gets_lower_band(
            a in -1.0f64..=1.0,
            b in -1.0f64..=1.0,
            x in prop_oneof![0.0f64..=1.0, prop::sample::select(vec![0.0, 0.65, 0.85, 1.0])],
            y in prop_oneof![0.0f64..=1.0, prop::sample::select(vec![0.0, 0.65, 0.85, 1.0])],
            // Which scores are replaced by a floor exactly: 0 none, 1 the lower score,
            // 2 the higher, 3 both (each with the floor `at_high` names).
            exact in 0u8..4,
            at_high in any::<(bool, bool)>(),
        ) {
            let (lo, hi) = if x <= y { (x, y) } else { (y, x) };
            let floors = BandFloors { high_floor: hi, degraded_floor: lo };
            let floor = |high: bool| if high { hi } else { lo };
            let a = if exact & 1 != 0 { floor(at_high.0) } else { a };
            let b = if exact & 2 != 0 { floor(at_high.1) } else { b };
            let (s1, s2) = if a <= b { (a, b) } else { (b, a) };
            // A score at a floor is in the band above it (seed 002).
            for s in [s1, s2] {
                if s == hi {
                    prop_assert_eq!(floors.band(s), Band::Hit);
                } else if s == lo {
                    prop_assert_eq!(floors.band(s), Band::Degraded);
                }
            }
            prop_assert!(floors.band(s1) <= floors.band(s2));
            // The same through the checked entry point, which accepts every such score.
            prop_assert!(floors.classify(s1, None).unwrap().band() <= floors.classify(s2, None).unwrap().band());
        }
    }
}
