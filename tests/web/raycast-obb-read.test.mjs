// sc.raycast of an OBB reads the caller's arrays and runs its certain-miss test in one function
// (web/core/obbcast.js, obbReadRay), and reads shape.type at a place picked by the previous call's
// type (web/core/queries.js). Checked here against references that share none of that code: the
// core's own sc_wasm_raycast called directly (helpers/core-raycast.mjs) for every answer and
// error, and shapes.js's obbRay on the floats validate.js's obbInto stages for the miss decision
// (obbRay is itself checked against the core in raycast-single.test.mjs).
import { beforeAll, describe, expect, test } from 'vitest';
import { rng } from '../../web/bench/scenes.mjs';
import { randomAxes } from './helpers/model-geom.mjs';
import { loadSlabcast } from '../../web/slabcast.js';
import { obbReadRay } from '../../web/core/obbcast.js';
import { UNSURE, obbRay } from '../../web/core/shapes.js';
import { obbInto } from '../../web/core/validate.js';
import { compareRaycast, coreRaycaster } from './helpers/core-raycast.mjs';

let sc;
let coreRaycast;
beforeAll(async () => {
  sc = await loadSlabcast();
  coreRaycast = await coreRaycaster();
});

/** compareRaycast (helpers/core-raycast.mjs) with this file's sc and core. */
const compare = (ray, shape, plain = shape) => compareRaycast(sc, coreRaycast, ray, shape, plain);

/**
 * An OBB near which rays pass, and a ray: a random rotation (some skewed up to and past the 1e-4
 * tolerance), the world axes (integer components: V8 sees small integers), or a signed
 * permutation with dyadic sizes (ties); several scales; now and then an invalid field (a negative
 * or NaN half, a NaN centre, an axis off the tolerance, a zero dir, a negative tmax).
 */
function nearCase(r) {
  const pick = (a) => a[Math.floor(r() * a.length)];
  const scale = pick([1, 1, 1e-3, 1e3, 1e6, 2 ** -30]);
  let axes = randomAxes(r);
  if (r() < 0.3) axes = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  if (r() < 0.3) axes = axes.map((a) => a.map((v) => v * (1 + (r() - 0.5) * 2.2e-4))); // to and past the tolerance
  const dyadic = r() < 0.25;
  if (dyadic) axes = pick([[[0, 0, 1], [1, 0, 0], [0, -1, 0]], [[-1, 0, 0], [0, 1, 0], [0, 0, -1]]]);
  const dy = (v) => Math.round(v * 8) / 8;
  const c = [r() * 4 - 2, r() * 4 - 2, r() * 4 - 2].map((v) => (dyadic ? dy(v) : v * scale));
  const h = [r() * 2, r() * 2, r() * 2].map((v) => (dyadic ? dy(v) + 0.125 : v * scale));
  const l = [0, 1, 2].map((i) => (dyadic ? (r() < 0.7 ? (r() < 0.5 ? -h[i] : h[i]) : dy(h[i] * (r() * 2 - 1))) : h[i] * (r() * 2.6 - 1.3)));
  const p = [0, 1, 2].map((k) => c[k] + axes[0][k] * l[0] + axes[1][k] * l[1] + axes[2][k] * l[2]);
  const d = [r() * 2 - 1, r() * 2 - 1, r() * 2 - 1].map((v) => (dyadic ? Math.round(v * 7) || 1 : v));
  const far = dyadic ? 3 : (2 + r() * 10) * scale * (r() < 0.1 ? -1 : 1);
  const ray = { origin: p.map((v, k) => v - far * d[k]), dir: d };
  if (r() < 0.3) ray.tmax = dyadic ? far : r() * 12 * scale;
  const shape = { type: 'obb', center: c, axes, half: h };
  const u = r();
  if (u < 0.01) h[Math.floor(r() * 3)] = -0.5;
  else if (u < 0.015) h[Math.floor(r() * 3)] = NaN;
  else if (u < 0.02) c[Math.floor(r() * 3)] = NaN;
  else if (u < 0.025) ray.dir = [0, 0, 0];
  else if (u < 0.03) ray.tmax = -1;
  else if (u < 0.035) axes[Math.floor(r() * 3)][Math.floor(r() * 3)] = Infinity;
  else if (u < 0.06) { // a non-finite float in the origin, dir, centre or half (obbReadRay's ball path relies on ballMiss refusing them)
    const v = pick([ray.origin, ray.dir, c, h]);
    v[Math.floor(r() * 3)] = pick([Infinity, -Infinity, NaN, 3e38, -3e38]);
    if (r() < 0.3) { const w = pick([ray.origin, ray.dir, c, h]); w[Math.floor(r() * 3)] = pick([Infinity, -Infinity, NaN]); }
  } else if (u < 0.07) ray.tmax = pick([NaN, -0, 0]);
  return { ray, shape };
}

