// web/bin/serve.mjs: static files with the right types, nothing outside its roots.
import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticServer } from '../../web/bin/serve.mjs';

const PROJECT = path.resolve(import.meta.dirname, '../..');

let dir;
let server;
let port;
let realServer; // the real web/ and node_modules/ with the default allow-list
let realPort;

/** A raw request (no URL normalisation, unlike fetch). */
function request(method, rawPath, toPort = port) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: toPort, method, path: rawPath }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'slabcast-serve-'));
  const web = path.join(dir, 'web');
  const nm = path.join(dir, 'node_modules');
  mkdirSync(path.join(web, 'sub'), { recursive: true });
  mkdirSync(path.join(nm, 'three/build'), { recursive: true });
  writeFileSync(path.join(dir, 'secret.txt'), 'SECRET');
  writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>x</title>');
  writeFileSync(path.join(web, 'slabcast.js'), 'export {};');
  writeFileSync(path.join(web, 'slabcast.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  writeFileSync(path.join(web, 'sub', 'index.html'), 'sub');
  writeFileSync(path.join(nm, 'three/build/three.module.js'), 'export const REVISION = "x";');
  symlinkSync(path.join(dir, 'secret.txt'), path.join(web, 'escape.txt'));
  server = createStaticServer({ webRoot: web, nodeModules: nm, allow: null });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = server.address().port;
  realServer = createStaticServer();
  await new Promise((resolve) => realServer.listen(0, '127.0.0.1', resolve));
  realPort = realServer.address().port;
});

afterAll(async () => {
  await new Promise((resolve) => realServer.close(resolve));
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

  it('serves /node_modules/ from the node_modules root', async () => {
    const r = await request('GET', '/node_modules/three/build/three.module.js');
    expect(r.status).toBe(200);
    expect(r.body).toContain('REVISION');
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

describe('serve.mjs with the playground allow-list (the real web/ and node_modules/)', () => {
  it('serves every file the playground loads', async () => {
    for (const p of ['/', '/index.html', '/playground/playground.js', '/playground/playground.css', '/playground/state.mjs',
      '/playground/slab.mjs', '/slabcast.js', '/slabcast.wasm', '/f32format.mjs', '/cases.mjs', '/case-json.mjs',
      '/node_modules/three/build/three.module.js', '/node_modules/three/examples/jsm/controls/OrbitControls.js',
      '/node_modules/three/examples/jsm/lines/Line2.js', '/node_modules/three/examples/jsm/renderers/CSS2DRenderer.js']) {
      const r = await request('HEAD', p, realPort);
      expect({ p, status: r.status }).toEqual({ p, status: 200 });
    }
  });

  it('serves nothing else: not the rest of node_modules, not the sources, not the repository', async () => {
    // Regression: the whole of node_modules (and every file under web/) used to be served.
    for (const p of ['/node_modules/vitest/package.json', '/node_modules/three/package.json', '/node_modules/.package-lock.json',
      '/node_modules/three/src/Three.js', '/node_modules/three/examples/jsm/loaders/GLTFLoader.js', '/node_modules/',
      '/slabcast.d.ts', '/three.js', '/bin/serve.mjs', '/bench/bench.mjs', '/playground/', '/playground',
      '/.//playground', '/package.json', '/.git/config', '/src/slabcast.c']) {
      const r = await request('GET', p, realPort);
      expect({ p, status: r.status, location: r.headers.location }).toEqual({ p, status: 404, location: undefined });
    }
  });
});
