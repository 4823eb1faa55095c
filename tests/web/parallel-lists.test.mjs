// slabcast/parallel: closestObjects, castRayAll and the overlaps (overlapAABBs, overlapSpheres,
// overlapOBBs, overlapCapsules, overlapFrustums) on workers, in both memory modes, on the workers
// (inline: 0) and on the calling thread (small batches). Every answer is compared bit for bit with
// the single-threaded World's own call for each item (World.closestObjects on the whole batch,
// World.castRayAll and World.overlap* one item at a time), on random scenes, across changes.
// Bad input and hostile arrays get errors that name what is wrong, before any worker sees them.
import { beforeAll, describe, expect, test } from 'vitest';
import { rng } from '../../web/bench/scenes.mjs';
import { createParallelWorld, SlabcastError } from '../../web/parallel.js';
import { loadSlabcast } from '../../web/slabcast.js';
import { MT_WASM, WASM, requireBuilt } from './helpers/artifacts.mjs';
import { addShapes, makeRays, mixedFloatScene } from './helpers/world-scenes.mjs';

let sc;
beforeAll(async () => {
  requireBuilt(WASM);
  requireBuilt(MT_WASM);
  sc = await loadSlabcast({ wasm: WASM });
});

const bytes = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
function expectSameBits(got, want, what) {
  expect(got?.constructor.name, what).toBe(want.constructor.name);
  expect(got.length, what).toBe(want.length);
  expect(Buffer.compare(bytes(got), bytes(want)), `${what}: bits differ`).toBe(0);
}

const f32 = Math.fround;
const PERMS = [
  [[1, 0, 0], [0, 1, 0], [0, 0, 1]], [[0, 1, 0], [-1, 0, 0], [0, 0, 1]], [[0, 0, -1], [1, 0, 0], [0, -1, 0]],
];

/** n random volumes of each overlap kind, some large (many hits: past the first job's room). */
function volumes(rand, n) {
  const c = () => [0, 1, 2].map(() => f32(rand() * 40 - 20));
  const size = () => (rand() < 0.15 ? 12 + rand() * 20 : rand() * 4);
  const boxes = new Float32Array(6 * n);
  const spheres = new Float32Array(4 * n);
  const obbs = new Float32Array(15 * n);
  const capsules = new Float32Array(7 * n);
  const frustums = new Float32Array(24 * n);
  for (let i = 0; i < n; i++) {
    const p = c();
    const h = [size(), size(), size()];
    boxes.set([...p.map((v, a) => v - h[a]), ...p.map((v, a) => v + h[a])], 6 * i);
    spheres.set([...p, size()], 4 * i);
    obbs.set([...p, ...PERMS[i % 3].flat(), ...h], 15 * i);
    capsules.set([...p, ...c(), size() / 2], 7 * i);
    // a box as six planes n.x + d >= 0, one of them tilted
    const planes = [[1, 0, 0, h[0] - p[0]], [-1, 0, 0, h[0] + p[0]], [0, 1, 0, h[1] - p[1]], [0, -1, 0, h[1] + p[1]],
      [0, 0.6, 0.8, h[2] - p[2]], [0, 0, -1, h[2] + p[2]]];
    frustums.set(planes.flat(), 24 * i);
  }
  return { overlapAABBs: boxes, overlapSpheres: spheres, overlapOBBs: obbs, overlapCapsules: capsules, overlapFrustums: frustums };
}

/** The World's overlap of item i of a batch of `key`, as a list of indices. */
function worldOverlap(w, key, a, i, options) {
  const per = { overlapAABBs: 6, overlapSpheres: 4, overlapOBBs: 15, overlapCapsules: 7, overlapFrustums: 24 }[key];
  const v = a.subarray(per * i, per * (i + 1));
  const out = new Int32Array(w.count);
  let n;
  if (key === 'overlapAABBs') n = w.overlapAABB([v[0], v[1], v[2]], [v[3], v[4], v[5]], out, options);
  else if (key === 'overlapSpheres') n = w.overlapSphere([v[0], v[1], v[2]], v[3], out, options);
  else if (key === 'overlapCapsules') n = w.overlapCapsule([v[0], v[1], v[2]], [v[3], v[4], v[5]], v[6], out, options);
  else if (key === 'overlapOBBs') n = w.overlapOBB(Array.from(v), out, options);
  else n = w.overlapFrustum(Array.from(v), out, options);
  return { index: out.slice(0, n) };
}

