// slabcast/parallel in Chromium (Web Workers), on a cross-origin isolated page (served under
// /isolated/ with COOP/COEP: shared memory) and on a plain one (copied replicas): answers bit for
// bit those of a single-threaded world computed here in Node, faults rejected with clear
// errors and rebuilt, and 'shared' refused with a clear error where the page cannot share.
// Uses Debian's /usr/bin/chromium; nothing is downloaded.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SITE_ROOT, createStaticServer } from '../../web/bin/serve.mjs';
import { rng } from '../../web/bench/scenes.mjs';
import { loadSlabcast } from '../../web/slabcast.js';
import { MT_WASM, ROOT, WASM, requireBuilt } from './helpers/artifacts.mjs';
import { close, launchChromium, listen, openPage as openBrowserPage } from './helpers/browser.mjs';
import { addShapes, makeRays, makeScene, mixedFloatScene } from './helpers/world-scenes.mjs';

let server;
let base;
let site;
let siteBase;
let browser;
let sc;

beforeAll(async () => {
  requireBuilt(WASM);
  requireBuilt(MT_WASM);
  sc = await loadSlabcast({ wasm: WASM });
  // the bench page and the library's own modules (web/), and the built site (the playground)
  server = createStaticServer({ root: path.join(ROOT, 'web') });
  base = await listen(server);
  if (!existsSync(path.join(SITE_ROOT, 'index.html'))) throw new Error('dist/site is missing: run npm run build:site');
  site = createStaticServer();
  siteBase = await listen(site);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await close(server);
  await close(site);
});

async function openPage(prefix) {
  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`${base}${prefix}/bench/parallel.html`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  return { page, problems };
}

/** Float32 / Int32 / Uint8 arrays as the int32 (or byte) patterns of their bits, for transport. */
const bitsOf = (a) => Array.from(a instanceof Uint8Array ? a : new Int32Array(a.buffer, a.byteOffset, a.length));

/** In the page: a parallel world of `shapes`, every query kind on `rays`; results as bit patterns. */
function runInPage(page, { shapes, rays, sweeps, boxSweeps, segs, exclude, workers, box }) {
  return page.evaluate(async (o) => {
    const { createParallelWorld } = window.slabcastBench;
    const world = await createParallelWorld({ workers: o.workers });
    const bits = (a) => Array.from(a instanceof Uint8Array ? a : new Int32Array(a.buffer, a.byteOffset, a.length));
    const pack = (r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, bits(v)]));
    try {
      for (const s of o.shapes) {
        if (s.type === 'aabb') world.addAABBs(new Float32Array([...s.min, ...s.max]));
        else if (s.type === 'obb') world.addOBBs(new Float32Array([...s.center, ...s.axes.flat(), ...s.half]));
        else world.addSpheres(new Float32Array([...s.center, s.radius]));
      }
      const rays = new Float32Array(o.rays);
      const filter = { mask: 0b101, exclude: new Int32Array(o.exclude), inside: 'exit' };
      const out = {
        mode: world.memoryMode,
        rays: pack(await world.castRays(rays)),
        filtered: pack(await world.castRays(rays, undefined, filter)),
        any: bits(await world.anyHit(rays, undefined, { inside: 'skip' })),
        segs: pack(await world.castSegments(new Float32Array(o.segs))),
        spheres: pack(await world.castSpheres(new Float32Array(o.sweeps))),
        boxes: pack(await world.castBoxes(new Float32Array(o.boxSweeps))),
      };
      world.updateAABBs(o.box, new Float32Array([-1, -1, -1, 1, 1, 1]));
      world.remove(o.box + 1);
      out.afterChange = pack(await world.castRays(rays));
      return out;
    } finally {
      await world.dispose();
    }
  }, { shapes, rays: Array.from(rays), sweeps: Array.from(sweeps), boxSweeps: Array.from(boxSweeps), segs: Array.from(segs), exclude: Array.from(exclude), workers, box });
}

function sweepsOf(rays, rand, per) {
  const n = rays.length / 7;
  const out = new Float32Array(per * n);
  for (let i = 0; i < n; i++) {
    out.set(rays.subarray(7 * i, 7 * i + 7), per * i);
    for (let k = 7; k < per; k++) out[per * i + k] = Math.floor(rand() * 5) / 4;
  }
  return out;
}

