// Capsules in the JS world (issue 24): capsule objects through every query, castCapsules, and
// overlapCapsule, judged by an independent computation written here from the shapes' definitions
// (docs/semantics.md, "Sweeps" and "Overlaps"):
//   - the separation of a capsule from an object is the smallest, over the points p(u) of its
//     segment, of the point's signed distance to the object, minus the radius (golden-section over
//     u: convex); it equals the distance when apart and is at least minus the penetration depth
//     when they overlap (the capsule's depth is at least each of its balls'), so "no separation
//     below -delta" checked on it is implied by the contract's;
//   - first contacts from those separations by the interval bisection of sweeps.test.mjs (every
//     separation changes by at most |d| per unit of t);
//   - overlaps from the same distances with a margin: a pair clearly apart must be missing, a pair
//     clearly overlapping must be listed (the exact cases are checked by hand in
//     tests/native/test_world_capsule.c: touching in, one float step out).
// Rays against capsules are the single queries' own answers, bit for bit.
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
const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const lerp = (a, b, u) => [a[0] + u * (b[0] - a[0]), a[1] + u * (b[1] - a[1]), a[2] + u * (b[2] - a[2])];
const GOLD = (Math.sqrt(5) - 1) / 2;

/** The smallest value of a convex function on [lo, hi] (golden section, and both ends). */
function convexMin(fn, lo, hi, iters = 60) {
  let a = lo;
  let b = hi;
  for (let i = 0; i < iters && b - a > 1e-13 * (1 + Math.abs(b)); i++) {
    const x1 = b - GOLD * (b - a);
    const x2 = a + GOLD * (b - a);
    if (fn(x1) <= fn(x2)) b = x2;
    else a = x1;
  }
  return Math.min(fn(lo), fn(hi), fn((a + b) / 2));
}

/** The distance from p to the segment [a, b]. */
function segDist(p, a, b) {
  const ab = sub(b, a);
  const l = dot(ab, ab);
  const u = l > 0 ? Math.min(1, Math.max(0, dot(sub(p, a), ab) / l)) : 0;
  return Math.hypot(...sub(p, lerp(a, b, u)));
}

/** The signed distance from p to the box [lo, hi] (minus the depth inside). */
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

const frame = (o, p) => o.axes.map((a) => dot(sub(p, o.center), a));

/** The signed distance from point p to object o (an OBB: in its frame, docs/semantics.md "Sweeps"). */
function pointSep(o, p) {
  if (o.type === 'aabb') return boxSigned(p, o.min, o.max);
  if (o.type === 'sphere') return Math.hypot(...sub(p, o.center)) - o.radius;
  if (o.type === 'capsule') return segDist(p, o.a, o.b) - o.radius;
  return boxSigned(frame(o, p), o.half.map((h) => -h), o.half);
}

/** The mover's shape at t: a capsule {a, b, r}, a sphere {c, r} or a box {c, e}. */
function moverAt(m, t) {
  const mv = (p) => [0, 1, 2].map((k) => p[k] + t * m.d[k]);
  if (m.kind === 'capsule') return { a: mv(m.a), b: mv(m.b), r: m.r };
  return { c: mv(m.o), r: m.r, e: m.e };
}

/** Separation of the mover at t from object o (see the header). */
function separation(o, m, t) {
  const s = moverAt(m, t);
  if (m.kind === 'capsule') return convexMin((u) => pointSep(o, lerp(s.a, s.b, u)), 0, 1) - s.r;
  if (m.kind === 'sphere') return pointSep(o, s.c) - s.r; // o is a capsule
  // a box against a capsule object: the capsule's balls against the box
  return convexMin((u) => boxSigned(lerp(o.a, o.b, u), s.c.map((v, k) => v - s.e[k]), s.c.map((v, k) => v + s.e[k])), 0, 1) - o.radius;
}

