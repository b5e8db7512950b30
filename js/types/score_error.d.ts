/** Every stable error code (a closed union; `errorCodes()` lists them at run time). */
export type ErrorCode =
  | "NON_FINITE_SCORE"
  | "LENGTH_MISMATCH"
  | "EMPTY_INPUT"
  | "DUPLICATE_ID"
  | "NEGATIVE_VALUE"
  | "INVALID_TOP_N"
  | "INVALID_TOP_K"
  | "INVALID_K"
  | "INVALID_WEIGHT"
  | "INVALID_BANDS"
  | "INVALID_CALIBRATION"
  | "INVALID_CONFIG"
  | "UNKNOWN_FIELD"
  | "INVALID_TYPE"
  | "UNKNOWN_METHOD"
  | "INVALID_TIMESTAMP"
  | "INPUT_TOO_LARGE"
  | "INDEX_OUT_OF_RANGE"
  | "PARSE_ERROR"
  | "EMPTY_QUERY"
  | "INVALID_LABELS"
  | "OUT_OF_RANGE"
  | "INTERNAL"
  | "REENTRANT_CALL";

/** The error every calibrank function throws (both entries share this one class). */
export declare class ScoreError extends Error {
  /** `options.cause`, as `Error`'s: the engine's or the file system's error behind it. */
  constructor(message: string, code: ErrorCode, field: string, options?: { cause?: unknown });
  readonly name: "ScoreError";
  /** Stable machine-readable code. */
  readonly code: ErrorCode;
  /**
   * The offending input field, as a path such as `lists[0].ids[2]`, `options.weights[1]`,
   * `config.calibration.steepness` or `config.recency.fiscalYear.windw`. A map key (an id,
   * a list's name, a query id, an unknown key) is `.key`, or `["key"]` (the key as
   * `JSON.stringify` writes it) when it is empty or holds `.`, `[`, `]`, `"` or `\`:
   * `items["README.md"].name`, `config["top.k"]`.
   * `""` where no input is at fault: `REENTRANT_CALL`,
   * `INTERNAL` for a trap, a call before `init`, or a main entry (Node's or a browser's)
   * that cannot fetch, read or compile its `.wasm` (a Content-Security-Policy without
   * `'wasm-unsafe-eval'` among the reasons), and `INPUT_TOO_LARGE` for a call that needed more memory than
   * wasm32's 4 GiB (the call as a whole, not one input).
   */
  readonly field: string;
  /**
   * What `JSON.stringify` writes (a log line, a worker's reply): `Error`'s `message` is
   * not an own enumerable property, so without it the text would lose the message.
   * `structuredClone` and `postMessage` make a plain `Error` of it (no `code`, no
   * `field`): post this object instead.
   */
  toJSON(): { name: "ScoreError"; code: ErrorCode; field: string; message: string };
}