describe.each([['/isolated', 'shared'], ['', 'copied']])('Chromium page %s', (prefix, mode) => {
  test(`memory '${mode}': bit-identical answers to a single-threaded world`, async () => {
    const { page, problems } = await openPage(prefix);
    try {
      expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(mode === 'shared');
      const rand = rng(mode === 'shared' ? 21 : 22);
      for (const [shapes, workers] of [[makeScene(rand, 300, { mixed: true }), 2], [mixedFloatScene(rand, 300), 3]]) {
        const rays = makeRays(rand, shapes, 2500);
        const n = rays.length / 7;
        const segs = new Float32Array(6 * n).map((_, i) => rays[7 * Math.floor(i / 6) + (i % 6)] * (i % 6 >= 3 ? 2 : 1));
        const sweeps = sweepsOf(rays, rand, 8);
        const boxSweeps = sweepsOf(rays, rand, 10);
        const exclude = new Int32Array(n).map(() => (rand() < 0.5 ? -1 : Math.floor(rand() * shapes.length)));
        const box = shapes.findIndex((s) => s.type === 'aabb'); // moved, and the next one removed
        const got = await runInPage(page, { shapes, rays, sweeps, boxSweeps, segs, exclude, workers, box });
        expect(got.mode).toBe(mode);
        const w = sc.createWorld();
        try {
          addShapes(w, shapes);
          const pack = (r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, bitsOf(v)]));
          expect(got.rays).toEqual(pack(w.castRays(rays)));
          expect(got.filtered).toEqual(pack(w.castRays(rays, undefined, { mask: 0b101, exclude, inside: 'exit' })));
          expect(got.any).toEqual(bitsOf(w.anyHit(rays, undefined, { inside: 'skip' })));
          expect(got.segs).toEqual(pack(w.castSegments(segs)));
          expect(got.spheres).toEqual(pack(w.castSpheres(sweeps)));
          expect(got.boxes).toEqual(pack(w.castBoxes(boxSweeps)));
          w.updateAABBs(box, new Float32Array([-1, -1, -1, 1, 1, 1]));
          w.remove(box + 1);
          expect(got.afterChange).toEqual(pack(w.castRays(rays)));
        } finally {
          w.dispose();
        }
      }
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  test(`memory '${mode}': faults reject with clear errors, rebuild restores, bad input is refused`, async () => {
    const { page } = await openPage(prefix);
    try {
      const r = await page.evaluate(async () => {
        const { createParallelWorld } = window.slabcastBench;
        const FAULT = Symbol.for('slabcast.parallel.fault');
        const world = await createParallelWorld({ workers: 2, timeout: 2000 });
        const rays = new Float32Array(7 * 3000);
        for (let i = 0; i < 3000; i++) rays.set([-5, 0.5 + (i % 7), 0.5, 1, 0, 0, Infinity], 7 * i);
        world.addAABBs(new Float32Array([0, 0, 0, 1, 1, 1, 0, 2, 0, 1, 9, 1]));
        const msg = (p) => p.then(() => 'no error', (e) => `${e.name}: ${e.message}`);
        const out = {};
        out.ok = Array.from((await world.castRays(rays)).index.slice(0, 4));
        out.badRay = await msg(world.castRays(rays.slice(0, 14).fill(0, 10, 13)));
        world[FAULT](1, 'throw');
        out.thrown = await msg(world.castRays(rays));
        out.afterFault = await msg(world.castRays(rays));
        await world.rebuild();
        out.rebuilt = Array.from((await world.castRays(rays)).index.slice(0, 4));
        const p = world.castRays(rays);
        world[FAULT](0, 'terminate');
        out.terminated = await msg(p.then(() => world.castRays(rays)));
        await world.rebuild();
        world[FAULT](0, 'hang');
        out.hung = await msg(world.castRays(rays));
        await world.rebuild();
        out.rebuilt2 = Array.from((await world.castRays(rays)).index.slice(0, 4));
        await world.dispose();
        out.disposed = await msg(world.castRays(rays));
        out.shared = await msg(createParallelWorld({ memory: 'shared' }).then((w) => w.dispose()));
        return out;
      });
      expect(r.ok).toEqual([0, -1, 1, 1]); // y = 0.5 + i % 7 against boxes y in [0, 1] and [2, 9]
      expect(r.badRay).toBe('SlabcastError: rays[1]: ray.dir is zero');
      expect(r.thrown).toMatch(/^SlabcastError: parallel world: worker 1 failed: .*injected fault: the worker threw/);
      expect(r.afterFault).toBe(r.thrown);
      expect(r.rebuilt).toEqual([0, -1, 1, 1]);
      expect(r.terminated).toMatch(/^SlabcastError: parallel world: worker 0 exited/);
      expect(r.hung).toMatch(/^SlabcastError: parallel world: world query \(rays\) timed out after 2000 ms; the workers were stopped \(call world\.rebuild\(\)/);
      expect(r.rebuilt2).toEqual([0, -1, 1, 1]);
      expect(r.disposed).toBe('SlabcastError: the parallel world has been disposed');
      if (mode === 'shared') expect(r.shared).toBe('no error');
      else expect(r.shared).toMatch(/options\.memory is 'shared' but this page cannot share memory with workers: it must be cross-origin isolated/);
    } finally {
      await page.close();
    }
  });
});

describe.each([['/isolated', 'shared'], ['', 'copied']])('Chromium page %s: lists and closest objects', (prefix, mode) => {
  test(`memory '${mode}': castRayAll, overlaps and closestObjects bit for bit a single-threaded world, on the workers and on the page's thread`, async () => {
    const { page, problems } = await openPage(prefix);
    try {
      const rand = rng(mode === 'shared' ? 31 : 32);
      const shapes = mixedFloatScene(rand, 300);
      const rays = makeRays(rand, shapes, 600);
      const n = 600;
      const spheres = new Float32Array(4 * n).map((_, i) => (i % 4 === 3 ? Math.fround(rand() * 6) : Math.fround(rand() * 40 - 20)));
      const points = new Float32Array(3 * n).map(() => Math.fround(rand() * 50 - 25));
      const got = await page.evaluate(async (o) => {
        const { createParallelWorld } = window.slabcastBench;
        const bits = (a) => Array.from(new Int32Array(a.buffer, a.byteOffset, a.length));
        const pack = (r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, bits(v)]));
        const out = {};
        for (const inline of [0, 1000]) {
          const world = await createParallelWorld({ workers: 2, inline });
          try {
            for (const s of o.shapes) {
              if (s.type === 'aabb') world.addAABBs(new Float32Array([...s.min, ...s.max]));
              else if (s.type === 'obb') world.addOBBs(new Float32Array([...s.center, ...s.axes.flat(), ...s.half]));
              else world.addSpheres(new Float32Array([...s.center, s.radius]));
            }
            out[inline] = {
              mode: world.memoryMode,
              all: pack(await world.castRayAll(new Float32Array(o.rays), { mask: 0b11 })),
              balls: pack(await world.overlapSpheres(new Float32Array(o.spheres))),
              closest: pack(await world.closestObjects(new Float32Array(o.points), 4)),
            };
          } finally {
            await world.dispose();
          }
        }
        return out;
      }, { shapes, rays: Array.from(rays), spheres: Array.from(spheres), points: Array.from(points) });
      const w = sc.createWorld();
      try {
        addShapes(w, shapes);
        const lists = (f) => {
          const start = [0];
          const parts = { index: [], t: [], normal: [] };
          for (let i = 0; i < n; i++) {
            const r = f(i);
            for (const k of Object.keys(r)) parts[k].push(...bitsOf(r[k]));
            start.push(start[i] + r.index.length);
          }
          return { start, parts };
        };
        const all = lists((i) => {
          const r = w.castRayAll(rays.subarray(7 * i, 7 * i + 7), undefined, { mask: 0b11 });
          return { index: r.index, t: r.t, normal: r.normal };
        });
        const balls = lists((i) => {
          const out = new Int32Array(w.count);
          const c = w.overlapSphere(Array.from(spheres.subarray(4 * i, 4 * i + 3)), spheres[4 * i + 3], out);
          return { index: out.slice(0, c) };
        });
        const closest = Object.fromEntries(Object.entries(w.closestObjects(points, 4)).map(([k, v]) => [k, bitsOf(v)]));
        for (const inline of ['0', '1000']) {
          const g = got[inline];
          expect(g.mode).toBe(mode);
          expect(g.all).toEqual({ start: all.start, ...all.parts });
          expect(g.balls).toEqual({ start: balls.start, index: balls.parts.index });
          expect(g.closest).toEqual(closest);
        }
      } finally {
        w.dispose();
      }
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe.each([['/isolated', 'shared'], ['', 'copied']])('the playground stress mode at %s/', (prefix, mode) => {
  test(`"rays/s on 1..N workers" lists this thread and 1..N workers (${mode} memory)`, async () => {
    const { page, problems } = await openBrowserPage(browser, `${siteBase}${prefix}/`);
    try {
      await page.locator('label.switch').click();
      await expect.poll(() => page.getByTestId('stress-time').textContent()).toMatch(/ms per update$/);
      await page.getByTestId('stress-workers').click();
      await page.waitForSelector('[data-testid="stress-parallel"][data-done="true"]', { timeout: 60_000 });
      const cores = await page.evaluate(() => Math.max(1, Math.min(8, navigator.hardwareConcurrency || 1)));
      const labels = await page.locator('#stress-parallel dt').allTextContents();
      const values = await page.locator('#stress-parallel dd').allTextContents();
      expect(labels).toEqual(['this thread (World)', ...Array.from({ length: cores }, (_, i) => `${i + 1} worker${i ? 's' : ''}`)]);
      expect(values[0]).toMatch(/^\d+\.\d\d M rays\/s$/);
      for (const v of values.slice(1)) expect(v).toMatch(new RegExp(`^\\d+\\.\\d\\d M rays/s \\(${mode} memory\\)$`));
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
