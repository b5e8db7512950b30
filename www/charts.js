// Charts drawn with Observable Plot (www/vendor/plot.umd.min.js, loaded as a classic
// script: window.Plot). Each mark element gets data attributes carrying the full-precision
// value it draws (data-id, data-stage, data-value, data-band), for the tests and for
// the keyboard cursor.
import { fmt, fmtp, full } from "./dom.js";

const P = () => globalThis.Plot;

export const BAND_COLORS = { hit: "#17803d", degraded: "#c26a00", miss: "#8a94a6" };
export const BANDS = ["hit", "degraded", "miss"];
// Text in a band's colour, darker: 4.5:1 and more on the band's tint behind it (the strip's
// and the curve's areas, 16% and 9% of BAND_COLORS on white), where BAND_COLORS gave 3 to 4.
export const BAND_TEXT = { hit: "#136b33", degraded: "#8f4c00", miss: "#596476" };
export const LIST_COLORS = ["#3e6fb0", "#9b59b6", "#2a9d8f", "#d1495b", "#7a5c3e", "#5c6b7a", "#e377c2", "#17becf"];
const INK = "#1c2434";
const MUTED = "#6b7585";
const tick = (d) => String(Number(d.toPrecision(4)));
const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

/** A render transform that sets attributes on each rendered element, in index order. */
export function tag(attrs) {
  return (index, scales, values, dimensions, context, next) => {
    const g = next(index, scales, values, dimensions, context);
    if (!g) return g;
    const els = g.children;
    for (let j = 0; j < index.length && j < els.length; j++) {
      for (const [k, v] of Object.entries(attrs(index[j]))) if (v !== undefined && v !== null) els[j].setAttribute(k, String(v));
    }
    return g;
  };
}

function base(width, height, extra = {}) {
  return { width, height, style: { fontFamily: FONT, fontSize: "11px", color: INK, background: "transparent", overflow: "visible" }, ...extra };
}

function labelWidth(labels) {
  const longest = labels.reduce((m, l) => Math.max(m, String(l).length), 0);
  // Up to a rank of 1000 and a short id (rowLabels): 26 characters.
  return Math.min(170, Math.max(36, 8 + longest * 6.2));
}

/** The right margin that holds value labels (10 px, 4 px after the bar's end). */
function valueMargin(texts) {
  const longest = texts.reduce((m, t) => Math.max(m, String(t).length), 0);
  return Math.min(160, Math.max(30, 12 + longest * 6));
}

// A white outline under text drawn over rules and bars, so that they never cross it.
const HALO = { stroke: "white", strokeWidth: 3, paintOrder: "stroke" };
// Value labels of dropped candidates: fainter than the returned ones, still legible.
const labelOpacity = (r) => (r.returned ? 1 : 0.7);

/**
 * Rebuilds a chart only when what it draws changed: `cache` maps a slot to the last
 * { sig, svg }, where `sig` is the JSON of every value the chart depends on.
 */
function memo(cache, slot, sig, build) {
  const hit = cache?.get(slot);
  if (hit && hit.sig === sig) return hit.svg;
  const svg = build();
  cache?.set(slot, { sig, svg });
  return svg;
}

const sigOf = (...parts) => JSON.stringify(parts);

/**
 * `id` in at most `max` characters (code points): a longer one keeps its start and its
 * end around "…", as ids sharing a long prefix (paths, URLs) differ at their end.
 */
export function shortId(id, max = 20) {
  const chars = [...String(id)];
  if (chars.length <= max) return String(id);
  const head = Math.ceil((max - 1) * 0.35);
  return chars.slice(0, head).join("") + "…" + chars.slice(head - max + 1).join("");
}

/**
 * The rows' labels on a y axis, one per row and all different (the axis is a band scale
 * over them: two rows with one label were drawn on one line): the rank (or "·" for a
 * dropped candidate) and the short id, then " (2)", " (3)"… where short ids still meet.
 */
