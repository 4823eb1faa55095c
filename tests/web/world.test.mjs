// World queries through the JS API, checked against brute force over the single queries
// (sc.raycast on every object: nearest t, ties to the lowest index), exactly: the same float32
// t, the same index, the same normal. Scenes are random and adversarial: dyadic coordinates
// (exact ties), axis-parallel rays with 0 and -0, origins on faces and inside boxes, duplicate
// and zero-thickness boxes, OBBs and spheres.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ROOT } from './helpers/artifacts.mjs';
import { SCENES, rng } from '../../web/bench/scenes.mjs';
import { loadSlabcast, SlabcastError } from '../../web/slabcast.js';
import { addShapes, makeRays, makeScene } from './helpers/world-scenes.mjs';

let sc;
beforeAll(async () => {
  sc = await loadSlabcast();
});


function bruteForce(shapes, rays, i) {
  const ray = { origin: Array.from(rays.subarray(7 * i, 7 * i + 3)), dir: Array.from(rays.subarray(7 * i + 3, 7 * i + 6)), tmax: rays[7 * i + 6] };
  let best = null;
  shapes.forEach((s, k) => {
    const h = sc.raycast(ray, s);
    if (h.hit && (best === null || h.t < best.t)) best = { t: h.t, index: k, normal: h.normal };
  });
  return best;
}

function compareAll(shapes, world, rays) {
  const n = rays.length / 7;
  const res = world.castRays(rays);
  const any = world.anyHit(rays);
  const problems = [];
  for (let i = 0; i < n && problems.length < 5; i++) {
    const b = bruteForce(shapes, rays, i);
    const idx = res.index[i];
    const ok = b === null
      ? idx === -1 && any[i] === 0
      : idx === b.index && res.t[i] === b.t && any[i] === 1 &&
        [0, 1, 2].every((k) => res.normal[3 * i + k] === b.normal[k]);
    if (!ok) {
      problems.push(`ray ${Array.from(rays.subarray(7 * i, 7 * i + 7)).join(',')}: world ${idx} t ${res.t[i]}, brute ${b ? `${b.index} t ${b.t}` : 'miss'}`);
    }
  }
  return problems;
}

describe('world results equal brute force over single queries', () => {
  test('random dyadic boxes with duplicates and zero thickness', () => {
    const rand = rng(1);
    for (let round = 0; round < 6; round++) {
      const shapes = makeScene(rand, 50 + Math.floor(rand() * 300));
      const world = sc.createWorld();
      addShapes(world, shapes);
      expect(compareAll(shapes, world, makeRays(rand, shapes, 400))).toEqual([]);
      world.dispose();
    }
  });

  test('direction components at the culling thresholds (2^-40, 2^100, 0, -0, subnormal), batches of 2000', () => {
    // Each ray's preparation decides per axis whether it culls (2^-40 <= |d| < 2^100) and whether
    // the leaf test's fast path may run (every axis culls); wasm prepares it on SIMD128 vectors.
    const rand = rng(7);
    const comps = [0, -0, 2 ** -40, -(2 ** -40), 2 ** -40 * (1 - 2 ** -24), 1e-45, -3e-39, 2 ** 100, -(2 ** 100),
      2 ** 100 * (1 - 2 ** -24), 1, -0.5, 3, 0.1];
    for (let round = 0; round < 3; round++) {
      const shapes = makeScene(rand, 200 + Math.floor(rand() * 200));
      const world = sc.createWorld();
      addShapes(world, shapes);
      const rays = makeRays(rand, shapes, 2000);
      for (let i = 0; i < 2000; i++) {
        for (let a = 0; a < 3; a++) if (rand() < 0.5) rays[7 * i + 3 + a] = comps[Math.floor(rand() * comps.length)];
        if (rays[7 * i + 3] === 0 && rays[7 * i + 4] === 0 && rays[7 * i + 5] === 0) rays[7 * i + 3] = 1;
      }
      expect(compareAll(shapes, world, rays)).toEqual([]);
      world.dispose();
    }
  });

  test('boxes, OBBs and spheres mixed', () => {
    const rand = rng(2);
    for (let round = 0; round < 6; round++) {
      const shapes = makeScene(rand, 30 + Math.floor(rand() * 200), { mixed: true });
      const world = sc.createWorld();
      addShapes(world, shapes);
      expect(compareAll(shapes, world, makeRays(rand, shapes, 300))).toEqual([]);
      world.dispose();
    }
  });

  test('after updates and a refit, a commit, or neither (the query commits)', () => {
    const rand = rng(3);
    const shapes = makeScene(rand, 300);
    const world = sc.createWorld();
    addShapes(world, shapes);
    world.build();
    for (let k = 0; k < 3; k++) {
      const first = Math.floor(rand() * 200);
      const moved = makeScene(rand, 50);
      const data = new Float32Array(50 * 6);
      moved.forEach((s, j) => { data.set([...s.min, ...s.max], 6 * j); shapes[first + j] = s; });
      world.updateAABBs(first, data);
      if (k === 0) world.refit();
      if (k === 2) world.commit(); // k == 1: the query commits by itself
      expect(compareAll(shapes, world, makeRays(rand, shapes, 300))).toEqual([]);
    }
    world.dispose();
  });

  test('hand-checked: inside, ties to the lowest index, sliding along a face, tmax', () => {
    const world = sc.createWorld();
    // box 0: [-4,4]^3; boxes 1 and 2: the same [-1,1]^3; box 3: x in [2,3]
    expect(world.addAABBs(new Float32Array([-4, -4, -4, 4, 4, 4, -1, -1, -1, 1, 1, 1]))).toBe(0);
    expect(world.addAABBs([-1, -1, -1, 1, 1, 1, 2, -1, -1, 3, 1, 1])).toBe(2);
    const r = world.castRays(new Float32Array([
      0, 0, 0, 1, 0, 0, Infinity, //     inside 0, 1, 2: index 0 at t 0, normal 0
      -8, 0, 0, 1, 0, 0, Infinity, //    enters 0 at t 4 through x = -4: normal -x
      -8, 0, 0, 1, 0, 0, 3.5, //         stops short of x = -4
      -8, 4, 0, 1, -0, 0, Infinity, //   slides along the top face y = 4 of box 0: t 4
      -8, 0, 0, 2, 0, 0, 2, //           tmax exactly at the entry (t = 2): closed
    ]));
    expect(Array.from(r.index)).toEqual([0, 0, -1, 0, 0]);
    expect(Array.from(r.t)).toEqual([0, 4, 0, 4, 2]);
    expect(Array.from(r.normal.subarray(0, 6))).toEqual([0, 0, 0, -1, 0, 0]);
    const seg = world.castSegments(new Float32Array([-8, 0, 0, -4, 0, 0, 0.5, 0, 0, 0.5, 0, 0]));
    expect(Array.from(seg.index)).toEqual([0, 0]);
    expect(Array.from(seg.t)).toEqual([1, 0]);
    world.dispose();
  });
});

