// World overlaps (overlapAABB, overlapSphere, overlapOBB, overlapFrustum) against references
// written here: exact rational arithmetic (tests/oracle/exact.mjs) for AABB and sphere volumes
// against AABB and sphere objects (those pairs are exact); the separating axis theorem (15 axes)
// for pairs of boxes with an OBB, the box's point nearest a sphere's centre for spheres, and for
// frusta the separating axis theorem over the frustum's own corners (unprojected from the
// camera's inverse projection, not from its planes). Pairs within 1e-9 of touching are left to the
// exact hand-made cases. Results: ascending indices, all of them, total as the return value.
import * as THREE from 'three';
import { beforeAll, describe, expect, test } from 'vitest';
import { rng } from '../../web/bench/scenes.mjs';
import { loadSlabcast, SlabcastError } from '../../web/slabcast.js';
import { addShapes, mixedFloatScene } from './helpers/world-scenes.mjs';
import { fromDouble, qadd, qcmp, qmul, qsub, Q0 } from '../oracle/exact.mjs';

let sc;
beforeAll(async () => {
  sc = await loadSlabcast();
});

const f = Math.fround;
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const clamp = (x, lo, hi) => Math.min(Math.max(x, lo), hi);



// ---- exact references (rationals) for AABB and sphere pairs
const Qv = (v) => v.map(fromDouble);
function exactSphereBox(c, r, min, max) {
  let s = Q0;
  for (let k = 0; k < 3; k++) {
    const x = fromDouble(c[k]);
    const q = fromDouble(clamp(c[k], min[k], max[k]));
    const d = qsub(x, q);
    s = qadd(s, qmul(d, d));
  }
  const R = fromDouble(r);
  return qcmp(s, qmul(R, R)) <= 0;
}
function exactSphereSphere(c1, r1, c2, r2) {
  const a = Qv(c1);
  const b = Qv(c2);
  let s = Q0;
  for (let k = 0; k < 3; k++) { const d = qsub(a[k], b[k]); s = qadd(s, qmul(d, d)); }
  const R = qadd(fromDouble(r1), fromDouble(r2));
  return qcmp(s, qmul(R, R)) <= 0;
}

// ---- box-like shapes as (centre, axes, half) and the separating axis test
const asBox = (o) => (o.type === 'aabb'
  ? { c: [0, 1, 2].map((k) => (o.min[k] + o.max[k]) / 2), axes: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], h: [0, 1, 2].map((k) => (o.max[k] - o.min[k]) / 2) }
  : { c: o.center, axes: o.axes, h: o.half });
/** The largest normalised gap between the two boxes' projections (> 0: apart, < 0: overlapping). */
function boxGap(A, B) {
  const axes = [...A.axes, ...B.axes];
  for (const a of A.axes) for (const b of B.axes) { const u = cross(a, b); if (dot(u, u) > 1e-12) axes.push(u); }
  let gap = -Infinity;
  const d = [0, 1, 2].map((k) => B.c[k] - A.c[k]);
  for (const u of axes) {
    const len = Math.sqrt(dot(u, u));
    const ra = A.axes.reduce((s, a, k) => s + A.h[k] * Math.abs(dot(a, u)), 0);
    const rb = B.axes.reduce((s, b, k) => s + B.h[k] * Math.abs(dot(b, u)), 0);
    gap = Math.max(gap, (Math.abs(dot(d, u)) - ra - rb) / len);
  }
  return gap;
}
/** Distance from p to a box minus r (the box's point nearest p: clamped along its axes). */
function sphereBoxGap(p, r, B) {
  const v = [0, 1, 2].map((k) => p[k] - B.c[k]);
  const q = [...B.c];
  B.axes.forEach((a, i) => { const l = clamp(dot(v, a), -B.h[i], B.h[i]); for (let k = 0; k < 3; k++) q[k] += l * a[k]; });
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) - r;
}

