// slabcast/parallel in Node (worker_threads), both memory modes: answers bit for bit those of a
// single-threaded world on random scenes (rays, any hit, segments, sphere, box and capsule sweeps, with
// filters, between changes), the same errors for bad input (bad items refused before any worker
// sees them), changes refused while a query is
// pending, and faults (a worker that throws, is terminated, or never answers) that reject the
// pending queries with clear errors and leave a world that rebuild() brings back.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { rng } from '../../web/bench/scenes.mjs';
import { createParallelWorld, SlabcastError } from '../../web/parallel.js';
import { loadSlabcast } from '../../web/slabcast.js';
import { MT_WASM, WASM, requireBuilt } from './helpers/artifacts.mjs';
import { addShapes, makeRays, makeScene, mixedFloatScene } from './helpers/world-scenes.mjs';

let sc;
beforeAll(async () => {
  requireBuilt(WASM);
  requireBuilt(MT_WASM);
  sc = await loadSlabcast({ wasm: WASM });
});

/** The bytes of a typed array, for bit-for-bit comparison (-0, NaN payloads included). */
const bytes = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
function expectSameBits(got, want, what) {
  expect(got.constructor.name, what).toBe(want.constructor.name);
  expect(got.length, what).toBe(want.length);
  expect(Buffer.compare(bytes(got), bytes(want)), `${what}: bits differ`).toBe(0);
}
function expectSameResult(got, want, what) {
  for (const key of Object.keys(want)) expectSameBits(got[key], want[key], `${what}.${key}`);
}

/** Segments from rays: a = origin, b = origin + dir * s (s from the ray's tmax, capped). */
function segmentsOf(rays) {
  const n = rays.length / 7;
  const out = new Float32Array(6 * n);
  for (let i = 0; i < n; i++) {
    const s = Math.min(rays[7 * i + 6], 12);
    for (let a = 0; a < 3; a++) {
      out[6 * i + a] = rays[7 * i + a];
      out[6 * i + 3 + a] = rays[7 * i + a] + s * rays[7 * i + 3 + a];
    }
  }
  return out;
}

/** Sweeps from rays: the ray, then a radius (spheres) or half extents (boxes) from rand. */
function sweepsOf(rays, rand, box) {
  const n = rays.length / 7;
  const per = box ? 10 : 8;
  const out = new Float32Array(per * n);
  for (let i = 0; i < n; i++) {
    out.set(rays.subarray(7 * i, 7 * i + 7), per * i);
    for (let k = 7; k < per; k++) out[per * i + k] = Math.floor(rand() * 5) / 4;
  }
  return out;
}

/** Filters: a mask, per-ray exclusions (some -1) and an inside rule. */
function filterOf(rand, n, count, inside) {
  const exclude = new Int32Array(n);
  for (let i = 0; i < n; i++) exclude[i] = rand() < 0.3 ? -1 : Math.floor(rand() * count);
  return { mask: 0b1011, exclude, inside };
}

const MODES = ['shared', 'copied'];