describe('world API contract', () => {
  test('invalid input throws SlabcastError naming the item and leaves the world unchanged', () => {
    const world = sc.createWorld();
    world.addAABBs(new Float32Array([0, 0, 0, 1, 1, 1]));
    const rays = new Float32Array([-1, 0.5, 0.5, 1, 0, 0, Infinity]);
    const before = world.castRays(rays);
    expect(() => world.addAABBs(new Float32Array(7))).toThrow(/multiple of 6/);
    expect(() => world.addAABBs(new Float32Array([0, 0, 0, 1, 1, 1, 2, 0, 0, 1, 1, 1]))).toThrow(/boxes\[1\]: shape\.min is greater than shape\.max/);
    expect(() => world.addAABBs(new Float32Array([0, NaN, 0, 1, 1, 1]))).toThrow(/boxes\[0\]: .*not finite/);
    expect(() => world.addAABBs('boxes')).toThrow(SlabcastError);
    expect(() => world.updateAABBs(1, new Float32Array([0, 0, 0, 1, 1, 1]))).toThrow(/outside the world/);
    expect(() => world.updateSpheres(0, new Float32Array([0, 0, 0, 1]))).toThrow(/another kind/);
    expect(() => world.castRays(new Float32Array([0, 0, 0, 0, -0, 0, Infinity]))).toThrow(/rays\[0\]: ray\.dir is zero/);
    expect(() => world.castRays(new Float32Array([0, 0, 0, 1, 0, 0, NaN]))).toThrow(/ray\.tmax/);
    expect(() => world.castRays(new Float32Array(8))).toThrow(/multiple of 7/);
    expect(() => world.castRays(rays, { t: new Float32Array(0) })).toThrow(/out\.t/);
    expect(world.count).toBe(1);
    const after = world.castRays(rays);
    expect(Array.from(after.t)).toEqual(Array.from(before.t));
    expect(Array.from(after.index)).toEqual([0]);
    world.dispose();
  });

  test('results are copies, or fill the caller\'s arrays', () => {
    const world = sc.createWorld();
    world.addAABBs(new Float32Array([0, 0, 0, 1, 1, 1]));
    const rays = new Float32Array([-1, 0.5, 0.5, 1, 0, 0, Infinity]);
    const a = world.castRays(rays);
    const b = world.castRays(new Float32Array([5, 0.5, 0.5, 1, 0, 0, Infinity]));
    expect(a.index[0]).toBe(0); // not overwritten by the second call
    expect(b.index[0]).toBe(-1);
    expect(a.t.buffer).not.toBe(sc.memory.buffer);
    const out = { t: new Float32Array(4), index: new Int32Array(4), normal: new Float32Array(12) };
    const r = world.castRays(rays, out);
    expect(r.t).toBe(out.t);
    expect(out.t[0]).toBe(1);
    world.dispose();
  });

  test('results held across memory growth stay valid', () => {
    const world = sc.createWorld();
    world.addAABBs(new Float32Array([0, 0, 0, 1, 1, 1]));
    const held = world.castRays(new Float32Array([-1, 0.5, 0.5, 1, 0, 0, Infinity]));
    const size = sc.memory.buffer.byteLength;
    const big = sc.createWorld();
    big.addAABBs(new Float32Array(6 * 200000).map((_, i) => (i % 6 < 3 ? i : i + 1))); // grows memory
    expect(sc.memory.buffer.byteLength).toBeGreaterThan(size);
    expect(held.t[0]).toBe(1);
    expect(held.index[0]).toBe(0);
    const again = world.castRays(new Float32Array([-1, 0.5, 0.5, 1, 0, 0, Infinity]));
    expect(again.t[0]).toBe(1);
    big.dispose();
    world.dispose();
  });

  test('dispose: later calls throw, a second dispose is harmless, many worlds do not leak', () => {
    const world = sc.createWorld();
    world.dispose();
    expect(() => world.castRays(new Float32Array(7))).toThrow(/disposed/);
    expect(() => world.addAABBs(new Float32Array(6))).toThrow(/disposed/);
    expect(() => world.count).toThrow(/disposed/);
    expect(() => world.dispose()).not.toThrow();
    const boxes = new Float32Array([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]);
    for (let i = 0; i < 200; i++) { const w = sc.createWorld(); w.addAABBs(boxes); w.castRays(new Float32Array([-1, 0.5, 0.5, 1, 0, 0, Infinity])); w.dispose(); }
    const size = sc.memory.buffer.byteLength;
    for (let i = 0; i < 3000; i++) { const w = sc.createWorld(); w.addAABBs(boxes); w.castRays(new Float32Array([-1, 0.5, 0.5, 1, 0, 0, Infinity])); w.dispose(); }
    expect(sc.memory.buffer.byteLength).toBe(size);
  });
});

