// web/bin/serve.mjs: static files with the right types, nothing outside its root,
// precompressed .gz files for clients that accept gzip, cache headers (hashed assets
// immutable, pages revalidated); and the built site (dist/site) as `npm start` serves it.
import http from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsGzip, createStaticServer } from '../../web/bin/serve.mjs';

const PROJECT = path.resolve(import.meta.dirname, '../..');
const SITE = path.join(PROJECT, 'dist/site');

let dir;
let server;
let port;
let realServer; // the built site dist/site/, as npm start serves it
let realPort;

/** A raw request (no URL normalisation, unlike fetch). */
function request(method, rawPath, toPort = port, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: toPort, method, path: rawPath, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode, headers: res.headers, bytes, body: bytes.toString() });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'slabcast-serve-'));
  const web = path.join(dir, 'web');
  mkdirSync(path.join(web, 'sub'), { recursive: true });
  mkdirSync(path.join(web, 'assets'), { recursive: true });
  mkdirSync(path.join(web, 'node_modules/three/build'), { recursive: true });
  mkdirSync(path.join(web, '.git'), { recursive: true });
  writeFileSync(path.join(dir, 'secret.txt'), 'SECRET');
  writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>x</title>');
  writeFileSync(path.join(web, 'slabcast.js'), 'export {};');
  writeFileSync(path.join(web, 'slabcast.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  writeFileSync(path.join(web, 'sub', 'index.html'), 'sub');
  writeFileSync(path.join(web, 'node_modules/three/build/three.module.js'), 'export const REVISION = "x";');
  writeFileSync(path.join(web, '.git', 'config'), 'SECRET');
  writeFileSync(path.join(web, '.env'), 'SECRET');
  // A hashed asset with its precompressed copy (made here, not by the build script).
  writeFileSync(path.join(web, 'assets', 'app-AbCd1234.js'), 'console.log("plain");'.repeat(50));
  writeFileSync(path.join(web, 'assets', 'app-AbCd1234.js.gz'), gzipSync('console.log("plain");'.repeat(50)));
  symlinkSync(path.join(dir, 'secret.txt'), path.join(web, 'escape.txt'));
  server = createStaticServer({ root: web });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = server.address().port;
});

