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
const clamp = (x, lo, hi) => Math.min(Math.max(x, lo), hi);



/** The OBB's point nearest p (clamped along its axes) and the distance. */
function obbNearest(o, p) {
  const v = [0, 1, 2].map((k) => p[k] - o.center[k]);
  const q = [...o.center];
  for (let a = 0; a < 3; a++) {
    const l = clamp(dot(v, o.axes[a]), -o.half[a], o.half[a]);
    for (let k = 0; k < 3; k++) q[k] += l * o.axes[a][k];
  }
  return q;
}

/** Separation of the moving shape (centre p, sphere radius r or box half e) from object o. */
function separation(o, p, mover) {
  if (!mover.box) {
    let q;
    if (o.type === 'aabb') q = [0, 1, 2].map((k) => clamp(p[k], o.min[k], o.max[k]));
    else if (o.type === 'sphere') return Math.hypot(p[0] - o.center[0], p[1] - o.center[1], p[2] - o.center[2]) - o.radius - mover.r;
    else q = obbNearest(o, p);
    return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) - mover.r;
  }
  const e = mover.e;
  if (o.type === 'aabb') {
    return Math.max(...[0, 1, 2].map((k) => Math.max(o.min[k] - (p[k] + e[k]), (p[k] - e[k]) - o.max[k])));
  }
  if (o.type === 'sphere') {
    const q = [0, 1, 2].map((k) => clamp(o.center[k], p[k] - e[k], p[k] + e[k]));
    return Math.hypot(q[0] - o.center[0], q[1] - o.center[1], q[2] - o.center[2]) - o.radius;
  }
  // box against OBB: the largest normalised gap over the 15 separating axes
  const axes = [[1, 0, 0], [0, 1, 0], [0, 0, 1], ...o.axes];
  for (let i = 0; i < 3; i++) {
    for (const a of o.axes) {
      const ei = [0, 0, 0];
      ei[i] = 1;
      const u = [ei[1] * a[2] - ei[2] * a[1], ei[2] * a[0] - ei[0] * a[2], ei[0] * a[1] - ei[1] * a[0]];
      if (dot(u, u) > 1e-12) axes.push(u);
    }
  }
  let gap = -Infinity;
  for (const u of axes) {
    const len = Math.sqrt(dot(u, u));
    const ra = e[0] * Math.abs(u[0]) + e[1] * Math.abs(u[1]) + e[2] * Math.abs(u[2]);
    const rb = o.axes.reduce((s, a, k) => s + o.half[k] * Math.abs(dot(a, u)), 0);
    const s = Math.abs(dot([p[0] - o.center[0], p[1] - o.center[1], p[2] - o.center[2]], u));
    gap = Math.max(gap, (s - ra - rb) / len);
  }
  return gap;
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

describe('sweeps against an independent computation', () => {
  for (const box of [false, true]) {
    test(`${box ? 'castBoxes' : 'castSpheres'}: random scenes of AABBs, spheres and OBBs`, () => {
      const rand = rng(box ? 0xB0C5 : 0x5F3E);
      const objs = mixedFloatScene(rand, 150);
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
        if (r.t[i] > 0) {
          const n = Array.from(r.normal.subarray(3 * i, 3 * i + 3));
          const p = Array.from(r.point.subarray(3 * i, 3 * i + 3));
          if (Math.abs(Math.hypot(...n) - 1) > 1e-5) problems.push(`mover ${i}: normal ${n} is not unit`);
          // the contact point lies on the object: it is at distance 0 from it (within the tolerance)
          if (Math.abs(separation(objs[k], p, { box: false, r: 0 })) > 1e-4) problems.push(`mover ${i}: point ${p} is not on object ${k}`);
          // the normal points out of the object towards the mover: moving along it separates them
          const c = [0, 1, 2].map((a) => m.o[a] + r.t[i] * m.d[a]);
          const toMover = [0, 1, 2].map((a) => c[a] - p[a]);
          if (dot(n, toMover) < -1e-6) problems.push(`mover ${i}: normal ${n} points away from the mover`);
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
