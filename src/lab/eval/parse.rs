//! Runs and relevance judgements as text: TREC run and qrels files, and the JSON form
//! `{"q1": {"d1": 1.5, ...}, ...}`.
//!
//! Every parse error is a [`ErrorCode::ParseError`] whose field is `line N` (1-based)
//! and whose message starts with the same `line N:`; a value that is read but refused
//! says so with its own code on the same field (a NaN score
//! [`ErrorCode::NonFiniteScore`], a fractional grade [`ErrorCode::InvalidType`]). A document listed twice for one
//! query is an [`ErrorCode::DuplicateId`] naming both lines (ranx silently keeps the
//! last score; calibrank refuses, as the two scores cannot both be right).

use crate::error::{key_path, ErrorCode, Result, ScoreError};
pub use crate::lab::runs::OrderedRun;
use crate::lab::runs::{into_run, Qrels, Run};
use crate::sort::StableSort;
use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use std::collections::{BTreeMap, HashMap};
use std::fmt::{self, Write as _};
use std::marker::PhantomData;

/// Parses a TREC run (`qid Q0 docid rank score tag`, whitespace separated, blank lines
/// skipped). The `Q0` and `tag` columns are ignored; `rank` must be an integer but is
/// otherwise ignored: documents are ranked by `score`, as in ranx and trec_eval.
///
/// Errors: wrong column count, a non-integer rank or a non-numeric score
/// ([`ErrorCode::ParseError`]), a NaN or infinite score ([`ErrorCode::NonFiniteScore`]),
/// a document listed twice for one query ([`ErrorCode::DuplicateId`]); the field is
/// always `line N`.
pub fn parse_trec_run(text: &str) -> Result<Run> {
    parse_trec_run_ordered(text).map(into_run)
}

/// [`parse_trec_run`] keeping each query's documents in file order, which is what
/// [`crate::lab::eval::evaluate_ordered`] needs to break score ties exactly as ranx does
/// for the same file.
pub fn parse_trec_run_ordered(text: &str) -> Result<OrderedRun> {
    let mut run = OrderedRun::new();
    let mut first_seen = HashMap::new();
    for (line, columns) in data_lines(text) {
        let [qid, _q0, doc, rank, score, _tag] =
            expect_columns::<6>(&columns, line, "qid Q0 docid rank score tag")?;
        parse_integer(rank, line, "rank")?;
        let score = parse_score(score, line)?;
        check_unique(&mut first_seen, qid, doc, line)?;
        run.entry(qid.to_string())
            .or_default()
            .push((doc.to_string(), score));
    }
    Ok(run)
}

/// Parses TREC qrels (`qid iter docid rel`, whitespace separated, blank lines skipped).
/// `rel` must be an integer (negative and zero grades are kept; only grades at or above
/// a metric's relevance level count as relevant). A (qid, docid) pair judged twice is an
/// [`ErrorCode::DuplicateId`]; a fractional grade (`0.5`) is an
/// [`ErrorCode::InvalidType`], as every other way judgements enter refuses it
/// ([`crate::lab::runs::check_grade`]); any other `rel` that is not an integer (`x`,
/// `1.0`, `NaN`) an [`ErrorCode::ParseError`]. The field of every error is `line N`.
pub fn parse_qrels(text: &str) -> Result<Qrels> {
    let mut qrels = Qrels::new();
    let mut first_seen = HashMap::new();
    for (line, columns) in data_lines(text) {
        let [qid, _iter, doc, rel] = expect_columns::<4>(&columns, line, "qid iter docid rel")?;
        let grade =
            parse_integer(rel, line, "relevance").map_err(|e| match rel.parse::<f64>() {
                Ok(v) if v.is_finite() && v.fract() != 0.0 => line_error(
                    ErrorCode::InvalidType,
                    line,
                    format!(
                        "relevance {} is not a whole number ({})",
                        crate::error::name(rel),
                        crate::lab::runs::GRADES_ARE_WHOLE
                    ),
                ),
                _ => e,
            })?;
        check_unique(&mut first_seen, qid, doc, line)?;
        // Grades are small integers in practice; the conversion is exact below 2^53.
        qrels
            .entry(qid.to_string())
            .or_default()
            .insert(doc.to_string(), grade as f64);
    }
    Ok(qrels)
}

