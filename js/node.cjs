// Node.js, CommonJS: wasm-bindgen's nodejs glue loads the wasm synchronously.
"use strict";
const glue = require("./cjs/calibrank.js");
const { ScoreError } = require("./score_error.cjs");

glue.__setErrorClass(ScoreError);

module.exports = { ...glue, ScoreError };
