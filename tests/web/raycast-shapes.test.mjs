// sc.raycast against spheres, capsules, OBBs and planes: web/core/shapes.js answers certain misses
// (and planes entirely) in JavaScript, the rest goes to the core. Every answer must be the core's
// own (sc_wasm_raycast called directly, helpers/core-raycast.mjs) bit for bit, on the inputs that
// are hardest for a double-precision shortcut: the oracle's near-tangent spheres (Pythagorean,
// moved off tangency by 2^-149 .. 2^-20), near-edge OBBs, adversarial capsules, far / tiny / huge
// probes, every raycast of the case files, rays aimed at each shape's boundary from 1 to 1e30
// times its size away, and edge inputs by hand (-0, on the surface, inside, parallel, grazing,
// subnormal, tmax at the hit). shapes.js's own answers are checked against the core too, and the
// test asserts that both paths (JavaScript and core) are taken.
import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import { rng } from '../../web/bench/scenes.mjs';
import { capsuleRay, obbRay, planeRay, sphereRay, UNSURE } from '../../web/core/shapes.js';
import { loadSlabcast } from '../../web/slabcast.js';
import { capsuleCases } from '../oracle/capsule-gen.mjs';
import { generate } from '../oracle/extreme-probes.mjs';
import { nearEdgeCases } from '../oracle/near-edge.mjs';
import { nearTangentCases } from '../oracle/near-tangent.mjs';
import { coreRaycaster, raycastDiff } from './helpers/core-raycast.mjs';

let sc;
let coreRaycast;
beforeAll(async () => {
  sc = await loadSlabcast();
  coreRaycast = await coreRaycaster();
});

const FIELDS = { sphere: ['center', 'radius'], capsule: ['a', 'b', 'radius'], obb: ['center', 'axes', 'half'], plane: ['normal', 'd'] };
const SOLVERS = { sphere: sphereRay, capsule: capsuleRay, obb: obbRay, plane: planeRay };

/** The shape's floats as shapes.js takes them (sc_shape's layout after the type word). */
const floatsOf = (shape) => new Float32Array(FIELDS[shape.type].flatMap((k) => (k === 'axes' ? shape.axes.flat() : [shape[k]].flat())));

/**
 * '' when sc.raycast and shapes.js agree with the core bit for bit, else what differs. counts
 * (by 'js' / 'core') records which path shapes.js took.
 */
function check(ray, shape, counts) {
  const tmax = ray.tmax ?? Infinity;
  const want = coreRaycast(ray.origin, ray.dir, tmax, shape);
  const diff = raycastDiff(sc, want, ray, shape);
  if (diff !== '') return diff;
  if (want.status !== 0) return ''; // refused as the core refuses it
  // shapes.js alone: a miss only where the core misses; a plane's hit with the core's bits
  const out = new Float32Array(9);
  const k = SOLVERS[shape.type](new Float32Array([...ray.origin, ...ray.dir, tmax]), floatsOf(shape), out);
  if (counts) counts[k === UNSURE ? 'core' : 'js'] = (counts[k === UNSURE ? 'core' : 'js'] ?? 0) + 1;
  if (k === 0 && want.hit) return 'shapes.js: a miss where the core hits';
  if (k === 1) {
    const w = [want.t, want.t_enter, want.t_exit, ...want.point, ...want.normal];
    if (!want.hit || !w.every((v, i) => Object.is(v, out[i]))) return `shapes.js: ${Array.from(out)} vs core ${JSON.stringify(want)}`;
  }
  return '';
}

const num3 = (v) => Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number');
/** A raycast of one of these shapes whose fields are numbers (the case files also hold malformed ones). */
function wellFormed(c) {
  if (c.query !== 'raycast' || !(c.shape?.type in FIELDS) || !num3(c.ray?.origin) || !num3(c.ray?.dir)) return false;
  if (c.ray.tmax !== undefined && typeof c.ray.tmax !== 'number') return false;
  return FIELDS[c.shape.type].every((k) => (k === 'axes' ? Array.isArray(c.shape.axes) && c.shape.axes.length === 3 && c.shape.axes.every(num3)
    : k === 'radius' || k === 'd' ? typeof c.shape[k] === 'number' : num3(c.shape[k])));
}