/// Parses a run from its JSON form `{"q1": {"d1": 1.5, ...}, ...}`. A duplicate key is
/// an [`ErrorCode::DuplicateId`], malformed JSON or a non-numeric score an
/// [`ErrorCode::ParseError`] (field `line N`, as reported by the JSON parser).
pub fn run_from_json(text: &str) -> Result<Run> {
    run_from_json_ordered(text).map(into_run)
}

/// [`run_from_json`] keeping each query's documents in the order the JSON object lists
/// them (for [`crate::lab::eval::evaluate_ordered`]).
pub fn run_from_json_ordered(text: &str) -> Result<OrderedRun> {
    let nested: OrderedMap<OrderedMap<f64>> = serde_json::from_str(text).map_err(json_error)?;
    let mut run = OrderedRun::new();
    for (qid, docs) in nested.0 {
        for (doc, score) in &docs.0 {
            crate::error::finite(*score, || key_path(&key_path("", &qid), doc))?;
        }
        run.insert(qid, docs.0);
    }
    Ok(run)
}

/// Parses judgements from their JSON form `{"q1": {"d1": 1, ...}, ...}`; grades must be
/// finite whole numbers ([`crate::lab::runs::check_grade`]: `NON_FINITE_SCORE`, or
/// `INVALID_TYPE` for a fractional grade such as `0.5`, on `<qid>.<docid>`, each id as
/// [`crate::error::key_path`] writes it). Other errors as for [`run_from_json`].
pub fn qrels_from_json(text: &str) -> Result<Qrels> {
    let nested: OrderedMap<OrderedMap<f64>> = serde_json::from_str(text).map_err(json_error)?;
    let mut qrels = Qrels::new();
    for (qid, docs) in nested.0 {
        let mut grades = BTreeMap::new();
        for (doc, grade) in docs.0 {
            crate::lab::runs::check_grade(grade, || key_path(&key_path("", &qid), &doc))?;
            grades.insert(doc, grade);
        }
        qrels.insert(qid, grades);
    }
    Ok(qrels)
}

/// Writes a run in TREC format, one line `qid Q0 docid rank score tag` per document
/// (each line ends with `\n`), queries in id order, documents by descending score with
/// ties broken by ascending document id, ranks from 1. Scores are written in Rust's
/// shortest round-trip form, so [`parse_trec_run`] reads back the same values.
/// Whitespace in `tag` becomes `_`, and an empty tag becomes `calibrank`.
///
/// Errors: an empty id or one with whitespace, which the format cannot hold
/// ([`ErrorCode::InvalidType`], field `qid` or `qid.docid`, each id as
/// [`crate::error::key_path`] writes it: `[""]` for an empty one), and a score that is not
/// finite ([`ErrorCode::NonFiniteScore`], field `qid.docid`): text [`parse_trec_run`]
/// would refuse is never written.
pub fn run_to_trec(run: &Run, tag: &str) -> Result<String> {
    let writable = |id: &str, field: &dyn Fn() -> String| {
        if id.is_empty() || id.chars().any(char::is_whitespace) {
            Err(ScoreError::new(
                ErrorCode::InvalidType,
                field(),
                format!(
                    "a TREC id cannot be empty nor hold whitespace: {}",
                    crate::error::name(id)
                ),
            ))
        } else {
            Ok(())
        }
    };
    for (qid, docs) in run {
        writable(qid, &|| key_path("", qid))?;
        for (doc, &score) in docs {
            writable(doc, &|| key_path(&key_path("", qid), doc))?;
            crate::error::finite(score, || key_path(&key_path("", qid), doc))?;
        }
    }
    let tag = trec_tag(tag);
    let mut out = String::new();
    for (qid, docs) in run {
        let mut ranked: Vec<(&String, f64)> = docs.iter().map(|(d, &s)| (d, s)).collect();
        // `+ 0.0` turns -0.0 into 0.0 so that the two zeros tie.
        ranked.stable_sort_by(|a, b| {
            (b.1 + 0.0)
                .total_cmp(&(a.1 + 0.0))
                .then_with(|| a.0.cmp(b.0))
        });
        for (i, (doc, score)) in ranked.iter().enumerate() {
            // Writing to a String cannot fail.
            let _ = writeln!(out, "{qid} Q0 {doc} {} {score} {tag}", i + 1);
        }
    }
    Ok(out)
}