/** The 7 floats of a ray object, as raycast stages them. */
const rayFloats = (ray) => new Float32Array([...ray.origin, ...ray.dir, ray.tmax ?? Infinity]);

describe('obbReadRay (obbcast.js): obbRay\'s decision on the floats obbInto stages, and the core\'s answer', () => {
  test('300000 rays near OBBs (rotated, skewed to and past the tolerance, world axes, dyadic; some invalid): the same decision as obbRay, the same staged floats, every miss the core\'s', () => {
    const r = rng(0x0BBE);
    const staged = new Float32Array(15);
    const s = new Float32Array(15);
    let claimed = 0;
    let unsure = 0;
    const problems = [];
    for (let i = 0; i < 300000; i++) {
      const { ray, shape } = nearCase(r);
      const rf = rayFloats(ray);
      obbInto(shape, staged);
      const want = obbRay(rf, staged);
      s.fill(7);
      const got = obbReadRay(rf, shape, s);
      if (got !== want) problems.push(`${JSON.stringify({ ray, shape })}: obbReadRay ${got}, obbRay ${want}`);
      if (got === UNSURE) {
        unsure++;
        if (!staged.every((v, k) => Object.is(v, s[k]))) problems.push(`${JSON.stringify({ ray, shape })}: staged ${Array.from(s)} vs ${Array.from(staged)}`);
        continue;
      }
      claimed++;
      const core = coreRaycast(ray.origin, ray.dir, ray.tmax ?? Infinity, shape);
      if (core.status !== 0 || core.hit) problems.push(`${JSON.stringify({ ray, shape })}: a miss claimed; core ${core.status} ${core.hit}`);
    }
    expect(problems.slice(0, 5)).toEqual([]);
    expect(claimed).toBeGreaterThan(50000);
    expect(unsure).toBeGreaterThan(100000);
  });

  test('the same rays through sc.raycast: the core\'s answer or error, bit for bit', () => {
    const r = rng(0x0BBF);
    const problems = [];
    for (let i = 0; i < 60000; i++) {
      const { ray, shape } = nearCase(r);
      const msg = compare(ray, shape);
      if (msg) problems.push(`${JSON.stringify({ ray, shape })}: ${msg}`);
    }
    expect(problems.slice(0, 5)).toEqual([]);
  });

  test('an OBB\'s vectors as typed arrays (Float32Array, Float64Array, mixed with plain arrays): the core\'s answer', () => {
    const r = rng(0x0BC0);
    const forms = [(v) => v, (v) => new Float32Array(v), (v) => new Float64Array(v)];
    const pick = (a) => a[Math.floor(r() * a.length)];
    const problems = [];
    for (let i = 0; i < 20000; i++) {
      const { ray, shape } = nearCase(r);
      const typed = {
        type: 'obb', center: pick(forms)(shape.center),
        axes: shape.axes.map((a) => pick(forms)(a)), half: pick(forms)(shape.half),
      };
      const msg = compare(ray, typed, shape);
      if (msg) problems.push(`${JSON.stringify({ ray, shape })}: ${msg}`);
    }
    expect(problems.slice(0, 5)).toEqual([]);
  });

  test('bad fields: the errors of validate.js\'s checks, in their order', () => {
    const ray = { origin: [-5, 0, 0], dir: [1, 0, 0] };
    const good = { type: 'obb', center: [0, 0, 0], axes: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], half: [1, 1, 1] };
    const bad = (field, v, msg) => {
      expect(() => sc.raycast(ray, { ...good, [field]: v })).toThrow(msg);
    };
    const vec = (f) => `"shape.${f}" must be an array of 3 numbers`;
    const axesMsg = '"shape.axes" must be an array of 3 arrays of 3 numbers';
    for (const v of [undefined, null, 3, [1, 2], [1, 2, 3, 4], [1, '2', 3], new BigInt64Array(3), new Float32Array(2), { 0: 1, 1: 2, 2: 3, length: 3 }]) {
      bad('center', v, vec('center'));
      bad('half', v, vec('half'));
      bad('axes', [[1, 0, 0], v, [0, 0, 1]], axesMsg);
    }
    bad('axes', [[1, 0, 0], [0, 1, 0]], axesMsg);
    bad('axes', new Float32Array(9), axesMsg);
    // a bad center is reported before a bad half; a bad axis before a bad half
    expect(() => sc.raycast(ray, { ...good, center: [0], half: [0] })).toThrow(vec('center'));
    expect(() => sc.raycast(ray, { ...good, axes: [[0]], half: [0] })).toThrow(axesMsg);
    // Int32Array is a typed array but not a float one: as obbInto (taKind only), it is read
    expect(compare(ray, { ...good, center: new Int32Array([0, 0, 0]) }, good)).toBe('');
  });
});

