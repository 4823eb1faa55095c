// A plain node:http server of the repository's web/, node_modules/three and the test
// fixtures (tests/web/fixtures), as a page using the npm package without a bundler gets
// them: for the slabcast/figure browser test and scripts/figure-screenshots.mjs.
import { createReadStream, existsSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm' };
const SERVED = ['web', 'node_modules/three', 'tests/web/fixtures', 'docs'];

/** The server (not listening yet); `extra(pathname)` may answer a path with [type, body]. */
export function createFigureServer(extra = () => null) {
  return http.createServer((req, res) => {
    const { pathname } = new URL(req.url, 'http://x');
    const own = extra(pathname);
    if (own) {
      res.writeHead(200, { 'Content-Type': own[0] }).end(own[1]);
      return;
    }
    const file = path.join(ROOT, path.normalize(decodeURIComponent(pathname)));
    const ok = SERVED.some((d) => file.startsWith(path.join(ROOT, d) + path.sep)) && existsSync(file) && statSync(file).isFile();
    if (!ok) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
}
