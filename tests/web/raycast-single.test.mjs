// sc.raycast (objects in, a result object out) and raycastAABB against the core's own
// sc_wasm_raycast called directly (helpers/core-raycast.mjs): bit for bit on random rays against
// every shape type (AABBs take queries.js's JavaScript slab path, the others its staging and
// scratch views), invalid inputs with the core's status; calls nested in the caller's getters;
// the wasm memory growing under a getter (the scratch views must be re-derived).
import { beforeAll, describe, expect, test } from 'vitest';
import { rng } from '../../web/bench/scenes.mjs';
import { randomAxes } from './helpers/model-geom.mjs';
import { loadSlabcast } from '../../web/slabcast.js';
import { instantiateCore } from '../../web/core/loader.js';
import { createQueries } from '../../web/core/queries.js';
import { obbRay } from '../../web/core/shapes.js';
import { compareRaycast, coreRaycaster, same } from './helpers/core-raycast.mjs';

let sc;
let coreRaycast;
beforeAll(async () => {
  sc = await loadSlabcast();
  coreRaycast = await coreRaycaster();
});

/** compareRaycast (helpers/core-raycast.mjs) with this file's sc and core. */
const compare = (ray, shape) => compareRaycast(sc, coreRaycast, ray, shape);

function randomCase(r) {
  const pick = (a) => a[Math.floor(r() * a.length)];
  const num = () => {
    const u = r();
    if (u < 0.06) return pick([0, -0]);
    if (u < 0.09) return pick([1e-30, -1e-30, 3e38, -3e38, 2 ** 126, NaN, Infinity, 1e-40, 0.1]);
    if (u < 0.35) return Math.floor(r() * 33 - 16) / 4; // dyadic: ties and faces
    return r() * 10 - 5;
  };
  const v3 = () => [num(), num(), num()];
  const type = pick(['aabb', 'aabb', 'obb', 'sphere', 'plane', 'capsule']);
  let shape;
  if (type === 'aabb') {
    const a = v3();
    const b = v3();
    const swap = r() < 0.95;
    shape = { type, min: a.map((x, k) => (swap ? Math.min(x, b[k]) : x)), max: a.map((x, k) => (swap ? Math.max(x, b[k]) : b[k])) };
  } else if (type === 'obb') {
    const axes = pick([[[1, 0, 0], [0, 1, 0], [0, 0, 1]], [[0.6, 0.8, 0], [-0.8, 0.6, 0], [0, 0, 1]], [[0, 0, 1], [0, 1, 0], [-1, 0, 0]], [v3(), v3(), v3()]]);
    shape = { type, center: v3(), axes, half: v3().map(Math.abs) };
  } else if (type === 'sphere') {
    shape = { type, center: v3(), radius: Math.abs(num()) };
  } else if (type === 'plane') {
    const n = v3();
    const l = Math.hypot(...n) || 1;
    shape = { type, normal: r() < 0.9 ? n.map((x) => x / l) : n, d: num() };
  } else {
    const a = v3();
    shape = { type, a, b: r() < 0.1 ? a.slice() : v3(), radius: Math.abs(num()) };
  }
  const ray = { origin: v3(), dir: v3() };
  const c = type === 'aabb' ? shape.min : type === 'capsule' ? shape.a : type === 'plane' ? [0, 0, 0] : shape.center;
  if (r() < 0.4) ray.dir = c.map((x, k) => x + (r() - 0.5) * 3 - ray.origin[k]); // aimed: mostly hits
  if (r() < 0.15) { ray.dir = [0, 0, 0]; ray.dir[Math.floor(r() * 3)] = pick([1, -1, 0.5]); }
  if (r() < 0.3) ray.tmax = r() < 0.7 ? r() * 10 : num();
  return { ray, shape };
}

/**
 * Calls in streaks of hits and of misses, as queries.js's hit-streak skip sees them: runs of 1 to 40
 * calls, each run either aimed (aimed(r) makes a ray through the shape: a hit, or now and then an
 * invalid input) or a random case of that type. Every answer is compared with the core's; returns
 * the problems and the number of core hits.
 */
