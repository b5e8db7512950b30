// The playground's state in the URL hash: JSON, deflated (CompressionStream), base64url.
// "#s=<deflate-raw, base64url>"; "#j=<plain JSON, base64url>" where CompressionStream is
// missing.

function toBase64Url(bytes) {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  const bin = atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

async function pipeThrough(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

/**
 * The longest hash a link carries: Chromium takes URLs up to 2 MB (2,097,152 characters),
 * and a longer one is not opened; a state whose hash is longer is kept out of the
 * address (the page says so). `chars` is changed by the tests only.
 */
export const linkLimit = { chars: 2_000_000 };

/** The hash for `state`. */
export async function encodeState(state) {
  const bytes = new TextEncoder().encode(JSON.stringify(state));
  if (typeof CompressionStream === "function") {
    return "#s=" + toBase64Url(await pipeThrough(bytes, new CompressionStream("deflate-raw")));
  }
  return "#j=" + toBase64Url(bytes);
}

/**
 * The state in `hash`, null when there is none; throws on a damaged hash, saying so (the
 * stream's own error read "Failed to fetch", as if the network had failed).
 */
export async function decodeState(hash) {
  const m = /^#([sj])=(.+)$/.exec(hash || "");
  if (!m) return null;
  try {
    let bytes = fromBase64Url(m[2]);
    if (m[1] === "s") bytes = await pipeThrough(bytes, new DecompressionStream("deflate-raw"));
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new Error("the link is damaged or incomplete: was it cut short when copied?", { cause: e });
  }
}
