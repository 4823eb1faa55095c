// Acceptance tests of the built static site (dist/site, npm run build:site) in headless
// Chromium, served the way a static host serves it by a plain node:http server written
// here (no project server code): files below dist/site, the .gz beside a file when the
// client accepts gzip.
//
// - the page draws (the WebGL canvas is not blank);
// - ?embed hides the toolbar and the header, ?panels= hides the panels;
// - a shared link starts with the page's own address and, opened again, gives the same
//   scene bit for bit, the same camera and the same tutorial step;
// - old #v1 links (laid out by hand here) open;
// - the first load is at most 400 KB compressed (counted by Chromium), and the time to
//   ready on Chrome DevTools' "Fast 3G" (printed);
// - tutorial.html (slabcast/figure): its figures start as they come into view, and its first
//   load, every figure started, is at most 150 KB compressed, without three.js.
//
// Uses Debian's /usr/bin/chromium (SwiftShader WebGL); nothing is downloaded.
import { createReadStream, existsSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, defaultState, encode, sameState } from '../../web/playground/state.mjs';
import { defaultUi } from '../../web/playground/ui-state.mjs';
import { close, launchChromium, listen } from './helpers/browser.mjs';
import { SITE, requireSite } from './helpers/site.mjs';

/** The first-load budget: 400 KB of compressed transfer. */
const BUDGET = 400_000;
/** Chrome DevTools' "Fast 3G" preset (front_end/core/sdk/NetworkManager.ts): 1.6 Mbit/s down and
 * 750 kbit/s up, each times 0.9, and 150 ms times 3.75 of latency. */
const FAST_3G = {
  offline: false,
  downloadThroughput: ((1.6 * 1000 * 1000) / 8) * 0.9, // 180000 bytes/s
  uploadThroughput: ((750 * 1000) / 8) * 0.9, // 84375 bytes/s
  latency: 150 * 3.75, // 562.5 ms
};

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm',
};

/** Where the site is served: a sub-path, as on GitHub Pages (https://slabcast.github.io/slabcast/). */
const PREFIX = '/slabcast/';

/** A plain static server of `dir` at PREFIX: a directory's index.html, Content-Encoding: gzip
 * from FILE.gz when accepted, 404 for anything else. */