function streaks(seed, type, aimed) {
  const r = rng(seed);
  const problems = [];
  let hits = 0;
  let i = 0;
  while (i < 20000) {
    const isAimed = r() < 0.5;
    const run = 1 + Math.floor(r() * 40);
    for (let k = 0; k < run; k++, i++) {
      let c;
      if (isAimed) c = aimed(r);
      else do c = randomCase(r); while (c.shape.type !== type);
      const { ray, shape } = c;
      const msg = compare(ray, shape);
      if (msg) problems.push(`${i} ${JSON.stringify({ ray, shape })}: ${msg}`);
      const w = coreRaycast(ray.origin, ray.dir, ray.tmax ?? Infinity, shape);
      if (w.status === 0 && w.hit) hits++;
    }
  }
  return { problems, hits };
}

/** A ray from outside through a capsule's midpoint (an invalid input now and then). */
function aimedCapsule(r) {
  const a = [r() * 4 - 2, r() * 4 - 2, r() * 4 - 2];
  const b = a.map((x) => x + r() * 2 - 1);
  const shape = { type: 'capsule', a, b, radius: r() < 0.02 ? -1 : 0.25 + r() };
  const m = a.map((x, j) => (x + b[j]) / 2);
  const d = [r() * 2 - 1, r() * 2 - 1, r() * 2 - 1];
  const ray = { origin: m.map((x, j) => x - 10 * d[j]), dir: r() < 0.02 ? [0, 0, 0] : d };
  return { ray, shape };
}

/** A ray from outside through the centre of a rotated box (an invalid input now and then). */
function aimedObb(r) {
  const c = [r() * 4 - 2, r() * 4 - 2, r() * 4 - 2];
  const a = r() * 6.283185307179586;
  const axes = [[Math.cos(a), Math.sin(a), 0], [-Math.sin(a), Math.cos(a), 0], [0, 0, 1]];
  if (r() < 0.02) axes[2] = [0, 0.5, 1]; // not orthonormal
  const shape = { type: 'obb', center: c, axes, half: [0.5 + r(), r() < 0.02 ? -1 : 0.5 + r(), 0.5 + r()] };
  const d = [r() * 2 - 1, r() * 2 - 1, r() * 2 - 1];
  const ray = { origin: c.map((x, j) => x - 10 * d[j]), dir: r() < 0.02 ? [0, 0, 0] : d };
  if (r() < 0.1) ray.tmax = r() * 12; // some end before the box
  return { ray, shape };
}