describe('shape.type read at a place picked by the previous call\'s type (queries.js)', () => {
  /** Shapes of every type, each type in several hidden classes (key orders, extra keys, a class, a Proxy). */
  function shapesOf(r) {
    const v = () => [r() * 4 - 2, r() * 4 - 2, r() * 4 - 2];
    const a = r() * 6.283185307179586;
    const axes = [[Math.cos(a), Math.sin(a), 0], [-Math.sin(a), Math.cos(a), 0], [0, 0, 1]];
    const h = () => [0.25 + r(), 0.25 + r(), 0.25 + r()];
    const c = v();
    const e = h();
    class Box { constructor() { this.type = 'aabb'; this.min = c.map((x, k) => x - e[k]); this.max = c.map((x, k) => x + e[k]); } }
    return [
      { type: 'obb', center: v(), axes, half: h() },
      { half: h(), axes, center: v(), type: 'obb' },
      { type: 'obb', center: v(), axes, half: h(), name: 'crate' },
      new Proxy({ type: 'obb', center: v(), axes, half: h() }, {}),
      { type: 'aabb', min: c.map((x, k) => x - e[k]), max: c.map((x, k) => x + e[k]) },
      new Box(),
      { type: 'sphere', center: v(), radius: 0.5 + r() },
      { radius: 0.5 + r(), center: v(), type: 'sphere' },
      { type: 'capsule', a: v(), b: v(), radius: 0.25 + r() },
      { type: 'plane', normal: [0, 0.6, 0.8], d: r() },
      Object.assign(Object.create({ type: 'sphere' }), { center: v(), radius: 1 }), // an inherited type
    ];
  }

  test('streaks of one type and calls that alternate, over many hidden classes per type: the core\'s answer every call', () => {
    const r = rng(0x7E5);
    const problems = [];
    let hits = 0;
    for (let i = 0; i < 3000; i++) {
      const shapes = shapesOf(r);
      const order = r() < 0.5 ? shapes.map((_, k) => k) : shapes.map(() => Math.floor(r() * shapes.length));
      for (const k of order) {
        const run = 1 + Math.floor(r() * 6);
        for (let j = 0; j < run; j++) {
          const ray = { origin: [r() * 10 - 5, r() * 10 - 5, r() * 10 - 5], dir: [r() * 2 - 1, r() * 2 - 1, r() * 2 - 1] };
          const shape = shapes[k];
          const plain = shape.type === 'obb' ? { type: 'obb', center: shape.center, axes: shape.axes, half: shape.half } : shape;
          const msg = compare(ray, shape, plain);
          if (msg) problems.push(`${i} ${k}: ${msg}`);
          if (sc.raycast(ray, shape).hit) hits++;
        }
      }
    }
    expect(problems.slice(0, 5)).toEqual([]);
    expect(hits).toBeGreaterThan(5000);
  });

  test('a shape whose type getter answers differently on each read: read once per call, answered as that type', () => {
    let reads = 0;
    const shape = {
      get type() { reads++; return reads % 2 ? 'sphere' : 'obb'; },
      center: [0, 0, 0], radius: 1, axes: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], half: [2, 2, 2],
    };
    const ray = { origin: [-5, 0, 0], dir: [1, 0, 0] };
    for (let i = 0; i < 6; i++) {
      const got = sc.raycast(ray, shape);
      expect(reads).toBe(i + 1);
      expect(got.t).toBe(i % 2 === 0 ? 4 : 3); // the sphere of radius 1, the box of half 2
    }
  });
});