/// The tag column: no whitespace, never empty.
fn trec_tag(tag: &str) -> String {
    if tag.trim().is_empty() {
        return "calibrank".to_string();
    }
    tag.chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect()
}

/// The lines of a text file, ended by `\n`, `\r\n` or a lone `\r` (as Python's text
/// mode reads them, and ranx with it), a leading byte-order mark dropped (it would
/// otherwise stay in the first query's id, which then matches no judgement).
pub fn text_lines(text: &str) -> TextLines<'_> {
    TextLines {
        rest: Some(text.strip_prefix('\u{FEFF}').unwrap_or(text)),
    }
}

/// The iterator of [`text_lines`] (one small loop: `split` and `flat_map` cost the lab
/// module 1.3 KB gzipped).
pub struct TextLines<'a> {
    rest: Option<&'a str>,
}

impl<'a> Iterator for TextLines<'a> {
    type Item = &'a str;

    #[inline(never)]
    fn next(&mut self) -> Option<&'a str> {
        let rest = self.rest?;
        let bytes = rest.as_bytes();
        match bytes.iter().position(|&b| b == b'\n' || b == b'\r') {
            None => {
                self.rest = None;
                Some(rest)
            }
            Some(i) => {
                let end = if bytes.get(i..i + 2) == Some(b"\r\n") {
                    i + 2
                } else {
                    i + 1
                };
                // `i` and `end` fall after an ASCII byte: char boundaries.
                self.rest = rest.get(end..);
                rest.get(..i)
            }
        }
    }
}

/// The non-blank lines of `text` with their 1-based numbers, split on whitespace.
fn data_lines(text: &str) -> impl Iterator<Item = (usize, Vec<&str>)> {
    text_lines(text)
        .enumerate()
        .map(|(i, line)| (i + 1, line.split_whitespace().collect::<Vec<_>>()))
        .filter(|(_, columns)| !columns.is_empty())
}

/// A parse error on `line`.
fn line_error(code: ErrorCode, line: usize, message: impl fmt::Display) -> ScoreError {
    ScoreError::new(
        code,
        format!("line {line}"),
        format!("line {line}: {message}"),
    )
}

/// The columns of one line, which must number exactly `N`.
fn expect_columns<'a, const N: usize>(
    columns: &[&'a str],
    line: usize,
    layout: &str,
) -> Result<[&'a str; N]> {
    <[&str; N]>::try_from(columns).map_err(|_| {
        let message = format!("expected {N} columns ({layout}), found {}", columns.len());
        line_error(ErrorCode::ParseError, line, message)
    })
}

/// An integer column (a whole number of 64 bits; the token is quoted in the error, its
/// first characters only when long).
fn parse_integer(text: &str, line: usize, column: &str) -> Result<i64> {
    text.parse::<i64>().map_err(|e| {
        let why = match e.kind() {
            std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow => {
                "is outside the 64-bit integers (-9223372036854775808 to 9223372036854775807)"
            }
            _ => "is not an integer",
        };
        line_error(
            ErrorCode::ParseError,
            line,
            format!("{column} {} {why}", crate::error::name(text)),
        )
    })
}

/// A score column: a finite number.
fn parse_score(text: &str, line: usize) -> Result<f64> {
    let score = text.parse::<f64>().map_err(|_| {
        line_error(
            ErrorCode::ParseError,
            line,
            format!("score {} is not a number", crate::error::name(text)),
        )
    })?;
    if score.is_finite() {
        Ok(score)
    } else {
        Err(line_error(
            ErrorCode::NonFiniteScore,
            line,
            format!("score {} is not finite", crate::error::name(text)),
        ))
    }
}

