//! How an error message shows what the caller gave: numbers as JavaScript prints them,
//! names, keys and string values quoted and cut after [`NAME_SHOWN`] characters.

use std::fmt;

/// `v` printed for an error message as JavaScript's `String(v)` prints a finite number
/// ([`crate::decimal::Layout::Message`]): the shortest digits that read back as `v`, plain
/// decimal when `1e-6 <= |v| < 1e21` (`0.000001`, `123456789012345680000`), an exponent
/// otherwise (`1e-7`, `-1e+300`, `5e-324`), and `0` for `-0` too; not finite, as
/// JavaScript prints it too: `NaN`, `Infinity`, `-Infinity`. The digits come from [`crate::decimal::shortest`]
/// rather than core::fmt's float code, which then stays out of the wasm modules; where two
/// shortest forms are equally near `v` (`767927684704018.25`), it takes the even last
/// digit (`.2`, as `ryu` and ECMAScript do; Rust's `{v}` takes `.3`).
pub fn num(v: f64) -> Num {
    Num(v)
}

/// A float as [`num`] prints it.
#[derive(Debug, Clone, Copy)]
#[doc(hidden)]
pub struct Num(f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        if v.is_nan() {
            f.write_str("NaN")
        } else if v.is_infinite() {
            f.write_str(if v < 0.0 { "-Infinity" } else { "Infinity" })
        } else {
            let mut s = String::new();
            crate::decimal::push(&mut s, v, crate::decimal::Layout::Message);
            f.write_str(&s)
        }
    }
}

/// A name the caller gave (an unknown method or metric), quoted for an error message as
/// `{:?}` quotes it, its first [`NAME_SHOWN`] characters only when longer (then `...` and
/// its length in bytes): an error does not echo a name of any length back.
pub fn name(s: &str) -> Name<'_> {
    Name(s)
}

/// Characters of a name an error message shows at most (see [`name`]).
#[doc(hidden)]
pub const NAME_SHOWN: usize = 64;

/// A name as [`name`] prints it.
#[derive(Debug, Clone, Copy)]
#[doc(hidden)]
pub struct Name<'a>(&'a str);

/// `s` cut after [`NAME_SHOWN`] characters: its head, and whether anything was cut.
fn shown_head(s: &str) -> (&str, bool) {
    match s.char_indices().nth(NAME_SHOWN) {
        None => (s, false),
        Some((cut, _)) => (s.get(..cut).unwrap_or_default(), true),
    }
}

impl fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match shown_head(self.0) {
            (s, false) => quoted(s).fmt(f),
            (head, true) => write!(f, "{}... ({} bytes)", quoted(head), self.0.len()),
        }
    }
}

/// A key the caller gave (an unknown field), for an error message: in backticks, as
/// serde words it (`` `k` ``), its first [`NAME_SHOWN`] characters only when longer (then
/// `...` and its length in bytes, as [`name`]). js/wire/keys.js `unknownKeyWords` words
/// it alike.
pub fn key_name(s: &str) -> KeyName<'_> {
    KeyName(s)
}

/// A key as [`key_name`] prints it.
#[derive(Debug, Clone, Copy)]
#[doc(hidden)]
pub struct KeyName<'a>(&'a str);

impl fmt::Display for KeyName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match shown_head(self.0) {
            (s, false) => write!(f, "`{s}`"),
            (head, true) => write!(f, "`{head}`... ({} bytes)", self.0.len()),
        }
    }
}

/// A string value of the wrong kind, for an error message ("expected a number, got
/// ..."): quoted, its first [`NAME_SHOWN`] characters only when longer, then `…` inside
/// the quotes, as js/wire/values.js `shownValue` shows a value.
pub fn shown_str(s: &str) -> ShownStr<'_> {
    ShownStr(s)
}

/// A string value as [`shown_str`] prints it.
#[derive(Debug, Clone, Copy)]
#[doc(hidden)]
pub struct ShownStr<'a>(&'a str);

impl fmt::Display for ShownStr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match shown_head(self.0) {
            (s, false) => quoted(s).fmt(f),
            // The ellipsis inside the quotes: `"head…"`.
            (head, true) => {
                f.write_str("\"")?;
                escaped(f, head)?;
                f.write_str("\u{2026}\"")
            }
        }
    }
}

