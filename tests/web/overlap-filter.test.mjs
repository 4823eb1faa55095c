// The overlap queries' quick filter (src/sc_overlap.c, sc_o_quick: a conservative accept/reject
// in double with an error margin before the exact polytope test) must never change an answer.
// The reference: overlapBruteForce, which tests every object WITHOUT the filter (the exact path
// alone), on random scenes of dyadic boxes and OBBs against frusta, OBBs and boxes whose planes
// have small integer normals, so that many objects touch a plane exactly or miss it by one
// float step. And two hand cases whose answers are derived here, each built to catch one
// mutation of the filter's margin (see the comments).
import * as THREE from 'three';
import { beforeAll, describe, expect, test } from 'vitest';
import { rng } from '../../web/bench/scenes.mjs';
import { loadSlabcast } from '../../web/slabcast.js';
import { addShapes, makeScene } from './helpers/world-scenes.mjs';

let sc;
beforeAll(async () => {
  sc = await loadSlabcast();
});

const f = Math.fround;
/** The float next to x towards +inf (up) or -inf. */
function step(x, up) {
  const a = new Float32Array([x]);
  const u = new Uint32Array(a.buffer);
  if (x === 0) { u[0] = 1; return up ? a[0] : -a[0]; }
  u[0] += (x > 0) === up ? 1 : -1;
  return a[0];
}

/** Six planes (nx, ny, nz, d: inside where n.x + d >= 0) with small integer normals. */
function intPlanes(rand) {
  const p = [];
  for (let k = 0; k < 6; k++) {
    const n = [0, 1, 2].map(() => Math.floor(rand() * 7) - 3);
    if (n.every((v) => v === 0)) n[k % 3] = k & 1 ? -1 : 1;
    p.push(...n, Math.floor(rand() * 41) - 10);
  }
  return p;
}

/** A box scene: makeScene's dyadic shapes, some nudged by one float step. */
function scene(rand, n) {
  return makeScene(rand, n, { mixed: true }).map((s) => {
    if (s.type !== 'aabb' || rand() < 0.5) return s;
    const a = Math.floor(rand() * 3);
    const min = [...s.min];
    const max = [...s.max];
    if (rand() < 0.5) min[a] = step(min[a], rand() < 0.5);
    else max[a] = step(max[a], rand() < 0.5);
    return min[a] <= max[a] ? { type: 'aabb', min, max } : s;
  });
}

function same(w, kind, floats, query, n, where) {
  const a = new Int32Array(n);
  const b = new Int32Array(n);
  const na = query(a);
  const nb = w.overlapBruteForce(kind, floats, b);
  const ok = na === nb && a.subarray(0, na).every((v, i) => v === b[i]);
  return ok ? [] : [`${where}: ${kind} query ${Array.from(a.subarray(0, na))} vs brute force ${Array.from(b.subarray(0, nb))}`];
}

