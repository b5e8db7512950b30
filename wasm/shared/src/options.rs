//! Options objects: `limits` split off, the rest decoded as the function's options.

use crate::decode::{self, Decode, KWeights};
use crate::json::{self, Json};
use calibrank::error::{Result, ScoreError};
use calibrank::limits::{LimitedFunction, Limits, PartialLimits};
use calibrank::multiquery::{MultiQueryMethod, MultiQueryOptions};
use serde::de::DeserializeOwned;

/// Decodes optional options text (`None`: the defaults) as `T` with the hand-written
/// decoders of [`crate::decode`], with its `limits` (missing fields keep their
/// defaults; the limits are validated). The core module's way.
pub fn decode_with_limits<T: Decode + Default>(
    text: Option<&str>,
    what: &str,
    function: LimitedFunction,
) -> Result<(Limits, T)> {
    options_with(text, what, function, decode::decode_options::<T>)
}

/// [`decode_with_limits`] with serde's derived `Deserialize` of `T` (the lab module's
/// option types).
pub fn with_limits<T: DeserializeOwned + Default>(
    text: Option<&str>,
    what: &str,
    function: LimitedFunction,
) -> Result<(Limits, T)> {
    options_with(text, what, function, |t, w| {
        json::decode::<T>(t, w).map_err(|e| limits_listed(e, w, t))
    })
}

/// [`with_limits`] for options that have no defaults (a `null` is decoded as `T`, and
/// refused by it).
pub fn given_with_limits<T: DeserializeOwned>(
    text: &str,
    what: &str,
    function: LimitedFunction,
) -> Result<(Limits, T)> {
    let mut tree = json::parse(text, what)?;
    let limits = take_limits(&mut tree, what, function)?;
    let opts = json::decode::<T>(&tree, what).map_err(|e| limits_listed(e, what, &tree))?;
    Ok((limits, opts))
}

/// An unknown key of the options object itself, whose message (serde's, in the lab's
/// decoding) lists the keys the options' type has: `limits` listed too, which was taken
/// off before the type was decoded (`fuseRuns(runs, { bogus: 1 })` lists `method`, ...,
/// `limits`). Serde's rules of the list: one key "`a`", two "`a` or `b`", more "one of
/// `a`, `b`, `c`". (The core module's decoders list no keys: their messages stay out of
/// its string searching, build-pkg.sh.)
///
/// The key is the one of `tree`'s own keys (the options, `limits` taken off) that the
/// error's path names, where it is whole: the message shows a key of more than 64
/// characters cut ("`head`... (N bytes)", `error::key_name`), which was not read back, so
/// `limits` was missing from such a key's list (and `fitPlatt(s, l, { [long]: 1 })`
/// said "there are no fields"). The keys listed are the last ", expected "'s: the type's
/// own, which hold no such words.
#[cold]
#[inline(never)]
fn limits_listed(e: ScoreError, what: &str, tree: &Json) -> ScoreError {
    if e.code != calibrank::error::ErrorCode::UnknownField {
        return e;
    }
    let Json::Obj(fields) = tree else {
        return e;
    };
    let Some(key) = fields
        .iter()
        .map(|(k, _)| k.as_str())
        .find(|k| e.field == calibrank::error::key_path(what, k))
    else {
        return e;
    };
    let list = if e.message.ends_with(", there are no fields") {
        ""
    } else {
        match e.message.rsplit_once(", expected ") {
            Some((_, l)) => l,
            None => return e,
        }
    };
    let names: Vec<&str> = list.split('`').skip(1).step_by(2).collect();
    let words = crate::json::unknown_key_words(key, &names, Some("limits"));
    ScoreError::new(e.code, e.field, words)
}

/// The limits of optional options text, and the rest decoded by `decode` (the defaults
/// when there is no text or it is `null`).
fn options_with<T: Default>(
    text: Option<&str>,
    what: &str,
    function: LimitedFunction,
    decode: fn(&Json, &str) -> Result<T>,
) -> Result<(Limits, T)> {
    let (limits, tree) = split_limits(text, what, function)?;
    let opts = match tree {
        None | Some(Json::Null) => T::default(),
        Some(t) => decode(&t, what)?,
    };
    Ok((limits, opts))
}

/// The limits of optional options text and the rest of its tree (`None`: no text).
fn split_limits(
    text: Option<&str>,
    what: &str,
    function: LimitedFunction,
) -> Result<(Limits, Option<Json>)> {
    let Some(text) = text else {
        return Ok((Limits::of(function), None));
    };
    let mut tree = json::parse(text, what)?;
    let limits = take_limits(&mut tree, what, function)?;
    Ok((limits, Some(tree)))
}