/// Records the line of (qid, doc) and rejects a second occurrence.
fn check_unique<'a>(
    first_seen: &mut HashMap<(&'a str, &'a str), usize>,
    qid: &'a str,
    doc: &'a str,
    line: usize,
) -> Result<()> {
    match first_seen.insert((qid, doc), line) {
        None => Ok(()),
        Some(first) => Err(line_error(
            ErrorCode::DuplicateId,
            line,
            format!(
                "document {} of query {} already appears on line {first}",
                crate::error::name(doc),
                crate::error::name(qid)
            ),
        )),
    }
}

/// Marks a duplicate-key message raised inside JSON deserialization.
const DUPLICATE_KEY: &str = "duplicate key ";

/// Converts a JSON error into a [`ScoreError`] naming its line.
fn json_error(err: serde_json::Error) -> ScoreError {
    let text = err.to_string();
    let code = if text.starts_with(DUPLICATE_KEY) {
        ErrorCode::DuplicateId
    } else {
        ErrorCode::ParseError
    };
    line_error(code, err.line(), text)
}

/// A JSON object read as its entries in document order, rejecting duplicate keys.
struct OrderedMap<V>(Vec<(String, V)>);

impl<'de, V: Deserialize<'de>> Deserialize<'de> for OrderedMap<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        deserializer.deserialize_map(OrderedMapVisitor(PhantomData))
    }
}

/// Serde visitor behind [`OrderedMap`].
struct OrderedMapVisitor<V>(PhantomData<V>);

