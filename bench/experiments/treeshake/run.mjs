// usage: node run.mjs <bundle.js or .mjs>  — mocks fetch (with 50ms delay) and logs order of wasm loads
import fs from "fs"; import path from "path"; import { pathToFileURL, fileURLToPath } from "url";
const file = path.resolve(process.argv[2]); const dir = path.dirname(file);
const t0 = Date.now(); const log = [];
globalThis.__log = (m) => log.push(`${Date.now() - t0}ms ${m}`);
globalThis.document = { baseURI: pathToFileURL(dir + "/").href, currentScript: { src: pathToFileURL(file).href, tagName: "SCRIPT" } };
globalThis.self = globalThis; globalThis.location = { href: pathToFileURL(file).href };
globalThis.fetch = async (u) => {
  const s = String(u); log.push(`${Date.now() - t0}ms fetch ${s.replace(/^.*\//, "")}`);
  await new Promise((r) => setTimeout(r, 50));
  let p = s.startsWith("file:") ? fileURLToPath(s) : path.join(dir, s.replace(/^.*\//, ""));
  if (!fs.existsSync(p)) { const alt = fs.readdirSync(dir, { recursive: true }).find((f) => path.basename(f) === path.basename(p)); if (alt) p = path.join(dir, alt); }
  if (!fs.existsSync(p) && process.argv[3]) { log.push("(not in dist; served from pkg dir)"); p = path.join(process.argv[3], path.basename(p)); }
  return new Response(fs.readFileSync(p));
};
const origLog = console.log; console.log = (...a) => log.push(`${Date.now() - t0}ms ` + a.join(" "));
try { await import(pathToFileURL(file).href); } catch (e) { log.push("ERROR " + e.message); }
await new Promise((r) => setTimeout(r, 300));
origLog(log.join(" | "));