/// `s` in double quotes for an error message: `"`, `\`, and the control characters
/// escaped (`\n`, `\r`, `\t`, `\0`, the others as `\u{1b}`), every other character
/// as it is. `{:?}` quotes the same way strings of printable characters and controls;
/// it also escapes what its tables (4 KB of the wasm core module) call non-printable
/// (`U+00A0`, `U+200B`, unassigned code points) and the grapheme extenders (combining
/// marks, variation selectors, the zero-width joiner), which this prints as they are
/// (docs/performance-history.md, "Messages without std's formatting tables").
pub fn quoted(s: &str) -> Quoted<'_> {
    Quoted(s)
}

/// A string as [`quoted`] prints it.
#[derive(Debug, Clone, Copy)]
#[doc(hidden)]
pub struct Quoted<'a>(&'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"")?;
        escaped(f, self.0)?;
        f.write_str("\"")
    }
}

/// `s` as [`quoted`] writes it between its quotes.
fn escaped(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    let mut rest = s;
    // Runs of characters that need no escape are written whole.
    while let Some((i, c)) = rest.char_indices().find(|&(_, c)| needs_escape(c)) {
        let (head, tail) = rest.split_at_checked(i).unwrap_or((rest, ""));
        f.write_str(head)?;
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            '\0' => f.write_str("\\0")?,
            _ => write!(f, "\\u{{{:x}}}", u32::from(c))?,
        }
        rest = tail.get(c.len_utf8()..).unwrap_or_default();
    }
    f.write_str(rest)
}

