// World filters through the JS API (docs/semantics.md, "Filters"): masks, per-ray exclusions,
// the inside rules solid / skip / exit, removal, enabled flags. Expected answers come from a
// model written here from those rules over the single queries (sc.raycast on each allowed
// object: nearest t, ties to the lowest index; under exit an object whose t_enter < 0 reports
// t_exit when t_exit <= tmax), and exit normals are checked against the shape's geometry.
import { beforeAll, describe, expect, test } from 'vitest';
import { rng } from '../../web/bench/scenes.mjs';
import { loadSlabcast, SlabcastError } from '../../web/slabcast.js';
import { addShapes, makeRays, makeScene } from './helpers/world-scenes.mjs';

let sc;
beforeAll(async () => {
  sc = await loadSlabcast();
});

/** The model: which objects exist, are enabled, and their masks. */
function makeModel(n) {
  return { present: new Array(n).fill(true), enabled: new Array(n).fill(true), mask: new Array(n).fill(0xFFFFFFFF) };
}

function rayOf(rays, i) {
  return { origin: Array.from(rays.subarray(7 * i, 7 * i + 3)), dir: Array.from(rays.subarray(7 * i + 3, 7 * i + 6)), tmax: rays[7 * i + 6] };
}

/** Nearest allowed hit of ray i under the filter (mask, exclude, inside), from the rules. */
function expected(shapes, model, rays, i, { mask = 0xFFFFFFFF, exclude = null, inside = 'solid' }) {
  const ray = rayOf(rays, i);
  let best = null;
  shapes.forEach((s, k) => {
    if (!model.present[k] || !model.enabled[k] || ((model.mask[k] & mask) >>> 0) === 0) return;
    if (exclude !== null && exclude[i] === k) return;
    const h = sc.raycast(ray, s);
    if (!h.hit) return;
    let t = h.t;
    let exit = false;
    if (h.t_enter < 0 && inside === 'skip') return;
    if (h.t_enter < 0 && inside === 'exit') {
      if (!(h.t_exit <= ray.tmax)) return;
      t = h.t_exit;
      exit = true;
    }
    if (best === null || t < best.t) best = { t, index: k, normal: h.normal, exit };
  });
  return best;
}