/** The World's answers for a list query, item by item, joined as the parallel world's lists. */
function expectedLists(w, key, a, n, filter) {
  const start = new Int32Array(n + 1);
  const parts = [];
  for (let i = 0; i < n; i++) {
    const options = filter && { mask: filter.mask, inside: filter.inside, exclude: filter.exclude?.subarray(i, i + 1) };
    const r = key === 'castRayAll' ? w.castRayAll(a.subarray(7 * i, 7 * i + 7), undefined, options) : worldOverlap(w, key, a, i, options);
    parts.push(r);
    start[i + 1] = start[i] + r.index.length;
  }
  const join = (k, Type, per) => {
    const out = new Type(per * start[n]);
    parts.forEach((r, i) => out.set(r[k], per * start[i]));
    return out;
  };
  const want = { start, index: join('index', Int32Array, 1) };
  if (key === 'castRayAll') {
    want.t = join('t', Float32Array, 1);
    want.normal = join('normal', Float32Array, 3);
  }
  return want;
}

function expectSameLists(got, want, what) {
  expect(Object.keys(got).sort(), what).toEqual(Object.keys(want).sort());
  for (const k of Object.keys(want)) expectSameBits(got[k], want[k], `${what}.${k}`);
}

const capsuleScene = (rand, n) => {
  const c = new Float32Array(7 * n);
  for (let i = 0; i < n; i++) c.set([...[0, 1, 2].map(() => f32(rand() * 40 - 20)), ...[0, 1, 2].map(() => f32(rand() * 40 - 20)), f32(rand())], 7 * i);
  return c;
};

const LISTS = ['castRayAll', 'overlapAABBs', 'overlapSpheres', 'overlapOBBs', 'overlapCapsules', 'overlapFrustums'];

