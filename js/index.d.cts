export * from "./web/calibrank.js";
export { ScoreError, type ErrorCode } from "./score_error.js";
