#!/usr/bin/env node
// A tiny static server for the playground (no dependencies):
//
//   node web/bin/serve.mjs            -> http://127.0.0.1:${PORT:-8080}/
//
// Serves web/ at / and the project's node_modules/ at /node_modules/ (three.js
// for the playground). GET and HEAD only; anything that would leave those two
// directories (.., encoded slashes, NUL bytes, symlinks pointing outside) is
// refused. HOST and PORT come from the environment.

import { createReadStream, realpathSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const WEB_ROOT = path.resolve(here, '..');
const PROJECT_ROOT = path.resolve(WEB_ROOT, '..');

export const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.glb': 'model/gltf-binary',
  '.gltf': 'model/gltf+json',
};

/**
 * Map a request path to a file below one of the mounts, or null when it is not
 * allowed. mounts: [[urlPrefix ending in '/', directory], ...], longest first.
 */
export function resolveRequestPath(urlPath, mounts) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  // Any ".." segment is refused outright (rather than normalised away).
  if (decoded.split('/').some((seg) => seg === '..')) return null;
  for (const [prefix, dir] of mounts) {
    if (decoded === prefix.slice(0, -1) || decoded.startsWith(prefix)) {
      const rel = decoded.slice(prefix.length);
      const file = path.resolve(dir, `.${path.posix.sep}${rel}`);
      if (file !== dir && !file.startsWith(dir + path.sep)) return null;
      return { file, dir, trailingSlash: decoded.endsWith('/') };
    }
  }
  return null;
}

function send(res, status, text, head = false) {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(head ? undefined : text);
}

/**
 * An http.Server serving `webRoot` at / and `nodeModules` at /node_modules/.
 * @param {{webRoot?: string, nodeModules?: string, log?: (line: string) => void}} [options]
 */
export function createStaticServer(options = {}) {
  const webRoot = path.resolve(options.webRoot ?? WEB_ROOT);
  const nodeModules = path.resolve(options.nodeModules ?? path.join(PROJECT_ROOT, 'node_modules'));
  const mounts = [['/node_modules/', nodeModules], ['/', webRoot]];
  const log = options.log ?? (() => {});

  return http.createServer(async (req, res) => {
    const head = req.method === 'HEAD';
    if (req.method !== 'GET' && !head) {
      res.setHeader('Allow', 'GET, HEAD');
      send(res, 405, 'method not allowed\n', head);
      return;
    }
    let url;
    try {
      url = new URL(req.url, 'http://localhost');
    } catch {
      send(res, 400, 'bad request\n', head);
      return;
    }
    // Check the raw path too: URL() already folds "/a/../b", which must not sneak through.
    const raw = (req.url || '').split('?')[0];
    if (/(^|\/|%2f)(\.|%2e){2}(\/|%2f|$)/i.test(raw) || /%2f|%5c|%00/i.test(raw)) {
      send(res, 403, 'forbidden\n', head);
      return;
    }
    const target = resolveRequestPath(url.pathname, mounts);
    if (!target) {
      send(res, 403, 'forbidden\n', head);
      return;
    }
    try {
      let file = target.file;
      let info = await stat(file);
      if (info.isDirectory()) {
        if (!target.trailingSlash) {
          res.writeHead(301, { Location: `${url.pathname}/${url.search}` });
          res.end();
          return;
        }
        file = path.join(file, 'index.html');
        info = await stat(file);
      }
      // Symlinks must not lead outside their mount.
      const real = await realpath(file);
      const realDir = await realpath(target.dir);
      if (real !== realDir && !real.startsWith(realDir + path.sep)) {
        send(res, 403, 'forbidden\n', head);
        return;
      }
      if (!info.isFile()) {
        send(res, 404, 'not found\n', head);
        return;
      }
      const type = MIME_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
      res.writeHead(200, {
        'Content-Type': type,
        'Content-Length': info.size,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      });
      log(`200 ${req.method} ${url.pathname}`);
      if (head) {
        res.end();
        return;
      }
      createReadStream(file).on('error', () => res.destroy()).pipe(res);
    } catch (e) {
      if (e && (e.code === 'ENOENT' || e.code === 'ENOTDIR')) {
        log(`404 ${req.method} ${url.pathname}`);
        send(res, 404, 'not found\n', head);
      } else {
        send(res, 500, 'internal error\n', head);
      }
    }
  });
}

async function main() {
  const port = Number(process.env.PORT || 8080);
  const host = process.env.HOST || '127.0.0.1';
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: bad PORT ${process.env.PORT}`);
    process.exit(2);
  }
  const server = createStaticServer({ log: (line) => console.log(line) });
  server.on('error', (e) => {
    console.error(`serve: ${e.message}`);
    process.exit(1);
  });
  server.listen(port, host, () => {
    const { port: actual } = server.address();
    console.log(`slabcast playground: http://${host}:${actual}/  (serving ${WEB_ROOT}; Ctrl-C to stop)`);
  });
}

function isMain() {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (isMain()) main();