describe('sc.raycast against the core itself', () => {
  test('60000 random rays against every shape type, bit for bit (errors: the core status)', () => {
    const r = rng(0x5C1);
    const problems = [];
    const hits = {};
    for (let i = 0; i < 60000; i++) {
      const { ray, shape } = randomCase(r);
      const msg = compare(ray, shape);
      if (msg) problems.push(`${JSON.stringify({ ray, shape })}: ${msg}`);
      const w = coreRaycast(ray.origin, ray.dir, ray.tmax ?? Infinity, shape);
      if (w.status === 0 && w.hit) hits[shape.type] = (hits[shape.type] ?? 0) + 1;
    }
    expect(problems.slice(0, 5)).toEqual([]);
    for (const t of ['aabb', 'obb', 'sphere', 'plane', 'capsule']) expect(hits[t]).toBeGreaterThan(1000);
  });

  test('capsules in streaks of hits and of misses (queries.js skips its miss tests while most calls hit): the core\'s answer on every call', () => {
    const { problems, hits } = streaks(0xCA95, 'capsule', aimedCapsule);
    expect(problems.slice(0, 5)).toEqual([]);
    expect(hits).toBeGreaterThan(5000);
    expect(hits).toBeLessThan(15000);
  });

  test('OBBs in streaks of hits and of misses (the core answers hits through sc_wasm_raycast_obb_io): the core\'s answer on every call', async () => {
    // the staged slabcast.wasm has the export, so sc.raycast's OBB path is the one tested here
    expect(typeof (await instantiateCore()).ex.sc_wasm_raycast_obb_io).toBe('function');
    const { problems, hits } = streaks(0x0BB5, 'obb', aimedObb);
    expect(problems.slice(0, 5)).toEqual([]);
    expect(hits).toBeGreaterThan(5000);
    expect(hits).toBeLessThan(15000);
  });

  test('a module without sc_wasm_raycast_obb_io: OBBs through sc_wasm_raycast, the same answers', async () => {
    const core = await instantiateCore();
    const { sc_wasm_raycast_obb_io: _io, ...rest } = core.ex;
    core.ex = rest;
    const { raycast } = createQueries(core);
    const r = rng(0x0BB6);
    const problems = [];
    let hits = 0;
    for (let i = 0; i < 3000; i++) {
      let c;
      do c = randomCase(r); while (c.shape.type !== 'obb');
      const { ray, shape } = c;
      const want = coreRaycast(ray.origin, ray.dir, ray.tmax ?? Infinity, shape);
      let got;
      try {
        got = raycast(ray, shape);
      } catch (e) {
        got = { status: e.status };
      }
      const ok = want.status !== 0 ? got.status === want.status
        : want.hit ? ['t', 't_enter', 't_exit', 'point', 'normal'].every((k) => same(got[k], want[k])) : got.hit === false;
      if (!ok) problems.push(`${JSON.stringify(c)}: ${JSON.stringify(got)}`);
      if (want.status === 0 && want.hit) hits++;
    }
    expect(problems.slice(0, 5)).toEqual([]);
    expect(hits).toBeGreaterThan(300);
  });

  test('sc_wasm_raycast_obb_io on invalid and edge inputs (its own validity test): sc_wasm_raycast\'s status and answer, bit for bit', async () => {
    const core = await instantiateCore();
    const io = (vals) => {
      core.views();
      const w = core.scratch >> 2;
      for (let k = 0; k < 22; k++) core.f32[w + k] = vals[k];
      const k = core.ex.sc_wasm_raycast_obb_io(core.scratch);
      core.views();
      return { k, out: Array.from(core.f32.subarray(w, w + 9)) };
    };
    const c = 0.6, s = 0.8;
    const bases = [
      [-3, 0.5, 0.25, 1, 0.1, 0.05, Infinity, 0.5, 0.25, 0, c, s, 0, -s, c, 0, 0, 0, 1, 1, 0.5, 2], // a hit
      [-3, 0.5, 0.25, 1, 0.1, 0.05, 2.5, 0.5, 0.25, 0, c, s, 0, -s, c, 0, 0, 0, 1, 1, 0.5, 2], // a hit, finite tmax
      [-3, 9, 0.25, 1, 0.1, 0.05, Infinity, 0.5, 0.25, 0, c, s, 0, -s, c, 0, 0, 0, 1, 1, 0.5, 2], // a miss
      [0.5, 0.25, 0, 0, 0, 1, Infinity, 0.5, 0.25, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1], // from inside
    ];
    const variants = [];
    for (const b of bases) {
      variants.push(b);
      for (let k = 0; k < 22; k++) for (const v of [NaN, Infinity, -Infinity, -0, 0, -1]) variants.push(b.map((x, j) => (j === k ? v : x)));
      variants.push(b.map((x, j) => (j >= 3 && j < 6 ? 0 : x))); // dir zero
      variants.push(b.map((x, j) => (j >= 3 && j < 6 ? -0 : x)));
      // axes near the orthonormality tolerance (1e-4 on each float dot product): scaled, and tilted
      for (const e of [0.4e-4, 0.49e-4, 0.5e-4, 0.51e-4, 0.6e-4, 0.99e-4, 1e-4, 1.01e-4, 2e-4]) {
        for (const sg of [1, -1]) {
          for (let a = 0; a < 3; a++) variants.push(b.map((x, j) => (j >= 10 + 3 * a && j < 13 + 3 * a ? x * (1 + sg * e) : x)));
          variants.push(b.map((x, j) => (j === 11 ? x + sg * e : x)));
          variants.push(b.map((x, j) => (j === 18 ? x + sg * 2 * e : x)));
        }
      }
    }
    const problems = [];
    const seen = { hit: 0, miss: 0, error: 0 };
    for (const v of variants) {
      const f = Array.from(new Float32Array(v));
      const want = coreRaycast(f.slice(0, 3), f.slice(3, 6), f[6], { type: 'obb', center: f.slice(7, 10), axes: [f.slice(10, 13), f.slice(13, 16), f.slice(16, 19)], half: f.slice(19, 22) });
      const got = io(f);
      const ok = want.status !== 0 ? got.k === -want.status
        : !want.hit ? got.k === 0
          : got.k === 1 && same(got.out, [want.t, want.t_enter, want.t_exit, ...want.point, ...want.normal]);
      if (!ok) problems.push(`${JSON.stringify(v)}: io ${got.k}, core status ${want.status} hit ${want.hit}`);
      seen[want.status !== 0 ? 'error' : want.hit ? 'hit' : 'miss']++;
    }
    expect(problems.slice(0, 5)).toEqual([]);
    expect(seen.hit).toBeGreaterThan(100);
    expect(seen.miss).toBeGreaterThan(20);
    expect(seen.error).toBeGreaterThan(200);
  });

  test('typed-array vectors and Float64 values round as the core takes them', () => {
    const box = { type: 'aabb', min: new Float64Array([0.1, 0.1, 0.1]), max: new Float32Array([2, 2, 2]) };
    const ray = { origin: new Float64Array([-1.0000001, 0.30000001, 0.7]), dir: [1, 1e-9, 0] };
    expect(compare(ray, box)).toBe('');
    expect(sc.raycast(ray, box).hit).toBe(true);
  });
});

