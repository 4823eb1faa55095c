// web/bin/serve.mjs: static files with the right types, nothing outside its roots.
import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticServer } from '../../web/bin/serve.mjs';

let dir;
let server;
let port;

/** A raw request (no URL normalisation, unlike fetch). */
function request(method, rawPath) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: rawPath }, (res) => {
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
  server = createStaticServer({ webRoot: web, nodeModules: nm });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = server.address().port;
});

afterAll(async () => {
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
});