// inline 0: every batch on the workers; 2^30: every batch here on the calling thread
describe.each([
  ['shared', 0], ['copied', 0], ['shared', 2 ** 30], ['copied', 2 ** 30],
])('memory %s, inline %i', (memory, inline) => {
  test('bit for bit the World on random scenes, with filters, across changes', async () => {
    const rand = rng(inline + (memory === 'shared' ? 1 : 2));
    const shapes = mixedFloatScene(rand, 500);
    const single = sc.createWorld();
    const par = await createParallelWorld({ workers: 2, memory, inline, wasm: WASM, sharedWasm: MT_WASM });
    try {
      addShapes(single, shapes);
      addShapes(par, shapes);
      const caps = capsuleScene(rand, 40);
      single.addCapsules(caps);
      par.addCapsules(caps);
      const count = single.count;
      const masks = Uint32Array.from({ length: count }, () => Math.floor(rand() * 8));
      single.setMasks(0, masks);
      par.setMasks(0, masks);
      for (let round = 0; round < 3; round++) {
        const n = round === 0 ? 200 : 700;
        const filter = round === 2 ? {
          mask: 0b101,
          // live objects only (5 and 6 were removed): a World refuses to exclude a removed object
          exclude: Int32Array.from({ length: n }, () => (rand() < 0.3 ? -1 : 7 + Math.floor(rand() * (count - 7)))),
          inside: 'skip',
        } : undefined;
        // closestObjects: the World's batch call
        const points = new Float32Array(3 * n).map(() => f32(rand() * 50 - 25));
        for (const maxDistance of [Infinity, 3]) {
          const got = await par.closestObjects(points, maxDistance, undefined, filter);
          const want = single.closestObjects(points, maxDistance, undefined, filter);
          for (const k of ['index', 'distance', 'point']) expectSameBits(got[k], want[k], `closestObjects ${round}.${k}`);
        }
        const out = { index: new Int32Array(n), distance: new Float32Array(n), point: new Float32Array(3 * n) };
        const r = await par.closestObjects(points, 5, out, filter);
        expect(r.index).toBe(out.index);
        expectSameBits(out.point, single.closestObjects(points, 5, undefined, filter).point, 'closestObjects into out');
        // castRayAll and the overlaps: the World's call per item
        const rays = makeRays(rand, shapes, n);
        const vol = volumes(rand, n);
        for (const key of LISTS) {
          const a = key === 'castRayAll' ? rays : vol[key];
          const got = await par[key](a, filter);
          expectSameLists(got, expectedLists(single, key, a, n, filter), `${key} round ${round}`);
        }
        // changes between rounds
        const moved = new Float32Array(6 * 20);
        for (let i = 0; i < 20; i++) moved.set([i, i, i, i + 3, i + 2, i + 1], 6 * i);
        const first = shapes.findIndex((s, i) => i >= 8 && s.type === 'aabb'); // not a removed one
        single.updateAABBs(first, moved.subarray(0, 6));
        par.updateAABBs(first, moved.subarray(0, 6));
        single.remove(round + 5);
        par.remove(round + 5);
      }
      // no items: empty lists
      const empty = await par.overlapSpheres(new Float32Array(0));
      expect(Array.from(empty.start)).toEqual([0]);
      expect(empty.index.length).toBe(0);
    } finally {
      single.dispose();
      await par.dispose();
    }
  });

  test('bad items and bad calls: errors that name what is wrong, and nothing reaches a worker', async () => {
    const par = await createParallelWorld({ workers: 2, memory, inline, wasm: WASM, sharedWasm: MT_WASM, timeout: 3000 });
    const single = sc.createWorld();
    try {
      const boxes = new Float32Array([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]);
      par.addAABBs(boxes);
      single.addAABBs(boxes);
      const n = 600;
      const good = new Float32Array(4 * n).map((_, i) => (i % 4 === 3 ? 1 : 0.5));
      const errorOf = async (f) => { try { await f(); } catch (e) { return e; } throw new Error('no error'); };
      // Item 431 is a ball of radius -1, item 500 a NaN centre: the first bad item is named, with
      // the message the World gives for that ball alone.
      const bad = good.slice();
      bad[4 * 431 + 3] = -1;
      bad[4 * 500] = NaN;
      const e1 = await errorOf(() => par.overlapSpheres(bad));
      const w1 = await errorOf(() => single.overlapSphere([0.5, 0.5, 0.5], -1, null));
      expect(e1).toBeInstanceOf(SlabcastError);
      expect(e1.message).toBe(w1.message.replace(/^sphere: /, 'spheres[431]: '));
      expect(e1.status).toBe(w1.status);
      // a ray with a zero direction in castRayAll; a NaN point in closestObjects (the World's batch message)
      const rays = new Float32Array(7 * n).map((_, i) => [-5, 0.5, 0.5, 1, 0, 0, Infinity][i % 7]);
      rays.fill(0, 7 * 333 + 3, 7 * 333 + 6);
      const w2 = await errorOf(() => single.castRayAll(rays.subarray(7 * 333, 7 * 334)));
      expect((await errorOf(() => par.castRayAll(rays))).message).toBe(w2.message.replace(/^ray: /, 'rays[333]: '));
      const points = new Float32Array(3 * n);
      points[3 * 222 + 1] = Infinity;
      const w3 = await errorOf(() => single.closestObjects(points, 1));
      expect((await errorOf(() => par.closestObjects(points, 1))).message).toBe(w3.message);
      for (const [what, f, want] of [
        ['a ragged batch', () => par.overlapAABBs(new Float32Array(7)), /boxes/],
        ['not a batch', () => par.overlapOBBs('obbs'), /obbs/],
        ['an out argument', () => par.castRayAll(rays, null, { mask: 1 }), /castRayAll takes \(rays, options\).*no out argument/],
        ['a bad option', () => par.overlapCapsules(new Float32Array(7), { exlude: new Int32Array(1) }), /options\.exlude is not an option/],
        ['a short exclude', () => par.overlapFrustums(new Float32Array(48), { exclude: new Int32Array(1) }), /options\.exclude must hold at least 2/],
        ['a bad maxDistance', () => par.closestObjects(points, -1), /maxDistance must be a number >= 0/],
        ['a short out', () => par.closestObjects(points, 1, { index: new Int32Array(3) }), /index/],
      ]) {
        const e = await errorOf(f);
        expect(e, what).toBeInstanceOf(SlabcastError);
        expect(e.message, what).toMatch(want);
      }
      expect(par.failed).toBe(null);
      expect(par.pending).toBe(0);
      // and the world still answers
      expectSameLists(await par.overlapSpheres(good), expectedLists(single, 'overlapSpheres', good, n), 'after the errors');
    } finally {
      single.dispose();
      await par.dispose();
    }
  });

  test('hostile arrays: detached, resizable, subclassed, Proxy', async () => {
    const par = await createParallelWorld({ workers: 2, memory, inline, wasm: WASM, sharedWasm: MT_WASM });
    const single = sc.createWorld();
    try {
      const boxes = new Float32Array([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]);
      par.addAABBs(boxes);
      single.addAABBs(boxes);
      const vols = new Float32Array(6 * 400).map((_, i) => [0.5, 0.5, 0.5, 2.5, 2.5, 2.5][i % 6]);
      const want = expectedLists(single, 'overlapAABBs', vols, 400);
      const errorOf = async (f) => { try { await f(); } catch (e) { return e; } return null; };
      // detached: refused, naming the batch
      const d = vols.slice();
      structuredClone(d.buffer, { transfer: [d.buffer] });
      const e1 = await errorOf(() => par.overlapAABBs(d));
      expect(e1).toBeInstanceOf(SlabcastError);
      expect(e1.message).toMatch(/^boxes is a typed array whose buffer is detached/);
      // castRays took a detached batch for an empty one (resolved with no answers) before
      const dr = new Float32Array(14);
      structuredClone(dr.buffer, { transfer: [dr.buffer] });
      expect((await errorOf(() => par.castRays(dr)))?.message).toMatch(/^rays is a typed array whose buffer is detached/);
      // resizable, shrunk by the options' getter before the lengths are read: the items that are there
      const buffer = new ArrayBuffer(vols.byteLength, { maxByteLength: vols.byteLength });
      const r = new Float32Array(buffer);
      r.set(vols);
      const got = await par.overlapAABBs(r, { get mask() { buffer.resize(6 * 4 * 100); return 0xFFFFFFFF; } });
      expectSameLists(got, expectedLists(single, 'overlapAABBs', vols.subarray(0, 600), 100), 'shrunk');
      // a subclass whose length and subarray lie: its real floats are read
      class Liar extends Float32Array {
        get length() { return 6; }
        subarray() { return new Float32Array(6); }
      }
      const l = new Liar(vols.length);
      l.set(vols);
      expectSameLists(await par.overlapAABBs(l), want, 'subclass');
      const small = new Liar(6 * 100); // answered on the calling thread when inline is 2^30
      small.set(vols.subarray(0, 600));
      expectSameLists(await par.overlapAABBs(small), expectedLists(single, 'overlapAABBs', vols.subarray(0, 600), 100), 'small subclass');
      const rays = new Liar(7 * 3);
      rays.set([-1, 0.5, 0.5, 1, 0, 0, Infinity, -1, 2.5, 2.5, 1, 0, 0, Infinity, 5, 5, 5, 0, 0, 1, Infinity]);
      expectSameLists(await par.castRayAll(rays), expectedLists(single, 'castRayAll', Float32Array.from(rays), 3), 'small subclass of rays');
      // a Proxy is not a typed array: refused with the World's error
      const e2 = await errorOf(() => par.overlapAABBs(new Proxy(vols, {})));
      const w2 = await errorOf(() => single.addAABBs(new Proxy(new Float32Array(6), {})));
      expect(e2).toBeInstanceOf(SlabcastError);
      expect(e2.message).toBe(w2.message);
      // closestObjects' out.distance over a resizable buffer that shrinks while the query waits its
      // turn: refused, naming it, before anything is written (the check missed distance before)
      const points = new Float32Array(3 * 400).fill(0.5);
      const first = par.overlapAABBs(vols); // the closestObjects call below waits behind it
      const dbuf = new ArrayBuffer(4 * 400, { maxByteLength: 4 * 400 });
      const distance = new Float32Array(dbuf, 0, 400);
      const pending = par.closestObjects(points, 1, { distance });
      dbuf.resize(4 * 10);
      await first;
      const e4 = await errorOf(() => pending);
      expect(e4).toBeInstanceOf(SlabcastError);
      expect(e4.message).toBe('out.distance must hold at least 400 items; it holds 0 (it shrank while the query was pending)');
      // an exclude list that is a Proxy of an Int32Array
      const e3 = await errorOf(() => par.overlapAABBs(vols, { exclude: new Proxy(new Int32Array(400), {}) }));
      expect(e3?.message).toMatch(/options\.exclude must be an Int32Array/);
      expect(par.failed).toBe(null);
    } finally {
      single.dispose();
      await par.dispose();
    }
  });
});