export function rowLabels(rows) {
  const seen = new Set();
  return rows.map((r) => {
    const base = `${r.returned ? `${r.rank}. ` : "· "}${shortId(r.id)}`;
    let label = base;
    for (let n = 2; seen.has(label); n++) label = `${base} (${n})`;
    seen.add(label);
    return label;
  });
}

/**
 * Gives the y axis' tick labels of `svg` the id of their row (data-id, from `idOf`: label
 * -> id), so that hovering a cut label shows the row's tooltip with the whole id.
 */
function tickIds(svg, idOf) {
  for (const t of svg.querySelectorAll('[aria-label="y-axis tick label"] text')) {
    const id = idOf.get(t.textContent);
    if (id !== undefined) t.setAttribute("data-id", id);
  }
  return svg;
}

function rowAttrs(r, stage, value, extra = {}) {
  return { "data-id": r.id, "data-stage": stage, "data-value": full(value), "data-returned": String(r.returned), ...extra };
}

/** What a normalization read from the pool (`output.pool.normalization`), for a panel's note. */
function scaleText(s) {
  switch (s.method) {
    case "max":
      return ` (÷ ${fmt(s.max)})`;
    case "min_max":
      return ` (min ${fmt(s.min)}, max ${fmt(s.max)})`;
    case "z_score":
      return ` (mean ${fmt(s.mean)}, sd ${fmt(s.sd)}${s.scale !== 1 ? `, of scores ÷ ${fmt(s.scale)}` : ""})`;
    case "softmax":
      return ` (max ${fmt(s.max)}, sum ${fmt(s.sum)}, T ${fmtp(s.temperature)})`;
    default:
      return "";
  }
}

/**
 * The stage-by-stage small multiples: fusion (stacked by list), after recency, after
 * rerank, normalized, calibrated. Returns [{ key, title, note, svg }]; `pool`:
 * the output's, what the pool's stages read (their notes say it).
 */