/** The reference for one object: true, false, or null when within 1e-9 of touching. */
function reference(vol, o) {
  const near = (g) => (Math.abs(g) < 1e-9 ? null : g <= 0);
  if (vol.type === 'aabb' && o.type === 'aabb') {
    return [0, 1, 2].every((k) => o.max[k] >= vol.min[k] && o.min[k] <= vol.max[k]);
  }
  if (vol.type === 'aabb' && o.type === 'sphere') return exactSphereBox(o.center, o.radius, vol.min, vol.max);
  if (vol.type === 'sphere' && o.type === 'aabb') return exactSphereBox(vol.center, vol.radius, o.min, o.max);
  if (vol.type === 'sphere' && o.type === 'sphere') return exactSphereSphere(vol.center, vol.radius, o.center, o.radius);
  if (vol.type === 'sphere') return near(sphereBoxGap(vol.center, vol.radius, asBox(o)));
  if (o.type === 'sphere') return near(sphereBoxGap(o.center, o.radius, asBox(vol)));
  return near(boxGap(asBox(vol), asBox(o)));
}

function randomVolume(rand) {
  const c = [rand() * 40 - 20, rand() * 40 - 20, rand() * 40 - 20].map(f);
  const k = Math.floor(rand() * 3);
  const s = 1 + rand() * 8;
  if (k === 0) {
    const h = [rand() * s, rand() * s, rand() * s];
    return { type: 'aabb', min: c.map((v, a) => f(v - h[a])), max: c.map((v, a) => f(v + h[a])) };
  }
  if (k === 1) return { type: 'sphere', center: c, radius: f(rand() * s) };
  const ang = rand() * Math.PI;
  const axes = [[1, 0, 0], [0, Math.cos(ang), Math.sin(ang)], [0, -Math.sin(ang), Math.cos(ang)]].map((v) => v.map(f));
  return { type: 'obb', center: c, axes, half: [rand() * s, rand() * s, rand() * s].map(f) };
}

function query(w, vol, out) {
  if (vol.type === 'aabb') return w.overlapAABB(vol.min, vol.max, out);
  if (vol.type === 'sphere') return w.overlapSphere(vol.center, vol.radius, out);
  return w.overlapOBB([...vol.center, ...vol.axes.flat(), ...vol.half], out);
}