afterAll(async () => {
  if (realServer) await new Promise((resolve) => realServer.close(resolve));
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('serve.mjs', () => {
  it('serves index.html at / and files with their MIME types', async () => {
    const root = await request('GET', '/');
    expect(root.status).toBe(200);
    expect(root.headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await request('GET', '/slabcast.js')).headers['content-type']).toBe('text/javascript; charset=utf-8');
    const wasm = await request('GET', '/slabcast.wasm');
    expect(wasm.status).toBe(200);
    expect(wasm.headers['content-type']).toBe('application/wasm');
    expect((await request('GET', '/slabcast.js?v=1')).status).toBe(200);
  });

  it('serves every file below its root, and no dot file', async () => {
    const r = await request('GET', '/node_modules/three/build/three.module.js');
    expect(r.status).toBe(200);
    expect(r.body).toContain('REVISION');
    for (const p of ['/.git/config', '/.env', '/sub/../.env', '/.//.env']) {
      const d = await request('GET', p);
      expect({ p, leaked: d.body.includes('SECRET') }).toEqual({ p, leaked: false });
      expect([403, 404]).toContain(d.status);
    }
  });

  it('sends the .gz beside a file to a client that accepts gzip, the file itself to others', async () => {
    const plain = 'console.log("plain");'.repeat(50);
    const gz = await request('GET', '/assets/app-AbCd1234.js', port, { 'accept-encoding': 'br, gzip;q=0.8' });
    expect(gz.status).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toBe('Accept-Encoding');
    expect(gz.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(Number(gz.headers['content-length'])).toBe(gz.bytes.length);
    expect(gz.bytes.length).toBeLessThan(plain.length);
    expect(gunzipSync(gz.bytes).toString()).toBe(plain);
    for (const accept of [undefined, 'identity', 'gzip;q=0', 'br']) {
      const r = await request('GET', '/assets/app-AbCd1234.js', port, accept ? { 'accept-encoding': accept } : {});
      expect({ accept, enc: r.headers['content-encoding'], body: r.body }).toEqual({ accept, enc: undefined, body: plain });
      expect(r.headers.vary).toBe('Accept-Encoding');
    }
    // No .gz beside it: the file as it is, whatever the client accepts.
    const html = await request('GET', '/index.html', port, { 'accept-encoding': 'gzip' });
    expect(html.headers['content-encoding']).toBeUndefined();
    expect(html.body).toBe('<!doctype html><title>x</title>');
  });

  it('caches hashed assets for a year and makes pages revalidate', async () => {
    expect((await request('HEAD', '/assets/app-AbCd1234.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const p of ['/', '/index.html', '/slabcast.js', '/sub/']) {
      expect({ p, cc: (await request('HEAD', p)).headers['cache-control'] }).toEqual({ p, cc: 'no-cache' });
    }
  });

  it('reads Accept-Encoding as RFC 9110 says', () => {
    expect(acceptsGzip('gzip')).toBe(true);
    expect(acceptsGzip('GZIP, deflate')).toBe(true);
    expect(acceptsGzip('deflate, gzip;q=0.5')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('gzip; q=0.000')).toBe(false);
    expect(acceptsGzip('br, deflate')).toBe(false);
    expect(acceptsGzip('')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });

  it('redirects directories to their slash form and serves their index', async () => {
    const r = await request('GET', '/sub');
    expect(r.status).toBe(301);
    expect(r.headers.location).toBe('/sub/');
    expect((await request('GET', '/sub/')).body).toBe('sub');
  });

  it('answers 404 for missing files, 405 for other methods, HEAD without a body', async () => {
    expect((await request('GET', '/nope.js')).status).toBe(404);
    expect((await request('POST', '/')).status).toBe(405);
    const head = await request('HEAD', '/slabcast.js');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('refuses path traversal in every spelling', async () => {
    for (const p of ['/../secret.txt', '/sub/../../secret.txt', '/%2e%2e/secret.txt', '/%2E%2E%2Fsecret.txt',
      '/..%2fsecret.txt', '/node_modules/../../secret.txt', '/node_modules/%2e%2e/%2e%2e/secret.txt',
      '/..%5csecret.txt', '/sub%00.html', '/escape.txt']) {
      const r = await request('GET', p);
      expect({ p, status: r.status, leaked: r.body.includes('SECRET') }).toEqual({ p, status: 403, leaked: false });
    }
  });

  it('refuses options it does not know, naming them', () => {
    expect(() => createStaticServer({ allow: null })).toThrow(/unknown option allow \(root, log\)/);
    expect(() => createStaticServer(null)).toThrow(/options must be an object/);
  });

  it('never redirects to a protocol-relative or foreign location', async () => {
    // Regression: "/.//sub" used to answer "Location: //sub/", a redirect to the host "sub".
    for (const p of ['/.//sub', '//sub', '///sub', '/./sub', '/.//sub?x=1']) {
      const r = await request('GET', p);
      expect({ p, status: r.status, location: r.headers.location })
        .toEqual({ p, status: 301, location: p.endsWith('?x=1') ? '/sub/?x=1' : '/sub/' });
    }
    for (const p of ['//evil.com', '//evil.com/', '/.//evil.com', '/%2F%2Fevil.com', '/\\evil.com', '/%5cevil.com',
      '/%252e%252e/secret.txt', `/${'a/'.repeat(2000)}x`, '/.%2e/secret.txt']) {
      const r = await request('GET', p);
      expect({ p, status: r.status, location: r.headers.location, leaked: r.body.includes('SECRET') })
        .toEqual({ p, status: p.includes('%2F') || p.includes('%5c') || p.includes('\\') || p.includes('.%2e') ? 403 : 404,
          location: undefined, leaked: false });
    }
  });
});

describe('serve.mjs on the built site (dist/site, as npm start serves it)', () => {
  beforeAll(async () => {
    if (!existsSync(path.join(SITE, 'index.html'))) {
      throw new Error('dist/site/index.html is missing: build the site first (npm run build:site)');
    }
    realServer = createStaticServer();
    await new Promise((resolve) => realServer.listen(0, '127.0.0.1', resolve));
    realPort = realServer.address().port;
  });

  it('serves the page and every asset it names, gzipped, with the right cache headers', async () => {
    const page = await request('GET', '/', realPort, { 'accept-encoding': 'gzip' });
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(page.headers['cache-control']).toBe('no-cache');
    const html = gunzipSync(page.bytes).toString();
    expect(html).toBe(readFileSync(path.join(SITE, 'index.html'), 'utf8'));
    const assets = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
    // the page's core (slabcast-mt.wasm is fetched only by a parallel world, in stress mode)
    const wasm = readdirSync(path.join(SITE, 'assets')).filter((f) => f.endsWith('.wasm') && !f.startsWith('slabcast-mt-'));
    expect(wasm).toHaveLength(1);
    for (const a of [...assets, `assets/${wasm[0]}`]) {
      const r = await request('GET', `/${a}`, realPort, { 'accept-encoding': 'gzip' });
      expect({ a, status: r.status, enc: r.headers['content-encoding'], cc: r.headers['cache-control'] })
        .toEqual({ a, status: 200, enc: 'gzip', cc: 'public, max-age=31536000, immutable' });
      expect(gunzipSync(r.bytes).equals(readFileSync(path.join(SITE, a))), a).toBe(true);
    }
    const w = await request('HEAD', `/assets/${wasm[0]}`, realPort);
    expect(w.headers['content-type']).toBe('application/wasm');
  });

  it('serves nothing outside the site: not the sources, not node_modules, not the repository', async () => {
    for (const p of ['/node_modules/three/package.json', '/playground/playground.js', '/slabcast.js', '/web/index.html',
      '/package.json', '/.git/config', '/src/slabcast.c', '/../package.json', '/%2e%2e/package.json']) {
      const r = await request('GET', p, realPort);
      expect({ p, status: r.status, location: r.headers.location }).toEqual({ p, status: p.includes('..') || p.includes('%2e') ? 403 : 404, location: undefined });
    }
  });
});
