// A ball against an OBB or a frustum, exactly (src/sc_ball.c): overlapSphere with OBB objects,
// overlapOBB and overlapFrustum with sphere objects, against the rational reference of
// helpers/ball-oracle.mjs, on balls whose radius is the float just below and just above the
// exact distance (so every answer is decided by the last bit), on OBBs whose axes are
// orthonormal only within the allowed 1e-4, and by hand.
import { beforeAll, describe, expect, test } from 'vitest';
import { rng } from '../../web/bench/scenes.mjs';
import { loadSlabcast } from '../../web/slabcast.js';
import { fromDouble, qcmp, qmul, toNumber } from '../oracle/exact.mjs';
import { ballMeets, dist2, obbHalfspaces, planeHalfspaces } from './helpers/ball-oracle.mjs';

let sc;
beforeAll(async () => {
  sc = await loadSlabcast();
});

const f = Math.fround;
const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
/** The next float32 above x >= 0. */
function nextUp(x) {
  if (x === 0) return 1.401298464324817e-45;
  F32[0] = x;
  U32[0] += 1;
  return F32[0];
}
/** The next float32 below x > 0. */
function nextDown(x) {
  F32[0] = x;
  U32[0] -= 1;
  return F32[0];
}
/** The float r with r^2 <= d2 < nextUp(r)^2 (d2 an exact rational). */
function floorRadius(d2) {
  const sq = (r) => qmul(fromDouble(r), fromDouble(r));
  let r = f(Math.sqrt(toNumber(d2)));
  while (r > 0 && qcmp(sq(r), d2) > 0) r = nextDown(r);
  while (qcmp(sq(nextUp(r)), d2) <= 0) r = nextUp(r);
  return r;
}

const norm = (v) => { const l = Math.hypot(...v); return v.map((x) => x / l); };
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** A random OBB: axes orthonormal in double, then rounded to float and, for `tilt`, each nudged
 * by up to 2e-5 (still within the 1e-4 the spec allows, but far from orthonormal in float). */
function randomObb(rand, tilt) {
  const a0 = norm([rand() - 0.5, rand() - 0.5, rand() - 0.5]);
  const a1 = norm(cross(a0, [rand() - 0.5, rand() - 0.5, rand() - 0.5]));
  const a2 = cross(a0, a1);
  const nudge = (v) => v.map((x) => f(x + (tilt ? (rand() - 0.5) * 4e-5 : 0)));
  return {
    center: [rand() * 20 - 10, rand() * 20 - 10, rand() * 20 - 10].map(f),
    axes: [nudge(a0), nudge(a1), nudge(a2)],
    half: [0.2 + rand() * 3, 0.2 + rand() * 3, rand() < 0.15 ? 0 : 0.2 + rand() * 3].map(f),
  };
}
const obbFloats = (o) => [...o.center, ...o.axes.flat(), ...o.half];

/** A centre near the OBB: a corner, an edge or a face pushed out along a random direction. */
function nearPoint(rand, o) {
  const s = [0, 1, 2].map(() => [-1, 1, rand() * 2 - 1][Math.floor(rand() * 3)]);
  const p = [0, 1, 2].map((k) => o.center[k] + o.axes.reduce((acc, a, i) => acc + s[i] * o.half[i] * a[k], 0));
  const d = norm([rand() - 0.5, rand() - 0.5, rand() - 0.5]);
  const t = rand() * 3;
  return p.map((x, k) => f(x + t * d[k]));
}