export function stagePanels(rows, { width, listNames, effective, floors, pool, cache }) {
  const Plot = P();
  const labels = rowLabels(rows);
  const labelOf = new Map(rows.map((r, i) => [r, labels[i]]));
  const idOf = new Map(rows.map((r, i) => [labels[i], r.id]));
  const ml = labelWidth(labels);
  const height = 38 + rows.length * 19;
  const opacity = (r) => (r.returned ? 1 : 0.38);
  const y = { domain: labels, label: null, tickSize: 0 };
  const listColor = { type: "categorical", domain: listNames, range: LIST_COLORS };
  const common = (texts, extra) => base(width, height, { marginLeft: ml, marginRight: valueMargin(texts), marginTop: 8, marginBottom: 26, y, ...extra });
  const valueText = (get, text, extra) =>
    Plot.text(rows, { x: get, y: (r) => labelOf.get(r), text, dx: 4, textAnchor: "start", fill: INK, fillOpacity: labelOpacity, fontSize: 10, ...HALO, ...extra });

  const contributions = rows.flatMap((r) =>
    r.explain.contributions.map((c) => ({ r, list: c.list, rank: c.rank, contribution: c.contribution, label: labelOf.get(r) })),
  );
  const ids = rows.map((r) => [r.id, r.rank, r.returned]);
  const fusion = () => Plot.plot(
    common(rows.map((r) => fmt(r.explain.fused)), {
      x: { label: null, grid: true, ticks: Math.max(2, Math.floor(width / 95)), tickFormat: tick },
      color: listColor,
      marks: [
        Plot.barX(contributions, {
          x: "contribution",
          y: "label",
          fill: "list",
          fillOpacity: (d) => opacity(d.r),
          stroke: "white",
          strokeWidth: 0.6,
          render: tag((i) => rowAttrs(contributions[i].r, "contribution", contributions[i].contribution, { "data-list": contributions[i].list, "data-rank": contributions[i].rank })),
        }),
        Plot.ruleX([0], { stroke: MUTED }),
        valueText((r) => r.explain.fused, (r) => fmt(r.explain.fused), { render: tag((i) => rowAttrs(rows[i], "fused", rows[i].explain.fused)) }),
      ],
    }),
  );

  const simple = (stage, get, { fill = "#5a7bb5", text = (r) => fmt(get(r)), rules = [], xExtra = {} } = {}) => () =>
    Plot.plot(
      common(rows.map(text), {
        x: { grid: true, label: null, ticks: Math.max(2, Math.floor(width / 95)), tickFormat: tick, ...xExtra },
        marks: [
          Plot.barX(rows, {
            x: get,
            y: (r) => labelOf.get(r),
            fill: typeof fill === "function" ? fill : () => fill,
            fillOpacity: opacity,
            render: tag((i) => rowAttrs(rows[i], stage, get(rows[i]), { "data-band": rows[i].band })),
          }),
          Plot.ruleX([0], { stroke: MUTED }),
          ...rules,
          valueText(get, text),
        ],
      }),
    );

  const ce = pool?.crossEncoder;
  // The rerank stage's fiscal-year boost (rerank.recencyBoost), where it moved a score.
  const fiscal = rows.some((r) => r.explain.rerankRecencyMultiplier !== 1) ? `, then × fiscal-year boost (recencyBoost ${fmtp(effective.rerank.recencyBoost)})` : "";
  const rerankNote =
    effective.rerank.method === "none"
      ? `rerank: none${fiscal || " (unchanged)"}`
      : effective.rerank.method === "heuristic"
        ? `× heuristic factors${fiscal}`
        : `cross-encoder, min-max per query${ce ? ` (raw ${fmt(ce.min)} to ${fmt(ce.max)})` : ""}${fiscal}`;
  const scale = pool ? ` over ${pool.candidates} candidates${scaleText(pool.normalization)}` : "";
  const normNote = effective.normalization.method === "none" ? "normalization: none (unchanged)" : `${effective.normalization.method}${scale}, minRelevance ${fmtp(effective.normalization.minRelevance)}`;
  const recencyNote = effective.recency.mode === "none" ? "recency: none (×1)" : `× ${effective.recency.mode.replace("_", " ")} multiplier`;
  const floorRule = (v, color, dash) => Plot.ruleX([v], { stroke: color, strokeWidth: 1.5, strokeDasharray: dash });
  const normRules = effective.normalization.method === "none" ? [] : [floorRule(effective.normalization.minRelevance, MUTED, "3,3")];

  const panel = (key, title, note, build, deps) => ({ key, title, note, svg: memo(cache, key, sigOf(width, ids, note, deps), () => tickIds(build(), idOf)) });
  const values = (get) => rows.map(get);
  return [
    panel("fused", "1 · Fusion (weighted RRF)", "stacked by list: w / (k + rank)", fusion, [listNames, values((r) => r.explain.contributions)]),
    panel(
      "afterRecency",
      "2 · Recency",
      recencyNote,
      simple("afterRecency", (r) => r.explain.afterRecency, { text: (r) => (r.explain.recencyMultiplier !== 1 ? `${fmt(r.explain.afterRecency)} ×${fmtp(r.explain.recencyMultiplier)}` : fmt(r.explain.afterRecency)) }),
      values((r) => [r.explain.afterRecency, r.explain.recencyMultiplier]),
    ),
    panel("afterRerank", "3 · Rerank", rerankNote, simple("afterRerank", (r) => r.explain.afterRerank, { fill: "#6f63b5" }), values((r) => r.explain.afterRerank)),
    panel("normalized", "4 · Normalization", normNote, simple("normalized", (r) => r.explain.normalized, { fill: "#3f8fa6", rules: normRules }), values((r) => r.explain.normalized)),
    panel(
      "calibrated",
      "5 · Calibration",
      `floors ${fmtp(floors.highFloor)} / ${fmtp(floors.degradedFloor)}${floors.profile ? ` (profile ${floors.profile})` : ""}, minConfidence ${fmtp(effective.minConfidence)}`,
      simple("calibrated", (r) => r.explain.calibrated, {
        fill: (r) => BAND_COLORS[r.band],
        xExtra: { domain: [0, 1] },
        rules: [floorRule(floors.highFloor, BAND_COLORS.hit, "4,3"), floorRule(floors.degradedFloor, BAND_COLORS.degraded, "4,3"), floorRule(effective.minConfidence, MUTED, "2,3")],
      }),
      values((r) => [r.explain.calibrated, r.band]),
    ),
  ];
}

