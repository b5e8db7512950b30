/** The error every calibrank function throws: `code` is stable, `field` names the input. */
export class ScoreError extends Error {
  constructor(message, code, field) {
    super(message);
    this.name = "ScoreError";
    this.code = code;
    this.field = field;
  }
}
