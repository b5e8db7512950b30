//! Field paths: a map key (an id, a list's name, a query id) written into an error's
//! `field`, `.key` when plain and `["key"]` as JSON when not.

/// `prefix` and then the map key `key` (an id, a list's name, a query id) as a field
/// path names it: `.key`, or `["key"]`, the key as `JSON.stringify` writes it, when the
/// key is empty or holds a character that would make the path ambiguous (`.`, `[`, `]`,
/// `"`, `\`): `items.doc-1.name`, but `items["README.md"].name`. With an empty
/// `prefix`, a plain key stands alone (`q1`, for a path put under its argument later by
/// [`ScoreError::within`]). The package's JavaScript writes paths by the same rule.
///
/// [`ScoreError::within`]: super::ScoreError::within
#[inline(never)]
pub fn key_path(prefix: &str, key: &str) -> String {
    if prefix.is_empty() && plain_key(key) {
        return key.to_string();
    }
    let mut out = String::with_capacity(prefix.len() + key.len() + 5);
    out.push_str(prefix);
    push_segment(&mut out, key);
    out
}

/// `prefix`, the map key `key` and the field `field` of its value
/// (`items["README.md"].name`), as [`key_path`] writes them.
#[inline(never)]
pub fn key_field(prefix: &str, key: &str, field: &str) -> String {
    let mut out = key_path(prefix, key);
    out.push('.');
    out.push_str(field);
    out
}

/// Appends the segment of the map key `key`, `.key` or `["key"]`, as [`key_path`] writes
/// it after a prefix (the decoders put it in front of a path found inside the key's
/// value).
#[inline(never)]
#[doc(hidden)]
pub fn push_segment(out: &mut String, key: &str) {
    if plain_key(key) {
        out.push('.');
        out.push_str(key);
    } else {
        out.push('[');
        push_json_key(out, key);
        out.push(']');
    }
}

/// Appends `v` as a JSON string literal to the path `out`, escaped as `JSON.stringify`
/// (and serde_json) escape a string without lone surrogates: `\"`, `\\`, `\b`, `\t`,
/// `\n`, `\f`, `\r`, the other characters below U+0020 as `\u00xx`, every other
/// character as it is. Small rather than fast, for a path (whose bytes it checks again):
/// the modules' JSON writer has its own (`wasm_shared::push_json_string`, tested to agree).
#[inline(never)]
#[doc(hidden)]
pub fn push_json_key(out: &mut String, v: &str) {
    // Every byte escaped is ASCII, so the bytes stay UTF-8.
    let mut b = std::mem::take(out).into_bytes();
    b.push(b'"');
    for &c in v.as_bytes() {
        let short = match c {
            b'"' | b'\\' => c,
            8 => b'b',
            9 => b't',
            10 => b'n',
            12 => b'f',
            13 => b'r',
            0..=31 => b'u',
            _ => {
                b.push(c);
                continue;
            }
        };
        b.extend_from_slice(&[b'\\', short]);
        if short == b'u' {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            let low = HEX.get(usize::from(c & 15)).copied().unwrap_or(b'0');
            b.extend_from_slice(&[b'0', b'0', b'0' + (c >> 4), low]);
        }
    }
    b.push(b'"');
    *out = String::from_utf8(b).unwrap_or_default();
}

/// Whether `key` is written `.key` in a path (not empty, none of `.[]"\` in it).
fn plain_key(key: &str) -> bool {
    !key.is_empty()
        && !key
            .bytes()
            .any(|b| matches!(b, b'.' | b'[' | b']' | b'"' | b'\\'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{ErrorCode, ScoreError};

    /// The keys of a path made of `key_path` segments, read back (None: not such a path).
    fn read_keys(mut path: &str) -> Option<Vec<String>> {
        let mut keys = Vec::new();
        while !path.is_empty() {
            if let Some(rest) = path.strip_prefix("[\"") {
                // The JSON string runs to the first `"]` not escaped.
                let mut end = None;
                let mut escaped = false;
                for (i, c) in rest.char_indices() {
                    match c {
                        _ if escaped => escaped = false,
                        '\\' => escaped = true,
                        '"' => {
                            end = Some(i);
                            break;
                        }
                        _ => {}
                    }
                }
                let end = end?;
                let json = format!("\"{}\"", rest.get(..end)?);
                keys.push(serde_json::from_str(&json).ok()?);
                path = rest.get(end..)?.strip_prefix("\"]")?;
            } else {
                let rest = path.strip_prefix('.')?;
                let end = rest.find(['.', '[']).unwrap_or(rest.len());
                keys.push(rest.get(..end)?.to_string());
                path = rest.get(end..)?;
            }
        }
        Some(keys)
    }

    #[test]
    fn keys_that_would_make_a_path_ambiguous_are_quoted_as_json() {
        for (key, path) in [
            ("doc-1", "items.doc-1"),
            ("é 1", "items.é 1"),
            ("README.md", "items[\"README.md\"]"),
            ("a[0]", "items[\"a[0]\"]"),
            ("x]", "items[\"x]\"]"),
            ("", "items[\"\"]"),
            ("say \"hi\"", "items[\"say \\\"hi\\\"\"]"),
            ("C:\\x", "items[\"C:\\\\x\"]"),
            (
                "a.\n\u{1}\u{1f}\t\u{8}\u{c}\r",
                "items[\"a.\\n\\u0001\\u001f\\t\\b\\f\\r\"]",
            ),
        ] {
            assert_eq!(key_path("items", key), path, "{key:?}");
            assert_eq!(key_field("items", key, "name"), format!("{path}.name"));
        }
        // Alone (a path put under its argument later), a plain key has no dot.
        assert_eq!(key_path("", "q1"), "q1");
        assert_eq!(key_path("", "q.1"), "[\"q.1\"]");
        let e = ScoreError::new(
            ErrorCode::InvalidType,
            key_path(&key_path("", "q.1"), "d"),
            "x",
        );
        assert_eq!(e.within("qrels").field, "qrels[\"q.1\"].d");
        let e = ScoreError::new(
            ErrorCode::InvalidType,
            key_path(&key_path("", "q"), "d.1"),
            "x",
        );
        assert_eq!(e.within("qrels").field, "qrels.q[\"d.1\"]");
    }

    proptest::proptest! {
        #[test]
        fn a_path_of_keys_reads_back_as_those_keys(keys in proptest::collection::vec(
            proptest::prop_oneof![
                "[a-z.\\[\\]\"\\\\]{0,6}",
                ".{0,6}",
                proptest::string::string_regex("[\\x00-\\x1f.\"]{0,4}").unwrap_or_else(|_| unreachable!()),
            ],
            1..5,
        )) {
            let mut path = String::new();
            for k in &keys {
                push_segment(&mut path, k);
                // A quoted key is exactly JSON's string of it (serde_json escapes as
                // JSON.stringify does, lone surrogates aside, which Rust strings cannot hold).
                if !plain_key(k) {
                    let json = serde_json::to_string(k).unwrap_or_default();
                    let quoted = format!("[{json}]");
                    proptest::prop_assert!(path.ends_with(&quoted));
                }
            }
            proptest::prop_assert_eq!(read_keys(&path), Some(keys.clone()));
            let first = keys.first().map(String::as_str).unwrap_or_default();
            let alone = key_path("", first);
            let mut segment = String::new();
            push_segment(&mut segment, first);
            proptest::prop_assert_eq!(alone.as_str(), segment.strip_prefix('.').unwrap_or(&segment));
        }
    }
}
