/** The error every calibrank function throws: `code` is stable, `field` names the input. */
export class ScoreError extends Error {
  // Fields declared, so defined on the error: an assignment would go through a setter or a
  // read-only value of the same name on Object.prototype (a caller's), and the error
  // would lose its code (docs/reliability.md, "The package's own objects").
  name = "ScoreError";
  code;
  field;
  /** `options.cause`: what caused it, defined by Error itself (not enumerable). */
  constructor(message, code, field, options) {
    super(message, options);
    this.code = code;
    this.field = field;
  }
}