describe('the overlap filter never changes an answer', () => {
  test('random frusta, OBBs and boxes against the unfiltered brute force', () => {
    const rand = rng(0xF117);
    const problems = [];
    let found = 0;
    for (let s = 0; s < 5 && problems.length < 5; s++) {
      const objs = scene(rand, 250);
      const w = sc.createWorld();
      addShapes(w, objs);
      const n = objs.length;
      for (let q = 0; q < 24; q++) {
        // integer planes: exact touching and one-step misses
        const pl = intPlanes(rand);
        problems.push(...same(w, 'frustum', pl, (o) => w.overlapFrustum(pl, o), n, `scene ${s} frustum ${q}`));
        found += w.overlapFrustum(pl, new Int32Array(n));
        // a camera's frustum (generic float planes)
        const cam = new THREE.PerspectiveCamera(30 + rand() * 60, 0.5 + rand() * 1.5, 0.1 + rand(), 5 + rand() * 30);
        cam.position.set(rand() * 30 - 15, rand() * 30 - 15, rand() * 30 - 15);
        cam.lookAt(rand() * 10 - 5, rand() * 10 - 5, rand() * 10 - 5);
        cam.updateMatrixWorld();
        const m = new THREE.Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse);
        const cp = new THREE.Frustum().setFromProjectionMatrix(m).planes.flatMap((p) => [p.normal.x, p.normal.y, p.normal.z, p.constant]);
        problems.push(...same(w, 'frustum', cp, (o) => w.overlapFrustum(cp, o), n, `scene ${s} camera ${q}`));
        // an OBB volume (dyadic, sometimes turned by 45 degrees) and a box volume
        const r = f(Math.SQRT1_2);
        const axes = rand() < 0.5 ? [1, 0, 0, 0, 1, 0, 0, 0, 1] : [r, r, 0, -r, r, 0, 0, 0, 1];
        const c = [0, 1, 2].map(() => Math.floor(rand() * 40 - 20) / 2);
        const ob = [...c, ...axes, ...[0, 1, 2].map(() => Math.floor(rand() * 12) / 2)];
        problems.push(...same(w, 'obb', ob, (o) => w.overlapOBB(ob, o), n, `scene ${s} obb ${q}`));
        const bx = [...c.map((v) => v - 3), ...c.map((v) => v + 2.5)];
        problems.push(...same(w, 'aabb', bx, (o) => w.overlapAABB(bx.slice(0, 3), bx.slice(3), o), n, `scene ${s} box ${q}`));
      }
      w.dispose();
    }
    expect(problems).toEqual([]);
    expect(found).toBeGreaterThan(300);
  });

  // Planes n.x + d >= 0 of the box [-10, 10]^3 but one: x - y - z + 1 >= 0, that is
  // -x + y + z <= 1. The box [-1, 2^-60] x [1, 2] x [2^-60, 1]: its corner least along
  // (-1, 1, 1) is (2^-60, 1, 2^-60), where -x + y + z = -2^-60 + 1 + 2^-60 = 1 exactly: the
  // corner is on the plane and inside the others (|coordinates| <= 10), so the box touches:
  // overlap. In double the filter sums -1 - 2^-60 (rounds to -1), + 1, + 2^-60: 2^-60 > 0, a
  // rounding error; with the margin set to 0 the filter rejects the box (caught here).
  test('a rounding error in the filter is within its margin (margin 0 would reject a touching box)', () => {
    const w = sc.createWorld();
    const t = 2 ** -60;
    w.addAABBs([-1, 1, t, t, 2, 1]);
    const planes = [1, -1, -1, 1, 1, 0, 0, 10, 0, 1, 0, 10, 0, -1, 0, 10, 0, 0, 1, 10, 0, 0, -1, 10];
    const out = new Int32Array(1);
    expect(w.overlapFrustum(planes, out)).toBe(1);
    // one float step farther (x's top 2^-60 - 2^-84): -x + y + z >= 1 + 2^-84 > 1 everywhere
    w.updateAABBs(0, [-1, 1, t, step(t, false), 2, 1]);
    expect(w.overlapFrustum(planes, out)).toBe(0);
    w.dispose();
  });

  // The box [1, 2] x [0, 1]^2 against the frustum -x + 1 >= 0 (and loose planes): it touches at
  // its face x = 1, so overlaps; the filter's reject sum is exactly -1 + 1 = 0 there. A margin of
  // the wrong sign (reject when the sum exceeds -margin) drops it (caught here); one float step
  // past, it must not be found.
  test('a face exactly on a plane counts (a margin of the wrong sign would drop it)', () => {
    const w = sc.createWorld();
    w.addAABBs([1, 0, 0, 2, 1, 1]);
    const planes = [-1, 0, 0, 1, 1, 0, 0, 10, 0, 1, 0, 10, 0, -1, 0, 10, 0, 0, 1, 10, 0, 0, -1, 10];
    const out = new Int32Array(1);
    expect(w.overlapFrustum(planes, out)).toBe(1);
    w.updateAABBs(0, [step(1, true), 0, 0, 2, 1, 1]);
    expect(w.overlapFrustum(planes, out)).toBe(0);
    w.dispose();
  });
});