fn needs_escape(c: char) -> bool {
    c == '"' || c == '\\' || c.is_control()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{from_serde_message, not_one_of};

    #[test]
    fn names_in_messages_are_cut_after_64_characters() {
        assert_eq!(name("bogus").to_string(), "\"bogus\"");
        let exact = "é".repeat(NAME_SHOWN);
        assert_eq!(name(&exact).to_string(), format!("{exact:?}"));
        let long = format!("{}\u{1F600}tail", "é".repeat(NAME_SHOWN - 1));
        assert_eq!(
            name(&long).to_string(),
            format!(
                "{:?}... ({} bytes)",
                format!("{}\u{1F600}", "é".repeat(NAME_SHOWN - 1)),
                long.len()
            )
        );
        assert_eq!(name("a\"b").to_string(), "\"a\\\"b\"");
    }

    #[test]
    fn keys_and_values_in_messages_are_cut_after_64_characters() {
        assert_eq!(key_name("topK").to_string(), "`topK`");
        let long = format!("{}\u{1F600}tail", "é".repeat(NAME_SHOWN - 1));
        let head = format!("{}\u{1F600}", "é".repeat(NAME_SHOWN - 1));
        assert_eq!(
            key_name(&long).to_string(),
            format!("`{head}`... ({} bytes)", long.len())
        );
        assert_eq!(shown_str("a\nb").to_string(), "\"a\\nb\"");
        assert_eq!(shown_str(&long).to_string(), format!("\"{head}\u{2026}\""));
        // Cut, and escaped as `quoted` escapes.
        let quotes = "\"".repeat(NAME_SHOWN + 1);
        assert_eq!(
            shown_str(&quotes).to_string(),
            format!("\"{}\u{2026}\"", "\\\"".repeat(NAME_SHOWN))
        );
        let exact = "x".repeat(NAME_SHOWN);
        assert_eq!(shown_str(&exact).to_string(), format!("\"{exact}\""));
        // The names of `not_one_of`, and serde's unknown fields, cut alike.
        assert!(not_one_of(&long, &["a", "b"]).starts_with(&format!("\"{head}\"... (")));
        let e = from_serde_message(
            &format!("unknown field `{long}`, expected `a` or `b`"),
            "options",
        );
        assert_eq!(
            e.message,
            format!(
                "unknown field `{head}`... ({} bytes), expected `a` or `b`",
                long.len()
            )
        );
        let short = from_serde_message("unknown field `x`, there are no fields", "options");
        assert_eq!(short.message, "unknown field `x`, there are no fields");
    }

    /// `quoted` against `{:?}` on strings of printable characters and controls (where the
    /// two agree), and on the characters where they differ by design.
    #[test]
    fn quoted_is_debug_quoting_but_for_the_tables() {
        let samples = [
            "",
            "plain",
            "a\"b\\c",
            "tab\tnew\nline\rnul\0",
            "\u{1b}[0m\u{7f}\u{85}\u{9f}",
            "é\u{1F600}日本",
            "\"\"\\",
            "end\\",
        ];
        for s in samples {
            assert_eq!(quoted(s).to_string(), format!("{s:?}"), "{s:?}");
        }
        // Escaped by `{:?}` (its tables), kept as they are here.
        for s in [
            "\u{301}a",
            "e\u{301}",
            "\u{2764}\u{fe0f}",
            "a\u{200b}b",
            "\u{a0}",
        ] {
            assert_eq!(quoted(s).to_string(), format!("\"{s}\""));
            assert_ne!(quoted(s).to_string(), format!("{s:?}"));
        }
        // Every control character, each alone, as `{:?}` writes it.
        for c in (0u32..0x20).chain(0x7f..0xa0).filter_map(char::from_u32) {
            let s = c.to_string();
            assert_eq!(quoted(&s).to_string(), format!("{s:?}"), "{c:?}");
        }
    }

    #[test]
    fn num_prints_as_javascript() {
        for (v, shown) in [
            (0.0, "0"),
            (-0.0, "0"),
            (1.0, "1"),
            (-1.5, "-1.5"),
            (0.1, "0.1"),
            (0.000001, "0.000001"),
            (1e-7, "1e-7"),
            (1e-320, "1e-320"),
            (1e300, "1e+300"),
            (-1e300, "-1e+300"),
            (1e16, "10000000000000000"),
            (123456789012345680000.0, "123456789012345680000"),
            (1e21, "1e+21"),
            (f64::MIN_POSITIVE, "2.2250738585072014e-308"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e+308"),
            (f64::MIN, "-1.7976931348623157e+308"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
        ] {
            assert_eq!(num(v).to_string(), shown);
        }
        // 767927684704018.25, halfway between the two shortest forms.
        let tie = f64::from_bits(4829498622391433362);
        assert_eq!(num(tie).to_string(), "767927684704018.2");
        assert_eq!(format!("{tie}"), "767927684704018.3");
    }

    /// `num(v)` reads back as `v` (`0` for `-0`); where it has no exponent
    /// (`1e-6 <= |v| < 1e21`), it is as short as `{v}` and equals it but for the last
    /// digit of a tie (see [`num`]). (`crate::decimal`'s tests compare it with
    /// ECMAScript's rules.)
    fn reads_back(v: f64) -> std::result::Result<(), String> {
        let (a, b) = (num(v).to_string(), format!("{v}"));
        let back: f64 = a.parse().map_err(|_| format!("{a} does not parse"))?;
        let ok = if v.is_nan() {
            a == "NaN"
        } else if v == 0.0 {
            a == "0"
        } else if (1e-6..1e21).contains(&v.abs()) {
            back.to_bits() == v.to_bits()
                && a.len() == b.len()
                && a.get(..a.len() - 1) == b.get(..b.len() - 1)
        } else {
            back.to_bits() == v.to_bits() && (v.is_infinite() || a.contains('e'))
        };
        if ok {
            Ok(())
        } else {
            Err(format!("num({v:?}) = {a}, {{}} = {b}"))
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20_000))]
        /// Any bit pattern (every exponent, subnormals, NaN payloads), and plain decimals.
        #[test]
        fn num_reads_back_as_any_float(bits in proptest::prelude::any::<u64>(), m in -1_000_000i64..1_000_000, e in -12i32..12) {
            let d = m as f64 * 10f64.powi(e);
            for v in [f64::from_bits(bits), d] {
                if let Err(e) = reads_back(v) {
                    proptest::prop_assert!(false, "{}", e);
                }
            }
        }
    }
}