/** The first t in [0, min(tmax, 200 unit)] with separation <= 0 (unit: the scene's scale), or Infinity. */
function firstContact(o, m, unit = 1) {
  const at = (t) => separation(o, m, t);
  const speed = Math.hypot(...m.d);
  if (at(0) <= 0) return 0;
  const end = Math.min(m.tmax, 200 * unit);
  const stack = [[0, end, at(0), at(end)]];
  while (stack.length) {
    const [a, b, sa, sb] = stack.pop();
    if ((sa + sb - speed * (b - a)) / 2 > 0) continue;
    if (b - a < 1e-9 * Math.max(1, unit)) return sb <= 0 ? b : a;
    const mid = (a + b) / 2;
    const sm = at(mid);
    stack.push([mid, b, sm, sb], [a, mid, sa, sm]);
  }
  return Infinity;
}

const minSeparation = (o, m, a, b) => convexMin((t) => separation(o, m, t), a, b, 50);

/** How far p is outside the moving shape at t (a capsule against an OBB: in the OBB's frame). */
function outsideMover(m, t, p, o) {
  const s = moverAt(m, t);
  if (m.kind === 'capsule') {
    if (o.type === 'obb') return segDist(frame(o, p), frame(o, s.a), frame(o, s.b)) - s.r;
    return segDist(p, s.a, s.b) - s.r;
  }
  if (m.kind === 'sphere') return Math.hypot(...sub(p, s.c)) - s.r;
  return Math.max(...[0, 1, 2].map((k) => Math.abs(p[k] - s.c[k]) - s.e[k]));
}

/** How far p is outside object o (its slabs' largest violation for an OBB). */
function outside(o, p) {
  if (o.type === 'obb') return Math.max(...o.axes.map((a, i) => (Math.abs(dot(sub(p, o.center), a)) - o.half[i]) / Math.hypot(...a)));
  return pointSep(o, p);
}

/** The mover's point nearest p at t (the normal must point from the contact towards it). */
function moverCore(m, t, p) {
  const s = moverAt(m, t);
  if (m.kind !== 'capsule') return s.c;
  const ab = sub(s.b, s.a);
  const l = dot(ab, ab);
  return lerp(s.a, s.b, l > 0 ? Math.min(1, Math.max(0, dot(sub(p, s.a), ab) / l)) : 0);
}

function randomCapsules(rand, n, half = 20) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const a = [0, 1, 2].map(() => f(rand() * 2 * half - half));
    const k = rand();
    const b = k < 0.15 ? a.slice() : a.map((v) => f(v + rand() * 6 - 3)); // some balls (a == b)
    out.push({ type: 'capsule', a, b, radius: f(rand() < 0.1 ? 0 : 0.1 + rand() * 1.5) });
  }
  return out;
}

function addAll(w, objs) {
  for (const o of objs) {
    if (o.type === 'capsule') w.addCapsules(new Float32Array([...o.a, ...o.b, o.radius]));
    else addShapes(w, [o]);
  }
}

function randomMovers(rand, n, kind) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const o = [rand() * 50 - 25, rand() * 50 - 25, rand() * 50 - 25].map(f);
    let d = [rand() * 2 - 1, rand() * 2 - 1, rand() * 2 - 1];
    const len = Math.hypot(...d);
    d = d.map((v) => f(v / len));
    const tmax = rand() < 0.3 ? f(5 + rand() * 30) : Infinity;
    if (kind === 'capsule') {
      const b = rand() < 0.1 ? o.slice() : o.map((v) => f(v + rand() * 4 - 2));
      out.push({ kind, a: o, b, o, d, tmax, r: f(rand() < 0.1 ? 0 : 0.1 + rand()) });
    } else if (kind === 'box') {
      out.push({ kind, o, d, tmax, e: [0.1 + rand(), 0.1 + rand(), 0.1 + rand()].map(f) });
    } else {
      out.push({ kind, o, d, tmax, r: f(0.1 + rand() * 1.5) });
    }
  }
  return out;
}

const flat = (movers) => new Float32Array(movers.flatMap((m) => (m.kind === 'capsule' ? [...m.a, ...m.b, ...m.d, m.tmax, m.r]
  : [...m.o, ...m.d, m.tmax, ...(m.kind === 'box' ? m.e : [m.r])])));

