#!/usr/bin/env node
// A tiny static server for the playground (no dependencies):
//
//   node web/bin/serve.mjs            -> http://127.0.0.1:${PORT:-8080}/
//
// Serves what the playground page loads and nothing else: the page, its modules and
// styles, the slabcast module and its wasm from web/, and from node_modules/ only the
// three.js files its import map names (PLAYGROUND_FILES below). Everything else is a
// 404, the rest of node_modules and web/ included. GET and HEAD only; paths are
// normalised (repeated slashes folded, "." dropped) and anything that would leave a
// root (.., encoded slashes, backslashes, NUL bytes, symlinks pointing outside) is
// refused. A redirect only ever names a path of this server that starts with a single
// "/": never "//host" or a scheme. HOST and PORT come from the environment.

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
 * What the playground loads: [urlPrefix, files] pairs. A prefix ending in '/' admits
 * every file below it whose name matches `files` (a RegExp); other entries are exact
 * paths. Directories are only reachable through an index.html that is itself listed.
 */
export const PLAYGROUND_FILES = [
  ['/index.html', null],
  ['/playground/', /^[\w.-]+\.(js|mjs|css)$/],
  ['/slabcast.js', null],
  ['/core/', /^[\w.-]+\.js$/],
  ['/slabcast.wasm', null],
  ['/parallel.js', null],
  ['/parallel/', /^[\w.-]+\.js$/],
  ['/slabcast-mt.wasm', null],
  ['/f32format.mjs', null],
  ['/cases.mjs', null],
  ['/case-json.mjs', null],
  ['/node_modules/three/build/', /^three\.(module|core)\.js$/],
  ['/node_modules/three/examples/jsm/', /^(controls|renderers|lines)\/[\w.-]+\.js$/],
];

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

/** True when the normalised path is on the allow-list (null: everything is allowed). */
export function isAllowed(pathname, allow) {
  if (allow === null) return true;
  for (const [prefix, files] of allow) {
    if (!prefix.endsWith('/')) {
      if (pathname === prefix) return true;
    } else if (pathname.startsWith(prefix) && files.test(pathname.slice(prefix.length))) {
      return true;
    }
  }
  return false;
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

/**
 * Map a normalised request path to a file below one of the mounts, or null when it is
 * not allowed. mounts: [[urlPrefix ending in '/', directory], ...], longest first.
 */
export function resolveRequestPath(pathname, mounts) {
  for (const [prefix, dir] of mounts) {
    if (pathname === prefix.slice(0, -1) || pathname.startsWith(prefix)) {
      const rel = pathname.slice(prefix.length);
      const file = path.resolve(dir, `.${path.posix.sep}${rel}`);
      if (file !== dir && !file.startsWith(dir + path.sep)) return null;
      return { file, dir, trailingSlash: pathname.endsWith('/') };
    }
  }
  return null;
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

/**
 * An http.Server serving `webRoot` at / and `nodeModules` at /node_modules/, limited to
 * the paths `allow` admits (default PLAYGROUND_FILES; null admits every file below the
 * two roots).
 * @param {{webRoot?: string, nodeModules?: string, allow?: Array|null, log?: (line: string) => void}} [options]
 */
export function createStaticServer(options = {}) {
  const webRoot = path.resolve(options.webRoot ?? WEB_ROOT);
  const nodeModules = path.resolve(options.nodeModules ?? path.join(PROJECT_ROOT, 'node_modules'));
  const mounts = [['/node_modules/', nodeModules], ['/', webRoot]];
  const log = options.log ?? (() => {});
  const allow = options.allow === undefined ? PLAYGROUND_FILES : options.allow;

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
    let raw = q < 0 ? rawTarget : rawTarget.slice(0, q);
    // /isolated/...: the same file, cross-origin isolated (every answer carries the headers).
    const isolated = isolatedPath(raw);
    if (isolated !== null) {
      raw = isolated;
      for (const [k, v] of Object.entries(ISOLATION_HEADERS)) res.setHeader(k, v);
    }
    const search = q < 0 ? '' : rawTarget.slice(q);
    if (!raw.startsWith('/') || /[\s#]/.test(search)) {
      send(res, 400, 'bad request\n', head);
      return;
    }
    // Check the raw path too: ".." in any spelling, encoded slashes, backslashes, NUL.
    if (/(^|\/|%2f)(\.|%2e){2}(\/|%2f|$)/i.test(raw) || /%2f|%5c|%00/i.test(raw)) {
      send(res, 403, 'forbidden\n', head);
      return;
    }
    const pathname = normalizePath(raw);
    const target = pathname === null ? null : resolveRequestPath(pathname, mounts);
    if (!target) {
      send(res, 403, 'forbidden\n', head);
      return;
    }
    try {
      let file = target.file;
      let info = await stat(file);
      if (info.isDirectory()) {
        // A directory is served through its index.html, when that is allowed.
        if (!isAllowed(`${pathname.replace(/\/$/, '')}/index.html`, allow)) throw notFound();
        if (!target.trailingSlash) {
          // pathname starts with exactly one "/" (normalizePath): a path of this server.
          res.writeHead(301, { Location: `${isolated !== null ? ISOLATED_PREFIX : ''}${pathname}/${search}` });
          res.end();
          return;
        }
        file = path.join(file, 'index.html');
        info = await stat(file);
      } else if (!isAllowed(pathname, allow)) {
        throw notFound();
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
      log(`200 ${req.method} ${pathname}`);
      if (head) {
        res.end();
        return;
      }
      createReadStream(file).on('error', () => res.destroy()).pipe(res);
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
