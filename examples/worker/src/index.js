// A Cloudflare Worker that scores ranked lists with calibrank.
//
// POST a JSON body { config?, query?, lists, items?, now?, context? } and get back
// the pipeline's output: { results, confidence, outcome, stats, pool? } (`pool` when the
// configuration explains, as by default). Bad input is answered with a JSON error and a
// status code, never with a stack trace:
//   400 { error: { code: "INVALID_JSON" | "LIMITS_NOT_ALLOWED" | <ScoreError code>, field, message } }
//   405 for methods other than POST, 413 for bodies over MAX_BODY_BYTES.
import { Pipeline, ScoreError } from "calibrank";

const MAX_BODY_BYTES = 1_000_000;

function reply(body, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8" } });
}

function fail(status, code, message, field = "") {
  return reply({ error: { code, field, message } }, status);
}

// Reads at most MAX_BODY_BYTES: a declared length over it is refused before reading, and
// a body without one (chunked) is read chunk by chunk and dropped once it goes over.
async function readBody(request) {
  const declared = Number(request.headers.get("content-length") || "0");
  if (declared > MAX_BODY_BYTES) return { tooLarge: true };
  if (!request.body) return { text: "" };
  const reader = request.body.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      return { tooLarge: true };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { text: new TextDecoder().decode(bytes) };
}

export default {
  async fetch(request) {
    try {
      return await handle(request);
    } catch {
      // Anything unexpected is a bare 500: never the exception, its message or stack.
      return fail(500, "INTERNAL", "internal error");
    }
  },
};

async function handle(request) {
  if (request.method !== "POST") return fail(405, "METHOD_NOT_ALLOWED", "POST a JSON body");
  const { tooLarge, text } = await readBody(request);
  if (tooLarge) return fail(413, "BODY_TOO_LARGE", `the body must be at most ${MAX_BODY_BYTES} bytes`);
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return fail(400, "INVALID_JSON", "the body is not valid JSON");
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) return fail(400, "INVALID_JSON", "the body must be a JSON object");
  const { config, ...input } = body;
  // A configuration's `limits` are that pipeline's (up to their ceilings): a request that
  // could set them could make every call as large as the ceilings allow.
  if (config !== null && typeof config === "object" && Object.hasOwn(config, "limits"))
    return fail(400, "LIMITS_NOT_ALLOWED", "a request cannot set limits", "config.limits");
  let pipeline = null;
  try {
    pipeline = new Pipeline(config ?? {});
    return reply(pipeline.run(input));
  } catch (err) {
    if (err instanceof ScoreError) return fail(400, err.code, err.message, err.field);
    return fail(500, "INTERNAL", "internal error");
  } finally {
    // The pipeline lives in the module's memory: free it now rather than at the next GC.
    pipeline?.free();
  }
}