describe('castRayAll: every hit of one ray', () => {
  /** Every shape's single query; hits sorted by t, then index. */
  function bruteAll(shapes, rays, i) {
    const ray = { origin: Array.from(rays.subarray(7 * i, 7 * i + 3)), dir: Array.from(rays.subarray(7 * i + 3, 7 * i + 6)), tmax: rays[7 * i + 6] };
    const hits = [];
    shapes.forEach((s, k) => {
      const h = sc.raycast(ray, s);
      if (h.hit) hits.push({ t: h.t, index: k, normal: h.normal });
    });
    return hits.sort((a, b) => a.t - b.t || a.index - b.index);
  }

  test('equals brute force over the single queries, exactly (dyadic boxes, OBBs, spheres)', () => {
    const rand = rng(4);
    let total = 0;
    for (let round = 0; round < 6; round++) {
      const shapes = makeScene(rand, 30 + Math.floor(rand() * 200), { mixed: round % 2 === 1 });
      const world = sc.createWorld();
      addShapes(world, shapes);
      const rays = makeRays(rand, shapes, 500);
      const problems = [];
      for (let i = 0; i < rays.length / 7 && problems.length < 5; i++) {
        const want = bruteAll(shapes, rays, i);
        const got = world.castRayAll(rays.subarray(7 * i, 7 * i + 7));
        total += want.length;
        const same = got.count === want.length && got.t.length === want.length &&
          want.every((h, k) => got.t[k] === h.t && got.index[k] === h.index && [0, 1, 2].every((a) => got.normal[3 * k + a] === h.normal[a]));
        if (!same) problems.push(`ray ${i}: world ${Array.from(got.index)}, brute ${want.map((h) => h.index)}`);
      }
      expect(problems).toEqual([]);
      world.dispose();
    }
    expect(total).toBeGreaterThan(600);
  });

  test('the caller\'s arrays: filled up to their room, count is the total', () => {
    const world = sc.createWorld();
    // boxes 0, 1, 2 along +x; 3 and 4 coincide (a tie: index order); 5 is off the ray
    world.addAABBs(new Float32Array([6, 0, 0, 7, 1, 1, 2, 0, 0, 3, 1, 1, 4, 0, 0, 5, 1, 1, 8, 0, 0, 9, 1, 1, 8, 0, 0, 9, 1, 1, 0, 5, 0, 1, 6, 1]));
    const ray = [0, 0.5, 0.5, 1, 0, 0, Infinity];
    const all = world.castRayAll(ray);
    expect(all.count).toBe(5);
    expect(Array.from(all.index)).toEqual([1, 2, 0, 3, 4]);
    expect(Array.from(all.t)).toEqual([2, 4, 6, 8, 8]);
    expect(Array.from(all.normal.subarray(0, 3))).toEqual([-1, 0, 0]);
    expect(world.castRayAll([0, 0.5, 0.5, 1, 0, 0, 5]).count).toBe(2); // tmax
    const out = { t: new Float32Array(3), index: new Int32Array(8) };
    const r = world.castRayAll(ray, out);
    expect(r.t).toBe(out.t);
    expect(r.index).toBe(out.index);
    expect(r.count).toBe(5);
    expect(Array.from(out.t)).toEqual([2, 4, 6]);
    expect(Array.from(out.index.subarray(0, 3))).toEqual([1, 2, 0]);
    expect(r.normal.length).toBe(9);
    expect(r.t.buffer).not.toBe(sc.memory.buffer);
    expect(all.t.buffer).not.toBe(sc.memory.buffer);
    // more hits than the first guess of room (16): the call grows its room and casts again
    const many = new Float32Array(6 * 100);
    for (let k = 0; k < 100; k++) many.set([10 + k, 0, 0, 10.5 + k, 1, 1], 6 * k);
    world.addAABBs(many);
    const lots = world.castRayAll(ray);
    expect(lots.count).toBe(105);
    expect(lots.index.length).toBe(105);
    expect(lots.index[104]).toBe(105);
    world.dispose();
  });

  test('invalid input throws SlabcastError naming the field and leaves the world unchanged', () => {
    const world = sc.createWorld();
    world.addAABBs(new Float32Array([0, 0, 0, 1, 1, 1]));
    const good = new Float32Array([-1, 0.5, 0.5, 1, 0, 0, Infinity]);
    const bad = (f, re, field) => {
      let e;
      try { f(); } catch (x) { e = x; }
      expect(e).toBeInstanceOf(SlabcastError);
      expect(e.message).toMatch(re);
      expect(e.field).toBe(field);
    };
    bad(() => world.castRayAll(new Float32Array([0, 0, 0, 0, -0, 0, Infinity])), /^ray: ray\.dir is zero/, 'ray');
    bad(() => world.castRayAll([0, 0, 0, 1, 0, 0, NaN]), /ray\.tmax/, 'ray');
    bad(() => world.castRayAll(new Float32Array(14)), /7 floats/, 'ray');
    bad(() => world.castRayAll(new Float32Array(6)), /multiple of 7/, 'ray');
    bad(() => world.castRayAll('ray'), /Float32Array/, 'ray');
    bad(() => world.castRayAll(good, { t: new Float64Array(2) }), /out\.t must be a Float32Array/, 'out.t');
    bad(() => world.castRayAll(good, { index: new Float32Array(2) }), /out\.index/, 'out.index');
    const shared = new Float32Array(8);
    bad(() => world.castRayAll(good, { t: shared.subarray(0, 4), normal: shared }), /overlap/, 'out.normal');
    expect(world.count).toBe(1);
    const r = world.castRayAll(good);
    expect(r.count).toBe(1);
    expect(r.t[0]).toBe(1);
    world.dispose();
    bad(() => world.castRayAll(good), /disposed/, undefined);
  });
});

