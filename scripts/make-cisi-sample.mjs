#!/usr/bin/env node
// Builds www/data/cisi-sample.json, the score playground's real-data presets, from
// ../shared/data/cisi-abstain (relative to the repository root; CISI plus queries with
// nothing relevant in the collection) and the document titles of ../shared/data/cisi:
// a few queries, each with its text, the top DEPTH of the BM25 and dense runs (ids and
// scores) and every relevance judgement of the query, and the titles of the documents
// listed for the queries of TITLED_IDS (the others show document ids, to keep the file
// small).
//
// QUERY_IDS: CISI queries whose fused top 5 holds a relevant document;
// NEGATIVE_IDS: CISI queries whose fused top 5 holds none (their relevant documents are
// further down); OOD_IDS: out-of-domain queries judged all 0 (`ood*`: medical queries of
// MEDLINE, `oodot*`: everyday off-topic queries). The playground fits the query
// confidence model (fitQueryConfidence) on half of them and measures it on the other.
//
//   node scripts/make-cisi-sample.mjs            # writes www/data/cisi-sample.json
//   node scripts/make-cisi-sample.mjs --check    # exits 1 if the committed file differs
//   CISI_DIR=/path/to/cisi ABSTAIN_DIR=/path/to/cisi-abstain node scripts/make-cisi-sample.mjs
//
// The output is deterministic (same inputs, same bytes), so it is committed and checked.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const CISI_DIR = process.env.CISI_DIR || resolve(root, "../shared/data/cisi");
export const ABSTAIN_DIR = process.env.ABSTAIN_DIR || resolve(root, "../shared/data/cisi-abstain");
export const OUT = join(root, "www/data/cisi-sample.json");

// Short query texts with a range of difficulty: many or few relevant documents in the
// two top-20 lists, little or much overlap between BM25 and dense.
export const QUERY_IDS = ["1", "3", "9", "13", "19", "22", "26", "55"];
export const NEGATIVE_IDS = ["7", "14", "18", "43"];
export const OOD_IDS = ["ood1", "ood10", "ood12", "ood16", "oodot1", "oodot5", "oodot12", "oodot28"];
export const TITLED_IDS = [...QUERY_IDS, "oodot5"];
const ALL_IDS = [...QUERY_IDS, ...NEGATIVE_IDS, ...OOD_IDS];
export const DEPTH = 20;
const RUNS = [
  ["bm25", "run.bm25.txt"],
  ["dense", "run.dense.txt"],
];

function lines(file, dir = ABSTAIN_DIR) {
  return readFileSync(join(dir, file), "utf8").split("\n").filter((l) => l.trim() !== "");
}

/** The sample as a JSON-ready object. */
export function buildSample() {
  const texts = new Map(lines("queries.tsv").map((l) => {
    const tab = l.indexOf("\t");
    return [l.slice(0, tab), l.slice(tab + 1).trim()];
  }));
  const wanted = new Set(ALL_IDS);
  const runs = {};
  for (const [name, file] of RUNS) {
    const byQuery = new Map();
    for (const l of lines(file)) {
      const [qid, , doc, rank, score] = l.trim().split(/\s+/);
      if (!wanted.has(qid)) continue;
      if (!byQuery.has(qid)) byQuery.set(qid, []);
      byQuery.get(qid).push({ id: doc, rank: Number(rank), score: Number(score) });
    }
    for (const list of byQuery.values()) list.sort((a, b) => a.rank - b.rank);
    runs[name] = byQuery;
  }
  const qrels = new Map();
  for (const l of lines("qrels.txt")) {
    const [qid, , doc, rel] = l.trim().split(/\s+/);
    if (!wanted.has(qid)) continue;
    if (!qrels.has(qid)) qrels.set(qid, {});
    qrels.get(qid)[doc] = Number(rel);
  }
  const needed = new Set();
  const titled = new Set(TITLED_IDS);
  const queries = ALL_IDS.map((qid) => {
    const q = { id: qid, text: texts.get(qid), runs: {}, qrels: qrels.get(qid) || {} };
    if (!q.text) throw new Error(`query ${qid} is not in queries.tsv`);
    if (Object.keys(q.qrels).length === 0) throw new Error(`query ${qid} is not judged`);
    for (const [name] of RUNS) {
      const top = (runs[name].get(qid) || []).slice(0, DEPTH);
      if (top.length === 0) throw new Error(`query ${qid} has no ${name} run`);
      q.runs[name] = { ids: top.map((h) => h.id), scores: top.map((h) => h.score) };
      if (titled.has(qid)) for (const { id } of top) needed.add(id);
    }
    return q;
  });
  const titles = {};
  for (const l of lines("docs.jsonl", CISI_DIR)) {
    const doc = JSON.parse(l);
    if (needed.has(String(doc.id))) titles[String(doc.id)] = String(doc.title || "").replace(/\s+/g, " ").trim();
  }
  return {
    source: "CISI test collection with unanswerable queries (../shared/data/cisi-abstain): queries.tsv, run.bm25.txt, run.dense.txt, qrels.txt; titles from ../shared/data/cisi/docs.jsonl",
    generatedBy: "scripts/make-cisi-sample.mjs",
    depth: DEPTH,
    runs: RUNS.map(([name]) => name),
    queries,
    titles,
  };
}

/** JSON with one key per line, and arrays of numbers or strings on one line. */
export function serialize(value, indent = "") {
  const inner = indent + " ";
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== "object")) return `[${value.map((v) => JSON.stringify(v)).join(", ")}]`;
    return `[\n${value.map((v) => inner + serialize(v, inner)).join(",\n")}\n${indent}]`;
  }
  if (value && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${serialize(v, inner)}`).join(",\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = serialize(buildSample()) + "\n";
  if (process.argv.includes("--check")) {
    const current = readFileSync(OUT, "utf8");
    if (current !== text) {
      console.error(`${OUT} is out of date: run node scripts/make-cisi-sample.mjs`);
      process.exit(1);
    }
    console.log(`${OUT} is up to date`);
  } else {
    mkdirSync(dirname(OUT), { recursive: true });
    writeFileSync(OUT, text);
    const s = JSON.parse(text);
    console.log(`wrote ${OUT}: ${s.queries.length} queries, ${Object.keys(s.titles).length} titles, ${text.length} bytes`);
  }
}
