// World sweeps (castSpheres, castBoxes) against an independent computation: for every object, a
// separation function of t written here from the shapes' definitions (distance from the moving
// sphere's centre to the object minus the radii; the largest gap between the projections of the
// moving box and the object on the separating axes), scanned and bisected in double to find its
// first zero. The world's answer must be the object that touches first (ties to the lowest
// index), at that t (to 1e-6 of the scene's size), with the object's outward normal there and a
// contact point on the object. Hand-made cases check exact values.
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



const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

/**
 * The signed distance from p to the closed solid [lo, hi] of the coordinates l (the Euclidean
 * distance outside, minus the depth inside): for an OBB, l_i = a_i . (p - c) in its own frame
 * (docs/semantics.md, "Sweeps": a sphere meets an OBB in its frame; for r = 0 that is its slabs).
 */
function boxSigned(l, lo, hi) {
  let out = 0;
  let depth = -Infinity;
  for (let k = 0; k < 3; k++) {
    const g = Math.max(lo[k] - l[k], l[k] - hi[k]);
    if (g > 0) out += g * g;
    depth = Math.max(depth, g);
  }
  return out > 0 ? Math.sqrt(out) : depth;
}

/** The OBB's frame coordinates of p. */
const frame = (o, p) => o.axes.map((a) => dot(sub(p, o.center), a));

/**
 * The separating directions of a box (world axes) and an OBB's slab set, with the slab set's reach
 * along each: its faces are normal to a_i, its edges run along f_i = a_j x a_k, and its projection
 * on v reaches sum_i h_i |v . f_i| / |det| (the f_i / det are the columns of the axes' inverse).
 */
function slabAxes(o) {
  const f = [0, 1, 2].map((i) => cross(o.axes[(i + 1) % 3], o.axes[(i + 2) % 3]));
  const det = Math.abs(dot(o.axes[0], f[0]));
  const reach = (v) => f.reduce((s, fi, i) => s + o.half[i] * Math.abs(dot(v, fi)), 0) / det;
  const dirs = [[1, 0, 0], [0, 1, 0], [0, 0, 1], ...o.axes];
  for (const e of [[1, 0, 0], [0, 1, 0], [0, 0, 1]]) for (const fi of f) dirs.push(cross(e, fi));
  return dirs.filter((v) => dot(v, v) > 0).map((v) => ({ v, rb: reach(v), len: Math.sqrt(dot(v, v)) }));
}

/**
 * Separation of the moving shape (centre p, sphere radius r or box half e) from object o: the
 * signed distance between them (negative: minus the penetration depth, the shortest move that parts
 * them). For a box it is the largest gap over the separating directions (equal to that when they
 * overlap, at most the distance when apart). Every one is convex along a straight path.
 */
function separation(o, p, mover) {
  if (!mover.box) {
    if (o.type === 'aabb') return boxSigned(p, o.min, o.max) - mover.r;
    if (o.type === 'sphere') return Math.hypot(...sub(p, o.center)) - o.radius - mover.r;
    return boxSigned(frame(o, p), o.half.map((h) => -h), o.half) - mover.r;
  }
  const e = mover.e;
  if (o.type === 'aabb') {
    return Math.max(...[0, 1, 2].map((k) => Math.max(o.min[k] - (p[k] + e[k]), (p[k] - e[k]) - o.max[k])));
  }
  if (o.type === 'sphere') {
    return boxSigned(o.center, p.map((v, k) => v - e[k]), p.map((v, k) => v + e[k])) - o.radius;
  }
  o.slab ??= slabAxes(o);
  let gap = -Infinity;
  const pc = sub(p, o.center);
  for (const { v, rb, len } of o.slab) {
    const ra = e[0] * Math.abs(v[0]) + e[1] * Math.abs(v[1]) + e[2] * Math.abs(v[2]);
    gap = Math.max(gap, (Math.abs(dot(pc, v)) - ra - rb) / len);
  }
  return gap;
}

/** How far p is outside the object (<= 0 inside): its slabs' largest violation for an OBB. */
function outside(o, p) {
  if (o.type === 'aabb') return boxSigned(p, o.min, o.max);
  if (o.type === 'sphere') return Math.hypot(...sub(p, o.center)) - o.radius;
  return Math.max(...o.axes.map((a, i) => (Math.abs(dot(sub(p, o.center), a)) - o.half[i]) / Math.hypot(...a)));
}