/**
 * An OBB and a ray for the OBB io export's certified pass (sc__raycast_obb_hit), as Float32Arrays
 * in sc_raycast's layout: a rotated box
 * (a random rotation, rounded to float, some skewed towards the 1e-4 tolerance) or an axis-aligned
 * one (signed permutations, dyadic sizes: ties between floats are common), at one of several
 * scales, and a ray from outside aimed at a point on or near it: its inside, a face, an edge or a
 * vertex (grazing rays), some with a tmax at or near the entry, a tiny dir, or a zero half.
 */
function obbHitCase(r) {
  const pick = (a) => a[Math.floor(r() * a.length)];
  const scale = pick([1, 1, 1, 2 ** -20, 2 ** 20, 1e-30, 1e30, 3.3e3]);
  let axes;
  if (r() < 0.35) {
    const perm = pick([[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [1, 0, 2], [2, 1, 0]]);
    axes = perm.map((k) => { const v = [0, 0, 0]; v[k] = r() < 0.5 ? 1 : -1; return v; });
  } else {
    // a random rotation from a unit quaternion
    let [w, x, y, z] = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
    const n = Math.hypot(w, x, y, z);
    [w, x, y, z] = [w / n, x / n, y / n, z / n];
    axes = [[1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)],
      [2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)],
      [2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)]];
    if (r() < 0.3) axes = axes.map((a) => a.map((v) => v * (1 + (r() - 0.5) * 0.9e-4))); // skewed
  }
  const dyadic = r() < 0.4;
  const num = (k) => (dyadic ? Math.round((r() * 2 - 1) * 16) / 4 : (r() * 2 - 1) * k) * scale;
  const center = [num(3), num(3), num(3)];
  const half = [0, 1, 2].map(() => (dyadic ? Math.ceil(r() * 8) / 4 : 0.25 + r() * 2) * scale);
  if (r() < 0.03) half[Math.floor(r() * 3)] = 0;
  const s = new Float32Array([...center, ...axes[0], ...axes[1], ...axes[2], ...half]);
  const A = [s.slice(3, 6), s.slice(6, 9), s.slice(9, 12)];
  // the aim: l_i in [-h_i, h_i], some exactly on a face, an edge or a vertex, some just past it
  const l = [0, 1, 2].map((i) => {
    const u = r();
    const h = s[12 + i];
    if (u < 0.3) return (r() < 0.5 ? -h : h) * (r() < 0.3 ? 1 + (r() - 0.5) * 1e-6 : 1);
    return (r() * 2 - 1) * h;
  });
  const aim = [0, 1, 2].map((k) => s[k] + l[0] * A[0][k] + l[1] * A[1][k] + l[2] * A[2][k]);
  const far = (dyadic ? 8 : 5 + r() * 20) * scale;
  let d = [r() * 2 - 1, r() * 2 - 1, r() * 2 - 1];
  if (dyadic && r() < 0.5) d = d.map((v) => Math.round(v * 4) / 4);
  if (r() < 0.1) d = [0, 1, 2].map((k) => A[Math.floor(r() * 3)][k] * (r() < 0.5 ? 1 : -1) + (r() - 0.5) * 1e-3); // near a face normal
  const o = aim.map((v, k) => v - far * d[k]);
  let dir = aim.map((v, k) => v - o[k]);
  if (r() < 0.1) dir = dir.map((v) => v * pick([2 ** -60, 2 ** 40, 1e-38]));
  let tmax = Infinity;
  if (r() < 0.25) tmax = pick([0, r() * 2, 1, 0.5 + r() * 0.5]);
  const ray = new Float32Array([...o, ...dir, tmax]);
  if (r() < 0.15) { // tmax at (or a float away from) the core's entry
    const w = coreRaycast([...ray.slice(0, 3)], [...ray.slice(3, 6)], Infinity, obbShape(s));
    if (w.status === 0 && w.hit) ray[6] = pick([w.t_enter, w.t_enter * (1 - 2 ** -23), w.t_enter * (1 + 2 ** -23)]);
  }
  return { ray, s };
}

