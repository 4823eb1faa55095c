#!/usr/bin/env node
// A small static server for the built site (no dependencies):
//
//   npm run build:site && node web/bin/serve.mjs   -> http://127.0.0.1:${PORT:-8080}/
//
// Serves dist/site/ (scripts/build-site.mjs) and nothing else, the way a static host does:
// - gzip: when the client accepts gzip and FILE.gz exists beside FILE, that is sent
//   (Content-Encoding: gzip, Vary: Accept-Encoding);
// - caching: hashed assets (assets/NAME-HASH.EXT) are immutable for a year; everything else
//   (index.html, tutorial.html) is revalidated on every load (no-cache).
// GET and HEAD only; paths are normalised (repeated slashes folded, "." dropped) and
// anything that would leave the root (.., encoded slashes, backslashes, NUL bytes,
// symlinks pointing outside) is refused; dot files are not served. A redirect only ever
// names a path of this server that starts with a single "/": never "//host" or a scheme.
// Below /isolated/ the same files are served with the headers that make a page cross-origin
// isolated (COOP same-origin, COEP require-corp), for slabcast/parallel's shared memory.
// HOST and PORT come from the environment.

import { createReadStream, existsSync, realpathSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const PROJECT_ROOT = path.resolve(here, '../..');
/** The built site that `npm start` serves. */
export const SITE_ROOT = path.join(PROJECT_ROOT, 'dist/site');

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
  '.gz': 'application/gzip',
};

/** Cache-Control for hashed assets: their name changes whenever their bytes do. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Cache-Control for everything else: use a cached copy only after asking. */
export const REVALIDATE = 'no-cache';

/** Whether a normalised path names a hashed asset (Vite's assets/NAME-HASH.EXT, HASH 8 characters). */
export function isHashedAsset(pathname) {
  return /^\/assets\/[\w.-]+-[\w-]{8}\.[a-z0-9]+$/i.test(pathname);
}

/**
 * Paths below this prefix serve the same files, with the headers that make a page cross-origin
 * isolated (so that it may share memory with workers: slabcast/parallel, docs/parallel.md).
 */
export const ISOLATED_PREFIX = '/isolated';
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/** The raw path without ISOLATED_PREFIX when it starts with it (then '/...'), else null. */
export function isolatedPath(raw) {
  if (raw === ISOLATED_PREFIX) return '/';
  return raw.startsWith(`${ISOLATED_PREFIX}/`) ? raw.slice(ISOLATED_PREFIX.length) : null;
}

/** Whether an Accept-Encoding header accepts gzip (and does not refuse it with q=0). */
export function acceptsGzip(header) {
  if (typeof header !== 'string') return false;
  return header.split(',').some((part) => {
    const [name, ...params] = part.trim().split(';').map((s) => s.trim());
    if (name.toLowerCase() !== 'gzip' && name !== '*') return false;
    const q = params.find((p) => /^q=/i.test(p));
    return !q || Number(q.slice(2)) > 0;
  });
}

/**
 * The canonical form of a request path: percent-decoded once, repeated slashes folded
 * into one and "." segments dropped; null when it is not acceptable (bad encoding, a
 * ".." segment, a NUL byte or a backslash). Always starts with exactly one "/"; keeps a
 * trailing slash.
 */
export function normalizePath(urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/');
  if (segments.some((seg) => seg === '..')) return null;
  const kept = segments.filter((seg) => seg !== '' && seg !== '.');
  const trailing = kept.length > 0 && /\/\.?$/.test(decoded);
  return `/${kept.join('/')}${trailing ? '/' : ''}`;
}

/** The file below `dir` for a normalised path, or null when it would leave dir. */
export function resolveRequestPath(pathname, dir) {
  const rel = pathname.slice(1);
  const file = path.resolve(dir, `.${path.posix.sep}${rel}`);
  if (file !== dir && !file.startsWith(dir + path.sep)) return null;
  return { file, dir, trailingSlash: pathname.endsWith('/') };
}