/** How far p is outside the moving shape at centre c (a sphere against an OBB: in its frame). */
function outsideMover(m, c, p, o) {
  if (!m.box) return Math.hypot(...(o.type === 'obb' ? o.axes.map((a) => dot(sub(p, c), a)) : sub(p, c))) - m.r;
  return Math.max(...[0, 1, 2].map((k) => Math.abs(p[k] - c[k]) - m.e[k]));
}

/** The smallest separation over t in [a, b] (convex in t: golden-section search). */
function minSeparation(o, mover, a, b) {
  const at = (t) => separation(o, [0, 1, 2].map((k) => mover.o[k] + t * mover.d[k]), mover);
  const g = (Math.sqrt(5) - 1) / 2;
  let lo = a;
  let hi = b;
  for (let i = 0; i < 80 && hi - lo > 1e-12 * (1 + hi); i++) {
    const x1 = hi - g * (hi - lo);
    const x2 = lo + g * (hi - lo);
    if (at(x1) <= at(x2)) hi = x2;
    else lo = x1;
  }
  return Math.min(at(a), at(b), at((lo + hi) / 2));
}

/**
 * The first t in [0, tmax] where separation <= 0, or Infinity. Every separation above changes by at
 * most |d| per unit of t (a distance, or a gap along a unit axis, from a point moving at speed
 * |d|), so on [a, b] it stays above (sep(a) + sep(b) - |d| (b - a)) / 2: an interval where that
 * bound is positive holds no contact. Intervals are split in time order until one shorter than
 * 1e-9 holds the contact.
 */
function firstContact(o, mover) {
  const at = (t) => separation(o, [0, 1, 2].map((k) => mover.o[k] + t * mover.d[k]), mover);
  const speed = Math.hypot(...mover.d);
  if (at(0) <= 0) return 0;
  const end = Math.min(mover.tmax, 200);
  const stack = [[0, end, at(0), at(end)]];
  while (stack.length) {
    const [a, b, sa, sb] = stack.pop();
    if ((sa + sb - speed * (b - a)) / 2 > 0) continue;
    if (b - a < 1e-9) return sb <= 0 ? b : a;
    const m = (a + b) / 2;
    const sm = at(m);
    stack.push([m, b, sm, sb], [a, m, sa, sm]); // the earlier half first
  }
  return Infinity;
}

function randomMovers(rand, n, box) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const o = [rand() * 50 - 25, rand() * 50 - 25, rand() * 50 - 25].map(f);
    let d = [rand() * 2 - 1, rand() * 2 - 1, rand() * 2 - 1];
    const len = Math.hypot(...d);
    d = d.map((v) => f(v / len));
    const tmax = rand() < 0.3 ? f(5 + rand() * 30) : Infinity;
    if (box) out.push({ box, o, d, tmax, e: [0.1 + rand(), 0.1 + rand(), 0.1 + rand()].map(f) });
    else out.push({ box, o, d, tmax, r: f(0.1 + rand() * 1.5) });
  }
  return out;
}

function flat(movers) {
  return new Float32Array(movers.flatMap((m) => [...m.o, ...m.d, m.tmax, ...(m.box ? m.e : [m.r])]));
}

/**
 * Axes (I + K) R for the rows R of o's axes, K symmetric with entries of 0.45e-4 to 0.49e-4: the
 * Gram matrix (I + K)^2 deviates from I by up to about 1e-4, the most the contract allows. Rounded
 * to float32; kept only when the core accepts them (sc.contains validates the shape).
 */
function skewAxes(rand, o) {
  const K = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  for (let i = 0; i < 3; i++) for (let j = i; j < 3; j++) K[i][j] = K[j][i] = (rand() < 0.5 ? -1 : 1) * (0.45e-4 + 0.04e-4 * rand());
  const axes = [0, 1, 2].map((i) => [0, 1, 2].map((k) => f(o.axes[i][k] + [0, 1, 2].reduce((s, j) => s + K[i][j] * o.axes[j][k], 0))));
  try {
    sc.contains(o.center, { ...o, type: 'obb', axes });
    return axes;
  } catch {
    return o.axes;
  }
}

