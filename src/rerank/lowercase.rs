//! The reranker's lowercasing: exactly what the standard library's `str::to_lowercase`
//! gives (Unicode's default lowercasing: each character's simple mapping, U+0130 `İ` as
//! `i` + U+0307, and `Σ` as `ς` at the end of a word, `σ` elsewhere), read from tables
//! of the crate's own.
//!
//! Why not the standard library's: its mapping is a table of 1,462 character pairs,
//! 11.7 KB of the core module's data, and with the case properties that the final sigma
//! reads it cost the module 7.2 KB gzipped (docs/performance-history.md, "Lowercasing from
//! tables of our own"). Here the
//! mappings are 184 runs (a start, a length, a stride of 1 or 2 and one offset each),
//! and the two properties the final sigma needs (`Case_Ignorable`, and `Cased`) one
//! run-length table.
//!
//! The tables (`lowercase/tables.rs`) are generated from the standard library by
//! tests/lowercase.rs (`CALIBRANK_WRITE_TABLES=1 cargo test --test lowercase` writes
//! them; run the tests again after, since that run tested the tables it was compiled
//! with), which fails when they differ from what it generates (a toolchain with another
//! Unicode version), and checks this function against `str::to_lowercase` on every
//! character, alone and around a `Σ`. The lowercasing is then the same on every
//! toolchain, whatever Unicode version its standard library carries (the query terms'
//! splitting still reads the standard library's character properties).

#[rustfmt::skip]
mod tables;

use tables::{CASE_INDEX, CASE_RUNS, LOWER_DELTAS, LOWER_RUNS};

/// A run of [`LOWER_RUNS`]: its first character (21 bits), its length - 1 (7 bits) and
/// whether its stride is 2 (bit 31).
const START: u32 = 0x1f_ffff;
const LEN_SHIFT: u32 = 21;
const LEN_MASK: u32 = 0x7f;
const STRIDE_2: u32 = 1 << 31;

/// The classes of [`CASE_RUNS`]: what the final sigma's scan skips (`Case_Ignorable`),
/// what stops it as a cased letter (`Cased` and not `Case_Ignorable`), and the rest.
const OTHER: u8 = 0;
const IGNORABLE: u8 = 1;
const CASED: u8 = 2;

/// `s` lowercased, as `s.to_lowercase()` (see the module documentation).
pub fn to_lowercase(s: &str) -> String {
    let ascii = s.bytes().position(|b| !b.is_ascii()).unwrap_or(s.len());
    let (head, rest) = s.split_at_checked(ascii).unwrap_or((s, ""));
    let mut out = String::with_capacity(s.len());
    out.push_str(head);
    out.make_ascii_lowercase();
    for (i, c) in rest.char_indices() {
        let l = match c {
            'Σ' if word_final(s, ascii + i) => 'ς',
            'Σ' => 'σ',
            '\u{130}' => {
                out.push('i');
                '\u{307}'
            }
            _ => lower(c),
        };
        out.push(l);
    }
    out
}

/// The simple lowercase mapping of `c` (itself when it has none).
fn lower(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    let u = u32::from(c);
    let at = LOWER_RUNS.partition_point(|&r| r & START <= u);
    let Some(i) = at.checked_sub(1) else { return c };
    let (Some(&run), Some(&delta)) = (LOWER_RUNS.get(i), LOWER_DELTAS.get(i)) else {
        return c;
    };
    let stride = if run & STRIDE_2 != 0 { 2 } else { 1 };
    let len = ((run >> LEN_SHIFT) & LEN_MASK) + 1;
    let Some(off) = u.checked_sub(run & START) else {
        return c;
    };
    if off < len * stride && off % stride == 0 {
        char::from_u32(u.wrapping_add_signed(delta)).unwrap_or(c)
    } else {
        c
    }
}

/// Whether the `Σ` at byte `i` of `s` ends a word: a cased letter before it and none
/// after it, case-ignorable characters skipped on both sides (Unicode's `Final_Sigma`).
fn word_final(s: &str, i: usize) -> bool {
    let before = s.get(..i).unwrap_or_default().chars().rev();
    let after = s.get(i + 'Σ'.len_utf8()..).unwrap_or_default().chars();
    cased_past_ignorable(before) && !cased_past_ignorable(after)
}

fn cased_past_ignorable(chars: impl Iterator<Item = char>) -> bool {
    chars
        .map(case_class)
        .find(|&k| k != IGNORABLE)
        .is_some_and(|k| k == CASED)
}

/// The class of `c` in [`CASE_RUNS`]: runs over every code point from U+0000, each a
/// byte (the class in bits 6-7; bits 0-4 the low bits of the length - 1, bit 5 set when
/// more follow, 7 bits a byte, in bytes whose bit 7 says the same); [`CASE_INDEX`]
/// gives where every 32nd run starts.
fn case_class(c: char) -> u8 {
    let u = u32::from(c);
    let at = CASE_INDEX.partition_point(|&(start, _)| start <= u);
    let Some(&(mut start, offset)) = at.checked_sub(1).and_then(|i| CASE_INDEX.get(i)) else {
        return OTHER;
    };
    let mut bytes = CASE_RUNS.get(offset as usize..).unwrap_or_default().iter();
    while let Some(&b) = bytes.next() {
        let mut len = u32::from(b & 0x1f);
        if b & 0x20 != 0 {
            let mut shift = 5;
            for &x in bytes.by_ref() {
                len |= u32::from(x & 0x7f).checked_shl(shift).unwrap_or(0);
                shift += 7;
                if x & 0x80 == 0 {
                    break;
                }
            }
        }
        let end = start.saturating_add(len + 1);
        if u < end {
            return b >> 6;
        }
        start = end;
    }
    OTHER
}