/** The calibration curve with the results on it and the band floors. */
export function calibrationCurve({ points, rows, width, floors, minConfidence, threshold, domain, labelPoints }) {
  const Plot = P();
  const [lo, hi] = domain;
  const areas = [
    { band: "hit", y1: floors.highFloor, y2: 1 },
    { band: "degraded", y1: floors.degradedFloor, y2: floors.highFloor },
    { band: "miss", y1: 0, y2: floors.degradedFloor },
  ].filter((a) => a.y2 > a.y1);
  const floorLine = (value, band, text, dash) => [
    Plot.ruleY([value], { stroke: BAND_COLORS[band], strokeWidth: 1.5, strokeDasharray: dash, render: tag(() => ({ "data-floor": text, "data-value": full(value) })) }),
    Plot.text([value], { x: hi, y: (d) => d, text: () => `${text} ${fmtp(value)}`, textAnchor: "end", dy: -6, fill: BAND_TEXT[band], fontSize: 10, fontWeight: 600, render: tag(() => ({ "data-floor-label": text })) }),
  ];
  const rowsDrawn = rows.filter((r) => r.explain);
  // Above its rule: below it, at 0, it would sit on the x axis' tick labels. Its place is
  // kept clear of the point labels (pointLabels' `taken`).
  const minLabel = { x: lo, y: minConfidence, dx: 4, dy: -6, text: `minConfidence ${fmtp(minConfidence)}` };
  const marks = [
    Plot.rect(areas, { x1: lo, x2: hi, y1: "y1", y2: "y2", fill: (a) => BAND_COLORS[a.band], fillOpacity: 0.09 }),
    ...floorLine(floors.highFloor, "hit", "high floor", "5,3"),
    ...floorLine(floors.degradedFloor, "degraded", "degraded floor", "5,3"),
    Plot.ruleY([minConfidence], { stroke: MUTED, strokeDasharray: "2,3" }),
    Plot.text([minLabel], { x: "x", y: "y", text: "text", dx: minLabel.dx, dy: minLabel.dy, textAnchor: "start", fill: MUTED, fontSize: 10, ...HALO }),
  ];
  if (threshold !== undefined) {
    marks.push(Plot.ruleX([threshold], { stroke: "#1d3557", strokeOpacity: 0.5, strokeDasharray: "3,3" }));
    marks.push(Plot.text([threshold], { x: (d) => d, y: 0.02, text: () => `threshold ${fmtp(threshold)}`, textAnchor: "start", dx: 4, fill: "#1d3557", fontSize: 10 }));
  }
  marks.push(
    Plot.line(points, {
      x: "x",
      y: "y",
      stroke: "#1d3557",
      strokeWidth: 2.2,
      render: tag(() => ({ "data-role": "curve", "data-points": JSON.stringify(points.map((p) => [p.x, p.y])) })),
    }),
    Plot.dot(rowsDrawn, {
      x: (r) => r.explain.normalized,
      y: (r) => r.score,
      r: (r) => (r.returned ? 6 : 4.5),
      fill: (r) => (r.returned ? BAND_COLORS[r.band] : "white"),
      stroke: (r) => (r.returned ? "white" : BAND_COLORS[r.band]),
      strokeWidth: 1.6,
      render: tag((i) => rowAttrs(rowsDrawn[i], "curve", rowsDrawn[i].score, { "data-raw": full(rowsDrawn[i].explain.normalized), "data-band": rowsDrawn[i].band })),
    }),
  );
  const height = Math.max(240, Math.min(360, width * 0.55));
  const margins = { marginLeft: 44, marginRight: 16, marginTop: 20, marginBottom: 36 };
  if (labelPoints) marks.push(...pointLabels(rowsDrawn.filter((r) => r.returned), { width, height, ...margins, domain }, [minLabel], rowsDrawn));
  return Plot.plot(
    base(width, height, {
      ...margins,
      x: { domain: [lo, hi], label: "raw score before calibration →", grid: true, tickFormat: tick, ticks: Math.max(3, Math.floor(width / 80)) },
      y: { domain: [0, 1], label: "↑ calibrated confidence", grid: true },
      marks,
    }),
  );
}