/** The contract's bound for one answer (docs/semantics.md, "Sweeps"): 1e-6 of the scale s. */
function bound(objs, m, t) {
  let s = 1;
  for (const o of objs) for (const v of [o.min, o.max, o.center, o.half, [o.radius ?? 0]]) if (v) for (const x of v) s = Math.max(s, Math.abs(x));
  for (let k = 0; k < 3; k++) s = Math.max(s, Math.abs(m.o[k]), Math.abs(m.o[k] + t * m.d[k]), m.box ? m.e[k] : m.r);
  return 1e-6 * s;
}

describe('sweeps against an independent computation', () => {
  for (const box of [false, true]) {
    test(`${box ? 'castBoxes' : 'castSpheres'}: random scenes of AABBs, spheres and OBBs (some skewed by up to 1e-4)`, () => {
      const rand = rng(box ? 0xB0C5 : 0x5F3E);
      const objs = mixedFloatScene(rand, 150);
      let skewed = 0;
      for (const o of objs) {
        if (o.type !== 'obb' || rand() < 0.5) continue;
        const axes = skewAxes(rand, o);
        if (axes !== o.axes) { o.axes = axes; skewed++; }
      }
      expect(skewed).toBeGreaterThan(10);
      const w = sc.createWorld();
      addShapes(w, objs);
      const movers = randomMovers(rand, 1500, box);
      const r = box ? w.castBoxes(flat(movers)) : w.castSpheres(flat(movers));
      const brute = box ? w.castBoxesBruteForce(flat(movers)) : w.castSpheresBruteForce(flat(movers));
      const problems = [];
      let hits = 0;
      for (let i = 0; i < movers.length && problems.length < 5; i++) {
        const m = movers[i];
        const times = objs.map((o) => firstContact(o, m));
        const best = Math.min(...times);
        const k = r.index[i];
        if (brute.index[i] !== k || brute.t[i] !== r.t[i]) problems.push(`mover ${i}: BVH ${k} t ${r.t[i]}, brute force ${brute.index[i]} t ${brute.t[i]}`);
        // the contract: no allowed object is penetrated by more than delta before the reported t
        // (or, on a miss, within [0, tmax])
        const tEnd = k >= 0 ? r.t[i] : Math.min(m.tmax, 200);
        const delta = bound(objs, m, tEnd);
        for (let o = 0; o < objs.length; o++) {
          if (!(times[o] < tEnd)) continue; // the reference's first contact comes after: apart before
          const sep = minSeparation(objs[o], m, 0, tEnd);
          if (sep < -delta) problems.push(`mover ${i}: object ${o} is penetrated by ${-sep} before t ${tEnd} (index ${k})`);
        }
        if (best === Infinity) {
          if (k !== -1) problems.push(`mover ${i}: hit ${k} at ${r.t[i]}, the reference finds no contact`);
          continue;
        }
        hits++;
        const tol = 1e-5 * (1 + best);
        if (k < 0) { problems.push(`mover ${i}: no hit, the reference touches ${times.indexOf(best)} at ${best}`); continue; }
        // the object hit touches at that t, and nothing touches before it (beyond the tolerance)
        if (Math.abs(times[k] - r.t[i]) > tol) problems.push(`mover ${i}: object ${k} at ${r.t[i]}, reference ${times[k]}`);
        if (best < r.t[i] - tol) problems.push(`mover ${i}: object ${times.indexOf(best)} touches at ${best}, before ${k} at ${r.t[i]}`);
        // the contact point is within delta of the object and of the moving shape at t
        const c = [0, 1, 2].map((a) => m.o[a] + r.t[i] * m.d[a]);
        const p = Array.from(r.point.subarray(3 * i, 3 * i + 3));
        if (outside(objs[k], p) > delta) problems.push(`mover ${i}: point ${p} is ${outside(objs[k], p)} outside object ${k} (${objs[k].type}, t ${r.t[i]})`);
        if (outsideMover(m, c, p, objs[k]) > delta) problems.push(`mover ${i}: point ${p} is ${outsideMover(m, c, p, objs[k])} from the moving shape (object ${k}: ${objs[k].type}, t ${r.t[i]})`);
        if (r.t[i] > 0) {
          const n = Array.from(r.normal.subarray(3 * i, 3 * i + 3));
          if (Math.abs(Math.hypot(...n) - 1) > 1e-6) problems.push(`mover ${i}: normal ${n} is not unit`);
          // the normal points out of the object towards the mover: moving along it separates them
          if (dot(n, sub(c, p)) < -delta) problems.push(`mover ${i}: normal ${n} points away from the mover`);
        }
      }
      expect(problems).toEqual([]);
      expect(hits).toBeGreaterThan(300);
      w.dispose();
    });
  }

  test('by hand: a sphere along a box edge, a box against a sphere and an OBB, filters', () => {
    const w = sc.createWorld();
    w.addAABBs([0, 0, 0, 1, 1, 1]); // 0
    w.addSpheres([5, 0.5, 0.5, 1]); // 1
    w.addOBBs([10, 0.5, 0.5, 0, 1, 0, -1, 0, 0, 0, 0, 1, 0.5, 0.5, 0.5]); // 2: turned 90 degrees about z
    // a sphere of radius 0.5 at height y = 1.3 passes the edge x = 0, y = 1: touches when
    // (x - 0)^2 + 0.3^2 = 0.5^2, x = -0.4, t = 2.6; normal (-0.8, 0.6, 0), point (0, 1, 0.5)
    const s = w.castSpheres([-3, 1.3, 0.5, 1, 0, 0, Infinity, 0.5]);
    expect(s.index[0]).toBe(0);
    expect(s.t[0]).toBeCloseTo(2.6, 6);
    expect(Array.from(s.normal).map((v) => +v.toFixed(6))).toEqual([-0.8, 0.6, 0]);
    expect(Array.from(s.point)).toEqual([0, 1, 0.5]);
    // a box of half 0.25 from x = 2 reaches the sphere's surface x = 4 when its centre is at 3.75
    const b = w.castBoxes([2, 0.5, 0.5, 1, 0, 0, Infinity, 0.25, 0.25, 0.25]);
    expect([b.index[0], b.t[0]]).toEqual([1, 1.75]);
    expect(Array.from(b.normal)).toEqual([-1, 0, 0]);
    // excluding the sphere: the OBB's face at x = 9.5, the centre at 9.25, t = 2.25
    const x = w.castBoxes([7, 0.5, 0.5, 1, 0, 0, Infinity, 0.25, 0.25, 0.25], null, { exclude: new Int32Array([1]) });
    expect([x.index[0], x.t[0]]).toEqual([2, 2.25]);
    // already touching at the start: t = 0, normal 0; skip ignores it
    const inside = w.castSpheres([0.5, 0.5, 0.5, 1, 0, 0, Infinity, 0.1]);
    expect([inside.index[0], inside.t[0], ...inside.normal]).toEqual([0, 0, 0, 0, 0]);
    expect(w.castSpheres([0.5, 0.5, 0.5, 1, 0, 0, Infinity, 0.1], null, { inside: 'skip' }).index[0]).toBe(1);
    // tmax: too short to reach anything
    expect(w.castSpheres([-3, 0.5, 0.5, 1, 0, 0, 2, 0.5]).index[0]).toBe(-1);
    w.dispose();
  });

  test('bad sweeps get errors naming them', () => {
    const w = sc.createWorld();
    w.addAABBs([0, 0, 0, 1, 1, 1]);
    const bad = (fn, message) => {
      let e;
      try { fn(); } catch (err) { e = err; }
      expect(e).toBeInstanceOf(SlabcastError);
      expect(e.message).toContain(message);
    };
    bad(() => w.castSpheres([0, 0, 0, 1, 0, 0, 1]), 'sweeps must hold 8 floats per item');
    bad(() => w.castBoxes([0, 0, 0, 1, 0, 0, 1, 1, 1]), 'sweeps must hold 10 floats per item');
    bad(() => w.castSpheres([0, 0, 0, 1, 0, 0, 1, 0.5, 0, 0, 0, 0, 0, 0, 1, -1]), 'sweeps[1]: ray.dir is zero');
    bad(() => w.castSpheres([0, 0, 0, 1, 0, 0, 1, -1]), 'sweeps[0]: shape.radius is negative');
    bad(() => w.castBoxes([0, 0, 0, 1, 0, 0, 1, 1, NaN, 1]), 'sweeps[0]: shape.half is not finite');
    w.dispose();
  });
});