function notFound() {
  return Object.assign(new Error('not served'), { code: 'ENOENT' });
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

/** Whether `file` (a real path) lies in `realDir`. */
const inside = (file, realDir) => file === realDir || file.startsWith(realDir + path.sep);

/**
 * An http.Server serving the files below `root` (default: dist/site/), with precompressed
 * .gz files for clients that accept gzip and cache headers (see the top of this file).
 * @param {{root?: string, log?: (line: string) => void}} [options]
 */
export function createStaticServer(options = {}) {
  if (options === null || typeof options !== 'object') throw new TypeError('createStaticServer: options must be an object ({root, log})');
  for (const key of Object.keys(options)) {
    if (key !== 'root' && key !== 'log') throw new TypeError(`createStaticServer: unknown option ${key} (root, log)`);
  }
  const root = path.resolve(options.root ?? SITE_ROOT);
  const log = options.log ?? (() => {});

  return http.createServer(async (req, res) => {
    const head = req.method === 'HEAD';
    if (req.method !== 'GET' && !head) {
      res.setHeader('Allow', 'GET, HEAD');
      send(res, 405, 'method not allowed\n', head);
      return;
    }
    // The path is read from the raw request target, never through new URL(): that would
    // read "//host/x" as a protocol-relative URL naming another host.
    const rawTarget = req.url || '';
    const q = rawTarget.indexOf('?');
    const full = q < 0 ? rawTarget : rawTarget.slice(0, q);
    const search = q < 0 ? '' : rawTarget.slice(q);
    if (!full.startsWith('/') || /[\s#]/.test(search)) {
      send(res, 400, 'bad request\n', head);
      return;
    }
    // Below /isolated/: the same files, cross-origin isolated (every response carries the headers).
    const isolated = isolatedPath(full);
    const raw = isolated ?? full;
    const prefix = isolated !== null ? ISOLATED_PREFIX : '';
    if (isolated !== null) for (const [k, v] of Object.entries(ISOLATION_HEADERS)) res.setHeader(k, v);
    // Check the raw path too: ".." in any spelling, encoded slashes, backslashes, NUL.
    if (/(^|\/|%2f)(\.|%2e){2}(\/|%2f|$)/i.test(raw) || /%2f|%5c|%00/i.test(raw)) {
      send(res, 403, 'forbidden\n', head);
      return;
    }
    const pathname = normalizePath(raw);
    const target = pathname === null ? null : resolveRequestPath(pathname, root);
    if (!target) {
      send(res, 403, 'forbidden\n', head);
      return;
    }
    try {
      // Dot files (.git, .env ...) are never part of a site.
      if (pathname.split('/').some((seg) => seg.startsWith('.'))) throw notFound();
      let file = target.file;
      let served = pathname;
      let info = await stat(file);
      if (info.isDirectory()) {
        const index = path.join(file, 'index.html');
        if (!existsSync(index)) throw notFound();
        if (!target.trailingSlash) {
          // pathname starts with exactly one "/" (normalizePath): a path of this server.
          res.writeHead(301, { Location: `${prefix}${pathname}/${search}`, 'Cache-Control': REVALIDATE });
          res.end();
          return;
        }
        file = index;
        served = `${pathname}index.html`;
        info = await stat(file);
      }
      // Symlinks must not lead outside the root.
      const realRoot = await realpath(root);
      if (!inside(await realpath(file), realRoot)) {
        send(res, 403, 'forbidden\n', head);
        return;
      }
      if (!info.isFile()) throw notFound();
      const type = MIME_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
      const headers = {
        'Content-Type': type,
        'Cache-Control': isHashedAsset(served) ? IMMUTABLE : REVALIDATE,
        'X-Content-Type-Options': 'nosniff',
        'Last-Modified': info.mtime.toUTCString(),
      };
      let body = file;
      let size = info.size;
      if (!file.endsWith('.gz')) {
        const gz = `${file}.gz`;
        const gzInfo = existsSync(gz) ? await stat(gz) : null;
        if (gzInfo?.isFile() && inside(await realpath(gz), realRoot)) {
          headers.Vary = 'Accept-Encoding';
          if (acceptsGzip(req.headers['accept-encoding'])) {
            headers['Content-Encoding'] = 'gzip';
            body = gz;
            size = gzInfo.size;
          }
        }
      }
      headers['Content-Length'] = size;
      res.writeHead(200, headers);
      log(`200 ${req.method} ${pathname}${headers['Content-Encoding'] ? ' (gzip)' : ''}`);
      if (head) {
        res.end();
        return;
      }
      createReadStream(body).on('error', () => res.destroy()).pipe(res);
    } catch (e) {
      if (e && (e.code === 'ENOENT' || e.code === 'ENOTDIR')) {
        log(`404 ${req.method} ${pathname}`);
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
  if (!existsSync(path.join(SITE_ROOT, 'index.html'))) {
    console.error('serve: dist/site/index.html is missing: build the site first (npm run build:site)');
    process.exit(1);
  }
  const server = createStaticServer({ log: (line) => console.log(line) });
  server.on('error', (e) => {
    console.error(`serve: ${e.message}`);
    process.exit(1);
  });
  server.listen(port, host, () => {
    const { port: actual } = server.address();
    console.log(`slabcast playground: http://${host}:${actual}/  (serving ${SITE_ROOT}; Ctrl-C to stop)`);
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