const pointText = (r) => shortId(r.id, 18);

/**
 * The ids beside the results on the calibration curve: after the dot, else before it
 * (inside the plot either way), clear of the labels already placed and of every dot (a
 * label over another result's dot hid it: seed 004's "policy-fy2025" over "overview");
 * a label with no free place is left out (the tooltip still names the dot). `dots`: every
 * result drawn, returned or not.
 */
function pointLabels(rows, { width, height, marginLeft, marginRight, marginTop, marginBottom, domain: [lo, hi] }, taken = [], dots = rows) {
  const px = (x) => marginLeft + ((x - lo) / (hi - lo)) * (width - marginLeft - marginRight);
  const py = (y) => height - marginBottom - y * (height - marginTop - marginBottom);
  const placed = taken.map((t) => ({ x0: px(t.x) + t.dx, x1: px(t.x) + t.dx + t.text.length * 6, y0: py(t.y) + t.dy - 7, y1: py(t.y) + t.dy + 7 }));
  // The y axis' label, top left ("↑ calibrated confidence").
  placed.push({ x0: 0, x1: 160, y0: 0, y1: marginTop });
  // Each dot's box: its radius (6 returned, 4.5 dropped) and stroke.
  const dotBoxes = dots.map((r) => {
    const x = px(r.explain.normalized);
    const y = py(r.score);
    const rad = (r.returned ? 6 : 4.5) + 1;
    return { x0: x - rad, x1: x + rad, y0: y - rad, y1: y + rad };
  });
  const clear = (box) => box.x0 >= marginLeft && box.x1 <= width - marginRight && box.y0 >= 0 && box.y1 <= height - marginBottom && ![...placed, ...dotBoxes].some((b) => b.x0 < box.x1 && box.x0 < b.x1 && b.y0 < box.y1 && box.y0 < b.y1);
  // Where a label may go, in order: after the dot, before it, then a line above or below
  // it: centred on it, ending at it, starting at it.
  const SPOTS = [
    { dx: 9, dy: 0, anchor: "start" },
    { dx: -9, dy: 0, anchor: "end" },
    ...[["middle", 0], ["end", 6], ["start", -6]].flatMap(([anchor, dx]) => [-16, 16].map((dy) => ({ dx, dy, anchor }))),
  ];
  const bySpot = SPOTS.map(() => []);
  for (const r of rows) {
    const w = pointText(r).length * 6 + 4;
    const x = px(r.explain.normalized);
    const y = py(r.score);
    const boxAt = ({ dx, dy, anchor }) => {
      const x0 = x + dx - (anchor === "start" ? 0 : anchor === "end" ? w : w / 2);
      return { x0, x1: x0 + w, y0: y + dy - 7, y1: y + dy + 7 };
    };
    const i = SPOTS.findIndex((spot) => clear(boxAt(spot)));
    if (i < 0) continue;
    placed.push(boxAt(SPOTS[i]));
    bySpot[i].push(r);
  }
  const Plot = P();
  const common = { x: (r) => r.explain.normalized, y: (r) => r.score, text: pointText, fill: INK, fontSize: 10, ...HALO, render: tag(() => ({ "data-point-label": "" })) };
  return SPOTS.map((spot, i) => Plot.text(bySpot[i], { ...common, dx: spot.dx, dy: spot.dy, textAnchor: spot.anchor }));
}