const obbShape = (s) => ({ type: 'obb', center: [...s.slice(0, 3)], axes: [[...s.slice(3, 6)], [...s.slice(6, 9)], [...s.slice(9, 12)]], half: [...s.slice(12, 15)] });

describe('sc_wasm_raycast_obb_io\'s certified hits (sc__raycast_obb_hit): the core\'s answer, bit for bit', () => {
  test('200000 rays aimed at rotated, skewed and axis-aligned OBBs at several scales: sc_wasm_raycast\'s answer every time', async () => {
    const core = await instantiateCore();
    const io = (ray, s) => {
      core.views();
      const w = core.scratch >> 2;
      core.f32.set(ray, w);
      core.f32.set(s, w + 7);
      const k = core.ex.sc_wasm_raycast_obb_io(core.scratch);
      core.views();
      return { k, out: Array.from(core.f32.subarray(w, w + 9)) };
    };
    const r = rng(0x0BB7);
    const problems = [];
    let hits = 0;
    for (let i = 0; i < 200000; i++) {
      const { ray, s } = obbHitCase(r);
      const w = coreRaycast([...ray.slice(0, 3)], [...ray.slice(3, 6)], ray[6], obbShape(s));
      const got = io(ray, s);
      const ok = w.status !== 0 ? got.k === -w.status
        : !w.hit ? got.k === 0
          : got.k === 1 && same(got.out, [w.t, w.t_enter, w.t_exit, ...w.point, ...w.normal]);
      if (!ok) problems.push(`${JSON.stringify({ ray: Array.from(ray), s: Array.from(s) })}: io ${got.k} ${got.out}, core ${w.status} ${w.hit} ${[w.t, w.t_enter, w.t_exit, ...w.point, ...w.normal]}`);
      if (w.status === 0 && w.hit) hits++;
    }
    expect(problems.slice(0, 5)).toEqual([]);
    expect(hits).toBeGreaterThan(120000);
  });
});

