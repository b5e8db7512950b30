// Every citation of a section of docs/performance.md or docs/performance-history.md in
// the tree (`docs/performance.md, "The boundary"`, possibly wrapped over a comment's
// lines) names a heading of that file, or a paragraph's bold lead (`**What 80 KB would
// take`): the two files split the current state from each session's record, and a
// citation must point at the one that holds the section. `--fix` points a citation whose
// section is only in the other file at that file. Run by `make lint`.
//   node scripts/check-doc-refs.mjs [--fix]
import { readFileSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const fix = process.argv.includes("--fix");
const DOCS = ["performance.md", "performance-history.md"];
const norm = (s) => s.replace(/\s+/g, " ").trim();
const anchors = {};
for (const d of DOCS) {
  const text = readFileSync(join(root, "docs", d), "utf8");
  const heads = [...text.matchAll(/^#{2,4} (.+)$/gm)].map((m) => norm(m[1]));
  const bold = [...text.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => norm(m[1]));
  anchors[d] = [...heads, ...bold];
}
const holds = (d, title) => anchors[d].some((a) => a.startsWith(title));

// A file name, then (after a comma, a parenthesis, spaces and comment markers, over
// line breaks) a quoted title, itself possibly wrapped over comment lines.
const CITE = /(performance(?:-history)?\.md)(?=[`\s,:(])(`?[\s,:(]*(?:(?:\/\/[!/]?|#|\*)(?=\s))?[\s,:(]*)"((?:[^"\n]|\n\s*(?:\/\/[!/]?|#|\*)?\s*){1,200}?)"/g;
const files = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" })
  .split("\n")
  .filter((f) => f && !f.startsWith("pkg/") && f !== "scripts/check-doc-refs.mjs" && /\.(md|js|mjs|cjs|ts|rs|sh|py|toml|mk|html)$|^Makefile$/.test(f));
const bad = [];
let fixed = 0;
for (const f of files) {
  const path = join(root, f);
  const text = readFileSync(path, "utf8");
  let changed = false;
  const out = text.replace(CITE, (all, doc, gap, rawTitle, at) => {
    // Titles wrapped over comment lines: the markers are not part of them.
    const title = norm(rawTitle.replace(/\n\s*(?:\/\/[!/]?|#|\*)?\s*/g, " "));
    if (holds(doc, title)) return all;
    const other = DOCS.find((d) => d !== doc);
    if (fix && holds(other, title)) {
      changed = true;
      fixed++;
      return other + gap + `"${rawTitle}"`;
    }
    const line = text.slice(0, at).split("\n").length;
    bad.push(`${f}:${line}: ${doc}, "${title}": no such section`);
    return all;
  });
  if (changed) writeFileSync(path, out);
}
if (fixed) console.log(`check-doc-refs: ${fixed} citation(s) pointed at the file that holds their section`);
if (bad.length) {
  console.error(bad.join("\n"));
  console.error(`check-doc-refs: ${bad.length} citation(s) of a section that is not there`);
  process.exit(1);
}
console.log("check-doc-refs: every citation of docs/performance*.md names a section it holds");