describe('overlaps against independent references', () => {
  test('AABB, sphere and OBB volumes on random scenes', () => {
    const rand = rng(0x0E1A);
    const objs = mixedFloatScene(rand, 300);
    const w = sc.createWorld();
    addShapes(w, objs);
    const out = new Int32Array(objs.length);
    const problems = [];
    let found = 0;
    for (let qn = 0; qn < 300 && problems.length < 5; qn++) {
      const vol = randomVolume(rand);
      const total = query(w, vol, out);
      const got = new Set(out.subarray(0, total));
      for (let i = 1; i < total; i++) if (out[i - 1] >= out[i]) problems.push(`query ${qn}: not ascending`);
      objs.forEach((o, i) => {
        const want = reference(vol, o);
        if (want !== null && want !== got.has(i)) problems.push(`query ${qn} (${vol.type}) object ${i} (${o.type}): ${got.has(i)}, reference ${want}`);
      });
      found += total;
      const brute = new Int32Array(objs.length);
      const kind = vol.type;
      const floats = kind === 'aabb' ? [...vol.min, ...vol.max] : kind === 'sphere' ? [...vol.center, vol.radius] : [...vol.center, ...vol.axes.flat(), ...vol.half];
      const bt = w.overlapBruteForce(kind, floats, brute);
      if (bt !== total || brute.subarray(0, bt).some((v, i) => v !== out[i])) problems.push(`query ${qn}: BVH and brute force differ`);
    }
    expect(problems).toEqual([]);
    expect(found).toBeGreaterThan(300);
    w.dispose();
  });

  test('frusta of perspective cameras against AABBs and OBBs', () => {
    const rand = rng(0xF2);
    const objs = mixedFloatScene(rand, 300);
    const w = sc.createWorld();
    addShapes(w, objs);
    const out = new Int32Array(objs.length);
    const problems = [];
    let found = 0;
    for (let k = 0; k < 40 && problems.length < 5; k++) {
      const cam = new THREE.PerspectiveCamera(30 + rand() * 60, 0.5 + rand() * 1.5, 0.5 + rand(), 10 + rand() * 30);
      cam.position.set(rand() * 40 - 20, rand() * 40 - 20, rand() * 40 - 20);
      cam.lookAt(rand() * 20 - 10, rand() * 20 - 10, rand() * 20 - 10);
      cam.updateMatrixWorld();
      const m = new THREE.Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse);
      const frustum = new THREE.Frustum().setFromProjectionMatrix(m);
      const planes = frustum.planes.flatMap((p) => [p.normal.x, p.normal.y, p.normal.z, p.constant]);
      const total = w.overlapFrustum(planes, out);
      const got = new Set(out.subarray(0, total));
      found += total;
      // the frustum's corners from the inverse projection, and its edges
      const inv = new THREE.Matrix4().copy(m).invert();
      const corners = [];
      for (const z of [-1, 1]) for (const y of [-1, 1]) for (const x of [-1, 1]) corners.push(new THREE.Vector3(x, y, z).applyMatrix4(inv).toArray());
      const edges = [[0, 1], [2, 3], [0, 2], [1, 3], [0, 4], [1, 5], [2, 6], [3, 7]].map(([a, b]) => [0, 1, 2].map((i) => corners[b][i] - corners[a][i]));
      const faces = frustum.planes.map((p) => p.normal.toArray());
      objs.forEach((o, i) => {
        if (o.type === 'sphere') {
          // only the clear cases: the centre inside every plane, or farther than r outside one
          const s = frustum.planes.map((p) => p.normal.x * o.center[0] + p.normal.y * o.center[1] + p.normal.z * o.center[2] + p.constant);
          if (s.every((v) => v >= 1e-9) && !got.has(i)) problems.push(`frustum ${k}: sphere ${i} with its centre inside is missing`);
          if (s.some((v) => v < -o.radius - 1e-9) && got.has(i)) problems.push(`frustum ${k}: sphere ${i} wholly outside a plane is listed`);
          return;
        }
        const B = asBox(o);
        const axes = [...faces, ...B.axes];
        for (const e of edges) for (const a of B.axes) { const u = cross(e, a); if (dot(u, u) > 1e-12) axes.push(u); }
        let gap = -Infinity;
        for (const u of axes) {
          const len = Math.sqrt(dot(u, u));
          const pf = corners.map((c) => dot(c, u));
          const cb = dot(B.c, u);
          const rb = B.axes.reduce((s, a, j) => s + B.h[j] * Math.abs(dot(a, u)), 0);
          gap = Math.max(gap, Math.max(Math.min(...pf) - (cb + rb), (cb - rb) - Math.max(...pf)) / len);
        }
        if (Math.abs(gap) > 1e-7 && (gap <= 0) !== got.has(i)) problems.push(`frustum ${k}: object ${i} (${o.type}) ${got.has(i)}, separating-axis gap ${gap}`);
      });
    }
    expect(problems).toEqual([]);
    expect(found).toBeGreaterThan(100);
    w.dispose();
  });

  test('by hand: touching counts, exactly; out gets what fits; filters', () => {
    const w = sc.createWorld();
    w.addAABBs([0, 0, 0, 1, 1, 1, 3, 0, 0, 4, 1, 1]); // 0, 1
    w.addSpheres([10, 0, 0, 1]); // 2
    w.addOBBs([20, 0, 0, 0, 1, 0, -1, 0, 0, 0, 0, 1, 1, 2, 1]); // 3: turned: its half 2 along x
    const out = new Int32Array(8);
    // [1, 3] x [0, 1]^2 touches box 0 at x = 1 and box 1 at x = 3
    expect(w.overlapAABB([1, 0, 0], [3, 1, 1], out)).toBe(2);
    expect(Array.from(out.subarray(0, 2))).toEqual([0, 1]);
    // a ball at (7, 0.5, 0.5) of radius 3 touches box 1's face x = 4, and overlaps the sphere at
    // (10, 0, 0) (centres sqrt(9.5) < 3 + 1 apart)
    expect(w.overlapSphere([7, 0.5, 0.5], 3, out)).toBe(2);
    expect(Array.from(out.subarray(0, 2))).toEqual([1, 2]);
    // at (7, 0, 0) with radius 2 it stops 1 short of box 1 and touches the sphere: 3 = 2 + 1 apart
    expect(w.overlapSphere([7, 0, 0], 2, out)).toBe(1);
    expect(out[0]).toBe(2);
    // the turned OBB spans x in [18, 22]: a box ending at x = 18 touches it
    expect(w.overlapAABB([17, -1, -1], [18, 1, 1], out)).toBe(1);
    expect(out[0]).toBe(3);
    // everything; out of length 2 gets the two smallest indices, the count is all of them
    const small = new Int32Array(2);
    expect(w.overlapAABB([-100, -100, -100], [100, 100, 100], small)).toBe(4);
    expect(Array.from(small)).toEqual([0, 1]);
    // mask and exclude
    w.setMasks(0, new Uint32Array([1, 2, 2, 1]));
    expect(w.overlapAABB([-100, -100, -100], [100, 100, 100], out, { mask: 2, exclude: new Int32Array([1]) })).toBe(1);
    expect(out[0]).toBe(2);
    // a frustum: the box [-1, 5] x [-1, 2] x [-1, 2] as six planes n.x + d >= 0
    const planes = [1, 0, 0, 1, -1, 0, 0, 5, 0, 1, 0, 1, 0, -1, 0, 2, 0, 0, 1, 1, 0, 0, -1, 2];
    expect(w.overlapFrustum(planes, out)).toBe(2);
    expect(Array.from(out.subarray(0, 2))).toEqual([0, 1]);
    w.dispose();
  });

  test('exactly touching polytopes count; one float step apart they do not', () => {
    const w = sc.createWorld();
    // an OBB turned by 2^-20: its face x + 2^-20 y = 1 (half 1 along that axis) meets the box
    // [1 + 2^-20, 2] x [-1, 0] x [-1, 1] only at the box's edge x = 1 + 2^-20, y = -1
    const e = 2 ** -20;
    w.addOBBs([0, 0, 0, 1, e, 0, -e, 1, 0, 0, 0, 1, 1, 2, 1]);
    const out = new Int32Array(2);
    expect(w.overlapAABB([1 + e, -1, -1], [2, 0, 1], out)).toBe(1);
    const next = new Float32Array([1 + e]);
    new Uint32Array(next.buffer)[0] += 1; // the next float up
    expect(w.overlapAABB([next[0], -1, -1], [2, 0, 1], out)).toBe(0);
    // the same pair as a box volume against an OBB volume: the box as an OBB object
    const v = sc.createWorld();
    v.addAABBs([1 + e, -1, -1, 2, 0, 1]);
    expect(v.overlapOBB([0, 0, 0, 1, e, 0, -e, 1, 0, 0, 0, 1, 1, 2, 1], out)).toBe(1);
    // a frustum whose slanted plane 0.6 y + 0.8 z >= 0 passes through the box's edge y = z = 0
    const planes = [1, 0, 0, 5, -1, 0, 0, 5, 0, 1, 0, 5, 0, -1, 0, 5, 0, 0.6, 0.8, 0, 0, 0, -1, 5];
    const box = sc.createWorld();
    box.addAABBs([0, -1, -1, 1, 0, 0]);
    expect(box.overlapFrustum(planes, out)).toBe(1);
    box.updateAABBs(0, [0, -1, -1, 1, -(2 ** -40), 0]); // a hair below the plane
    expect(box.overlapFrustum(planes, out)).toBe(0);
    w.dispose();
    v.dispose();
    box.dispose();
  });

  test('bad volumes get errors naming them', () => {
    const w = sc.createWorld();
    w.addAABBs([0, 0, 0, 1, 1, 1]);
    const bad = (fn, message) => {
      let e;
      try { fn(); } catch (err) { e = err; }
      expect(e).toBeInstanceOf(SlabcastError);
      expect(e.message).toContain(message);
    };
    bad(() => w.overlapAABB([0, 0], [1, 1, 1], new Int32Array(1)), 'min must be an array of 3 numbers');
    bad(() => w.overlapAABB([2, 0, 0], [1, 1, 1], new Int32Array(1)), 'shape.min is greater than shape.max');
    bad(() => w.overlapSphere([0, 0, 0], -1, new Int32Array(1)), 'shape.radius is negative');
    bad(() => w.overlapSphere([0, 0, 0], '1', new Int32Array(1)), 'radius must be a number');
    bad(() => w.overlapOBB(new Float32Array(14), new Int32Array(1)), 'obb must hold 15 floats per item');
    bad(() => w.overlapFrustum(new Float32Array(24), new Int32Array(1)), 'shape.normal is zero');
    bad(() => w.overlapAABB([0, 0, 0], [1, 1, 1], [0]), 'out must be a Int32Array');
    w.dispose();
  });
});