describe('obbRay\'s certain misses (shapes.js, the slab test without data branches) near the box', () => {
  test('300000 rays passing near rotated, skewed and axis-aligned OBBs at several scales: every miss claimed is the core\'s miss', () => {
    const r = rng(0x0BB8);
    let claimed = 0;
    const problems = [];
    for (let i = 0; i < 300000; i++) {
      const scale = [1, 1e-3, 1e3, 1e6, 2 ** -30][Math.floor(r() * 5)];
      let axes = randomAxes(r);
      if (r() < 0.3) axes = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
      if (r() < 0.3) axes = axes.map((a) => a.map((v) => v * (1 + (r() - 0.5) * 1.8e-4))); // up to the tolerance
      const dyadic = r() < 0.3; // an axis-aligned box and a ray exactly through its edge or vertex: ties
      if (dyadic) axes = [[0, 0, 1], [1, 0, 0], [0, -1, 0]];
      const dy = (v) => Math.round(v * 8) / 8;
      const c = [r() * 4 - 2, r() * 4 - 2, r() * 4 - 2].map((v) => (dyadic ? dy(v) : v * scale));
      const h = [r() * 2, r() * 2, r() * 2].map((v) => (dyadic ? dy(v) + 0.125 : v * scale));
      // a point within 10% of the box's surface (or on an edge or vertex), and a ray from outside through it
      const l = [0, 1, 2].map((i) => (dyadic ? (r() < 0.7 ? (r() < 0.5 ? -h[i] : h[i]) : dy(h[i] * (r() * 2 - 1))) : h[i] * (r() * 2.2 - 1.1)));
      const p = [0, 1, 2].map((k) => c[k] + axes[0][k] * l[0] + axes[1][k] * l[1] + axes[2][k] * l[2]);
      const d = [r() * 2 - 1, r() * 2 - 1, r() * 2 - 1].map((v) => (dyadic ? Math.round(v * 7) || 1 : v));
      const far = dyadic ? 3 : (2 + r() * 10) * scale * (r() < 0.1 ? -1 : 1);
      const ray = new Float32Array([...p.map((v, k) => v - far * d[k]), ...d, r() < 0.3 ? (dyadic ? far : r() * 12 * scale) : Infinity]);
      const s = new Float32Array([...c, ...axes.flat(), ...h]);
      if (obbRay(ray, s) !== 0) continue;
      claimed++;
      const want = coreRaycast([...ray.slice(0, 3)], [...ray.slice(3, 6)], ray[6], obbShape(s));
      if (want.status !== 0 || want.hit) problems.push(`${JSON.stringify({ ray: Array.from(ray), s: Array.from(s) })}: core ${want.status} ${want.hit}`);
    }
    expect(problems.slice(0, 5)).toEqual([]);
    expect(claimed).toBeGreaterThan(30000);
  });
});