describe.each(['shared', 'copied'])('the default inline (256 rays; 8 per item of the other queries), memory %s', (memory) => {
  test('batches that small never reach a worker; one item more does', async () => {
    const FAULT = Symbol.for('slabcast.parallel.fault');
    const par = await createParallelWorld({ workers: 2, memory, wasm: WASM, sharedWasm: MT_WASM });
    const single = sc.createWorld();
    try {
      const rand = rng(9);
      const shapes = mixedFloatScene(rand, 100);
      addShapes(par, shapes);
      addShapes(single, shapes);
      const rays = makeRays(rand, shapes, 257);
      const boxes = volumes(rand, 33).overlapAABBs;
      // a fault armed in every worker for the next query it runs: the calls on the calling thread
      // pass it by (a small call on the workers goes to one of them: copied.js, SPLIT_ITEMS)
      const arm = () => { par[FAULT](0, 'throw'); par[FAULT](1, 'throw'); };
      arm();
      expectSameBits((await par.castRays(rays.subarray(0, 7 * 256))).t, single.castRays(rays.subarray(0, 7 * 256)).t, '256 rays');
      expectSameLists(await par.overlapAABBs(boxes.subarray(0, 6 * 32)), expectedLists(single, 'overlapAABBs', boxes, 32), '32 boxes');
      const e = await par.overlapAABBs(boxes).then(() => null, (x) => x); // 33 boxes: 264 > 256
      expect(e?.message).toMatch(/injected fault: the worker threw/);
      await par.rebuild();
      arm();
      const e2 = await par.castRays(rays).then(() => null, (x) => x); // 257 rays
      expect(e2?.message).toMatch(/injected fault: the worker threw/);
    } finally {
      single.dispose();
      await par.dispose();
    }
  });
});

