// closestObjects against distances computed here from the shapes' definitions (a box's nearest
// point clamps each coordinate; a ball's lies along the ray from its centre; an OBB's clamps along
// its axes): the nearest object within maxDistance (ties to the lowest index), its distance, and a
// closest point on it at that distance. Points nearly equidistant from two objects (within 1e-9)
// only need one of them.
import { beforeAll, describe, expect, test } from 'vitest';
import { rng } from '../../web/bench/scenes.mjs';
import { loadSlabcast, SlabcastError } from '../../web/slabcast.js';
import { addShapes, mixedFloatScene } from './helpers/world-scenes.mjs';

let sc;
beforeAll(async () => {
  sc = await loadSlabcast();
});

const f = Math.fround;
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const clamp = (x, lo, hi) => Math.min(Math.max(x, lo), hi);

function distance(o, p) {
  if (o.type === 'aabb') return Math.hypot(...[0, 1, 2].map((k) => p[k] - clamp(p[k], o.min[k], o.max[k])));
  if (o.type === 'sphere') return Math.max(0, Math.hypot(p[0] - o.center[0], p[1] - o.center[1], p[2] - o.center[2]) - o.radius);
  const v = [0, 1, 2].map((k) => p[k] - o.center[k]);
  const q = [...o.center];
  o.axes.forEach((a, i) => { const l = clamp(dot(v, a), -o.half[i], o.half[i]); for (let k = 0; k < 3; k++) q[k] += l * a[k]; });
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}


describe('closestObjects', () => {
  test('random scenes, with and without a distance limit and a mask', () => {
    const rand = rng(0xC105E);
    const objs = mixedFloatScene(rand, 400, 30);
    const w = sc.createWorld();
    addShapes(w, objs);
    const masks = new Uint32Array(objs.length).map(() => 1 << Math.floor(rand() * 2));
    w.setMasks(0, masks);
    const n = 800;
    const pts = new Float32Array(3 * n).map(() => f(rand() * 70 - 35));
    const problems = [];
    let found = 0;
    for (const [maxDistance, mask] of [[Infinity, undefined], [3, undefined], [Infinity, 2]]) {
      const opts = mask === undefined ? undefined : { mask };
      const r = w.closestObjects(pts, maxDistance, null, opts);
      const b = w.closestObjectsBruteForce(pts, maxDistance, null, opts);
      if (b.index.some((v, i) => v !== r.index[i]) || b.distance.some((v, i) => !Object.is(v, r.distance[i]))) problems.push(`BVH and brute force differ (${maxDistance}, ${mask})`);
      for (let i = 0; i < n && problems.length < 5; i++) {
        const p = Array.from(pts.subarray(3 * i, 3 * i + 3));
        const ds = objs.map((o, k) => (mask === undefined || (masks[k] & mask) ? distance(o, p) : Infinity));
        const best = Math.min(...ds);
        const k = r.index[i];
        if (!(best <= maxDistance)) {
          if (k !== -1 || r.distance[i] !== Infinity) problems.push(`point ${i}: ${k} at ${r.distance[i]}, none within ${maxDistance}`);
          continue;
        }
        found++;
        const first = ds.indexOf(best);
        const tol = 1e-6 * (1 + best);
        if (k < 0) { problems.push(`point ${i}: none, reference ${first} at ${best}`); continue; }
        if (Math.abs(ds[k] - best) > tol) problems.push(`point ${i}: ${k} at ${ds[k]}, reference ${first} at ${best}`);
        if (k !== first && Math.abs(ds[first] - ds[k]) > 1e-9 * (1 + best)) problems.push(`point ${i}: ${k}, a tie goes to ${first}`);
        if (Math.abs(r.distance[i] - best) > tol) problems.push(`point ${i}: distance ${r.distance[i]}, reference ${best}`);
        const q = Array.from(r.point.subarray(3 * i, 3 * i + 3));
        if (distance(objs[k], q) > 1e-5 * (1 + best)) problems.push(`point ${i}: closest point ${q} is not on object ${k}`);
        if (Math.abs(Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) - best) > 1e-5 * (1 + best)) problems.push(`point ${i}: closest point ${q} is not at the distance`);
      }
    }
    expect(problems).toEqual([]);
    expect(found).toBeGreaterThan(1500);
    w.dispose();
  });

  test('by hand: inside, ties to the lowest index, exclusions, none within reach', () => {
    const w = sc.createWorld();
    w.addAABBs([0, 0, 0, 1, 1, 1, 3, 0, 0, 4, 1, 1]); // 0, 1
    w.addSpheres([10, 0.5, 0.5, 1]); // 2
    // (2, 0.5, 0.5) is 1 from box 0 and 1 from box 1: the lower index wins
    let r = w.closestObjects([2, 0.5, 0.5], Infinity);
    expect([r.index[0], r.distance[0], ...r.point]).toEqual([0, 1, 1, 0.5, 0.5]);
    r = w.closestObjects([2, 0.5, 0.5], Infinity, null, { exclude: new Int32Array([0]) });
    expect([r.index[0], r.distance[0], ...r.point]).toEqual([1, 1, 3, 0.5, 0.5]);
    // inside box 1: distance 0, the point itself
    r = w.closestObjects([3.5, 0.25, 0.75], Infinity);
    expect([r.index[0], r.distance[0], ...r.point]).toEqual([1, 0, 3.5, 0.25, 0.75]);
    // 3 from the sphere's surface at x = 9, beyond a limit of 2.5
    r = w.closestObjects([6, 0.5, 0.5], 2.5);
    expect([r.index[0], r.distance[0]]).toEqual([1, 2]);
    r = w.closestObjects([7, 0.5, 0.5], 1.5);
    expect([r.index[0], r.distance[0], ...r.point]).toEqual([-1, Infinity, 0, 0, 0]);
    expect(() => w.closestObjects([0, 0, 0], -1)).toThrow(SlabcastError);
    expect(() => w.closestObjects([0, 0], 1)).toThrow(/points must hold 3 floats per item/);
    w.dispose();
  });
});