describe('nested calls and memory growth under the caller\'s getters', () => {
  const box = { type: 'aabb', min: [1, -1, -1], max: [3, 1, 1] };

  test('raycast called from a getter of another raycast\'s inputs: both answers right', () => {
    let inner = null;
    const dir = [1, 0, 0];
    const ray = { origin: [-5, 0, 0], get dir() {
      inner = sc.raycast({ origin: [0.5, 9, 0.25], dir: [0, -1, 0] }, { type: 'aabb', min: [0, 0, 0], max: [1, 1, 1] });
      return dir;
    } };
    const outer = sc.raycast(ray, box);
    expect(outer).toEqual({ hit: true, t: 6, t_enter: 6, t_exit: 8, point: [1, 0, 0], normal: [-1, 0, 0] });
    expect(inner).toEqual({ hit: true, t: 8, t_enter: 8, t_exit: 9, point: [0.5, 1, 0.25], normal: [0, 1, 0] });
  });

  test('raycastAABB called from a getter of another raycastAABB\'s plain-array ray: both answers right', () => {
    const target = new Float32Array(9);
    const innerTarget = new Float32Array(9);
    let innerHit = null;
    const ray = [-5, 0, 0, 1, 0];
    Object.defineProperty(ray, 5, { get() {
      innerHit = sc.raycastAABB([0.5, 9, 0.25, 0, -1, 0, Infinity], [0, 0, 0, 1, 1, 1], innerTarget);
      return 0;
    }, enumerable: true });
    ray.push(Infinity);
    expect(sc.raycastAABB(ray, [1, -1, -1, 3, 1, 1], target)).toBe(true);
    expect(Array.from(target)).toEqual([6, 6, 8, 1, 0, 0, -1, 0, 0]);
    expect(innerHit).toBe(true);
    expect(Array.from(innerTarget)).toEqual([8, 8, 9, 0.5, 1, 0.25, 0, 1, 0]);
  });

  test('the memory grows under a getter: raycast still reads and writes the live memory', () => {
    for (const shape of [{ type: 'sphere', center: [2, 0, 0], radius: 1 }, box]) {
      const before = sc.memory.buffer;
      const worlds = [];
      const ray = { origin: [-5, 0, 0], get dir() {
        for (let i = 0; i < 64 && sc.memory.buffer === before; i++) {
          const w = sc.createWorld();
          w.addAABBs(new Float32Array(6 * 100000).fill(1)); // 2.4 MB each, until the memory grows
          worlds.push(w);
        }
        return [1, 0, 0];
      } };
      const got = sc.raycast(ray, shape);
      expect(sc.memory.buffer === before).toBe(false);
      expect(compare({ origin: [-5, 0, 0], dir: [1, 0, 0] }, shape)).toBe('');
      expect(got).toEqual(sc.raycast({ origin: [-5, 0, 0], dir: [1, 0, 0] }, shape));
      expect(got.hit).toBe(true);
      for (const w of worlds) w.dispose();
    }
  });
});

describe('an OBB\'s fields read once each, in layout order (docs/case-runner.md)', () => {
  /** A Proxy over target recording every property read as `${name}.${key}` into log. */
  const spy = (target, name, log) => new Proxy(target, { get(t, k) { log.push(`${name}.${String(k)}`); return Reflect.get(t, k); } });
  const vec = (v, name, log) => spy(v, name, log);
  const obbOf = (log, axes) => spy({
    type: 'obb', center: vec([0, 0, 0], 'center', log), axes, half: vec([1, 1, 1], 'half', log),
  }, 'shape', log);

  test('every field and element once, center, axes[0..2], half; the answer unchanged', () => {
    const log = [];
    const axes = vec([vec([1, 0, 0], 'a0', log), vec([0, 1, 0], 'a1', log), vec([0, 0, 1], 'a2', log)], 'axes', log);
    const got = sc.raycast({ origin: [-5, 0, 0], dir: [1, 0, 0] }, obbOf(log, axes));
    expect(got).toEqual({ hit: true, t: 4, t_enter: 4, t_exit: 6, point: [-1, 0, 0], normal: [-1, 0, 0] });
    const elements = log.filter((e) => /\.[0-2]$/.test(e));
    expect(elements).toEqual([
      'center.0', 'center.1', 'center.2',
      'axes.0', 'a0.0', 'a0.1', 'a0.2', 'axes.1', 'a1.0', 'a1.1', 'a1.2', 'axes.2', 'a2.0', 'a2.1', 'a2.2',
      'half.0', 'half.1', 'half.2',
    ]);
    const fields = log.filter((e) => e.startsWith('shape.'));
    expect(fields).toEqual(['shape.type', 'shape.center', 'shape.axes', 'shape.half']);
  });

  test('a bad axis: all three axes read before the error, half never read', () => {
    const log = [];
    const axes = vec([vec([1, 0], 'a0', log), vec([0, 1, 0], 'a1', log), vec([0, 0, 1], 'a2', log)], 'axes', log);
    expect(() => sc.raycast({ origin: [-5, 0, 0], dir: [1, 0, 0] }, obbOf(log, axes)))
      .toThrow('"shape.axes" must be an array of 3 arrays of 3 numbers');
    expect(log).toContain('a2.2');
    expect(log.filter((e) => e.startsWith('half.') || e === 'shape.half')).toEqual([]);
  });
});
