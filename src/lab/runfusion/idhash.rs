//! The hasher of the fusion's document-id maps ([`super::Scores`] and the candidate
//! sets): ids are hashed several times per document and per configuration of a search,
//! and the standard library's SipHash was about half of a fusion's time. Word-at-a-time
//! multiply-rotate mixing (as rustc's FxHash), finished with MurmurHash3's `fmix64` so
//! that the low bits a hash table indexes by depend on every byte.
//!
//! The hash only places ids in a table: no output depends on it (every map keeps its
//! documents in a `Vec` in their order), so results are the same on every platform.

use std::hash::{BuildHasherDefault, Hasher};

/// FxHash's multiplier.
const K: u64 = 0x517c_c1b7_2722_0a95;

/// The hasher; see the module documentation.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct IdHasher(u64);

/// Builds [`IdHasher`]s.
pub(crate) type BuildIdHasher = BuildHasherDefault<IdHasher>;

impl IdHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
    }
}

impl Hasher for IdHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            // A last chunk of fewer than 8 bytes has its count in the top byte: "ab" and
            // "ab\0" differ.
            let mut w = [0u8; 8];
            for (slot, b) in w.iter_mut().zip(chunk) {
                *slot = *b;
            }
            if chunk.len() < 8 {
                w[7] = chunk.len() as u8;
            }
            self.add(u64::from_le_bytes(w));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn hash(s: &str) -> u64 {
        BuildIdHasher::default().hash_one(s)
    }

    #[test]
    fn ids_that_differ_in_one_byte_or_a_trailing_nul_hash_apart() {
        assert_ne!(hash("ab"), hash("ab\0"));
        assert_ne!(hash(""), hash("\0"));
        assert_ne!(hash("abcdefgh"), hash("abcdefgh\0"));
        // The low bits (a table's bucket) of ids that differ only in their last bytes.
        let mut buckets = std::collections::HashSet::new();
        for i in 0..4096 {
            buckets.insert(hash(&format!("doc-{i:07}")) & 4095);
        }
        assert!(
            buckets.len() > 2400,
            "{} of 4096 buckets used",
            buckets.len()
        );
        let mut h = IdHasher::default();
        "x".hash(&mut h);
        assert_eq!(h.finish(), hash("x"));
    }
}