/** Whether n is the outward unit normal of a face of shape s containing point q (1e-4). */
function exitNormalOk(s, q, n) {
  if (Math.abs(Math.hypot(...n) - 1) > 1e-4) return false;
  if (s.type === 'sphere') return [0, 1, 2].every((k) => Math.abs((q[k] - s.center[k]) / s.radius - n[k]) <= 1e-3);
  const axes = s.type === 'obb' ? s.axes : [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  const c = s.type === 'obb' ? s.center : [0, 1, 2].map((k) => (s.min[k] + s.max[k]) / 2);
  const h = s.type === 'obb' ? s.half : [0, 1, 2].map((k) => (s.max[k] - s.min[k]) / 2);
  for (let a = 0; a < 3; a++) {
    const dn = axes[a][0] * n[0] + axes[a][1] * n[1] + axes[a][2] * n[2];
    if (Math.abs(Math.abs(dn) - 1) > 1e-4) continue;
    const l = [0, 1, 2].reduce((acc, k) => acc + (q[k] - c[k]) * axes[a][k], 0);
    const want = dn > 0 ? h[a] : -h[a];
    return Math.abs(l - want) <= 1e-4 * (1 + Math.abs(want));
  }
  return false;
}

function check(shapes, model, world, rays, options, stats) {
  const n = rays.length / 7;
  const res = world.castRays(rays, undefined, options);
  const brute = world.castRaysBruteForce(rays, undefined, options);
  const any = world.anyHit(rays, undefined, options);
  const problems = [];
  for (let i = 0; i < n && problems.length < 5; i++) {
    const b = expected(shapes, model, rays, i, options);
    const idx = res.index[i];
    const normal = Array.from(res.normal.subarray(3 * i, 3 * i + 3));
    let ok = b === null ? idx === -1 && any[i] === 0 : idx === b.index && res.t[i] === b.t && any[i] === 1;
    ok &&= brute.index[i] === idx && Object.is(brute.t[i], res.t[i]);
    if (ok && b !== null && !b.exit) ok = normal.every((v, k) => v === b.normal[k]);
    if (ok && b !== null && b.exit) {
      stats.exits++;
      const r = rayOf(rays, i);
      const q = [0, 1, 2].map((k) => r.origin[k] + b.t * r.dir[k]);
      ok = exitNormalOk(shapes[b.index], q, normal);
    }
    if (b !== null) stats.hits++;
    if (!ok) problems.push(`ray ${i} (${Array.from(rays.subarray(7 * i, 7 * i + 7)).join(',')}) ${JSON.stringify(options.inside ?? 'solid')}: world ${idx} t ${res.t[i]} n ${normal}, want ${b ? `${b.index} t ${b.t}` : 'miss'}`);
  }
  // castRayAll's first hit is the nearest allowed one
  for (let i = 0; i < n; i += 37) {
    const one = { ...options, exclude: options.exclude ? options.exclude.subarray(i, i + 1) : undefined };
    const all = world.castRayAll(rays.subarray(7 * i, 7 * i + 7), undefined, one);
    const b = expected(shapes, model, rays, i, options);
    if ((all.count === 0) !== (b === null) || (b !== null && (all.index[0] !== b.index || all.t[0] !== b.t))) {
      problems.push(`castRayAll ray ${i}: first ${all.count ? all.index[0] : -1}, want ${b ? b.index : -1}`);
    }
  }
  return problems;
}

describe('world filters, removal and enabled flags', () => {
  test('random scenes: masks, exclusions, every inside rule, removal and enabled flags', () => {
    const rand = rng(14);
    const stats = { hits: 0, exits: 0 };
    for (let round = 0; round < 4; round++) {
      const shapes = makeScene(rand, 60 + Math.floor(rand() * 200), { mixed: true });
      const model = makeModel(shapes.length);
      const world = sc.createWorld();
      addShapes(world, shapes);
      const masks = new Uint32Array(shapes.length).map(() => (rand() < 0.05 ? 0 : 1 << Math.floor(rand() * 3)));
      const flags = new Uint8Array(shapes.length).map(() => (rand() < 0.2 ? 0 : 1 + Math.floor(rand() * 200)));
      world.setMasks(0, masks);
      world.setEnabled(0, flags);
      masks.forEach((m, k) => { model.mask[k] = m; model.enabled[k] = flags[k] !== 0; });
      for (let k = round; k < shapes.length; k += 13) {
        world.remove(k);
        model.present[k] = false;
        expect(world.kindOf(k)).toBe('removed');
      }
      const rays = makeRays(rand, shapes, 300);
      const exclude = new Int32Array(300).map(() => (rand() < 0.3 ? Math.floor(rand() * shapes.length) : -1));
      for (const inside of ['solid', 'skip', 'exit']) {
        for (const mask of [0xFFFFFFFF, 1, 6, ~1]) {
          expect(check(shapes, model, world, rays, { mask, exclude, inside }, stats)).toEqual([]);
        }
      }
      // no options at all: every present, enabled object
      expect(check(shapes, model, world, rays, {}, stats)).toEqual([]);
      world.dispose();
    }
    expect(stats.hits).toBeGreaterThan(2000);
    expect(stats.exits).toBeGreaterThan(50);
  });

  test('removal never renumbers; one add reuses the freed slot; re-enabled objects hit again', () => {
    const world = sc.createWorld();
    world.addAABBs(new Float32Array([0, 0, 0, 1, 1, 1, 2, 0, 0, 3, 1, 1, 4, 0, 0, 5, 1, 1]));
    const ray = new Float32Array([-1, 0.5, 0.5, 1, 0, 0, Infinity]);
    expect(world.castRays(ray).index[0]).toBe(0);
    world.remove(0);
    // the ray enters [2,3] at x = 2: t = 3 from x = -1
    expect([world.castRays(ray).index[0], world.castRays(ray).t[0]]).toEqual([1, 3]);
    world.setEnabled(1, new Uint8Array([0]));
    expect([world.castRays(ray).index[0], world.castRays(ray).t[0]]).toEqual([2, 5]);
    world.setEnabled(1, new Uint8Array([1]));
    expect(world.castRays(ray).index[0]).toBe(1);
    expect(world.count).toBe(3);
    expect(world.addAABBs(new Float32Array([-0.5, 0, 0, 0.5, 1, 1]))).toBe(0); // the freed slot
    expect([world.castRays(ray).index[0], world.castRays(ray).t[0]]).toEqual([0, 0.5]);
    expect(world.kindOf(0)).toBe('aabb');
    expect(world.kindOf(3)).toBeUndefined();
    world.dispose();
  });

  test('the exit rule by hand: a box, a sphere and an OBB around the origin', () => {
    const world = sc.createWorld();
    world.addAABBs(new Float32Array([-1, -1, -1, 2, 1, 1])); // 0: leaves through x = 2
    world.addSpheres(new Float32Array([0, 0, 0, 3])); // 1: leaves at x = 3
    // 2: an OBB turned 90 degrees about z, half (1, 4, 1): along world x its extent is 4
    world.addOBBs(new Float32Array([0, 0, 0, 0, 1, 0, -1, 0, 0, 0, 0, 1, 1, 4, 1]));
    const ray = new Float32Array([0, 0, 0, 1, 0, 0, Infinity]);
    const exit = world.castRayAll(ray, undefined, { inside: 'exit' });
    expect(Array.from(exit.index)).toEqual([0, 1, 2]);
    expect(Array.from(exit.t)).toEqual([2, 3, 4]);
    expect(Array.from(exit.normal)).toEqual([1, 0, 0, 1, 0, 0, 1, 0, 0]);
    // tmax 2.5: the box's exit (2) is within reach, the others' are not
    const short = world.castRays(new Float32Array([0, 0, 0, 1, 0, 0, 2.5]), undefined, { inside: 'exit' });
    expect([short.index[0], short.t[0]]).toEqual([0, 2]);
    const tooShort = world.castRays(new Float32Array([0, 0, 0, 1, 0, 0, 1.5]), undefined, { inside: 'exit' });
    expect(tooShort.index[0]).toBe(-1);
    expect(world.castRays(ray, undefined, { inside: 'skip' }).index[0]).toBe(-1);
    expect(Array.from(world.castRays(ray).t)).toEqual([0]);
    world.dispose();
  });

  test('bad options and arguments get errors naming them; nothing changes', () => {
    const world = sc.createWorld();
    world.addAABBs(new Float32Array([0, 0, 0, 1, 1, 1]));
    const rays = new Float32Array([-1, 0.5, 0.5, 1, 0, 0, Infinity]);
    const bad = (f, message) => {
      let e;
      try { f(); } catch (err) { e = err; }
      expect(e).toBeInstanceOf(SlabcastError);
      expect(e.message).toContain(message);
    };
    bad(() => world.castRays(rays, undefined, 'skip'), 'options must be an object');
    bad(() => world.castRays(rays, undefined, { inside: 'out' }), "options.inside must be 'solid', 'skip' or 'exit'");
    bad(() => world.castRays(rays, undefined, { mask: 1.5 }), 'options.mask must be a 32-bit integer');
    bad(() => world.castRays(rays, undefined, { mask: 2 ** 32 }), 'options.mask must be a 32-bit integer');
    bad(() => world.castRays(rays, undefined, { exclude: [0] }), 'options.exclude must be an Int32Array');
    bad(() => world.castRays(rays, undefined, { exclude: new Int32Array(0) }), 'options.exclude must hold at least 1 items');
    bad(() => world.castRays(rays, undefined, { exclude: new Int32Array([1]) }), 'options.exclude[0] is 1: not -1 or an object index');
    bad(() => world.castRays(rays, undefined, { exclude: new Int32Array([-2]) }), 'options.exclude[0] is -2');
    bad(() => world.remove(-1), 'index must be an integer');
    bad(() => world.remove(1), 'index');
    bad(() => world.setEnabled(0, [1]), 'flags must be a Uint8Array');
    bad(() => world.setMasks(0, new Int32Array(1)), 'masks must be a Uint32Array');
    bad(() => world.setMasks(1, new Uint32Array(1)), 'masks');
    world.remove(0);
    bad(() => world.remove(0), 'removed');
    expect(world.castRays(rays).index[0]).toBe(-1);
    world.dispose();
  });

  test('worlds support `using` (Symbol.dispose)', () => {
    const world = sc.createWorld();
    expect(typeof Symbol.dispose === 'symbol' ? typeof world[Symbol.dispose] : 'function').toBe('function');
    if (typeof Symbol.dispose === 'symbol') {
      world[Symbol.dispose]();
      expect(world.disposed).toBe(true);
    }
  });
});