describe('a ball against an OBB, exactly', () => {
  test('radii one float below and above the exact distance, both ways round', () => {
    const rand = rng(0xBA11);
    const problems = [];
    let cases = 0;
    let meets = 0;
    for (let n = 0; n < 160 && problems.length < 5; n++) {
      const o = randomObb(rand, n % 2 === 1);
      const c = nearPoint(rand, o);
      const hs = obbHalfspaces(o.center, o.axes, o.half);
      const d2 = dist2(hs, c);
      if (d2 === null || qcmp(d2, fromDouble(0)) === 0) continue; // the centre inside: not a boundary case
      const r0 = floorRadius(d2);
      for (const r of [r0, nextUp(r0)]) {
        const want = ballMeets(hs, c, r);
        // the ball as the query volume, the OBB as the object ...
        const w = sc.createWorld();
        w.addOBBs(obbFloats(o));
        const out = new Int32Array(1);
        const a = w.overlapSphere(c, r, out) === 1;
        w.dispose();
        // ... and the OBB as the volume, the ball as the object
        const v = sc.createWorld();
        v.addSpheres([...c, r]);
        const b = v.overlapOBB(obbFloats(o), out) === 1;
        v.dispose();
        cases++;
        if (want) meets++;
        if (a !== want || b !== want) problems.push(`case ${n} (r = ${r}): overlapSphere ${a}, overlapOBB ${b}, exact ${want}`);
      }
    }
    expect(problems).toEqual([]);
    expect(cases).toBeGreaterThan(200);
    // every pair is one float apart: the lower radius misses (unless exactly equal), the upper meets
    expect(meets).toBeGreaterThanOrEqual(cases / 2);
  });

  test('by hand: touching an edge counts, 2^-40 of squared distance beyond it does not', () => {
    // the unit cube about the origin as an OBB; a ball of radius 2 centred at (3, 1 + t, 0):
    // its distance to the edge x = 1, y = 1 is sqrt(4 + t^2)
    const w = sc.createWorld();
    w.addOBBs([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1]);
    const out = new Int32Array(1);
    expect(w.overlapSphere([3, 1, 0], 2, out)).toBe(1); // touches the face x = 1 at (1, 1, 0)
    expect(w.overlapSphere([3, 1 + 2 ** -20, 0], 2, out)).toBe(0); // squared distance 4 + 2^-40
    expect(w.overlapSphere([3, 1 + 2 ** -20, 0], nextUp(2), out)).toBe(1);
    // the corner (1, 1, 1) from (2, 2, 2): distance sqrt(3); no float is sqrt(3), so only
    // the ball that reaches past it meets
    const r = floorRadius(fromDouble(3));
    expect(w.overlapSphere([2, 2, 2], r, out)).toBe(0);
    expect(w.overlapSphere([2, 2, 2], nextUp(r), out)).toBe(1);
    w.dispose();
  });
});

describe('a ball against a frustum, exactly', () => {
  test('radii one float below and above the exact distance', () => {
    const rand = rng(0xF255);
    const problems = [];
    let cases = 0;
    for (let n = 0; n < 120 && problems.length < 5; n++) {
      // a frustum as six float planes: a box with two faces tilted towards each other
      const tilt = 0.2 + rand() * 0.6;
      const planes = [
        1, 0, tilt, 4, -1, 0, tilt, 4, 0, 1, 0, 3, 0, -1, 0, 3, 0, 0, 1, -1, 0, 0, -1, 12,
      ].map((x, i) => f(i % 4 === 3 ? x + rand() : x + (rand() - 0.5) * 0.1));
      const hs = planeHalfspaces(planes);
      const c = [rand() * 24 - 12, rand() * 16 - 8, rand() * 20 - 4].map(f);
      const d2 = dist2(hs, c);
      if (d2 === null || qcmp(d2, fromDouble(0)) === 0) continue;
      const r0 = floorRadius(d2);
      for (const r of [r0, nextUp(r0)]) {
        const want = ballMeets(hs, c, r);
        const w = sc.createWorld();
        w.addSpheres([...c, r]);
        const out = new Int32Array(1);
        const got = w.overlapFrustum(planes, out) === 1;
        w.dispose();
        cases++;
        if (got !== want) problems.push(`frustum ${n} (r = ${r}): ${got}, exact ${want}`);
      }
    }
    expect(problems).toEqual([]);
    expect(cases).toBeGreaterThan(150);
  });

  test('an empty frustum meets nothing; a ball at a vertex of three planes', () => {
    const w = sc.createWorld();
    w.addSpheres([0, 0, 0, 100]);
    const out = new Int32Array(1);
    // x >= 1 and x <= -1: empty
    expect(w.overlapFrustum([1, 0, 0, -1, -1, 0, 0, -1, 0, 1, 0, 10, 0, -1, 0, 10, 0, 0, 1, 10, 0, 0, -1, 10], out)).toBe(0);
    w.dispose();
    // the octant x, y, z >= 1 (three planes, three repeated): its vertex (1, 1, 1) is sqrt(3)
    // from the origin
    const planes = [1, 0, 0, -1, 0, 1, 0, -1, 0, 0, 1, -1, 1, 0, 0, -1, 0, 1, 0, -1, 0, 0, 1, -1];
    const r = floorRadius(fromDouble(3));
    const v = sc.createWorld();
    v.addSpheres([0, 0, 0, r, 0, 0, 0, nextUp(r)]);
    const got = new Int32Array(2);
    expect(v.overlapFrustum(planes, got)).toBe(1);
    expect(got[0]).toBe(1);
    v.dispose();
  });
});