impl<'de, V: Deserialize<'de>> Visitor<'de> for OrderedMapVisitor<V> {
    type Value = OrderedMap<V>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(
        self,
        mut map: A,
    ) -> std::result::Result<Self::Value, A::Error> {
        let mut entries: Vec<(String, V)> = Vec::new();
        let mut keys = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !keys.insert(key.clone()) {
                return Err(de::Error::custom(format!(
                    "{DUPLICATE_KEY}{}",
                    crate::error::name(&key)
                )));
            }
            entries.push((key, map.next_value()?));
        }
        Ok(OrderedMap(entries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RUN: &str = "q1 Q0 d1 1 2.5 t\nq1 Q0 d2 2 1.5 t\n\n  \nq2 Q0 d1 1 -0.25 t\n";

    #[test]
    fn parses_a_trec_run() {
        let run = parse_trec_run(RUN).unwrap();
        assert_eq!(run.len(), 2);
        assert_eq!(run["q1"]["d1"], 2.5);
        assert_eq!(run["q1"]["d2"], 1.5);
        assert_eq!(run["q2"]["d1"], -0.25);
    }

    #[test]
    fn ordered_run_keeps_file_order() {
        let run = parse_trec_run_ordered("q Q0 z 1 1 t\nq Q0 a 2 1 t\nq Q0 m 3 2 t\n").unwrap();
        let ids: Vec<&str> = run["q"].iter().map(|(d, _)| d.as_str()).collect();
        assert_eq!(ids, vec!["z", "a", "m"]);
    }

    #[test]
    fn wrong_column_count_names_the_line() {
        let e = parse_trec_run("q1 Q0 d1 1 2.5 t\n\nq1 Q0 d2 2 1.5\n").unwrap_err();
        assert_eq!(e.code, ErrorCode::ParseError);
        assert_eq!(e.field, "line 3");
        assert!(e.message.starts_with("line 3:"), "{}", e.message);
        assert!(e.message.contains("found 5"), "{}", e.message);
    }

    #[test]
    fn bad_score_and_rank_are_parse_errors() {
        let e = parse_trec_run("q1 Q0 d1 1 high t\n").unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::ParseError, "line 1")
        );
        assert!(e.message.contains("score \"high\""), "{}", e.message);
        let e = parse_trec_run("q1 Q0 d1 1 1.0 t\nq1 Q0 d2 two 1.0 t\n").unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::ParseError, "line 2")
        );
        assert!(e.message.contains("rank"), "{}", e.message);
        // Too large is said so, not "not an integer"; a long token is shown cut.
        let e = parse_qrels("q1 0 d1 99999999999999999999\n").unwrap_err();
        assert_eq!(
            e.message,
            "line 1: relevance \"99999999999999999999\" is outside the 64-bit integers \
             (-9223372036854775808 to 9223372036854775807)"
        );
        let long = format!("q1 Q0 d1 1 {}x t\n", "9".repeat(100_000));
        let e = parse_trec_run(&long).unwrap_err();
        assert!(e.message.len() < 200, "{}", e.message);
        assert!(
            e.message.ends_with("... (100001 bytes) is not a number"),
            "{}",
            e.message
        );
    }

    #[test]
    fn non_finite_scores_are_rejected() {
        for bad in ["NaN", "nan", "inf", "-infinity", "1e999"] {
            let e = parse_trec_run(&format!("q Q0 a 1 1 t\nq Q0 b 2 {bad} t\n")).unwrap_err();
            assert_eq!(e.code, ErrorCode::NonFiniteScore, "{bad}");
            assert_eq!(e.field, "line 2");
        }
    }

    #[test]
    fn line_ends_of_every_kind_and_a_byte_order_mark() {
        let lf = parse_trec_run("q1 Q0 d1 1 2 x\nq1 Q0 d2 2 1 x\n").unwrap();
        for text in [
            "q1 Q0 d1 1 2 x\r\nq1 Q0 d2 2 1 x\r\n",
            "q1 Q0 d1 1 2 x\rq1 Q0 d2 2 1 x\r",
            "\u{FEFF}q1 Q0 d1 1 2 x\nq1 Q0 d2 2 1 x",
        ] {
            assert_eq!(parse_trec_run(text).unwrap(), lf, "{text:?}");
        }
        let q = parse_qrels("\u{FEFF}q1 0 d1 1\rq1 0 d2 0\r").unwrap();
        assert_eq!(q.keys().collect::<Vec<_>>(), ["q1"]);
        // Lines are numbered as a text editor numbers them, whatever ends them.
        for text in [
            "a\r\n\r\nq Q0 d x 1 t",
            "a\r\rq Q0 d x 1 t",
            "a\n\rq Q0 d x 1 t",
        ] {
            let e = parse_trec_run(text).unwrap_err();
            assert_eq!(e.field, "line 1", "{text:?}");
            let e = parse_trec_run(&text.replacen('a', "", 1)).unwrap_err();
            assert_eq!(e.field, "line 3", "{text:?}");
        }
        assert_eq!(
            text_lines("a\r\r\nb\rc\n").collect::<Vec<_>>(),
            ["a", "", "b", "c", ""]
        );
    }

    #[test]
    fn duplicate_document_names_both_lines() {
        let e = parse_trec_run("q Q0 a 1 2 t\nq Q0 b 2 1 t\nq Q0 a 3 0 t\n").unwrap_err();
        assert_eq!(e.code, ErrorCode::DuplicateId);
        assert_eq!(e.field, "line 3");
        assert!(e.message.contains("line 1"), "{}", e.message);
        // The same document under another query is fine.
        assert!(parse_trec_run("q Q0 a 1 2 t\nr Q0 a 1 2 t\n").is_ok());
    }

    #[test]
    fn parses_qrels_with_any_integer_grade() {
        let qrels = parse_qrels("1 0 28 1\n1 0 35 0\n2 0 7 -1\n2 0 8 2\n").unwrap();
        assert_eq!(qrels["1"]["28"], 1.0);
        assert_eq!(qrels["1"]["35"], 0.0);
        assert_eq!(qrels["2"]["7"], -1.0);
        assert_eq!(qrels["2"]["8"], 2.0);
    }

    #[test]
    fn qrels_errors() {
        let e = parse_qrels("1 0 28 1\n1 0 29\n").unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::ParseError, "line 2")
        );
        // A fractional grade: INVALID_TYPE, as every other way judgements enter says it
        // (tests/lab_grades.rs); a token that is no number stays a parse error.
        let e = parse_qrels("1 0 28 1.5\n").unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InvalidType, "line 1")
        );
        assert!(e.message.contains("relevance \"1.5\""), "{}", e.message);
        let e = parse_qrels("1 0 28 high\n").unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::ParseError, "line 1")
        );
        assert!(e.message.contains("relevance \"high\""), "{}", e.message);
        let e = parse_qrels("1 0 28 1\n\n1 0 28 0\n").unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::DuplicateId, "line 3")
        );
    }

    #[test]
    fn json_round_trip_and_order() {
        let text = r#"{"q2": {"b": 1, "a": 2.5}, "q1": {}}"#;
        let run = run_from_json(text).unwrap();
        assert_eq!(run["q2"]["a"], 2.5);
        assert!(run["q1"].is_empty());
        let ordered = run_from_json_ordered(text).unwrap();
        assert_eq!(
            ordered["q2"],
            vec![("b".to_string(), 1.0), ("a".to_string(), 2.5)]
        );
        let qrels = qrels_from_json(r#"{"q": {"d": 1, "e": 0}}"#).unwrap();
        assert_eq!(qrels["q"]["d"], 1.0);
    }

    #[test]
    fn json_errors_name_the_line() {
        let e = run_from_json("{\"q\": {\"a\": 1,\n \"b\": \"x\"}}").unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::ParseError, "line 2")
        );
        let e = run_from_json("{\"q\": {\"a\": 1,\n\n \"a\": 2}}").unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::DuplicateId, "line 3")
        );
        let e = qrels_from_json("[1, 2]").unwrap_err();
        assert_eq!(e.code, ErrorCode::ParseError);
        let e = run_from_json("{\"q\": {\"a\": 1e999}}").unwrap_err();
        assert_eq!(e.code, ErrorCode::ParseError);
    }

    #[test]
    fn run_to_trec_ranks_by_score_then_id() {
        let run =
            parse_trec_run("q Q0 b 1 1 t\nq Q0 a 2 1 t\nq Q0 c 3 3 t\np Q0 x 1 -0.5 t\n").unwrap();
        let text = run_to_trec(&run, "my run").unwrap();
        assert_eq!(
            text,
            "p Q0 x 1 -0.5 my_run\nq Q0 c 1 3 my_run\nq Q0 a 2 1 my_run\nq Q0 b 3 1 my_run\n"
        );
        assert_eq!(parse_trec_run(&text).unwrap(), run);
        assert!(run_to_trec(&run, "").unwrap().ends_with(" calibrank\n"));
        // What the format cannot hold is refused, not written for the parser to refuse.
        let one = |q: &str, d: &str, s: f64| {
            Run::from([(q.to_string(), BTreeMap::from([(d.to_string(), s)]))])
        };
        for (run, code, field) in [
            (one("q 1", "d", 1.0), ErrorCode::InvalidType, "q 1"),
            (one("", "d", 1.0), ErrorCode::InvalidType, "[\"\"]"),
            (
                one("q.1 x", "d", 1.0),
                ErrorCode::InvalidType,
                "[\"q.1 x\"]",
            ),
            (
                one("q.1", "d x", 1.0),
                ErrorCode::InvalidType,
                "[\"q.1\"].d x",
            ),
            (one("q", "d\t2", 1.0), ErrorCode::InvalidType, "q.d\t2"),
            (one("q", "", 1.0), ErrorCode::InvalidType, "q[\"\"]"),
            (one("q", "d", f64::NAN), ErrorCode::NonFiniteScore, "q.d"),
        ] {
            let e = run_to_trec(&run, "t").unwrap_err();
            assert_eq!((e.code, e.field.as_str()), (code, field));
        }
    }

    #[test]
    fn run_to_trec_round_trips_awkward_scores() {
        let mut run = Run::new();
        let docs = [
            ("a", 0.1 + 0.2),
            ("b", 1e-300),
            ("c", -1.5e300),
            ("d", 123456789.125),
        ];
        run.insert(
            "q".into(),
            docs.iter().map(|&(d, s)| (d.to_string(), s)).collect(),
        );
        assert_eq!(
            parse_trec_run(&run_to_trec(&run, "t").unwrap()).unwrap(),
            run
        );
    }
}