function run(cases, counts) {
  const problems = [];
  for (const c of cases) {
    if (!wellFormed(c)) continue;
    const msg = check(c.ray, c.shape, counts);
    if (msg) problems.push(`${c.id ?? ''} ${JSON.stringify({ ray: c.ray, shape: c.shape })}: ${msg}`);
  }
  return problems;
}

describe('shapes.js: the core\'s answers on the oracle\'s hardest inputs', () => {
  test('near-tangent spheres (exact tangency moved by 2^-149 .. 2^-20), near-edge OBBs, adversarial capsules', () => {
    const counts = {};
    const problems = [
      ...run(nearTangentCases(7, 3000), counts),
      ...run(nearEdgeCases(7, 3000), counts),
      ...run(capsuleCases(7, 2000), counts),
    ];
    expect(problems.slice(0, 5)).toEqual([]);
    expect(counts.js).toBeGreaterThan(300);
    expect(counts.core).toBeGreaterThan(300);
  });

  test('far, tiny and huge probes, and every raycast of the case files', () => {
    const counts = {};
    const problems = [];
    for (const family of ['far', 'tiny', 'huge']) problems.push(...run(generate(family, 11, 3000), counts));
    const dir = new URL('../cases/', import.meta.url);
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
      const cases = JSON.parse(readFileSync(new URL(f, dir), 'utf8')).cases ?? [];
      problems.push(...run(cases.filter((c) => c !== null && typeof c === 'object'), counts));
    }
    expect(problems.slice(0, 5)).toEqual([]);
    expect(counts.js).toBeGreaterThan(300);
    expect(counts.core).toBeGreaterThan(300);
  });

  test('rays aimed at the boundary from 1 to 1e30 times the shape\'s size, random directions and sizes', () => {
    const r = rng(0x5A9E);
    const f = Math.fround;
    const counts = {};
    const cases = [];
    const unit = () => {
      const v = [r() * 2 - 1, r() * 2 - 1, r() * 2 - 1];
      const l = Math.hypot(...v) || 1;
      return v.map((x) => x / l);
    };
    for (let i = 0; i < 40000; i++) {
      const size = 10 ** (r() * 12 - 6);
      const far = size * 10 ** (r() * 30);
      const c = [0, 1, 2].map(() => f((r() * 2 - 1) * size * (r() < 0.3 ? 1e6 : 1)));
      const rad = f(size * (0.2 + r()));
      const u = unit();
      const rot = r() * 6.283185307179586;
      const shapes = {
        sphere: { type: 'sphere', center: c, radius: rad },
        capsule: { type: 'capsule', a: c, b: c.map((x, k) => f(x + u[k] * size * 2 * r())), radius: rad },
        obb: { type: 'obb', center: c, axes: [[Math.cos(rot), Math.sin(rot), 0], [-Math.sin(rot), Math.cos(rot), 0], [0, 0, 1]], half: [rad, f(rad * 0.5), f(rad * 2)] },
        plane: { type: 'plane', normal: r() < 0.5 ? u : [0, 0, 1], d: f((r() * 2 - 1) * size) },
      };
      const type = ['sphere', 'capsule', 'obb', 'plane'][i & 3];
      // aimed at a point of the boundary (about a radius from the centre, tangent or just in or out)
      const w = unit();
      const aim = c.map((x, k) => x + w[k] * rad * (1 + (r() - 0.5) * 2 ** -Math.floor(r() * 40)));
      const from = unit();
      const origin = aim.map((x, k) => f(x + from[k] * far));
      const dir = aim.map((x, k) => f(x - origin[k]));
      const ray = { origin, dir };
      if (r() < 0.2) ray.tmax = f(r() * 2);
      cases.push({ query: 'raycast', ray, shape: shapes[type] });
    }
    const problems = run(cases, counts);
    expect(problems.slice(0, 5)).toEqual([]);
    expect(counts.js).toBeGreaterThan(5000);
    expect(counts.core).toBeGreaterThan(5000);
  });

  test('edge inputs by hand: -0, on the surface, inside, parallel, perpendicular, grazing, subnormal, tmax at the hit, invalid shapes', () => {
    const X = [1, 0, 0];
    const rays = [
      { origin: [-5, 0, 0], dir: X }, { origin: [-5, 1, 0], dir: X }, { origin: [-5, -0, -0], dir: [1, -0, 0] },
      { origin: [-1, 0, 0], dir: X }, { origin: [1, 0, 0], dir: X }, { origin: [0, 0, 0], dir: X },
      { origin: [0, 1, 0], dir: X }, { origin: [0, 1, 0], dir: [0, 1, 0] }, { origin: [0, 1, 0], dir: [0, -1, 0] },
      { origin: [-5, 1, 0], dir: X, tmax: 5 }, { origin: [-5, 0, 0], dir: X, tmax: 4 }, { origin: [-5, 0, 0], dir: X, tmax: 0 },
      { origin: [-5, 0, 0], dir: [1e-40, 0, 0] }, { origin: [-5, 0, 0], dir: [1e38, 1e38, 0] },
      { origin: [-3e38, 1, 0], dir: X }, { origin: [-5, 1 + 2 ** -23, 0], dir: X }, { origin: [-5, 1 - 2 ** -24, 0], dir: X },
      { origin: [3, 4, 0], dir: [-4, 3, 0] }, { origin: [3, 4, 0], dir: [4, -3, 0] }, { origin: [-5, 0, 0], dir: [1, 1e-30, -1e-30] },
      { origin: [1e-40, 1e-40, 0], dir: [-0, 0, 1] }, { origin: [0, 0, -5], dir: [0, 0, 1] }, { origin: [0, 0, 5], dir: [0, 0, 1] },
      { origin: [0, 50, 0], dir: X }, { origin: [50, 50, 50], dir: [1, 1, 1] }, { origin: [-50, 3, 0], dir: [1, 0.01, 0] },
    ];
    const shapes = [
      { type: 'sphere', center: [0, 0, 0], radius: 1 }, { type: 'sphere', center: [-0, 0, -0], radius: 0 },
      { type: 'sphere', center: [0, 0, 0], radius: 5 }, { type: 'sphere', center: [1e30, 0, 0], radius: 1e-30 },
      { type: 'capsule', a: [-1, 0, 0], b: [1, 0, 0], radius: 1 }, { type: 'capsule', a: [0, -1, 0], b: [0, 1, 0], radius: 1 },
      { type: 'capsule', a: [0, 0, 0], b: [0, 0, 0], radius: 1 }, { type: 'capsule', a: [0, 0, -1], b: [0, 0, 1], radius: 0 },
      { type: 'capsule', a: [-3e38, 1, 0], b: [3e38, 1, 0], radius: 1e-40 },
      { type: 'obb', center: [0, 0, 0], axes: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], half: [1, 1, 1] },
      { type: 'obb', center: [0, 0, 0], axes: [[0.6, 0.8, 0], [-0.8, 0.6, 0], [0, 0, 1]], half: [1, 0, 1] },
      { type: 'obb', center: [0, 0, 0], axes: [[1, 0, 0], [0, 1, 0], [0, 0, 1.00009]], half: [1, 1, 1] },
      { type: 'obb', center: [0, 0, 0], axes: [[1, 0, 0], [0, 1, 0], [0, 0, 1.0002]], half: [1, 1, 1] },
      { type: 'obb', center: [0, 0, 0], axes: [[-0, 1, 0], [0, 0, 1], [1, 0, -0]], half: [0, 0, 0] },
      // a_i.a_j just past the core's 1e-4 (an error, never a miss) and just within it
      { type: 'obb', center: [0, 0, 0], axes: [[1, 0, 0], [0.0002, 1, 0], [0, 0, 1]], half: [1, 1, 1] },
      { type: 'obb', center: [0, 0, 0], axes: [[1, 0, 0.0002], [0, 1, 0], [0, 0, 1]], half: [1, 1, 1] },
      { type: 'obb', center: [0, 0, 0], axes: [[1, 0, 0], [0, 1, 0.0002], [0, 0, 1]], half: [1, 1, 1] },
      { type: 'obb', center: [0, 0, 0], axes: [[1, 0, 0], [0.00009, 1, 0], [0, 0.00009, 1]], half: [1, 1, 1] },
      { type: 'obb', center: [0, 0, 0], axes: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], half: [1, -1, 1] },
      { type: 'obb', center: [0, NaN, 0], axes: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], half: [1, 1, 1] },
      { type: 'capsule', a: [0, 0, 0], b: [Infinity, 0, 0], radius: 1 }, { type: 'capsule', a: [0, 0, 0], b: [1, 0, 0], radius: -1 },
      { type: 'sphere', center: [0, 0, Infinity], radius: 1 }, { type: 'plane', normal: [0, 1, 0], d: Infinity },
      { type: 'plane', normal: [1, 0, 0], d: 0 }, { type: 'plane', normal: [-0, 1, 0], d: 1 }, { type: 'plane', normal: [0, 0, 1], d: -0 },
      { type: 'plane', normal: [1e-40, 0, 0], d: 0 }, { type: 'plane', normal: [3, 4, 0], d: 25 }, { type: 'plane', normal: [1, 1e-30, 0], d: -5 },
      { type: 'plane', normal: [3e38, 3e38, 0], d: 1 }, { type: 'plane', normal: [0, 0, 0], d: 1 }, { type: 'sphere', center: [0, 0, 0], radius: -1 },
    ];
    const problems = [];
    for (const ray of rays) {
      for (const shape of shapes) {
        const msg = check(ray, shape);
        if (msg) problems.push(`${JSON.stringify({ ray, shape })}: ${msg}`);
      }
    }
    expect(problems).toEqual([]);
  });

  test('AABBs: rays aimed at faces, edges and corners from 1 to 1e30 sizes away, tmax at the entry (slab.js\'s division-free miss test)', () => {
    const r = rng(0xAAB8);
    const f = Math.fround;
    const problems = [];
    const target = new Float32Array(9);
    let misses = 0;
    let hits = 0;
    for (let i = 0; i < 60000; i++) {
      const size = 10 ** (r() * 12 - 6);
      const c = [0, 1, 2].map(() => (r() * 2 - 1) * size * (r() < 0.3 ? 1e6 : 1));
      const h = [0, 1, 2].map(() => size * (0.1 + r()));
      const min = c.map((x, k) => f(x - h[k]));
      const max = c.map((x, k) => f(x + h[k]));
      // a point on the boundary: a corner, an edge or a face, nudged by up to 2^-k of the size
      const aim = [0, 1, 2].map((k) => {
        const u = r();
        const x = u < 0.35 ? min[k] : u < 0.7 ? max[k] : min[k] + (max[k] - min[k]) * r();
        return x + (r() - 0.5) * size * 2 ** -Math.floor(r() * 50);
      });
      const far = size * 10 ** (r() * 30);
      const w = [r() * 2 - 1, r() * 2 - 1, r() * 2 - 1];
      const l = Math.hypot(...w) || 1;
      const origin = aim.map((x, k) => f(x + (w[k] / l) * far));
      const dir = aim.map((x, k) => f(x - origin[k]));
      if (r() < 0.1) dir[Math.floor(r() * 3)] = r() < 0.5 ? 0 : -0;
      let tmax = Infinity;
      if (r() < 0.3) tmax = f(r() < 0.5 ? 1 : r() * 2);
      const ray = { origin, dir, tmax };
      const shape = { type: 'aabb', min, max };
      const want = coreRaycast(origin, dir, tmax, shape);
      if (want.status !== 0) continue;
      if (want.hit) hits++;
      else misses++;
      const got = sc.raycast(ray, shape);
      const fast = sc.raycastAABB(new Float32Array([...origin, ...dir, tmax]), new Float32Array([...min, ...max]), target);
      const bits = (v) => [v.t, v.t_enter, v.t_exit, ...v.point, ...v.normal];
      if (got.hit !== want.hit || fast !== want.hit ||
          (want.hit && !(bits(got).every((x, k) => Object.is(x, bits(want)[k])) && bits(want).every((x, k) => Object.is(x, target[k]))))) {
        problems.push(JSON.stringify({ ray, shape, want: want.hit, got: got.hit, fast }));
      }
    }
    expect(problems.slice(0, 5)).toEqual([]);
    expect(hits).toBeGreaterThan(10000);
    expect(misses).toBeGreaterThan(10000);
  });

  test('planes, all in JavaScript: the hit at tmax exactly, at t = 0, in the plane, parallel, -0, and random tmax (the exactly summed end test)', () => {
    const r = rng(0x91A7E);
    const f = Math.fround;
    const cases = [];
    const pick = (a) => a[Math.floor(r() * a.length)];
    for (let i = 0; i < 30000; i++) {
      const dyadic = r() < 0.5;
      const num = () => (dyadic ? Math.floor(r() * 33 - 16) / 4 : f((r() * 2 - 1) * 10 ** (r() * 8 - 4)));
      const normal = r() < 0.3 ? pick([[0, 0, 1], [0, -0, -1], [3, 4, 0], [1, 1, 1], [0.6, 0.8, 0]]) : [num(), num(), num()];
      const d = num();
      const origin = [num(), num(), num()];
      const dir = r() < 0.1 ? [normal[1], -normal[0], 0] : [num(), num(), num()]; // some parallel to the plane
      const ray = { origin, dir };
      // tmax: none, the hit's own t (when dyadic, often exact), a little before or after, 0
      const u = r();
      if (u < 0.6) {
        const nd = normal[0] * dir[0] + normal[1] * dir[1] + normal[2] * dir[2];
        const no = normal[0] * origin[0] + normal[1] * origin[1] + normal[2] * origin[2];
        const t = nd !== 0 ? (d - no) / nd : 1;
        ray.tmax = u < 0.3 ? f(Math.abs(t)) : u < 0.4 ? 0 : f(Math.abs(t) * (1 + (r() - 0.5) * 2 ** -20));
      }
      cases.push({ query: 'raycast', ray, shape: { type: 'plane', normal, d } });
    }
    const counts = {};
    const problems = run(cases, counts);
    expect(problems.slice(0, 5)).toEqual([]);
    expect(counts.js).toBeGreaterThan(25000);
  });

  test('planes: d - n.o whose plain double sum has the wrong sign (the miss shortcut must not trust it)', () => {
    // n.o = L + s - (L - 2) (products of floats, scaled by powers of two, axes permuted), with s
    // within about 2^-28 of -2 (the nearest of 16 tries): the plain sum loses s's low bits (L + s rounds) unless s comes
    // last, so it is 0 or a multiple of 2^-28 of the scale, while the exact n.o is e = s + 2; d is
    // e / 2 rounded to float, so d - n.o is about -e / 2 exactly and often +e / 2 or so in plain
    // double. The exact signs come from BigInt, not from slabcast; the answers from the core.
    const r = rng(0x5167);
    const dv = new DataView(new ArrayBuffer(8));
    const exact = (x) => { // x * 2^1074 as a BigInt (exact for every finite double)
      dv.setFloat64(0, x);
      const hi = dv.getUint32(0);
      const ex = (hi >>> 20) & 0x7ff;
      const m = (BigInt(hi & 0xfffff) << 32n) + BigInt(dv.getUint32(4)) + (ex ? 1n << 52n : 0n);
      const v = m << BigInt((ex || 1) - 1);
      return hi >>> 31 ? -v : v;
    };
    const sign = (terms) => { const t = terms.reduce((a, x) => a + exact(x), 0n); return t > 0n ? 1 : t < 0n ? -1 : 0; };
    const f = Math.fround;
    const cases = [];
    let flips = 0;
    for (let i = 0; i < 20000; i++) {
      const k = Math.floor(r() * 3);
      const perm = (v) => [v[k], v[(k + 1) % 3], v[(k + 2) % 3]];
      const p2 = (lo, hi) => 2 ** Math.floor(lo + r() * (hi - lo));
      let n1 = 1.5;
      for (let j = 0; j < 16; j++) { // the n1 of the 16 tried whose s = n1 * f(-2 / n1) is nearest -2 (not at it)
        const c = f(1 + r());
        const e0 = Math.abs(c * f(-2 / c) + 2);
        if (e0 !== 0 && (j === 0 || e0 < Math.abs(n1 * f(-2 / n1) + 2))) n1 = c;
      }
      const sn = p2(-8, 8);
      const so = p2(-8, 8) * (r() < 0.5 ? -1 : 1);
      const normal = perm([sn, sn * n1, sn]);
      const origin = perm([so * 2 ** 24, so * f(-2 / n1), -so * (2 ** 24 - 2)]);
      const e = sn * so * (n1 * f(-2 / n1) + 2); // exact: Sterbenz, then a power of two
      const d = f(e / 2);
      const dir = [f(r() * 2 - 1), f(r() * 2 - 1), f(r() * 2 - 1)];
      const q = [normal[0] * origin[0], normal[1] * origin[1], normal[2] * origin[2]];
      const na = d - (q[0] + q[1] + q[2]);
      if (na !== 0 && Math.sign(na) === -sign([d, -q[0], -q[1], -q[2]])) flips++;
      cases.push({ query: 'raycast', ray: { origin, dir }, shape: { type: 'plane', normal, d } });
    }
    const counts = {};
    const problems = run(cases, counts);
    expect(problems.slice(0, 5)).toEqual([]);
    expect(flips).toBeGreaterThan(1000);
  });
});
