// A minimal static file server on 127.0.0.1 for the browser tests and `make demo`.
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ts": "text/plain; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};

/**
 * Serves `root` (and `mounts`: { "/prefix/": dir }) on 127.0.0.1:`port` (0: any free port).
 * `spa`: a missing file is answered with `root/index.html` and 200 OK, as a single-page
 * app's fallback (`serve -s`, hosts' rewrites, nginx `try_files`) does.
 */
export function serve(root, { port = 0, mounts = {}, headers = {}, spa = false } = {}) {
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url, "http://127.0.0.1");
      let path = decodeURIComponent(url.pathname);
      let base = resolve(root);
      for (const [prefix, dir] of Object.entries(mounts)) {
        if (path.startsWith(prefix)) {
          base = resolve(dir);
          path = "/" + path.slice(prefix.length);
          break;
        }
      }
      let file = normalize(join(base, path));
      if (!file.startsWith(base)) throw Object.assign(new Error("forbidden"), { status: 403 });
      if ((await stat(file)).isDirectory()) file = join(file, "index.html");
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] || "application/octet-stream", "cache-control": "no-store", ...headers });
      res.end(body);
    } catch (err) {
      if (spa && !err.status) {
        res.writeHead(200, { "content-type": TYPES[".html"], "cache-control": "no-store" });
        res.end(await readFile(join(resolve(root), "index.html")).catch(() => "<!doctype html>"));
        return;
      }
      res.writeHead(err.status || 404, { "content-type": "text/plain" });
      res.end(String(err.status || 404));
    }
  });
  return new Promise((ok) => server.listen(port, "127.0.0.1", () => ok({ server, url: `http://127.0.0.1:${server.address().port}` })));
}
