// The inputs of bench/experiments/persistent-ids.mjs and persistent-ids-intern.mjs: a
// value's JSON text given in one of three modes, a call at a time. `same`: the one value
// parsed once, every call; `fresh`: parsed anew for each call (new strings, the same
// ids); `new`: parsed from the text with its ids ("docs/...") renamed for each call, so
// that no call meets an id an earlier one had.
export const MODES = ["same", "fresh", "new"];

/** A function giving each call's input of `text` in `mode`. */
export function inputsOf(text, mode) {
  const same = JSON.parse(text);
  let renamed = 0;
  return () => {
    if (mode === "same") return same;
    if (mode === "fresh") return JSON.parse(text);
    renamed++;
    return JSON.parse(text.replaceAll('"docs/', `"d${renamed}/`));
  };
}