/// Removes `limits` from an options object and decodes it over the defaults of
/// `function` (`Limits::of`).
pub fn take_limits(tree: &mut Json, what: &str, function: LimitedFunction) -> Result<Limits> {
    let mut limits = Limits::of(function);
    if let Json::Obj(fields) = tree {
        if let Some(i) = fields.iter().position(|(k, _)| k == "limits") {
            let (_, v) = fields.remove(i);
            if v != Json::Null {
                let given: PartialLimits = decode::decode(&v, &format!("{what}.limits"))?;
                limits = given.over(limits);
            }
        }
    }
    limits.validate().map_err(|e| e.within(what))?;
    Ok(limits)
}

/// `fuseMultiQuery`'s options: JSON text (or NONE), or the numbers js/core/multiquery.js
/// writes when they are plain values without `limits` (`compactOptions`): an F64 section
/// `[method (0 rrf, 1 score_sum, 2 score_max), resultsPerQuery, similarityThreshold,
/// multiQueryBoost, limit, k, verbose (0 or 1)]`, NaN where not given. Both decode to the
/// same options; the ranges are checked by the fusion either way.
pub fn multi_query_options(r: &mut crate::wire::Reader<'_>) -> Result<(Limits, MultiQueryOptions)> {
    let function = LimitedFunction::FuseMultiQuery;
    if r.peek_tag() != Some(crate::wire::tag::F64) {
        return decode_with_limits(r.opt_text()?, "options", function);
    }
    let h = r.f64s()?;
    let given = |i: usize| h.get(i).copied().filter(|v| !v.is_nan());
    let mut o = MultiQueryOptions::default();
    if let Some(m) = given(0) {
        o.method = match m as u32 {
            0 => MultiQueryMethod::Rrf,
            1 => MultiQueryMethod::ScoreSum,
            _ => MultiQueryMethod::ScoreMax,
        };
    }
    if let Some(v) = given(1) {
        o.results_per_query = v as u32;
    }
    if let Some(v) = given(2) {
        o.similarity_threshold = v;
    }
    if let Some(v) = given(3) {
        o.multi_query_boost = v;
    }
    if let Some(v) = given(4) {
        o.limit = v as u32;
    }
    if let Some(v) = given(5) {
        o.k = v;
    }
    if let Some(v) = given(6) {
        o.verbose = v != 0.0;
    }
    Ok((Limits::of(function), o))
}

/// Options `{ k?, weights?, limits? }` (rrf, rrfColumnar), as JSON text or in the compact
/// form js/core/fuse.js writes when they are plain numbers: an `F64` section `[flags, k,
/// limits x 8]` (flags bit 0: `k` given; a limit is NaN when not given) and an `F64`
/// section of weights (or `NONE`). The compact form decodes to what the JSON would.
pub fn k_weights_limits(
    r: &mut crate::wire::Reader<'_>,
    function: LimitedFunction,
) -> Result<(Limits, Option<f64>, Option<Vec<f64>>)> {
    use crate::wire::tag;
    if r.peek_tag() == Some(tag::F64) {
        let head = r.f64s()?;
        let weights = r.opt_f64s()?.map(<[f64]>::to_vec);
        let flags = head.first().copied().unwrap_or(0.0) as u32;
        let k = (flags & 1 != 0).then(|| head.get(1).copied().unwrap_or(f64::NAN));
        let field = |i: usize| {
            head.get(2 + i)
                .copied()
                .filter(|v| !v.is_nan())
                .map(|v| v as u32)
        };
        let given = PartialLimits {
            max_lists: field(0),
            max_list_length: field(1),
            max_total_entries: field(2),
            max_columnar_entries: field(3),
            max_id_bytes: field(4),
            max_text_bytes: field(5),
            max_total_text_bytes: field(6),
            max_search_work: field(7),
        };
        let limits = given.over(Limits::of(function));
        limits.validate().map_err(|e| e.within("options"))?;
        return Ok((limits, k, weights));
    }
    let (limits, o): (Limits, KWeights) = decode_with_limits(r.opt_text()?, "options", function)?;
    Ok((limits, o.k, o.weights))
}

/// Whether `field` is `root` or a path under it (`root.key`, `root[i]`).
pub fn is_under(field: &str, root: &str) -> bool {
    let f = field.as_bytes();
    f.starts_with(root.as_bytes()) && matches!(f.get(root.len()), None | Some(b'.' | b'['))
}