/** The contract's bound (docs/semantics.md, "Sweeps"): 1e-6 of the scale. */
function bound(objs, m, t) {
  let s = 1;
  for (const o of objs) for (const v of [o.min, o.max, o.center, o.half, o.a, o.b, [o.radius ?? 0]]) if (v) for (const x of v) s = Math.max(s, Math.abs(x));
  const pts = m.kind === 'capsule' ? [m.a, m.b] : [m.o];
  for (const p of pts) for (let k = 0; k < 3; k++) s = Math.max(s, Math.abs(p[k]), Math.abs(p[k] + t * m.d[k]));
  s = Math.max(s, m.r ?? 0, ...(m.e ?? []));
  return 1e-6 * s;
}

const CAST = { capsule: 'castCapsules', sphere: 'castSpheres', box: 'castBoxes' };

/** The contract's checks of one batch of sweeps; returns [problems, hits]. */
function judge(w, objs, movers, kind, considered, unit = 1) {
  const m0 = flat(movers);
  const r = w[CAST[kind]](m0);
  const brute = w[`${CAST[kind]}BruteForce`](m0);
  const problems = [];
  let hits = 0;
  for (let i = 0; i < movers.length && problems.length < 5; i++) {
    const m = movers[i];
    const times = objs.map((o) => (considered(o) ? firstContact(o, m, unit) : Infinity));
    const best = Math.min(...times);
    const k = r.index[i];
    for (const key of ['t', 'index']) if (brute[key][i] !== r[key][i]) problems.push(`mover ${i}: BVH ${key} ${r[key][i]}, brute force ${brute[key][i]}`);
    for (const key of ['normal', 'point']) {
      for (let a = 0; a < 3; a++) if (!Object.is(brute[key][3 * i + a], r[key][3 * i + a])) problems.push(`mover ${i}: BVH ${key} differs from the brute force`);
    }
    if (k >= 0 && !considered(objs[k])) { problems.push(`mover ${i}: hit ${k}, an object this check leaves out`); continue; }
    const tEnd = k >= 0 ? r.t[i] : Math.min(m.tmax, 200 * unit);
    const delta = bound(objs, m, tEnd);
    for (let o = 0; o < objs.length; o++) {
      if (!(times[o] < tEnd)) continue;
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
    if (Math.abs(times[k] - r.t[i]) > tol) problems.push(`mover ${i}: object ${k} (${objs[k].type}) at ${r.t[i]}, reference ${times[k]}`);
    if (best < r.t[i] - tol) problems.push(`mover ${i}: object ${times.indexOf(best)} touches at ${best}, before ${k} at ${r.t[i]}`);
    const p = Array.from(r.point.subarray(3 * i, 3 * i + 3));
    if (outside(objs[k], p) > delta) problems.push(`mover ${i}: point ${p} is ${outside(objs[k], p)} outside object ${k} (${objs[k].type}, t ${r.t[i]})`);
    if (outsideMover(m, r.t[i], p, objs[k]) > 2 * delta) problems.push(`mover ${i}: point ${p} is ${outsideMover(m, r.t[i], p, objs[k])} from the moving shape (object ${k}: ${objs[k].type}, t ${r.t[i]})`);
    if (r.t[i] > 0) {
      const n = Array.from(r.normal.subarray(3 * i, 3 * i + 3));
      if (Math.abs(Math.hypot(...n) - 1) > 1e-6) problems.push(`mover ${i}: normal ${n} is not unit`);
      if (dot(n, sub(moverCore(m, r.t[i], p), p)) < -delta) problems.push(`mover ${i}: normal ${n} points away from the mover (object ${k}: ${objs[k].type})`);
    }
  }
  return [problems, hits];
}

describe('capsule sweeps against an independent computation', () => {
  test('castCapsules: random scenes of AABBs, spheres, OBBs and capsules', () => {
    const rand = rng(0xCA75);
    const objs = [...mixedFloatScene(rand, 90), ...randomCapsules(rand, 40)];
    const w = sc.createWorld();
    addAll(w, objs);
    const [problems, hits] = judge(w, objs, randomMovers(rand, 400, 'capsule'), 'capsule', () => true);
    expect(problems).toEqual([]);
    expect(hits).toBeGreaterThan(80);
    w.dispose();
  });

  test('castCapsules: upright capsules (b - a along x, y or z: the stretched-box path against boxes)', () => {
    const rand = rng(0x0B81);
    const objs = [...mixedFloatScene(rand, 90), ...randomCapsules(rand, 40)];
    const w = sc.createWorld();
    addAll(w, objs);
    const movers = randomMovers(rand, 400, 'capsule').map((m, i) => {
      const b = m.a.slice();
      b[i % 3] = f(b[i % 3] + rand() * 6 - 3);
      return { ...m, b };
    });
    const [problems, hits] = judge(w, objs, movers, 'capsule', () => true);
    expect(problems).toEqual([]);
    expect(hits).toBeGreaterThan(80);
    w.dispose();
  });

  /** The scene and movers scaled by `unit` (rounded to float32; OBB axes and directions kept). */
  function scaled(objs, movers, unit) {
    const sv = (v) => v && v.map((x) => f(x * unit));
    const so = objs.map((o) => ({ ...o, min: sv(o.min), max: sv(o.max), center: sv(o.center), half: sv(o.half), a: sv(o.a), b: sv(o.b), radius: o.radius === undefined ? undefined : f(o.radius * unit) }));
    const sm = movers.map((m) => ({ ...m, a: sv(m.a), b: sv(m.b), o: sv(m.o), e: sv(m.e), r: m.r === undefined ? undefined : f(m.r * unit), tmax: f(m.tmax * unit) }));
    return [so, sm];
  }

  for (const unit of [1e-6, 1e6, 1e20, 2 ** 90]) {
    test(`castCapsules on the scene scaled by ${unit} (${unit >= 2 ** 80 ? 'every object beyond 2^80: the far list' : 'in the BVH'})`, () => {
      const rand = rng(0x5CA1E);
      const [objs, movers] = scaled([...mixedFloatScene(rand, 60), ...randomCapsules(rand, 30)], randomMovers(rand, 150, 'capsule'), unit);
      const w = sc.createWorld();
      addAll(w, objs);
      const [problems, hits] = judge(w, objs, movers, 'capsule', () => true, unit);
      expect(problems).toEqual([]);
      expect(hits).toBeGreaterThan(25);
      w.dispose();
    });
  }

  for (const kind of ['sphere', 'box']) {
    test(`${CAST[kind]} against capsule objects`, () => {
      const rand = rng(kind === 'box' ? 0xB0CA : 0x5CA9);
      const objs = randomCapsules(rand, 150);
      const w = sc.createWorld();
      addAll(w, objs);
      const [problems, hits] = judge(w, objs, randomMovers(rand, 400, kind), kind, (o) => o.type === 'capsule');
      expect(problems).toEqual([]);
      expect(hits).toBeGreaterThan(80);
      w.dispose();
    });
  }

  test('by hand: onto a box face, across an edge, against a capsule; filters; bad sweeps', () => {
    const w = sc.createWorld();
    w.addAABBs([0, 0, 0, 1, 1, 1]); // 0
    w.addCapsules([20, 0, 0.5, 20, 1, 0.5, 0.5]); // 1: along y at x = 20
    // a vertical capsule (z 0.2 to 0.8, r 0.25) along +x from x = -2: its side meets x = 0 at t = 1.75
    const r = w.castCapsules([-2, 0.5, 0.2, -2, 0.5, 0.8, 1, 0, 0, Infinity, 0.25]);
    expect([r.index[0], r.t[0], ...r.normal, r.point[0]]).toEqual([0, 1.75, -1, 0, 0, 0]);
    // a capsule along z at x = 18 (r 0.5) against capsule 1: the axes 1 apart at x = 19, t = 1;
    // the normal -x, the point on capsule 1's surface x = 19.5
    const c = w.castCapsules([18, 0.5, -1, 18, 0.5, 2, 1, 0, 0, Infinity, 0.5]);
    expect([c.index[0], c.t[0], ...c.normal, c.point[0]]).toEqual([1, 1, -1, 0, 0, 19.5]);
    // a sphere (r 1) and a box (half 0.5) from x = 17 against capsule 1: t = 1.5 and 2
    expect([w.castSpheres([17, 0.5, 0.5, 1, 0, 0, Infinity, 1]).t[0], w.castBoxes([17, 0.5, 0.5, 1, 0, 0, Infinity, 0.5, 0.5, 0.5]).t[0]]).toEqual([1.5, 2]);
    // already crossing the box: t = 0, normal 0; skip ignores it; exclude skips capsule 1
    const s = [-1, 0.5, 0.5, 2, 0.5, 0.5, 1, 0, 0, Infinity, 0];
    expect([w.castCapsules(s).index[0], w.castCapsules(s).t[0], ...w.castCapsules(s).normal]).toEqual([0, 0, 0, 0, 0]);
    expect(w.castCapsules(s, null, { inside: 'skip' }).index[0]).toBe(1);
    expect(w.castCapsules([18, 0.5, -1, 18, 0.5, 2, 1, 0, 0, Infinity, 0.5], null, { exclude: new Int32Array([1]) }).index[0]).toBe(-1);
    const bad = (fn, message) => {
      let e;
      try { fn(); } catch (err) { e = err; }
      expect(e).toBeInstanceOf(SlabcastError);
      expect(e.message).toContain(message);
    };
    bad(() => w.castCapsules([0, 0, 0, 1, 0, 0, 1, 0, 0, 1]), 'sweeps must hold 11 floats per item');
    bad(() => w.castCapsules([...s, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0.5]), 'sweeps[1]: ray.dir is zero');
    bad(() => w.castCapsules([0, 0, 0, 1, 0, 0, 1, 0, 0, 1, -0.5]), 'sweeps[0]: capsule.radius is negative');
    bad(() => w.castCapsules([0, 0, 0, 1, 0, 0, 1, 0, 0, 1, NaN]), 'sweeps[0]: capsule.radius is not finite');
    bad(() => w.castCapsulesBruteForce([0, NaN, 0, 1, 0, 0, 1, 0, 0, 1, 1]), 'sweeps[0]: capsule.a is not finite');
    bad(() => w.castCapsules([0, 0, 0, 1, Infinity, 0, 1, 0, 0, 1, 1]), 'sweeps[0]: capsule.b is not finite');
    bad(() => w.castCapsules([0, 0, 0, 1, 0, 0, 1, 0, 0, -1, 1]), 'sweeps[0]: ray.tmax');
    w.dispose();
  });
});

describe('capsule overlaps against an independent computation', () => {
  /** The reference distance between a capsule (a, b, r) and object o, minus the radii. */
  const capsuleSep = (a, b, r, o) => convexMin((u) => pointSep(o, lerp(a, b, u)), 0, 1) - r;

  test('overlapCapsule and capsule objects under overlapAABB / overlapSphere / overlapOBB', () => {
    const rand = rng(0x0CA9);
    const objs = [...mixedFloatScene(rand, 120), ...randomCapsules(rand, 80)];
    const w = sc.createWorld();
    addAll(w, objs);
    const out = new Int32Array(objs.length);
    const problems = [];
    let decided = 0;
    let listed = 0;
    const check = (what, total, sepOf, margin) => {
      const got = new Set(out.subarray(0, total));
      for (let o = 0; o < objs.length; o++) {
        const sep = sepOf(objs[o]);
        if (sep === null) continue;
        if (sep < -margin && !got.has(o)) problems.push(`${what}: object ${o} (${objs[o].type}) is ${-sep} deep but not listed`);
        if (sep > margin && got.has(o)) problems.push(`${what}: object ${o} (${objs[o].type}) is ${sep} away but listed`);
        if (Math.abs(sep) > margin) decided++;
      }
      listed += total;
    };
    for (let q = 0; q < 150 && problems.length < 5; q++) {
      const a = [0, 1, 2].map(() => f(rand() * 44 - 22));
      const b = rand() < 0.1 ? a.slice() : a.map((v) => f(v + rand() * 10 - 5));
      const r = f(rand() * 3);
      const total = w.overlapCapsule(a, b, r, out);
      const bruteOut = new Int32Array(objs.length);
      const bt = w.overlapBruteForce('capsule', [...a, ...b, r], bruteOut);
      if (bt !== total || bruteOut.subarray(0, bt).some((v, i) => v !== out[i])) problems.push(`capsule ${q}: BVH and brute force differ`);
      // OBBs orthonormal within 1e-7: frame and world distances agree within 1e-7 of the scene
      check(`capsule ${q}`, total, (o) => capsuleSep(a, b, r, o), 1e-5);
      // capsule objects found by the other volumes
      const c = [0, 1, 2].map(() => f(rand() * 44 - 22));
      const h = [0, 1, 2].map(() => f(rand() * 4));
      const tb = w.overlapAABB(c.map((v, k) => v - h[k]), c.map((v, k) => v + h[k]), out);
      check(`box ${q}`, tb, (o) => (o.type === 'capsule' ? convexMin((u) => boxSigned(lerp(o.a, o.b, u), c.map((v, k) => f(v - h[k])), c.map((v, k) => f(v + h[k]))), 0, 1) - o.radius : null), 1e-9);
      const ts = w.overlapSphere(c, h[0], out);
      check(`sphere ${q}`, ts, (o) => (o.type === 'capsule' ? segDist(c, o.a, o.b) - o.radius - h[0] : null), 1e-9);
      const ang = rand() * Math.PI;
      const obb = { type: 'obb', center: c, axes: [[Math.cos(ang), Math.sin(ang), 0], [-Math.sin(ang), Math.cos(ang), 0], [0, 0, 1]].map((v) => v.map(f)), half: h.map((v) => f(v + 0.1)) };
      const to = w.overlapOBB([...obb.center, ...obb.axes.flat(), ...obb.half], out);
      check(`obb ${q}`, to, (o) => (o.type === 'capsule' ? convexMin((u) => pointSep(obb, lerp(o.a, o.b, u)), 0, 1) - o.radius : null), 1e-5);
    }
    expect(problems).toEqual([]);
    expect(decided).toBeGreaterThan(20000);
    expect(listed).toBeGreaterThan(200);
    w.dispose();
  });

  for (const unit of [2 ** -100, 1e-6, 1e20, 2 ** 90]) {
    test(`overlapCapsule on AABBs, spheres and capsules scaled by ${unit}`, () => {
      const rand = rng(0x5CA2);
      const sv = (v) => v.map((x) => f(x * unit));
      const objs = [...mixedFloatScene(rand, 90).filter((o) => o.type !== 'obb'), ...randomCapsules(rand, 50)]
        .map((o) => ({ ...o, min: o.min && sv(o.min), max: o.max && sv(o.max), center: o.center && sv(o.center), a: o.a && sv(o.a), b: o.b && sv(o.b), radius: o.radius === undefined ? undefined : f(o.radius * unit) }));
      const w = sc.createWorld();
      addAll(w, objs);
      const out = new Int32Array(objs.length);
      const problems = [];
      let decided = 0;
      for (let q = 0; q < 100 && problems.length < 5; q++) {
        const a = sv([0, 1, 2].map(() => rand() * 44 - 22));
        const b = rand() < 0.1 ? a.slice() : sv(a.map((v) => v / unit + rand() * 10 - 5));
        const r = f(rand() * 3 * unit);
        const total = w.overlapCapsule(a, b, r, out);
        const got = new Set(out.subarray(0, total));
        const margin = 1e-9 * 25 * unit;
        for (let o = 0; o < objs.length; o++) {
          const sep = capsuleSep(a, b, r, objs[o]);
          if (sep < -margin && !got.has(o)) problems.push(`capsule ${q}: object ${o} (${objs[o].type}) is ${-sep} deep but not listed`);
          if (sep > margin && got.has(o)) problems.push(`capsule ${q}: object ${o} (${objs[o].type}) is ${sep} away but listed`);
          if (Math.abs(sep) > margin) decided++;
        }
      }
      expect(problems).toEqual([]);
      expect(decided).toBeGreaterThan(8000);
      w.dispose();
    });
  }

  test('capsule objects under overlapFrustum: clearly outside never listed, crossing always listed', () => {
    const rand = rng(0xF5C);
    const objs = randomCapsules(rand, 300);
    const w = sc.createWorld();
    addAll(w, objs);
    const out = new Int32Array(objs.length);
    const problems = [];
    let inside = 0;
    let outsideN = 0;
    for (let q = 0; q < 60; q++) {
      // a frustum of a camera at c looking along a random direction: side planes through c
      const c = [0, 1, 2].map(() => f(rand() * 30 - 15));
      const planes = [];
      const look = [rand() - 0.5, rand() - 0.5, rand() - 0.5];
      const L = Math.hypot(...look);
      const z = look.map((v) => v / L);
      const x0 = Math.abs(z[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
      const x = sub(x0, z.map((v) => v * dot(x0, z)));
      const xl = Math.hypot(...x);
      const xu = x.map((v) => v / xl);
      const yu = [z[1] * xu[2] - z[2] * xu[1], z[2] * xu[0] - z[0] * xu[2], z[0] * xu[1] - z[1] * xu[0]];
      const k = 0.3 + rand();
      for (const [u, s] of [[xu, 1], [xu, -1], [yu, 1], [yu, -1]]) {
        const n = [0, 1, 2].map((i) => f(z[i] * k - s * u[i])); // inside: n . (p - c) >= 0
        planes.push(...n, f(-dot(n, c)));
      }
      const near = 1 + rand() * 2;
      const far = near + 10 + rand() * 20;
      planes.push(...z.map(f), f(-dot(z, c) - near), ...z.map((v) => f(-v)), f(dot(z, c) + far));
      const total = w.overlapFrustum(planes, out);
      const bruteOut = new Int32Array(objs.length);
      const bt = w.overlapBruteForce('frustum', planes, bruteOut);
      if (bt !== total || bruteOut.subarray(0, bt).some((v, i) => v !== out[i])) problems.push(`frustum ${q}: BVH and brute force differ`);
      const got = new Set(out.subarray(0, total));
      // g(p): the largest violation over the planes, a lower bound of p's distance outside (equal
      // inside: minus the depth)
      const g = (p) => Math.max(...[0, 1, 2, 3, 4, 5].map((i) => -(dot(planes.slice(4 * i, 4 * i + 3), p) + planes[4 * i + 3]) / Math.hypot(...planes.slice(4 * i, 4 * i + 3))));
      for (let o = 0; o < objs.length; o++) {
        const ob = objs[o];
        const sep = convexMin((u) => g(lerp(ob.a, ob.b, u)), 0, 1);
        if (sep - ob.radius > 1e-5 && got.has(o)) problems.push(`frustum ${q}: capsule ${o} is ${sep - ob.radius} outside but listed`);
        if (sep < -1e-5 && !got.has(o)) problems.push(`frustum ${q}: capsule ${o}'s segment is ${-sep} inside but not listed`);
        if (sep < -1e-5) inside++;
        if (sep - ob.radius > 1e-5) outsideN++;
      }
    }
    expect(problems).toEqual([]);
    expect(inside).toBeGreaterThan(100);
    expect(outsideN).toBeGreaterThan(5000);
    w.dispose();
  });
});

describe('capsule objects in the world', () => {
  test('rays: the single query sc.raycast on each capsule, bit for bit, every inside rule', () => {
    const rand = rng(0xCAFE);
    const objs = randomCapsules(rand, 120, 10);
    const w = sc.createWorld();
    addAll(w, objs);
    const n = 1500;
    const rays = new Float32Array(7 * n);
    for (let i = 0; i < n; i++) {
      const o = objs[Math.floor(rand() * objs.length)];
      const start = rand() < 0.3 ? lerp(o.a, o.b, rand()) : [0, 1, 2].map(() => rand() * 24 - 12); // some inside
      const d = [rand() - 0.5, rand() - 0.5, rand() - 0.5];
      rays.set([...start, ...d, rand() < 0.3 ? 3 + rand() * 10 : Infinity].map(f), 7 * i);
    }
    let hits = 0;
    for (const inside of ['solid', 'skip', 'exit']) {
      const r = w.castRays(rays, null, { inside });
      const b = w.castRaysBruteForce(rays, null, { inside });
      for (let i = 0; i < n; i++) {
        const ray = { origin: Array.from(rays.subarray(7 * i, 7 * i + 3)), dir: Array.from(rays.subarray(7 * i + 3, 7 * i + 6)), tmax: rays[7 * i + 6] };
        let best = { index: -1, t: 0 };
        objs.forEach((o, k) => {
          const h = sc.raycast(ray, { type: 'capsule', a: o.a, b: o.b, radius: o.radius });
          if (!h.hit) return;
          let t = h.t;
          if (h.t_enter < 0 && inside !== 'solid') {
            if (inside === 'skip' || !(h.t_exit <= ray.tmax)) return;
            t = h.t_exit;
          }
          if (best.index < 0 || t < best.t) best = { index: k, t };
        });
        expect([r.index[i], b.index[i]]).toEqual([best.index, best.index]);
        if (best.index >= 0) {
          hits++;
          expect(r.t[i]).toBe(Math.fround(best.t) + 0);
          expect(b.t[i]).toBe(r.t[i]);
        }
      }
    }
    expect(hits).toBeGreaterThan(1000);
    w.dispose();
  });

  test('storage: kindOf, errors naming the capsule, update, remove, nearest objects', () => {
    const w = sc.createWorld();
    expect(w.addCapsules(new Float32Array([0, 0, 0, 2, 0, 0, 0.5, 5, 5, 5, 5, 5, 5, 1]))).toBe(0);
    w.addAABBs([10, 10, 10, 11, 11, 11]);
    expect([w.kindOf(0), w.kindOf(1), w.kindOf(2)]).toEqual(['capsule', 'capsule', 'aabb']);
    const thrown = (fn) => { try { fn(); } catch (e) { return e; } return null; };
    const e = thrown(() => w.addCapsules([0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, NaN]));
    expect(e).toBeInstanceOf(SlabcastError);
    expect(e.message).toBe('capsules[1]: capsule.radius is not finite');
    expect(thrown(() => w.addCapsules([0, 0, 0, 1, 1, 1, -1])).message).toBe('capsules[0]: capsule.radius is negative');
    expect(thrown(() => w.addCapsules([0, 0, 0, 1, 1, 1])).message).toMatch(/^capsules must hold 7 floats per item/);
    expect(thrown(() => w.updateCapsules(2, [0, 0, 0, 1, 1, 1, 1])).message).toMatch(/^capsules\[0\]: /);
    expect(w.count).toBe(3);
    // the nearest object to (1, 2, 0): capsule 0 (axis along x, r 0.5): distance 1.5, point (1, 0.5, 0)
    const near = w.closestObjects([1, 2, 0], Infinity);
    expect([near.index[0], near.distance[0], ...near.point]).toEqual([0, 1.5, 1, 0.5, 0]);
    expect(w.closestObjectsBruteForce([1, 2, 0], Infinity).index[0]).toBe(0);
    // moved: the capsule now along y at x = 1; the point (1, 2, 0) is on its axis: distance 0
    w.updateCapsules(0, [1, -1, 0, 1, 3, 0, 0.5]);
    expect(w.closestObjects([1, 2, 0], Infinity).distance[0]).toBe(0);
    expect(w.castRays([1, 10, 0, 0, -1, 0, Infinity]).index[0]).toBe(0);
    w.remove(0);
    expect(w.kindOf(0)).toBe('removed');
    expect(w.castRays([1, 10, 0, 0, -1, 0, Infinity]).index[0]).toBe(-1);
    expect(w.overlapCapsule([1, -1, 0], [1, 3, 0], 0.5, new Int32Array(3))).toBe(0);
    expect(w.overlapCapsule([5, 5, 3], [5, 5, 7], 0, new Int32Array(3))).toBe(1);
    // masks and the option checks of overlapCapsule
    w.setMasks(1, new Uint32Array([2]));
    expect(w.overlapCapsule([5, 5, 3], [5, 5, 7], 0, null, { mask: 1 })).toBe(0);
    expect(thrown(() => w.overlapCapsule([5, 5], [5, 5, 7], 0, null)).message).toBe('a must be an array of 3 numbers');
    expect(thrown(() => w.overlapCapsule([5, 5, 5], [5, 5, 7], '1', null)).message).toBe('radius must be a number');
    expect(thrown(() => w.overlapCapsule([5, 5, 5], [5, 5, 7], -1, null)).message).toBe('capsule: capsule.radius is negative');
    expect(thrown(() => w.overlapCapsule([5, 5, 5], [5, NaN, 7], 1, null)).message).toBe('capsule: capsule.b is not finite');
    expect(thrown(() => w.overlapBruteForce('capsule', [0, 0, 0, 1, 1, 1], null)).message).toMatch(/^capsule must hold 7 floats per item/);
    expect(thrown(() => w.overlapCapsule([5, 5, 5], [5, 5, 7], 1, null, { mask: 1, exlude: 3 })).message).toMatch(/^options\.exlude is not an option/);
    w.dispose();
  });
});