/** Two bar charts on the same rows: max-normalized (relative) and calibrated (absolute). */
export function relativeAbsolute(rows, { width, floors, cache }) {
  const Plot = P();
  const drawn = rows.filter((r) => r.relative !== undefined);
  const labels = rowLabels(drawn);
  const labelOf = new Map(drawn.map((r, i) => [r, labels[i]]));
  const idOf = new Map(drawn.map((r, i) => [labels[i], r.id]));
  const ml = labelWidth(labels);
  const height = 34 + drawn.length * 19;
  const panel = (stage, get, fill, rules) => tickIds(
    Plot.plot(
      base(width, height, {
        marginLeft: ml,
        marginRight: 46,
        marginTop: 6,
        marginBottom: 26,
        x: { domain: [0, 1], grid: true, label: null, ticks: 5 },
        y: { domain: labels, label: null, tickSize: 0 },
        marks: [
          Plot.barX(drawn, { x: get, y: (r) => labelOf.get(r), fill, fillOpacity: (r) => (r.returned ? 1 : 0.38), render: tag((i) => rowAttrs(drawn[i], stage, get(drawn[i]), { "data-band": drawn[i].band })) }),
          ...rules,
          Plot.text(drawn, { x: get, y: (r) => labelOf.get(r), text: (r) => fmt(get(r), 3), dx: 4, textAnchor: "start", fill: INK, fillOpacity: labelOpacity, fontSize: 10, ...HALO }),
        ],
      }),
    ), idOf);
  const ids = drawn.map((r) => [r.id, r.rank, r.returned]);
  return {
    relative: memo(cache, "relative", sigOf(width, ids, drawn.map((r) => r.relative)), () => panel("relative", (r) => r.relative, () => "#7b8fb5", [])),
    absolute: memo(cache, "absolute", sigOf(width, ids, drawn.map((r) => [r.score, r.band]), floors.highFloor, floors.degradedFloor), () =>
      panel("absolute", (r) => r.score, (r) => BAND_COLORS[r.band], [
        Plot.ruleX([floors.highFloor], { stroke: BAND_COLORS.hit, strokeDasharray: "4,3", strokeWidth: 1.5 }),
        Plot.ruleX([floors.degradedFloor], { stroke: BAND_COLORS.degraded, strokeDasharray: "4,3", strokeWidth: 1.5 }),
      ]),
    ),
  };
}

/** The reliability diagram of a calibrationError report. */
export function reliability(report, { width, cache }) {
  return memo(cache, "reliability", sigOf(width, report), () => reliabilityChart(report, width));
}

/** The id of a reliability bin's marks (data-id, for the chart cursor). */
export const binId = (i) => `bin-${i}`;

/** Each non-empty bin: a bar to its fraction relevant and a dot whose area is its count. */
function reliabilityChart(report, width) {
  const Plot = P();
  const bins = report.bins.map((b, i) => ({ ...b, i })).filter((b) => b.count > 0);
  return Plot.plot(
    base(width, Math.max(240, Math.min(340, width * 0.6)), {
      marginLeft: 44,
      marginBottom: 36,
      x: { domain: [0, 1], label: "mean predicted confidence →", grid: true },
      y: { domain: [0, 1], label: "↑ fraction relevant", grid: true },
      // From 0: a dot's area in proportion to its count (Plot's sqrt scale over [0, max]).
      r: { range: [0, 11] },
      marks: [
        Plot.line([{ x: 0, y: 0 }, { x: 1, y: 1 }], { x: "x", y: "y", stroke: MUTED, strokeDasharray: "4,4" }),
        Plot.rect(bins, { x1: "lower", x2: "upper", y1: 0, y2: "fractionPositive", fill: "#3e6fb0", fillOpacity: 0.22, inset: 1, render: tag((i) => ({ "data-id": binId(bins[i].i) })) }),
        Plot.line(bins, { x: "meanConfidence", y: "fractionPositive", stroke: "#3e6fb0", strokeWidth: 1.5 }),
        Plot.dot(bins, {
          x: "meanConfidence",
          y: "fractionPositive",
          r: "count",
          sort: null, // in bin order (Plot draws the largest first by default)
          fill: "#3e6fb0",
          fillOpacity: 0.85,
          stroke: "white",
          render: tag((i) => ({ "data-id": binId(bins[i].i), "data-bin": bins[i].i, "data-count": bins[i].count, "data-mean": full(bins[i].meanConfidence), "data-fraction": full(bins[i].fractionPositive) })),
        }),
      ],
    }),
  );
}