describe.each(MODES)('memory %s', (memory) => {
  test('bit-identical answers to a single-threaded world on random scenes, across changes', async () => {
    const rand = rng(7);
    for (const [scene, workers, nRays] of [[0, 2, 3000], [1, 3, 1999], [2, 2, 700]]) {
      const shapes = scene === 2 ? mixedFloatScene(rand, 400) : makeScene(rand, 250 + 100 * scene, { mixed: true });
      const single = sc.createWorld();
      const par = await createParallelWorld({ workers, memory, wasm: WASM, sharedWasm: MT_WASM });
      try {
        expect(par.memoryMode).toBe(memory);
        expect(par.workers).toBe(workers);
        addShapes(single, shapes);
        addShapes(par, shapes);
        const masks = new Uint32Array(shapes.length).map(() => Math.floor(rand() * 16));
        for (let round = 0; round < 3; round++) {
          const rays = makeRays(rand, shapes, nRays);
          const what = `scene ${scene} round ${round}`;
          expectSameResult(await par.castRays(rays), single.castRays(rays), `${what} castRays`);
          expectSameBits(await par.anyHit(rays), single.anyHit(rays), `${what} anyHit`);
          const segs = segmentsOf(rays);
          expectSameResult(await par.castSegments(segs), single.castSegments(segs), `${what} castSegments`);
          const spheres = sweepsOf(rays, rand, false);
          expectSameResult(await par.castSpheres(spheres), single.castSpheres(spheres), `${what} castSpheres`);
          const boxes = sweepsOf(rays, rand, true);
          expectSameResult(await par.castBoxes(boxes), single.castBoxes(boxes), `${what} castBoxes`);
          for (const inside of ['solid', 'skip', 'exit']) {
            const f = filterOf(rand, nRays, shapes.length, inside);
            expectSameResult(await par.castRays(rays, undefined, f), single.castRays(rays, undefined, f), `${what} filtered ${inside}`);
            expectSameBits(await par.anyHit(rays, undefined, f), single.anyHit(rays, undefined, f), `${what} anyHit filtered`);
          }
          // Changes between queries: move some objects, remove one, re-add into its slot, masks, flags.
          const moved = shapes.findIndex((s, i) => i >= 10 && s.type === 'aabb'); // not one removed below
          const box = new Float32Array([round, round, round, round + 2, round + 3, round + 4]);
          single.updateAABBs(moved, box);
          par.updateAABBs(moved, box);
          const gone = 5 + round;
          if (single.kindOf(gone) !== 'removed') { single.remove(gone); par.remove(gone); }
          if (round === 1) {
            const s = new Float32Array([1, 2, 3, 2.5]);
            expect(par.addSpheres(s)).toBe(single.addSpheres(s)); // reuses the freed slot
          }
          single.setMasks(10, masks.subarray(10, 60)); // past the removed 5..7
          par.setMasks(10, masks.subarray(10, 60));
          const flags = new Uint8Array(20).map(() => (rand() < 0.3 ? 0 : 1));
          single.setEnabled(30, flags);
          par.setEnabled(30, flags);
          expect(par.count).toBe(single.count);
        }
      } finally {
        single.dispose();
        await par.dispose();
      }
    }
  });

  test("fills the caller's arrays, queues queries, and refuses changes while one is pending", async () => {
    const rand = rng(11);
    const shapes = makeScene(rand, 200);
    const single = sc.createWorld();
    const par = await createParallelWorld({ workers: 2, memory, wasm: WASM, sharedWasm: MT_WASM });
    try {
      addShapes(single, shapes);
      addShapes(par, shapes);
      const rays = makeRays(rand, shapes, 1500);
      const out = { t: new Float32Array(1500), index: new Int32Array(1500), normal: new Float32Array(4500) };
      const p1 = par.castRays(rays, out);
      const rays2 = makeRays(rand, shapes, 1500);
      const p2 = par.castRays(rays2); // queued behind p1
      const keep = rays2.slice();
      rays2.fill(NaN); // the query took its own copy
      expect(par.pending).toBe(2);
      expect(() => par.updateAABBs(0, new Float32Array(6))).toThrow(/2 queries are pending; await them/);
      const r1 = await p1;
      expect(r1.t).toBe(out.t);
      expectSameResult(out, single.castRays(rays), 'into out');
      expectSameResult(await p2, single.castRays(keep), 'queued');
      expect(par.pending).toBe(0);
      // The frame pattern: change, then query, one await.
      const box = new Float32Array([-1, -1, -1, 1, 1, 1]);
      par.updateAABBs(3, box);
      single.updateAABBs(3, box);
      expectSameResult(await par.castRays(rays), single.castRays(rays), 'after a change');
      expect((await par.castRays(new Float32Array(0))).t.length).toBe(0);
    } finally {
      single.dispose();
      await par.dispose();
    }
  });

  test('bad input gets the same errors as a single-threaded world', async () => {
    const single = sc.createWorld();
    const par = await createParallelWorld({ workers: 2, memory, wasm: WASM, sharedWasm: MT_WASM });
    try {
      const boxes = new Float32Array([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]);
      single.addAABBs(boxes);
      par.addAABBs(boxes);
      const rays = new Float32Array(7 * 3000);
      for (let i = 0; i < 3000; i++) rays.set([-5, 0.5, 0.5, 1, 0, 0, Infinity], 7 * i);
      const errorOf = async (f) => { try { await f(); } catch (e) { return e; } throw new Error('no error'); };
      const cases = [
        ['zero dir late in the batch', (w) => { const r = rays.slice(); r.fill(0, 7 * 2500 + 3, 7 * 2500 + 6); return w.castRays(r); }],
        ['two bad rays: the first wins', (w) => { const r = rays.slice(); r[7 * 2900] = NaN; r[7 * 1700 + 6] = -1; return w.castRays(r); }],
        ['a bad sweep radius', (w) => { const s = new Float32Array(8 * 100); for (let i = 0; i < 100; i++) s.set([0, 0, 0, 1, 0, 0, 5, 1], 8 * i); s[8 * 77 + 7] = -1; return w.castSpheres(s); }],
        ['a bad segment', (w) => { const s = new Float32Array(6 * 90); s[6 * 60 + 4] = Infinity; return w.castSegments(s); }],
        ['not a batch', (w) => w.castRays('rays')],
        ['a ragged batch', (w) => w.castRays(new Float32Array(13))],
        ['a short out array', (w) => w.castRays(rays, { t: new Float32Array(5) })],
        ['overlapping outs', (w) => { const b = new ArrayBuffer(4 * 3000 * 5); return w.castRays(rays, { t: new Float32Array(b, 0, 3000), normal: new Float32Array(b, 4, 9000) }); }],
        ['exclude out of range', (w) => w.castRays(rays, undefined, { exclude: new Int32Array(3000).fill(2) })],
        ['a bad mask', (w) => w.anyHit(rays, undefined, { mask: 1.5 })],
        ['a bad inside', (w) => w.castBoxes(new Float32Array(10), undefined, { inside: 'out' })],
        ['update of the wrong kind', (w) => w.updateSpheres(0, new Float32Array(4))],
        ['update past the end', (w) => w.updateAABBs(1, boxes)],
        ['remove out of range', (w) => w.remove(9)],
        ['masks not Uint32Array', (w) => w.setMasks(0, [1, 2])],
      ];
      for (const [what, f] of cases) {
        const want = await errorOf(() => f(single));
        const got = await errorOf(() => f(par));
        expect(got, what).toBeInstanceOf(SlabcastError);
        expect(got.message, what).toBe(want.message);
        expect(got.field, what).toBe(want.field);
        expect(got.status, what).toBe(want.status);
      }
      // Nothing above changed either world.
      expectSameResult(await par.castRays(rays), single.castRays(rays), 'after the errors');
    } finally {
      single.dispose();
      await par.dispose();
    }
  });

  describe('faults', () => {
    const FAULT = Symbol.for('slabcast.parallel.fault');
    let single;
    let par;
    let rays;
    beforeAll(async () => {
      const rand = rng(3);
      const shapes = makeScene(rand, 300, { mixed: true });
      single = sc.createWorld();
      addShapes(single, shapes);
      par = await createParallelWorld({ workers: 2, memory, wasm: WASM, sharedWasm: MT_WASM, timeout: 1500 });
      addShapes(par, shapes);
      par.remove(4); // a freed slot the rebuilt replicas must keep
      single.remove(4);
      rays = makeRays(rand, shapes, 4000);
    });
    afterAll(async () => {
      single?.dispose();
      await par?.dispose();
    });

    async function expectRecovers() {
      await expect(par.castRays(rays)).rejects.toThrow(/call world\.rebuild\(\)|failed|exited/);
      await par.rebuild();
      expect(par.failed).toBe(null);
      expectSameResult(await par.castRays(rays), single.castRays(rays), 'after rebuild');
      const s = new Float32Array([0, 0, 0, 1]);
      expect(par.addSpheres(s)).toBe(single.addSpheres(s)); // the freed slot survived the rebuild
      expectSameResult(await par.castRays(rays), single.castRays(rays), 'after an add');
    }

    test('a worker that throws rejects the pending query with a clear error', async () => {
      par[FAULT](1, 'throw');
      const t0 = performance.now();
      const e = await par.castRays(rays).catch((x) => x);
      expect(e).toBeInstanceOf(SlabcastError);
      expect(e.message).toMatch(/parallel world: worker 1 failed: injected fault: the worker threw/);
      expect(performance.now() - t0).toBeLessThan(1500); // the error, not the timeout
      expect(par.failed).toBe(e);
      await expectRecovers();
    });

    test('a bad item is refused on the calling thread: no worker sees the query', async () => {
      // A fault armed for the next job a worker runs: a query that reached the workers would
      // fail with it; one refused before dispatch fails with the item's error and leaves it armed.
      par[FAULT](1, 'throw');
      const bad = rays.slice();
      bad[7 * 3000 + 3] = NaN;
      const e = await par.castRays(bad).catch((x) => x);
      expect(e).toBeInstanceOf(SlabcastError);
      let want;
      try { single.castRays(bad); } catch (x) { want = x; }
      expect(e.message).toBe(want.message);
      expect(par.failed).toBe(null);
      expect(par.pending).toBe(0);
      // the next good query is the first a worker sees: the armed fault fires there
      const e2 = await par.castRays(rays).catch((x) => x);
      expect(e2?.message).toMatch(/injected fault: the worker threw/);
      await par.rebuild();
      expectSameResult(await par.castRays(rays), single.castRays(rays), 'after rebuild');
    });

    test('a terminated worker rejects the pending query', async () => {
      const p = par.castRays(rays);
      par[FAULT](0, 'terminate');
      const e = await p.then(() => null, (x) => x);
      // The query may have finished before the worker went; then the next one fails.
      const e2 = e ?? await par.castRays(rays).catch((x) => x);
      expect(e2).toBeInstanceOf(SlabcastError);
      expect(e2.message).toMatch(/parallel world: worker 0 exited/);
      await expectRecovers();
    });

    test('a worker that never answers times out, and nothing hangs', async () => {
      par[FAULT](0, 'hang');
      const t0 = performance.now();
      const e = await par.castRays(rays).catch((x) => x);
      expect(e).toBeInstanceOf(SlabcastError);
      expect(e.message).toMatch(/world query \(rays\) timed out after 1500 ms; the workers were stopped \(call world\.rebuild\(\)/);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(1400);
      await expectRecovers();
    });

    test('dispose rejects pending queries and ends the workers', async () => {
      const w = await createParallelWorld({ workers: 2, memory, wasm: WASM, sharedWasm: MT_WASM });
      w.addAABBs(new Float32Array([0, 0, 0, 1, 1, 1]));
      const big = new Float32Array(7 * 200000);
      for (let i = 0; i < 200000; i++) big.set([-5, 0.5, 0.5, 1, 0, 0, Infinity], 7 * i);
      const p = w.castRays(big);
      const q = w.castRays(big);
      await w.dispose();
      expect(w.disposed).toBe(true);
      for (const r of [p, q]) {
        const e = await r.then(() => null, (x) => x);
        if (e !== null) expect(e.message).toMatch(/disposed/);
      }
      await expect(w.castRays(big)).rejects.toThrow('the parallel world has been disposed');
      expect(() => w.addAABBs(new Float32Array(6))).toThrow('the parallel world has been disposed');
      await w.dispose(); // twice is fine
    });
  });
});

test('options are checked', async () => {
  const bad = [
    [{ workers: 0 }, /options\.workers must be an integer from 1 to 64/],
    [{ workers: 2.5 }, /options\.workers/],
    [{ memory: 'both' }, /options\.memory must be 'auto', 'shared' or 'copied'/],
    [{ timeout: -1 }, /options\.timeout/],
    [{ threads: 2 }, /options\.threads is not an option/],
    [[], /options must be an object/],
    [{ sharedWasm: WASM, memory: 'shared' }, /not the shared-memory build|does not instantiate/],
  ];
  for (const [o, re] of bad) await expect(createParallelWorld(o)).rejects.toThrow(re);
  const w = await createParallelWorld({ workers: 1 });
  expect(w.memoryMode).toBe('shared'); // Node can always share memory
  await w.dispose();
});

describe.each(MODES)('capsules, memory %s', (memory) => {
  test('capsule objects and castCapsules: bit for bit the single world, across changes and a rebuild', async () => {
    const rand = rng(24);
    const u = (lo, hi) => Math.fround(lo + rand() * (hi - lo));
    const shapes = mixedFloatScene(rand, 200);
    const caps = new Float32Array(7 * 150);
    for (let i = 0; i < 150; i++) {
      const a = [u(-20, 20), u(-20, 20), u(-20, 20)];
      caps.set([...a, ...a.map((v) => Math.fround(v + u(-3, 3))), u(0, 1.5)], 7 * i);
    }
    const sweeps = new Float32Array(11 * 1500);
    for (let i = 0; i < 1500; i++) {
      const a = [u(-25, 25), u(-25, 25), u(-25, 25)];
      sweeps.set([...a, ...a.map((v) => Math.fround(v + u(-2, 2))), u(-1, 1), u(-1, 1), u(-1, 1) || 1, rand() < 0.3 ? u(1, 30) : Infinity, u(0, 1)], 11 * i);
    }
    const single = sc.createWorld();
    const par = await createParallelWorld({ workers: 2, memory, wasm: WASM, sharedWasm: MT_WASM });
    try {
      for (const w of [single, par]) {
        addShapes(w, shapes);
        expect(w.addCapsules(caps)).toBe(shapes.length);
      }
      expect(par.kindOf(shapes.length)).toBe('capsule');
      const rays = makeRays(rand, shapes, 1500);
      const f = filterOf(rand, 1500, shapes.length + 150, 'skip');
      const compare = async (what) => {
        expectSameResult(await par.castCapsules(sweeps), single.castCapsules(sweeps), `${what} castCapsules`);
        expectSameResult(await par.castCapsules(sweeps, undefined, f), single.castCapsules(sweeps, undefined, f), `${what} castCapsules filtered`);
        expectSameResult(await par.castRays(rays), single.castRays(rays), `${what} castRays`);
        expectSameResult(await par.castSpheres(sweepsOf(rays, rng(5), false)), single.castSpheres(sweepsOf(rays, rng(5), false)), `${what} castSpheres`);
      };
      await compare('added');
      const hits = single.castCapsules(sweeps).index.filter((k) => k >= shapes.length).length;
      expect(hits).toBeGreaterThan(50); // capsule objects are hit, not only the others
      // move the capsules, remove one and put a capsule in its slot
      const moved = caps.map((v, k) => (k % 7 === 6 ? v : Math.fround(v + 0.5)));
      const first = shapes.length + 3;
      for (const w of [single, par]) {
        w.updateCapsules(shapes.length, moved);
        w.remove(first);
        expect(w.addCapsules(caps.subarray(0, 7))).toBe(first);
      }
      await compare('changed');
      await par.rebuild(); // copied mode: replicas seeded from the mirror (capsules included)
      await compare('rebuilt');
      await expect(par.castCapsules(new Float32Array(10))).rejects.toThrow('sweeps must hold 11 floats per item');
      const bad = sweeps.slice(0, 11 * 200);
      bad[11 * 150 + 10] = -1;
      await expect(par.castCapsules(bad)).rejects.toThrow('sweeps[150]: capsule.radius is negative');
    } finally {
      single.dispose();
      await par.dispose();
    }
  }, 60000);
});