describe('a worker that answers with a malformed message (copied memory)', () => {
  test('fails the world with an error naming the worker and what is wrong; rebuild restores', async () => {
    const FAULT = Symbol.for('slabcast.parallel.fault');
    const par = await createParallelWorld({ workers: 2, memory: 'copied', inline: 0, wasm: WASM });
    const single = sc.createWorld();
    try {
      const rand = rng(5);
      const shapes = mixedFloatScene(rand, 200);
      addShapes(par, shapes);
      addShapes(single, shapes);
      const rays = makeRays(rand, shapes, 300);
      const vols = volumes(rand, 300).overlapSpheres;
      const SPLIT = Symbol.for('slabcast.parallel.split');
      // [query, items, the worker armed, weighted items per worker before a split, the error]
      for (const [key, a, k, split, want] of [
        // 300 rays: one worker's call by default (worker 0: every worker idle, the lowest index)
        ['castRays', rays, 0, undefined, /^parallel world: worker 0 answered rays without its buffer of \d+ bytes$/],
        ['castRays', rays, 1, 1, /^parallel world: worker 1 answered rays without its buffer of \d+ bytes$/],
        // 300 spheres weigh 2400 rays: both workers, 150 each
        ['overlapSpheres', vols, 1, undefined, /^parallel world: worker 1 answered spheres with a start that is not an Int32Array of 151$/],
        ['overlapSpheres', vols, 0, 1e6, /^parallel world: worker 0 answered spheres with a start that is not an Int32Array of 301$/],
      ]) {
        par[SPLIT](split ?? 1024);
        par[FAULT](k, 'garble');
        const e = await par[key](a).then(() => null, (x) => x);
        expect(e, key).toBeInstanceOf(SlabcastError);
        expect(e.message, key).toMatch(want);
        expect(par.failed, key).toBe(e);
        await par.rebuild();
        expectSameLists(await par.overlapSpheres(vols), expectedLists(single, 'overlapSpheres', vols, 300), `${key}: after rebuild`);
      }
      expect(() => par[FAULT](0, 'smash')).toThrow(/kind must be 'throw', 'hang', 'garble' or 'terminate'/);
    } finally {
      single.dispose();
      await par.dispose();
    }
  });
});