function plainStaticServer(dir) {
  return http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (!url.pathname.startsWith(PREFIX)) {
      res.writeHead(404).end();
      return;
    }
    let rel = decodeURIComponent(url.pathname.slice(PREFIX.length - 1));
    if (rel.endsWith('/')) rel += 'index.html';
    const file = path.join(dir, path.normalize(rel));
    if (!file.startsWith(dir + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    const headers = { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-store' };
    let body = file;
    if (/\bgzip\b/.test(req.headers['accept-encoding'] ?? '') && existsSync(`${file}.gz`)) {
      body = `${file}.gz`;
      headers['Content-Encoding'] = 'gzip';
    }
    headers['Content-Length'] = statSync(body).size;
    res.writeHead(200, headers);
    createReadStream(body).pipe(res);
  });
}

let server;
let base;
let origin;
let browser;

beforeAll(async () => {
  requireSite();
  server = plainStaticServer(SITE);
  // Served under a sub-path, as on GitHub Pages: the site must use relative URLs.
  origin = await listen(server);
  base = `${origin}${PREFIX}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await close(server);
});

async function openPage(url, { ready = true } = {}) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => { problems.push(`dialog: ${d.message()}`); d.dismiss().catch(() => {}); });
  await page.goto(url);
  if (ready) await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  return { page, problems };
}

/** The share of pixels of a PNG that differ (any channel by more than 24) from its most
 * common colour, decoded by the page. */
async function inkShare(page, png) {
  return page.evaluate(async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const c = new OffscreenCanvas(bmp.width, bmp.height);
    const g = c.getContext('2d');
    g.drawImage(bmp, 0, 0);
    const { data } = g.getImageData(0, 0, bmp.width, bmp.height);
    const counts = new Map();
    for (let i = 0; i < data.length; i += 4) {
      const key = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const bg = [...counts].sort((a, b) => b[1] - a[1])[0][0];
    const [r, gg, b] = [bg >> 16, (bg >> 8) & 255, bg & 255];
    let ink = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i] - r) > 24 || Math.abs(data[i + 1] - gg) > 24 || Math.abs(data[i + 2] - b) > 24) ink++;
    }
    return ink / (data.length / 4);
  }, png.toString('base64'));
}

/** float32 bits of every number of a scene, in order. */
function sceneBits(state) {
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  const out = [];
  const walk = (v) => {
    if (typeof v === 'number') { f[0] = v; out.push(u[0]); } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.keys(v).sort().forEach((k) => walk(v[k]));
  };
  walk(state);
  return out;
}

/** A version 1 link laid out by hand (docs: the top of web/playground/link.mjs), base64url by Node. */
function handV1Link() {
  const dv = new DataView(new ArrayBuffer(16 + 17 + 25 + 28));
  let p = 0;
  const u32 = (v) => { dv.setUint32(p, v, true); p += 4; };
  const i32 = (v) => { dv.setInt32(p, v, true); p += 4; };
  const u8 = (v) => { dv.setUint8(p, v); p += 1; };
  const f32 = (...vs) => { for (const v of vs) { dv.setFloat32(p, v, true); p += 4; } };
  u32(2); u32(1); i32(0); i32(1);
  u8(3); f32(0, 0.5, 0, 1.25); // sphere at (0, 0.5, 0), radius 1.25
  u8(1); f32(2, -1, -1, 3, 1, 1); // aabb [2,-1,-1]..[3,1,1]
  f32(-4, 0.5, 0, 1, 0, 0, 20); // ray from (-4, 0.5, 0) along +x, tmax 20
  return `#v1.${Buffer.from(dv.buffer).toString('base64url')}`;
}

describe('the built site (dist/site) on a plain static server', () => {
  it('draws the scene: the canvas is not blank', async () => {
    const { page, problems } = await openPage(base);
    try {
      expect(await page.locator('#loading').count()).toBe(0);
      await page.waitForTimeout(200);
      const share = await inkShare(page, await page.locator('#view canvas').screenshot());
      console.log(`site: ${(share * 100).toFixed(1)}% of the canvas is drawn`);
      expect(share).toBeGreaterThan(0.02);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('shows a loading indicator until ready, and a clear error when the wasm cannot be loaded', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      // Hold the wasm back: the page must say it is loading meanwhile.
      let release;
      const held = new Promise((resolve) => { release = resolve; });
      await page.route(/\.wasm$/, async (route) => { await held; await route.abort('failed'); });
      await page.goto(base);
      await page.waitForSelector('#loading', { state: 'visible' });
      expect(await page.locator('#loading').textContent()).toMatch(/Loading the playground/);
      expect(await page.evaluate(() => document.body.dataset.ready)).toBeUndefined();
      release();
      await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
      expect(await page.locator('#loading').count()).toBe(0);
      const notice = page.getByTestId('error');
      expect(await notice.isVisible()).toBe(true);
      expect(await notice.textContent()).toMatch(/Could not load slabcast\.wasm: cannot fetch .*slabcast-[\w-]+\.wasm/);
      expect(await page.evaluate(() => document.body.dataset.error)).toMatch(/cannot fetch/);
    } finally {
      await page.close();
    }
  });

  it('?embed hides the toolbar, the header and the share card; ?panels= hides the panels', async () => {
    const { page, problems } = await openPage(`${base}?embed`);
    try {
      expect(await page.locator('.toolbar').isVisible()).toBe(false);
      expect(await page.locator('header.top').isVisible()).toBe(false);
      expect(await page.locator('#share-card').isVisible()).toBe(false);
      expect(await page.locator('#view canvas').isVisible()).toBe(true);
      expect(await page.getByTestId('hit-list').isVisible()).toBe(true);
      expect(await page.evaluate(() => window.playground.ui().embed)).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
    const bare = await openPage(`${base}?embed&panels=&handles=locked&view=top&step=3`);
    try {
      const { page: p2 } = bare;
      expect(await p2.locator('aside.panel').isVisible()).toBe(false);
      const width = await p2.locator('#view').evaluate((e) => e.getBoundingClientRect().width);
      expect(width).toBeGreaterThan(1100); // the view takes the whole 1280 px page
      expect(await p2.evaluate(() => window.playground.ui())).toMatchObject({
        embed: true, handles: 'locked', view: 'top', step: 3, panels: { toolbar: false, hits: false, tutorial: false },
      });
      // Locked: nothing can be grabbed.
      expect((await p2.evaluate(() => window.playground.handles())).filter((h) => h.grabbable)).toEqual([]);
      expect(bare.problems).toEqual([]);
    } finally {
      await bare.page.close();
    }
    // embed in the link itself (no query string): the same.
    const linked = await openPage(`${base}${encode(defaultState(), { ...defaultUi(), embed: true, view: 'side' })}`);
    try {
      expect(await linked.page.locator('.toolbar').isVisible()).toBe(false);
      expect(await linked.page.locator('header.top').isVisible()).toBe(false);
      expect(await linked.page.evaluate(() => window.playground.ui())).toMatchObject({ embed: true, view: 'side' });
      expect(linked.problems).toEqual([]);
    } finally {
      await linked.page.close();
    }
  });

  it('a shared link starts with the page\'s own address and reopens the scene, the camera and the step', async () => {
    // Locked handles: a drag anywhere on the canvas orbits (nothing can be grabbed).
    const { page, problems } = await openPage(`${base}?step=2&handles=locked`);
    try {
      const before = await page.evaluate(() => window.playground.camera());
      // A point of the canvas itself (not under the legend, the stepper or a label).
      const start = await page.evaluate(() => {
        const canvas = document.querySelector('#view canvas');
        const r = canvas.getBoundingClientRect();
        for (const fy of [0.3, 0.2, 0.4, 0.5, 0.6]) {
          for (const fx of [0.6, 0.5, 0.7, 0.4, 0.8]) {
            const x = r.left + r.width * fx;
            const y = r.top + r.height * fy;
            if (document.elementFromPoint(x, y) === canvas) return { x, y };
          }
        }
        return null;
      });
      expect(start, 'a free point on the canvas').not.toBeNull();
      await page.mouse.move(start.x, start.y);
      await page.mouse.down();
      for (let k = 1; k <= 8; k++) await page.mouse.move(start.x - 12 * k, start.y - 3 * k);
      await page.mouse.up();
      await page.waitForFunction(() => window.playground.ui().camera !== null);
      const ui = await page.evaluate(() => window.playground.ui());
      expect(ui.camera.position).not.toEqual(before.position);
      expect(ui.camera).toEqual(await page.evaluate(() => window.playground.camera()));
      expect(ui.step).toBe(2);

      await page.getByTestId('share').click();
      const url = await page.getByTestId('share-url').inputValue();
      expect(url.startsWith(`${base}#v2.`)).toBe(true);
      expect(new URL(url).hash).toBe(await page.evaluate(() => location.hash));
      const state = await page.evaluate(() => window.playground.state());
      // The link's bytes, read by the pure decoder here: the same scene and settings.
      const d = decode(new URL(url).hash);
      expect(d.ok).toBe(true);
      expect(sceneBits(d.state)).toEqual(sceneBits(state));
      expect(d.ui).toEqual(ui);

      const again = await openPage(url);
      try {
        const opened = await again.page.evaluate(() => window.playground.state());
        expect(sameState(opened, state)).toBe(true);
        expect(sceneBits(opened)).toEqual(sceneBits(state));
        const openedUi = await again.page.evaluate(() => window.playground.ui());
        expect(openedUi).toEqual(ui);
        // The view shows exactly that camera (float64 for float64).
        expect(await again.page.evaluate(() => window.playground.camera())).toEqual(ui.camera);
        expect(again.problems).toEqual([]);
      } finally {
        await again.page.close();
      }
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('opens an old #v1 link (laid out by hand) with the default view settings', async () => {
    const link = handV1Link();
    const { page, problems } = await openPage(`${base}${link}`);
    try {
      const expected = {
        shapes: [{ type: 'sphere', center: [0, 0.5, 0], radius: 1.25 }, { type: 'aabb', min: [2, -1, -1], max: [3, 1, 1] }],
        rays: [{ origin: [-4, 0.5, 0], dir: [1, 0, 0], tmax: 20 }],
        selected: { ray: 0, shape: 1 },
      };
      expect(sameState(await page.evaluate(() => window.playground.state()), expected)).toBe(true);
      expect(await page.getByTestId('error').isHidden()).toBe(true);
      // The ray enters the sphere at x = -1.25: t = 2.75 (and it is the nearest hit).
      const hits = await page.evaluate(() => window.playground.hits());
      expect(hits[0]).toMatchObject({ shape: 0, hit: true, t: 2.75 });
      expect(await page.evaluate(() => window.playground.ui().view)).toBe('3d');
      expect(sameState(expected, defaultState())).toBe(false);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('tutorial.html: its figures start as they scroll into view; its first load is at most 150 KB compressed, without three.js', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const problems = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
    try {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      const requests = new Map();
      cdp.on('Network.responseReceived', (e) => requests.set(e.requestId, { url: e.response.url, encoding: e.response.headers['Content-Encoding'] ?? e.response.headers['content-encoding'] }));
      cdp.on('Network.loadingFinished', (e) => { const r = requests.get(e.requestId); if (r) r.bytes = e.encodedDataLength; });
      await page.goto(`${base}tutorial.html`);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
      await page.waitForSelector('#fig-slab[data-figure="ready"]', { timeout: 60_000 });
      // The last figure is far below: not started yet.
      expect(await page.getAttribute('#fig-obb', 'data-figure')).toBe('loading');
      const ids = await page.$$eval('[data-figure]', (els) => els.map((e) => e.id));
      expect(ids).toHaveLength(8);
      for (const id of ids) {
        await page.locator(`#${id}`).scrollIntoViewIfNeeded();
        await page.waitForSelector(`#${id}[data-figure="ready"]`, { timeout: 60_000 });
      }
      // The prose's readouts are bound: section 1's t for the x slab is its figure's 3.
      expect(await page.textContent('#slab output[data-figure-value="tx_enter"]')).toBe('3');
      expect(await page.$$eval('output[data-figure-value]', (os) => os.filter((o) => o.textContent.startsWith('(unknown')).length)).toBe(0);
      const loaded = [...requests.values()].filter((r) => r.url.startsWith(base));
      const total = loaded.reduce((n, r) => n + (r.bytes ?? 0), 0);
      for (const r of loaded) console.log(`site: tutorial ${String(r.bytes).padStart(7)} B  ${r.encoding ?? 'identity'}  ${r.url.slice(base.length)}`);
      console.log(`site: tutorial first load total ${total} B (${(total / 1000).toFixed(1)} KB; budget 150 KB)`);
      expect(loaded.map((r) => path.extname(new URL(r.url).pathname)).sort()).toEqual(['.css', '.html', '.js', '.wasm']);
      expect(loaded.some((r) => /three|view3d/.test(r.url))).toBe(false);
      expect(total).toBeLessThanOrEqual(150_000);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('first load: at most 400 KB compressed, and ready quickly on Fast 3G (both printed)', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      let requests = new Map();
      let firstSent = null; // CDP timestamps, in seconds
      cdp.on('Network.requestWillBeSent', (e) => { if (firstSent === null && e.request.url.startsWith(base)) firstSent = e.timestamp; });
      cdp.on('Network.responseReceived', (e) => requests.set(e.requestId, { url: e.response.url, encoding: e.response.headers['Content-Encoding'] ?? e.response.headers['content-encoding'] }));
      cdp.on('Network.loadingFinished', (e) => {
        const r = requests.get(e.requestId);
        if (r) Object.assign(r, { bytes: e.encodedDataLength, end: e.timestamp });
      });
      const timeToReady = async () => {
        await page.goto('about:blank');
        requests = new Map();
        firstSent = null;
        const t0 = Date.now();
        await page.goto(base);
        await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
        return Date.now() - t0;
      };

      // Without throttling: what this machine's CPU and software GL take on their own.
      const baseline = await timeToReady();
      const loaded = [...requests.values()].filter((r) => r.url.startsWith(base));
      const total = loaded.reduce((n, r) => n + (r.bytes ?? 0), 0);
      for (const r of loaded) console.log(`site: first load ${String(r.bytes).padStart(7)} B  ${r.encoding ?? 'identity'}  ${r.url.slice(base.length) || '/'}`);
      console.log(`site: first load total ${total} B (${(total / 1000).toFixed(1)} KB; budget ${BUDGET / 1000} KB)`);
      expect(loaded.map((r) => path.extname(new URL(r.url).pathname) || '/').sort()).toEqual(['.css', '.js', '.wasm', '/']);
      expect(loaded.every((r) => r.encoding === 'gzip')).toBe(true);
      expect(total).toBeLessThanOrEqual(BUDGET);

      await cdp.send('Network.emulateNetworkConditions', FAST_3G);
      const throttled = await timeToReady();
      const mine = [...requests.values()].filter((r) => r.url.startsWith(base));
      expect(mine).toHaveLength(4);
      const lastByte = Math.round((Math.max(...mine.map((r) => r.end)) - firstSent) * 1000);
      console.log(`site: Fast 3G: every first-load byte in after ${lastByte} ms; ready after ${throttled} ms ` +
        `(${baseline} ms without throttling: this machine's CPU and software GL; ${throttled - baseline} ms more on Fast 3G)`);
      // The 3 s target, for what the network costs on Fast 3G: from the first request to the last
      // byte of the first load (Chromium's own throttling, so the same on every machine). The time
      // to ready is printed, not asserted: on this machine most of it is SwiftShader drawing the
      // first frame on the CPU (the unthrottled time above), which a GPU does in a fraction of it.
      expect(lastByte).toBeLessThan(3000);
    } finally {
      await page.close();
    }
  });
});