/// `e` within `prefix` (`options`, `config`) unless its field is under one of `keep` (the
/// call's data: `scores`, `queries`, `runs`, ...), for errors of checks made after the
/// decoding, which name a field as the Rust API does.
pub fn within_unless(e: ScoreError, prefix: &str, keep: &[&str]) -> ScoreError {
    within_when(e, prefix, keep, false)
}

/// `e` within `prefix` when its field is under one of `roots` (the options or the
/// configuration values the error may name); any other field is the call's data.
pub fn within_if(e: ScoreError, prefix: &str, roots: &[&str]) -> ScoreError {
    within_when(e, prefix, roots, true)
}

/// `e` within `prefix` when whether its field is under one of `roots` is `under`.
fn within_when(e: ScoreError, prefix: &str, roots: &[&str], under: bool) -> ScoreError {
    if roots.iter().any(|&r| is_under(&e.field, r)) == under {
        e.within(prefix)
    } else {
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use calibrank::error::ErrorCode;

    #[derive(Debug, Default, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Two {
        #[allow(dead_code)]
        a: Option<u32>,
        #[allow(dead_code)]
        b: Option<u32>,
    }

    #[derive(Debug, Default, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct NoKeys {}

    /// An unknown key of the options lists `limits` with the type's keys, a key of more
    /// than 64 characters too (shown cut in the message, found whole in the options: it
    /// lost `limits`, and a type without keys said "there are no fields").
    #[test]
    fn an_unknown_key_of_the_options_lists_limits_however_long() {
        let f = LimitedFunction::Evaluate;
        let said = |text: &str, no_keys: bool| {
            let e = if no_keys {
                with_limits::<NoKeys>(Some(text), "options", f).unwrap_err()
            } else {
                with_limits::<Two>(Some(text), "options", f).unwrap_err()
            };
            assert_eq!(e.code, ErrorCode::UnknownField);
            (e.field, e.message)
        };
        let long = "k".repeat(100);
        let head = "k".repeat(64);
        let text = format!(r#"{{"{long}": 1}}"#);
        assert_eq!(
            said(&text, false),
            (
                format!("options.{long}"),
                format!(
                    "unknown field `{head}`... (100 bytes), expected one of `a`, `b`, `limits`"
                )
            )
        );
        assert_eq!(
            said(&text, true).1,
            format!("unknown field `{head}`... (100 bytes), expected `limits`")
        );
        assert_eq!(
            said(r#"{"c": 1, "limits": {}}"#, false).1,
            "unknown field `c`, expected one of `a`, `b`, `limits`"
        );
        assert_eq!(
            said(r#"{"c": 1}"#, true).1,
            "unknown field `c`, expected `limits`"
        );
        // A key holding the list's words, short or long.
        let tricky = "x`, expected `y";
        assert_eq!(
            said(&format!(r#"{{"{tricky}": 1}}"#), true).1,
            format!("unknown field `{tricky}`, expected `limits`")
        );
        // An unknown key deeper down is not the options' own: listed as the type lists it.
        #[derive(Debug, Default, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Outer {
            #[allow(dead_code)]
            two: Option<Two>,
        }
        let e = with_limits::<Outer>(Some(r#"{"two": {"c": 1}}"#), "options", f).unwrap_err();
        assert_eq!(e.field, "options.two.c");
        assert_eq!(e.message, "unknown field `c`, expected `a` or `b`");
    }

    #[test]
    fn prefixes_by_the_root_of_the_field() {
        assert!(is_under("rerank", "rerank"));
        assert!(is_under("rerank.heuristic", "rerank"));
        assert!(is_under("runs[1].q", "runs"));
        assert!(!is_under("reranker", "rerank"));
        assert!(!is_under("", "rerank"));
        let e = |f: &str| ScoreError::new(ErrorCode::InvalidConfig, f, "m");
        assert_eq!(
            within_if(e("rerank.method"), "config", &["rerank"]).field,
            "config.rerank.method"
        );
        assert_eq!(
            within_if(e("lists[0]"), "config", &["rerank"]).field,
            "lists[0]"
        );
        assert_eq!(
            within_unless(e("bins"), "options", &["scores"]).field,
            "options.bins"
        );
        assert_eq!(
            within_unless(e("scores[3]"), "options", &["scores"]).field,
            "scores[3]"
        );
        assert_eq!(
            within_unless(e(""), "options", &["scores"]).field,
            "options"
        );
    }
}