describe('near-grazing rays', () => {
  // Regression: the slab test ordered rounded parameters, so a line passing a box's edge by less
  // than their rounding was a hit (t_enter and t_exit rounded to one float). Every case of
  // tests/cases/near-graze.json (expected values from the exact oracle) through a world: the box
  // alone, and among decoys, through the SIMD leaf kernel, brute force, castRayAll and anyHit.
  test('the world agrees with the exact oracle on every near-graze case', () => {
    const doc = JSON.parse(readFileSync(path.join(ROOT, 'tests/cases/near-graze.json'), 'utf8'));
    const problems = [];
    for (const c of doc.cases) {
      const w = sc.createWorld();
      const { min, max } = c.shape;
      w.addAABBs([...min, ...max, min[0] + 1000, min[1], min[2], max[0] + 1000, max[1], max[2], ...min, ...max]);
      const ray = new Float32Array([...c.ray.origin, ...c.ray.dir, Infinity]);
      const r = w.castRays(ray);
      const b = w.castRaysBruteForce(ray);
      const all = w.castRayAll(ray);
      const any = w.anyHit(ray);
      const want = c.expect.hit;
      if ((r.index[0] === 0) !== want || b.index[0] !== r.index[0] || (all.count === 2) !== want || (any[0] === 1) !== want) {
        problems.push(`${c.id}: world ${r.index[0]}, brute ${b.index[0]}, all ${all.count}, any ${any[0]}; exact hit ${want}`);
      }
      w.dispose();
    }
    expect(problems).toEqual([]);
    expect(doc.cases.length).toBeGreaterThan(100);
  });
});