/** Multi-query fusion: one bar chart per method, same items. */
export function multiPanels(byMethod, { width, order, selected }) {
  const Plot = P();
  const labels = order;
  const ml = labelWidth(labels);
  return Object.entries(byMethod).map(([method, out]) => {
    const rows = out.results.map((r, i) => ({ ...r, rank: i + 1 }));
    const valueLabel = (r) => `${fmt(r.score)} (#${r.rank})`;
    const svg = Plot.plot(
      base(width, 34 + labels.length * 20, {
        marginLeft: ml,
        marginRight: valueMargin(rows.map(valueLabel)),
        marginTop: 6,
        marginBottom: 26,
        x: { grid: true, label: null, ticks: 4, tickFormat: tick },
        y: { domain: labels, label: null, tickSize: 0 },
        marks: [
          Plot.barX(rows, { x: "score", y: "id", fill: method === selected ? "#3e6fb0" : "#9aa7bd", render: tag((i) => ({ "data-id": rows[i].id, "data-method": method, "data-value": full(rows[i].score), "data-rank": rows[i].rank })) }),
          Plot.ruleX([0], { stroke: MUTED }),
          Plot.text(rows, { x: "score", y: "id", text: valueLabel, dx: 4, textAnchor: "start", fill: INK, fontSize: 10, ...HALO }),
        ],
      }),
    );
    return { method, svg };
  });
}

/** The band strip of seed 002: scores on [0, 1] (from -1 when one is negative) over the coloured bands. */
export function bandStrip(rows, { width, floors }) {
  const Plot = P();
  const lo = rows.some((r) => r.score < 0) ? -1 : 0;
  const areas = [
    { band: "miss", x1: lo, x2: floors.degradedFloor },
    { band: "degraded", x1: floors.degradedFloor, x2: floors.highFloor },
    { band: "hit", x1: floors.highFloor, x2: 1 },
  ].filter((a) => a.x2 > a.x1);
  return Plot.plot(
    base(width, 130, {
      marginLeft: 16,
      marginRight: 16,
      marginBottom: 30,
      x: { domain: [lo, 1], label: "score →", grid: false },
      y: { domain: [0, 1], axis: null },
      marks: [
        Plot.rect(areas, { x1: "x1", x2: "x2", y1: 0.15, y2: 0.85, fill: (a) => BAND_COLORS[a.band], fillOpacity: 0.16 }),
        Plot.text(areas, { x: (a) => (a.x1 + a.x2) / 2, y: 0.78, text: "band", fill: (a) => BAND_TEXT[a.band], fontWeight: 600, fontSize: 11, render: tag((i) => ({ "data-band-label": areas[i].band })) }),
        Plot.ruleX([floors.degradedFloor, floors.highFloor], { stroke: INK, strokeOpacity: 0.5, strokeDasharray: "4,3" }),
        Plot.dot(rows, {
          x: "score",
          y: 0.45,
          r: 7,
          fill: (r) => BAND_COLORS[r.outcome.kind],
          stroke: "white",
          strokeWidth: 2,
          render: tag((i) => ({ "data-index": rows[i].index, "data-value": full(rows[i].score), "data-band": rows[i].outcome.kind })),
        }),
        Plot.text(rows, { x: "score", y: 0.45, text: (r) => fmt(r.score, 2), dy: 16, fill: INK, fontSize: 10 }),
      ],
    }),
  );
}
