//! Input size limits. Every entry point checks its input against these before doing
//! work, so an oversized input is an `INPUT_TOO_LARGE` error instead of an
//! out-of-memory trap. The defaults keep one call well under a second in Node
//! (3 lists x 1,000,000 ids, the largest benchmark size, fits).

use crate::error::{ErrorCode, Result, ScoreError};
use serde::{Deserialize, Serialize};

/// Configurable limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Limits {
    /// Maximum number of ranked lists (or queries, or runs) in one call (default 64).
    pub max_lists: u32,
    /// Maximum length of one list (default 1,000,000).
    pub max_list_length: u32,
    /// Maximum total entries over all lists (default 4,000,000).
    pub max_total_entries: u32,
    /// Maximum length of one id in bytes (default 1024).
    pub max_id_bytes: u32,
    /// Maximum length of one text field (name, summary, content, query) in bytes
    /// (default 1,000,000).
    pub max_text_bytes: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_lists: 64,
            max_list_length: 1_000_000,
            max_total_entries: 4_000_000,
            max_id_bytes: 1024,
            max_text_bytes: 1_000_000,
        }
    }
}

fn too_large(field: String, what: &str, got: usize, max: u32) -> ScoreError {
    ScoreError::new(
        ErrorCode::InputTooLarge,
        field,
        format!("{what} is {got}, above the limit of {max} (see `limits`)"),
    )
}

impl Limits {
    /// Checks a list count.
    pub fn check_lists(&self, n: usize, field: &str) -> Result<()> {
        if n > self.max_lists as usize {
            return Err(too_large(
                field.into(),
                "the number of lists",
                n,
                self.max_lists,
            ));
        }
        Ok(())
    }

    /// Checks list lengths (individually and in total).
    pub fn check_lengths(
        &self,
        lengths: impl IntoIterator<Item = usize>,
        field: &str,
    ) -> Result<()> {
        let mut total = 0usize;
        for (i, n) in lengths.into_iter().enumerate() {
            if n > self.max_list_length as usize {
                return Err(too_large(
                    format!("{field}[{i}]"),
                    "the list length",
                    n,
                    self.max_list_length,
                ));
            }
            total = total.saturating_add(n);
        }
        if total > self.max_total_entries as usize {
            return Err(too_large(
                field.into(),
                "the total number of entries",
                total,
                self.max_total_entries,
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
            ));
        }
        Ok(())
    }

    /// Validates the limits themselves (all >= 1).
    pub fn validate(&self) -> Result<()> {
        for (name, v) in [
            ("maxLists", self.max_lists),
            ("maxListLength", self.max_list_length),
            ("maxTotalEntries", self.max_total_entries),
            ("maxIdBytes", self.max_id_bytes),
            ("maxTextBytes", self.max_text_bytes),
        ] {
            if v == 0 {
                return Err(ScoreError::new(
                    ErrorCode::InvalidConfig,
                    format!("limits.{name}"),
                    "must be >= 1",
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_reject_oversized_input() {
        let l = Limits {
            max_lists: 2,
            max_list_length: 3,
            max_total_entries: 5,
            max_id_bytes: 4,
            max_text_bytes: 8,
        };
        assert_eq!(
            l.check_lists(3, "lists").unwrap_err().code,
            ErrorCode::InputTooLarge
        );
        assert_eq!(
            l.check_lengths([3, 4], "lists").unwrap_err().field,
            "lists[1]"
        );
        assert_eq!(l.check_lengths([3, 3], "lists").unwrap_err().field, "lists");
        assert!(l.check_lengths([3, 2], "lists").is_ok());
        assert!(l.check_id("abcde", || "id".into()).is_err());
        assert!(l.check_text("12345678", || "t".into()).is_ok());
        assert!(Limits {
            max_lists: 0,
            ..Default::default()
        }
        .validate()
        .is_err());
    }
}