describe('many worlds', () => {
  // Regression: the BVH's 64-byte aligned arrays kept 48 spare bytes, enough for 16-byte aligned
  // blocks only; Emscripten's malloc returns 8-byte aligned ones, so an array could overrun its
  // block by 8 bytes and corrupt the heap. The 35th world of 100k boxes trapped inside malloc
  // ("memory access out of bounds", at 640 MB). Every world must now build and answer, and
  // running out of wasm memory must be a SlabcastError saying so, never a trap.
  test('40 worlds of 100k boxes build and answer; no trap', () => {
    const n = 100000;
    const { boxes } = SCENES.sparse(n, 0, rng(5)); // the benchmark's scene that showed it
    // a ray along +x at the height of box 0's centre, from x - 1e4: it enters box 0 or one in front
    const c0 = [0, 1, 2].map((a) => (boxes[a] + boxes[3 + a]) / 2);
    const ray = new Float32Array([boxes[0] - 1e4, c0[1], c0[2], 1, 0, 0, Infinity]);
    const worlds = [];
    try {
      for (let k = 0; k < 40; k++) {
        const w = sc.createWorld();
        worlds.push(w);
        w.addAABBs(boxes);
        w.commit();
      }
      for (const w of worlds) {
        const r = w.castRays(ray);
        expect(r.index[0]).toBeGreaterThanOrEqual(0);
        expect(r.t[0]).toBeLessThanOrEqual(1e4);
        expect(r.t[0]).toBe(worlds[0].castRays(ray).t[0]);
      }
    } finally {
      for (const w of worlds) w.dispose();
    }
    const again = sc.createWorld();
    again.addAABBs(boxes.subarray(0, 6));
    expect(again.castRays(ray).t[0]).toBe(Math.fround(Math.fround(boxes[0]) - Math.fround(boxes[0] - 1e4)));
    again.dispose();
  }, 60000);

  // Regression: the core's allocator grew wasm memory a page at a time, every growth replaced the
  // ArrayBuffer, and garbage collection over all of them made n worlds cost O(n^2) (100k worlds
  // took 774 s). Growth is now geometric, so the number of growths is logarithmic. The test
  // counts growths (buffer replacements), not time.
  test('20,000 worlds, each with a box and a cast, grow wasm memory O(log n) times; all are right', async () => {
    const fresh = await loadSlabcast(); // a module of its own: the count starts from a fresh memory
    const box = new Float32Array([0, 0, 0, 1, 1, 1]);
    const ray = new Float32Array([-1, 0.5, 0.5, 1, 0, 0, Infinity]); // enters the box at x = 0: t = 1
    const start = fresh.memory.buffer.byteLength;
    let buf = fresh.memory.buffer;
    let grows = 0;
    const worlds = [];
    let right = 0;
    for (let i = 0; i < 20000; i++) {
      const w = fresh.createWorld();
      w.addAABBs(box);
      const r = w.castRays(ray);
      if (r.index[0] === 0 && r.t[0] === 1) right++;
      worlds.push(w);
      if (fresh.memory.buffer !== buf) {
        grows++;
        buf = fresh.memory.buffer;
      }
    }
    expect(right).toBe(20000);
    const end = fresh.memory.buffer.byteLength;
    // growing by a quarter each time: from start to end takes log(end / start) / log(1.25) growths
    const geometric = Math.ceil(Math.log(end / start) / Math.log(1.25)) + 2;
    expect(grows).toBeLessThanOrEqual(geometric);
    for (const w of worlds) w.dispose();
    // disposed worlds give their memory back: as many again fit without growing
    for (let i = 0; i < 20000; i++) {
      const w = fresh.createWorld();
      w.addAABBs(box);
      w.castRays(ray);
      w.dispose();
    }
    expect(fresh.memory.buffer.byteLength).toBe(end);
  });
});
