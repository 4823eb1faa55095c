// web/bin/serve.mjs's /isolated/ prefix: the same files, with the headers that make a page
// cross-origin isolated (slabcast/parallel's shared memory, docs/parallel.md); everything else
// as without the prefix (traversal checks, redirects that stay on the prefix); and the built
// site's parallel-world files on both paths.
import http from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE_ROOT, createStaticServer, isolatedPath } from '../../web/bin/serve.mjs';

let dir;
let server;
let real;

function request(s, rawPath) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: s.address().port, method: 'GET', path: rawPath }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

const listen = (s) => new Promise((resolve) => s.listen(0, '127.0.0.1', resolve));

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'slabcast-serve-iso-'));
  const web = path.join(dir, 'web');
  mkdirSync(path.join(web, 'sub'), { recursive: true });
  writeFileSync(path.join(dir, 'secret.txt'), 'SECRET');
  writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>x</title>');
  writeFileSync(path.join(web, 'page.js'), 'export const page = 1;');
  writeFileSync(path.join(web, 'sub', 'index.html'), 'sub');
  server = createStaticServer({ root: web });
  if (!existsSync(path.join(SITE_ROOT, 'index.html'))) throw new Error('dist/site is missing: run npm run build:site');
  real = createStaticServer();
  await listen(server);
  await listen(real);
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await new Promise((resolve) => real.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('serve.mjs /isolated/', () => {
  it('isolatedPath strips exactly the prefix', () => {
    expect(isolatedPath('/isolated/a.js')).toBe('/a.js');
    expect(isolatedPath('/isolated')).toBe('/');
    expect(isolatedPath('/isolated/')).toBe('/');
    expect(isolatedPath('/isolatedx/a.js')).toBe(null);
    expect(isolatedPath('/a/isolated/a.js')).toBe(null);
  });

  it('serves the same files with COOP same-origin and COEP require-corp', async () => {
    const plain = await request(server, '/page.js');
    const iso = await request(server, '/isolated/page.js');
    expect(iso.status).toBe(200);
    expect(iso.body).toBe(plain.body);
    expect(iso.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(iso.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(iso.headers['cross-origin-embedder-policy']).toBe('require-corp');
    expect(plain.headers['cross-origin-opener-policy']).toBeUndefined();
    expect(plain.headers['cross-origin-embedder-policy']).toBeUndefined();
    const root = await request(server, '/isolated/');
    expect(root.status).toBe(200);
    expect(root.headers['cross-origin-embedder-policy']).toBe('require-corp');
  });

  it('redirects directories within the prefix, and refuses what the plain paths refuse', async () => {
    const r = await request(server, '/isolated/sub');
    expect(r.status).toBe(301);
    expect(r.headers.location).toBe('/isolated/sub/');
    expect((await request(server, '/isolated/sub/')).body).toBe('sub');
    expect((await request(server, '/isolated/../secret.txt')).status).toBe(403);
    expect((await request(server, '/isolated/%2e%2e/secret.txt')).status).toBe(403);
    expect((await request(server, '/isolated/missing.js')).status).toBe(404);
    expect((await request(server, '/isolatedx/page.js')).status).toBe(404);
  });

  it('the built site serves the parallel world (its chunk, worker and slabcast-mt.wasm) on both paths', async () => {
    const assets = readdirSync(path.join(SITE_ROOT, 'assets')).filter((f) => /^(parallel|worker|slabcast-mt)-[\w-]{8}\.(js|wasm)$/.test(f));
    expect(assets.some((f) => f.startsWith('slabcast-mt-'))).toBe(true);
    expect(assets.some((f) => f.startsWith('parallel-'))).toBe(true);
    for (const f of assets) {
      expect((await request(real, `/assets/${f}`)).status, f).toBe(200);
      const iso = await request(real, `/isolated/assets/${f}`);
      expect(iso.status, f).toBe(200);
      expect(iso.headers['cross-origin-embedder-policy']).toBe('require-corp');
    }
    expect((await request(real, '/isolated/assets/../../package.json')).status).toBe(403);
  });
});
