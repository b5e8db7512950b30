// TREC runs and qrels parsed from text (`parseTrecRun`, `parseQrels`).
import { Input, precheck, typeError, wellFormedText } from "../wire.js";

import { runOfSections } from "./runs.js";
import { OP, limitsOf, w } from "./shared.js";

export function trecText(text, options, fn) {
  const lim = limitsOf(options, fn);
  const opts = precheck.options(lim, options);
  if (typeof text !== "string") throw typeError("text", "a string", text);
  precheck.text(lim, text.length, "text", text);
  // Its ids are identities: a lone surrogate would be read as U+FFFD and could merge two.
  wellFormedText(text, "text", "a run's or judgements' text");
  return new Input().text(opts).text(text);
}

/** Parses a TREC run (`qid Q0 docid rank score tag` per line) into its JSON form. */
export function parseTrecRun(text, options) {
  return runOfSections(w().call(OP.PARSE_RUN, trecText(text, options, "parseTrecRun")));
}

/** Parses TREC qrels (`qid iter docid rel` per line) into their JSON form. */
export function parseQrels(text, options) {
  return runOfSections(w().call(OP.PARSE_QRELS, trecText(text, options, "parseQrels")));
}
