/** The error every calibrank function throws: `code` is stable, `field` names the input. */
export class ScoreError extends Error {
  // Its `name` is a getter too, as Pipeline's is: a bundler that renames the class
  // (esbuild's `var ScoreError6 = class extends Error` in an app's bundle) leaves
  // `constructor.name` and Node's printing of an uncaught error ("ScoreError6: ...",
  // which util.inspect takes from the constructor's name) as they are.
  static get name() {
    return "ScoreError";
  }

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

  /** `JSON.stringify`'s object: the message too (an Error's is not enumerable). */
  toJSON() {
    return { name: this.name, code: this.code, field: this.field, message: this.message };
  }
}
